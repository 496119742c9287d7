"""An entrant's scorecard, the standings as they stood after any round and one round's
results as a PDF, on a Danish evening of 3 rounds played through the forms (placement and
match points as docs/rules.md and TOURNAMENTS.md score them, read from the standings).
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest
from flask import Flask

from .conftest import Table, pdf_text
from .test_tournaments_web import NAVA, Organiser, ok, play_quarantotto, table_phone

ENTRANTS = NAVA[:8]
LATE = "Ivy"
ROW = re.compile(r'<td>(\d+)</td>\s*<th scope="row"><a href="[^"]*/entrants/(\d+)">')
CARD = re.compile(r'<tr class="round-([a-z-]+)">\s*<th scope="row">(\d+)</th>\s*'
                  r"<td>([^<]*)</td>\s*<td>([^<]*)</td>\s*<td>([^<]*)</td>\s*"
                  r"<td>([^<]*)</td>\s*<td>([^<]*)</td>\s*<td>(\d+)</td>")


@pytest.fixture
def evening(app: Flask) -> tuple[Organiser, str]:
    """8 entrants, 3 Danish rounds of one Quarantotto game; a late entrant from round 2."""
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("quarantotto", ENTRANTS, rounds=3, opt_games=1)
    rng = random.Random(4)
    for number in range(1, 4):
        for link in organiser.seat(tournament_id):
            play_quarantotto(table_phone(app, link), rng)
        if number == 1:
            ok(organiser.post(f"/tournaments/{tournament_id}/entrants", {"entrant": LATE}))
    return organiser, tournament_id


def standings_after(client, tournament_id: str, after: int | None = None) -> list[int]:
    """The entrants' numbers, first place first, of the standings page (``?after=``)."""
    query = "" if after is None else f"?after={after}"
    page = ok(client.get(f"/tournaments/{tournament_id}/standings{query}"), 200)
    rows = ROW.findall(page.get_data(as_text=True).split("<caption", 2)[1])
    assert [int(place) for place, _n in rows] == list(range(1, len(rows) + 1))
    return [int(number) for _place, number in rows]


def test_a_scorecard_follows_the_standings_round_by_round(evening) -> None:
    organiser, tournament_id = evening
    state = organiser.state(tournament_id)
    names = [" + ".join(n) for n in state["entrants"]]
    after = [standings_after(organiser.client, tournament_id, n) for n in (1, 2, 3)]
    assert after[2] == standings_after(organiser.client, tournament_id)  # the latest
    assert [names[n] for n in after[2]] == [r["entrant"] for r in state["standings"]]
    for number, name in enumerate(names):
        page = ok(organiser.client.get(f"/tournaments/{tournament_id}/entrants/{number}"),
                  200).get_data(as_text=True)
        rows = CARD.findall(page)
        assert [int(r[1]) for r in rows] == [1, 2, 3]
        total = Fraction(0)
        for (kind, round_, table, place, points, match_points, running, rank), \
                played in zip(rows, state["rounds"], strict=True):
            line = next(r for r in played["standings"] if r["entrant"] == name)
            seated = [t for t in played["tables"] if name in t["entrants"]]
            if kind == "played":
                assert int(table) == seated[0]["number"]
                assert points == line["shown"]
                shown = float(match_points.replace("\u2212", "-"))
                assert abs(shown - float(Fraction(line["match_points"]))) < 0.051
                assert Fraction(place) >= 1
                opponents = set(seated[0]["entrants"]) - {name}
                assert all(o in page for o in opponents)
            else:  # the late entrant's first round: not entered yet, nothing taken
                assert (name, round_, kind, table, points) == (LATE, "1", "late", "—", "—")
            total += Fraction(line["points"])
            assert Fraction(running) == Fraction(f"{float(total):.1f}")
            assert int(rank) == after[int(round_) - 1].index(number) + 1
    late = ok(organiser.client.get(f"/tournaments/{tournament_id}/entrants/8"), 200)
    assert "Not entered yet: joined later." in late.get_data(as_text=True)
    # every entrant's name links to their scorecard, on the tournament page too
    show = organiser.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    for number in range(len(names)):
        assert f"/tournaments/{tournament_id}/entrants/{number}\"" in show


def test_the_standings_after_round_1_are_round_1s(evening) -> None:
    organiser, tournament_id = evening
    state = organiser.state(tournament_id)
    names = [" + ".join(n) for n in state["entrants"]]
    first = [names[n] for n in standings_after(organiser.client, tournament_id, 1)]
    assert first == [r["entrant"] for r in state["rounds"][0]["standings"]]
    assert first[-1] == LATE  # not entered yet: last
    page = organiser.client.get(f"/tournaments/{tournament_id}/standings?after=1")
    text = page.get_data(as_text=True)
    assert 'aria-current="page">After round 1<' in text
    assert "hx-trigger" not in text  # the past does not poll
    # an impossible round reads as the nearest one
    assert standings_after(organiser.client, tournament_id, 99) == \
        standings_after(organiser.client, tournament_id, 3)
    assert standings_after(organiser.client, tournament_id, -4) == \
        standings_after(organiser.client, tournament_id, 1)


def test_a_rounds_results_as_pdf_in_the_viewers_language(evening) -> None:
    organiser, tournament_id = evening
    state = organiser.state(tournament_id)
    show = organiser.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert f"/tournaments/{tournament_id}/rounds/2/results.pdf" in show
    stranger = Table(organiser.client.application.test_client())
    text, pages, _pages = pdf_text(stranger.client.get(
        f"/tournaments/{tournament_id}/rounds/2/results.pdf"))
    assert pages == 1
    assert "Friday evening" in text and "Results of round 2" in text
    assert "Overall, after 2 rounds" in text and "Position" in text
    for table in state["rounds"][1]["tables"]:
        assert all(name in text for name in table["entrants"])
    italian, _count, _pages = pdf_text(stranger.client.get(
        f"/tournaments/{tournament_id}/rounds/1/results.pdf?lang=it"))
    assert "Risultati del turno 1" in italian and "Generale, dopo 1 turno" in italian
    assert "Results" not in italian
    assert f"{LATE} riposa." in italian  # not entered yet: shown as sitting out


def test_seen_and_refused_as_the_tournament_page_is(evening) -> None:
    organiser, tournament_id = evening
    client = organiser.client
    for path in ("/tournaments/nope/entrants/0", "/tournaments/nope/rounds/1/results.pdf",
                 "/tournaments/nope/standings?after=1",
                 f"/tournaments/{tournament_id}/entrants/9",
                 f"/tournaments/{tournament_id}/rounds/4/results.pdf"):
        assert client.get(path).status_code == 404, path
    assert client.get("/tournaments/nope").status_code == 404
    # whoever holds the tournament's address sees its page, and so the scorecards too
    stranger = Table(organiser.client.application.test_client()).client
    for path in ("", "/entrants/3", "/standings?after=2"):
        assert stranger.get(f"/tournaments/{tournament_id}{path}").status_code == 200, path
