"""Printed sheets: the PDF of a played match and blank sheets, read back as text."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from scorekeeper.rules import navawhist

from .conftest import pdf_text
from .test_navawhist_web import legal_hand

pytestmark = pytest.mark.slow

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo", "Irene", "Luca"]


def play(table, players: int, hands: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    match_id = table.new_match("navawhist", NAMES[:players])
    for index, cards in enumerate(navawhist.deal_schedule(players)[:hands]):
        table.play_navawhist(match_id, *legal_hand(rng, cards, players, index % players))
    return match_id


def test_pdf_of_a_finished_navawhist_match(table, client):
    match_id = play(table, 4, 16)
    sheet = table.sheet(match_id)
    response = client.get(f"/matches/{match_id}.pdf")
    assert "navawhist-" in response.headers["Content-Disposition"]
    assert response.headers["Content-Disposition"].endswith('.pdf"')
    text, pages, page_list = pdf_text(response)
    assert pages <= 2
    assert page_list[0].mediabox.width < page_list[0].mediabox.height  # portrait
    for name in NAMES[:4]:
        assert name in text
    for total in sheet["totals"]:
        assert (str(total) if total >= 0 else f"\u2212{-total}") in text  # a true minus
    assert "Final ranking" in text
    winner = sheet["ranking"][0]
    flat = text.replace("\n", " ")
    assert f"1. {winner['names'][0]}" in flat or f"1.{winner['names'][0]}" in flat
    assert f"1 / {pages}" in text
    assert "hook" in text and "yes" in text


def test_largest_pdf_is_landscape_with_numbered_pages(table, client):
    match_id = play(table, 10, 20)
    text, pages, page_list = pdf_text(client.get(f"/matches/{match_id}.pdf"))
    assert pages >= 2
    assert page_list[0].mediabox.width > page_list[0].mediabox.height
    assert f"1 / {pages}" in text and f"{pages} / {pages}" in text
    for name in NAMES:
        assert name in text


@pytest.mark.parametrize("players", [2, 4, 10])
def test_blank_navawhist_sheet_has_the_schedule(client, players):
    text, pages, _list = pdf_text(client.get(
        f"/sheets/blank.pdf?game=navawhist&players={players}&lang=en&name=Zoe"))
    schedule = navawhist.deal_schedule(players)
    rows = [line.split() for line in text.splitlines()]
    numbered = {int(r[0]): int(r[1]) for r in rows if len(r) >= 2 and r[0].isdigit()
                and r[1].isdigit() and int(r[0]) <= len(schedule)}
    assert numbered == {i + 1: cards for i, cards in enumerate(schedule)}
    assert "Zoe" in text and "Case 4" in text
    assert pages == (2 if players == 10 else 1)


@pytest.mark.parametrize("game,players,expected", [
    ("quarantotto", 4, "A = 15"),
    ("scala40", 3, "A = 11"),
    ("fortyfive", 4, "5♦ J♦ A♥ A♦"),
    ("cavallore", 1, "1 in 10"),
])
def test_blank_sheets_of_the_other_games(client, game, players, expected):
    text, pages, _list = pdf_text(client.get(
        f"/sheets/blank.pdf?game={game}&players={players}&lang=en"))
    assert expected in text
    assert pages == 1


@pytest.mark.parametrize("query", [
    "game=poker&players=4", "game=navawhist&players=11", "game=navawhist&players=x",
    "game=navawhist&players=4&lang=fr", "players=4", "game=scala40&players=1",
])
def test_bad_blank_sheet_requests_are_400(client, query):
    response = client.get(f"/sheets/blank.pdf?{query}")
    assert response.status_code == 400
    assert "alert" in response.get_data(as_text=True)


def test_print_page_and_download_button(table, client):
    assert "sheets/blank.pdf" in client.get("/sheets").get_data(as_text=True)
    match_id = table.new_match("navawhist", ["Anna", "Bruno"])
    assert f"/matches/{match_id}.pdf" in client.get(f"/matches/{match_id}").get_data(as_text=True)


LAZY_CHECK = """
import subprocess
import sys
from scorekeeper.db import upgrade
from scorekeeper import create_app
app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                  "SQLALCHEMY_DATABASE_URI": "sqlite:///" + sys.argv[1]})
with app.app_context():
    upgrade()
client = app.test_client()
response = client.post("/matches/new", data={"game": "navawhist", "players-0": "Anna",
                                             "players-1": "Bruno", "action": "start"})
match = response.headers["Location"]
assert client.get(match).status_code == 200 and client.get("/").status_code == 200
print("before", "weasyprint" in sys.modules)
pdf = client.get(match + ".pdf")
assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
print("after", "weasyprint" in sys.modules)
"""


def test_weasyprint_is_never_imported_by_the_app_process(tmp_path):
    # A fresh interpreter, so that no other test imported WeasyPrint before: the PDF is
    # rendered by the renderer process, and the app's own memory never holds WeasyPrint.
    result = subprocess.run([sys.executable, "-c", LAZY_CHECK, str(tmp_path / "lazy.db")],
                            capture_output=True, text=True, timeout=120, check=True)
    assert "before False" in result.stdout and "after False" in result.stdout


@pytest.mark.parametrize(("players", "names"), [(4, NAMES[:4]), (10, NAMES),
                                                (3, ["Anna", "Bruno", "Massimiliano Terzi"])])
def test_a_printed_row_is_one_line_of_fields_that_fits_its_page(app, table, players, names):
    """Every row's figures, and the totals, are fields of one width: as wide as the widest
    figures and the heading (up to WIDEST_NAME); a row's leading cells are fields as wide
    as their heading and widest cell, a dealer's name cut short past WIDEST_NAME; the whole
    line in a font as large as the page allows. The rows are printed in blocks of lines."""
    from scorekeeper.db import db
    from scorekeeper.engine.printing import (
        BLOCK,
        LARGEST_PT,
        LINE_MM,
        MONO_EM,
        PORTRAIT_COLUMNS,
        WIDEST_NAME,
        printed_sheet,
    )
    from scorekeeper.engine.sheets import compute_sheet
    from scorekeeper.models import Match
    from scorekeeper.web.games import spec_of

    rng = random.Random(3)
    match_id = table.new_match("navawhist", names)
    for index, cards in enumerate(navawhist.deal_schedule(players)[:12]):
        table.play_navawhist(match_id, *legal_hand(rng, cards, players, index % players))
    with app.test_request_context():
        match = db.session.get(Match, match_id)
        sheet = compute_sheet(match)
        printed = printed_sheet(match, sheet, match.names, spec_of("navawhist").printing)
    lines = [printed.line(row.cells) for row in printed.rows]
    assert {len(line) for line in lines} == {printed.field * players}
    for line in lines:  # each cell right-aligned in its field, a space either side
        fields = [line[i:i + printed.field] for i in range(0, len(line), printed.field)]
        assert all(f[0] == " " and f[-1] == " " and f[-2] != " " for f in fields if f.strip())
    widest = max(len(cell) for row in printed.rows for cell in row.cells)
    heading = max(len(name) for name in names)
    assert printed.field == max(widest, min(heading, WIDEST_NAME - 2), 7) + 2
    full = [printed.text([row]) for row in printed.rows]
    lead = sum(printed.widths)
    assert {len(line) for line in full} == {lead + printed.field * players}
    assert [line[lead:] for line in full] == lines
    for row, line in zip(printed.rows, full, strict=True):
        number, dealer = line[:printed.widths[0]], line[lead - printed.widths[-1]:lead]
        assert number.split() == [str(row.number)] and number.endswith(f"{row.number} ")
        name = row.lead[-1]
        assert dealer.strip() == (name if len(name) <= WIDEST_NAME - 2 else "Massimiliano…")
    assert printed.widths[-1] == min(max(len(printed.lead[-1][0]), *map(len, names)) + 2,
                                     WIDEST_NAME)
    width_mm = (lead + printed.field * players) * MONO_EM * printed.size * 25.4 / 72
    assert width_mm <= LINE_MM[players > PORTRAIT_COLUMNS]
    assert printed.size == LARGEST_PT or width_mm > 0.97 * LINE_MM[players > PORTRAIT_COLUMNS]
    blocks = printed.blocks()
    assert [row for block in blocks for row in block] == list(printed.rows)
    assert [len(block) for block in blocks] == [BLOCK, BLOCK, 2]
    assert printed.text(blocks[0]).split("\n") == full[:BLOCK]


def test_a_long_match_chart_is_drawn_through_a_few_hundred_points_at_most():
    from scorekeeper.engine.charts import MOST, running_chart
    from scorekeeper.rules import GAMES

    rules, target = GAMES["quarantotto"], {"length": "target", "target": 10**5}
    hands = [{"closer": n % 3, "points": [None if s == n % 3 else 2 + (n * s) % 40
                                          for s in range(3)]} for n in range(1000)]
    short, long = (running_chart(rules.build_sheet(3, hands[:n], **target)) for n in (50, 1000))
    assert [len(s.points.split()) for s in short.series] == [51] * 3  # every hand
    assert [len(s.points.split()) for s in long.series] == [MOST + 1] * 3
    last = rules.build_sheet(3, hands, **target).totals
    assert [s.total for s in long.series] == list(last) and long.hands == 1000
    assert long.top == max(last)  # Quarantotto's totals only grow
