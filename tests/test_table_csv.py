"""Every hand of a table's matches as a CSV, a row per player per hand, read back as a
spreadsheet would: each game's own entries (Navawhist's bids and tricks, Scala 40's closing
in hand, Forty-Five's best trump, Cavallo Re's deals), the points and totals of the sheet
(docs/rules.md), who was in, sat out or not yet there, in English and in Italian (a
semicolon between fields), and for the table's members only."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask_babel import force_locale

from scorekeeper.engine.handrows import cell
from scorekeeper.engine.printing import safe_cell

from .test_access import other_phone, table_of
from .test_cavallore_web import add
from .test_fortyfive_web import FortyFive
from .test_people_web import change
from .test_quarantotto_web import play as play_quarantotto
from .test_scala40_web import ok
from .test_scala40_web import play as play_scala40

EN = {"Accept-Language": "en"}
IT = {"Accept-Language": "it"}
BOM = "\ufeff"
HEADINGS = {
    "en": ["Match", "Game", "Started", "Hand", "Dealer", "Player", "Seat"],
    "it": ["Partita", "Gioco", "Inizio", "Mano", "Mazziere", "Giocatore", "Posto"],
}
TAIL = {"en": ["Points", "Total", "Presence"], "it": ["Punti", "Totale", "Presenza"]}


def read(response, delimiter: str = ",") -> list[dict[str, str]]:
    """The CSV's rows as dicts by heading, after checking it is UTF-8 with a BOM."""
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    text = response.get_data().decode("utf-8")
    assert text.startswith(BOM)
    return list(csv.DictReader(io.StringIO(text[1:]), delimiter=delimiter))


def figure(value: Any) -> str:
    return "" if value is None else str(value)


def rows_of(rows: list[dict[str, str]], match_id: str, match: str = "Match",
            hand: str = "Hand", player: str = "Player") -> dict[tuple[int, str], dict[str, str]]:
    """A match's rows by hand number and player (an id that starts with "-" is quoted, as
    any cell a spreadsheet would take for a formula)."""
    return {(int(r[hand]), r[player]): r for r in rows if r[match] == safe_cell(match_id)}


def play_every_game(table) -> dict[str, str]:
    """One match of each game on the phone's table, with a join and a sit-out."""
    ids = {}
    # Navawhist: all exact in hand 1 (cards + bid); Dario joins and Bruno sits out hand 2.
    ids["navawhist"] = m = table.new_match("navawhist", ["Anna", "Bruno", "Carla"], hook=False)
    table.play_navawhist(m, [0, 1, 0], [0, 1, 0])
    assert change(table, m, "join", name="Dario").status_code == 303
    assert change(table, m, "sit_out", seat=1).status_code == 303
    table.play_navawhist(m, [1, None, 0, 0], [1, "", 1, 0])
    # Quarantotto: Anna closes, Bruno holds 20; then Elena takes Anna's seat.
    ids["quarantotto"] = m = table.new_match("quarantotto", ["Anna", "Bruno"], length="games",
                                             games=3)
    assert play_quarantotto(table, m, 0, [None, 20]).status_code == 303
    assert change(table, m, "substitute", seat=0, name="Elena").status_code == 303
    assert play_quarantotto(table, m, 1, [15, None]).status_code == 303
    # Scala 40: Anna closes in hand (penalties doubled), Bruno holds a 5, Carla never opened.
    ids["scala40"] = m = table.new_match("scala40", ["Anna", "Bruno", "Carla"])
    ok(play_scala40(table, m, 0, {1: "5"}, never=(2,), in_hand="y"))
    # Forty-Five in pairs: Bruno takes the best trump.
    ids["fortyfive"] = m = table.new_match("fortyfive", ["Anna", "Bruno", "Carla", "Dario"])
    assert FortyFive(table, m).tap_winners([0, 1, 2, 0, 3], bonus=1).status_code == 303
    # Cavallo Re: Anna wins a deal, Bruno places 12 cards.
    ids["cavallore"] = m = table.new_match("cavallore", ["Anna", "Bruno"])
    assert add(table, m, 36, 0).status_code == 303
    assert add(table, m, 12, 1).status_code == 303
    return ids


def test_every_hand_of_a_table_a_row_per_player(table):
    ids = play_every_game(table)
    table_id = table_of(table, ids["navawhist"])
    response = table.client.get(f"/tables/{table_id}.csv", headers=EN)
    assert 'filename="' in response.headers["Content-Disposition"]
    assert response.headers["Content-Disposition"].endswith('.csv"')
    rows = read(response)
    headings = list(rows[0])
    assert headings[:7] == HEADINGS["en"] and headings[-3:] == TAIL["en"]
    # Each game's own columns, a heading two games share (Tricks) once.
    assert headings[7:-3] == ["Bid", "Tricks", "Result", "Points in hand", "Closing",
                              "Penalty", "Side", "Side’s tricks", "Best trump"]

    # Every row agrees with the sheet: a row per seat per hand, the seat's column's points
    # and total, its presence.
    for game, match_id in ids.items():
        sheet = table.sheet(match_id)
        names = [p["name"] for p in sheet["players"]]
        column = {s: c for c, seats in enumerate(sheet["columns"]) for s in seats}
        mine = rows_of(rows, match_id)
        expected = 0
        for hand in sheet["hands"]:
            # Who held each seat then: its player, or the substitute from their hand.
            held = [([h["name"] for h in p["held_by"] if h["from_hand"] <= hand["number"]]
                     or [p["name"]])[-1] for p in sheet["players"]]
            for seat, name in enumerate(held):
                row = mine.get((hand["number"], name))
                played = hand["presence"][seat] if seat < len(hand["presence"]) else "not_yet"
                if played == "in" and hand["points"][column[seat]] is None:
                    assert row is None, (game, hand["number"], name)  # another's deal
                    continue
                expected += 1
                assert row is not None, (game, hand["number"], name)
                assert row["Game"] == {"navawhist": "Navawhist", "quarantotto": "Quarantotto",
                                       "scala40": "Scala 40", "fortyfive": "Forty-Five",
                                       "cavallore": "Cavallo Re"}[game]
                assert row["Points"] == figure(hand["points"][column[seat]])
                assert row["Total"] == figure(hand["totals"][column[seat]])
                assert row["Presence"] == {"in": "playing", "out": "out",
                                           "not_yet": "not yet joined", "gone": "left"}[played]
                assert row["Dealer"] == ("" if hand["dealer"] is None
                                         else held[hand["dealer"]])
        assert len(mine) == expected
        last = {r["Seat"]: r["Total"] for _key, r in sorted(mine.items())}
        assert [last.get(str(p["turn"] + 1)) for p in sheet["players"]] == [
            figure(sheet["totals"][column[s]]) for s in range(len(names))]

    nava = rows_of(rows, ids["navawhist"])
    # docs/rules.md#navawhist: exact scores cards + bid.
    assert (nava[1, "Bruno"]["Bid"], nava[1, "Bruno"]["Tricks"], nava[1, "Bruno"]["Result"],
            nava[1, "Bruno"]["Points"]) == ("1", "1", "exact", "2")
    assert nava[1, "Dario"]["Presence"] == "not yet joined" and nava[1, "Dario"]["Points"] == ""
    assert nava[2, "Bruno"]["Presence"] == "out" and nava[2, "Bruno"]["Bid"] == ""
    assert nava[2, "Dario"]["Presence"] == "playing" and nava[2, "Dario"]["Seat"] == "4"
    assert (nava[2, "Carla"]["Bid"], nava[2, "Carla"]["Tricks"], nava[2, "Carla"]["Result"],
            nava[2, "Carla"]["Points"]) == ("0", "1", "off by one", "0")
    assert nava[2, "Anna"]["Total"] == "4"  # (1 card + bid 0) + (2 cards + bid 1)

    quarantotto = rows_of(rows, ids["quarantotto"])
    assert quarantotto[1, "Anna"]["Closing"] == "closed"
    assert quarantotto[1, "Bruno"]["Points in hand"] == "20"
    # docs/rules.md#quarantotto: each scores the worst hand's points minus their own.
    assert (quarantotto[1, "Anna"]["Points"], quarantotto[1, "Bruno"]["Points"]) == ("20", "0")
    # Elena plays Anna's seat from game 2 on, its total carried on.
    assert (2, "Anna") not in quarantotto and quarantotto[2, "Elena"]["Seat"] == "1"
    assert (quarantotto[2, "Elena"]["Points in hand"], quarantotto[2, "Elena"]["Total"]) == (
        "15", "20")
    assert quarantotto[2, "Bruno"]["Closing"] == "closed"

    scala = rows_of(rows, ids["scala40"])
    assert scala[1, "Anna"]["Closing"] == "closed in hand"
    assert scala[1, "Carla"]["Closing"] == "never opened"
    # docs/rules.md#scala-40: closed in hand doubles every penalty, never opened is 100.
    assert (scala[1, "Bruno"]["Penalty"], scala[1, "Carla"]["Penalty"]) == ("10", "200")
    assert scala[1, "Carla"]["Total"] == "200"

    ff = rows_of(rows, ids["fortyfive"])
    # Sides Anna + Carla and Bruno + Dario; 5 a trick, 5 more for the best trump
    # (docs/rules.md#forty-five): 3 tricks are 15, 2 and the best trump 15.
    assert [ff[1, n]["Side"] for n in ("Anna", "Bruno", "Carla", "Dario")] == ["1", "2", "1", "2"]
    assert [ff[1, n]["Tricks"] for n in ("Anna", "Bruno", "Carla", "Dario")] == ["2", "1", "1", "1"]
    assert ff[1, "Bruno"]["Side’s tricks"] == "2" and ff[1, "Anna"]["Side’s tricks"] == "3"
    assert [ff[1, n]["Best trump"] for n in ("Anna", "Bruno", "Carla", "Dario")] == [
        "", "yes", "", ""]
    assert ff[1, "Dario"]["Points"] == ff[1, "Bruno"]["Points"] == "15"

    cavallo = rows_of(rows, ids["cavallore"])
    assert set(cavallo) == {(1, "Anna"), (2, "Bruno")}  # a deal is one player's
    assert (cavallo[1, "Anna"]["Result"], cavallo[1, "Anna"]["Points"]) == ("won", "36")
    assert (cavallo[2, "Bruno"]["Result"], cavallo[2, "Bruno"]["Points"]) == ("lost", "12")


def test_in_italian_with_semicolons(table):
    ids = play_every_game(table)
    table_id = table_of(table, ids["navawhist"])
    response = table.client.get(f"/tables/{table_id}.csv", headers=IT)
    assert response.get_data().decode("utf-8").split("\n", 1)[0].count(";") > 10
    rows = read(response, ";")
    headings = list(rows[0])
    assert headings[:7] == HEADINGS["it"] and headings[-3:] == TAIL["it"]
    assert {"Dichiarazione", "Prese", "Esito", "Chiusura", "Briscola più alta"} <= set(headings)
    scala = rows_of(rows, ids["scala40"], "Partita", "Mano", "Giocatore")
    assert scala[1, "Anna"]["Chiusura"] == "ha chiuso in mano"
    assert scala[1, "Carla"]["Chiusura"] == "non ha aperto"
    nava = rows_of(rows, ids["navawhist"], "Partita", "Mano", "Giocatore")
    assert nava[1, "Dario"]["Presenza"] == "non ancora al tavolo"
    assert nava[2, "Bruno"]["Presenza"] == "fuori"
    started = nava[1, "Anna"]["Inizio"]
    assert len(started) == 10 and started[4] == started[7] == "-"  # ISO: 2026-12-05
    # ?lang= asks for the other language whatever the browser's.
    assert list(read(table.client.get(f"/tables/{table_id}.csv?lang=en", headers=IT))[0])[:7] \
        == HEADINGS["en"]


def test_figures_as_each_language_writes_them(app):
    with app.test_request_context():
        for lang, half, negative in (("en", "2.5", "-12"), ("it", "2,5", "-12")):
            with force_locale(lang):
                assert (cell(2.5), cell(-12), cell(None), cell("=1+1")) == (
                    half, negative, "", "'=1+1")


def test_one_match_a_row_per_player(table):
    match_id = table.new_match("navawhist", ["Anna", "Bruno"], hook=False)
    table.play_navawhist(match_id, [0, 1], [0, 2])
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f"/matches/{match_id}/hands.csv" in page
    response = table.client.get(f"/matches/{match_id}/hands.csv", headers=EN)
    assert response.headers["Content-Disposition"].endswith('.hands.csv"')
    rows = read(response)
    assert [(r["Player"], r["Bid"], r["Tricks"], r["Points"]) for r in rows] == [
        ("Anna", "0", "0", "2"), ("Bruno", "1", "2", "0")]
    assert list(rows[0]) == [*HEADINGS["en"], "Bid", "Tricks", "Result", *TAIL["en"]]


def test_only_the_table_s_phones_get_its_hands(table, app):
    match_id = table.new_match("quarantotto", ["Anna", "Bruno"], length="games", games=2)
    assert play_quarantotto(table, match_id, 0, [None, 20]).status_code == 303
    table_id = table_of(table, match_id)
    assert f"/tables/{table_id}.csv" in table.client.get(f"/tables/{table_id}").get_data(
        as_text=True)
    stranger = other_phone(app)
    response = stranger.client.get(f"/tables/{table_id}.csv")
    assert response.status_code == 403
    assert "Anna" not in response.get_data(as_text=True)
    assert stranger.client.get("/tables/no-such-table.csv").status_code == 404
