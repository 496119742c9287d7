"""What every game shares: errors, options, games, places, totals and input checks.

See docs/rules.md#conventions-for-every-game.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import core
from scorekeeper.rules.core import (
    N_,
    RuleError,
    check_count,
    check_length,
    check_seat,
    places,
    running_totals,
)
from scorekeeper.rules.sheet import Game, Option, Sheet

RULES_DIR = Path(core.__file__).parent

# --- N_ and RuleError ------------------------------------------------------------------------


def test_n_marks_without_translating() -> None:
    assert N_("closed in hand") == "closed in hand"


def test_rule_error_is_a_value_error() -> None:
    assert issubclass(RuleError, ValueError)


def test_rule_error_without_a_seat() -> None:
    error = RuleError("The tricks add up to %(total)s, not %(cards)s.", total=4, cards=5)
    assert str(error) == "The tricks add up to 4, not 5."
    assert error.seat is None
    assert error.template == "The tricks add up to %(total)s, not %(cards)s."
    assert error.params == {"total": 4, "cards": 5}
    assert error.render(player_name=lambda seat: "Anna") == "The tricks add up to 4, not 5."


def test_rule_error_with_a_seat_reads_seat_n_until_rendered_with_names() -> None:
    error = RuleError("%(player)s: bid %(bid)s is out of range 0..%(n)s.", seat=0, bid=7, n=5)
    assert str(error) == "seat 0: bid 7 is out of range 0..5."
    assert error.seat == 0
    assert "player" not in error.params
    names = ["Anna", "Bruno"]
    assert error.render(player_name=names.__getitem__) == "Anna: bid 7 is out of range 0..5."


def test_rule_error_translates_the_template_and_the_translated_params() -> None:
    italian = {
        "%(player)s: the %(what)s must be from %(low)s to %(high)s.":
            "%(player)s: la %(what)s deve essere da %(low)s a %(high)s.",
        "bid": "dichiarazione",
        "%(option)s must be at least %(minimum)s.": "%(option)s deve essere almeno %(minimum)s.",
        "Target": "Obiettivo",
    }

    def translate(message: str) -> str:
        return italian.get(message, message)

    error = RuleError("%(player)s: the %(what)s must be from %(low)s to %(high)s.",
                      seat=2, what="bid", low=0, high=5)
    assert error.render(translate, lambda seat: f"giocatore {seat + 1}") == (
        "giocatore 3: la dichiarazione deve essere da 0 a 5.")
    assert error.render(translate) == "seat 2: la dichiarazione deve essere da 0 a 5."
    # str() stays untranslated.
    assert str(error) == "seat 2: the bid must be from 0 to 5."

    option_error = RuleError("%(option)s must be at least %(minimum)s.", option="Target",
                             minimum=10)
    assert option_error.render(translate) == "Obiettivo deve essere almeno 10."


def test_rule_error_does_not_translate_other_params() -> None:
    error = RuleError("%(game)s and %(what)s", game="bid", what="bid")
    assert error.render(lambda s: f"[{s}]") == "[bid and [bid]]"


# --- Option.clean ----------------------------------------------------------------------------


HOOK = Option("hook", "Hook", "bool", True)
OFF = Option("jink", "Jink", "bool", False)
GAMES_COUNT = Option("games", "Games", "int", 4, minimum=1, maximum=20)
TARGET = Option("target", "Target", "choice", 45, choices=(45, 120, 125))
SIDES = Option("sides", "Sides", "choice", "alternate", choices=("alternate", "pairs"))
THRESHOLD = Option("threshold", "Threshold", "int", 101, choices=(101, 151, 201, 301, 501))


@pytest.mark.parametrize("option", [HOOK, OFF, GAMES_COUNT, TARGET, SIDES, THRESHOLD])
@pytest.mark.parametrize("missing", [None, ""])
def test_missing_value_gives_the_default(option: Option, missing: object) -> None:
    assert option.clean(missing) == option.default


@pytest.mark.parametrize("value", ["1", "true", "True", "on", "ON", "yes", "Y", "y", True, 1])
def test_bool_true(value: object) -> None:
    assert OFF.clean(value) is True


@pytest.mark.parametrize("value", ["0", "false", "False", "off", "no", "n", False, 0])
def test_bool_false(value: object) -> None:
    assert HOOK.clean(value) is False


@pytest.mark.parametrize(
    ("value", "expected"), [("7", 7), (7, 7), ("1", 1), ("20", 20), (" 3 ", 3)])
def test_int_in_range(value: object, expected: int) -> None:
    assert GAMES_COUNT.clean(value) == expected


@pytest.mark.parametrize("value", ["0", 0, "-3"])
def test_int_below_minimum(value: object) -> None:
    with pytest.raises(RuleError) as caught:
        GAMES_COUNT.clean(value)
    assert caught.value.params == {"option": "Games", "minimum": 1}
    assert str(caught.value) == "Games must be at least 1."


@pytest.mark.parametrize("value", ["21", 100])
def test_int_above_maximum(value: object) -> None:
    with pytest.raises(RuleError) as caught:
        GAMES_COUNT.clean(value)
    assert caught.value.params == {"option": "Games", "maximum": 20}
    assert str(caught.value) == "Games must be at most 20."


@pytest.mark.parametrize("value", ["abc", "3.5", "1e2", [3], object()])
@pytest.mark.parametrize("option", [GAMES_COUNT, TARGET])
def test_int_or_choice_not_a_number(option: Option, value: object) -> None:
    with pytest.raises(RuleError) as caught:
        option.clean(value)
    assert caught.value.params == {"option": option.label}
    assert str(caught.value) == f"{option.label} must be a whole number."


@pytest.mark.parametrize(("value", "expected"), [("120", 120), (125, 125), ("45", 45)])
def test_numeric_choice(value: object, expected: int) -> None:
    assert TARGET.clean(value) == expected


@pytest.mark.parametrize("value", ["46", 0, "100"])
def test_numeric_choice_not_among_the_choices(value: object) -> None:
    with pytest.raises(RuleError) as caught:
        TARGET.clean(value)
    assert caught.value.params == {"option": "Target", "value": int(value)}


def test_int_with_choices() -> None:
    assert THRESHOLD.clean("151") == 151
    with pytest.raises(RuleError):
        THRESHOLD.clean("150")


def test_text_choice_is_not_converted() -> None:
    assert SIDES.clean("pairs") == "pairs"
    with pytest.raises(RuleError) as caught:
        SIDES.clean("threes")
    assert caught.value.params == {"option": "Sides", "value": "threes"}
    assert str(caught.value) == "Sides: threes is not one of the choices."


def test_option_applies_to_its_player_counts() -> None:
    pairs = Option("pairs", "Pairs", "bool", False, players=(4,))
    assert pairs.applies(4)
    assert not pairs.applies(3)
    assert HOOK.applies(2) and HOOK.applies(10)


def test_int_option_refuses_a_fraction() -> None:
    with pytest.raises(RuleError):
        GAMES_COUNT.clean(3.7)


# --- Game.clean_options -----------------------------------------------------------------------


def _no_sheet(players: int, hands: object, **options: object) -> Sheet:
    raise AssertionError("not called")


GAME = Game(
    key="test", name="Test", min_players=2, max_players=6,
    options=(HOOK, GAMES_COUNT, Option("pairs", "Pairs", "bool", False, players=(4,)),
             Option("sides", "Sides", "choice", "alternate", choices=("alternate", "pairs"),
                    players=(6,))),
    clockwise=True, build_sheet=_no_sheet,
)


def test_clean_options_fills_in_defaults() -> None:
    assert GAME.clean_options(4, {}) == {"hook": True, "games": 4, "pairs": False,
                                         "sides": "alternate"}


def test_clean_options_converts_raw_values() -> None:
    raw = {"hook": "off", "games": "9", "pairs": "on", "sides": "alternate", "other": "ignored"}
    assert GAME.clean_options(4, raw) == {"hook": False, "games": 9, "pairs": True,
                                          "sides": "alternate"}


def test_options_that_do_not_apply_keep_their_default() -> None:
    raw = {"pairs": "on", "sides": "pairs"}
    assert GAME.clean_options(3, raw)["pairs"] is False
    assert GAME.clean_options(3, raw)["sides"] == "alternate"
    assert GAME.clean_options(6, raw)["sides"] == "pairs"
    assert GAME.clean_options(6, raw)["pairs"] is False
    # Not even checked: a bad value for an option that does not apply is ignored.
    assert GAME.clean_options(3, {"sides": "nonsense"})["sides"] == "alternate"


def test_clean_options_refuses_a_bad_value() -> None:
    with pytest.raises(RuleError) as caught:
        GAME.clean_options(4, {"games": "99"})
    assert caught.value.params["option"] == "Games"


@pytest.mark.parametrize("players", [0, 1, 7, 10])
def test_clean_options_refuses_a_player_count_out_of_range(players: int) -> None:
    with pytest.raises(RuleError) as caught:
        GAME.clean_options(players, {})
    assert caught.value.params == {"game": "Test", "low": 2, "high": 6}
    assert str(caught.value) == "Test is played by 2 to 6 players."


@pytest.mark.parametrize("players", [2, 6])
def test_clean_options_accepts_the_bounds(players: int) -> None:
    assert GAME.clean_options(players, {})["games"] == 4


def test_game_defaults() -> None:
    assert GAME.solitaire is False


# --- places ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "higher", "lower"),
    [
        ([10, 30, 10, 5], (2, 1, 2, 4), (2, 4, 2, 1)),
        ([7, 7, 7], (1, 1, 1), (1, 1, 1)),
        ([50, 50, 20, 20, 0], (1, 1, 3, 3, 5), (4, 4, 2, 2, 1)),
        ([-3, 0, 4], (3, 2, 1), (1, 2, 3)),
        ([0], (1,), (1,)),
        ([], (), ()),
    ],
)
def test_places_share_ties_both_ways(totals: list[int], higher: tuple[int, ...],
                                     lower: tuple[int, ...]) -> None:
    assert places(totals) == higher
    assert places(totals, higher_wins=True) == higher
    assert places(totals, higher_wins=False) == lower


@given(st.lists(st.integers(-500, 500), min_size=1, max_size=10), st.booleans())
def test_places_are_competition_ranks(totals: list[int], higher_wins: bool) -> None:
    ranks = places(totals, higher_wins=higher_wins)
    for total, rank in zip(totals, ranks, strict=True):
        better = [o for o in totals if (o > total if higher_wins else o < total)]
        assert rank == 1 + len(better)
    best = max(totals) if higher_wins else min(totals)
    assert {i for i, r in enumerate(ranks) if r == 1} == {
        i for i, t in enumerate(totals) if t == best}


# --- running_totals --------------------------------------------------------------------------


def test_running_totals() -> None:
    assert running_totals([], 3) == []
    assert running_totals([(1, None), (2, 3)], 2) == [(1, 0), (3, 3)]
    assert running_totals([(5, -2, 0), (None, None, None), (-5, 2, 1)], 3) == [
        (5, -2, 0), (5, -2, 0), (0, 0, 1)]


@given(st.integers(1, 6).flatmap(lambda n: st.lists(
    st.lists(st.none() | st.integers(-200, 200), min_size=n, max_size=n), max_size=12)))
def test_running_totals_are_prefix_sums(rows: list[list[int | None]]) -> None:
    columns = len(rows[0]) if rows else 1
    totals = running_totals(rows, columns)
    assert len(totals) == len(rows)
    for i, after in enumerate(totals):
        assert after == tuple(sum(r[c] or 0 for r in rows[: i + 1]) for c in range(columns))


# --- check_seat ------------------------------------------------------------------------------


@pytest.mark.parametrize(("seat", "expected"), [(0, 0), ("0", 0), ("3", 3), (3, 3), (" 2 ", 2)])
def test_check_seat_accepts_ints_and_strings(seat: object, expected: int) -> None:
    assert check_seat(seat, 4, "closer") == expected


@pytest.mark.parametrize("seat", [4, "4", -1, "-1", 100])
def test_check_seat_out_of_range(seat: object) -> None:
    with pytest.raises(RuleError) as caught:
        check_seat(seat, 4, "closer")
    assert caught.value.params == {"what": "closer", "last": 3}
    assert caught.value.seat is None
    assert str(caught.value) == "The closer must be a seat from 0 to 3."


@pytest.mark.parametrize("seat", [None, "", "x", "1.5", [1]])
def test_check_seat_not_a_number(seat: object) -> None:
    with pytest.raises(RuleError) as caught:
        check_seat(seat, 4, "dealer")
    assert caught.value.params == {"what": "dealer"}
    assert str(caught.value) == "The dealer must be a seat number."


def test_check_seat_refuses_a_fraction() -> None:
    with pytest.raises(RuleError):
        check_seat(1.5, 4, "closer")


# --- check_count -----------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [(0, 0), ("3", 3), (5, 5), (2.0, 2), (" 4", 4)])
def test_check_count_accepts(value: object, expected: int) -> None:
    assert check_count(value, 0, 5, seat=1, what="bid") == expected
    assert check_count(value, 0, 5, seat=None, what="bid") == expected


@pytest.mark.parametrize("value", [-1, 6, "6", "-1"])
def test_check_count_out_of_range_names_the_seat(value: object) -> None:
    with pytest.raises(RuleError) as caught:
        check_count(value, 0, 5, seat=2, what="bid")
    assert caught.value.seat == 2
    assert caught.value.params == {"what": "bid", "low": 0, "high": 5}
    assert str(caught.value) == "seat 2: the bid must be from 0 to 5."


@pytest.mark.parametrize("value", [-1, 37])
def test_check_count_out_of_range_without_a_seat(value: object) -> None:
    with pytest.raises(RuleError) as caught:
        check_count(value, 0, 36, seat=None, what="cards placed")
    assert caught.value.seat is None
    assert str(caught.value) == "The cards placed must be from 0 to 36."


@pytest.mark.parametrize("value", [None, "", "x", "2.5", 2.5, [1]])
def test_check_count_not_a_whole_number(value: object) -> None:
    with pytest.raises(RuleError) as caught:
        check_count(value, 0, 5, seat=3, what="tricks")
    assert caught.value.seat == 3
    assert str(caught.value) == "seat 3: the tricks must be a whole number."
    with pytest.raises(RuleError) as caught:
        check_count(value, 0, 5, seat=None, what="tricks")
    assert caught.value.seat is None
    assert str(caught.value) == "The tricks must be a whole number."


# --- check_length ----------------------------------------------------------------------------


def test_check_length() -> None:
    check_length([1, 2, 3], 3, "bid")
    check_length([], 0, "bid")
    with pytest.raises(RuleError) as caught:
        check_length([1, 2], 3, "bid")
    assert caught.value.params == {"what": "bid", "players": 3, "got": 2}
    assert str(caught.value) == "Give one bid per player: 3 expected, 2 given."
    with pytest.raises(RuleError):
        check_length([1, 2, 3, 4], 3, "tricks")


# --- purity ----------------------------------------------------------------------------------


@pytest.mark.parametrize("module", ["core.py", "cards.py", "navawhist.py"])
def test_the_rules_layer_imports_nothing_from_the_web(module: str) -> None:
    tree = ast.parse((RULES_DIR / module).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            imported.add((node.module or "").split(".")[0])
    assert imported <= {"__future__", "collections", "dataclasses", "typing", "re", "math",
                        "itertools", "functools", "enum"}
