"""Cavallo Re: playing a deal, its exact odds, a player's statistics and the log.

See docs/rules.md#cavallo-re.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from math import comb, sqrt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import GAMES
from scorekeeper.rules.cards import Card
from scorekeeper.rules.cavallore import (
    GAME,
    WIN_PROBABILITY,
    build_sheet,
    expected_distribution,
    expected_mean,
    play,
    statistics,
)
from scorekeeper.rules.core import Note, RuleError

# The cells, row by row (♥ ♦ ♣ ♠), columns Ace to Cavallo; the Kings have no cell.
CELLS = [Card(r, s) for s in "♥♦♣♠" for r in ["A", "2", "3", "4", "5", "6", "7", "J", "Q"]]
KINGS = [Card("K", s) for s in "♥♦♣♠"]
DECK = CELLS + KINGS


def home(card: Card) -> int:
    return CELLS.index(card)


def with_paths(paths: list[list[Card]], rng: random.Random) -> list[Card]:
    """A deal whose talon starts the four given chains of cards, each ending on a King.

    The cells of the cards on no chain hold those cards in a random order: closed
    cycles, which no talon card ever reaches.
    """
    cells: list[Card | None] = [None] * 36
    talon = []
    for path, king in zip(paths, KINGS, strict=True):
        talon.append(path[0] if path else king)
        for card, after in zip(path, path[1:] + [king], strict=False):
            cells[home(card)] = after
    rest = [c for c in CELLS if all(c not in p for p in paths)]
    shuffled = rest[:]
    rng.shuffle(shuffled)
    for card, other in zip(rest, shuffled, strict=True):
        cells[home(card)] = other
    assert None not in cells
    return [c for c in cells if c is not None] + talon


def cells_on_cycles(deal: list[Card]) -> int:
    """Cells whose card, its cell's card and so on lead back to the cell: never reached."""
    count = 0
    for start in range(36):
        cell = start
        for _ in range(36):
            card = deal[cell]
            if card.rank == "K":
                break
            cell = home(card)
            if cell == start:
                count += 1
                break
    return count


# --- playing a deal -------------------------------------------------------------------------


def test_every_card_in_its_own_cell_places_nothing() -> None:
    assert play(CELLS + KINGS) == 0
    assert play(" ".join(map(str, CELLS + KINGS))) == 0


def test_a_king_in_the_first_cell_reached() -> None:
    # The A♥ is turned first; its cell hides the K♥; then three Kings.
    deal = [KINGS[0]] + CELLS[1:] + [CELLS[0]] + KINGS[1:]
    assert play(deal) == 1


def test_one_chain_through_every_cell_wins_at_the_first_talon_card() -> None:
    order = CELLS[:]
    random.Random(4).shuffle(order)
    deal = with_paths([order, [], [], []], random.Random(0))
    assert deal[36:] == [order[0]] + KINGS[1:]
    assert play(deal) == 36


def test_won_before_the_talon_kings_are_turned() -> None:
    # Each of the four talon cards starts a chain of nine; the last cell holds the K♠.
    order = CELLS[:]
    random.Random(7).shuffle(order)
    deal = with_paths([order[i * 9:(i + 1) * 9] for i in range(4)], random.Random(0))
    assert play(deal) == 36


def test_lost_when_the_fourth_king_comes_out() -> None:
    # 2♥ and A♥ sit in each other's cells: that pair is never reached.
    deal = [Card("2", "♥"), Card("A", "♥")] + CELLS[2:-1] + [KINGS[3]]
    deal += [KINGS[0], KINGS[1], CELLS[-1], KINGS[2]]
    assert play(deal) == 1


def test_a_card_dealt_into_its_own_cell_stays_face_down() -> None:
    order = CELLS[1:]
    random.Random(1).shuffle(order)
    paths = [order[:20], order[20:], [], []]
    deal = with_paths(paths, random.Random(0))
    assert deal[0] == Card("A", "♥")
    assert play(deal) == 35


def test_suit_letters_or_symbols() -> None:
    text = " ".join(str(c) for c in CELLS + KINGS).replace("♥", "H").replace("♠", "s")
    assert play(text) == 0


@pytest.mark.parametrize("deal", [
    CELLS + KINGS[:3],                              # 39 cards
    CELLS + KINGS + [Card("8", "♥")],               # 41 cards
    CELLS[:-1] + [Card("8", "♠")] + KINGS,          # an 8
    CELLS[:-1] + [Card("10", "♠")] + KINGS,         # a 10
    CELLS[:-1] + [Card("*")] + KINGS,               # a joker
    CELLS[:-1] + [Card("Q")] + KINGS,               # no suit
    CELLS[:-1] + [Card("A", "♥")] + KINGS,          # the A♥ twice
    " ".join(map(str, CELLS)) + " KH KD KC K",      # a suitless King
])
def test_refused_deals(deal: list[Card] | str) -> None:
    with pytest.raises(RuleError):
        play(deal)


@given(st.permutations(DECK))
def test_play_places_every_cell_not_on_a_closed_cycle(deal: list[Card]) -> None:
    placed = play(deal)
    assert placed == 36 - cells_on_cycles(deal)


@given(st.permutations(DECK))
def test_play_returns_36_exactly_on_the_deals_that_are_won(deal: list[Card]) -> None:
    won = cells_on_cycles(deal) == 0
    assert (play(deal) == 36) == won


@given(st.lists(st.integers(0, 3), min_size=0, max_size=36), st.randoms(use_true_random=False))
def test_play_counts_the_cards_of_the_chains_from_the_talon(
        chain_of: list[int], rng: random.Random) -> None:
    cards = CELLS[:]
    rng.shuffle(cards)
    paths: list[list[Card]] = [[], [], [], []]
    for card, chain in zip(cards, chain_of, strict=False):
        paths[chain].append(card)
    assert play(with_paths(paths, rng)) == len(chain_of)


# --- the odds ------------------------------------------------------------------------------


def test_expected_distribution() -> None:
    dist = expected_distribution()
    assert len(dist) == 37 and all(isinstance(p, Fraction) for p in dist)
    assert sum(dist) == 1
    assert dist[36] == WIN_PROBABILITY == Fraction(1, 10)
    assert dist[0] == Fraction(1, 91390)       # the four Kings are the talon
    assert dist[35] == Fraction(8436, 91390)   # C(38, 3) / C(40, 4)
    assert all(a < b for a, b in zip(dist, dist[1:], strict=False))
    assert expected_mean() == sum(m * p for m, p in enumerate(dist)) == Fraction(288, 10)


def spread() -> float:
    """The standard deviation of the cards placed in one deal, from C(m+3, 3) / C(40, 4)."""
    dist = [Fraction(comb(m + 3, 3), comb(40, 4)) for m in range(37)]
    mean = sum(m * p for m, p in enumerate(dist))
    return sqrt(sum((m - mean) ** 2 * p for m, p in enumerate(dist)))


def test_a_seeded_simulation_matches_the_odds() -> None:
    rng = random.Random(20240601)
    deals = 20_000
    counts = [0] * 37
    deck = DECK[:]
    for _ in range(deals):
        rng.shuffle(deck)
        counts[play(deck)] += 1
    expected = [deals * float(p) for p in expected_distribution()]
    # Cells of fewer than 5 expected deals are pooled (m = 0..4), as chi-square wants.
    observed_bins = [sum(counts[:5])] + counts[5:]
    expected_bins = [sum(expected[:5])] + expected[5:]
    chi2 = sum((o - e) ** 2 / e for o, e in zip(observed_bins, expected_bins, strict=True))
    df = len(observed_bins) - 1
    assert chi2 < df + 5 * sqrt(2 * df)
    mean = sum(m * c for m, c in enumerate(counts)) / deals
    assert abs(mean - 28.8) < 5 * spread() / sqrt(deals)
    assert abs(counts[36] / deals - 0.1) < 5 * sqrt(0.1 * 0.9 / deals)


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**64))
def test_random_shuffles_agree_with_the_odds(seed: int) -> None:
    rng = random.Random(seed)
    deals = 1000
    deck = DECK[:]
    total = 0
    for _ in range(deals):
        rng.shuffle(deck)
        total += play(deck)
    assert abs(total / deals - 28.8) < 5 * spread() / sqrt(deals)


# --- statistics and the log ----------------------------------------------------------------


def test_statistics() -> None:
    stats = statistics([36, 36, 12, 36, 36, 36, "0", 35])
    assert (stats.deals, stats.wins) == (8, 5)
    assert stats.win_rate == Fraction(5, 8)
    assert (stats.best_streak, stats.current_streak) == (3, 0)
    assert stats.mean == Fraction(36 * 5 + 12 + 35, 8)
    assert len(stats.counts) == 37 and sum(stats.counts) == 8
    assert (stats.counts[36], stats.counts[12], stats.counts[0], stats.counts[1]) == (5, 1, 1, 0)
    values = stats.as_dict()
    assert values["win_rate"] == 0.625 and values["best_streak"] == 3
    json.dumps(values)


def test_statistics_of_an_empty_log() -> None:
    stats = statistics([])
    assert (stats.deals, stats.wins, stats.win_rate, stats.mean) == (0, 0, None, None)
    assert stats.best_streak == 0 and stats.as_dict()["mean"] is None


@pytest.mark.parametrize("value", [37, -1, 2.5, "x", None, True])
def test_statistics_refuse_what_is_not_0_to_36(value: object) -> None:
    with pytest.raises(RuleError):
        statistics([36, value])


@given(st.lists(st.integers(0, 36)))
def test_statistics_properties(placed: list[int]) -> None:
    stats = statistics(placed)
    assert stats.deals == len(placed) and stats.wins == placed.count(36)
    assert list(stats.counts) == [placed.count(m) for m in range(37)]
    assert stats.current_streak <= stats.best_streak <= stats.wins
    runs = "".join("W" if p == 36 else "." for p in placed)
    assert "W" * stats.best_streak in runs and "W" * (stats.best_streak + 1) not in runs
    assert runs.endswith("W" * stats.current_streak)


def test_log_for_one_player() -> None:
    sheet = build_sheet(1, [{"placed": 36}, {"placed": "12", "seat": ""},
                            {"placed": 36, "seat": "0"}])
    assert [r.points for r in sheet.rows] == [(36,), (12,), (36,)]
    assert [r.totals for r in sheet.rows] == [(1,), (1,), (2,)]
    assert [r.notes for r in sheet.rows] == [(Note.WON,), (Note.LOST,), (Note.WON,)]
    assert [r.dealer for r in sheet.rows] == [None, None, None]
    assert sheet.totals == (2,) and sheet.columns == ((0,),)
    assert not sheet.finished and sheet.winners == () and sheet.options == {}
    assert sheet.next is not None
    assert (sheet.next.number, sheet.next.dealer, sheet.next.seats) == (4, None, (0,))
    assert sheet.next.info.as_json() == {"cells": 36}
    stats = sheet.status.statistics[0]
    assert stats["deals"] == 3 and stats["wins"] == 2 and stats["best_streak"] == 1
    assert stats["mean"] == 28.0 and stats["counts"][12] == 1
    expected = sheet.status.expected
    assert expected["win_rate"] == 0.1 and expected["mean"] == pytest.approx(28.8)
    assert expected["distribution"][36] == 0.1 and len(expected["distribution"]) == 37
    json.dumps(sheet.status.as_json())


def test_log_for_several_players() -> None:
    hands = [{"placed": 36, "seat": 1}, {"placed": 20, "seat": 0}, {"placed": 36, "seat": 1}]
    sheet = build_sheet(3, hands, first_dealer=2)
    assert [r.points for r in sheet.rows] == [(None, 36, None), (20, None, None),
                                              (None, 36, None)]
    assert sheet.rows[1].notes == (Note.LOST, "", "")
    assert sheet.totals == (0, 2, 0) and sheet.places == (2, 1, 2)
    assert [s["deals"] for s in sheet.status.statistics] == [1, 2, 0]
    assert sheet.status.statistics[1]["best_streak"] == 2
    assert sheet.rows[0].inputs == {"placed": 36, "seat": 1}


@pytest.mark.parametrize(("hand", "seat"), [
    ({"placed": 37}, 0),
    ({"placed": -1, "seat": 1}, 1),
    ({"placed": 3.5, "seat": 1}, 1),
    ({"placed": "many"}, 0),
    ({"placed": False}, 0),
    ({"seat": 1}, 1),
    ({"placed": 3, "seat": 2}, None),
    ({"placed": 3, "seat": "x"}, None),
])
def test_log_refusals(hand: dict, seat: int | None) -> None:
    with pytest.raises(RuleError) as caught:
        build_sheet(2, [{"placed": 10}, hand])
    assert caught.value.seat == seat


@pytest.mark.parametrize("players", [0, 7])
def test_log_is_for_1_to_6_players(players: int) -> None:
    with pytest.raises(RuleError):
        build_sheet(players, [])


def test_registry_entry() -> None:
    assert GAMES["cavallore"] is GAME
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("Cavallo Re", 1, 6)
    assert GAME.solitaire and GAME.options == ()
