"""Tournament evenings played through the forms: the organiser's phone creates the
tournament and seats each round, one phone per table joins its table's match by the code on
the seating page and plays it, and every standing is checked against an expectation worked
out here from the matches' own sheets (placement and match points per TOURNAMENTS.md).
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db import db
from scorekeeper.models import Match

from .conftest import Table, pdf_text
from .test_fortyfive_web import FortyFive

KEEP = re.compile(r'href="(?:https?://[^/"]+)?(/tournaments/keep/[A-Za-z0-9_-]+)"')


def ok(response, status: int = 303) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)[:3000]
    return response


class Organiser(Table):
    """The organiser's phone: a member of the table the tournament is run from."""

    def __init__(self, client: FlaskClient, app: Flask) -> None:
        super().__init__(client)
        first = self.new_match("quarantotto", ["Org", "Helper"])
        with app.app_context():
            self.table_id = db.session.get(Match, first).table_id

    def create(self, game: str, entrants: list[str], **fields: Any) -> str:
        data = {"game": game, "name": "Friday evening", "entrants": "\n".join(entrants),
                "format": "danish", "rounds": 4, "size": 4, "go_on": 2, "seed": 2026}
        data.update(fields)
        response = ok(self.post(f"/tables/{self.table_id}/tournaments/new", data))
        return response.headers["Location"].rsplit("/", 1)[1]

    def state(self, tournament_id: str) -> dict[str, Any]:
        return ok(self.client.get(f"/tournaments/{tournament_id}.json"), 200).get_json()

    def version(self, tournament_id: str) -> int:
        """The tournament's version, as its page's forms carry it."""
        return self.state(tournament_id)["version"]

    def draw(self, tournament_id: str) -> str:
        """Draw the next round (seen by the organiser alone); its seating page's address."""
        response = ok(self.post(f"/tournaments/{tournament_id}/rounds",
                                {"version": self.version(tournament_id)}))
        return response.headers["Location"]

    def publish(self, tournament_id: str, number: int) -> list[str]:
        """Publish drawn round ``number``; the keep links of its tables, from its seating
        page."""
        response = ok(self.post(f"/tournaments/{tournament_id}/rounds/{number}/publish",
                                {"version": self.version(tournament_id)}))
        seating = ok(self.client.get(response.headers["Location"]), 200).get_data(as_text=True)
        return list(dict.fromkeys(KEEP.findall(seating)))

    def seat(self, tournament_id: str) -> list[str]:
        """Seat the next round and publish it; the keep links of its tables."""
        self.draw(tournament_id)
        return self.publish(tournament_id, len(self.state(tournament_id)["rounds"]))


def table_phone(app: Flask, keep: str) -> Table:
    """A new phone that scans a table's code and keeps that match."""
    phone = Table(app.test_client())
    ok(phone.client.get(keep), 200)
    response = ok(phone.post(keep, {}))
    phone.match_id = response.headers["Location"].split("/")[2].split("?")[0]
    return phone


# --- the expectation, from the matches' sheets --------------------------------------------------


def expected_round(sheets: list[dict[str, Any]], lower_wins: bool) -> dict[str, tuple]:
    """Each entrant's (placement points, match points, won) at their table."""
    out = {}
    for sheet in sheets:
        names = [column_name(sheet, c) for c in range(len(sheet["totals"]))]
        totals = sheet["totals"]
        n = len(totals)
        sign = -1 if lower_wins else 1
        average = Fraction(sum(totals), n)
        for i, name in enumerate(names):
            better = sum(sign * t > sign * totals[i] for t in totals)
            level = sum(t == totals[i] for t in totals)
            points = Fraction(sum(n - 1 - p for p in range(better, better + level)), level)
            out[name] = (points, sign * (totals[i] - average), better == 0)
    return out


def column_name(sheet: dict[str, Any], column: int) -> str:
    return " + ".join(sheet["players"][s]["name"] for s in sheet["columns"][column])


def expected_standings(order: list[str], rounds: list[dict[str, tuple]]) -> list[tuple]:
    """(entrant, points, match points, wins) first place first, by points, match points,
    wins, then the draw's order (the games below leave no further tie)."""
    sums = {e: [Fraction(0), Fraction(0), 0] for e in order}
    for scores in rounds:
        for name, (points, match_points, won) in scores.items():
            sums[name][0] += points
            sums[name][1] += match_points
            sums[name][2] += won
    ranked = sorted(order, key=lambda e: (-sums[e][0], -sums[e][1], -sums[e][2],
                                          order.index(e)))
    return [(e, *sums[e]) for e in ranked]


def shown(rows: list[dict[str, Any]]) -> list[tuple]:
    return [(r["entrant"], Fraction(r["points"]), Fraction(r["match_points"]), r["wins"])
            for r in rows]


def draw(entrants: list[str], seed: int) -> list[str]:
    order = list(entrants)
    random.Random(seed).shuffle(order)
    return order


# --- the games ----------------------------------------------------------------------------------


def play_rummy(phone: Table, rng: random.Random, entry: str, hands: int | None = None) -> None:
    """Play ``hands`` hands (all that are left when None) of a game entered as a closer and
    the others' points (Scala 40's "scala40/deal", Quarantotto's "quarantotto/game")."""
    while (sheet := phone.sheet(phone.match_id))["next"] is not None and hands != 0:
        seats = len(sheet["players"])
        closer = rng.randrange(seats)
        data = {"version": sheet["version"], "number": sheet["next"]["number"],
                "action": "save", "closer": closer}
        data.update({f"values-{s}": rng.randrange(2, 60) for s in range(seats) if s != closer})
        ok(phone.post(f"/matches/{phone.match_id}/{entry}", data))
        hands = None if hands is None else hands - 1


def play_scala40(phone: Table, rng: random.Random, deals: int) -> None:
    play_rummy(phone, rng, "scala40/deal", deals)


def play_navawhist(phone: Table, rng: random.Random) -> None:
    while (sheet := phone.sheet(phone.match_id))["next"] is not None:
        cards = sheet["next"]["info"]["cards"]
        seats = len(sheet["players"])
        tricks = [0] * seats
        for _trick in range(cards):
            tricks[rng.randrange(seats)] += 1
        bids = [rng.randrange(cards + 1) for _seat in range(seats)]
        dealer = sheet["next"]["dealer"]
        if sum(bids) == cards:  # the dealer may not make the bids add up
            bids[dealer] = (bids[dealer] + 1) % (cards + 1)
            if sum(bids) == cards:
                bids[dealer] = (bids[dealer] + 1) % (cards + 1)
        phone.play_navawhist(phone.match_id, bids, tricks)


SCALA = [f"Player {n:02}" for n in range(1, 17)]


def test_a_16_entrant_scala40_evening_of_4_rounds(app: Flask) -> None:
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("scala40", SCALA, opt_end="deals", opt_deals=3)
    order = draw(SCALA, 2026)
    assert [r["entrant"] for r in organiser.state(tournament_id)["standings"]] == order
    rng = random.Random(7)
    rounds: list[dict[str, tuple]] = []
    phones: list[list[Table]] = []
    for number in range(1, 5):
        links = organiser.seat(tournament_id)
        assert len(links) == 4  # 16 entrants at tables of 4
        state = organiser.state(tournament_id)
        assert [r["closed"] for r in state["rounds"]] == [True] * (number - 1) + [False]
        tables = state["rounds"][-1]["tables"]
        assert sorted(n for t in tables for n in t["entrants"]) == sorted(SCALA)
        seated = [table_phone(app, link) for link in links]
        phones.append(seated)
        assert [p.match_id for p in seated] == [t["match"] for t in tables]
        # A table's phone keeps its own match and no other.
        other = seated[1].match_id
        refused = seated[0].post(f"/matches/{other}/scala40/deal", {"version": 0})
        assert refused.status_code == 403
        for phone in seated:
            play_scala40(phone, rng, 3)
        sheets = [organiser.sheet(p.match_id) for p in seated]
        assert all(s["status"] == "finished" for s in sheets)
        rounds.append(expected_round(sheets, lower_wins=True))
        if number == 2:
            # The organiser corrects deal 1 at table 1 of round 2: the standings follow.
            before = organiser.state(tournament_id)["standings"]
            match_id = seated[0].match_id
            version = organiser.sheet(match_id)["version"]
            ok(organiser.post(f"/matches/{match_id}/reopen", {"version": version}))
            sheet = organiser.sheet(match_id)
            deal = sheet["hands"][0]["inputs"]
            closer = deal["closer"]
            worst = next(s for s in range(4) if s != closer)
            data = {"version": sheet["version"], "number": 1, "action": "save",
                    "closer": closer}
            data.update({f"values-{s}": (99 if s == worst else 1) for s in range(4)
                         if s != closer})
            ok(organiser.post(f"/matches/{match_id}/scala40/1/edit", data))
            sheets[0] = organiser.sheet(match_id)
            rounds[-1] = expected_round(sheets, lower_wins=True)
            after = organiser.state(tournament_id)["standings"]
            assert after != before
        state = organiser.state(tournament_id)
        assert shown(state["rounds"][-1]["standings"]) == expected_standings(
            order, rounds[-1:])
        assert shown(state["standings"]) == expected_standings(order, rounds)
        assert not state["provisional"]
    # Seating round 2 closed round 1: its matches take no more changes, from any phone.
    first = phones[0][0]
    sheet = organiser.sheet(first.match_id)
    for phone in (first, organiser):
        response = phone.post(f"/matches/{first.match_id}/undo", {"version": sheet["version"]})
        assert response.status_code == 403
        assert "Round 1 is over: its matches take no more changes." in response.get_data(
            as_text=True)
    assert "Undo" not in organiser.client.get(f"/matches/{first.match_id}").get_data(
        as_text=True)
    assert organiser.state(tournament_id)["over"] is True
    page = organiser.client.get(f"/tournaments/{tournament_id}/standings").get_data(
        as_text=True)
    assert "Final standings" in page
    text, pages, _pages = pdf_text(organiser.client.get(
        f"/tournaments/{tournament_id}/standings.pdf"))
    winner = organiser.state(tournament_id)["standings"][0]
    assert "Final standings" in text and winner["entrant"] in text
    assert "Round 4" in text
    text, _count, _pages = pdf_text(organiser.client.get(
        f"/tournaments/{tournament_id}/rounds/1.pdf"))
    assert "Table 4" in text and "/tournaments/keep/" in text


NAVA = ["Ada", "Bea", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]


def test_a_12_entrant_navawhist_evening(app: Flask) -> None:
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("navawhist", NAVA, rounds=3, seed=11)
    order = draw(NAVA, 11)
    rng = random.Random(3)
    rounds: list[dict[str, tuple]] = []
    for number in range(1, 4):
        links = organiser.seat(tournament_id)
        assert len(links) == 3
        seated = [table_phone(app, link) for link in links]
        for phone in seated[:-1]:
            play_navawhist(phone, rng)
        # The last table is still playing: the standings count it as it stands.
        play_navawhist_part = seated[-1]
        sheet = play_navawhist_part.sheet(play_navawhist_part.match_id)
        cards = sheet["next"]["info"]["cards"]
        play_navawhist_part.play_navawhist(play_navawhist_part.match_id, [0, 0, 0, 0],
                                           [cards, 0, 0, 0])
        state = organiser.state(tournament_id)
        assert state["provisional"] is True
        if number == 2:
            # A correction in round 2 (the organiser's phone, hand 1 of table 1).
            before = state["standings"]
            match_id = seated[0].match_id
            version = organiser.sheet(match_id)["version"]
            ok(organiser.post(f"/matches/{match_id}/reopen", {"version": version}))
            sheet = organiser.sheet(match_id)
            hand = sheet["hands"][0]["inputs"]
            data = {"version": sheet["version"], "number": 1, "trump": ""}
            flipped = list(reversed(hand["tricks"]))
            data.update({f"values-{s}": t for s, t in enumerate(flipped)})
            data.update({f"bids-{s}": b for s, b in enumerate(hand["bids"])})
            ok(organiser.post(f"/matches/{match_id}/navawhist/1/edit", data))
            assert organiser.state(tournament_id)["standings"] != before
        play_navawhist(play_navawhist_part, rng)
        sheets = [organiser.sheet(p.match_id) for p in seated]
        rounds.append(expected_round(sheets, lower_wins=False))
        state = organiser.state(tournament_id)
        assert not state["provisional"]
        assert shown(state["rounds"][-1]["standings"]) == expected_standings(order,
                                                                             rounds[-1:])
        assert shown(state["standings"]) == expected_standings(order, rounds)


def test_entrants_added_before_round_1_and_withdrawn_between_rounds(app: Flask) -> None:
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("quarantotto", NAVA[:7], rounds=2)
    # 7 entrants cannot start: the page says so, and nothing is seated.
    page = organiser.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    refused = organiser.post(f"/tournaments/{tournament_id}/rounds", {"version": version})
    assert refused.status_code == 422
    assert "A tournament starts with 8 to 64 entrants, not 7." in refused.get_data(as_text=True)
    assert organiser.state(tournament_id)["rounds"] == []
    twice = organiser.post(f"/tournaments/{tournament_id}/entrants", {"entrant": "ada"})
    assert twice.status_code == 422 and "ada is entered twice." in twice.get_data(as_text=True)
    ok(organiser.post(f"/tournaments/{tournament_id}/entrants", {"entrant": "Hal"}))
    ok(organiser.post(f"/tournaments/{tournament_id}/entrants", {"entrant": "Ivy"}))
    links = organiser.seat(tournament_id)
    assert len(links) == 3  # 9 sit 3, 3, 3
    late = organiser.post(f"/tournaments/{tournament_id}/entrants", {"entrant": "Jo"})
    assert late.status_code == 422
    assert "Round 1 is being played: a late entrant is added between rounds" in late.get_data(
        as_text=True)
    # Withdrawing a player in the middle of a round is refused, naming them.
    state = organiser.state(tournament_id)
    playing = state["rounds"][0]["tables"][0]["entrants"][0]
    number = state["entrants"].index([playing])
    busy = organiser.post(f"/tournaments/{tournament_id}/entrants/{number}/withdraw", {})
    assert busy.status_code == 422
    assert f"{playing} is playing round 1" in busy.get_data(as_text=True)
    rng = random.Random(5)
    for link in links:
        phone = table_phone(app, link)
        play_quarantotto(phone, rng)
    ok(organiser.post(f"/tournaments/{tournament_id}/entrants/{number}/withdraw", {}))
    organiser.seat(tournament_id)
    state = organiser.state(tournament_id)
    second = [n for t in state["rounds"][1]["tables"] for n in t["entrants"]]
    assert playing not in second and len(second) == 8  # 8 sit 4, 4
    row = next(r for r in state["standings"] if r["entrant"] == playing)
    assert row["withdrawn"] is True


def test_only_the_organisers_phones_change_a_tournament(app: Flask) -> None:
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("navawhist", NAVA)
    stranger = Table(app.test_client())
    assert stranger.client.get(f"/tournaments/{tournament_id}/standings").status_code == 200
    assert stranger.client.get(f"/tournaments/{tournament_id}/rounds/1").status_code == 403
    assert stranger.client.get(f"/tournaments/{tournament_id}/rounds/1/close").status_code \
        == 403
    for path in ("rounds", "close", "entrants", "rounds/1/reopen"):
        response = stranger.post(f"/tournaments/{tournament_id}/{path}",
                                 {"version": 0, "entrant": "Zed"})
        assert response.status_code == 403, path
    assert stranger.client.get(f"/tables/{organiser.table_id}/tournaments/new").status_code \
        == 403


@pytest.mark.parametrize(("fields", "message"), [
    ({"entrants": "Ada\nBea\nAda"}, "Ada is entered twice."),
    ({"pairs": "y", "entrants": "Ada + Bea\nCy"}, "“Cy”: a pair is two names joined by +"),
    ({"size": 12}, "Tables of 12 do not suit Navawhist"),
])
def test_a_refused_tournament_says_why_and_stores_nothing(app, fields, message) -> None:
    organiser = Organiser(app.test_client(), app)
    data = {"game": "navawhist", "name": "Evening", "entrants": "\n".join(NAVA),
            "format": "danish", "rounds": 4, "size": 4, "go_on": 2, "seed": 1, **fields}
    response = organiser.post(f"/tables/{organiser.table_id}/tournaments/new", data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_a_round_closed_as_it_stands_and_the_last_round(app: Flask) -> None:
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("quarantotto", NAVA[:8], rounds=1)
    links = organiser.seat(tournament_id)
    phone = table_phone(app, links[0])
    home = phone.client.get("/").get_data(as_text=True)
    assert "Sheets this phone keeps" in home and f"/matches/{phone.match_id}" in home
    page = phone.client.get(f"/matches/{phone.match_id}?kept=1").get_data(as_text=True)
    assert "This phone now keeps this table’s sheet, and no other." in page
    assert "Friday evening" in page and "Round 1" in page and "Table 1" in page
    assert "Rematch" not in page and "Delete" not in page
    assert phone.post(f"/matches/{phone.match_id}/delete", {"version": 0}).status_code == 403
    sheet = phone.sheet(phone.match_id)
    data = {"version": sheet["version"], "number": 1, "action": "save", "closer": 0,
            "values-1": 30, "values-2": 12, "values-3": 7}
    ok(phone.post(f"/matches/{phone.match_id}/quarantotto/game", data))
    # The last round offers no round after it: only to end the evening.
    page = organiser.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "Seat round 2" not in page and "seat round 2" not in page
    assert "End the tournament" in page
    # Both tables are still playing: ending the evening asks first, and closes nothing.
    asked = ok(organiser.post(f"/tournaments/{tournament_id}/close", {}), 200)
    text = asked.get_data(as_text=True)
    assert "Close round 1?" in text and "2 tables are still playing." in text
    assert "1 hand completed: the places go by the totals as they stand." in text
    assert "The organiser can reopen round 1 afterwards." in text
    assert organiser.state(tournament_id)["rounds"][0]["closed"] is False
    ok(organiser.post(f"/tournaments/{tournament_id}/close",
                      {"confirm": CONFIRM.search(text).group(1)}))
    state = organiser.state(tournament_id)
    assert state["over"] is True and state["rounds"][0]["closed"] is True
    # Game 1 counts as it stands; the match is set aside, and says the round is over.
    page = phone.client.get(f"/matches/{phone.match_id}").get_data(as_text=True)
    assert "Round 1 is over: its matches take no more changes." in page
    assert "Final standings" in organiser.client.get(
        f"/tournaments/{tournament_id}/standings").get_data(as_text=True)
    # A save sent from a page opened before the round closed gets the live sheet saying so.
    data["number"], data["version"] = 2, phone.sheet(phone.match_id)["version"]
    late = phone.post(f"/matches/{phone.match_id}/quarantotto/game", data,
                      headers={"HX-Request": "true"})
    assert late.status_code == 403 and late.headers["HX-Retarget"] == "#live"
    body = late.get_data(as_text=True)
    assert "Round 1 is over: its matches take no more changes." in body
    assert "<html" not in body
    with app.app_context():
        assert db.session.get(Match, phone.match_id).abandoned is True
    # The organiser reopens the last round: the evening is not over, game 2 is saved.
    ok(organiser.post(f"/tournaments/{tournament_id}/rounds/1/reopen",
                      {"version": organiser.state(tournament_id)["version"]}))
    state = organiser.state(tournament_id)
    assert state["over"] is False and state["rounds"][0]["closed"] is False
    data["version"] = phone.sheet(phone.match_id)["version"]
    ok(phone.post(f"/matches/{phone.match_id}/quarantotto/game", data))
    with app.app_context():
        assert db.session.get(Match, phone.match_id).abandoned is False
    assert len(phone.sheet(phone.match_id)["hands"]) == 2


def play_quarantotto(phone: Table, rng: random.Random) -> None:
    play_rummy(phone, rng, "quarantotto/game")


def test_a_knockout_goes_on_to_its_final_and_stops(app: Flask) -> None:
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("quarantotto", NAVA[:8], format="knockout", go_on=2,
                                     opt_games=1)
    rng = random.Random(9)
    sizes = []
    while True:
        links = organiser.seat(tournament_id)
        for link in links:
            play_quarantotto(table_phone(app, link), rng)
        state = organiser.state(tournament_id)
        sizes.append([len(t["entrants"]) for t in state["rounds"][-1]["tables"]])
        if state["over"]:
            break
    assert sizes == [[4, 4], [4]]  # the top two of each table go on to a final of four
    final = state["rounds"][-1]
    finalists = {name for t in final["tables"] for name in t["entrants"]}
    assert {row["entrant"] for row in state["standings"][:4]} == finalists
    page = organiser.client.get(f"/tournaments/{tournament_id}")
    version = re.search(r'name="version" value="(\d+)"', page.get_data(as_text=True))
    assert version is None  # no next round is offered
    refused = organiser.post(f"/tournaments/{tournament_id}/rounds",
                             {"version": organiser.state(tournament_id)["version"]})
    assert refused.status_code == 422
    assert "The knockout is over: its final has been played." in refused.get_data(as_text=True)


def test_groups_keep_their_tables_and_a_deleted_match_carries_through(app: Flask) -> None:
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("quarantotto", NAVA, format="groups", rounds=2,
                                     opt_games=1)
    rng = random.Random(4)
    first = organiser.seat(tournament_id)
    phones = [table_phone(app, link) for link in first]
    for phone in phones:
        play_quarantotto(phone, rng)
    second = [table_phone(app, link) for link in organiser.seat(tournament_id)]
    state = organiser.state(tournament_id)
    groups = [sorted(t["entrants"]) for t in state["rounds"][0]["tables"]]
    assert [sorted(t["entrants"]) for t in state["rounds"][1]["tables"]] == groups
    for phone in second:
        play_quarantotto(phone, rng)
    # The organiser deletes table 1's match of round 2: its entrants tie (1.5 each), and
    # the standings follow; a round closed before keeps its matches.
    match_id = second[0].match_id
    before = organiser.state(tournament_id)["standings"]
    version = organiser.sheet(match_id)["version"]
    ok(organiser.post(f"/matches/{match_id}/delete", {"version": version}))
    state = organiser.state(tournament_id)
    assert state["standings"] != before
    table = state["rounds"][1]
    assert table["tables"][0]["match"] is None
    points = {r["entrant"]: Fraction(r["points"]) for r in table["standings"]}
    assert {points[name] for name in table["tables"][0]["entrants"]} == {Fraction(3, 2)}
    closed = phones[0].match_id
    version = organiser.sheet(closed)["version"]
    assert organiser.post(f"/matches/{closed}/delete", {"version": version}).status_code == 403


# --- closing a round with tables still playing, and reopening it -----------------------------


CONFIRM = re.compile(r'name="confirm" value="([^"]+)"')


def version_of(organiser: Organiser, tournament_id: str) -> int:
    return organiser.state(tournament_id)["version"]


def test_closing_a_round_with_a_table_playing_asks_first_and_can_be_reopened(app) -> None:
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("quarantotto", NAVA[:8], rounds=3, opt_games=1)
    links = organiser.seat(tournament_id)
    phones = [table_phone(app, link) for link in links]
    play_quarantotto(phones[0], random.Random(2))  # table 1 finishes, table 2 enters nothing
    waiting = organiser.state(tournament_id)["rounds"][0]["tables"][1]["entrants"]
    # The page offers the closing as a step of its own (a link: no JavaScript needed).
    page = organiser.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    ask = f"/tournaments/{tournament_id}/rounds/1/close?then=seat"
    assert f'href="{ask}"' in page
    # A tap that only seats the next round closes nothing: it is asked what closing gives.
    version = version_of(organiser, tournament_id)
    asked = ok(organiser.post(f"/tournaments/{tournament_id}/rounds", {"version": version}),
               200)
    for response in (asked, ok(organiser.client.get(ask), 200)):
        text = response.get_data(as_text=True)
        assert "Close round 1?" in text and "1 table is still playing." in text
        assert "Table 2" in text and "Table 1<" not in text
        assert "No hand completed: everyone ties and nobody wins." in text
        for name in waiting:  # each entrant of table 2 gets (4 − 1) / 2 = 1.5
            assert re.search(rf"<th scope=\"row\">{name}</th>\s*<td>1\.5</td>", text), name
        assert "The organiser can reopen round 1 until round 2 has its first saved hand." \
            in text
    state = organiser.state(tournament_id)
    assert len(state["rounds"]) == 1 and state["rounds"][0]["closed"] is False
    # A confirmation shown before a table moved on is asked again, nothing closed.
    key = CONFIRM.search(asked.get_data(as_text=True)).group(1)
    sheet = phones[1].sheet(phones[1].match_id)
    stale = organiser.post(f"/tournaments/{tournament_id}/rounds",
                           {"version": version, "confirm": "stale"})
    assert stale.status_code == 409
    assert "The tables moved on meanwhile" in stale.get_data(as_text=True)
    assert len(organiser.state(tournament_id)["rounds"]) == 1
    # Confirmed: round 1 is closed (table 2 early) and round 2 seated.
    ok(organiser.post(f"/tournaments/{tournament_id}/rounds",
                      {"version": version, "confirm": key}))
    state = organiser.state(tournament_id)
    assert [r["closed"] for r in state["rounds"]] == [True, False]
    assert state["rounds"][0]["closed_early"] == [2]
    points = {r["entrant"]: Fraction(r["points"]) for r in state["rounds"][0]["standings"]}
    assert {points[name] for name in waiting} == {Fraction(3, 2)}
    second = [t["match"] for t in state["rounds"][1]["tables"]]
    refused = phones[1].post(f"/matches/{phones[1].match_id}/quarantotto/game", {
        "version": phones[1].sheet(phones[1].match_id)["version"], "number": 1,
        "action": "save", "closer": 0, "values-1": 30, "values-2": 12, "values-3": 7})
    assert refused.status_code == 403
    # Round 2 has no saved hand: the organiser reopens round 1.
    page = organiser.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "Reopen round 1" in page
    ok(organiser.post(f"/tournaments/{tournament_id}/rounds/1/reopen",
                      {"version": version_of(organiser, tournament_id)}))
    state = organiser.state(tournament_id)
    assert len(state["rounds"]) == 1 and state["rounds"][0]["closed"] is False
    assert state["provisional"] is True  # table 2 plays on: its 1.5 each are gone
    for match_id in second:
        assert organiser.client.get(f"/matches/{match_id}").status_code == 404
    assert sheet["version"] < phones[1].sheet(phones[1].match_id)["version"]
    assert "closed as it stood" not in organiser.client.get(
        f"/tournaments/{tournament_id}").get_data(as_text=True)
    play_quarantotto(phones[1], random.Random(3))
    sheets = [organiser.sheet(p.match_id) for p in phones]
    state = organiser.state(tournament_id)
    assert not state["provisional"]
    assert shown(state["standings"]) == expected_standings(
        draw(NAVA[:8], 2026), [expected_round(sheets, lower_wins=False)])
    # Every table finished: seating round 2 asks nothing; once round 2 has a saved hand,
    # round 1 stays closed.
    links = organiser.seat(tournament_id)
    late = table_phone(app, links[0])
    page = organiser.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "Reopen round 1" in page
    play_quarantotto(late, random.Random(4))
    page = organiser.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "Reopen round 1" not in page
    refused = organiser.post(f"/tournaments/{tournament_id}/rounds/1/reopen",
                             {"version": version_of(organiser, tournament_id)})
    assert refused.status_code == 422
    assert "Round 1 can no longer be reopened: round 2 has begun." in refused.get_data(
        as_text=True)
    assert [r["closed"] for r in organiser.state(tournament_id)["rounds"]] == [True, False]


def test_the_confirmation_speaks_the_organisers_language(app) -> None:
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("quarantotto", NAVA[:8], rounds=2)
    organiser.seat(tournament_id)
    page = organiser.client.get(f"/tournaments/{tournament_id}/rounds/1/close?then=seat",
                                headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Chiudere il turno 1?" in page and "Nessuna mano completata" in page
    assert "Close round" not in page and "No hand completed" not in page


# --- Forty-Five evenings through the form alone ------------------------------------------------


FORTYFIVE = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]


def form_fields(page: str) -> dict[str, str]:
    """What the new-tournament form posts as the page gives it: every field it shows, with
    its value (a checkbox only when checked), the way a browser sends it."""
    fields = {}
    for tag in re.findall(r"<(?:input|select|textarea)\b[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or 'type="checkbox"' in tag and "checked" not in tag:
            continue
        value = re.search(r'value="([^"]*)"', tag)
        fields[name.group(1)] = value.group(1) if value else ""
    for name, text in re.findall(r'<textarea[^>]*name="([^"]+)"[^>]*>([^<]*)</textarea>', page):
        fields[name] = text
    for name, body in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', page,
                                 re.DOTALL):
        chosen = re.search(r'<option selected value="([^"]*)"|<option value="([^"]*)" selected',
                           body) or re.search(r'<option[^>]*value="([^"]*)"', body)
        fields[name] = next(g for g in chosen.groups() if g is not None)
    return fields


def test_a_fortyfive_knockout_is_created_through_its_form_and_plays_a_final_of_two(app):
    organiser = Organiser(app.test_client(), app)
    page = ok(organiser.client.get(f"/tables/{organiser.table_id}/tournaments/new"
                                   "?game=fortyfive"), 200).get_data(as_text=True)
    fields = form_fields(page)
    assert "size" not in fields  # Forty-Five seats 5 and 3 of its own: no size is asked
    fields.update({"name": "Forty-Five evening", "entrants": "\n".join(FORTYFIVE),
                   "format": "knockout", "go_on": "1", "opt_jink": "y"})
    response = ok(organiser.post(f"/tables/{organiser.table_id}/tournaments/new", fields))
    tournament_id = response.headers["Location"].rsplit("/", 1)[1]
    state = organiser.state(tournament_id)
    assert state["game"] == "fortyfive" and state["format"] == "knockout"
    # Round 1 at tables of 5 and 3; each table's first seat wins a hand by jink.
    winners = []
    for link in organiser.seat(tournament_id):
        phone = table_phone(app, link)
        assert FortyFive(phone, phone.match_id).side_tricks(
            [5] + [0] * (len(phone.sheet(phone.match_id)["columns"]) - 1),
            bonus_side=0).status_code == 303
        winners.append(phone.sheet(phone.match_id)["players"][0]["name"])
    state = organiser.state(tournament_id)
    assert [len(t["entrants"]) for t in state["rounds"][0]["tables"]] == [5, 3]
    # The two winners go on to a final of two.
    final = organiser.seat(tournament_id)
    state = organiser.state(tournament_id)
    assert len(final) == 1 and sorted(state["rounds"][1]["tables"][0]["entrants"]) == \
        sorted(winners)
    phone = table_phone(app, final[0])
    assert FortyFive(phone, phone.match_id).side_tricks([0, 5], bonus_side=1).status_code \
        == 303
    state = organiser.state(tournament_id)
    champion = phone.sheet(phone.match_id)["players"][1]["name"]
    assert state["over"] is True and state["standings"][0]["entrant"] == champion
    assert {r["entrant"] for r in state["standings"][:2]} == set(winners)


def test_a_refused_form_names_the_field_it_is_about(app) -> None:
    organiser = Organiser(app.test_client(), app)
    data = {"game": "fortyfive", "name": "Evening", "entrants": "\n".join(FORTYFIVE),
            "format": "danish", "rounds": "", "go_on": 2, "seed": 1}
    response = organiser.post(f"/tables/{organiser.table_id}/tournaments/new", data)
    assert response.status_code == 422
    assert "Rounds: This field is required." in response.get_data(as_text=True)
    response = organiser.post(f"/tables/{organiser.table_id}/tournaments/new",
                              {**data, "rounds": 4, "game": "navawhist", "size": "x"})
    assert response.status_code == 422
    assert "Entrants a table: Not a valid integer value." in response.get_data(as_text=True)


# --- round robin in groups: the first dealer after a withdrawal ----------------------------------


def test_a_group_shrunk_by_a_withdrawal_deals_on_from_the_last_dealer(app) -> None:
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("quarantotto", NAVA[:8], format="groups", rounds=3,
                                     opt_games=1)
    rng = random.Random(6)
    for _round in (1, 2):
        for link in organiser.seat(tournament_id):
            play_quarantotto(table_phone(app, link), rng)
    state = organiser.state(tournament_id)
    table = state["rounds"][1]["tables"][0]
    dealer = table["entrants"][table["dealer"]]
    after = table["entrants"][(table["dealer"] + 1) % 4]
    # Round 2's first dealer at table 1 withdraws: the next after them deals round 3.
    number = state["entrants"].index([dealer])
    ok(organiser.post(f"/tournaments/{tournament_id}/entrants/{number}/withdraw", {}))
    organiser.seat(tournament_id)
    third = organiser.state(tournament_id)["rounds"][2]["tables"][0]
    assert third["entrants"] == [e for e in table["entrants"] if e != dealer]
    assert third["entrants"][third["dealer"]] == after


def test_a_refused_form_names_its_field_in_the_users_language(app) -> None:
    organiser = Organiser(app.test_client(), app)
    data = {"game": "navawhist", "name": "Evening", "entrants": "\n".join(FORTYFIVE),
            "format": "danish", "rounds": 4, "size": "", "go_on": 2, "seed": 1}
    response = organiser.post(f"/tables/{organiser.table_id}/tournaments/new", data,
                              headers={"Accept-Language": "it"})
    assert response.status_code == 422
    assert "Iscritti per tavolo: " in response.get_data(as_text=True)
    # A new match's players, whose field has no label of its own, are named by the message.
    page = organiser.post("/matches/new", {"game": "navawhist", "players-0": "Anna",
                                           "players-1": "Anna", "action": "start"},
                          headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Players:" not in page and "First Dealer:" not in page
