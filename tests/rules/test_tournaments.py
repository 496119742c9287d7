"""Tournament evenings: the draw, tables, Danish, groups and knockout seatings, placement and
match points, abandoning, withdrawals and standings, worked by hand."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import GAMES
from scorekeeper.rules.tournaments import (
    Format,
    Score,
    Seating,
    Table,
    TableResult,
    TableScore,
    Tournament,
    blocks,
    display,
    draw,
    first_dealer,
    knockout_standings,
    match_options,
    next_dealer,
    reduce_repeats,
    repeats,
    sat_out,
    score_table,
    standings,
    table_result,
    table_sizes,
)

from .conftest import refused

NAVAWHIST, QUARANTOTTO = GAMES["navawhist"], GAMES["quarantotto"]
SCALA40, FORTYFIVE, CAVALLORE = GAMES["scala40"], GAMES["fortyfive"], GAMES["cavallore"]
ALONE = [NAVAWHIST, QUARANTOTTO, SCALA40]


def result(entrants: str, *totals: int, hands: int = 1, **fields) -> TableResult:
    """A table's match from a string of one-letter entrants and their totals."""
    return TableResult(tuple(entrants), totals, hands, **fields)


def scored(table: TableScore) -> dict:
    """Each entrant's (placement points, match points, won)."""
    return {s.entrant: (s.points, s.match_points, s.won) for s in table.scores}


def seating(*tables: str, number: int = 1) -> Seating:
    """A round seated by hand, dealer 0 everywhere."""
    return Seating(number, tuple(Table(t, tuple(e), 0) for t, e in enumerate(tables, 1)))


def play(seated: Seating, totals: dict, *, hands: int = 1) -> list[TableScore]:
    """Every table of ``seated`` scored from each entrant's total (missing: 0)."""
    return [score_table(TableResult(table.entrants,
                                    tuple(totals.get(e, 0) for e in table.entrants), hands))
            for table in seated.tables]


def seated_entrants(seated: Seating) -> list:
    return [table.entrants for table in seated.tables]


# --- the draw ------------------------------------------------------------------------------------


def test_the_draw_is_the_entry_order_shuffled_by_the_seed() -> None:
    entrants = ["Ada", "Bea", "Cyd", "Dan", "Eva", "Fay", "Gus", "Hal"]
    expected = entrants[:]
    random.Random(77).shuffle(expected)
    assert draw(entrants, 77) == tuple(expected)
    assert entrants == ["Ada", "Bea", "Cyd", "Dan", "Eva", "Fay", "Gus", "Hal"]  # a copy
    assert draw("ABCDEFGH", 2026) == tuple("GHDAFECB")
    assert draw("ABCDEFGH", 2027) != draw("ABCDEFGH", 2026)


def test_the_first_dealer_is_drawn_per_round_and_table() -> None:
    for r, t, n in [(1, 1, 4), (1, 2, 4), (2, 1, 3), (3, 4, 6)]:
        assert first_dealer(99, r, t, n) == random.Random(f"99:{r}:{t}").randrange(n)
    assert [first_dealer(2026, 1, t, 4) for t in (1, 2)] == [3, 2]


def test_round_one_seats_the_draw_in_blocks_with_drawn_dealers() -> None:
    tournament = Tournament(NAVAWHIST, 5, tuple("ABCDEFGHIJ"))
    first = tournament.seat([], [])
    order = draw("ABCDEFGHIJ", 5)
    assert seated_entrants(first) == [order[:4], order[4:7], order[7:]]
    assert [table.number for table in first.tables] == [1, 2, 3]
    assert [table.dealer for table in first.tables] == [
        random.Random(f"5:1:{t}").randrange(n) for t, n in [(1, 4), (2, 3), (3, 3)]]
    assert first.number == 1 and first.sitting_out == () and not first.final


def test_a_table_of_pairs_draws_its_dealer_among_its_seats() -> None:
    pairs = tuple(range(8))
    for seed in range(30):
        first = Tournament(SCALA40, seed, pairs, pairs=True).seat([], [])
        assert [len(table.entrants) for table in first.tables] == [2, 2, 2, 2]
        assert [table.dealer for table in first.tables] == [
            random.Random(f"{seed}:1:{t}").randrange(4) for t in (1, 2, 3, 4)]


def test_a_tournament_starts_with_8_to_64_entrants() -> None:
    refused(None, Tournament(NAVAWHIST, 1, tuple(range(7))).seat, [], [])
    refused(None, Tournament(NAVAWHIST, 1, tuple(range(65))).seat, [], [])
    assert len(Tournament(NAVAWHIST, 1, tuple(range(64))).seat([], []).tables) == 16
    # Withdrawn before round 1: not counted, not seated.
    err = refused(None, Tournament(NAVAWHIST, 1, tuple(range(8))).seat, [], [], {3})
    assert err.params["got"] == 7


def test_a_tournament_refuses_what_the_rules_do_not_have() -> None:
    refused(None, Tournament, CAVALLORE, 1, tuple(range(8)))
    refused(None, Tournament, NAVAWHIST, 1, tuple(range(8)), pairs=True)
    assert "Ada is entered twice" in str(refused(None, Tournament, NAVAWHIST, 1,
                                                 ("Ada", "Bea", "Ada")))
    assert Tournament(FORTYFIVE, 1, tuple(range(8)), pairs=True).pairs


# --- table sizes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ALONE, ids=lambda g: g.key)
@pytest.mark.parametrize(("count", "sizes"), [
    (10, (4, 3, 3)), (9, (3, 3, 3)), (5, (5,)),  # the examples of the rules
    (8, (4, 4)), (11, (4, 4, 3)), (13, (4, 3, 3, 3)), (17, (4, 4, 3, 3, 3)), (6, (3, 3)),
    (7, (4, 3)), (3, (3,)), (4, (4,)), (64, (4,) * 16),
])
def test_tables_of_four(game, count: int, sizes: tuple) -> None:
    assert table_sizes(count, game) == sizes


@pytest.mark.parametrize(("count", "size", "sizes"), [
    (10, 5, (5, 5)), (11, 5, (4, 4, 3)), (13, 6, (5, 4, 4)), (17, 6, (6, 6, 5)),
    (10, 3, (4, 3, 3)), (4, 3, (4,)), (5, 3, (5,)), (7, 3, (4, 3)),
])
def test_other_preferred_sizes(count: int, size: int, sizes: tuple) -> None:
    assert table_sizes(count, SCALA40, size=size) == sizes


def test_a_table_never_goes_above_the_games_maximum() -> None:
    fours_or_fives = dataclasses.replace(NAVAWHIST, min_players=4, max_players=5)
    assert table_sizes(9, fours_or_fives) == (5, 4)  # 3, 3, 3 is below the minimum
    refused(None, table_sizes, 7, fours_or_fives)  # 4, 3 too small, 7 too large
    assert table_sizes(10, NAVAWHIST, size=10) == (10,)


def test_nothing_fits_two_entrants_and_a_size_must_suit_the_game() -> None:
    err = refused(None, table_sizes, 2, QUARANTOTTO)
    assert str(err) == "2 entrants cannot be seated at tables of Quarantotto."
    assert str(refused(None, table_sizes, 2, NAVAWHIST)) == \
        "2 entrants cannot be seated at tables of Navawhist."
    assert "Tables of 7 do not suit Scala 40: choose 3 to 6." in str(
        refused(None, table_sizes, 12, SCALA40, size=7))
    refused(None, table_sizes, 12, SCALA40, size=2)
    assert table_sizes(12, SCALA40, size=6) == (6, 6)


@pytest.mark.parametrize(("count", "sizes"), [
    (8, (5, 3)), (11, (5, 3, 3)), (12, (3, 3, 3, 3)), (13, (5, 5, 3)),  # the rules' examples
    (10, (5, 5)), (17, (5, 3, 3, 3, 3)), (9, (3, 3, 3)), (3, (3,)), (5, (5,)), (6, (3, 3)),
])
def test_fortyfive_alone_sits_at_fives_and_threes(count: int, sizes: tuple) -> None:
    assert table_sizes(count, FORTYFIVE) == sizes
    assert table_sizes(count, FORTYFIVE, size=6) == sizes  # the preferred size does not apply


@pytest.mark.parametrize("count", [1, 2, 4, 7])
def test_fortyfive_alone_cannot_seat(count: int) -> None:
    refused(None, table_sizes, count, FORTYFIVE)


def test_pairs_sit_two_a_table() -> None:
    assert table_sizes(8, SCALA40, pairs=True) == (2, 2, 2, 2)
    assert table_sizes(10, FORTYFIVE, pairs=True) == (2,) * 5
    assert table_sizes(9, FORTYFIVE, pairs=True) == (3, 2, 2, 2)
    assert table_sizes(3, FORTYFIVE, pairs=True) == (3,)
    assert table_sizes(5, FORTYFIVE, pairs=True) == (3, 2)
    refused(None, table_sizes, 9, SCALA40, pairs=True)
    refused(None, table_sizes, 1, FORTYFIVE, pairs=True)
    refused(None, Tournament(SCALA40, 1, tuple(range(9)), pairs=True).seat, [], [])


@settings(deadline=None)
@given(st.integers(8, 64), st.sampled_from(ALONE), st.integers(3, 6))
def test_sizes_stay_within_the_games_bounds(count: int, game, size: int) -> None:
    sizes = table_sizes(count, game, size=size)
    assert sum(sizes) == count
    assert all(3 <= s <= game.max_players for s in sizes)
    assert list(sizes) == sorted(sizes, reverse=True) and sizes[0] - sizes[-1] <= 1
    five_three = table_sizes(count, FORTYFIVE)  # every count from 8 up is seated
    assert sum(five_three) == count and set(five_three) <= {3, 5}


def test_round_one_seats_the_draw_in_blocks() -> None:
    first = Tournament(NAVAWHIST, 2026, tuple("ABCDEFGHIJ")).seat([], [])
    assert [table.entrants for table in first.tables] == [
        ("A", "G", "C", "D"), ("I", "E", "H"), ("J", "F", "B")]
    assert draw("ABCDEFGHIJ", 2026) == tuple("AGCDIEHJFB")


def test_blocks_cut_in_order() -> None:
    assert blocks("ABCDEFGHIJ", (4, 3, 3)) == (tuple("ABCD"), tuple("EFG"), tuple("HIJ"))
    assert blocks(list(range(6)), (3, 3)) == ((0, 1, 2), (3, 4, 5))


# --- Danish --------------------------------------------------------------------------------------

ROUND_ONE = seating("ABCD", "EFGH", "IJKL")
ROUND_ONE_TOTALS = {"A": 60, "B": 50, "C": 10, "D": 0, "E": 50, "F": 30, "G": 25, "H": 0,
                    "I": 40, "J": 20, "K": 15, "L": 0}


def test_the_danish_worked_example() -> None:
    results = [play(ROUND_ONE, ROUND_ONE_TOTALS)]
    tournament = Tournament(NAVAWHIST, 3, tuple("ABCDEFGHIJKL"))
    assert "".join(standings(tournament.order, results).order) == "AEIBFJGKCLHD"
    previous = seated_entrants(ROUND_ONE)
    assert repeats(blocks("AEIBFJGKCLHD", (4, 4, 4)), previous) == 4
    second = tournament.seat([ROUND_ONE], results)
    assert ["".join(t) for t in seated_entrants(second)] == ["AEIF", "BJGK", "CLHD"]
    assert repeats(seated_entrants(second), previous) == 3  # 2 at tables 1 and 2, 1 at 3
    assert second.number == 2
    assert [t.dealer for t in second.tables] == [
        random.Random(f"3:2:{t}").randrange(4) for t in (1, 2, 3)]


def test_the_swap_is_the_first_that_lowers_the_repeats() -> None:
    # x runs from the lowest of table 1 up, y from the highest of table 2 down: B<->F first.
    swapped = reduce_repeats(["AEIB", "FJGK", "CLHD"], seated_entrants(ROUND_ONE),
                             "AEIBFJGKCLHD")
    assert swapped == (tuple("AEIF"), tuple("BJGK"), tuple("CLHD"))


def test_no_swap_without_a_round_before() -> None:
    assert reduce_repeats(["CAB", "DEF"], [], "ABCDEF") == (tuple("ABC"), tuple("DEF"))


def test_eight_from_two_tables_keep_two_repeats_a_table() -> None:
    previous = [tuple("ABCD"), tuple("EFGH")]
    tables = reduce_repeats(["ABCD", "EFGH"], previous, "ABCDEFGH")
    assert repeats(["ABCD", "EFGH"], previous) == 12
    assert [repeats([t], previous) for t in tables] == [2, 2]
    assert sorted(e for t in tables for e in t) == list("ABCDEFGH")


def test_a_table_of_four_from_three_tables_keeps_one_repeat() -> None:
    previous = [tuple("ABC"), tuple("DEF"), tuple("GHI")]
    tables = reduce_repeats(["ABCD", "EFGHI"], previous, "ABCDEFGHI")
    assert repeats([tables[0]], previous) == 1
    assert repeats(["ABCD", "EFGHI"], previous) == 7  # 3 at table 1, 4 at table 2
    assert tables == (tuple("ABDG"), tuple("CEFHI")) and repeats(tables, previous) == 3


def test_repeats_look_further_down_the_tables() -> None:
    # Tables 1 and 2 cannot do better; tables 2 and 3 can.
    previous = [tuple("AB"), tuple("CE"), tuple("DF")]
    tables = reduce_repeats(["AC", "DF", "BE"], previous, "ACDFBE")
    assert repeats(["AC", "DF", "BE"], previous) == 1
    assert repeats(tables, previous) == 0


def test_someone_who_sat_out_repeats_nobody() -> None:
    assert repeats([tuple("ABX"), tuple("YZ")], [tuple("AB")]) == 1
    assert repeats([tuple("XYZ")], [tuple("AB")]) == 0


@settings(max_examples=40, deadline=None)
@given(st.integers(8, 40), st.integers(0, 10**6), st.lists(st.integers(0, 200), min_size=40,
                                                           max_size=40))
def test_every_entrant_is_seated_once_a_round_and_swaps_never_add_repeats(
        count: int, seed: int, totals: list[int]) -> None:
    tournament = Tournament(NAVAWHIST, seed, tuple(range(count)))
    history, results = [], []
    for _round in range(3):
        seated = tournament.seat(history, results)
        everyone = [e for t in seated.tables for e in t.entrants]
        assert sorted(everyone) == list(range(count))
        if history:
            order = standings(tournament.order, results).order
            before = blocks(order, tournament.sizes(count))
            previous = seated_entrants(history[-1])
            assert repeats(seated_entrants(seated), previous) <= repeats(before, previous)
        history.append(seated)
        results.append(play(seated, dict(enumerate(totals))))


def test_a_withdrawn_entrant_is_not_seated_again_but_stays_in_the_standings() -> None:
    results = [play(ROUND_ONE, ROUND_ONE_TOTALS)]
    tournament = Tournament(NAVAWHIST, 3, tuple("ABCDEFGHIJKL"))
    second = tournament.seat([ROUND_ONE], results, withdrawn={"E"})
    seated = [e for t in second.tables for e in t.entrants]
    assert "E" not in seated and len(seated) == 11
    assert [len(t.entrants) for t in second.tables] == [4, 4, 3]
    rows = standings(tournament.order, results, withdrawn={"E"}).rows
    assert [(row.entrant, row.withdrawn) for row in rows[:3]] == [
        ("A", False), ("E", True), ("I", False)]


def test_the_rounds_are_as_many_as_chosen() -> None:
    tournament = Tournament(NAVAWHIST, 3, tuple("ABCDEFGHIJKL"), rounds=1)
    err = refused(None, tournament.seat, [ROUND_ONE], [play(ROUND_ONE, ROUND_ONE_TOTALS)])
    assert str(err) == "The tournament has 1 round."


# --- Scala 40 pairs: sitting out -----------------------------------------------------------------


def test_an_odd_number_of_scala40_pairs_sits_out_the_lowest_not_yet_out() -> None:
    pairs = tuple("ABCDEFGHIJ")
    tournament = Tournament(SCALA40, 4, pairs, pairs=True)
    order = tournament.order
    history = [tournament.seat([], [])]
    results = [play(history[0], {}, hands=0)]  # every table tied: the standing is the draw
    second = tournament.seat(history, results, withdrawn={order[0]})
    assert second.sitting_out == (order[-1],)
    assert sorted(e for t in second.tables for e in t.entrants) == sorted(order[1:-1])
    history.append(second)
    results.append([*play(second, {}, hands=0), sat_out(order[-1])])
    # The half point keeps the tie; order[0], withdrawn, missed round 2.
    assert standings(order, results).order == order[1:] + order[:1]
    third = tournament.seat(history, results, withdrawn={order[0]})
    assert third.sitting_out == (order[-2],)


def test_when_every_pair_has_sat_out_the_lowest_of_the_fewest_times_sits_out() -> None:
    tournament = Tournament(SCALA40, 4, tuple("ABCDEFGH"), pairs=True, rounds=10)
    order = tournament.order
    first = tournament.seat([], [])
    # Seven pairs left; each but order[3] has sat out, order[7] twice (scores left aside).
    history = [first] + [Seating(n, first.tables, (order[k],)) for n, k in
                         zip(range(2, 9), (1, 2, 4, 5, 6, 7, 7), strict=True)]
    results = [play(first, {}, hands=0)] + [[]] * 7
    ninth = tournament.seat(history, results, withdrawn={order[0]})
    assert ninth.sitting_out == (order[3],)
    history.append(ninth)
    results.append([*play(ninth, {}, hands=0), sat_out(order[3])])
    tenth = tournament.seat(history, results, withdrawn={order[0]})
    assert tenth.sitting_out == (order[6],)


def test_a_round_sat_out_scores_half_a_point_and_no_win() -> None:
    assert scored(sat_out("P")) == {"P": (F(1, 2), F(0), False)}
    rows = standings("PQ", [[sat_out("P"), score_table(result("Q", 5))]]).rows
    assert [(r.entrant, r.points, r.wins) for r in rows] == [("P", F(1, 2), 0), ("Q", 0, 1)]


def test_fortyfive_pairs_put_three_pairs_at_table_one() -> None:
    first = Tournament(FORTYFIVE, 8, tuple(range(9)), pairs=True).seat([], [])
    assert [len(t.entrants) for t in first.tables] == [3, 2, 2, 2]
    assert first.tables[0].dealer == random.Random("8:1:1").randrange(6)


# --- round robin in groups -----------------------------------------------------------------------


def test_groups_play_together_every_round_the_dealer_moving_on() -> None:
    tournament = Tournament(QUARANTOTTO, 11, tuple("ABCDEFGHIJ"), format=Format.GROUPS)
    first = tournament.seat([], [])
    groups = seated_entrants(first)
    assert [len(g) for g in groups] == [4, 3, 3]  # smaller groups last
    history, results = [first], [play(first, {e: ord(e) for e in "ABCDEFGHIJ"})]
    for number in (2, 3, 4):
        seated = tournament.seat(history, results)
        assert seated_entrants(seated) == groups
        assert [t.dealer for t in seated.tables] == [
            (t.dealer + number - 1) % len(t.entrants) for t in first.tables]
        history.append(seated)
        results.append(play(seated, {}))
    assert str(refused(None, tournament.seat, history, results)) == (
        "The tournament has 4 rounds.")


def test_a_group_plays_on_smaller_while_the_game_allows() -> None:
    tournament = Tournament(QUARANTOTTO, 11, tuple("ABCDEFGHIJ"), format=Format.GROUPS)
    first = tournament.seat([], [])
    (a, b, c, d), (e, f, g), (h, i, j) = seated_entrants(first)
    second = tournament.seat([first], [play(first, {})], withdrawn={b, f, h, i})
    assert seated_entrants(second) == [(a, c, d), (e, g)]  # Quarantotto plays at 2
    assert second.sitting_out == (j,)
    assert [t.number for t in second.tables] == [1, 2]
    # Round 1's first dealer at table 1 withdrew (b): the next after them still in deals.
    assert first.tables[0].entrants[first.tables[0].dealer] == b
    assert second.tables[0].entrants[second.tables[0].dealer] == c


def test_after_a_withdrawal_the_dealer_is_the_next_still_in_after_the_last_dealer() -> None:
    tournament = Tournament(NAVAWHIST, 5, tuple("ABCDEFGH"), format=Format.GROUPS)
    first = Seating(1, (Table(1, tuple("ABCD"), 1), Table(2, tuple("EFGH"), 3)))
    second = tournament.seat([first], [play(first, {})])
    assert [t.dealer for t in second.tables] == [2, 0]  # C, then E: one seat on
    # C dealt round 2 at table 1 and withdraws: D, the next after C, deals round 3 (seat 2
    # of A B D); F withdraws at table 2, where E dealt: G, the next still in, deals.
    third = tournament.seat([first, second], [play(first, {}), play(second, {})],
                            withdrawn={"C", "F"})
    assert seated_entrants(third) == [tuple("ABD"), tuple("EGH")]
    assert [t.entrants[t.dealer] for t in third.tables] == ["D", "G"]
    # Round 4 counts on from round 3's seating: A after D, H after G.
    fourth = tournament.seat([first, second, third], [play(first, {}), play(second, {}),
                                                      play(third, {})], withdrawn={"C", "F"})
    assert [t.entrants[t.dealer] for t in fourth.tables] == ["A", "H"]


def test_a_group_back_at_a_size_the_game_plays_counts_on_from_when_it_last_played() -> None:
    tournament = Tournament(FORTYFIVE, 5, tuple("ABCDEFGH"), format=Format.GROUPS)
    first = Seating(1, (Table(1, tuple("ABCDE"), 4), Table(2, tuple("FGH"), 0)))
    second = tournament.seat([first], [play(first, {})], withdrawn={"A"})
    assert second.sitting_out == tuple("BCDE")  # four cannot play Forty-Five alone
    third = tournament.seat([first, second], [play(first, {}), play(second, {})],
                            withdrawn={"A", "B"})
    # Table 1 last played in round 1, E dealing: A and B are out, so C deals.
    assert third.tables[0].entrants == tuple("CDE")
    assert third.tables[0].entrants[third.tables[0].dealer] == "C"


def test_a_table_of_pairs_counts_the_dealer_on_by_seats() -> None:
    tournament = Tournament(SCALA40, 5, tuple("PQRSTUVW"), pairs=True, format=Format.GROUPS)
    first = Seating(1, (Table(1, tuple("PQR"), 1), Table(2, tuple("ST"), 3),
                        Table(3, tuple("UV"), 0)))
    second = tournament.seat([first], [play(first, {})], withdrawn={"R"})
    # Table 1 was P1 Q1 R1 P2 Q2 R2 with Q1 dealing: R1 is skipped, P2 deals (seat 2 of
    # P1 Q1 P2 Q2); table 2's S2 (seat 3) hands on to S1 (seat 0).
    assert [t.dealer for t in second.tables] == [2, 0, 1]


def test_a_table_whose_players_all_withdrew_has_no_next_dealer() -> None:
    err = refused(None, next_dealer, Table(3, tuple("AB"), 0), (), {"A", "B"})
    assert str(err) == "Everyone at table 3 has withdrawn."


def test_a_fortyfive_group_of_four_cannot_play_alone() -> None:
    tournament = Tournament(FORTYFIVE, 2, tuple(range(8)), format=Format.GROUPS)
    first = tournament.seat([], [])
    five, three = seated_entrants(first)
    second = tournament.seat([first], [play(first, {})], withdrawn={five[0], three[0]})
    assert seated_entrants(second) == [three[1:]]
    assert second.sitting_out == five[1:]


def test_a_group_of_pairs_needs_two_pairs() -> None:
    tournament = Tournament(SCALA40, 2, tuple(range(8)), pairs=True, format=Format.GROUPS)
    first = tournament.seat([], [])
    groups = seated_entrants(first)
    second = tournament.seat([first], [play(first, {})], withdrawn={groups[1][0]})
    assert seated_entrants(second) == [groups[0], groups[2], groups[3]]
    assert second.sitting_out == (groups[1][1],)
    assert second.tables[0].dealer == (first.tables[0].dealer + 1) % 4


# --- knockout ------------------------------------------------------------------------------------


def test_a_knockout_takes_the_top_two_of_each_table_to_the_final() -> None:
    tournament = Tournament(NAVAWHIST, 3, tuple("ABCDEFGHIJKL"), format=Format.KNOCKOUT)
    results = [play(ROUND_ONE, ROUND_ONE_TOTALS)]
    second = tournament.seat([ROUND_ONE], results)
    assert ["".join(t) for t in seated_entrants(second)] == ["AEI", "BFJ"]
    assert not second.final
    results.append(play(second, {"A": 10, "E": 30, "I": 20, "B": 5, "F": 10, "J": 0}))
    third = tournament.seat([ROUND_ONE, second], results)
    assert third.final and len(third.tables) == 1
    assert third.tables[0].entrants == tuple("EIFB")
    err = refused(None, tournament.seat, [ROUND_ONE, second, third], [*results, []])
    assert str(err) == "The knockout is over: its final has been played."


def test_five_at_tables_of_four_is_a_final_and_a_tie_at_the_cut_goes_to_the_standing() -> None:
    tournament = Tournament(SCALA40, 1, tuple(range(17)), format=Format.KNOCKOUT, go_on=1)
    drawn = tournament.seat([], [])
    assert [len(t.entrants) for t in drawn.tables] == [4, 4, 3, 3, 3]
    # Seated against the draw, every table tied at 0: the standing (the draw) decides.
    first = Seating(1, tuple(Table(t.number, t.entrants[::-1], 0) for t in drawn.tables))
    second = tournament.seat([first], [play(first, {})])
    assert second.final
    assert seated_entrants(second) == [tuple(t.entrants[0] for t in drawn.tables)]


def test_a_withdrawn_qualifier_is_not_replaced() -> None:
    tournament = Tournament(NAVAWHIST, 3, tuple("ABCDEFGHIJKL"), format=Format.KNOCKOUT)
    second = tournament.seat([ROUND_ONE], [play(ROUND_ONE, ROUND_ONE_TOTALS)], withdrawn={"E"})
    assert ["".join(t) for t in seated_entrants(second)] == ["AIBFJ"]
    assert second.final


def test_fortyfive_alone_four_going_on_lose_the_lowest() -> None:
    tournament = Tournament(FORTYFIVE, 6, tuple("ABCDEFGH"), format=Format.KNOCKOUT)
    first = seating("ABCDE", "FGH")
    totals = {"A": 45, "B": 30, "C": 20, "D": 10, "E": 5, "F": 45, "G": 40, "H": 0}
    second = tournament.seat([first], [play(first, totals)])
    # Going on: A, B (table 1) and F, G (table 2); standing A 4, B 3, F 2, G 1: G goes out.
    assert seated_entrants(second) == [tuple("ABF")] and second.final


def test_an_odd_number_of_scala40_pairs_going_on_loses_the_lowest() -> None:
    tournament = Tournament(SCALA40, 6, tuple("ABCDEFGHIJ"), pairs=True, format=Format.KNOCKOUT)
    first = seating("AB", "CD", "EF", "GH", "IJ")
    penalties = {"B": 10, "C": 20, "F": 30, "G": 40, "J": 50}
    results = [[score_table(TableResult(t.entrants, tuple(penalties.get(e, 0) for e in t.entrants),
                                        1, higher_wins=False)) for t in first.tables]]
    second = tournament.seat([first], results)
    # Winners A D E H I with match points +5, +10, +15, +20, +25: A goes out.
    assert seated_entrants(second) == [tuple("IH"), tuple("ED")]
    assert not second.final


def test_too_few_going_on_cannot_be_seated() -> None:
    tournament = Tournament(NAVAWHIST, 6, tuple("ABCDEF"), format=Format.KNOCKOUT, go_on=1)
    first = seating("ABC", "DEF")
    err = refused(None, tournament.seat, [first], [play(first, {"A": 5, "D": 5})],
                  withdrawn={"D"})
    assert str(err) == "Too few go on to seat round 2."


@pytest.mark.parametrize("game", [NAVAWHIST, QUARANTOTTO, SCALA40, FORTYFIVE])
def test_two_going_on_play_a_final_of_two_where_the_game_allows_two(game) -> None:
    tournament = Tournament(game, 6, tuple("ABCDEFGH"), format=Format.KNOCKOUT, go_on=1)
    first = seating("ABCDE", "FGH")
    totals = {"B": 30, "G": 20}  # (the helper scores the highest first in every game)
    second = tournament.seat([first], [play(first, totals)])
    assert second.final and seated_entrants(second) == [("B", "G")]
    assert second.tables[0].dealer in (0, 1)
    final = [score_table(TableResult(("B", "G"), (10, 40), 1))]
    assert knockout_standings(tournament.order, [play(first, totals), final]).order[:2] == \
        ("G", "B")
    err = refused(None, tournament.seat, [first, second], [play(first, totals), final])
    assert str(err) == "The knockout is over: its final has been played."


def test_pairs_going_on_as_one_pair_cannot_be_seated() -> None:
    tournament = Tournament(SCALA40, 6, tuple("ABCD"), pairs=True, format=Format.KNOCKOUT,
                            go_on=1)
    first = seating("AB", "CD")
    err = refused(None, tournament.seat, [first], [play(first, {"A": 5, "C": 5})],
                  withdrawn={"C"})
    assert str(err) == "Too few go on to seat round 2."


# --- scoring a table -----------------------------------------------------------------------------


def test_the_navawhist_worked_example() -> None:
    assert scored(score_table(result("ABCD", 40, 25, 25, 10, hands=8))) == {
        "A": (3, 15, True), "B": (F(3, 2), 0, False), "C": (F(3, 2), 0, False),
        "D": (0, -15, False)}


def test_the_scala40_worked_example() -> None:
    table = score_table(result("ABCD", 45, 120, 45, 80, hands=6, higher_wins=False))
    assert scored(table) == {
        "A": (F(5, 2), F(55, 2), True), "B": (0, F(-95, 2), False),
        "C": (F(5, 2), F(55, 2), True), "D": (1, F(-15, 2), False)}


def test_two_tied_first_at_four_get_two_and_a_half() -> None:
    points = {e: p for e, (p, _m, _w) in scored(score_table(result("ABCD", 9, 9, 5, 1))).items()}
    assert points == {"A": F(5, 2), "B": F(5, 2), "C": 1, "D": 0}


@pytest.mark.parametrize(("totals", "points"), [
    ((5, 5, 1), (F(3, 2), F(3, 2), 0)),  # 2 tied at 3
    ((5, 5, 5), (1, 1, 1)),  # 3 tied at 3
    ((7, 5, 5, 5), (3, 1, 1, 1)),  # 3 tied at 4
    ((5, 5, 5, 5), (F(3, 2),) * 4),  # 4 tied at 4
    ((9, 2, 2, 2, 2), (4, F(3, 2), F(3, 2), F(3, 2), F(3, 2))),  # 4 tied at 5
    ((3, 3, 3, 1, 0), (3, 3, 3, 1, 0)),  # 3 tied first at 5
    ((3, 3, 1, 1, 0), (F(7, 2), F(7, 2), F(3, 2), F(3, 2), 0)),  # two ties at 5
])
def test_ties_share_the_places_they_cover(totals: tuple, points: tuple) -> None:
    table = score_table(TableResult(tuple(range(len(totals))), totals, 3))
    assert tuple(s.points for s in table.scores) == points
    assert [s.won for s in table.scores] == [p == max(points) for p in points]


def test_match_points_in_thirds_and_fifths_are_exact() -> None:
    thirds = score_table(result("ABC", 1, 0, 0))
    assert [s.match_points for s in thirds.scores] == [F(2, 3), F(-1, 3), F(-1, 3)]
    fifths = score_table(result("ABCDE", 1, 0, 0, 0, 0, higher_wins=False))
    assert [s.match_points for s in fifths.scores] == [F(-4, 5), *[F(1, 5)] * 4]
    assert [s.points for s in fifths.scores] == [0, F(5, 2), F(5, 2), F(5, 2), F(5, 2)]


def test_match_points_in_both_directions() -> None:
    higher = score_table(result("ABC", 30, 20, 10))
    lower = score_table(result("ABC", 30, 20, 10, higher_wins=False))
    assert [s.match_points for s in higher.scores] == [10, 0, -10]
    assert [s.match_points for s in lower.scores] == [-10, 0, 10]
    assert [s.points for s in lower.scores] == [0, 1, 2]


def test_a_winner_by_another_rule_places_first() -> None:
    # Forty-Five's jink: C wins on a lower total; the others place by total.
    table = score_table(result("ABCD", 40, 30, 20, 30, winner="C"))
    assert scored(table) == {"A": (2, 10, False), "B": (F(1, 2), 0, False),
                             "C": (3, -10, True), "D": (F(1, 2), 0, False)}


def test_scala40_with_elimination() -> None:
    # B and D still in (D lower, so better); A out in deal 5, C and E both in deal 3.
    table = score_table(result("ABCDE", 105, 80, 120, 40, 110, higher_wins=False,
                               eliminated=(5, None, 3, None, 3)))
    assert [s.points for s in table.scores] == [2, 3, F(1, 2), 4, F(1, 2)]
    assert [s.won for s in table.scores] == [False, False, False, True, False]
    assert table.scores[3].match_points == F(455, 5) - 40


def test_a_match_closed_early_ranks_as_it_stands() -> None:
    table = score_table(result("ABC", 20, 20, 5, hands=2))
    assert [s.points for s in table.scores] == [F(3, 2), F(3, 2), 0]
    assert [s.won for s in table.scores] == [True, True, False]


def test_no_hand_completed_everyone_ties_and_nobody_wins() -> None:
    table = score_table(result("ABCD", 0, 0, 0, 0, hands=0))
    assert scored(table) == dict.fromkeys("ABCD", (F(3, 2), 0, False))
    five = score_table(result("ABCDE", 0, 0, 0, 0, 0, hands=0, higher_wins=False))
    assert {s.points for s in five.scores} == {2} and not any(s.won for s in five.scores)


def test_one_leaver_takes_the_last_place_and_the_lowest_match_points() -> None:
    # B leaves in hand 4 while ahead: match points with B's 50 as it stood (average 30).
    table = score_table(result("ABCD", 40, 50, 20, 10, hands=4, leavers=(("B", 4),)))
    assert scored(table) == {"A": (3, 10, True), "B": (0, -20, False),
                             "C": (2, -10, False), "D": (1, -20, False)}


def test_two_leavers_in_the_same_hand_share_the_last_places() -> None:
    table = score_table(result("ABCD", 40, 50, 20, 10, hands=4, leavers=(("B", 3), ("A", 3))))
    assert scored(table) == {"A": (F(1, 2), -20, False), "B": (F(1, 2), -20, False),
                             "C": (3, -10, True), "D": (2, -20, False)}


def test_leavers_in_different_hands_place_in_reverse_order_of_leaving() -> None:
    # Lower wins. A left first (hand 2), B later (hand 5): B above A, below those who stayed.
    table = score_table(result("ABCD", 40, 50, 20, 10, hands=6, higher_wins=False,
                               leavers=(("A", 2), ("B", 5))))
    assert [s.points for s in table.scores] == [0, 1, 2, 3]
    assert [s.match_points for s in table.scores] == [-20, -20, 10, 20]


def test_a_leaver_before_any_hand_still_places_last() -> None:
    table = score_table(result("ABC", 0, 0, 0, hands=0, leavers=(("C", 1),)))
    assert scored(table) == {"A": (F(3, 2), 0, False), "B": (F(3, 2), 0, False),
                             "C": (0, 0, False)}


def test_a_pair_places_as_one() -> None:
    table = score_table(TableResult(("P", "Q"), (120, 80), hands=6, higher_wins=False))
    assert scored(table) == {"P": (0, -20, False), "Q": (1, 20, True)}


def test_a_table_result_checks_its_lengths_and_names() -> None:
    refused(None, TableResult, ("A", "B"), (1,), 1)
    refused(None, TableResult, ("A", "B"), (1, 2), 1, eliminated=(None,))
    assert str(refused(None, TableResult, ("A", "B"), (1, 2), 1, winner="Z")) == (
        "Z does not sit at this table.")
    refused(None, TableResult, ("A", "B"), (1, 2), 1, leavers=(("Y", 1),))


@settings(deadline=None)
@given(st.lists(st.integers(-300, 300), min_size=2, max_size=6), st.booleans(),
       st.integers(0, 3), st.data())
def test_placement_points_always_sum_to_n_n_minus_1_over_2(totals, higher, hands, data) -> None:
    n = len(totals)
    leavers = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, 4)),
                                 max_size=n, unique_by=lambda t: t[0]))
    winner = data.draw(st.none() | st.integers(0, n - 1))
    eliminated = data.draw(st.none() | st.tuples(*[st.none() | st.integers(1, 5)] * n))
    table = score_table(TableResult(tuple(range(n)), tuple(totals), hands, higher_wins=higher,
                                    winner=winner, eliminated=eliminated,
                                    leavers=tuple(leavers)))
    assert sum(s.points for s in table.scores) == F(n * (n - 1), 2)
    assert all(0 <= s.points <= n - 1 for s in table.scores)
    assert any(s.won for s in table.scores) == (hands > 0)
    stayers = [s for s in table.scores if s.entrant not in dict(leavers)]
    for seat, _hand in leavers:
        assert table.scores[seat].match_points == min(s.match_points for s in table.scores)
        assert all(table.scores[seat].points < s.points for s in stayers)


# --- standings -----------------------------------------------------------------------------------


def score(entrant: str, points, match_points=0, won: bool = False) -> Score:
    return Score(entrant, F(points), F(match_points), won)


def test_standings_before_round_one_are_the_draw() -> None:
    table = standings("CAB", [])
    assert table.order == tuple("CAB") and not table.provisional
    assert [(r.place, r.points, r.match_points, r.wins, r.reached) for r in table.rows] == [
        (1, 0, 0, 0, 0), (2, 0, 0, 0, 0), (3, 0, 0, 0, 0)]


def test_placement_points_first() -> None:
    rounds = [[TableScore((score("A", 1, 50, True), score("B", 2, -50)))]]
    assert standings("AB", rounds).order == ("B", "A")


def test_then_match_points_x_below_y() -> None:
    rounds = [[TableScore((score("X", F(9, 2), 15, True),)),
               TableScore((score("Y", F(9, 2), 20),))]]
    rows = standings("XY", rounds).rows
    assert [(r.entrant, r.points, r.match_points) for r in rows] == [
        ("Y", F(9, 2), 20), ("X", F(9, 2), 15)]


def test_then_wins() -> None:
    rounds = [[TableScore((score("A", 3, 5),)), TableScore((score("B", 3, 5, True),))]]
    assert standings("AB", rounds).order == ("B", "A")
    assert [r.wins for r in standings("AB", rounds).rows] == [1, 0]


def test_then_head_to_head_among_those_still_tied() -> None:
    # A and B tie on points, match points and wins; B placed above A when they met.
    rounds = [[TableScore((score("A", 1), score("B", 2), score("C", 0))),
               TableScore((score("D", 9),))],
              [TableScore((score("A", 2), score("C", 1))), TableScore((score("B", 1),))]]
    assert standings("ABCD", rounds).order == ("D", "B", "A", "C")


def test_head_to_head_counts_only_meetings_among_the_tied() -> None:
    # A placed above C twice, but C is not tied with them: only B over A counts.
    rounds = [[TableScore((score("A", 2), score("B", 3), score("C", 0)))],
              [TableScore((score("A", 3), score("C", 1))), TableScore((score("B", 2),))]]
    assert standings("ABC", rounds).order == ("B", "A", "C")


def test_head_to_head_is_applied_once_then_the_draw() -> None:
    # P over Q, Q over R, R over P: all three at 0, so the draw decides, even where it puts
    # Q before P, whom P placed above.
    rounds = [[TableScore((score("P", 1), score("Q", 0))), TableScore((score("R", 0),))],
              [TableScore((score("Q", 1), score("R", 0))), TableScore((score("P", 0),))],
              [TableScore((score("R", 1), score("P", 0))), TableScore((score("Q", 0),))]]
    assert standings("QPR", rounds).order == ("Q", "P", "R")
    assert standings("RPQ", rounds).order == ("R", "P", "Q")


def test_then_the_draw() -> None:
    rounds = [[TableScore((score("A", 1), score("B", 1)))]]
    assert standings("BA", rounds).order == ("B", "A")
    assert standings("AB", rounds).order == ("A", "B")


def test_standings_are_provisional_while_a_match_is_unfinished() -> None:
    done = score_table(result("AB", 5, 3))
    live = score_table(result("CD", 5, 3, finished=False))
    assert not standings("ABCD", [[done]]).provisional
    assert standings("ABCD", [[done, live]]).provisional
    assert standings("ABCD", [[live], [done]]).provisional


def test_per_round_standings_use_that_round_alone() -> None:
    first = [score_table(result("AB", 10, 0)), score_table(result("CD", 10, 0))]
    second = [score_table(result("AC", 0, 5)), score_table(result("BD", 9, 0))]
    assert standings("ABCD", [first, second]).order == tuple("CABD")
    assert standings("ABCD", [second]).order == tuple("BCAD")
    rows = standings("ABCD", [first, second]).rows
    assert [(r.entrant, r.points, r.match_points, r.wins, r.reached) for r in rows] == [
        ("C", 2, F(15, 2), 2, 2), ("A", 1, F(5, 2), 1, 2), ("B", 1, F(-1, 2), 1, 2),
        ("D", 0, F(-19, 2), 0, 2)]


def test_knockout_standings_by_round_reached_then_the_final() -> None:
    semis = [score_table(result("ABC", 30, 20, 10)), score_table(result("DEF", 30, 20, 10))]
    final = [score_table(result("ABDE", 0, 10, 20, 30))]
    rows = knockout_standings("ABCDEF", [semis, final], withdrawn={"F"}).rows
    assert [(r.entrant, r.reached, r.withdrawn) for r in rows] == [
        ("E", 2, False), ("D", 2, False), ("B", 2, False), ("A", 2, False), ("C", 1, False),
        ("F", 1, True)]


def test_knockout_standings_before_the_final_go_by_the_round_reached() -> None:
    semis = [score_table(result("ABC", 30, 20, 10)), score_table(result("DEF", 30, 20, 10))]
    next_round = [score_table(result("AB", 0, 10)), score_table(result("DE", 10, 0))]
    # D 3 points; A and B 2, +5, one win each, one meeting won each: the draw puts A first.
    assert knockout_standings("ABCDEF", [semis, next_round]).order == tuple("DABECF")
    assert knockout_standings("ABCDEF", []).order == tuple("ABCDEF")


# --- display -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "text"), [
    (F(5, 2), "2.5"), (F(3), "3.0"), (F(0), "0.0"), (F(-15), "-15.0"), (F(55, 2), "27.5"),
    (F(1, 3), "0.3"), (F(2, 3), "0.7"), (F(-1, 3), "-0.3"), (F(7, 3), "2.3"),
    (F(1, 5), "0.2"), (F(-4, 5), "-0.8"), (F(9, 4), "2.3"), (F(-9, 4), "-2.3"),
    (F(1, 4), "0.3"), (F(3, 4), "0.8"), (F(1, 20), "0.1"), (F(-1, 20), "-0.1"),
    (F(-1, 50), "0.0"), (F(999, 100), "10.0"),
])
def test_display_gives_one_decimal_half_tenths_away_from_zero(value: F, text: str) -> None:
    assert display(value) == text


# --- a table's result read from its match's sheet -----------------------------------------------


def scala_deal(closer: int, points: list) -> dict:
    return {"closer": closer, "points": points}


def test_a_scala40_sheet_gives_totals_lowest_first_and_its_winner():
    options = match_options(SCALA40, {"end": "deals", "deals": 2}, 4)
    sheet = SCALA40.build_sheet(4, [scala_deal(0, [None, 20, 5, 40]),
                                    scala_deal(2, [10, 30, None, 5])], **options)
    result = table_result(sheet, ("A", "B", "C", "D"), SCALA40)
    assert result == TableResult(("A", "B", "C", "D"), (10, 50, 5, 45), hands=2,
                                 finished=True, higher_wins=False, winner="C")
    assert [s.points for s in score_table(result).scores] == [2, 0, 3, 1]
    half = SCALA40.build_sheet(4, [scala_deal(0, [None, 20, 5, 40])], **options)
    assert table_result(half, "ABCD", SCALA40).finished is False
    assert table_result(half, "ABCD", SCALA40, closed=True).finished is True


def test_elimination_ranks_those_out_by_the_deal_that_put_them_out():
    sheet = SCALA40.build_sheet(3, [scala_deal(0, [None, 120, 20]),
                                    scala_deal(0, [None, None, 90])])
    result = table_result(sheet, "ABC", SCALA40)
    assert result.eliminated == (None, 1, 2) and result.winner == "A"
    assert [s.points for s in score_table(result).scores] == [2, 0, 1]


def test_pairs_are_one_entrant_each_whatever_their_seats():
    options = match_options(SCALA40, {"end": "deals", "deals": 1}, 4, pairs=True)
    assert options["pairs"] is True
    sheet = SCALA40.build_sheet(4, [scala_deal(0, [None, 20, 5, 40])], **options)
    result = table_result(sheet, ("P", "Q"), SCALA40)
    assert result.entrants == ("P", "Q") and result.totals == (0, 60)  # the closer's pair: 0
    # Forty-Five seats three pairs with its own option; two pairs need none.
    assert match_options(FORTYFIVE, {}, 6, pairs=True)["three_pairs"] is True
    assert match_options(FORTYFIVE, {}, 4, pairs=True)["three_pairs"] is False


def test_a_tournament_s_matches_start_from_a_fixed_length():
    assert dict(SCALA40.tournament.options) == {"end": "deals", "deals": 6}
    assert dict(QUARANTOTTO.tournament.options) == {"length": "games", "games": 4}
    assert NAVAWHIST.tournament.options == ()
