"""Small in-process caches of frozen values, keyed by what they were computed from.

The database is the truth. A cache only saves a worker from computing again what it
computed from the same stored data: every key carries the version of what the value was made
from (a match's version, a table's, a tournament's), and every change to those bumps the
version in the same transaction, so an entry can never be stale, only unused. Several
workers each keep their own entries and share only the database.

A value is frozen before it is kept (:func:`frozen`): no caller can change what a later
request of the worker will read, and one that tries fails at once instead of making the
worker's memory disagree with the database. Nothing kept is an ORM object.

Each cache holds at most a number of bytes (estimated), not of entries, through
``cachetools``' LRU. With the setting ``CACHES`` off (``SCOREKEEPER_CACHES=off``) nothing is
kept at all: every value is made again at every use, and the test suite runs once so.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
import threading
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from cachetools import LRUCache
from flask import current_app

from ..frozen import FrozenDict, FrozenList, frozen, thawed

__all__ = ["Cache", "FrozenDict", "FrozenList", "cache", "carry_forward", "frozen", "thawed",
           "weigh"]

BUDGET = 4 * 1024 * 1024  # bytes a cache may hold, unless its app config says otherwise
_MISSING = object()


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


class Cache:
    """A thread-safe least-recently-used map of frozen values holding at most ``budget``
    bytes (``weight`` estimates a value's); a budget of 0 keeps nothing."""

    def __init__(self, budget: int = BUDGET, weight: Callable[[Any], int] = weigh) -> None:
        self.budget = budget
        self.entries: LRUCache = LRUCache(maxsize=max(budget, 1), getsizeof=weight)
        self.lock = threading.Lock()

    @property
    def used(self) -> int:
        """The bytes held now, as the weights estimate them."""
        return int(self.entries.currsize)

    def peek(self, key: Hashable) -> Any:
        """The value for ``key``, or None; it is not made."""
        with self.lock:
            return self.entries.get(key)

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value for ``key``, made (outside the lock) and kept when missing."""
        with self.lock:
            value = self.entries.get(key, _MISSING)
        if value is not _MISSING:
            return value
        return self.put(key, make())

    def put(self, key: Hashable, value: Any) -> Any:
        """Keep ``value`` frozen under ``key``, forgetting the least recently used beyond the
        budget, and return the frozen value. A value larger than the whole budget is not
        kept (nor is any with a budget of 0)."""
        value = frozen(value)
        if self.budget <= 0:
            return value
        with self.lock:
            self.entries.pop(key, None)
            with contextlib.suppress(ValueError):  # larger than the whole budget
                self.entries[key] = value
        return value

    def carry(self, old: Hashable, new: Hashable) -> None:
        """Keep under ``new`` what ``old`` holds, if anything."""
        value = self.peek(old)
        if value is not None:
            self.put(new, value)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


def cache(name: str, weight: Callable[[Any], int] = weigh, *, hands_keep: bool = False) -> Cache:
    """The app's cache called ``name``, its budget from ``CACHE_BUDGETS`` in the config (0
    when the setting ``CACHES`` is off); ``weight`` estimates the bytes of a value (walking
    it whole by default). ``hands_keep``: a cache by match and version whose values a change
    of a hand leaves as they were (see :func:`carry_forward`)."""
    caches = current_app.extensions.setdefault("scorekeeper.caches", {})
    if name not in caches:
        budgets = current_app.config.get("CACHE_BUDGETS", {})
        budget = budgets.get(name, BUDGET) if current_app.config.get("CACHES", True) else 0
        caches[name] = Cache(budget, weight)
        if hands_keep:
            current_app.extensions.setdefault("scorekeeper.hands_keep", []).append(caches[name])
    return caches[name]


def carry_forward(match_id: str, old: int, new: int) -> None:
    """After a change of a hand took match ``match_id`` from version ``old`` to ``new``: the
    caches that such a change leaves as they were keep their entry for the new version."""
    for kept in current_app.extensions.get("scorekeeper.hands_keep", ()):
        kept.carry((match_id, old), (match_id, new))
