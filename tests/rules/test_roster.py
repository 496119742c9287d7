"""People who come and go during a match, game by game and decided case by decided case
(docs/rules.md, "People who come and go")."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import GAMES, RuleError, Sheet
from scorekeeper.rules.roster import (
    Kind,
    Mark,
    Presence,
    Roster,
    SeatState,
    read_roster,
)
from scorekeeper.rules.sheet import propose

from .conftest import refused

NAVAWHIST, QUARANTOTTO, SCALA40 = GAMES["navawhist"], GAMES["quarantotto"], GAMES["scala40"]
FORTYFIVE, CAVALLORE = GAMES["fortyfive"], GAMES["cavallore"]


def join(after: int, person: str = "Elena", **more: Any) -> dict[str, Any]:
    return {"after": after, "kind": "join", "person": person, **more}


def change(after: int, kind: str, seat: int, **more: Any) -> dict[str, Any]:
    return {"after": after, "kind": kind, "seat": seat, **more}


def q_game(seats: int, closer: int, points: dict[int, int]) -> dict[str, Any]:
    """A Quarantotto game: the closer and the others' points in hand, None for the rest."""
    return {"closer": closer, "points": [points.get(s) for s in range(seats)]}


def nava_hand(sheet: Sheet) -> dict[str, Any]:
    """The next Navawhist hand of ``sheet``: everyone bids 0, the first dealt in takes all."""
    dealt, cards, seats = sheet.next.seats, sheet.next.info.cards, len(sheet.columns)
    return {"bids": [0 if s in dealt else None for s in range(seats)],
            "tricks": [(cards if s == dealt[0] else 0) if s in dealt else None
                       for s in range(seats)]}


def nava_match(players: int, hands: int, roster: list[dict[str, Any]] = (), **options: Any
               ) -> tuple[list[dict[str, Any]], Sheet]:
    """``hands`` Navawhist hands played one by one with ``roster``."""
    played: list[dict[str, Any]] = []

    def sheet() -> Sheet:
        made = [c for c in roster if c["after"] <= len(played)]
        return NAVAWHIST.build_sheet(players, played, roster=made, **options)
    for _hand in range(hands):
        played.append(nava_hand(sheet()))
    return played, sheet()


def ff_hand(winners: list[int], bonus: int | None = None) -> dict[str, Any]:
    return {"trick_winners": winners, "bonus_seat": winners[0] if bonus is None else bonus}


# --- the changes and the sheet's roster ----------------------------------------------------

def test_a_match_without_changes_has_everyone_playing_every_hand():
    sheet = QUARANTOTTO.build_sheet(3, [q_game(3, 0, {1: 10, 2: 20})])
    assert sheet.roster == Roster(
        order=(0, 1, 2), states=(SeatState.PLAYING,) * 3,
        holders=sheet.roster.holders, credit=(None, None, None), entries=(None,) * 3,
        left_after=(None,) * 3)
    assert [h[0].hands for h in sheet.roster.holders] == [1, 1, 1]
    assert sheet.rows[0].presence == (Presence.IN,) * 3


def test_changes_apply_by_hand_then_leaves_joins_substitutes_sit_outs_and_returns():
    """Decided case 2: the order inside one break."""
    roster = [change(1, "sit_out", 1), change(3, "back", 1), change(3, "sit_out", 2),
              change(3, "substitute", 0, person="C"), join(3), change(3, "leave", 4)]
    kinds = [(c.after, c.kind) for c in read_roster(roster, 5)]
    assert kinds == [(1, Kind.SIT_OUT), (3, Kind.LEAVE), (3, Kind.JOIN), (3, Kind.SUBSTITUTE),
                     (3, Kind.SIT_OUT), (3, Kind.BACK)]


@pytest.mark.parametrize("roster", [
    "join", [["join"]], [{"after": 0, "kind": "dance", "seat": 0}],
    [{"after": 0, "kind": "leave", "seat": 0, "why": "tired"}],
    [{"after": "1", "kind": "leave", "seat": 0}], [{"after": 0, "kind": "leave"}],
    [{"after": 2, "kind": "leave", "seat": 0}, {"after": 1, "kind": "leave", "seat": 1}],
    [{"after": 0, "kind": "join", "seat": 7}], [{"after": 0, "kind": "join", "person": 1.5}],
    [{"after": 0, "kind": "join", "at": "last"}],
])
def test_a_change_of_the_wrong_shape_is_refused(roster):
    refused(None, QUARANTOTTO.build_sheet, 3, [], roster=roster)


def test_the_marks_say_who_joined_sat_out_played_for_whom_and_left():
    roster = [change(1, "substitute", 0, person="Carla"), join(1, at=1), change(1, "sit_out", 1),
              change(2, "back", 1), change(2, "leave", 2)]
    hands = [q_game(3, 0, {1: 10, 2: 20}), q_game(4, 0, {2: 9, 3: 12})]
    marks = QUARANTOTTO.build_sheet(3, hands, roster=roster).roster.marks
    said = [m.message % {**m.params, "player": f"seat {m.seat}"} for m in marks]
    assert said == ["seat 3 joins at hand 2 with 0", "Carla plays for seat 0 from hand 2",
                    "seat 1 sits out hand 2", "seat 2 leaves after hand 2"]
    assert Mark(Kind.SIT_OUT, 1, 9).message % {**Mark(Kind.SIT_OUT, 1, 9).params,
                                                "player": "Bruno"} == "Bruno sits out from hand 9"


def test_a_sit_out_prints_its_range():
    """Decided case 9: the sheet prints the range, "sits out hands 9-11"."""
    mark = Mark(Kind.SIT_OUT, 1, 9, last=11)
    assert mark.message % {**mark.params, "player": "Bruno"} == "Bruno sits out hands 9-11"


def test_seats_keep_their_numbers_and_the_page_numbers_them_in_turn_order():
    """Decided case 30: a joiner seated at position 1 is shown second."""
    sheet = QUARANTOTTO.build_sheet(3, [q_game(3, 0, {1: 10, 2: 20})],
                                    roster=[join(1, at=1)])
    assert sheet.roster.order == (0, 3, 1, 2)
    assert [sheet.roster.number(s) for s in range(4)] == [0, 2, 3, 1]
    assert sheet.columns == ((0,), (1,), (2,), (3,))


# --- who may change, and when ----------------------------------------------------------------

def test_a_change_comes_between_hands_never_while_one_has_entries():
    hands = [{"bids": [None, 0, None], "tricks": None}]
    error = refused(None, propose, NAVAWHIST, 3, hands, {"kind": "join"})
    assert error.template.startswith("A hand has entries")
    refused(None, propose, QUARANTOTTO, 2, [], {"kind": "join", "after": 3})


def test_a_change_recorded_after_a_hand_since_undone_is_refused():
    """Decided case 3: a change is undone only once every hand after it is undone."""
    error = refused(0, QUARANTOTTO.build_sheet, 3, [], roster=[change(1, "leave", 0)])
    assert error.params["change"] == 1
    hands = [{"bids": [None, 0, None], "tricks": None}]
    refused(0, NAVAWHIST.build_sheet, 3, hands, roster=[change(1, "leave", 0)])


def test_a_correction_that_makes_a_later_change_illegal_is_refused_naming_it():
    """Decided case 3: a game corrected so that the match ends before a join."""
    roster = [change(0, "substitute", 1, person="Carla"), join(1)]
    target = {"length": "target", "target": 50}
    QUARANTOTTO.build_sheet(2, [q_game(2, 0, {1: 30})], roster=roster, **target)
    error = refused(None, QUARANTOTTO.build_sheet, 2, [q_game(2, 0, {1: 60})],
                    roster=roster, **target)
    assert error.params["change"] == 2 and error.params["after"] == 1
    assert "join after hand 1" in str(error)
    assert "over" in error.__cause__.template


def test_after_the_match_has_ended_nothing_changes():
    """Decided case 5."""
    hands = [q_game(2, 0, {1: 30}), q_game(2, 1, {0: 5})]
    sheet = QUARANTOTTO.build_sheet(2, hands)
    assert sheet.finished
    for kind in ("join", "leave"):
        error = refused(None, propose, QUARANTOTTO, 2, hands, {"kind": kind, "seat": 0}
                        if kind == "leave" else {"kind": kind})
        assert error.template.startswith("The match is over")


def test_only_a_person_with_no_seat_who_has_not_left_may_join():
    """Decided cases 6 and 25: a person holds one seat at a time; a leaver never comes back."""
    hands = [q_game(3, 0, {1: 10, 2: 20})]
    roster = [join(1, "Elena")]
    refused(None, propose, QUARANTOTTO, 3, hands, {"kind": "join", "person": "Elena"},
            roster=roster)
    refused(None, propose, QUARANTOTTO, 3, hands, {"kind": "substitute", "seat": 0,
                                                   "person": "Elena"}, roster=roster)
    gone = [*roster, change(1, "leave", 3)]
    refused(None, propose, QUARANTOTTO, 3, hands, {"kind": "join", "person": "Elena"},
            roster=gone)
    refused(0, propose, QUARANTOTTO, 3, hands, {"kind": "substitute", "seat": 0})


def test_the_maximum_counts_sitters_but_not_leavers():
    """Decided case 7."""
    hands = [q_game(6, 0, {s: 10 + s for s in range(1, 6)})]
    error = refused(None, propose, QUARANTOTTO, 6, hands, {"kind": "join"})
    assert str(error) == "Quarantotto is played by at most 6 players."
    refused(None, propose, QUARANTOTTO, 6, hands, {"kind": "join"},
            roster=[change(1, "sit_out", 2)])
    assert propose(QUARANTOTTO, 6, hands, {"kind": "join"},
                   roster=[change(1, "leave", 5)]).mark.total == 1


def test_scala40_players_who_are_out_do_not_count_towards_the_maximum():
    """Decided case 7."""
    hands = [{"closer": 0, "points": [None, 10, 10, 10, 10, 120]}]
    assert propose(SCALA40, 6, hands, {"kind": "join"}).mark.total == 10


def test_a_seat_that_left_takes_no_more_changes_and_a_sitter_no_second_sit_out():
    hands = [q_game(4, 0, {1: 10, 2: 20, 3: 30})]
    gone = [change(1, "leave", 1)]
    for kind in ("leave", "sit_out", "substitute", "back"):
        refused(1, propose, QUARANTOTTO, 4, hands, {"kind": kind, "seat": 1, "person": "X"},
                roster=gone)
    refused(2, propose, QUARANTOTTO, 4, hands, {"kind": "sit_out", "seat": 2},
            roster=[change(1, "sit_out", 2)])
    refused(2, propose, QUARANTOTTO, 4, hands, {"kind": "back", "seat": 2})
    refused(None, propose, QUARANTOTTO, 4, hands, {"kind": "leave", "seat": 9})
    refused(None, propose, QUARANTOTTO, 4, hands, {"kind": "join", "at": 9})


def test_at_least_two_players_are_dealt_in():
    hands = [q_game(3, 0, {1: 10, 2: 20})]
    error = refused(1, propose, QUARANTOTTO, 3, hands, {"kind": "sit_out", "seat": 1},
                    roster=[change(1, "sit_out", 2)])
    assert "at least 2" in str(error)


def test_a_tournament_match_takes_no_join_and_no_sit_out():
    """Decided case 28: only a substitute or a leaver."""
    hands = [q_game(3, 0, {1: 10, 2: 20})]
    for game, players, played in ((QUARANTOTTO, 3, hands), (SCALA40, 3, []),
                                  (FORTYFIVE, 3, []), (NAVAWHIST, 3, [])):
        error = refused(None, propose, game, players, played, {"kind": "join"},
                        tournament=True)
        assert error.template.startswith("A tournament match takes no new player")
        refused(None, propose, game, players, played, {"kind": "sit_out", "seat": 1},
                tournament=True)
        sheet = propose(game, players, played, {"kind": "substitute", "seat": 1, "person": "S"},
                        tournament=True).sheet
        assert sheet.roster.tournament and sheet.roster.holders[1][-1].person == "S"
        propose(game, players, played, {"kind": "leave", "seat": 1}, tournament=True)


# --- entry totals ------------------------------------------------------------------------------

def test_a_joiner_starts_with_the_lowest_total_sitters_included():
    """Decided cases 1 and 2: a sitter is still playing; two joiners get the same total."""
    hands = [q_game(3, 0, {1: 10, 2: 30}), q_game(3, 0, {1: 12, 2: 30})]
    # Seat 2 sits out the second game with the lowest total.
    roster = [change(1, "sit_out", 2)]
    hands[1]["points"][2] = None
    sheet = QUARANTOTTO.build_sheet(3, hands, roster=[*roster, join(2, "A"), join(2, "B")])
    assert sheet.totals == (42, 20, 0, 0, 0)
    assert [m.total for m in sheet.roster.marks if m.kind is Kind.JOIN] == [0, 0]


def test_a_leave_in_the_same_break_comes_before_the_joiners_entry():
    """Decided case 2: leaves apply first, so the leaver's total is not the lowest."""
    hands = [q_game(3, 0, {1: 10, 2: 30})]
    sheet = QUARANTOTTO.build_sheet(3, hands, roster=[join(1), change(1, "leave", 2)])
    assert sheet.totals == (30, 20, 0, 20)


@pytest.mark.parametrize("game, players, hands, options", [
    (QUARANTOTTO, 2, [{"closer": 0, "points": [None, 30]}], {}),
    (FORTYFIVE, 2, [ff_hand([0, 0, 0, 1, 1])], {}),
    (NAVAWHIST, 3, [{"bids": [0, 0, 0], "tricks": [1, 0, 0]}], {}),
])
def test_the_entry_option_zero(game, players, hands, options):
    """Decided case 14: the lowest total (default) or 0."""
    lowest = propose(game, players, hands, {"kind": "join"}, **options)
    zero = propose(game, players, hands, {"kind": "join"}, entry="zero", **options).mark.total
    assert lowest.mark.total == min(lowest.sheet.totals[:players]) and zero == 0
    assert propose(game, players, hands, {"kind": "join"}, entry="zero"
                   ).sheet.roster.entry == "zero"
    refused(None, game.build_sheet, players, hands, entry="highest")


def test_changes_before_the_first_hand_are_as_if_the_match_began_so():
    """Decided case 4: entry 0, the table and the sides for the new count, the same first
    dealer wherever the joiner sits."""
    sheet = NAVAWHIST.build_sheet(4, [], first_dealer=2, roster=[join(0, at=0)])
    assert sheet.status.hands == 15 and sheet.status.schedule[:3] == [1, 2, 3]  # 5 players
    assert sheet.next.dealer == 2 and sheet.roster.entries[4] == 0
    sheet = NAVAWHIST.build_sheet(4, [], roster=[change(0, "leave", 3)])
    assert sheet.status.hands == 18  # 3 players
    sheet = FORTYFIVE.build_sheet(3, [], roster=[join(0)])
    assert sheet.columns == ((0, 2), (1, 3))
    assert FORTYFIVE.build_sheet(4, [], roster=[join(0)]).columns == tuple(
        (s,) for s in range(5))


# --- the deal --------------------------------------------------------------------------------

def test_the_deal_passes_to_the_next_seat_dealt_in_in_the_new_order():
    """Decided case 8: a joiner right after the last dealer deals next; a departed seat
    still counts as a position; a skipped deal is not made up."""
    hands = [q_game(4, 0, {1: 10, 2: 20, 3: 30})]  # dealt by seat 0
    sheet = QUARANTOTTO.build_sheet(4, hands, roster=[join(1, at=1)])
    assert sheet.next.dealer == 4
    sheet = QUARANTOTTO.build_sheet(4, hands, roster=[change(1, "leave", 1)])
    assert sheet.next.dealer == 2
    sheet = QUARANTOTTO.build_sheet(4, hands, roster=[change(1, "sit_out", 1)])
    assert sheet.next.dealer == 2 and sheet.next.seats == (0, 2, 3)
    two = [*hands, q_game(4, 0, {2: 5, 3: 6})]
    sheet = QUARANTOTTO.build_sheet(4, two, roster=[change(1, "sit_out", 1),
                                                    change(2, "back", 1)])
    assert sheet.rows[1].dealer == 2 and sheet.next.dealer == 3


def test_a_first_dealer_sitting_out_hands_the_first_deal_on():
    sheet = QUARANTOTTO.build_sheet(3, [], first_dealer=1, roster=[change(0, "sit_out", 1)])
    assert sheet.next.dealer == 2


# --- Navawhist -------------------------------------------------------------------------------

def test_navawhist_caps_a_hands_cards_at_the_deck_for_those_dealt_in():
    """Decided cases 11 and 12: min(table, floor(52 / dealt in)), hand by hand, and the
    table of the first hand stays."""
    _hands, sheet = nava_match(4, 11, [join(11), change(11, "sit_out", 0)])
    assert sheet.status.hands == 16 and sheet.next.info.cards == 12  # 4 dealt in
    _hands, sheet = nava_match(4, 11, [join(11)])
    assert sheet.next.info.cards == 10 and sheet.status.schedule[11:] == [10] * 5
    assert len(sheet.status.dealers) == 16


def test_navawhist_of_two_that_grows_plays_on_its_table():
    """Decided case 10: a 2-player match that grows keeps its table (52 cards from then)."""
    played, sheet = nava_match(2, 4, [join(2)])
    assert sheet.status.hands == 18 and [r.inputs["cards"] for r in sheet.rows] == [2, 2, 4, 4]
    assert sheet.next.seats == (0, 1, 2)


def test_navawhist_bids_only_among_those_dealt_in():
    """Decided case 13: the bidding order and the hook count only the players dealt in."""
    _hands, sheet = nava_match(4, 2, [change(2, "sit_out", 0)])
    info = sheet.next.info
    assert sheet.next.dealer == 2 and info.order == [3, 1, 2] and info.cards == 3
    bids = [None, 1, None, 1]
    sheet = NAVAWHIST.build_sheet(4, [*_hands, {"bids": bids, "tricks": None}],
                                  roster=[change(2, "sit_out", 0)])
    assert sheet.next.info.forbidden == 1
    refused(0, NAVAWHIST.build_sheet, 4, [*_hands, {"bids": [0, 1, None, 1], "tricks": None}],
            roster=[change(2, "sit_out", 0)])
    # Case 4 among those dealt in: every bid missed by two or more.
    hand = {"bids": [None, 3, 3, 0], "tricks": [None, 0, 0, 3]}
    sheet = NAVAWHIST.build_sheet(4, [*_hands, hand], roster=[change(2, "sit_out", 0)])
    assert sheet.rows[2].points[0] is None and sheet.rows[2].presence[0] is Presence.OUT
    assert sheet.rows[2].notes[0] == ""


def test_navawhist_counts_only_the_hands_a_seat_played():
    """Decided case 27: the entry total counts in no hand-level statistic."""
    _hands, sheet = nava_match(3, 3, [join(1), change(2, "sit_out", 0)])
    counted = NAVAWHIST.counts(sheet)
    assert [c["hands"] for c in counted] == [2, 3, 3, 2]


# --- Quarantotto -----------------------------------------------------------------------------

def test_quarantotto_leaves_the_sitter_out_of_w():
    hands = [q_game(3, 0, {1: 10, 2: 90})]
    sheet = QUARANTOTTO.build_sheet(3, [{"closer": 1, "points": [40, None, None]}],
                                    roster=[change(0, "sit_out", 2)])
    assert sheet.rows[0].points == (0, 40, None)
    refused(2, QUARANTOTTO.build_sheet, 3, [*hands, {"closer": 1, "points": [40, None, 90]}],
            roster=[change(1, "sit_out", 2)])
    refused(2, QUARANTOTTO.build_sheet, 3, [*hands, {"closer": 2, "points": [40, 5, None]}],
            roster=[change(1, "sit_out", 2)])
    counted = QUARANTOTTO.counts(QUARANTOTTO.build_sheet(
        3, [*hands, {"closer": 1, "points": [40, None, None]}], roster=[change(1, "sit_out", 2)]))
    assert [c["games"] for c in counted] == [2, 2, 1]


def test_quarantotto_default_length_grows_by_one_game_per_joiner():
    """Decided case 15: leavers and sit-outs never change it."""
    hands = [q_game(3, 0, {1: 10, 2: 20})]
    assert QUARANTOTTO.build_sheet(3, hands, roster=[join(1)]).status.games == 4
    assert QUARANTOTTO.build_sheet(3, hands, roster=[join(1), change(1, "leave", 1)]
                                   ).status.games == 4
    assert QUARANTOTTO.build_sheet(3, hands, roster=[join(1)], length="games",
                                   games=7).status.games == 7


# --- leavers and the end ---------------------------------------------------------------------

def test_a_leaver_is_frozen_empty_afterwards_and_ranks_last():
    """Decided cases 22, 23 and 29."""
    hands = [q_game(4, 0, {1: 10, 2: 20, 3: 30}), q_game(4, 1, {2: 5, 3: 10})]
    roster = [change(1, "sit_out", 0), change(2, "leave", 0), change(2, "leave", 2)]
    hands[1]["points"][0] = None
    sheet = QUARANTOTTO.build_sheet(4, [*hands, {"closer": 1, "points": [None, None, None, 9]}],
                                    roster=roster)
    assert sheet.totals == (30, 39, 15, 0)
    assert sheet.places == (3, 1, 3, 2)
    assert [r.presence[0] for r in sheet.rows] == [Presence.IN, Presence.OUT, Presence.GONE]
    assert sheet.rows[2].points[0] is None and sheet.roster.left_after[0] == 2
    sit = sheet.roster.marks[0]
    assert (sit.kind, sit.hand, sit.last) == (Kind.SIT_OUT, 2, 2)
    assert sheet.roster.states[0] is SeatState.LEFT


def test_the_later_leaver_ranks_higher():
    """Cases 22 to 24: leavers after those still playing, the later leaver first."""
    hands = [q_game(4, 0, {1: 10, 2: 20, 3: 30}), q_game(4, 1, {2: 5, 3: 10})]
    hands[1]["points"][0] = None
    sheet = QUARANTOTTO.build_sheet(4, hands, roster=[change(1, "leave", 0),
                                                      change(2, "leave", 1)])
    assert sheet.totals == (30, 30, 15, 0) and sheet.places == (4, 3, 1, 2)


def test_fewer_than_two_left_ends_the_match_and_the_one_left_wins():
    """Decided case 5 and the rule for every game."""
    hands = [q_game(3, 0, {1: 10, 2: 20})]
    sheet = QUARANTOTTO.build_sheet(3, hands, roster=[change(1, "leave", 0),
                                                      change(1, "leave", 1)])
    assert sheet.finished and sheet.winners == (2,) and sheet.next is None
    refused(None, QUARANTOTTO.build_sheet, 3, [*hands, q_game(3, 2, {})],
            roster=[change(1, "leave", 0), change(1, "leave", 1)])


def test_everyone_still_playing_leaving_at_once_is_a_close():
    """Decided case 24: they rank by their totals, above anyone who left earlier."""
    hands = [q_game(3, 0, {1: 10, 2: 30}), q_game(3, 1, {2: 4})]
    hands[1]["points"][0] = None
    roster = [change(1, "leave", 0), change(2, "leave", 1), change(2, "leave", 2)]
    sheet = QUARANTOTTO.build_sheet(3, hands, roster=roster)
    assert sheet.finished and sheet.roster.closed
    assert sheet.totals == (30, 24, 0) and sheet.places == (3, 1, 2) and sheet.winners == (1,)


def test_fewer_than_two_dealt_in_after_a_leave_waits_for_a_sitter():
    """Decided case 21: the leave is accepted; the next hand can't be entered."""
    hands = [q_game(3, 0, {1: 10, 2: 20})]
    roster = [change(1, "sit_out", 2), change(2, "leave", 1)]
    two = [*hands, {"closer": 0, "points": [None, 5, None]}]
    sheet = QUARANTOTTO.build_sheet(3, two, roster=roster)
    assert sheet.roster.waiting and sheet.next is None and not sheet.finished
    error = refused(None, QUARANTOTTO.build_sheet, 3, [*two, q_game(3, 0, {})], roster=roster)
    assert "sitting out must come back" in str(error)
    back = propose(QUARANTOTTO, 3, two, {"kind": "back", "seat": 2}, roster=roster)
    assert back.sheet.next.seats == (0, 2) and back.mark.last == 2


def test_substitutes_keep_the_seat_and_the_credit_goes_to_the_most_hands():
    """Decided cases 25 and 26: a chain of substitutes, the original player's return, and
    the first holder on a tie."""
    hands = [q_game(2, 0, {1: 10}), q_game(2, 1, {0: 5}), q_game(2, 0, {1: 3}),
             q_game(2, 1, {0: 8})]
    roster = [change(1, "substitute", 0, person="Carla"), change(2, "substitute", 0,
                                                                 person="Dora")]
    sheet = QUARANTOTTO.build_sheet(2, hands, roster=roster, length="games", games=6)
    assert [(h.person, h.hand, h.hands) for h in sheet.roster.holders[0]] == [
        (None, 1, 1), ("Carla", 2, 1), ("Dora", 3, 2)]
    assert sheet.roster.credit == ("Dora", None)
    back = [change(1, "substitute", 0, person="Carla"), change(3, "substitute", 0,
                                                                person="Anna")]
    sheet = QUARANTOTTO.build_sheet(2, hands, roster=back, length="games", games=6)
    assert sheet.roster.credit == ("Carla", None)  # 2 hands against 1 each
    tie = [change(2, "substitute", 0, person="Carla")]
    assert QUARANTOTTO.build_sheet(2, hands, roster=tie, length="games",
                                   games=6).roster.credit[0] is None
    # The original player going home after handing over is not a leave.
    assert QUARANTOTTO.build_sheet(2, hands, roster=tie, length="games",
                                   games=6).roster.states == (SeatState.PLAYING,) * 2


# --- Scala 40 -------------------------------------------------------------------------------

def test_scala40_refuses_sitting_out_and_joins_in_pairs():
    error = refused(1, propose, SCALA40, 3, [], {"kind": "sit_out", "seat": 1})
    assert str(error) == ("Scala 40 does not allow sitting out: a player who cannot play a "
                          "deal leaves, so seat 1 may leave or hand the seat to a substitute.")
    refused(None, propose, SCALA40, 4, [], {"kind": "join"}, pairs=True)


def test_scala40_joins_with_the_highest_total_of_those_still_in():
    """Decided case 16: whatever the re-entry option, with a re-entry in the same break."""
    deal = {"closer": 0, "points": [None, 50, 110]}
    for reentry in (False, True):
        mark = propose(SCALA40, 3, [deal], {"kind": "join"}, reentry=reentry).mark
        assert mark.total == 50
    roster = [join(1)]
    second = {"closer": 1, "points": [30, None, 20, 40], "reentries": [2]}
    sheet = SCALA40.build_sheet(3, [deal, second], roster=roster, reentry=True)
    assert sheet.totals == (30, 50, 70, 90) and sheet.status.reentries == [0, 0, 1, 0]
    sheet = SCALA40.build_sheet(3, [deal], roster=roster, end="deals", deals=4)
    assert sheet.status.deals == 4 and sheet.totals[3] == 110


def test_scala40_a_leaver_is_out_from_the_next_deal_ranked_with_that_deals_outs():
    """Decided case 17."""
    deals = [{"closer": 0, "points": [None, 50, 110, 20]}]
    sheet = SCALA40.build_sheet(4, deals, roster=[change(1, "leave", 3)])
    assert sheet.next.seats == (0, 1) and sheet.status.out_in == [None, None, 1, 1]
    assert sheet.places == (1, 2, 4, 3) and sheet.roster.states[3] is SeatState.LEFT
    refused(3, SCALA40.build_sheet, 4, [*deals, {"closer": 0, "points": [None, 5, None, None],
                                                 "reentries": [3]}],
            roster=[change(1, "leave", 3)], reentry=True)
    fixed = SCALA40.build_sheet(4, deals, roster=[change(1, "leave", 3)], end="deals")
    assert fixed.places == (1, 2, 3, 4) and fixed.next.seats == (0, 1, 2)


def test_scala40_a_partner_leaving_takes_the_pair_out_and_ends_the_match():
    """Decided case 18."""
    deals = [{"closer": 0, "points": [None, 20, None, 30]}]
    for end in ("elimination", "deals"):
        sheet = SCALA40.build_sheet(4, deals, roster=[change(1, "leave", 0)], pairs=True,
                                    end=end)
        assert sheet.finished and sheet.winners == (1,) and sheet.places == (2, 1)


def test_scala40_rows_after_elimination_are_out():
    """Decided case 29."""
    deals = [{"closer": 0, "points": [None, 50, 110]}, {"closer": 0, "points": [None, 5, None]}]
    sheet = SCALA40.build_sheet(3, deals)
    assert sheet.rows[1].presence == (Presence.IN, Presence.IN, Presence.OUT)
    assert sheet.roster.states[2] is SeatState.OUT


# --- Forty-Five ------------------------------------------------------------------------------

def test_fortyfive_partnerships_take_no_joiner_and_no_sitter():
    hands = [{"side_tricks": [3, 2], "bonus_side": 0}]
    error = refused(None, propose, FORTYFIVE, 4, hands, {"kind": "join"})
    assert str(error) == ("Forty-Five in partnerships takes no new player: a substitute may "
                          "take the seat.")
    refused(None, propose, FORTYFIVE, 4, hands, {"kind": "sit_out", "seat": 1})
    refused(None, propose, FORTYFIVE, 3, [], {"kind": "sit_out", "seat": 1},
            roster=[join(0)])
    assert propose(FORTYFIVE, 4, hands, {"kind": "substitute", "seat": 1, "person": "S"}).mark


def test_fortyfive_a_partner_leaving_ends_the_match_the_leaving_side_last():
    hands = [{"side_tricks": [1, 4], "bonus_side": 1}]
    sheet = FORTYFIVE.build_sheet(4, hands, roster=[change(1, "leave", 3)])
    assert sheet.finished and sheet.places == (1, 2) and sheet.winners == (0,)
    six = FORTYFIVE.build_sheet(6, [{"side_tricks": [1, 3, 1], "bonus_side": 1}],
                                three_pairs=True, roster=[change(1, "leave", 4)])
    assert six.places == (1, 3, 1) and six.winners == (0, 2)


def test_fortyfive_alone_stays_alone_as_it_grows():
    """Decided case 19: a join from 3 to 4 plays alone."""
    hands = [ff_hand([0, 1, 2, 0, 0])]
    sheet = FORTYFIVE.build_sheet(3, hands, roster=[join(1)])
    assert sheet.columns == ((0,), (1,), (2,), (3,)) and sheet.totals == (20, 5, 5, 5)
    second = ff_hand([3, 3, 3, 1, 1], bonus=3)
    sheet = FORTYFIVE.build_sheet(3, [*hands, second], roster=[join(1)])
    assert sheet.rows[1].points == (0, 10, 0, 20)
    counts = {"side_tricks": [0, 2, None, 3], "bonus_side": 3}
    sheet = FORTYFIVE.build_sheet(3, [*hands, counts], roster=[join(1), change(1, "sit_out", 2)])
    assert sheet.rows[1].points == (0, 10, None, 20)
    assert sheet.rows[1].inputs["side_tricks"] == [0, 2, None, 3]
    refused(2, FORTYFIVE.build_sheet, 3, [*hands, ff_hand([2, 3, 3, 3, 3])],
            roster=[join(1), change(1, "sit_out", 2)])


def test_fortyfive_cards_played_among_those_dealt_in():
    hands = [ff_hand([0, 1, 2, 0, 0])]
    plays = {"trump": "H", "plays": ["2H 3H KS", "4C 5C 6C", "7D 8D 9D", "2S 3S 4S",
                                     "10C JC QC"]}
    sheet = FORTYFIVE.build_sheet(3, [*hands, plays], roster=[join(1), change(1, "sit_out", 0)])
    row = sheet.rows[1]
    assert row.dealer == 1 and row.inputs["leader"] == 2
    assert set(row.inputs["trick_winners"]) <= {1, 2, 3} and row.points[0] is None


def test_fortyfive_a_tie_at_the_top_broken_by_a_leaver_ends_the_match():
    """Decided case 20: the target rule again, at once, after a leave."""
    hands = [ff_hand([0, 0, 0, 1, 1]), ff_hand([1, 1, 1, 1, 0], bonus=1),
             ff_hand([0, 0, 1, 2, 2]), ff_hand([0, 1, 2, 2, 2], bonus=2)]
    sheet = FORTYFIVE.build_sheet(3, hands)
    assert sheet.status.tie_goes_on and not sheet.finished and sheet.totals == (45, 45, 30)
    sheet = FORTYFIVE.build_sheet(3, hands, roster=[change(4, "leave", 1)])
    assert sheet.finished and sheet.winners == (0,) and sheet.places == (1, 3, 2)


# --- Cavallo Re ------------------------------------------------------------------------------

def test_cavallore_adds_a_player_to_the_log_at_any_time():
    sheet = CAVALLORE.build_sheet(1, [{"placed": 36}, {"placed": 2, "seat": 1}],
                                  roster=[join(1, "Bea")])
    assert sheet.totals == (1, 0) and [r.points for r in sheet.rows] == [(36, None), (None, 2)]
    assert sheet.rows[0].presence == (Presence.IN, Presence.NOT_YET)
    assert CAVALLORE.counts(sheet)[1]["deals"] == 1
    for kind in ("leave", "sit_out", "substitute"):
        refused(None, propose, CAVALLORE, 1, [], {"kind": kind, "seat": 0, "person": "X"})


def test_navawhist_ends_when_fewer_than_two_are_left():
    played, sheet = nava_match(3, 2, [change(2, "leave", 0), change(2, "leave", 1)])
    assert sheet.finished and sheet.winners == (2,) and sheet.status.dealers == [0, 1]
    refused(None, NAVAWHIST.build_sheet, 3, [*played, nava_hand(nava_match(3, 2)[1])],
            roster=[change(2, "leave", 0), change(2, "leave", 1)])
    _played, sheet = nava_match(3, 2, [change(2, "leave", s) for s in range(3)], hook=False)
    assert sheet.roster.closed and sheet.finished and len(sheet.status.dealers) == 2
    assert [c["hands"] for c in NAVAWHIST.counts(sheet)] == [2, 2, 2]


def test_fortyfive_of_two_with_a_leaver_before_its_first_hand_is_over():
    sheet = FORTYFIVE.build_sheet(2, [], roster=[change(0, "leave", 1)])
    assert sheet.finished and sheet.winners == (0,) and sheet.columns == ((0,), (1,))


def test_fortyfive_counts_only_the_hands_a_player_was_dealt_in():
    hands = [ff_hand([0, 1, 2, 0, 0]), {"trump": "H", "leader": 3, "plays": [
        "2H 3H KS", "4C 5C 6C", "7D 8D 9D", "2S 3S 4S", "10C JC QC"]}]
    roster = [join(1), change(1, "sit_out", 0)]
    sheet = FORTYFIVE.build_sheet(3, hands, roster=roster)
    assert sheet.rows[1].inputs["leader"] == 3
    assert [c["hands"] for c in FORTYFIVE.counts(sheet)] == [1, 2, 2, 1]


def test_a_table_left_with_only_sitters_waits_for_them():
    """Decided case 21, with nobody dealt in at all."""
    roster = [change(1, "sit_out", 2), change(1, "sit_out", 3), change(2, "leave", 0),
              change(2, "leave", 1)]
    _played, sheet = nava_match(4, 2, roster)
    assert sheet.roster.waiting and sheet.next is None and sheet.status.dealers == [0, 1]
    assert sheet.roster.states == (SeatState.LEFT, SeatState.LEFT, SeatState.SITTING_OUT,
                                   SeatState.SITTING_OUT)


def test_a_leave_beside_an_earlier_sit_out_of_the_same_break_is_accepted() -> None:
    """Decided case 21: Bruno sits out, then Carla leaves after the same hand: the leave is
    accepted and the next hand waits for Bruno; a sit-out recorded after the leave is not."""
    hands = [{"bids": [1, 0, 0], "tricks": [1, 0, 0]}]
    sheet = GAMES["navawhist"].build_sheet(3, hands, hook=False, roster=[
        {"after": 1, "kind": "sit_out", "seat": 1}, {"after": 1, "kind": "leave", "seat": 2}])
    assert sheet.roster.waiting and sheet.next is None
    with pytest.raises(RuleError, match="sit-out after hand 1") as refused:
        GAMES["navawhist"].build_sheet(3, hands, hook=False, roster=[
            {"after": 1, "kind": "leave", "seat": 2}, {"after": 1, "kind": "sit_out", "seat": 1}])
    assert refused.value.params["change"] == 2
    assert "cannot sit out" in str(refused.value.__cause__)


def test_scala40_pairs_take_no_change_after_a_partner_left_in_the_same_break() -> None:
    """Decided cases 5 and 18: a partner's leave ends the match, so a substitute recorded
    after it in the same break is refused."""
    with pytest.raises(RuleError, match="substitute after hand 0") as refused_:
        GAMES["scala40"].build_sheet(4, [], pairs=True, roster=[
            {"kind": "leave", "seat": 1, "after": 0},
            {"kind": "substitute", "seat": 3, "person": 9, "after": 0}])
    assert "The match is over" in str(refused_.value.__cause__)
