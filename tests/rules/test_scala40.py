"""Scala 40 (docs/rules.md#scala-40): penalties, closing in hand, elimination, re-entry, pairs."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import GAMES
from scorekeeper.rules.cards import Card
from scorekeeper.rules.core import Event, Note, RuleError
from scorekeeper.rules.scala40 import (
    GAME,
    build_sheet,
    deal_players,
    entry_points,
    hand_points,
    score_deal,
    uncounted,
)

from .conftest import refused

# Written out from docs/rules.md, "Scala 40", not imported from the module under test.
VALUE = {"*": 25, "A": 11, "J": 10, "Q": 10, "K": 10, **{str(n): n for n in range(2, 11)}}
RANKS = list(VALUE)
DEFAULTS = {"end": "elimination", "threshold": 101, "deals": 10, "reentry": False,
            "reentry_limit": 3, "pairs": False, "in_hand_doubles": True}


def deal(closer: Any, points: list[Any], **flags: Any) -> dict[str, Any]:
    """One scored deal as the web layer stores it."""
    return {"closer": closer, "points": points, **flags}


ANNULLED = {"annulled": True}


# --- penalty points of a hand ------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "points"), [
    ("A", 1), ("A K", 21), ("A A", 22), ("A♥", 1), ("ah", 1), ("*", 25), ("JOLLY joker", 50),
    ("K", 10), ("J Q K", 30), ("2", 2), ("10", 10), ("10 D", 20), ("10D", 10), ("* A", 36),
    ("2 3 4 5 6 7 8 9 10", 54), ("", 0),
])
def test_hand_points_from_text(cards: str, points: int) -> None:
    assert hand_points(cards) == points


def test_hand_points_from_a_list() -> None:
    assert hand_points([Card("A", "♠")]) == 1
    assert hand_points(["A", Card("K")]) == 21


def test_an_unknown_card_names_the_seat() -> None:
    refused(None, hand_points, "A 1")
    refused(4, hand_points, "Z", seat=4)


@given(st.lists(st.sampled_from(RANKS), max_size=15))
def test_hand_points_is_the_sum_of_card_values_but_a_lone_ace(ranks: list[str]) -> None:
    expected = 1 if ranks == ["A"] else sum(VALUE[r] for r in ranks)
    assert hand_points(" ".join(ranks)) == expected
    assert hand_points([Card(r) for r in ranks]) == expected


@pytest.mark.parametrize(("entry", "points"), [
    (21, 21), ("21", 21), ("10+11", 21), ("A K", 21), (["A", "K"], 21), ("A", 1), ("1", 1),
    ("11", 11),
])
def test_entry_points(entry: Any, points: int) -> None:
    assert entry_points(entry) == points


def test_a_blank_entry_and_a_bad_one() -> None:
    assert entry_points(None) is None and entry_points("") is None
    refused(2, entry_points, "A+", seat=2)


# --- one deal ------------------------------------------------------------------------------------


def test_deal_worked_example() -> None:
    # Seat 0 closes; seat 1 holds A K (21); seat 2 never opened; seat 3 holds a lone Ace.
    points = [None, "A K", "K K K", "A"]
    assert score_deal(points, closer=0, never_opened=[2]) == [0, 21, 100, 1]
    assert score_deal(points, closer=0, never_opened=[2], closed_in_hand=True) == [0, 42, 200, 2]
    assert score_deal(points, closer=0, never_opened=[2], closed_in_hand=True,
                      in_hand_doubles=False) == [0, 21, 100, 1]


@pytest.mark.parametrize("never", [[2], {2}, (2,), 2, "2", [False, False, True, False], ["2"]])
def test_never_opened_given_as_seats_or_flags(never: Any) -> None:
    assert score_deal([0, 7, 7, 7], closer=0, never_opened=never) == [0, 7, 100, 7]


@pytest.mark.parametrize("never", [None, "", [], ()])
def test_nobody_never_opened(never: Any) -> None:
    assert score_deal([0, 7, 7], closer=0, never_opened=never) == [0, 7, 7]


@pytest.mark.parametrize("flag", [True, "true", "on", "yes", 1, "1"])
def test_closed_in_hand_as_a_flag_or_the_closers_seat(flag: Any) -> None:
    assert score_deal([7, 0, 9], closer=1, never_opened=(), closed_in_hand=flag) == [14, 0, 18]


@pytest.mark.parametrize("flag", [False, None, "", "off", "false", "no"])
def test_not_closed_in_hand(flag: Any) -> None:
    assert score_deal([7, 0, 9], closer=1, never_opened=(), closed_in_hand=flag) == [7, 0, 9]


@pytest.mark.parametrize("closer", [None, "", [], [0, 1]])
def test_not_exactly_one_closer_is_refused(closer: Any) -> None:
    err = refused(None, score_deal, [0, 0, 9], closer=closer, never_opened=())
    assert "exactly one closer" in str(err)


def test_a_closer_given_as_a_one_seat_list() -> None:
    assert score_deal([0, 5], closer=[0], never_opened=()) == [0, 5]


def test_a_second_player_at_zero_is_refused() -> None:
    refused(2, score_deal, [0, 9, 0], closer=0, never_opened=())
    refused(1, score_deal, [None, []], closer=0, never_opened=())


def test_a_penalty_for_the_closer_is_refused() -> None:
    refused(1, score_deal, [9, 5, 9], closer=1, never_opened=())
    refused(1, score_deal, [9, "A", 9], closer=1, never_opened=())


def test_the_closer_marked_never_opened_is_refused() -> None:
    refused(0, score_deal, [0, 9], closer=0, never_opened=[0])


def test_the_in_hand_flag_on_anyone_but_the_closer_is_refused() -> None:
    refused(2, score_deal, [0, 9, 9], closer=0, never_opened=(), closed_in_hand=2)
    refused(1, score_deal, [0, 9, 9], closer=0, never_opened=(), closed_in_hand="1")
    refused(None, score_deal, [0, 9, 9], closer=0, never_opened=(), closed_in_hand=5)


def test_missing_or_negative_penalties_are_refused() -> None:
    refused(1, score_deal, [0, None, 9], closer=0, never_opened=())
    refused(2, score_deal, [0, 9, -4], closer=0, never_opened=())


def test_seats_that_are_not_seats_are_refused() -> None:
    refused(None, score_deal, [0, 9], closer=2, never_opened=())
    refused(None, score_deal, [0, 9], closer=0, never_opened=[5])
    refused(None, score_deal, [0, 9], closer=0, never_opened=[True])


# --- properties of one deal ---------------------------------------------------------------------

hands = st.lists(st.sampled_from(RANKS), min_size=1, max_size=14).map(" ".join)


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[Any], int, set[int]]:
    """A valid deal: 2 to 6 seats, cards in every hand but the closer's, some never opened."""
    players = draw(st.integers(2, 6))
    points: list[Any] = draw(st.lists(hands, min_size=players, max_size=players))
    closer = draw(st.integers(0, players - 1))
    points[closer] = None
    never = draw(st.sets(st.integers(0, players - 1).filter(lambda s: s != closer)))
    return points, closer, never


@given(deals())
def test_closing_in_hand_doubles_every_opponents_penalty(
        found: tuple[list[Any], int, set[int]]) -> None:
    points, closer, never = found
    plain = score_deal(points, closer=closer, never_opened=never)
    doubled = score_deal(points, closer=closer, never_opened=never, closed_in_hand=True)
    assert doubled == [2 * p for p in plain]
    assert doubled[closer] == plain[closer] == 0
    assert score_deal(points, closer=closer, never_opened=never, closed_in_hand=True,
                      in_hand_doubles=False) == plain


@given(deals(), st.booleans())
def test_a_player_who_never_opened_pays_100_whatever_their_cards(
        found: tuple[list[Any], int, set[int]], in_hand: bool) -> None:
    points, closer, never = found
    penalties = score_deal(points, closer=closer, never_opened=never, closed_in_hand=in_hand)
    factor = 2 if in_hand else 1
    for seat, entry in enumerate(points):
        if seat == closer:
            assert penalties[seat] == 0
        elif seat in never:
            assert penalties[seat] == 100 * factor
        else:
            ranks = entry.split()
            cards = 1 if ranks == ["A"] else sum(VALUE[r] for r in ranks)
            assert penalties[seat] == cards * factor


# --- the match: registry and options -------------------------------------------------------------


def test_the_registry_entry() -> None:
    assert GAMES["scala40"] is GAME
    assert (GAME.min_players, GAME.max_players, GAME.clockwise) == (2, 6, True)
    assert GAME.clean_options(4, {}) == DEFAULTS
    assert GAME.clean_options(3, {"pairs": True})["pairs"] is False
    assert GAME.clean_options(4, {"pairs": "on"})["pairs"] is True
    assert GAME.clean_options(4, {"threshold": "201"})["threshold"] == 201
    with pytest.raises(RuleError):
        GAME.clean_options(4, {"threshold": 120})


def test_bad_options_and_tables_are_refused() -> None:
    refused(None, build_sheet, 1, [])
    refused(None, build_sheet, 7, [])
    refused(None, build_sheet, 3, [], pairs=True)
    refused(None, build_sheet, 3, [], threshold=100)
    refused(None, build_sheet, 3, [], first_dealer=3)
    refused(None, build_sheet, 3, [], target=45)


def test_an_empty_match() -> None:
    sheet = build_sheet(3, [], first_dealer=2)
    assert sheet.game == "scala40" and sheet.options == DEFAULTS
    assert sheet.columns == ((0,), (1,), (2,))
    assert sheet.totals == (0, 0, 0) and sheet.places == (1, 1, 1)
    assert not sheet.finished and sheet.winners == ()
    assert sheet.next is not None
    assert (sheet.next.number, sheet.next.dealer, sheet.next.seats) == (1, 2, (0, 1, 2))
    assert sheet.next.info.as_json() == {"seats_in": [0, 1, 2], "may_reenter": [], "threshold": 101,
                               "in_hand_doubles": True, "pairs": False}
    assert sheet.status.as_json() == {
        "end": "elimination", "threshold": 101, "deals": None, "played": 0, "annulled": 0,
        "seats_in": [0, 1, 2], "eliminated": [], "reentries": [0, 0, 0],
        "reentry_limit": None, "may_reenter": [], "events": [],
        "to_go": [101, 101, 101], "out_in": [None, None, None]}


def test_points_to_go_before_elimination_and_the_deal_that_put_each_out() -> None:
    sheet = build_sheet(3, [deal(0, [None, 60, 110]), deal(0, [None, 50, None])])
    assert sheet.totals == (0, 110, 110)
    assert sheet.finished and sheet.status.to_go == [101, None, None]
    # Bruno went out in deal 2, after Carla (deal 1): he ranks above her.
    assert sheet.status.out_in == [None, 2, 1]
    assert sheet.places == (1, 2, 3)
    running = build_sheet(3, [deal(0, [None, 60, 20])], threshold=151)
    assert running.status.to_go == [151, 91, 131]
    fixed = build_sheet(3, [deal(0, [None, 60, 20])], end="deals")
    assert fixed.status.to_go == [None, None, None]


# --- the match: deals, elimination, the deal rotation ---------------------------------------------


def test_deals_add_up_and_notes_say_who_closed_and_who_never_opened() -> None:
    sheet = build_sheet(3, [deal(0, [None, "A K", 9], never_opened=[2]),
                            deal(1, ["Q 2", None, "A"])])
    first, second = sheet.rows
    assert first.points == (0, 21, 100) and first.totals == (0, 21, 100)
    assert first.notes == (Note.CLOSED, "", Note.NEVER_OPENED)
    assert first.inputs["points"] == [None, "A K", 9]
    assert first.inputs["penalties"] == [0, 21, 100]
    assert second.points == (12, 0, 1) and second.totals == (12, 21, 101)
    assert second.notes == ("", Note.CLOSED, Note.OUT)
    refused(0, build_sheet, 3, [deal(0, [None, "A K", 9]), deal(1, [None, None, "A"])])


def test_closing_in_hand_in_the_sheet() -> None:
    played = [deal(1, [30, None, 40], closed_in_hand=True)]
    sheet = build_sheet(3, played)
    assert sheet.rows[0].points == (60, 0, 80)
    assert sheet.rows[0].notes == ("", Note.CLOSED_IN_HAND, "")
    assert sheet.rows[0].events == (Event.DOUBLED,)
    sheet = build_sheet(3, played, in_hand_doubles=False)
    assert sheet.rows[0].points == (30, 0, 40)
    assert sheet.rows[0].events == ()
    assert sheet.next is not None and sheet.next.info.in_hand_doubles is False


def test_a_total_that_reaches_the_threshold_is_out() -> None:
    sheet = build_sheet(3, [deal(0, [None, 100, 101])])
    assert sheet.status.eliminated == [2] and sheet.status.seats_in == [0, 1]
    assert sheet.rows[0].notes == (Note.CLOSED, "", Note.OUT)
    assert sheet.rows[0].events == (Event.ELIMINATION,)
    assert sheet.status.events == [{"deal": 1, "seat": 2, "event": "out", "total": 101}]
    assert sheet.next is not None and sheet.next.seats == (0, 1)
    assert sheet.next.info.seats_in == [0, 1]


@pytest.mark.parametrize("threshold", [151, 201, 301, 501])
def test_other_thresholds(threshold: int) -> None:
    below = build_sheet(3, [deal(0, [None, 5, threshold - 1])], threshold=threshold)
    assert below.status.eliminated == []
    at = build_sheet(3, [deal(0, [None, 5, threshold])], threshold=str(threshold))
    assert at.status.eliminated == [2]
    assert at.status.threshold == threshold


def test_an_eliminated_player_is_skipped_in_the_deal_rotation() -> None:
    # Seat 1 goes out in deal 1 (dealt by 0): seat 2 deals next, then seat 3, then seat 0.
    played = [deal(0, [None, 120, 5, 5]), deal(2, [5, None, None, 5]),
              deal(3, [5, None, 5, None])]
    sheet = build_sheet(4, played)
    assert [r.dealer for r in sheet.rows] == [0, 2, 3]
    assert [r.points for r in sheet.rows][1:] == [(5, None, 0, 5), (5, None, 5, 0)]
    assert sheet.next is not None and sheet.next.dealer == 0
    assert sheet.next.seats == (0, 2, 3)


def test_the_deal_passes_on_from_an_eliminated_dealer() -> None:
    sheet = build_sheet(3, [deal(2, [120, 5, None]), deal(2, [None, 5, None])])
    # Seat 0 dealt deal 1 and is out; deal 2 was dealt by seat 1; seat 2 deals next.
    assert [r.dealer for r in sheet.rows] == [0, 1]
    assert sheet.next is not None and sheet.next.dealer == 2


def test_entries_for_an_eliminated_player_are_refused() -> None:
    out = [deal(0, [None, 5, 120])]
    refused(2, build_sheet, 3, [*out, deal(0, [None, 5, 7])])
    refused(2, build_sheet, 3, [*out, deal(0, [None, 5, "A K"])])
    refused(2, build_sheet, 3, [*out, deal(2, [5, 5, None])])
    refused(2, build_sheet, 3, [*out, deal(0, [None, 5, None], never_opened=[2])])
    refused(2, build_sheet, 3, [*out, deal(0, [None, 5, None], closed_in_hand=2)])
    assert build_sheet(3, [*out, deal(0, [None, 5, ""])]).totals == (0, 10, 120)


def test_the_match_ends_when_one_player_is_left() -> None:
    played = [deal(0, [None, 150, 5]), deal(0, [None, None, 97])]
    sheet = build_sheet(3, played)
    assert sheet.finished and sheet.next is None
    assert sheet.winners == (0,)
    assert sheet.totals == (0, 150, 102)
    # Seat 2 went out later than seat 1, so ranks above it.
    assert sheet.places == (1, 3, 2)
    refused(None, build_sheet, 3, [*played, deal(0, [None, None, None])])
    refused(None, build_sheet, 3, [*played, ANNULLED])


def test_two_players_go_out_in_the_same_deal() -> None:
    sheet = build_sheet(3, [deal(1, [110, None, 130])])
    # Out in the same deal: the lower total ranks higher.
    assert sheet.finished and sheet.winners == (1,)
    assert sheet.places == (2, 1, 3)


def test_refusals_in_the_sheet() -> None:
    refused(None, build_sheet, 3, [deal(None, [0, 5, 5])])
    refused(1, build_sheet, 3, [deal(0, [None, 0, 5])])
    refused(0, build_sheet, 3, [deal(0, [7, 5, 5])])
    refused(2, build_sheet, 3, [deal(0, [None, 5, 5], closed_in_hand=2)])
    refused(0, build_sheet, 3, [deal(0, [None, 5, 5], never_opened=[0])])
    refused(None, build_sheet, 3, [deal(0, [None, 5])])
    refused(None, build_sheet, 3, [{"closer": 0}])


# --- annulled deals ------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", [True, "true", "1", "on"])
def test_an_annulled_deal_scores_nothing_and_the_deal_passes_on(flag: Any) -> None:
    sheet = build_sheet(3, [deal(0, [None, 5, 5]), {"annulled": flag}, deal(1, [5, None, 5])],
                        first_dealer=1)
    assert [r.dealer for r in sheet.rows] == [1, 2, 0]
    assert [r.annulled for r in sheet.rows] == [False, True, False]
    assert sheet.rows[1].points == (None, None, None)
    assert sheet.rows[1].totals == (0, 5, 5)
    assert sheet.rows[1].events == (Event.ANNULLED,)
    assert sheet.totals == (5, 5, 10)
    assert sheet.status.played == 2 and sheet.status.annulled == 1
    assert sheet.next is not None and (sheet.next.number, sheet.next.dealer) == (4, 1)


@pytest.mark.parametrize("flag", [False, "false", "", None])
def test_a_deal_not_annulled(flag: Any) -> None:
    refused(None, build_sheet, 3, [{"annulled": flag}])


@pytest.mark.parametrize("extra", [{"closer": 0}, {"points": [None, 5, None]},
                                   {"never_opened": [1]}, {"closed_in_hand": True}])
def test_an_annulled_deal_with_a_closer_or_points_is_refused(extra: dict[str, Any]) -> None:
    refused(None, build_sheet, 3, [{"annulled": True, **extra}])


def test_an_annulled_deal_may_carry_blank_points() -> None:
    sheet = build_sheet(3, [{"annulled": True, "closer": None, "points": [None, "", None]}])
    assert sheet.rows[0].annulled


# --- re-entry ------------------------------------------------------------------------------------

OUT_3 = [deal(0, [None, 50, 60, 60]), deal(1, [30, None, 45, 41])]  # totals 30 50 105 101


def test_re_entry_is_off_by_default() -> None:
    sheet = build_sheet(4, OUT_3)
    assert sheet.status.eliminated == [2, 3]
    assert sheet.status.may_reenter == []
    err = refused(3, build_sheet, 4, [*OUT_3, deal(0, [None, 5, None, 5], reentries=[3])])
    assert "re-entry is off" in str(err)


def test_who_may_re_enter_and_with_what_total() -> None:
    sheet = build_sheet(4, OUT_3, reentry=True)
    assert sheet.totals == (30, 50, 105, 101)
    # The highest total among the players still in (seats 0 and 1) is 50.
    offer = [{"seat": 2, "total": 50}, {"seat": 3, "total": 50}]
    assert sheet.status.may_reenter == offer
    assert sheet.next is not None and sheet.next.info.may_reenter == offer
    assert sheet.status.reentry_limit == 3


def test_a_re_entry_is_recorded_and_the_player_plays_the_deal() -> None:
    played = [*OUT_3, deal(0, [None, 10, None, 5], reentries=[3])]
    sheet = build_sheet(4, played, reentry=True)
    row = sheet.rows[-1]
    assert row.points == (0, 10, None, 5)
    assert row.totals == (30, 60, 105, 55)
    assert row.notes == (Note.CLOSED, "", "", Note.REENTERED)
    assert row.events == (Event.REENTRY,)
    assert sheet.status.reentries == [0, 0, 0, 1]
    assert sheet.status.eliminated == [2]
    assert {"deal": 3, "seat": 3, "event": "reentry", "total": 50} in sheet.status.events
    assert sheet.next is not None and sheet.next.seats == (0, 1, 3)
    # Seat 2 let its moment pass: it went out in deal 1 and did not re-enter before deal 3.
    assert sheet.status.may_reenter == []
    # A re-entered player must now give their points.
    refused(3, build_sheet, 4, [*OUT_3, deal(0, [None, 10, None, None], reentries=[3])],
            reentry=True)


def test_a_re_entry_before_an_annulled_deal_stands() -> None:
    sheet = build_sheet(4, [*OUT_3, {"annulled": True, "reentries": ["2", 3]}], reentry=True)
    assert sheet.totals == (30, 50, 50, 50)
    assert sheet.status.eliminated == [] and sheet.status.reentries == [0, 0, 1, 1]
    assert sheet.rows[-1].events == (Event.ANNULLED, Event.REENTRY)


def test_re_entry_refusals() -> None:
    base = [*OUT_3, deal(0, [None, 10, None, 5], reentries=[3])]
    # Seat 1 is still in; seat 3 already re-entered.
    refused(1, build_sheet, 4, [*OUT_3, deal(0, [None, 10, None, 5], reentries=[1])],
            reentry=True)
    refused(3, build_sheet, 4, [*OUT_3, deal(0, [None, 10, None, 5], reentries=[3, 3])],
            reentry=True)
    refused(None, build_sheet, 4, [*OUT_3, deal(0, [None, 10, None, 5], reentries=[4])],
            reentry=True)
    # The limit: with one re-entry each, seat 3 out again may not come back.
    out_again = [*base, deal(0, [None, 5, None, 60])]
    sheet = build_sheet(4, out_again, reentry=True, reentry_limit=1)
    assert sheet.status.eliminated == [2, 3]
    assert sheet.status.may_reenter == []
    assert build_sheet(4, out_again, reentry=True).status.may_reenter == [
        {"seat": 3, "total": 65}]
    err = refused(3, build_sheet, 4, [*out_again, deal(0, [None, 5, None, 5], reentries=[3])],
                  reentry=True, reentry_limit=1)
    assert err.params == {"limit": 1}
    assert build_sheet(4, [*out_again, deal(0, [None, 5, None, 5], reentries=[3])],
                       reentry=True).status.reentries == [0, 0, 0, 2]


def test_re_entry_only_before_the_deal_right_after_the_elimination() -> None:
    """docs/rules.md#scala-40-re-entry: only before the deal right after the elimination."""
    # Seats 2 and 3 go out in deal 1; deal 2 is played without them.
    out_1 = [deal(0, [None, 50, 60, 101]), deal(0, [None, 40, 105, None])]
    assert [d["seat"] for d in build_sheet(4, out_1[:1], reentry=True).status
            .may_reenter] == [3]
    sheet = build_sheet(4, out_1, reentry=True)
    # Deal 2 put seat 2 out: only seat 2 may come back before deal 3; seat 3 stays out.
    assert sheet.status.may_reenter == [{"seat": 2, "total": 90}]
    err = refused(3, build_sheet, 4, [*out_1, deal(0, [None, 5, None, 5], reentries=[3])],
                  reentry=True)
    assert err.params == {"deal": 1, "next": 2}
    # An annulled deal is a deal too: the moment passes with it.
    stalemate = build_sheet(4, [*out_1, ANNULLED], reentry=True)
    assert stalemate.status.may_reenter == []
    refused(2, build_sheet, 4, [*out_1, ANNULLED, {"annulled": True, "reentries": [2]}],
            reentry=True)
    # Re-entering at the right moment still works, before a scored or an annulled deal.
    back = build_sheet(4, [*out_1, {"annulled": True, "reentries": [2]}], reentry=True)
    assert back.status.eliminated == [3] and back.status.reentries == [0, 0, 1, 0]


def test_no_re_entry_once_one_player_is_left() -> None:
    sheet = build_sheet(3, [deal(0, [None, 150, 150])], reentry=True)
    assert sheet.finished and sheet.status.may_reenter == [] and sheet.next is None


# --- a fixed number of deals ---------------------------------------------------------------------


def test_a_fixed_number_of_deals_has_no_elimination() -> None:
    played = [deal(0, [None, 150, 5]), ANNULLED, deal(1, [30, None, 5])]
    sheet = build_sheet(3, played, end="deals", deals=3)
    assert sheet.status.eliminated == [] and sheet.status.threshold is None
    assert sheet.status.deals == 3 and sheet.status.played == 2
    assert not sheet.finished
    assert sheet.next is not None and sheet.next.seats == (0, 1, 2)
    sheet = build_sheet(3, [*played, deal(2, [5, 5, None])], end="deals", deals=3)
    assert sheet.finished and sheet.totals == (35, 155, 10)
    assert sheet.winners == (2,) and sheet.places == (2, 3, 1)
    refused(None, build_sheet, 3, [*played, deal(2, [5, 5, None]), ANNULLED],
            end="deals", deals=3)


def test_a_fixed_number_of_deals_tie_shares_the_win() -> None:
    sheet = build_sheet(2, [deal(0, [None, 8]), deal(1, [8, None])], end="deals", deals=2)
    assert sheet.finished and sheet.winners == (0, 1) and sheet.places == (1, 1)


# --- pairs ---------------------------------------------------------------------------------------


def test_pairs_pay_both_partners_penalties() -> None:
    sheet = build_sheet(4, [deal(0, [None, 50, "A", 40])], pairs=True)
    assert sheet.columns == ((0, 2), (1, 3))
    # Seat 0 closed: pair 0+2 pays 0 whatever seat 2 holds; pair 1+3 pays 50 + 40.
    assert sheet.rows[0].points == (0, 90)
    assert sheet.rows[0].inputs["penalties"] == [0, 50, 0, 40]
    sheet = build_sheet(4, [deal(3, [7, "A K", 9, None], never_opened=[2])], pairs=True)
    assert sheet.rows[0].points == (107, 0)


def test_pairs_close_in_hand_and_the_partner_may_be_left_blank() -> None:
    sheet = build_sheet(4, [deal(1, [7, None, 9, None], closed_in_hand=True)], pairs=True)
    assert sheet.rows[0].points == (32, 0)


def test_pairs_are_eliminated_on_the_pair_total() -> None:
    # No partner reaches 101 alone, the pair does: the other pair wins.
    played = [deal(1, [60, None, 41, None])]
    sheet = build_sheet(4, played, pairs=True)
    assert sheet.totals == (101, 0)
    assert sheet.finished and sheet.winners == (1,)
    assert sheet.status.eliminated == [0, 2]
    assert sheet.rows[0].notes == (Note.OUT, Note.CLOSED, Note.OUT, "")
    assert sheet.places == (2, 1)


def test_pairs_below_the_threshold_go_on() -> None:
    sheet = build_sheet(4, [deal(1, [60, None, 40, None])], pairs=True)
    assert not sheet.finished and sheet.totals == (100, 0)
    assert sheet.next is not None and sheet.next.info.pairs is True
    assert sheet.next.dealer == 1


# --- elimination as a property -------------------------------------------------------------------


@given(st.integers(2, 5), st.sampled_from([101, 151, 201]), st.data())
def test_elimination_happens_exactly_when_a_total_reaches_the_threshold(
        players: int, threshold: int, data: st.DataObject) -> None:
    played: list[dict[str, Any]] = []
    totals = [0] * players
    out: set[int] = set()
    for _ in range(data.draw(st.integers(1, 8))):
        seats_in = [s for s in range(players) if s not in out]
        if len(seats_in) == 1:
            break
        closer = data.draw(st.sampled_from(seats_in))
        points: list[Any] = [None] * players
        for seat in seats_in:
            if seat != closer:
                points[seat] = data.draw(st.integers(1, 120))
                totals[seat] += points[seat]
        played.append(deal(closer, points))
        out |= {s for s in seats_in if totals[s] >= threshold}
        sheet = build_sheet(players, played, threshold=threshold)
        assert sheet.totals == tuple(totals)
        assert sheet.status.eliminated == sorted(out)
        assert all(t < threshold for s, t in enumerate(totals) if s not in out)
        assert sheet.finished == (len(out) == players - 1)
        if sheet.finished:
            assert sheet.winners == tuple(s for s in range(players) if s not in out)


def test_the_cards_of_never_opened_players_and_of_the_closers_partner_do_not_count():
    assert uncounted([(0, 2), (1, 3)], 0, [3]) == {2, 3}
    assert uncounted([(0,), (1,), (2,)], 1, []) == set()


def test_who_plays_a_deal_counts_only_the_reentries_the_sheet_offers():
    sheet = build_sheet(3, [{"closer": 0, "points": [None, 20, 110]}], reentry=True)
    assert sheet.next.seats == (0, 1) and sheet.next.info.may_reenter[0]["seat"] == 2
    assert deal_players(sheet.next, []) == ([0, 1], [])
    assert deal_players(sheet.next, [2]) == ([0, 1, 2], [2])
    assert deal_players(sheet.next, [1]) == ([0, 1], [])
