"""Every printed sheet, read back with pypdf: each game, played and blank, Italian and English,
in progress and finished. A played sheet prints each hand's points with the running total
beside them, in the downloader's language; a match in progress ends with blank rows to carry
on by hand; the pages are numbered and as few as the match needs."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from .conftest import Table
from .test_sheets import play as play_navawhist
from .test_sheets_games import (
    CAVALLORE_DEALS,
    NAMES,
    QUARANTOTTO_GAMES,
    cavallore_deal,
    fortyfive_hand,
    pdf_text,
    quarantotto_game,
    scala40_deal,
)

HEADINGS = {"en": "Players, in turn order", "it": "Giocatori, in ordine di turno"}
TOTAL = {"en": "Total", "it": "Totale"}


def quarantotto(table, finished: bool) -> str:
    match_id = table.new_match("quarantotto", NAMES[:4], first_dealer=2)
    for closer, hands in QUARANTOTTO_GAMES[:None if finished else 2]:
        quarantotto_game(table, match_id, closer, hands)
    return match_id


def scala40(table, finished: bool) -> str:
    match_id = table.new_match("scala40", NAMES[:4], reentry=True)
    scala40_deal(table, match_id, 0, {1: "A", 2: "Q Q 9", 3: "* * A K 9 8 7 6 5"})
    scala40_deal(table, match_id, 1, {0: "K", 2: "7 3", 3: "5"}, in_hand="y", reentries=(3,))
    if finished:
        scala40_deal(table, match_id, action="annul")
        scala40_deal(table, match_id, 2, {0: "A K", 1: "J", 3: "8 8"}, never=(0,))
        scala40_deal(table, match_id, 3, {1: "10+15+8", 2: "A"})
        scala40_deal(table, match_id, 1, {3: "Jolly Jolly Jolly Jolly 2"}, never=(2,))
    return match_id


def fortyfive(table, finished: bool) -> str:
    match_id = table.new_match("fortyfive", NAMES[:4])
    fortyfive_hand(table, match_id, winners=[0, 1, 2, 0, 3], bonus=1)
    fortyfive_hand(table, match_id, side_tricks=[3, 2], bonus_side=1)
    if finished:
        fortyfive_hand(table, match_id, side_tricks=[3, 2], bonus_side=1)
        fortyfive_hand(table, match_id, winners=[0, 0, 2, 1, 2], bonus=2)
    return match_id


def navawhist(table, finished: bool) -> str:
    return play_navawhist(table, 4, 16 if finished else 5)


def cavallore(table, finished: bool) -> str:
    match_id = table.new_match("cavallore", NAMES[:3])
    for seat, placed in CAVALLORE_DEALS:
        cavallore_deal(table, match_id, placed, seat)
    return match_id


PLAYS = {"navawhist": navawhist, "quarantotto": quarantotto, "scala40": scala40,
         "fortyfive": fortyfive, "cavallore": cavallore}
# Cavallo Re is a log that never ends: it is only ever printed in progress.
VARIANTS = [(game, finished) for game in PLAYS for finished in (False, True)
            if not (game == "cavallore" and finished)]


def lines(text: str) -> list[list[int]]:
    """Each line of the text as its whole numbers (the printed minus sign read as one)."""
    return [[int(n) for n in re.findall(r"-?\d+", line.replace("−", "-"))]
            for line in text.splitlines()]


def table_lines(text: str, lang: str) -> list[str]:
    """The printed table's rows: the lines between its heading and its last total line (a
    table that runs over a page repeats its heading and total line on each)."""
    rows = text.splitlines()
    start = next(i for i, line in enumerate(rows) if line.startswith("# "))
    end = max(i for i, line in enumerate(rows) if line.startswith(TOTAL[lang]))
    return rows[start + 1:end]


def row_line(rows: list[str], number: int) -> str:
    """The printed row of hand ``number``: the table line that starts with the number."""
    found = [line for line in rows if line.split()[:1] == [str(number)]]
    assert found, f"no line for hand {number}"
    return found[0]


def in_order(wanted: list[int], found: list[int]) -> bool:
    rest = iter(found)
    return all(any(w == f for f in rest) for w in wanted)


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize(("game", "finished"), VARIANTS)
def test_played_sheet(table, client, game, finished, lang):
    match_id = PLAYS[game](table, finished)
    sheet = table.sheet(match_id)
    assert (sheet["status"] == "finished") == finished
    client.set_cookie("lang", "it" if lang == "en" else "en")  # ?lang= wins over the page
    response = client.get(f"/matches/{match_id}.pdf?lang={lang}")
    text, pages, _list = pdf_text(response)
    # The downloader's language, never the other one.
    assert HEADINGS[lang] in text
    assert HEADINGS["en" if lang == "it" else "it"] not in text
    # One page for these matches (Cavallo Re adds its statistics and charts), numbered.
    assert pages == (2 if game == "cavallore" else 1)
    assert all(f"{n} / {pages}" in text for n in range(1, pages + 1))
    rows = table_lines(text, lang)
    # Each hand: its points with the running total beside them, column by column.
    for hand in sheet["hands"]:
        if hand["annulled"]:
            continue
        figures = [n for p, t in zip(hand["points"], hand["totals"], strict=True)
                   if p is not None for n in (p, t)]
        numbers = lines(row_line(rows, hand["number"]))[0]
        assert in_order(figures, numbers), (hand, numbers)
    played = len(sheet["hands"])
    # Nothing that only a screen does.
    assert "Tap a" not in text and "Tocca" not in text
    total_line = [line for line in text.splitlines() if line.startswith(TOTAL[lang])][-1]
    if finished:
        assert in_order(sheet["totals"], lines(total_line)[0])
        assert len(rows) == played
        return
    # In progress: blank rows to go on by hand, no total yet.
    assert lines(total_line)[0] == []
    blank = [row_line(rows, n) for n in range(played + 1, played + 9)]
    if game == "navawhist":
        details = sheet["details"]
        names = [p["name"] for p in sheet["players"]]
        for number in range(played + 1, details["hands"] + 1):
            cards, dealer = details["schedule"][number - 1], names[details["dealers"][number - 1]]
            assert row_line(rows, number).split() == [str(number), str(cards), dealer]
    else:
        for line in blank[1:]:
            assert len(line.split()) == 1, line  # the number alone, every box empty


BLANK_WORDS = {"en": "Players, in turn order", "it": "Giocatori, in ordine di turno"}


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize(("game", "players", "rows"), [
    ("navawhist", 4, 16), ("quarantotto", 4, 12), ("scala40", 4, 18), ("fortyfive", 4, 14),
    ("cavallore", 1, 25),
])
def test_blank_sheet(client, game, players, rows, lang):
    text, pages, _list = pdf_text(client.get(
        f"/sheets/blank.pdf?game={game}&players={players}&lang={lang}"))
    assert BLANK_WORDS[lang] in text and BLANK_WORDS["en" if lang == "it" else "it"] not in text
    assert pages == 1
    numbered = {line[0] for line in lines(text) if line}
    assert set(range(1, rows + 1)) <= numbered


def test_the_page_language_without_lang(table, client):
    client.set_cookie("lang", "it")
    match_id = table.new_match("navawhist", ["Anna", "Bruno"])
    client.set_cookie("lang", "en")  # the reader's language, not the match's
    assert HEADINGS["en"] in pdf_text(client.get(f"/matches/{match_id}.pdf"))[0]
    client.set_cookie("lang", "it")
    assert HEADINGS["it"] in pdf_text(client.get(f"/matches/{match_id}.pdf"))[0]
    response = client.get(f"/matches/{match_id}.pdf?lang=fr")
    assert response.status_code == 400
    assert "Lingua sconosciuta" in response.get_data(as_text=True)


def test_file_names_tell_matches_apart(table, client):
    first = table.new_match("fortyfive", ["Anna", "Bruno", "Carla", "Niccolò"])
    second = table.new_match("fortyfive", ["Anna", "Bruno", "Carla", "Niccolò"])
    names = []
    for match_id in (first, second):
        disposition = client.get(f"/matches/{match_id}.pdf").headers["Content-Disposition"]
        name = re.search(r'filename="([^"]+)"', disposition).group(1)
        assert re.fullmatch(r"fortyfive-\d{4}-\d{2}-\d{2}-Anna-Bruno-Carla-Niccolo-\w{6}\.pdf",
                            name), name
        assert re.sub(r"[^A-Za-z0-9]", "", match_id)[:6] in name
        names.append(name)
    assert names[0] != names[1]


def test_a_pdf_is_made_once_per_version_and_language(cached_app, monkeypatch):
    # what the PDF cache saves is counted: the app has its caches on
    table = Table(cached_app.test_client())
    client = table.client
    from scorekeeper.views import exports as sheets

    made: list[Any] = []
    real = sheets.render_pdf
    monkeypatch.setattr(sheets, "render_pdf", lambda html: made.append(1) or real(html))
    match_id = table.new_match("quarantotto", NAMES[:4])
    first = client.get(f"/matches/{match_id}.pdf?lang=en").data
    assert client.get(f"/matches/{match_id}.pdf?lang=en").data == first
    assert len(made) == 1
    client.get(f"/matches/{match_id}.pdf?lang=it")
    assert len(made) == 2
    quarantotto_game(table, match_id, *QUARANTOTTO_GAMES[0])
    changed = client.get(f"/matches/{match_id}.pdf?lang=en").data
    assert len(made) == 3 and changed != first


def test_a_long_match_keeps_its_pages_numbered(table, client):
    match_id = table.new_match("cavallore", ["Anna"])
    rng = random.Random(5)
    for _deal in range(70):
        cavallore_deal(table, match_id, rng.choice([36, 12, 30]))
    text, pages, _list = pdf_text(client.get(f"/matches/{match_id}.pdf?lang=en"))
    assert pages >= 2 and all(f"{n} / {pages}" in text for n in range(1, pages + 1))
    rows = table_lines(text, "en")
    for number in (1, 70, 78):
        row_line(rows, number)
