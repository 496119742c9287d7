"""Random matches of every game with people coming and going (docs/rules.md, "People who
come and go"): joins, sit-outs and returns, substitutes and leaves made between random
hands, each proposed as the app would (``roster.propose``) and kept when the rules accept
it. Whatever happens, the sheet keeps its invariants: totals are the entry totals plus the
rows, nobody out is dealt in, the dealer is dealt in, places follow the totals with leavers
last, only RuleError is ever raised, and extending a sheet equals building it whole."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import GAMES, RuleError, Sheet, navawhist
from scorekeeper.rules.roster import Presence, SeatState
from scorekeeper.rules.sheet import propose


def quarantotto(rng: random.Random, sheet: Sheet) -> dict[str, Any]:
    dealt = sheet.next.seats
    closer = rng.choice([*dealt, None])
    points: list[Any] = [None] * len(sheet.columns)
    for seat in dealt:
        if seat != closer:
            points[seat] = rng.choice([rng.randint(2, 60), "A K 7", 0])
    return {"closer": closer, "points": points}


def scala40(rng: random.Random, sheet: Sheet) -> dict[str, Any]:
    dealt = list(sheet.next.seats)
    back = [m["seat"] for m in sheet.next.info.may_reenter if rng.random() < 0.5]
    if rng.random() < 0.05:
        return {"annulled": True, "reentries": back}
    dealt = sorted(set(dealt) | set(back))
    closer = rng.choice(dealt)
    points: list[Any] = [None] * len(sheet.roster.states)
    for seat in dealt:
        if seat != closer:
            points[seat] = rng.randint(1, 60)
    return {"closer": closer, "points": points, "reentries": back}


def fortyfive(rng: random.Random, sheet: Sheet) -> dict[str, Any]:
    dealt = sheet.next.seats
    winners = [rng.choice(dealt) for _trick in range(5)]
    if rng.random() < 0.3 and all(len(c) == 1 for c in sheet.columns):
        counts = [None] * len(sheet.columns)
        for seat in dealt:
            counts[seat] = winners.count(seat)
        return {"side_tricks": counts, "bonus_side": rng.choice(winners)}
    return {"trick_winners": winners, "bonus_seat": rng.choice([*winners, None])}


def cavallore(rng: random.Random, sheet: Sheet) -> dict[str, Any]:
    return {"placed": rng.randint(0, 36), "seat": rng.randrange(len(sheet.columns))}


def navawhist_hand(rng: random.Random, sheet: Sheet) -> dict[str, Any]:
    info, dealt = sheet.next.info, sheet.next.seats
    cards, order = info.cards, info.order
    bids: list[Any] = [None] * len(sheet.columns)
    for seat in order[:-1]:
        bids[seat] = rng.randint(0, cards)
    forbidden = navawhist.forbidden_bid(cards, [bids[s] for s in order[:-1]])
    bids[order[-1]] = rng.choice([b for b in range(cards + 1) if b != forbidden])
    tricks: list[Any] = [None] * len(sheet.columns)
    for seat in dealt:
        tricks[seat] = 0
    for _trick in range(cards):
        tricks[rng.choice(dealt)] += 1
    return {"bids": bids, "tricks": tricks}


MATCHES = {
    "quarantotto": ((2, 6), [{"length": "target", "target": 300}, {"length": "players"},
                             {"length": "games", "games": 7}], quarantotto),
    "scala40": ((2, 5), [{"end": "deals", "deals": 6}, {"end": "elimination", "threshold": 101},
                         {"end": "elimination", "threshold": 101, "reentry": True},
                         {"end": "deals", "deals": 5, "pairs": True}], scala40),
    "fortyfive": ((2, 6), [{"target": 45}, {"target": 120, "jink": True},
                           {"target": 45, "three_pairs": True}], fortyfive),
    "cavallore": ((1, 3), [{}], cavallore),
    "navawhist": ((2, 6), [{}, {"hook": False}], navawhist_hand),
}
KINDS = ("join", "join", "sit_out", "back", "back", "substitute", "leave")


def random_change(rng: random.Random, sheet: Sheet, persons: list[str]) -> dict[str, Any]:
    kind = rng.choice(KINDS)
    seats = len(sheet.roster.states)
    change: dict[str, Any] = {"kind": kind}
    if kind == "join":
        change["at"] = rng.choice([None, rng.randint(0, len(sheet.roster.order))])
    elif kind == "back" and SeatState.SITTING_OUT in sheet.roster.states:
        change["seat"] = sheet.roster.states.index(SeatState.SITTING_OUT)
    else:
        change["seat"] = rng.randrange(seats + 1)  # now and then a seat that does not exist
    if kind in ("join", "substitute"):
        change["person"] = rng.choice([*persons, f"p{len(persons)}"])
    return change


def check(sheet: Sheet, higher_wins: bool) -> None:
    """The invariants of a sheet with changes of players."""
    roster = sheet.roster
    seats = len(roster.states)
    solo = all(len(c) == 1 for c in sheet.columns)
    assert sorted(roster.order) == list(range(seats))
    for row in sheet.rows:
        assert len(row.presence) == seats
        if row.dealer is not None:  # the dealer is dealt in
            assert row.presence[row.dealer] is Presence.IN
        # Nobody out is dealt in, and only those dealt in score.
        if solo and not row.annulled and sheet.game != "cavallore":
            for column, (seat,) in enumerate(sheet.columns):
                assert (row.points[column] is None) == (row.presence[seat] is not Presence.IN)
        if sheet.game != "cavallore":
            assert sum(p is Presence.IN for p in row.presence) >= 2
    # Totals: the entry totals and the rows (Scala 40's re-entries aside).
    if sheet.game != "cavallore" and not (sheet.game == "scala40" and sheet.status.events):
        for column, seats_of in enumerate(sheet.columns):
            entry = roster.entries[seats_of[0]] if solo else None
            points = sum(row.points[column] or 0 for row in sheet.rows)
            assert sheet.totals[column] == (entry or 0) + points
    if sheet.game == "cavallore" or not solo:
        return
    # Places: leavers after everyone still playing; among the others, by total.
    gone = {s for s, after in enumerate(roster.left_after)
            if after is not None and not roster.closed}
    stay = [s for s in range(seats) if s not in gone
            and roster.states[s] is not SeatState.OUT]  # a Scala 40 player out ranks by deal
    for a in stay:
        assert all(sheet.places[a] < sheet.places[b] for b in gone)
        if sheet.game == "scala40" and sheet.status.end == "elimination":
            continue
        for b in stay:
            better = sheet.totals[a] > sheet.totals[b] if higher_wins else \
                sheet.totals[a] < sheet.totals[b]
            if better and not sheet.status.as_json().get("won_by_jink"):
                assert sheet.places[a] < sheet.places[b]
    for s in sheet.winners:
        assert roster.states[s] is not SeatState.LEFT or roster.closed


def play(game: str, seed: int, hands: int, choice: int) -> None:
    (low, high), options, make = MATCHES[game]
    rng = random.Random(seed)
    opts = options[choice % len(options)]
    players = rng.randint(low, high)
    if opts.get("pairs"):
        players = 4
    if opts.get("three_pairs"):
        players = 6
    rules = GAMES[game]
    first_dealer = rng.randrange(players)
    played: list[dict[str, Any]] = []
    roster: list[dict[str, Any]] = []
    persons: list[str] = []
    sheet = rules.build_sheet(players, played, first_dealer=first_dealer, **opts)
    for _step in range(hands):
        for _change in range(rng.choice([0, 0, 0, 1, 1, 2])):
            change = random_change(rng, sheet, persons)
            try:
                preview = propose(rules, players, played, change, first_dealer=first_dealer,
                                  roster=roster, **opts)
            except RuleError:
                continue
            roster.append({**change, "after": len(played)})
            persons.append(change.get("person") or "")
            assert preview.sheet == rules.build_sheet(players, played, first_dealer=first_dealer,
                                                      roster=roster, **opts)
            sheet = preview.sheet
            check(sheet, not rules.lower_wins)
        if sheet.next is None:
            break
        hand = make(rng, sheet)
        try:
            whole = rules.build_sheet(players, [*played, hand], first_dealer=first_dealer,
                                      roster=roster, **opts)
        except RuleError:
            continue
        extended = rules.extend_sheet(sheet, [*played, hand], first_dealer=first_dealer,
                                      roster=roster, **opts)
        assert extended == whole
        played.append(hand)
        sheet = whole
        check(sheet, not rules.lower_wins)


@pytest.mark.parametrize("game", sorted(MATCHES))
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), hands=st.integers(1, 25), choice=st.integers(0, 3))
def test_random_matches_with_people_coming_and_going_keep_the_sheet_whole(
        game, seed, hands, choice):
    play(game, seed, hands, choice)


@pytest.mark.parametrize("game", sorted(MATCHES))
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32), changes=st.lists(st.fixed_dictionaries({
    "after": st.integers(0, 6), "kind": st.sampled_from(["join", "sit_out", "back", "substitute",
                                                         "leave"]),
    "seat": st.one_of(st.none(), st.integers(-1, 8)), "at": st.one_of(st.none(),
                                                                       st.integers(-1, 8)),
    "person": st.one_of(st.none(), st.sampled_from(["A", "B", 7]))}), max_size=6))
def test_any_roster_with_any_hands_is_scored_or_refused(game, seed, changes):
    """Changes made up at random (most of them illegal) with hands made for the table as it
    began: build_sheet gives a sheet or a RuleError, never anything else."""
    (low, high), options, make = MATCHES[game]
    rng = random.Random(seed)
    players = rng.randint(low, high)
    rules = GAMES[game]
    roster = sorted(({k: v for k, v in c.items() if v is not None or k == "seat"}
                     for c in changes), key=lambda c: c["after"])
    hands: list[dict[str, Any]] = []
    sheet = rules.build_sheet(players, hands)
    for _hand in range(6):
        if sheet.next is None:
            break
        hands.append(make(rng, sheet))
        try:
            sheet = rules.build_sheet(players, hands)
        except RuleError:
            hands.pop()
            break
    for count in range(len(hands) + 1):
        with contextlib.suppress(RuleError):
            rules.build_sheet(players, hands[:count], roster=roster)
