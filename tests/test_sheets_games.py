"""The PDF of a played match of each game besides Navawhist, read back as text: names and
sides, totals, the final ranking with shared places, the options in force, numbered pages
and the file's name."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest

from scorekeeper.rules import quarantotto

from .conftest import pdf_text

pytestmark = pytest.mark.slow

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]


def flat(text: str) -> str:
    """The text on one line with single spaces: cells and list items run together."""
    return " ".join(text.split())


def filename(response) -> str:
    return re.search(r'filename="([^"]+)"', response.headers["Content-Disposition"]).group(1)


# Quarantotto, as tests/test_quarantotto_web.py posts a game.
def quarantotto_game(table, match_id: str, closer: Any, hands: list[Any]):
    sheet = table.sheet(match_id)
    number = sheet["next"]["number"] if sheet["next"] else len(sheet["hands"]) + 1
    data = {"version": sheet["version"], "number": number, "action": "save", "closer": closer}
    data.update({f"values-{seat}": "" if h is None else h for seat, h in enumerate(hands)})
    response = table.post(f"/matches/{match_id}/quarantotto/game", data)
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]


# Scala 40, as tests/test_scala40_web.py posts a deal.
def scala40_deal(table, match_id: str, closer: Any = "", hands: dict[int, Any] | None = None,
                 *, never: tuple[int, ...] = (), in_hand: Any = None,
                 reentries: tuple[int, ...] = (), action: str = "save"):
    sheet = table.sheet(match_id)
    data: dict[str, Any] = {"version": sheet["version"], "number": sheet["next"]["number"],
                            "action": action, "closer": closer, "never": list(never),
                            "reentries": list(reentries)}
    if in_hand is not None:
        data["closed_in_hand"] = in_hand
    data.update({f"values-{seat}": h for seat, h in (hands or {}).items()})
    response = table.post(f"/matches/{match_id}/scala40/deal", data)
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]


# Forty-Five, as tests/test_fortyfive_web.py taps trick winners or gives tricks per side.
def fortyfive_hand(table, match_id: str, *, winners: list[int] | None = None, bonus: Any = None,
                   side_tricks: list[int] | None = None, bonus_side: Any = None):
    sheet = table.sheet(match_id)
    url = f"/matches/{match_id}/fortyfive/hand"
    state: dict[str, Any] = {"version": sheet["version"], "number": sheet["next"]["number"]}
    if winners is not None:
        state |= {"mode": "winners", "winners": ",".join(map(str, winners)), "bonus": bonus}
    else:
        state |= {"mode": "sides", "bonus_side": bonus_side}
        state |= {f"side-{c}": t for c, t in enumerate(side_tricks or [])}
    response = table.post(url, {**state, "action": "save"})
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]


# Cavallo Re, as tests/test_cavallore_web.py adds a deal.
def cavallore_deal(table, match_id: str, placed: int, seat: int = 0):
    sheet = table.sheet(match_id)
    response = table.post(f"/matches/{match_id}/cavallore/deal", {
        "version": sheet["version"], "number": sheet["next"]["number"],
        "placed": placed, "seat": seat})
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]


QUARANTOTTO_GAMES = [
    (0, [None, 20, 20, 10]),          # Anna closes: W = 20
    ("stock", ["Q 5", 30, "5 K", 40]),  # stock out: Anna and Carla co-winners with 15
    (3, ["K", "7 3", "A", None]),     # Dario closes with the Ace in Carla's hand: W = 15
    ("stock", [20, 10, 30, 20]),      # stock out: Bruno lowest
]


def play_quarantotto(table) -> str:
    match_id = table.new_match("quarantotto", NAMES[:4], first_dealer=2)
    for closer, hands in QUARANTOTTO_GAMES:
        quarantotto_game(table, match_id, closer, hands)
    return match_id


def play_scala40(table) -> str:
    """The match of tests/test_scala40_web.py: an elimination, a re-entry at 29, a closing in
    hand, a stalemate, and two players out together at the end."""
    match_id = table.new_match("scala40", NAMES[:4], reentry=True)
    scala40_deal(table, match_id, 0, {1: "A", 2: "Q Q 9", 3: "* * A K 9 8 7 6 5"})
    scala40_deal(table, match_id, 1, {0: "K", 2: "7 3", 3: "5"}, in_hand="y", reentries=(3,))
    scala40_deal(table, match_id, action="annul")
    scala40_deal(table, match_id, 2, {0: "A K", 1: "J", 3: "8 8"}, never=(0,))
    scala40_deal(table, match_id, 3, {1: "10+15+8", 2: "A"})
    scala40_deal(table, match_id, 1, {3: "Jolly Jolly Jolly Jolly 2"}, never=(2,))
    return match_id


def play_fortyfive(table) -> str:
    """2 against 2 to 45: a tie at 45 plays on, the next hand decides."""
    match_id = table.new_match("fortyfive", NAMES[:4])
    fortyfive_hand(table, match_id, winners=[0, 1, 2, 0, 3], bonus=1)
    fortyfive_hand(table, match_id, side_tricks=[3, 2], bonus_side=1)
    fortyfive_hand(table, match_id, side_tricks=[3, 2], bonus_side=1)
    fortyfive_hand(table, match_id, winners=[0, 0, 2, 1, 2], bonus=2)
    return match_id


CAVALLORE_DEALS = [(0, 36), (1, 20), (0, 31), (1, 36), (2, 12), (0, 7)]


def play_cavallore(table) -> str:
    match_id = table.new_match("cavallore", NAMES[:3])
    for seat, placed in CAVALLORE_DEALS:
        cavallore_deal(table, match_id, placed, seat)
    return match_id


def ranking_line(sheet: dict[str, Any]) -> str:
    """The final ranking as the PDF prints it: "1. Anna 60 2. Bruno 35 2. Dario 35 ..."."""
    return " ".join(f"{r['place']}. {' + '.join(r['names'])} {r['total']}"
                    for r in sheet["ranking"])


def numbers_after(text: str, label: str) -> list[int]:
    """The whole numbers on the line of the sheet that starts with ``label``."""
    line = next(line for line in text.splitlines() if line.startswith(label + " "))
    return [int(n) for n in re.findall(r"-?\d+", line)]


def in_order(wanted: list[int], found: list[int]) -> bool:
    """True when ``wanted`` appears in ``found`` in that order (tags may sit between)."""
    rest = iter(found)
    return all(any(w == f for f in rest) for w in wanted)


def check_common(response, game: str, sheet: dict[str, Any], pages_expected: int, *,
                 totals_row: bool = True) -> str:
    """What every game's PDF shows: file name, portrait pages numbered "1 / N", the players
    in seat order, the totals row (a log has none). Returns the text on one line."""
    text, pages, page_list = pdf_text(response)
    head = re.search(r"(\d{4}-\d{2}-\d{2}) · (Finished|In progress)", text)
    assert head, text[:300]
    names = [p["name"] for p in sheet["players"]]
    assert re.fullmatch(rf"{game}-{head.group(1)}-{'-'.join(names)}-\w{{6}}\.pdf",
                        filename(response))
    assert abs((date.fromisoformat(head.group(1)) - date.today()).days) <= 1  # created today
    assert pages == pages_expected
    assert all(p.mediabox.width < p.mediabox.height for p in page_list)  # portrait
    for number in range(1, pages + 1):
        assert f"{number} / {pages}" in text
    seats = text.split("Players, in turn order", 1)[1]
    positions = [seats.index(name) for name in names]
    assert positions == sorted(positions)
    if totals_row:
        assert in_order(sheet["totals"], numbers_after(text, "Total"))
    return flat(text)


def test_quarantotto_pdf(table, client):
    match_id = play_quarantotto(table)
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished"
    expected = [0] * 4
    for closer, hands in QUARANTOTTO_GAMES:
        scores = quarantotto.score_game(hands, closer=None if closer == "stock" else closer)
        expected = [t + s for t, s in zip(expected, scores, strict=True)]
    assert sheet["totals"] == expected == [60, 35, 25, 35]
    text = check_common(client.get(f"/matches/{match_id}.pdf"), "quarantotto", sheet, 1)
    # Bruno and Dario share second place; Carla comes fourth, not third.
    assert [r["place"] for r in sheet["ranking"]] == [1, 2, 2, 4]
    assert "Final ranking " + ranking_line(sheet) in text
    assert "1. Anna 60 2. Bruno 35 2. Dario 35 4. Carla 25" in text
    assert "Carla (first dealer)" in text
    assert "Match length: One game per player" in text
    # Each game: points in hand, score and running total per player; ✓ the closer, ∅ the
    # stock that ran out.
    assert "1 Carla ✓ 20 20 20 0 0 20 0 0 10 10 10" in text
    assert "2 ∅ Dario 15 25 45 30 10 10 15 25 25 40 0 10" in text
    assert "3 Anna 10 5 50 10 5 15 15 0 25 ✓ 15 25" in text


def test_scala40_pdf(table, client):
    match_id = play_scala40(table)
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished" and sheet["totals"] == [120, 44, 150, 157]
    text = check_common(client.get(f"/matches/{match_id}.pdf"), "scala40", sheet, 1)
    assert "Final ranking " + ranking_line(sheet) in text
    assert "1. Bruno 44" in text
    for option in ("Match ends: By elimination", "Elimination at: 101", "Re-entry: yes",
                   "Re-entries per player: 3", "Pairs: no", "Closing in hand doubles: yes"):
        assert option in text
    # The deals: never opened (the flat 100), a closing in hand doubling, the re-entry at 29,
    # the stalemate, and who went out.
    assert "4 Dario ✗ 100 120" in text  # Anna never opened
    assert "2 ×2 Bruno K 20 20 ✓✓ 0 1" not in text  # cards are not printed, only marks
    assert "2 ×2 Bruno 20 20 ✓✓ 0 1 20 49 ↩29 10 39" in text  # Dario back at 29, 5 doubled
    assert "3 Carla annulled (stalemate)" in text
    assert "✗ 100 150 out 102 157" in text  # Carla never opened, Dario out with her


def test_fortyfive_pdf(table, client):
    match_id = play_fortyfive(table)
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished" and sheet["totals"] == [70, 50]
    text = check_common(client.get(f"/matches/{match_id}.pdf"), "fortyfive", sheet, 1)
    assert "Sides: Anna + Carla · Bruno + Dario" in text
    assert "Final ranking 1. Anna + Carla 70 2. Bruno + Dario 50" in text
    assert "Target: 45" in text and "Jink: no" in text
    assert "Three pairs" not in text  # an option of six players only
    # Tricks and points per side, the bonus trick marked ▲, the tie at 45 that played on.
    assert "= tie at the top: play goes on" in text  # the legend of the mark
    assert "3 = Carla 3 15 45 2 ▲ 15 45" in text
    assert "4 Dario 4 ▲ 25 70 1 5 50" in text


def test_cavallore_pdf(table, client):
    match_id = play_cavallore(table)
    sheet = table.sheet(match_id)
    assert sheet["status"] == "in progress" and sheet["totals"] == [1, 1, 0]
    text = check_common(client.get(f"/matches/{match_id}.pdf"), "cavallore", sheet, 2,
                        totals_row=False)
    # A log has no dealer, no options and no end: no final ranking.
    assert "first dealer" not in text and "Options" not in text
    assert "Final ranking" not in text
    # Each player's statistics beside the odds, and the log of deals.
    for name, deals, rate in (("Anna", 3, "33.3%"), ("Bruno", 2, "50%"), ("Carla", 1, "0%")):
        assert f"{name} Deals {deals} Wins" in text
        assert f"Win rate {rate} odds: 1 in 10" in text
    # The log: the cards placed and the wins so far, in the player's column.
    assert "4 36 1 5 12 0 6 7 1 7 8" in text
    assert "Tap a deal number" not in text  # nothing to tap on paper
    assert "Anna 1 Bruno 1 Carla 0" in text  # wins, in the chart's legend


@pytest.mark.parametrize(("game", "players", "unused"), [
    ("quarantotto", 6, "Number of games: 4"),
    ("scala40", 4, "Number of deals"),
])
def test_pdf_prints_only_the_options_in_force(table, client, game, players, unused):
    match_id = table.new_match(game, NAMES[:players])
    text, _pages, _list = pdf_text(client.get(f"/matches/{match_id}.pdf"))
    assert unused not in flat(text)


def test_pdf_in_the_downloaders_language(table, client):
    client.set_cookie("lang", "it")
    match_id = play_fortyfive(table)
    client.set_cookie("lang", "en")  # the match's language does not matter: the reader's does
    text = flat(pdf_text(client.get(f"/matches/{match_id}.pdf?lang=it"))[0])
    assert "Classifica finale 1. Anna + Carla 70 2. Bruno + Dario 50" in text
    assert "Giocatori, in ordine di turno" in text and "Traguardo: 45" in text
    assert "Final ranking" not in text
    text = flat(pdf_text(client.get(f"/matches/{match_id}.pdf"))[0])
    assert "Final ranking 1. Anna + Carla 70 2. Bruno + Dario 50" in text
