"""Quarantotto (docs/rules.md#quarantotto): card points, W - h, match length, refusals."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import GAMES
from scorekeeper.rules.cards import Card
from scorekeeper.rules.core import Event, Note, RuleError
from scorekeeper.rules.quarantotto import (
    GAME,
    build_sheet,
    entry_points,
    hand_points,
    score_game,
    warnings,
    winners,
)

from .conftest import refused

# Written out from docs/rules.md, "Quarantotto", not imported from the module under test.
VALUE = {"A": 15, "J": 10, "Q": 10, "K": 10, **{str(n): n for n in range(2, 11)}}
RANKS = list(VALUE)


def game(points: list[Any], closer: int | None = None) -> dict[str, Any]:
    """One game as the web layer stores it."""
    return {"closer": closer, "points": points}


# --- card points ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "points"), [
    ("A", 15), ("J", 10), ("Q", 10), ("K", 10), ("2", 2), ("9", 9), ("10", 10),
    ("A K 7", 32), ("A A", 30), ("2 3 4 5 6 7 8 9 10", 54), ("J Q K", 30),
    ("10 D", 20), ("10D", 10), ("F D R", 30), ("fante, donna, re", 30), ("Ah Ks 7♦", 32),
    ("", 0),
])
def test_hand_points_from_text(cards: str, points: int) -> None:
    assert hand_points(cards) == points


def test_hand_points_from_a_list() -> None:
    assert hand_points([Card("A"), Card("K", "♠"), "7h"]) == 32
    assert hand_points([]) == 0


@pytest.mark.parametrize("joker", ["*", "JOLLY", "joker", "7 * 2"])
def test_a_joker_is_refused(joker: str) -> None:
    err = refused(None, hand_points, joker)
    assert "no jokers" in str(err)
    assert refused(3, hand_points, joker, seat=3).template.startswith("%(player)s")


def test_an_unknown_card_names_the_seat() -> None:
    assert "'11'" in str(refused(None, hand_points, "A 11"))
    assert "'Z'" in str(refused(2, hand_points, "Z", seat=2))


def test_cards_run_together_count_as_the_same_cards() -> None:
    """docs/rules.md#cards-typed-or-tapped: ``kq`` and ``10k`` are read as ``k q``, ``10 k``."""
    assert hand_points("kq") == hand_points("KQ") == hand_points("Kq") == hand_points("k q")
    assert hand_points("10k") == hand_points("10 k") == 20


@pytest.mark.parametrize("digits", ["9" * 10, "9" * 5000, "-" + "1" * 10])
def test_digits_too_many_for_a_total_are_never_cards(digits: str) -> None:
    """docs/rules.md#cards-typed-or-tapped: digits alone are a total, never 9 9 9..."""
    assert "neither points nor cards" in str(refused(3, entry_points, digits, seat=3))


def test_a_run_read_two_ways_names_the_seat() -> None:
    err = refused(2, hand_points, "A KDQ", seat=2)
    assert str(err) == "seat 2: 'KDQ' reads as different cards: put a space between them."
    assert str(refused(None, hand_points, "KDQ")) == \
        "'KDQ' reads as different cards: put a space between them."


@given(st.lists(st.sampled_from(RANKS), max_size=15))
def test_hand_points_is_the_sum_of_card_values(ranks: list[str]) -> None:
    assert hand_points(" ".join(ranks)) == sum(VALUE[r] for r in ranks)
    assert hand_points([Card(r) for r in ranks]) == sum(VALUE[r] for r in ranks)


# --- one entry: a total, a sum or cards ----------------------------------------------------------


@pytest.mark.parametrize(("entry", "points"), [
    (32, 32), ("32", 32), (" 32 ", 32), (32.0, 32), ("10+15+7", 32), ("10 + 15 + 7", 32),
    ("A K 7", 32), (["A", "K", "7"], 32), (("A", "K"), 25), ("7", 7), ("-3", -3), ([], 0),
])
def test_entry_points(entry: Any, points: int) -> None:
    assert entry_points(entry) == points


@pytest.mark.parametrize("entry", [None, "", "  "])
def test_a_blank_entry_is_nothing_entered(entry: Any) -> None:
    assert entry_points(entry) is None


@pytest.mark.parametrize("entry", [True, 12.5, {"A": 1}, "10+", "A+K"])
def test_a_bad_entry_is_refused_naming_the_seat(entry: Any) -> None:
    refused(1, entry_points, entry, seat=1)
    refused(None, entry_points, entry)


# --- one game: W - h -----------------------------------------------------------------------------


def test_closed_game_worked_example() -> None:
    # Seat 0 closes; the worst hand (seat 2) has 30: W = 30.
    assert score_game([0, 12, 30, 7], closer=0) == [30, 18, 0, 23]


def test_exhausted_stock_worked_example() -> None:
    # Nobody closed: W = 12, the two hands of 5 are co-winners.
    assert score_game([5, 12, 5], closer=None) == [7, 0, 7]
    assert winners([5, 12, 5], closer=None) == [0, 2]


def test_score_game_reads_cards_and_sums() -> None:
    assert score_game([None, "A K 7", "10+5", "2 2"], closer=0) == [32, 0, 17, 28]


@pytest.mark.parametrize("closer_entry", [None, "", 0, "0", []])
def test_the_closers_points_may_be_omitted(closer_entry: Any) -> None:
    assert score_game([20, closer_entry], closer=1) == [0, 20]


def test_winners_is_the_closer() -> None:
    assert winners([0, 12, 30], closer=0) == [0]
    assert winners([12, 30, 0], closer="2") == [2]


def test_negative_points_are_refused() -> None:
    refused(2, score_game, [0, 12, -5], closer=0)
    refused(1, score_game, [4, "-3"], closer=None)


def test_one_point_is_refused() -> None:
    refused(1, score_game, [0, 1, 7], closer=0)
    refused(0, score_game, [1, 9], closer=None)


def test_more_than_one_player_at_zero_is_refused() -> None:
    refused(2, score_game, [0, 12, 0], closer=0)
    refused(2, score_game, [12, 0, 0], closer=1)
    refused(2, score_game, [0, 12, 0, 9], closer=None)


def test_no_player_at_zero_when_someone_closed_is_refused() -> None:
    err = refused(0, score_game, [5, 12, 30], closer=0)
    assert "closed" in str(err)


def test_the_closer_with_points_is_refused() -> None:
    refused(1, score_game, [0, "A", 30], closer=1)
    refused(1, score_game, [12, 8, 30], closer=1)


def test_missing_points_for_a_player_who_did_not_close_are_refused() -> None:
    refused(2, score_game, [0, 12, None], closer=0)
    refused(0, score_game, ["", 12, 8], closer=None)


@pytest.mark.parametrize("closer", [3, -1, "x"])
def test_a_closer_that_is_not_a_seat_is_refused(closer: Any) -> None:
    refused(None, score_game, [0, 12, 8], closer=closer)


def test_zero_on_an_exhausted_stock_is_allowed_with_a_warning() -> None:
    assert score_game([0, 12, 30], closer=None) == [30, 18, 0]
    found = warnings([0, 12, 30], closer=None)
    assert [w.seat for w in found] == [0]
    assert "nobody closed" in str(found[0])
    assert warnings([0, 12, 30], closer=0) == []
    assert warnings([4, 12, 30], closer=None) == []


def test_warnings_still_refuse_what_the_rules_refuse() -> None:
    refused(1, warnings, [0, 0, 30], closer=None)


# --- properties of one game ----------------------------------------------------------------------


@st.composite
def games(draw: st.DrawFn) -> tuple[list[int], int | None]:
    """A valid game: 2 to 6 seats, hands of 2 points or more, the closer (if any) at 0."""
    players = draw(st.integers(2, 6))
    hands = draw(st.lists(st.integers(2, 150), min_size=players, max_size=players))
    closer = draw(st.none() | st.integers(0, players - 1))
    if closer is not None:
        hands[closer] = 0
    return hands, closer


@given(games())
def test_everyone_scores_the_worst_hand_minus_their_own(
        found: tuple[list[int], int | None]) -> None:
    hands, closer = found
    scores = score_game(hands, closer=closer)
    assert scores == [max(hands) - h for h in hands]


@given(games())
def test_the_worst_hand_scores_zero_and_the_closer_the_worst_hands_points(
        found: tuple[list[int], int | None]) -> None:
    hands, closer = found
    scores = score_game(hands, closer=closer)
    worst = max(hands)
    for seat, h in enumerate(hands):
        if h == worst:
            assert scores[seat] == 0
    assert min(scores) == 0
    if closer is not None:
        assert scores[closer] == worst == max(scores)


@given(games())
def test_the_winners_score_the_most(found: tuple[list[int], int | None]) -> None:
    hands, closer = found
    scores = score_game(hands, closer=closer)
    best = [seat for seat, s in enumerate(scores) if s == max(scores)]
    assert winners(hands, closer=closer) == best


@given(games(), st.data())
def test_cards_score_like_their_total(found: tuple[list[int], int | None], data: st.DataObject
                                      ) -> None:
    hands, closer = found
    seat = data.draw(st.integers(0, len(hands) - 1).filter(lambda s: s != closer))
    ranks = data.draw(st.lists(st.sampled_from(RANKS), min_size=1, max_size=12))
    entries: list[Any] = list(hands)
    hands[seat] = sum(VALUE[r] for r in ranks)
    entries[seat] = " ".join(ranks)
    assert score_game(entries, closer=closer) == score_game(hands, closer=closer)


# --- the match -----------------------------------------------------------------------------------


def test_the_registry_entry() -> None:
    assert GAMES["quarantotto"] is GAME
    assert (GAME.min_players, GAME.max_players, GAME.clockwise) == (2, 6, True)
    assert GAME.clean_options(4, {}) == {"length": "players", "games": 4, "target": 200,
                                        "entry": "lowest"}
    assert GAME.clean_options(4, {"length": "target", "target": "150"})["target"] == 150
    with pytest.raises(RuleError):
        GAME.clean_options(4, {"length": "forever"})
    with pytest.raises(RuleError):
        GAME.clean_options(7, {})


def test_default_length_is_one_game_per_player_and_the_deal_passes() -> None:
    played = [
        game([0, 12, 30, 7], closer=0),   # 30 18  0 23
        game([10, 0, 20, 5], closer=1),   # 10 20  0 15
        game([9, 4, 4, 20]),              # 11 16 16  0
    ]
    sheet = build_sheet(4, played, first_dealer=2)
    assert [r.dealer for r in sheet.rows] == [2, 3, 0]
    assert [r.points for r in sheet.rows] == [(30, 18, 0, 23), (10, 20, 0, 15), (11, 16, 16, 0)]
    assert sheet.totals == (51, 54, 16, 38)
    assert not sheet.finished
    assert sheet.next is not None
    assert (sheet.next.number, sheet.next.dealer, sheet.next.seats) == (4, 1, (0, 1, 2, 3))
    assert sheet.next.info.as_json() == {"games": 4, "target": None}
    sheet = build_sheet(4, [*played, game([15, 30, 0, 2], closer=2)], first_dealer=2)
    # Last game: 15 0 30 28, totals 66 54 46 66: a shared win.
    assert sheet.totals == (66, 54, 46, 66)
    assert sheet.finished and sheet.next is None
    assert sheet.places == (1, 3, 4, 1)
    assert sheet.winners == (0, 3)
    assert sheet.columns == ((0,), (1,), (2,), (3,))
    assert sheet.game == "quarantotto"
    assert sheet.status.played == 4


def test_no_game_after_the_match_is_over() -> None:
    over = [game([0, 12], closer=0), game([12, 0], closer=1)]
    assert build_sheet(2, over).finished
    with pytest.raises(RuleError):
        build_sheet(2, [*over, game([0, 12], closer=0)])


def test_a_fixed_number_of_games() -> None:
    three = [game([0, 12], closer=0)] * 3
    assert not build_sheet(2, three, length="games", games=4).finished
    sheet = build_sheet(2, three, length="games", games="3")
    assert sheet.finished and sheet.totals == (36, 0) and sheet.winners == (0,)
    assert sheet.options["games"] == 3


def test_play_to_a_target_checked_after_each_game() -> None:
    played = [game([0, 30], closer=0), game([20, 0], closer=1), game([0, 15], closer=0)]
    sheet = build_sheet(2, played[:2], length="target", target=45)
    assert sheet.totals == (30, 20) and not sheet.finished
    assert sheet.status.target == 45 and sheet.status.games is None
    assert sheet.next is not None and sheet.next.info.as_json() == {"games": None, "target": 45}
    sheet = build_sheet(2, played, length="target", target=45)
    assert sheet.totals == (45, 20) and sheet.finished and sheet.winners == (0,)
    with pytest.raises(RuleError):
        build_sheet(2, [*played, game([0, 15], closer=0)], length="target", target=45)


def test_card_text_in_the_sheet_and_raw_inputs_kept() -> None:
    sheet = build_sheet(3, [game(["A K 7", None, "10+5"], closer=1)])
    row = sheet.rows[0]
    assert row.points == (0, 32, 17)
    assert row.inputs["points"] == ["A K 7", None, "10+5"]
    assert row.inputs["hand_points"] == [32, 0, 15]
    assert row.notes == ("", Note.CLOSED, "")
    assert row.events == ()


def test_an_exhausted_stock_in_the_sheet() -> None:
    sheet = build_sheet(3, [game([0, 12, 12]), game([9, 30, 5])])
    first, second = sheet.rows
    assert first.events == (Event.STOCK_RAN_OUT,)
    assert first.notes == (Note.ZERO_NOT_CLOSED, "", "")
    assert second.notes == ("", "", Note.LOWEST)
    assert sheet.status.warnings == [{
        "game": 1, "seat": 0,
        "message": "%(player)s has 0 points in hand though nobody closed: check the points."}]


def test_refusals_in_the_sheet_name_the_seat() -> None:
    refused(1, build_sheet, 3, [game([0, 1, 8], closer=0)])
    refused(2, build_sheet, 3, [game([0, 12, "7 JOLLY"], closer=0)])
    refused(1, build_sheet, 3, [game([0, 12, 8], closer=0), game([9, 0, 0], closer=2)])


def test_the_sheet_refuses_bad_shapes_and_options() -> None:
    refused(None, build_sheet, 3, [game([0, 12], closer=0)])
    refused(None, build_sheet, 3, [{"closer": 0}])
    refused(None, build_sheet, 1, [])
    refused(None, build_sheet, 7, [])
    refused(None, build_sheet, 3, [], first_dealer=3)
    refused(None, build_sheet, 3, [], length="forever")
    refused(None, build_sheet, 3, [], rounds=3)


def test_an_empty_match() -> None:
    sheet = build_sheet(4, [], first_dealer=3)
    assert sheet.totals == (0, 0, 0, 0) and sheet.places == (1, 1, 1, 1)
    assert sheet.next is not None and (sheet.next.number, sheet.next.dealer) == (1, 3)
    assert sheet.winners == () and not sheet.finished
    assert sheet.options == {"length": "players", "games": 4, "target": 200, "entry": "lowest"}


@given(st.lists(games().filter(lambda g: len(g[0]) == 3), min_size=1, max_size=3))
def test_sheet_totals_add_up_each_games_scores(played: list[tuple[list[int], int | None]]) -> None:
    sheet = build_sheet(3, [game(list(hands), closer) for hands, closer in played])
    expected = [0, 0, 0]
    for row, (hands, _) in zip(sheet.rows, played, strict=True):
        expected = [t + max(hands) - h for t, h in zip(expected, hands, strict=True)]
        assert row.totals == tuple(expected)
    assert sheet.finished == (len(played) == 3)


def test_games_left_in_a_match_of_fixed_length() -> None:
    three = [game([0, 12], closer=0)] * 3
    assert build_sheet(2, three, length="games", games=5).status.games_left == 2
    assert build_sheet(2, three, length="games", games=3).status.games_left == 0
    assert build_sheet(2, three[:1], length="target", target=45).status.games_left is None
