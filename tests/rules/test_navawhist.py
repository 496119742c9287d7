"""Navawhist (docs/rules.md#navawhist): the table of hands, bidding, scoring and the sheet."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.core import Note, RuleError
from scorekeeper.rules.navawhist import (
    GAME,
    NextHand,
    bidding_order,
    build_sheet,
    complete_tricks,
    deal_schedule,
    deck_size,
    forbidden_bid,
    score_cases,
    score_hand,
    tricks_left,
)
from scorekeeper.rules.sheet import Next

# The table of hands of docs/rules.md#navawhist-the-table-of-hands (and the Italian original).
TABLE: dict[int, list[int]] = {
    2: [2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, 15, 15, 15, 15],
    3: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 16, 16],
    4: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 12, 12, 12],
    5: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10, 10],
    6: [1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8],
    7: [1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 7, 7],
    8: [1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6],
    9: [1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5],
    10: [1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5],
}
HANDS = dict(zip(range(2, 11), [18, 18, 16, 15, 18, 14, 16, 18, 20], strict=True))
PLAYER_COUNTS = list(range(2, 11))

EXACT, OFF_BY_ONE, OFF_BY_MORE = Note.EXACT, Note.OFF_BY_ONE, Note.OFF_BY_MORE
CLOSEST, OTHER = Note.ALL_MISSED_CLOSEST, Note.ALL_MISSED


def test_the_cases_read_as_the_rules_name_them() -> None:
    assert [case.label for case in (EXACT, OFF_BY_ONE, OFF_BY_MORE, CLOSEST, OTHER)] == [
        "exact", "off by one", "off by two or more", "all missed: the closest",
        "all missed: not the closest"]


def order_of(players: int, dealer: int) -> list[int]:
    """Bidding order from docs/rules.md: the seat after the dealer first, the dealer last."""
    return [(dealer + step) % players for step in range(1, players + 1)]


def filler(players: int, count: int) -> list[dict[str, Any]]:
    """``count`` valid hands: everybody bids 0 and seat 0 takes every trick."""
    return [{"bids": [0] * players, "tricks": [n] + [0] * (players - 1)}
            for n in TABLE[players][:count]]


def raises(call: Callable[[], object]) -> RuleError:
    """The RuleError ``call`` raises."""
    with pytest.raises(RuleError) as caught:
        call()
    return caught.value


# --- the table of hands and the deck ----------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_deal_schedule_is_the_official_table(players: int) -> None:
    assert deal_schedule(players) == TABLE[players]
    assert len(deal_schedule(players)) == HANDS[players]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_cards_dealt_and_the_trump_card_fit_in_the_deck(players: int) -> None:
    for cards in deal_schedule(players):
        assert cards * players <= deck_size(players)
        # One more card is turned up for trump.
        assert cards * players + 1 <= deck_size(players)


def test_deal_schedule_is_a_fresh_list() -> None:
    schedule = deal_schedule(4)
    schedule.append(99)
    assert deal_schedule(4) == TABLE[4]


def test_deck_size() -> None:
    assert deck_size(2) == 40
    assert [deck_size(p) for p in range(3, 11)] == [52] * 8


@pytest.mark.parametrize("call", [deck_size, deal_schedule, lambda p: bidding_order(p, 0)])
@pytest.mark.parametrize("players", [0, 1, 11])
def test_player_count_out_of_range(call: Callable[[int], object], players: int) -> None:
    error = raises(lambda: call(players))
    assert error.params == {"players": players}
    assert "2 to 10" in str(error)


# --- bidding -----------------------------------------------------------------------------------


def test_bidding_order_examples() -> None:
    assert bidding_order(3, 2) == [0, 1, 2]
    assert bidding_order(3, 0) == [1, 2, 0]
    assert bidding_order(4, 1) == [2, 3, 0, 1]
    assert bidding_order(2, 1) == [0, 1]
    assert bidding_order(10, 9) == list(range(10))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_bidding_order_every_dealer(players: int) -> None:
    for dealer in range(players):
        order = bidding_order(players, dealer)
        assert order[0] == (dealer + 1) % players
        assert order[-1] == dealer
        assert sorted(order) == list(range(players))
        assert all((b - a) % players == 1 for a, b in zip(order, order[1:], strict=False))


@pytest.mark.parametrize(
    ("cards", "others", "forbidden"),
    [(5, [0, 0], 5), (5, [3, 4], None), (5, [5, 0], 0), (5, [2, 2], 1), (5, [3, 2], 0),
     (1, [0, 0, 0], 1), (1, [1, 0, 0], 0), (1, [1, 1, 0], None), (16, [16, 1], None), (4, [0], 4)],
)
def test_forbidden_bid(cards: int, others: list[int], forbidden: int | None) -> None:
    assert forbidden_bid(cards, others) == forbidden


@pytest.mark.parametrize(
    ("tricks", "left"),
    [([], 5), ([None, None], 5), ([2, None, "1"], 2), ([" 3 ", "", "x"], 2), ([5, 0], 0),
     ([4, 3], -2), (["2.5", 1], 4)],
)
def test_tricks_left(tricks: list[Any], left: int) -> None:
    assert tricks_left(5, tricks) == left


@pytest.mark.parametrize(
    ("tricks", "completed"),
    [
        ([2, None, 3], [2, 0, 3]),  # every trick assigned: the player left took none
        ([2, None, 1], [2, 2, 1]),  # one player left: they took the tricks left
        ([2, None, None], [2, None, None]),  # two players left: nothing follows
        ([None, None, None], [None, None, None]),
        ([5, None, None], [5, 0, 0]),
        ([None], [5]),
        (["2", " 3", None], ["2", " 3", 0]),
        (["1", None, "1"], ["1", 3, "1"]),
        ([4, 3, None], [4, 3, None]),  # too many tricks already: left for the check to refuse
        ([2, 3, 0], [2, 3, 0]),
    ],
)
def test_complete_tricks(tricks: list[Any], completed: list[Any]) -> None:
    original = list(tricks)
    assert complete_tricks(5, tricks) == completed
    assert tricks == original


@given(st.integers(1, 16), st.data())
def test_completed_tricks_add_up(cards: int, data: st.DataObject) -> None:
    players = data.draw(st.integers(2, 10))
    winners = data.draw(st.lists(st.integers(0, players - 1), min_size=cards, max_size=cards))
    full = [winners.count(s) for s in range(players)]
    hidden = data.draw(st.sets(st.integers(0, players - 1), max_size=players))
    tricks = [None if s in hidden else t for s, t in enumerate(full)]
    completed = complete_tricks(cards, tricks)
    if len(hidden) == 1 or sum(t for t in tricks if t is not None) == cards:
        assert completed == full
        assert score_cases(cards, [0] * players, completed)
    else:
        assert completed == tricks


# --- scoring: the worked examples of docs/rules.md#navawhist-worked-examples -------------------


@pytest.mark.parametrize(
    ("bids", "tricks", "expected"),
    [
        ([3, 1], [3, 2], [8, 0]),  # bid 3 made 3: +8
        ([3, 1], [2, 3], [0, -7]),  # bid 3 made 2: 0
        ([3, 1], [4, 1], [0, 6]),  # bid 3 made 4: 0
        ([3, 1, 0], [2, 1, 2], [0, 6, -7]),
        ([3, 1, 0], [4, 1, 0], [0, 6, 5]),
        ([3, 1, 0], [1, 1, 3], [-7, 6, -8]),  # bid 3 made 1: -7
    ],
)
def test_n5_examples(bids: list[int], tricks: list[int], expected: list[int]) -> None:
    assert score_hand(5, bids, tricks) == expected


def test_case_4_example_three_players() -> None:
    points, notes = score_cases(5, [0, 0, 4], [3, 2, 0])
    assert points == [0, 3, 0]
    assert notes == [OTHER, CLOSEST, OTHER]
    assert score_hand(5, [0, 0, 4], [3, 2, 0]) == [0, 3, 0]
    # Seat 2 deals after seats 0 and 1 bid 0 and 0: 5 is the forbidden bid.
    assert bidding_order(3, 2) == [0, 1, 2]
    assert forbidden_bid(5, [0, 0]) == 5
    raises(lambda: score_hand(5, [0, 0, 5], [3, 2, 0]))


def test_case_4_two_players_split_tricks() -> None:
    assert score_hand(4, [0, 0], [2, 2]) == [2, 2]
    assert score_cases(4, [0, 0], [2, 2])[1] == [CLOSEST, CLOSEST]


def test_case_4_everybody_scores_zero() -> None:
    assert score_hand(3, [0, 3, 3], [3, 0, 0]) == [0, 0, 0]
    # Every error is 3: all are the closest, with n - e = 0.
    assert score_cases(3, [0, 3, 3], [3, 0, 0])[1] == [CLOSEST] * 3


def test_case_4_overrides_case_3() -> None:
    # Errors 2 and 3: without the override these would be -7 and -8.
    assert score_hand(5, [3, 1], [1, 4]) == [3, 0]


def test_case_notes_per_seat() -> None:
    assert score_cases(5, [3, 1, 0], [1, 1, 3]) == ([-7, 6, -8], [OFF_BY_MORE, EXACT, OFF_BY_MORE])
    assert score_cases(5, [3, 1, 0], [2, 1, 2])[1] == [OFF_BY_ONE, EXACT, OFF_BY_MORE]


def test_score_hand_accepts_strings() -> None:
    assert score_hand(5, ["3", "1"], ["3", "2"]) == [8, 0]


# --- scoring: refusals -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bids", "seat"), [([6, 0], 0), ([0, -1], 1), ([2, 0, 9], 2), (["x", 0, 0], 0)])
def test_bid_out_of_range_names_the_seat(bids: list[Any], seat: int) -> None:
    tricks = [5] + [0] * (len(bids) - 1)
    error = raises(lambda: score_cases(5, bids, tricks))
    assert error.seat == seat
    assert error.params["what"] == "bid"


@pytest.mark.parametrize(("bids", "seat"), [([6, 0], 0), ([0, -1], 1), ([2, 0, 8], 2)])
def test_score_hand_bid_out_of_range_names_the_seat(bids: list[int], seat: int) -> None:
    tricks = [5] + [0] * (len(bids) - 1)
    error = raises(lambda: score_hand(5, bids, tricks))
    assert error.seat == seat


@pytest.mark.parametrize(("tricks", "seat"), [([6, -1], 0), ([2, 6], 1), ([0, 0, -1], 2)])
def test_tricks_out_of_range_names_the_seat(tricks: list[int], seat: int) -> None:
    bids = [0] * len(tricks)
    error = raises(lambda: score_hand(5, bids, tricks))
    assert error.seat == seat
    assert error.params["what"] == "tricks"


def test_bids_and_tricks_of_different_lengths() -> None:
    error = raises(lambda: score_hand(5, [1, 1], [1, 1, 3]))
    assert error.seat is None
    assert error.params == {"bids": 2, "tricks": 3}
    raises(lambda: score_hand(5, [1, 1, 1], [5, 0]))


@pytest.mark.parametrize("tricks", [[2, 2], [3, 3], [0, 0], [5, 5]])
def test_tricks_must_add_up_to_the_cards(tricks: list[int]) -> None:
    error = raises(lambda: score_hand(5, [1, 1], tricks))
    assert error.params == {"total": sum(tricks), "cards": 5}


@pytest.mark.parametrize(
    ("bids", "tricks"), [([2, 3], [2, 3]), ([5, 0], [1, 4]), ([0, 0, 4], [4, 0, 0])])
def test_hook_refuses_bids_adding_up_to_the_cards(bids: list[int], tricks: list[int]) -> None:
    error = raises(lambda: score_hand(sum(bids), bids, tricks))
    assert error.params == {"cards": sum(bids)}
    cards = sum(bids)
    assert score_hand(cards, bids, tricks, hook=False) == score_cases(cards, bids, tricks)[0]


def test_hook_off_allows_bids_adding_up_to_the_cards() -> None:
    assert score_hand(5, [2, 3], [2, 3], hook=False) == [7, 8]
    assert score_hand(5, [2, 3], [1, 4], hook=False) == [0, 0]


@pytest.mark.parametrize("bids", [["x", 1], [None, 1], [6, -1]])
def test_score_hand_refuses_a_bid_that_is_not_a_number(bids: list[Any]) -> None:
    try:
        score_hand(5, bids, [3, 2])
    except RuleError as error:
        assert error.seat == 0
    else:
        raise AssertionError("accepted")


# --- scoring: properties ----------------------------------------------------------------------


@st.composite
def hands(draw: st.DrawFn, max_players: int = 10) -> tuple[int, list[int], list[int]]:
    """Any hand: cards each, a bid per seat in 0..n, tricks per seat adding up to n."""
    players = draw(st.integers(2, max_players))
    cards = draw(st.integers(1, 16))
    bids = draw(st.lists(st.integers(0, cards), min_size=players, max_size=players))
    winners = draw(st.lists(st.integers(0, players - 1), min_size=cards, max_size=cards))
    return cards, bids, [winners.count(seat) for seat in range(players)]


@st.composite
def case_4_hands(draw: st.DrawFn) -> tuple[int, list[int], list[int]]:
    """A hand where every player misses by two or more."""
    cards, _, tricks = draw(hands())
    bids = []
    for took in tricks:
        far = [b for b in range(cards + 1) if abs(b - took) >= 2]
        assume(far)
        bids.append(draw(st.sampled_from(far)))
    return cards, bids, tricks


any_hand = hands() | case_4_hands()


@given(any_hand)
def test_case_4_happens_exactly_when_everybody_misses_by_two(
        hand: tuple[int, list[int], list[int]]) -> None:
    cards, bids, tricks = hand
    _, notes = score_cases(cards, bids, tricks)
    everybody_far = all(abs(t - b) >= 2 for b, t in zip(bids, tricks, strict=True))
    assert all(note in (CLOSEST, OTHER) for note in notes) == everybody_far
    assert (CLOSEST in notes or OTHER in notes) == everybody_far
    if everybody_far:
        errors = [abs(t - b) for b, t in zip(bids, tricks, strict=True)]
        assert notes == [CLOSEST if e == min(errors) else OTHER for e in errors]


@given(any_hand)
def test_outside_case_4_each_player_scores_on_their_own(
        hand: tuple[int, list[int], list[int]]) -> None:
    cards, bids, tricks = hand
    points, notes = score_cases(cards, bids, tricks)
    assume(CLOSEST not in notes)
    for bid, took, point, note in zip(bids, tricks, points, notes, strict=True):
        if took == bid:
            assert (point, note) == (cards + bid, EXACT)
        elif abs(took - bid) == 1:
            assert (point, note) == (0, OFF_BY_ONE)
        else:
            assert (point, note) == (-(cards + abs(took - bid)), OFF_BY_MORE)


@given(case_4_hands())
def test_in_case_4_only_the_smallest_errors_score_n_minus_e(
        hand: tuple[int, list[int], list[int]]) -> None:
    cards, bids, tricks = hand
    points, _ = score_cases(cards, bids, tricks)
    errors = [abs(t - b) for b, t in zip(bids, tricks, strict=True)]
    smallest = min(errors)
    assert all(e <= cards for e in errors)
    for error, point in zip(errors, points, strict=True):
        assert point == (cards - error if error == smallest else 0)
        assert point >= 0


@given(any_hand)
def test_hook_refuses_exactly_the_bids_that_add_up_to_n(
        hand: tuple[int, list[int], list[int]]) -> None:
    cards, bids, tricks = hand
    if sum(bids) == cards:
        raises(lambda: score_hand(cards, bids, tricks))
    else:
        assert score_hand(cards, bids, tricks) == score_cases(cards, bids, tricks)[0]
    assert score_hand(cards, bids, tricks, hook=False) == score_cases(cards, bids, tricks)[0]


# --- the sheet -------------------------------------------------------------------------------


def test_an_empty_match() -> None:
    sheet = build_sheet(4, [])
    assert sheet.game == "navawhist"
    assert sheet.players == 4
    assert sheet.options == {"hook": True}
    assert sheet.columns == ((0,), (1,), (2,), (3,))
    assert sheet.rows == ()
    assert sheet.totals == (0, 0, 0, 0)
    assert sheet.places == (1, 1, 1, 1)
    assert sheet.finished is False
    assert sheet.winners == ()
    assert sheet.status.as_json() == {"hands": 16, "played": 0, "schedule": TABLE[4],
                                      "dealers": [0, 1, 2, 3] * 4}
    assert sheet.next == Next(1, 0, (0, 1, 2, 3), NextHand(
        cards=1, order=[1, 2, 3, 0], bids=[None] * 4, bidder=1,
        forbidden=None, trump=None, phase="bids",
        bid_total=0, bids_off=-1, changeable=[]))


def test_one_hand_for_two_players() -> None:
    # Seat 0 bid 1 and took 1 (exact, 2 + 1), seat 1 bid 0 and took 1 (off by one).
    sheet = build_sheet(2, [{"bids": [1, 0], "tricks": [1, 1]}])
    assert sheet.totals == (3, 0)
    assert sheet.next is not None
    assert (sheet.next.number, sheet.next.dealer, sheet.next.info.cards) == (2, 1, 2)


def test_case_4_example_on_the_sheet() -> None:
    # Three players; hand 5 deals 5 cards, and seat 2 deals it when seat 1 dealt hand 1.
    before = filler(3, 4)
    sheet = build_sheet(3, [*before, {"bids": [0, 0, None]}], first_dealer=1)
    assert sheet.next is not None
    assert sheet.next.number == 5
    assert sheet.next.dealer == 2
    assert sheet.next.info.cards == 5
    assert sheet.next.info.bidder == 2
    assert sheet.next.info.forbidden == 5
    error = raises(lambda: build_sheet(3, [*before, {"bids": [0, 0, 5]}], first_dealer=1))
    assert error.seat == 2
    assert error.params["bid"] == 5
    sheet = build_sheet(3, [*before, {"bids": [0, 0, 4], "tricks": [3, 2, 0]}], first_dealer=1)
    row = sheet.rows[-1]
    assert (row.number, row.dealer, row.points, row.notes) == (5, 2, (0, 3, 0),
                                                                   (OTHER, CLOSEST, OTHER))
    assert row.inputs == {"bids": [0, 0, 4], "tricks": [3, 2, 0], "trump": None, "cards": 5}
    assert sheet.totals == tuple(sum(r.points[s] for r in sheet.rows) for s in range(3))


def test_hook_off_lets_the_dealer_bid_anything() -> None:
    before = filler(3, 4)
    sheet = build_sheet(3, [*before, {"bids": [0, 0, None]}], first_dealer=1, hook=False)
    assert sheet.options == {"hook": False}
    assert sheet.next is not None and sheet.next.info.forbidden is None
    sheet = build_sheet(3, [*before, {"bids": [0, 0, 5], "tricks": [0, 0, 5]}], first_dealer=1,
                        hook=False)
    assert sheet.rows[-1].points == (5, 5, 10)


def test_next_follows_the_bidding_hand_by_hand() -> None:
    # Four players, seat 1 deals hand 1 (one card each): seats 2, 3, 0 bid, then seat 1.
    steps = [
        ([None, None, None, None], 2, None),
        ([None, None, 0, None], 3, None),
        ([None, None, 0, 0], 0, None),
        ([0, None, 0, 0], 1, 1),
        ([1, None, 0, 0], 1, 0),
        ([1, None, 1, 0], 1, None),
    ]
    for bids, bidder, forbidden in steps:
        sheet = build_sheet(4, [{"bids": bids}], first_dealer=1)
        assert sheet.next is not None
        info = sheet.next.info
        assert (sheet.next.number, sheet.next.dealer) == (1, 1)
        assert info.order == [2, 3, 0, 1]
        assert info.bids == bids
        assert (info.bidder, info.forbidden, info.phase) == (bidder, forbidden, "bids")
        hook_off = build_sheet(4, [{"bids": bids}], first_dealer=1, hook=False)
        assert hook_off.next is not None and hook_off.next.info.forbidden is None
    sheet = build_sheet(4, [{"bids": ["0", "0", "0", "0"], "trump": "s"}], first_dealer=1)
    assert sheet.next is not None
    info = sheet.next.info
    assert info.bids == [0, 0, 0, 0]
    assert (info.bidder, info.forbidden, info.phase) == (None, None, "tricks")
    assert info.trump == "♠"
    assert sheet.rows == ()


def test_a_hand_with_no_bids_yet() -> None:
    for hand in ({}, {"bids": None, "tricks": None}, {"bids": []}):
        sheet = build_sheet(3, [*filler(3, 2), hand])
        assert sheet.next is not None
        assert sheet.next.info.bids == [None] * 3
        assert sheet.next.info.bidder == 0
        assert sheet.next.dealer == 2
        assert len(sheet.rows) == 2


def test_inputs_may_be_strings_and_trump_a_letter() -> None:
    sheet = build_sheet(2, [{"bids": ["1", "0"], "tricks": ["1", "1"], "trump": "h"}])
    row = sheet.rows[0]
    assert row.inputs == {"bids": [1, 0], "tricks": [1, 1], "trump": "♥", "cards": 2}
    assert row.points == (3, 0)
    assert row.notes == (EXACT, OFF_BY_ONE)
    assert row.totals == (3, 0)
    assert row.annulled is False


@pytest.mark.parametrize("first_dealer", [0, 1, 2, 3])
def test_dealer_rotation(first_dealer: int) -> None:
    sheet = build_sheet(4, filler(4, 7), first_dealer=first_dealer)
    assert [row.dealer for row in sheet.rows] == [(first_dealer + i) % 4 for i in range(7)]
    assert sheet.next is not None
    assert sheet.next.dealer == (first_dealer + 7) % 4
    assert sheet.next.number == 8
    assert sheet.next.info.order == order_of(4, sheet.next.dealer)


# --- the sheet: refusals --------------------------------------------------------------------


def test_refuse_a_bid_out_of_turn() -> None:
    # Seat 0 deals: seat 1 bids first, seat 2 before seat 0.
    error = raises(lambda: build_sheet(3, [{"bids": [None, None, 1]}]))
    assert error.seat == 1
    error = raises(lambda: build_sheet(3, [{"bids": [0, 1, None]}]))
    assert error.seat == 2
    error = raises(lambda: build_sheet(3, [{"bids": [0, None, 0], "tricks": [1, 0, 0]}]))
    assert error.seat == 1


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_refuse_the_dealers_forbidden_bid(players: int) -> None:
    # Hand 2, dealt by seat 1: the others all bid 0, so the dealer may not bid every card.
    cards = TABLE[players][1]
    bids = [0] * players
    bids[1] = cards
    error = raises(lambda: build_sheet(players, [*filler(players, 1), {"bids": bids}]))
    assert error.seat == 1
    assert error.params == {"bid": cards, "cards": cards}
    tricks = [cards] + [0] * (players - 1)
    error = raises(lambda: build_sheet(players, [*filler(players, 1),
                                                 {"bids": bids, "tricks": tricks}]))
    assert error.seat == 1
    sheet = build_sheet(players, [*filler(players, 1), {"bids": bids, "tricks": tricks}],
                        hook=False)
    assert len(sheet.rows) == 2


def test_refuse_tricks_before_every_bid() -> None:
    error = raises(lambda: build_sheet(3, [{"bids": [None, 1, None], "tricks": [1, 0, 0]}]))
    assert error.params == {"number": 1}
    error = raises(lambda: build_sheet(3, [*filler(3, 2), {"tricks": [3, 0, 0]}]))
    assert error.params == {"number": 3}


def test_refuse_an_unfinished_hand_before_the_last() -> None:
    hands = [*filler(3, 2), {"bids": [0, 0, 0]}, *filler(3, 4)[3:]]
    error = raises(lambda: build_sheet(3, hands))
    assert error.params == {"number": 3}


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_refuse_too_many_hands(players: int) -> None:
    full = filler(players, HANDS[players])
    assert build_sheet(players, full).finished
    extra = {"bids": [0] * players, "tricks": [5] + [0] * (players - 1)}
    error = raises(lambda: build_sheet(players, [*full, extra]))
    assert error.params == {"players": players, "hands": HANDS[players]}
    raises(lambda: build_sheet(players, [*full, {"bids": [None] * players}]))


@pytest.mark.parametrize(
    ("hand", "seat"),
    [
        ({"bids": [3, 0], "tricks": [1, 1]}, 0),  # hand 1: two cards, seat 1 bids first
        ({"bids": [0, 3], "tricks": [1, 1]}, 1),
        ({"bids": [0, -1], "tricks": [1, 1]}, 1),
        ({"bids": [0, "x"], "tricks": [1, 1]}, 1),
        ({"bids": [0, 1], "tricks": [3, -1]}, 0),
        ({"bids": [0, 1], "tricks": [0, 3]}, 1),
        ({"bids": [0, 1], "tricks": [1, "one"]}, 1),
    ],
)
def test_refuse_bids_or_tricks_out_of_range(hand: dict[str, Any], seat: int) -> None:
    error = raises(lambda: build_sheet(2, [hand]))
    assert error.seat == seat


@pytest.mark.parametrize(
    "hand",
    [
        {"bids": [0, 0, 0], "tricks": [0, 0, 0, 1]},
        {"bids": [0, 0, 0], "tricks": [1]},
        {"bids": [0, 0, 0], "tricks": []},
        {"bids": [0, 0], "tricks": [1, 0, 0]},
        {"bids": [0], "tricks": [1, 0, 0]},
        {"bids": [0, 0, None, None]},
    ],
)
def test_refuse_lists_of_the_wrong_length(hand: dict[str, Any]) -> None:
    error = raises(lambda: build_sheet(3, [hand]))
    assert error.seat is None
    assert error.params["players"] == 3


@pytest.mark.parametrize("tricks", [[0, 0, 0], [1, 1, 0], [1, 1, 1]])
def test_refuse_tricks_not_adding_up(tricks: list[int]) -> None:
    error = raises(lambda: build_sheet(3, [{"bids": [0, 0, 0], "tricks": tricks}]))
    assert error.params == {"total": sum(tricks), "cards": 1}


def test_refuse_an_unknown_trump() -> None:
    error = raises(lambda: build_sheet(2, [{"bids": [1, 0], "tricks": [1, 1], "trump": "x"}]))
    assert error.params == {"suit": "x"}


def test_a_bad_hand_in_the_middle_is_refused() -> None:
    hands = filler(5, 6)
    hands[2] = {"bids": [0, 0, 0, 0, 0], "tricks": [2, 2, 0, 0, 0]}
    error = raises(lambda: build_sheet(5, hands))
    assert error.params == {"total": 4, "cards": 3}


@pytest.mark.parametrize("first_dealer", [3, -1, "x", None])
def test_refuse_a_first_dealer_who_is_not_a_seat(first_dealer: Any) -> None:
    with pytest.raises(RuleError):
        build_sheet(3, [], first_dealer=first_dealer)


def test_first_dealer_may_come_as_a_string() -> None:
    sheet = build_sheet(3, [], first_dealer="1")
    assert sheet.next is not None and sheet.next.dealer == 1


# --- whole matches ---------------------------------------------------------------------------


def play(players: int, count: int, first_dealer: int, hook: bool,
         pick: Callable[[int, int], int]) -> list[dict[str, Any]]:
    """``count`` valid hands, bids made in bidding order, ``pick(low, high)`` choosing."""
    hands = []
    for index, cards in enumerate(TABLE[players][:count]):
        dealer = (first_dealer + index) % players
        bids: list[int] = [0] * players
        for seat in order_of(players, dealer)[:-1]:
            bids[seat] = pick(0, cards)
        others = sum(bids) - bids[dealer]
        allowed = [v for v in range(cards + 1) if not (hook and others + v == cards)]
        bids[dealer] = allowed[pick(0, len(allowed) - 1)]
        tricks = [0] * players
        for _ in range(cards):
            tricks[pick(0, players - 1)] += 1
        hands.append({"bids": bids, "tricks": tricks})
    return hands


def check_sheet(players: int, hands: list[dict[str, Any]], first_dealer: int,
                hook: bool) -> None:
    """The sheet of ``hands`` agrees with score_hand, hand by hand, and with docs/rules.md."""
    sheet = build_sheet(players, hands, first_dealer=first_dealer, hook=hook)
    totals = [0] * players
    assert len(sheet.rows) == len(hands)
    for index, (hand, row) in enumerate(zip(hands, sheet.rows, strict=True)):
        cards = TABLE[players][index]
        points = score_hand(cards, hand["bids"], hand["tricks"], hook=hook)
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        assert row.number == index + 1
        assert row.dealer == (first_dealer + index) % players
        assert row.points == tuple(points)
        assert row.totals == tuple(totals)
        assert row.inputs["cards"] == cards
        assert len(row.notes) == players
        if hook:
            assert sum(hand["bids"]) != cards
    assert sheet.totals == tuple(totals)
    best = max(totals)
    assert sheet.places == tuple(1 + sum(o > t for o in totals) for t in totals)
    finished = len(hands) == HANDS[players]
    assert sheet.finished is finished
    assert sheet.status.as_json() == {
        "hands": HANDS[players], "played": len(hands), "schedule": TABLE[players],
        "dealers": [(first_dealer + i) % players for i in range(HANDS[players])]}
    if finished:
        assert sheet.next is None
        assert sheet.winners == tuple(s for s in range(players) if totals[s] == best)
    else:
        assert sheet.winners == ()
        assert sheet.next is not None
        assert sheet.next.number == len(hands) + 1
        assert sheet.next.dealer == (first_dealer + len(hands)) % players
        assert sheet.next.info.cards == TABLE[players][len(hands)]
        assert sheet.next.info.bidder == (sheet.next.dealer + 1) % players


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("hook", [True, False])
def test_full_matches(players: int, hook: bool) -> None:
    rng = random.Random(players * 2 + hook)
    for first_dealer in range(players):
        hands = play(players, HANDS[players], first_dealer, hook, rng.randint)
        check_sheet(players, hands, first_dealer, hook)
        check_sheet(players, hands[: rng.randrange(HANDS[players])], first_dealer, hook)


def test_finished_match_with_tied_winners_two_players() -> None:
    # Hands come in pairs of equal size: seat 0 wins one, seat 1 the mirror image.
    hands = []
    for cards in TABLE[2][::2]:
        hands.append({"bids": [1, 0], "tricks": [1, cards - 1]})
        hands.append({"bids": [0, 1], "tricks": [cards - 1, 1]})
    sheet = build_sheet(2, hands)
    assert sheet.finished
    assert sheet.totals[0] == sheet.totals[1]
    assert sheet.places == (1, 1)
    assert sheet.winners == (0, 1)
    assert sheet.next is None


def test_finished_match_with_tied_winners_and_a_loser() -> None:
    # Seats 0 and 1 always bid 0 and make it; seat 2 takes every trick, one off its bid.
    hands = [{"bids": [0, 0, cards - 1], "tricks": [0, 0, cards]} for cards in TABLE[3]]
    sheet = build_sheet(3, hands)
    exact = sum(TABLE[3])
    assert sheet.totals == (exact, exact, 0)
    assert sheet.places == (1, 1, 3)
    assert sheet.winners == (0, 1)
    assert sheet.finished


def test_finished_match_with_one_winner() -> None:
    sheet = build_sheet(4, filler(4, 16))
    # Seat 0 took every trick after bidding 0: -2n, or 0 when n = 1; the others n each.
    assert sheet.totals[0] == sum(-2 * n for n in TABLE[4] if n > 1)
    assert sheet.totals[1:] == (sum(TABLE[4]),) * 3
    assert sheet.places == (4, 1, 1, 1)
    assert sheet.winners == (1, 2, 3)


# --- sheet properties ------------------------------------------------------------------------


def drawer(data: st.DataObject) -> Callable[[int, int], int]:
    return lambda low, high: data.draw(st.integers(low, high))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10), st.booleans(), st.data())
def test_any_match_adds_up(players: int, hook: bool, data: st.DataObject) -> None:
    first_dealer = data.draw(st.integers(0, players - 1))
    count = data.draw(st.integers(0, HANDS[players]))
    check_sheet(players, play(players, count, first_dealer, hook, drawer(data)), first_dealer,
                hook)


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 10), st.data())
def test_the_forbidden_bid_is_the_only_one_refused(players: int, data: st.DataObject) -> None:
    index = data.draw(st.integers(0, HANDS[players] - 1))
    first_dealer = data.draw(st.integers(0, players - 1))
    cards, dealer = TABLE[players][index], (first_dealer + index) % players
    bids: list[int | None] = [None] * players
    for seat in order_of(players, dealer)[:-1]:
        bids[seat] = data.draw(st.integers(0, cards))
    rest = cards - sum(b for b in bids if b is not None)
    forbidden = rest if 0 <= rest <= cards else None
    before = filler(players, index)
    sheet = build_sheet(players, [*before, {"bids": bids}], first_dealer=first_dealer)
    assert sheet.next is not None
    assert sheet.next.info.bidder == dealer
    assert sheet.next.info.forbidden == forbidden
    for bid in range(cards + 1):
        hand = {"bids": [bid if s == dealer else b for s, b in enumerate(bids)]}
        if bid == forbidden:
            assert raises(lambda h=hand: build_sheet(players, [*before, h],
                                                     first_dealer=first_dealer)).seat == dealer
        else:
            sheet = build_sheet(players, [*before, hand], first_dealer=first_dealer)
            assert sheet.next is not None
            assert sheet.next.info.phase == "tricks"
        build_sheet(players, [*before, hand], first_dealer=first_dealer, hook=False)


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 10), st.booleans(), st.data())
def test_next_shows_a_forbidden_bid_only_to_the_dealer_with_the_hook(
        players: int, hook: bool, data: st.DataObject) -> None:
    index = data.draw(st.integers(0, HANDS[players] - 1))
    first_dealer = data.draw(st.integers(0, players - 1))
    cards, dealer = TABLE[players][index], (first_dealer + index) % players
    order = order_of(players, dealer)
    made = data.draw(st.integers(0, players - 1))
    bids: list[int | None] = [None] * players
    for seat in order[:made]:
        bids[seat] = data.draw(st.integers(0, cards))
    sheet = build_sheet(players, [*filler(players, index), {"bids": bids}],
                        first_dealer=first_dealer, hook=hook)
    assert sheet.next is not None
    info = sheet.next.info
    assert info.bidder == order[made]
    assert info.order == order
    assert info.phase == "bids"
    rest = cards - sum(b for b in bids if b is not None)
    if hook and info.bidder == dealer and 0 <= rest <= cards:
        assert info.forbidden == rest
    else:
        assert info.forbidden is None


@given(st.integers(2, 10), st.data())
def test_with_the_hook_no_accepted_hand_has_bids_adding_up_to_n(
        players: int, data: st.DataObject) -> None:
    index = data.draw(st.integers(0, HANDS[players] - 1))
    cards = TABLE[players][index]
    bids = data.draw(st.lists(st.integers(0, cards), min_size=players, max_size=players))
    winners = data.draw(st.lists(st.integers(0, players - 1), min_size=cards, max_size=cards))
    hand = {"bids": bids, "tricks": [winners.count(s) for s in range(players)]}
    hands = [*filler(players, index), hand]
    if sum(bids) == cards:
        raises(lambda: build_sheet(players, hands))
    else:
        assert build_sheet(players, hands).rows[-1].inputs["bids"] == bids
    assert len(build_sheet(players, hands, hook=False).rows) == index + 1


# --- the registry entry ----------------------------------------------------------------------


def test_game_entry() -> None:
    assert GAME.key == "navawhist"
    assert GAME.name == "Navawhist"
    assert (GAME.min_players, GAME.max_players) == (2, 10)
    assert GAME.clockwise is False
    assert GAME.solitaire is False
    assert GAME.build_sheet is build_sheet
    assert [(o.key, o.kind, o.default) for o in GAME.options] == [("hook", "bool", True),
                                                                 ("entry", "choice", "lowest")]
    assert GAME.clean_options(5, {}) == {"hook": True, "entry": "lowest"}
    assert GAME.clean_options(5, {"hook": "off"}) == {"hook": False, "entry": "lowest"}
    raises(lambda: GAME.clean_options(11, {}))
    raises(lambda: GAME.clean_options(1, {}))


def test_options_from_the_registry_drive_the_sheet() -> None:
    options = GAME.clean_options(2, {"hook": False})
    sheet = GAME.build_sheet(2, [{"bids": [1, 1], "tricks": [1, 1]}], **options)
    assert sheet.options == {"hook": False}
    assert sheet.totals == (3, 3)


@pytest.mark.parametrize("hand", [
    {"closer": 0, "points": [1, 2]},
    {"bids": "01", "tricks": None},
    {"bids": [0, 0], "tricks": [2, 0], "colour": "red"},
])
def test_a_hand_of_another_shape_is_refused(hand: dict) -> None:
    with pytest.raises(RuleError, match="not a Navawhist hand"):
        build_sheet(2, [hand])


def test_bids_against_the_cards_and_the_bids_that_may_change():
    sheet = build_sheet(4, [{"bids": [None, 1, 1, None], "tricks": None}])
    info = sheet.next.info
    assert sheet.next.number == 1 and info.cards == 1
    # Bruno and Carla bid 1 each on 1 card: over by 1; both may still change their bid.
    assert (info.bid_total, info.bids_off) == (2, 1)
    assert info.changeable == [1, 2]
    done = build_sheet(2, [{"bids": [0, 1], "tricks": None}]).next.info
    assert done.phase == "tricks" and done.changeable == []
