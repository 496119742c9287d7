"""docs/rules.md and the rules engine agree wherever that is mechanical.

Every section the code and the tests cite (an anchor after ``docs/rules.md#``, or quoted
headings after ``docs/rules.md,``) is a heading of the doc. The tables and figures of the
doc (the Navawhist table of hands, card values, the Forty-Five rank tables, the options,
the Scala 40 and Forty-Five figures, the Cavallo Re odds) are read from the doc, never
typed in here a second time, and compared with what the modules do.
"""

from __future__ import annotations

import importlib
import re
from fractions import Fraction
from pathlib import Path

import pytest

from scorekeeper.rules import GAMES, cavallore, fortyfive, navawhist, quarantotto, scala40
from scorekeeper.rules.sheet import Option

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"
TEXT = DOC.read_text(encoding="utf-8")
CITING = sorted([*(ROOT / "scorekeeper").rglob("*.py"), *(ROOT / "tests").rglob("*.py")])

HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
ANCHOR_CITE = re.compile(r"docs/rules\.md#([\w-]+)")
QUOTED_CITE = re.compile(r'docs/rules\.md((?:,\s*"[^"\n]+")+)')


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens.

    >>> slug("Navawhist: bidding and the dealer's restriction")
    'navawhist-bidding-and-the-dealers-restriction'
    """
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def headings() -> list[tuple[int, str, int]]:
    """(level, title, line index) of every heading outside code fences."""
    found, fenced = [], False
    for index, line in enumerate(TEXT.splitlines()):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := HEADING.match(line)):
            found.append((len(match.group(1)), match.group(2), index))
    return found


HEADINGS = headings()
TITLES = [title for _level, title, _index in HEADINGS]
ANCHORS = [slug(title) for title in TITLES]


def section(title: str) -> str:
    """The text under heading ``title``, down to the next heading of its level or higher."""
    lines = TEXT.splitlines()
    for position, (level, name, index) in enumerate(HEADINGS):
        if name == title:
            end = next((i for lv, _n, i in HEADINGS[position + 1:] if lv <= level), len(lines))
            return "\n".join(lines[index + 1:end])
    raise AssertionError(f"docs/rules.md has no heading {title!r}")


def tables(text: str) -> list[list[list[str]]]:
    """The rows of each Markdown table in ``text``, header and separator left out."""
    found: list[list[list[str]]] = []
    block: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            block.append(line)
            continue
        if block:
            rows = [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in block]
            found.append(rows[2:])
            block = []
    return found


def table(title: str, number: int = 0) -> list[list[str]]:
    """The rows of table ``number`` under heading ``title``."""
    return tables(section(title))[number]


def number(pattern: str, text: str) -> str:
    """The first group of ``pattern`` in ``text`` (whitespace in the text may be a line break)."""
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not found"
    return match.group(1)


# --- headings and citations ------------------------------------------------------------


def citations() -> list[tuple[str, str]]:
    """(file, heading anchor) of every citation of docs/rules.md in the code and the tests."""
    cited: set[tuple[str, str]] = set()
    for path in CITING:
        text = path.read_text(encoding="utf-8")
        name = str(path.relative_to(ROOT))
        cited |= {(name, anchor) for anchor in ANCHOR_CITE.findall(text)}
        for group in QUOTED_CITE.findall(text):
            cited |= {(name, slug(title)) for title in re.findall(r'"([^"]+)"', group)}
    return sorted(cited)


CITATIONS = citations()


def test_the_anchors_are_unique() -> None:
    # A repeated heading would get a numbered anchor that moves when the doc is reordered.
    assert len(set(ANCHORS)) == len(ANCHORS), [a for a in ANCHORS if ANCHORS.count(a) > 1]


@pytest.mark.parametrize(("path", "anchor"), CITATIONS, ids=[f"{p}#{a}" for p, a in CITATIONS])
def test_every_cited_section_is_a_heading(path: str, anchor: str) -> None:
    assert anchor in ANCHORS, f"{path} cites docs/rules.md#{anchor}, which is no heading"


def test_the_code_and_the_tests_cite_the_doc() -> None:
    cited = {path for path, _anchor in CITATIONS}
    rules = {f"scorekeeper/rules/{key}.py" for key in GAMES}
    tests = {f"tests/rules/test_{key}.py" for key in GAMES}
    assert rules | tests <= cited
    old = "RULES" + ".md"  # the file the doc replaces: nothing cites it any more
    assert [str(p.relative_to(ROOT)) for p in CITING if old in p.read_text(encoding="utf-8")] == []


def test_the_doc_links_to_its_own_headings() -> None:
    links = re.findall(r"\]\(#([^)]+)\)", TEXT)
    assert links
    assert [link for link in links if link not in ANCHORS] == []


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_has_its_section_cited_by_its_module(key: str) -> None:
    game = GAMES[key]
    assert (2, game.name) in [(level, title) for level, title, _index in HEADINGS]
    module = importlib.import_module(f"scorekeeper.rules.{key}")
    assert f"docs/rules.md#{slug(game.name)}" in (module.__doc__ or "")
    players = re.search(r"\*\*Players:\*\* (\d+) to (\d+)", section(game.name))
    assert players, f"the {game.name} section does not say how many play"
    assert (int(players.group(1)), int(players.group(2))) == (game.min_players, game.max_players)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_marks_its_choices(key: str) -> None:
    assert re.search(r"^\*\*Choice:\*\* ", section(GAMES[key].name), re.MULTILINE)


def test_a_choice_mark_always_starts_a_paragraph() -> None:
    lines = TEXT.splitlines()
    for index, line in enumerate(lines):
        if "**Choice:**" in line:
            assert line.startswith("**Choice:** ") and not lines[index - 1].strip(), line


def test_the_doc_names_no_tool_or_machine_path() -> None:
    assert not re.search(r"/work/|\.py\b|pytest", TEXT)


# --- options ---------------------------------------------------------------------------


def option_value(cell: str, option: Option) -> object:
    """An option value as the doc prints it: on/off, a number or a choice's name."""
    if option.kind == "bool":
        assert cell in ("on", "off"), cell
        return cell == "on"
    return int(cell) if cell.isdecimal() else cell


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_options_table_is_the_games_options(key: str) -> None:
    game = GAMES[key]
    title = f"{game.name}: options"
    if not game.options:
        assert title not in TITLES
        return
    rows = {row[0]: row[1:] for row in table(title)}
    assert list(rows) == [option.label for option in game.options]
    for option in game.options:
        default, others, meaning = rows[option.label]
        assert option_value(default, option) == option.default, option.label
        span = re.fullmatch(r"(\d+) to (\d+)", others)
        if option.kind == "bool":
            assert option_value(others, option) is not option.default
        elif span:
            assert not option.choices
            assert (int(span.group(1)), int(span.group(2))) == (option.minimum, option.maximum)
        else:
            values = {option_value(v.strip(), option) for v in others.split(",")}
            assert values | {option.default} == set(option.choices), option.label
            assert option.default not in values
        only = [int(n) for n in re.findall(r"(\d+) players only", meaning)]
        assert only == list(option.players), option.label


# --- Navawhist -------------------------------------------------------------------------


def test_the_navawhist_table_of_hands_is_the_modules() -> None:
    rows = table("Navawhist: the table of hands")
    game = GAMES["navawhist"]
    assert [int(row[0]) for row in rows] == list(range(game.min_players, game.max_players + 1))
    for row in rows:
        count, deck, hands, cards = int(row[0]), int(row[1]), int(row[2]), row[3].split()
        assert [int(c) for c in cards] == navawhist.deal_schedule(count), f"{count} players"
        assert hands == len(cards)
        assert deck == navawhist.deck_size(count)


# --- card values -----------------------------------------------------------------------


def card_values(title: str) -> dict[str, int]:
    """Rank -> points from the card table under ``title``: "2 to 10" counts face value."""
    values: dict[str, int] = {}
    for cards, points in table(title):
        cards = re.sub(r"\(.*?\)", "", cards).strip()
        if span := re.fullmatch(r"(\d+) to (\d+)", cards):
            ranks = [str(n) for n in range(int(span.group(1)), int(span.group(2)) + 1)]
        elif cards == "joker":
            ranks = ["*"]
        else:
            ranks = [rank.strip() for rank in cards.split(",")]
        for rank in ranks:
            values[rank] = int(rank) if points == "face value" else int(points)
    return values


def test_quarantotto_card_points() -> None:
    assert card_values("Quarantotto: card points") == dict(quarantotto.card_values())


def test_scala40_penalty_points_and_the_lone_ace() -> None:
    text = section("Scala 40: penalty points")
    assert card_values("Scala 40: penalty points") == dict(scala40.card_values())
    lone = int(number(r"\*\*A lone Ace\*\*[^.]*?counts (\d+)", text))
    assert scala40.hand_points("A") == lone
    examples = re.findall(r"`([^`]+)` is (\d+)", text)
    assert len(examples) == 3
    for cards, points in examples:
        assert scala40.hand_points(cards) == int(points), cards


# --- Scala 40 --------------------------------------------------------------------------


def test_scala40_never_opened_flat_penalty() -> None:
    text = section("Scala 40: scoring a deal")
    flat = int(number(r"pays a flat \*\*(\d+)\*\*", text))
    doubled = int(number(r"flat \d+\s+becomes (\d+)", text))
    assert flat == scala40.NEVER_OPENED
    assert scala40.score_deal([None, 7, "K K K"], closer=0, never_opened=[2]) == [0, 7, flat]
    assert scala40.score_deal([None, 7, None], closer=0, never_opened=[2],
                              closed_in_hand=True) == [0, 14, doubled]


def test_scala40_elimination_threshold() -> None:
    text = section("Scala 40: elimination")
    default = int(number(r"by default (\d+),", text))
    listed = number(r"by default \d+, or ([\d, or]+)\)", text)
    others = [int(n) for n in re.findall(r"\d+", listed)]
    threshold = next(o for o in scala40.OPTIONS if o.key == "threshold")
    assert default == threshold.default
    assert [default, *others] == list(threshold.choices)
    # "Reaches" is at or above: one point short stays in.
    for paid, out in ((default, [1]), (default - 1, [])):
        sheet = scala40.build_sheet(3, [{"closer": 0, "points": [None, paid, 5]}])
        assert sheet.status.eliminated == out


# --- Forty-Five ------------------------------------------------------------------------


def cards_of(cell: str) -> list[str]:
    return [token for token in cell.split() if token[-1] in "♠♥♦♣"]


def test_fortyfive_rank_tables() -> None:
    trumps = {row[0][0]: cards_of(row[1]) for row in table("Forty-Five: card ranks", 0)}
    others = {row[0][0]: cards_of(row[1]) for row in table("Forty-Five: card ranks", 1)}
    assert set(trumps) == set(others) == set("♠♥♦♣")
    for trump, order in trumps.items():
        printed = fortyfive.rank_table(trump)
        assert printed["trumps"] == order, trump
        for suit in set(others) - {trump}:
            assert printed[suit] == others[suit], (trump, suit)


def test_fortyfive_points_and_target() -> None:
    text = section("Forty-Five: tricks and points")
    trick = int(number(r"worth \*\*(\d+)\*\* points", text))
    bonus = int(number(r"is worth \*\*(\d+)\*\* instead", text))
    assert (trick, bonus) == (fortyfive.TRICK_POINTS, fortyfive.BONUS_POINTS)
    no_trump = int(number(r"the hand totals (\d+)", text))
    with_trump = int(number(r"otherwise it totals (\d+)", text))
    assert sum(fortyfive.score_hand([2, 3], None)) == no_trump
    assert sum(fortyfive.score_hand([2, 3], 1)) == with_trump
    end = section("Forty-Five: the end of the match")
    target = int(number(r"the target \(by default (\d+)\)", end))
    assert target == fortyfive.TARGET.default
    # Hands of 15 points (3 tricks, no trump) against 10: the match ends at the target.
    hand, hands = {"side_tricks": [3, 2], "bonus_side": None}, -(-target // 15)
    assert fortyfive.build_sheet(2, [hand] * (hands - 1)).finished is False
    assert fortyfive.build_sheet(2, [hand] * hands).winners == (0,)


# --- Cavallo Re ------------------------------------------------------------------------


def test_cavallore_odds() -> None:
    text = section("Cavallo Re: the odds")
    win = Fraction(1, int(number(r"exactly \*\*1 in (\d+)\*\*", text)))
    assert win == cavallore.WIN_PROBABILITY == cavallore.expected_distribution()[36]
    assert win == Fraction(1, 10)
    assert Fraction(number(r"\*\*([\d.]+)\*\* cards on average", text)) == cavallore.expected_mean()
    none = int(number(r"once in ([\d,]+) deals", text).replace(",", ""))
    assert Fraction(1, none) == cavallore.expected_distribution()[0]


def test_cavallore_bands() -> None:
    bands = []
    for placed, chance in table("Cavallo Re: the odds"):
        ends = [int(n) for n in re.findall(r"\d+", placed)]
        fraction, percent = re.fullmatch(r"(\d+/\d+) \(([\d.]+)%\)", chance).groups()
        assert round(float(Fraction(fraction)) * 100, 2) == float(percent)
        bands.append((ends[0], ends[-1], Fraction(fraction)))
    assert bands == cavallore.band_odds()
