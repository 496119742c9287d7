"""The in-process caches hold a bounded number of bytes of frozen values, whatever the
entries' sizes, and nothing at all with the caches off."""

from __future__ import annotations

import copy
import json

import pytest

from scorekeeper.engine.cache import Cache, frozen, thawed, weigh
from scorekeeper.rules import GAMES


def test_a_cache_forgets_the_least_recently_used_beyond_its_budget():
    lru = Cache(budget=10_000)
    for key in range(100):
        lru.put(key, "x" * 1000)
    assert lru.used <= 10_000 and len(lru.entries) < 10
    assert list(lru.entries)[-1] == 99 and 0 not in lru.entries
    assert lru.get(99, lambda: "made again") == "x" * 1000
    lru.put("huge", "y" * 20_000)  # larger than the whole budget: not kept
    assert "huge" not in lru.entries and 99 in lru.entries


def test_a_large_sheet_weighs_more_than_a_small_one():
    def sheet(games: int):
        hands = [{"closer": 0, "points": [None, 5, 6, 7]} for _ in range(games)]
        return GAMES["quarantotto"].build_sheet(4, hands, length="target", target=100_000)

    small, large = weigh(sheet(10)), weigh(sheet(100))
    assert 5 * small < large < 20 * small


def test_replacing_an_entry_keeps_the_count_of_bytes_right():
    lru = Cache(budget=100_000)
    lru.put("a", "x" * 5000)
    lru.put("a", "x" * 1000)
    assert lru.used == weigh("x" * 1000)
    lru.clear()
    assert lru.used == 0 and not lru.entries


def test_a_kept_value_cannot_be_changed_by_whoever_reads_it():
    lru = Cache()
    hands = [{"bids": [1, 2], "tricks": [0, 3]}]
    kept = lru.get("match", lambda: hands)
    hands[0]["bids"].append(9)  # the caller's own list is not what is kept
    assert lru.peek("match") == [{"bids": [1, 2], "tricks": [0, 3]}]
    for change in (lambda: kept.append({}), lambda: kept[0].update(bids=[]),
                   lambda: kept[0]["bids"].append(3), lambda: kept[0].pop("bids"),
                   lambda: kept[0].__setitem__("x", 1), lambda: kept.sort()):
        with pytest.raises(TypeError, match="cannot be changed"):
            change()
    # What a caller may change is a copy; the frozen values still read as plain data.
    mine = thawed(kept)
    mine[0]["bids"].append(3)
    assert copy.deepcopy(kept)[0]["bids"] == [1, 2] and isinstance(kept[0], dict)
    assert json.loads(json.dumps(kept)) == [{"bids": [1, 2], "tricks": [0, 3]}]
    # A sheet built from frozen inputs is frozen through and through.
    sheet = frozen(GAMES["navawhist"].build_sheet(
        3, frozen([{"bids": [1, 1, 1], "tricks": [0, 1, 0]}])))
    with pytest.raises(TypeError):
        sheet.rows[0].inputs["bids"][0] = 5


def test_with_a_budget_of_nothing_nothing_is_kept():
    lru = Cache(budget=0)
    made = []
    for _ in range(3):
        assert lru.get("key", lambda: made.append(1) or ["value"]) == ["value"]
    assert len(made) == 3 and lru.peek("key") is None and lru.used == 0
