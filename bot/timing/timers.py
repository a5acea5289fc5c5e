"""One background task drives every timed event stored in the ``timers`` table.

It sleeps until the earliest due row (or until :meth:`Timers.wake` says a
nearer one was added), claims the due rows of its shards' servers, hands each
to the handler registered for its kind, and deletes it. Rows outlive restarts,
so nothing is forgotten.

With several processes on one database a row is *claimed* before it runs: the
claim is a lease (``LEASE`` seconds) that no other process takes over unless it
lapses (the claimant crashed mid-handler); only the claimant deletes the row.

So a handler may run again after a crash. Handlers make that harmless: database
changes are conditional, edits are idempotent, and every message a timer posts
carries :func:`nonce` with Discord's ``enforce_nonce`` (discord.py sends it with
any nonce): Discord keeps a nonce for "the past few minutes" and answers the
message already made, so a reminder posted just before a SIGKILL is not posted
twice. The rerun comes once the lease has lapsed *and* a process that runs the
timer's shard is up again (a lone process releases its dead predecessor's claims
as it starts): with a restart within a minute or so (systemd's ``Restart=``
takes seconds) that is inside Discord's memory; a process that stays down for
longer may post such a message a second time when it returns.

Another process's new timer may be earlier than the one this driver sleeps
for: on PostgreSQL a committed timer NOTIFYs every process (LISTEN), and the
driver also looks again every ``POLL`` seconds (a claim whose lease lapsed).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from .. import tasks
from ..shards import ShardPlan
from ..store import Store, TimerRow
from .clock import Clock

log = logging.getLogger(__name__)

Handler = Callable[[TimerRow], Awaitable[None]]

#: seconds a claimed timer stays with its claimant before another process may take it: long
#: enough for any handler, short enough that a prompt restart's rerun falls inside Discord's
#: nonce memory ("a few minutes")
LEASE = 60.0
#: seconds between looks at the table when other processes may add timers
POLL = 2.0


def nonce(timer: TimerRow, part: int = 0) -> str:
    """The nonce of the ``part``-th message a timer posts: the same on every run of that timer
    (ids are never reused), at most 25 characters as Discord requires.

    >>> nonce(TimerRow(id=9223372036854775807, due_at=0.0, kind="reminder", ref_id=1, payload=""), 1)
    't9223372036854775807.1'
    """
    return f"t{timer.id}.{part}"


class Timers:
    """The timer driver: register handlers, :meth:`start`, :meth:`schedule`, :meth:`stop`.

    ``shards``: only timers of these shards' servers are fired here (None: all of them).
    ``shared``: other processes use the same database (poll for their new timers).
    """

    def __init__(self, store: Store, clock: Clock, *, shards: ShardPlan | None = None, shared: bool = False) -> None:
        self.store = store
        self.clock = clock
        self.shards = shards
        self.shared = shared
        #: who claims timers: unique per process run, readable in the table
        self.owner = tasks.claimant()
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
        await tasks.stop(self._task)
        self._task = None

    async def run_due(self) -> int:
        """Claim and dispatch every row of ours due now; return how many ran."""
        count = 0
        for row in await self.store.claim_timers(self.clock.now(), self.owner, LEASE, self.shards):
            if not await self.store.timer_exists(row.id, self.owner):
                # Cancelled meanwhile (the challenge was accepted, a move re-armed the clock), or a
                # long batch outlived its lease and another process took the row over.
                continue
            handler = self._handlers.get(row.kind)
            if handler is None:
                log.warning("timer %d: no handler for kind %s", row.id, row.kind)
            else:
                try:
                    await handler(row)
                except Exception:
                    log.exception("timer %d (%s %d) failed", row.id, row.kind, row.ref_id)
                count += 1
            # Deleted only once handled, and only by its claimant: a crash while the handler ran
            # leaves the row to run again when the lease lapses (handlers ignore a timer that is
            # stale or already done).
            async with self.store.transaction():
                await self.store.delete_timer(row.id, self.owner)
        return count

    async def _run(self) -> None:
        if not self.shared:
            # The only process on this database: claims left in the table are a crashed run's.
            await self.store.release_timer_claims()
        else:
            try:
                # Another process's new timer wakes us at once; the poll stays for lapsed leases.
                await self.store.listen_timers(self.wake)
            except Exception:
                log.exception("cannot listen for other processes' timers; polling every %s s", POLL)
        while True:
            self._wake.clear()
            try:
                await self.run_due()
                # One reading of the clock for the query and the poll: a later reading could put
                # the next look past a lease that lapsed while the query ran.
                now = self.clock.now()
                nxt = await self.store.next_timer(self.shards, now)
            except Exception:
                log.exception("timer loop error; retrying in a minute")
                nxt = None
                await self.clock.wait_until(self.clock.now() + 60, self._wake)
                continue
            until = None if nxt is None else nxt.due_at
            if self.shared:
                soon = now + POLL
                until = soon if until is None else min(until, soon)
            await self.clock.wait_until(until, self._wake)
