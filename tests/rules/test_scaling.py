"""A sheet costs no more than its match: building it grows linearly with the hands.

The cost is counted, not timed: the lines of ``scorekeeper.rules`` that run, through
``sys.monitoring``, so the count is the same on any machine and under any load. A loop
over all earlier hands inside the loop over hands (quadratic) makes ten times the hands
cost a hundred times the lines; linear code stays near ten. The times themselves are
in ``make bench``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import rules
from scorekeeper.rules import GAMES, navawhist

RULES = str(Path(rules.__file__).parent)
TOOL = 3  # a sys.monitoring tool id that coverage and debuggers do not use
LIMIT = 12  # ten times the hands may cost at most twelve times the lines


def cost(call: Callable[[], Any]) -> int:
    """The lines of scorekeeper.rules that ``call()`` runs."""
    lines = 0
    monitoring = sys.monitoring

    def line(code, _number: int):
        nonlocal lines
        if code.co_filename.startswith(RULES):
            lines += 1
            return None
        return monitoring.DISABLE

    monitoring.use_tool_id(TOOL, "scaling test")
    try:
        monitoring.register_callback(TOOL, monitoring.events.LINE, line)
        monitoring.restart_events()
        monitoring.set_events(TOOL, monitoring.events.LINE)
        call()
    finally:
        monitoring.set_events(TOOL, 0)
        monitoring.register_callback(TOOL, monitoring.events.LINE, None)
        monitoring.free_tool_id(TOOL)
    return lines


def quarantotto(n: int) -> tuple[int, list[dict], dict]:
    return 6, [{"closer": i % 6, "points": [None if s == i % 6 else 2 + (s + i) % 20
                                            for s in range(6)]} for i in range(n)], {
        "length": "target", "target": 100_000}


def cavallore(n: int) -> tuple[int, list[dict], dict]:
    return 2, [{"placed": (i * 7) % 37, "seat": i % 2} for i in range(n)], {}


def scala40(n: int) -> tuple[int, list[dict], dict]:
    return 4, [{"closer": i % 4, "points": [None if s == i % 4 else 5 for s in range(4)]}
               for i in range(n)], {"end": "deals", "deals": 100}


def navawhist_hands(n: int) -> tuple[int, list[dict], dict]:
    players = 10
    hands = []
    for index, cards in enumerate(navawhist.deal_schedule(players)[:n]):
        order = navawhist.bidding_order(players, index % players)
        bids = [0] * players
        forbidden = navawhist.forbidden_bid(cards, [0] * (players - 1))
        bids[order[-1]] = 1 if forbidden == 0 else 0
        hands.append({"bids": bids, "tricks": [cards] + [0] * (players - 1)})
    return players, hands, {}


@pytest.mark.parametrize(("game", "make", "small", "large"), [
    ("quarantotto", quarantotto, 80, 800),
    ("cavallore", cavallore, 80, 800),
    ("scala40", scala40, 10, 100),  # a match of fixed deals has at most 100
    ("navawhist", navawhist_hands, 2, 20),  # the schedule of ten players has 20 hands
])
def test_ten_times_the_hands_cost_at_most_twelve_times_the_lines(game, make, small, large):
    def build(n: int) -> Callable[[], Any]:
        players, hands, options = make(n)
        assert len(hands) == n
        return lambda: GAMES[game].build_sheet(players, hands, **options)

    build(large)()  # the hands are legal: the sheet is built without a RuleError
    ratio = cost(build(large)) / cost(build(small))
    assert ratio <= LIMIT, f"{game}: {ratio:.1f}x the lines for 10x the hands"


def test_the_count_sees_a_quadratic_loop():
    def quadratic(n: int) -> Callable[[], Any]:
        hands = quarantotto(n)[1]
        return lambda: [rules.core.running_totals([[1]] * i, 1) for i in range(len(hands))]

    assert cost(quadratic(800)) / cost(quadratic(80)) > 50
