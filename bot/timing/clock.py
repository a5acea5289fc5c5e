"""Time for the bot, injectable so tests control it (no sleeping in tests)."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """Tells the time and waits until a time or an earlier wake-up."""

    def now(self) -> float:
        """Seconds since the epoch."""

    async def wait_until(self, when: float | None, wake: asyncio.Event) -> None:
        """Return at ``when`` (never if None) or as soon as ``wake`` is set."""


class SystemClock:
    """The real clock."""

    def now(self) -> float:
        """Seconds since the epoch."""
        return time.time()

    async def wait_until(self, when: float | None, wake: asyncio.Event) -> None:
        """Sleep until ``when`` or until woken."""
        timeout = None if when is None else max(0.0, when - time.time())
        try:
            await asyncio.wait_for(wake.wait(), timeout)
        except asyncio.TimeoutError:
            pass
