"""A sheet extended by the hands added at its end is the sheet built whole: for random
matches of every game, each hand added in turn to the sheet of the hands before it
(``Game.extend_sheet``, which the ledger uses when a hand is added) gives what
``build_sheet`` gives for all of them, rows, totals, status and refusals alike."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import GAMES, RuleError, navawhist

from .test_roster_matches import MATCHES as WITH_CHANGES
from .test_roster_matches import play


def quarantotto(rng: random.Random, players: int) -> dict[str, Any]:
    closer = rng.choice([*range(players), None])
    points: list[Any] = [None if seat == closer else rng.choice(
        [rng.randint(2, 60), rng.randint(2, 60), "A K 7", "10+5", 0]) for seat in range(players)]
    return {"closer": closer, "points": points}


def scala40(rng: random.Random, players: int) -> dict[str, Any]:
    closer = rng.randrange(players)
    return {"closer": closer, "points": [None if seat == closer else rng.randint(0, 60)
                                         for seat in range(players)]}


def fortyfive(rng: random.Random, players: int) -> dict[str, Any]:
    winners = [rng.randrange(players) for _trick in range(5)]
    return {"trick_winners": winners, "bonus_seat": rng.choice(winners)}


def cavallore(rng: random.Random, players: int) -> dict[str, Any]:
    return {"placed": rng.randint(0, 36), "seat": rng.randrange(players)}


def navawhist_hand(rng: random.Random, players: int, index: int) -> dict[str, Any]:
    cards = navawhist.deal_schedule(players)[index]
    order = navawhist.bidding_order(players, index % players)
    bids = [0] * players
    for seat in order[:-1]:
        bids[seat] = rng.randint(0, cards)
    forbidden = navawhist.forbidden_bid(cards, [bids[s] for s in order[:-1]])
    bids[order[-1]] = rng.choice([b for b in range(cards + 1) if b != forbidden])
    tricks = [0] * players
    for _trick in range(cards):
        tricks[rng.randrange(players)] += 1
    return {"bids": bids, "tricks": tricks}


# Each game: its players, options and a maker of one random hand (index: the hand's place).
MATCHES = {
    "quarantotto": ((2, 6), [{"length": "target", "target": 300}, {"length": "players"},
                             {"length": "games", "games": 7}],
                    lambda rng, players, _index: quarantotto(rng, players)),
    "scala40": ((2, 5), [{"end": "deals", "deals": 6}, {"end": "elimination", "threshold": 101},
                         {"end": "elimination", "threshold": 101, "reentry": True}],
                lambda rng, players, _index: scala40(rng, players)),
    "fortyfive": ((2, 6), [{"target": 45, "jink": False, "three_pairs": False}],
                  lambda rng, players, _index: fortyfive(rng, players)),
    "cavallore": ((1, 3), [{}], lambda rng, players, _index: cavallore(rng, players)),
    "navawhist": ((3, 6), [{}], navawhist_hand),
}


def outcome(call: Any) -> Any:
    """What ``call()`` gives: its sheet, or the refusal's message and seat."""
    try:
        return call()
    except RuleError as error:
        return ("refused", str(error), error.seat)


@pytest.mark.parametrize("game", sorted(MATCHES))
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), hands=st.integers(1, 30), choice=st.integers(0, 2))
def test_extending_a_sheet_by_its_next_hands_equals_building_it_whole(game, seed, hands, choice):
    (low, high), options, make = MATCHES[game]
    rng = random.Random(seed)
    players = rng.randint(low, high)
    opts = options[choice % len(options)]
    rules = GAMES[game]
    first_dealer = rng.randrange(players)
    played: list[dict[str, Any]] = []
    previous = rules.build_sheet(players, played, first_dealer=first_dealer, **opts)
    for index in range(hands):
        try:
            hand = make(rng, players, index)
        except IndexError:  # a Navawhist schedule played to its end
            break
        added = rng.randint(1, 2)  # one hand at a time, sometimes two
        more = [hand] + [make(rng, players, index + 1)
                         for _ in range(added - 1) if game != "navawhist"]
        whole = outcome(lambda h=played + more: rules.build_sheet(
            players, h, first_dealer=first_dealer, **opts))
        extended = outcome(lambda h=played + more, p=previous: rules.extend_sheet(
            p, h, first_dealer=first_dealer, **opts))
        assert extended == whole
        if isinstance(whole, tuple):  # refused: the match stays as it was
            continue
        played += more
        previous = whole


def test_quarantotto_resumes_its_sheet_rather_than_scoring_every_game_again():
    rules, target = GAMES["quarantotto"], {"length": "target", "target": 10**5}
    hands = [{"closer": n % 4, "points": [None if s == n % 4 else 2 + n % 50 for s in range(4)]}
             for n in range(40)]
    previous = rules.build_sheet(4, hands[:-1], **target)
    extended = rules.extend_sheet(previous, hands, **target)
    assert extended == rules.build_sheet(4, hands, **target)
    assert all(a is b for a, b in zip(extended.rows, previous.rows, strict=False))


@pytest.mark.parametrize("game", sorted(WITH_CHANGES))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), hands=st.integers(1, 20), choice=st.integers(0, 3))
def test_extending_a_sheet_with_people_coming_and_going_equals_building_it_whole(
        game, seed, hands, choice):
    """With joins, sit-outs, substitutes and leaves between the hands, each hand added in
    turn (``play`` compares ``extend_sheet`` with ``build_sheet`` at every hand)."""
    play(game, seed, hands, choice)
