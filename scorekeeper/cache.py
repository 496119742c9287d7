"""Small in-process caches keyed by a match's version: a new version is a new key.

Every change to a match bumps its version in the same transaction, so an entry can never
be stale; several workers each keep their own entries and share only the database.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from flask import current_app

SIZE = 512


class LRU:
    """A thread-safe least-recently-used map of at most ``size`` entries."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self.entries: OrderedDict[Hashable, Any] = OrderedDict()
        self.lock = threading.Lock()

    def peek(self, key: Hashable) -> Any:
        """The value for ``key``, or None; it is not made."""
        with self.lock:
            return self.entries.get(key)

    def put(self, key: Hashable, value: Any) -> None:
        """Store ``value`` for ``key``."""
        with self.lock:
            self.entries[key] = value
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value for ``key``, made (outside the lock) when missing."""
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
                return self.entries[key]
        value = make()
        with self.lock:
            self.entries[key] = value
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return value


def cache(name: str, size: int = SIZE) -> LRU:
    """The app's cache called ``name`` (of ``size`` entries when it is made)."""
    caches = current_app.extensions.setdefault("scorekeeper.caches", {})
    if name not in caches:
        caches[name] = LRU(size)
    return caches[name]
