"""The in-process caches hold a bounded number of bytes, whatever the entries' sizes."""

from __future__ import annotations

from scorekeeper.engine.cache import LRU, weigh
from scorekeeper.rules import GAMES


def test_a_cache_forgets_the_least_recently_used_beyond_its_budget():
    lru = LRU(budget=10_000)
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
    lru = LRU(budget=100_000)
    lru.put("a", "x" * 5000)
    lru.put("a", "x" * 1000)
    assert lru.used == weigh("x" * 1000)
    lru.clear()
    assert lru.used == 0 and not lru.entries
