"""One background task drives every timed event stored in the ``timers`` table.

It sleeps until the earliest due row (or until :meth:`Timers.wake` says a
nearer one was added), hands each due row to the handler registered for its
kind, and deletes it. Rows outlive restarts, so nothing is forgotten.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from .clock import Clock
from .store import Store, TimerRow

log = logging.getLogger(__name__)

Handler = Callable[[TimerRow], Awaitable[None]]


class Timers:
    """The timer driver: register handlers, :meth:`start`, :meth:`schedule`, :meth:`stop`."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self._handlers: dict[str, Handler] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None

    def on(self, kind: str, handler: Handler) -> None:
        """Call ``handler(row)`` for due rows of ``kind``."""
        self._handlers[kind] = handler

    async def schedule(self, due_at: float, kind: str, ref_id: int) -> None:
        """Wake the driver because a row (already stored) may now be the earliest."""
        self.wake()

    def wake(self) -> None:
        """Make the driver look at the table again now."""
        self._wake.set()

    def start(self) -> None:
        """Start the background task."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="timers")

    async def stop(self) -> None:
        """Stop the background task."""
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    async def run_due(self) -> int:
        """Dispatch every row due now; return how many ran."""
        count = 0
        for row in await self.store.due_timers(self.clock.now()):
            if not await self.store.timer_exists(row.id):
                continue  # cancelled meanwhile (e.g. the challenge was accepted, or a move re-armed the clock)
            handler = self._handlers.get(row.kind)
            if handler is None:
                log.warning("timer %d: no handler for kind %s", row.id, row.kind)
            else:
                try:
                    await handler(row)
                except Exception:
                    log.exception("timer %d (%s %d) failed", row.id, row.kind, row.ref_id)
                count += 1
            # Deleted only once handled: a crash while the handler ran leaves the row to run
            # again after the restart (handlers ignore a timer that is stale or already done).
            async with self.store.transaction():
                await self.store.delete_timer(row.id)
        return count

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.run_due()
                nxt = await self.store.next_timer()
            except Exception:
                log.exception("timer loop error; retrying in a minute")
                nxt = None
                await self.clock.wait_until(self.clock.now() + 60, self._wake)
                continue
            await self.clock.wait_until(None if nxt is None else nxt.due_at, self._wake)
