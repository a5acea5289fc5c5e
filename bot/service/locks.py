"""Per-key locks that disappear once nobody holds or awaits them."""

from __future__ import annotations

import asyncio
from weakref import WeakValueDictionary


class KeyLocks:
    """One :class:`asyncio.Lock` per key (a game, a challenge, a channel).

    The table holds its locks weakly: a lock lives while a task holds it or waits
    for it (their ``async with`` keeps a reference), so the table never grows with
    every game ever played.
    """

    def __init__(self) -> None:
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    def lock(self, key: int) -> asyncio.Lock:
        """The lock for ``key`` (the same object for as long as anyone uses it)."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def __len__(self) -> int:
        return len(self._locks)
