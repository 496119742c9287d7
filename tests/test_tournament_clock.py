"""The round's clock of a tournament evening (docs/operating.md, "The round's clock"): chosen
on the new-tournament form, started when a round is published, read by the organiser's page,
each table's sheet and the table screen from the stored start and the time now. The time
now is the app's ``NOW`` (scorekeeper.web.tournaments.now), moved by the test, never waited
for; every answer is asked twice a minute apart, so that no cache can serve a stale one.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from flask import Flask

from scorekeeper.db import db
from scorekeeper.models import Table as TableRow
from scorekeeper.models import Tournament

from .conftest import count
from .test_tournaments_web import NAVA, Organiser, ok, table_phone

SEATED = datetime(2026, 12, 4, 21, 0)
CONFIRM = re.compile(r'name="confirm" value="([^"]+)"')


class Now:
    """The app's clock, set by the test."""

    def __init__(self, app: Flask) -> None:
        self.at = SEATED
        app.config["NOW"] = lambda: self.at

    def minutes(self, minutes: float) -> None:
        """Move to ``minutes`` after the round was seated."""
        self.at = SEATED + timedelta(minutes=minutes)


class Evening:
    """A Quarantotto evening with a 30-minute clock, round 1 seated and published at
    SEATED."""

    def __init__(self, app: Flask, **fields) -> None:
        self.now = Now(app)
        self.organiser = Organiser(app.test_client(), app)
        self.id = self.organiser.create("quarantotto", NAVA[:8], rounds=2,
                                        **{"round_minutes": 30, **fields})
        self.keeps = self.organiser.seat(self.id)
        self.phone = table_phone(app, self.keeps[0])
        with app.app_context():
            table = db.session.get(TableRow, self.organiser.table_id)
            self.screen = f"/tables/{table.id}/screen/{table.screen_token}"

    def pages(self) -> dict[str, str]:
        """The organiser's page, the table's sheet (its phone's page, and a follower's live
        part) and the table screen, as they read now."""
        get = self.organiser.client.get
        follower = self.phone.client.application.test_client()
        return {"organiser": get(f"/tournaments/{self.id}").get_data(as_text=True),
                "sheet": self.phone.client.get(f"/matches/{self.phone.match_id}")
                .get_data(as_text=True),
                "follower": follower.get(f"/matches/{self.phone.match_id}/live")
                .get_data(as_text=True),
                "screen": get(self.screen).get_data(as_text=True)}


def test_the_clock_is_refused_out_of_range_in_the_users_language(app: Flask) -> None:
    organiser = Organiser(app.test_client(), app)
    data = {"game": "quarantotto", "name": "Evening", "entrants": "\n".join(NAVA[:8]),
            "format": "danish", "rounds": 2, "size": 4, "go_on": 2, "seed": 1}
    url = f"/tables/{organiser.table_id}/tournaments/new"
    cases = [({"round_minutes": 20}, "A round lasts from 25 to 90 minutes.",
              "Un turno dura da 25 a 90 minuti."),
             ({"round_minutes": 91}, "A round lasts from 25 to 90 minutes.",
              "Un turno dura da 25 a 90 minuti."),
             ({"round_minutes": 30, "warning_minutes": 30},
              "“Last deal” is announced from 1 to 29 minutes before the end of a round of 30.",
              "«Ultima smazzata» si annuncia da 1 a 29 minuti prima della fine di un turno "
              "di 30."),
             ({"round_minutes": 30, "warning_minutes": 0},
              "“Last deal” is announced from 1 to 29 minutes",
              "«Ultima smazzata» si annuncia da 1 a 29 minuti")]
    for fields, english, italian in cases:
        for language, said in (("en", english), ("it", italian)):
            response = organiser.post(url, {**data, **fields},
                                      headers={"Accept-Language": language})
            assert response.status_code == 422, fields
            assert said in response.get_data(as_text=True), (fields, language)
    assert count(app, Tournament) == 0


def test_a_seated_round_shows_its_time_left_everywhere(app: Flask) -> None:
    evening = Evening(app)
    with app.app_context():
        tournament = db.session.get(Tournament, evening.id)
        assert (tournament.round_minutes, tournament.warning_minutes) == (30, 5)
        assert tournament.round_rows[0].started_at == SEATED
    state = evening.organiser.state(evening.id)
    assert (state["round_minutes"], state["warning_minutes"]) == (30, 5)
    assert state["rounds"][0]["started_at"] == "2026-12-04T21:00:00Z"
    for minutes, left in ((7, 23), (8, 22), (8.5, 22), (24, 6)):
        evening.now.minutes(minutes)
        for where, page in evening.pages().items():
            assert f"Round 1: {left} min left" in page, (where, minutes)
            assert 'class="clock clock-on"' in page, (where, minutes)
    # The line counts down by itself between polls, from the server's seconds.
    assert 'data-left="360"' in page and 'data-warning="300"' in page
    assert "js/clock.js" in evening.organiser.client.get(evening.screen).get_data(as_text=True)
    # In Italian.
    italian = evening.organiser.client.get(f"/tournaments/{evening.id}",
                                           headers={"Accept-Language": "it"})
    assert "Turno 1: mancano 6 min" in italian.get_data(as_text=True)


def test_last_deal_then_time_up_and_the_round_closed_as_it_stands(app: Flask) -> None:
    evening = Evening(app)
    for minutes in (25, 29.9):
        evening.now.minutes(minutes)
        for where, page in evening.pages().items():
            assert re.search(r'class="clock clock-last"[^>]*>Last deal<', page), (where, minutes)
    evening.now.minutes(30)
    pages = evening.pages()
    for where, page in pages.items():
        assert re.search(r'class="clock clock-up"[^>]*>Time is up: finish the deal in play<',
                         page), where
    # The organiser is offered to close the round as it stands, first; it asks, then closes.
    ask = f"/tournaments/{evening.id}/rounds/1/close"
    assert f'class="button primary big" href="{ask}"' in pages["organiser"]
    asked = ok(evening.organiser.client.get(ask), 200).get_data(as_text=True)
    ok(evening.organiser.post(f"/tournaments/{evening.id}/close",
                              {"confirm": CONFIRM.search(asked).group(1)}))
    state = evening.organiser.state(evening.id)
    assert state["rounds"][0]["closed"] and state["rounds"][0]["closed_early"] == [1, 2]
    for where, page in evening.pages().items():
        assert "data-clock" not in page, where
    # Round 2 has its own clock, from its own seating.
    evening.now.minutes(40)
    evening.organiser.seat(evening.id)
    evening.now.minutes(41)
    assert "Round 2: 29 min left" in evening.organiser.client.get(
        f"/tournaments/{evening.id}").get_data(as_text=True)


def test_a_warning_of_its_own(app: Flask) -> None:
    evening = Evening(app, round_minutes=45, warning_minutes=10)
    evening.now.minutes(34)
    assert "Round 1: 11 min left" in evening.pages()["sheet"]
    evening.now.minutes(35)
    assert 'class="clock clock-last"' in evening.pages()["sheet"]


@pytest.mark.parametrize("fields", [{}, {"round_minutes": "", "warning_minutes": ""}])
def test_no_clock_without_a_round_length(app: Flask, fields) -> None:
    evening = Evening(app, **{"round_minutes": "", **fields})
    with app.app_context():
        assert db.session.get(Tournament, evening.id).round_minutes is None
    state = evening.organiser.state(evening.id)
    assert state["round_minutes"] is None and state["warning_minutes"] is None
    evening.now.minutes(200)
    for where, page in evening.pages().items():
        assert "data-clock" not in page and "Time is up" not in page, where
