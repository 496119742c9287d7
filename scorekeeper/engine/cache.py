"""Small in-process caches keyed by a match's version: a new version is a new key.

Every change to a match bumps its version in the same transaction, so an entry can never
be stale; several workers each keep their own entries and share only the database. Each
cache holds at most a number of bytes (estimated), not of entries: a worker's memory stays
bounded however large the sheets.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from flask import current_app

BUDGET = 4 * 1024 * 1024  # bytes a cache may hold, unless its app config says otherwise


def weigh(value: Any) -> int:
    """The bytes ``value`` holds, roughly: text and bytes by their length; a value that says
    its own weight (``weight()``, as a cached page does) by that; anything else by its own
    size and that of what it contains, walked once.

    >>> weigh("a" * 1000) >= 1000, weigh(("x" * 100, [1, 2])) > weigh("x" * 100)
    (True, True)
    """
    if isinstance(value, str | bytes):
        return sys.getsizeof(value)
    if hasattr(value, "weight"):
        return value.weight()
    seen: set[int] = set()
    total = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, str | bytes | int | float | bool | None):
            continue
        if isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, tuple | list | set | frozenset):
            stack.extend(item)
        elif dataclasses.is_dataclass(item):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
    return total


class LRU:
    """A thread-safe least-recently-used map holding at most ``budget`` bytes."""

    def __init__(self, budget: int = BUDGET, weight: Callable[[Any], int] = weigh) -> None:
        self.budget = budget
        self.weight = weight
        self.used = 0
        self.entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.lock = threading.Lock()

    def peek(self, key: Hashable) -> Any:
        """The value for ``key``, or None; it is not made."""
        with self.lock:
            entry = self.entries.get(key)
        return None if entry is None else entry[0]

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value for ``key``, made (outside the lock) when missing."""
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
                return self.entries[key][0]
        value = make()
        self.put(key, value)
        return value

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` under ``key``, forgetting the least recently used beyond the budget.
        A value larger than the whole budget is not kept."""
        size = self.weight(value)
        with self.lock:
            if key in self.entries:
                self.used -= self.entries.pop(key)[1]
            if size > self.budget:
                return
            self.entries[key] = (value, size)
            self.used += size
            while self.used > self.budget:
                self.used -= self.entries.popitem(last=False)[1][1]

    def carry(self, old: Hashable, new: Hashable) -> None:
        """Keep under ``new`` what ``old`` holds, if anything."""
        with self.lock:
            entry = self.entries.get(old)
        if entry is not None:
            self.put(new, entry[0])

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.used = 0


def cache(name: str, weight: Callable[[Any], int] = weigh, *, hands_keep: bool = False) -> LRU:
    """The app's cache called ``name``, its budget from ``CACHE_BUDGETS`` in the config;
    ``weight`` estimates the bytes of a value (walking it whole by default). ``hands_keep``:
    a cache by match and version whose values a change of a hand leaves as they were (see
    :func:`carry_forward`)."""
    caches = current_app.extensions.setdefault("scorekeeper.caches", {})
    if name not in caches:
        budgets = current_app.config.get("CACHE_BUDGETS", {})
        caches[name] = LRU(budgets.get(name, BUDGET), weight)
        if hands_keep:
            current_app.extensions.setdefault("scorekeeper.hands_keep", []).append(caches[name])
    return caches[name]


def carry_forward(match_id: str, old: int, new: int) -> None:
    """After a change of a hand took match ``match_id`` from version ``old`` to ``new``: the
    caches that such a change leaves as they were keep their entry for the new version."""
    for kept in current_app.extensions.get("scorekeeper.hands_keep", ()):
        kept.carry((match_id, old), (match_id, new))
