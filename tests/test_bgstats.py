"""A finished match sent to BG Stats: the link its makers document for other apps
(createPlay.html?data=<url-encoded JSON>), decoded and checked field by field for every game."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

from scorekeeper.db import db
from scorekeeper.models import Hand, Match, Player, Table

from .test_cavallore_web import add
from .test_fortyfive_web import FortyFive
from .test_people_web import change
from .test_quarantotto_web import play as play_quarantotto
from .test_scala40_web import ok
from .test_scala40_web import play as play_scala40

WEB = "https://app.bgstatsapp.com/createPlay.html"
APP = "bgstats://app.bgstatsapp.com/createPlay.html"
LINK = re.compile(r'data-bgstats(-app)? href="([^"]+)"')


def links(page: str) -> dict[str, str]:
    """The page's BG Stats links: "web" and "app"."""
    return {("app" if app else "web"): html.unescape(href) for app, href in LINK.findall(page)}


def decoded(link: str, base: str) -> dict[str, Any]:
    """The play a link carries: its ``data`` parameter, URL-decoded and JSON-parsed."""
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == base
    (data,) = parse_qs(parts.query, strict_parsing=True)["data"]
    return json.loads(data)


def sent(table, match_id: str) -> dict[str, Any]:
    """The play the sheet's actions send, the same on the Share page and through the app."""
    found = links(table.client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert set(found) == {"web", "app"}
    shared = links(table.client.get(f"/matches/{match_id}/share").get_data(as_text=True))
    assert shared == found
    data = decoded(found["web"], WEB)
    assert decoded(found["app"], APP) == data
    return data


def ranks(totals: list[int], *, lower: bool = False) -> list[int]:
    """Each total's rank: 1 + how many totals are better."""
    return [1 + sum((o < t) if lower else (o > t) for o in totals) for t in totals]


def expected_play(app, match_id: str, names: list[str], scores: list[int], ranked: list[int],
                  winners: list[bool], *, game: str, name: str, highest: bool = True,
                  start: int | None = 0) -> dict[str, Any]:
    """The play the test expects, from the database's ids and times and the figures the
    test computed."""
    with app.app_context():
        match = db.session.get(Match, match_id)
        hands = db.session.query(Hand).filter_by(match_id=match_id).order_by(Hand.number).all()
        location = db.session.get(Table, match.table_id).name
        ids = {p.name: p.id for p in db.session.query(Player).filter_by(table_id=match.table_id)}
        first, last = hands[0].created_at, hands[-1].updated_at
        table_id = match.table_id
    return {
        "sourceName": "Scorekeeper",
        "sourcePlayId": f"scorekeeper-{table_id}-{match_id}",
        # In the server's zone, the table's: a sheet page is the same for every browser.
        "playDate": first.replace(tzinfo=UTC).astimezone().strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": int((last - first).total_seconds() // 60),
        "location": location,
        "game": {"name": name, "sourceGameId": game, "highestWins": highest, "noPoints": False},
        "players": [
            {"name": who, "sourcePlayerId": f"scorekeeper-{table_id}-{ids[who]}",
             "score": scores[seat], "rank": ranked[seat], "winner": winners[seat],
             "startPlayer": seat == start, "role": ""}
            for seat, who in enumerate(names)],
    }


def test_a_navawhist_match(table, app):
    from scorekeeper.rules import navawhist

    names = ["Anna", "Bruno", "Carla"]
    match_id = table.new_match("navawhist", names, first_dealer=2, hook=False)
    totals = [0, 0, 0]
    for number, cards in enumerate(navawhist.deal_schedule(3)):
        dealer = (2 + number) % 3
        bids = [0, 0, 0]
        bids[dealer] = cards  # the dealer bids them all and takes them all
        tricks = [cards if seat == dealer else 0 for seat in range(3)]
        assert links(table.client.get(f"/matches/{match_id}").get_data(as_text=True)) == {}
        table.play_navawhist(match_id, bids, tricks)
        # docs/rules.md#navawhist: exact, cards + bid.
        totals = [t + cards + b for t, b in zip(totals, bids, strict=True)]
    best = max(totals)
    assert sent(table, match_id) == expected_play(
        app, match_id, names, totals, ranks(totals), [t == best for t in totals],
        game="navawhist", name="Navawhist", start=2)


def test_a_quarantotto_tie_with_its_date_and_length(table, app):
    names = ["Anna", "Bruno"]
    match_id = table.new_match("quarantotto", names, length="games", games=2)
    # docs/rules.md#quarantotto: each scores W - h, W the highest points in hand.
    assert play_quarantotto(table, match_id, 0, [None, 20]).status_code == 303
    assert links(table.client.get(f"/matches/{match_id}").get_data(as_text=True)) == {}
    assert play_quarantotto(table, match_id, 1, [20, None]).status_code == 303
    totals = [20 - 0 + 20 - 20, 20 - 20 + 20 - 0]
    assert totals[0] == totals[1]
    with app.app_context():
        first, last = db.session.query(Hand).filter_by(match_id=match_id).order_by(Hand.number)
        first.created_at = datetime(2026, 3, 7, 20, 15, 30)
        last.updated_at = datetime(2026, 3, 7, 21, 52, 10)
        db.session.commit()
    data = sent(table, match_id)
    assert data == expected_play(app, match_id, names, totals, [1, 1], [True, True],
                                 game="quarantotto", name="Quarantotto")
    start = datetime(2026, 3, 7, 20, 15, 30, tzinfo=UTC).astimezone()
    assert data["playDate"] == start.strftime("%Y-%m-%d %H:%M:%S")
    assert data["durationMin"] == 96  # 1 h 36 min 40 s, in whole minutes


def test_a_quarantotto_player_who_left_is_ranked_last(table, app):
    names = ["Anna", "Bruno", "Carla"]
    match_id = table.new_match("quarantotto", names, length="games", games=2)
    assert play_quarantotto(table, match_id, 0, [None, 30, 5]).status_code == 303
    assert change(table, match_id, "leave", seat=2).status_code == 303
    assert play_quarantotto(table, match_id, 1, [20, None, None]).status_code == 303
    totals = [30 + 20, 0 + 20 - 0, 30 - 5]
    totals[0] -= 20  # Anna's 20 in hand in game 2: W = 20, Anna scores 0
    assert totals == [30, 20, 25]
    # Carla left: placed after those who played on, whatever her total.
    ranked = ranks(totals[:2]) + [3]
    assert table.sheet(match_id)["players"][2]["state"] == "left"
    assert sent(table, match_id) == expected_play(
        app, match_id, names, totals, ranked, [True, False, False],
        game="quarantotto", name="Quarantotto")


def test_scala40_lowest_wins_by_elimination_and_by_fixed_deals(table, app):
    names = ["Anna", "Bruno"]
    for options in ({}, {"end": "deals", "deals": 1}):
        match_id = table.new_match("scala40", names, **options)
        ok(play_scala40(table, match_id, 0, {1: 150}))
        totals = [0, 150]
        assert sent(table, match_id) == expected_play(
            app, match_id, names, totals, ranks(totals, lower=True), [True, False],
            game="scala40", name="Scala 40", highest=False)


def test_fortyfive_sides_share_their_score_rank_and_win(table, app):
    names = ["Anna", "Bruno", "Carla", "Dario"]
    match_id = table.new_match("fortyfive", names, first_dealer=1)
    ff = FortyFive(table, match_id)
    sides = [0, 0]
    while sides[0] < 45:
        assert ff.side_tricks([4, 1], bonus_side=0).status_code == 303
        # docs/rules.md#forty-five: 5 a trick, 5 more to the side with the best trump.
        sides = [sides[0] + 4 * 5 + 5, sides[1] + 1 * 5]
    side_of = [0, 1, 0, 1]
    totals = [sides[side_of[seat]] for seat in range(4)]
    side_ranks = ranks(sides)
    assert sent(table, match_id) == expected_play(
        app, match_id, names, totals, [side_ranks[side_of[s]] for s in range(4)],
        [side_of[s] == 0 for s in range(4)], game="fortyfive", name="Forty-Five", start=1)


def test_a_cavallore_log_counts_each_player_s_wins(table, app):
    names = ["Anna", "Bruno"]
    match_id = table.new_match("cavallore", names)
    assert links(table.client.get(f"/matches/{match_id}").get_data(as_text=True)) == {}
    for placed, seat in ((36, 0), (12, 0), (20, 1)):
        assert add(table, match_id, placed, seat).status_code == 303
    wins = [1, 0]  # a deal is won when all 36 cards are placed (docs/rules.md#cavallo-re)
    assert sent(table, match_id) == expected_play(
        app, match_id, names, wins, ranks(wins), [w > 0 for w in wins],
        game="cavallore", name="Cavallo Re", start=None)


def test_an_unfinished_match_offers_no_link(table):
    match_id = table.new_match("quarantotto", ["Anna", "Bruno"], length="games", games=2)
    assert play_quarantotto(table, match_id, 0, [None, 20]).status_code == 303
    for page in (f"/matches/{match_id}", f"/matches/{match_id}/share"):
        response = table.client.get(page)
        assert response.status_code == 200
        assert "bgstatsapp" not in response.get_data(as_text=True)


def test_a_seat_held_by_a_substitute_goes_to_the_person_credited(table, app):
    names = ["Anna", "Bruno"]
    match_id = table.new_match("quarantotto", names, length="games", games=3)
    assert play_quarantotto(table, match_id, 0, [None, 10]).status_code == 303
    assert change(table, match_id, "substitute", seat=0, name="Elena").status_code == 303
    assert play_quarantotto(table, match_id, 1, [15, None]).status_code == 303
    assert play_quarantotto(table, match_id, 0, [None, 25]).status_code == 303
    totals = [10 + 0 + 25, 0 + 15 + 0]
    # Elena held seat 0 for 2 of its 3 games: the seat's result is hers.
    assert table.sheet(match_id)["players"][0]["credited"] == "Elena"
    assert sent(table, match_id) == expected_play(
        app, match_id, ["Elena", "Bruno"], totals, ranks(totals), [True, False],
        game="quarantotto", name="Quarantotto")
