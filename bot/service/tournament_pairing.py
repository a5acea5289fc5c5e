"""Pairing a tournament round in a worker process, bounded in time, so the event loop never waits on it.

Why not a thread: the matching behind a Swiss (networkx's ``max_weight_matching``) is pure Python
and holds the GIL, which Python hands back to the event loop only every switch interval.
``bench/tournament_lag.py`` measured it on the project's shared two-core machine: while a
200-player Swiss was paired in a thread, every wake-up of the loop was late by a switch interval
(p50 5 ms, against 0.1 ms with no pairing), p99 11–23 ms, and the worst by 139 and 172 ms in two
runs (17 ms in a quieter one), against a 4–9 ms worst with no pairing in the same runs: members
would feel it. In a process the loop only sends the tournament (about 10 kB pickled) and reads
the round back: p50 0.1 ms, p99 0.5 ms, worst 4.4 ms against a 4.0 ms baseline.

- One worker per bot process, started with the first pairing and kept for the next ones (rounds
  are rare; a second pairing at the same moment waits its turn). Started with ``spawn``, never
  ``fork``: the bot runs threads (see :mod:`engine.ai.pool`).
- Bounded: a pairing that has not come back within :data:`PAIRING_SECONDS` (the wait for the worker
  included) has its worker terminated, so a runaway never holds it, and raises
  :class:`PairingFailed`; so does a worker that died. The next pairing starts a new worker.
- A worker exits by itself once the bot process is gone (a kill -9 cannot shut it down).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..tournaments import Round, Tournament, next_round

log = logging.getLogger(__name__)

#: the longest a pairing may take (a 200-player Swiss takes about 2 s of one core; 256 is the most players)
PAIRING_SECONDS = 60.0


class PairingFailed(Exception):
    """The round could not be paired now: the worker took too long or died (try again later)."""


_executor: ProcessPoolExecutor | None = None


def _watch_parent(parent: int) -> None:
    """Worker side, at its start: exit once the process that started it is gone."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _pool() -> ProcessPoolExecutor:
    """This process's pairing worker (started on first use)."""
    global _executor
    if _executor is None:
        _executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_watch_parent, initargs=(os.getpid(),))
    return _executor


def worker_pids() -> list[int]:
    """The pairing worker's process id, once it runs (none before the first pairing)."""
    # ProcessPoolExecutor keeps its processes in a private mapping; nothing public lists them.
    return sorted(getattr(_executor, "_processes", None) or {})


def _stop(executor: ProcessPoolExecutor) -> None:
    """Terminate a worker that took too long or died, and forget it (the next pairing starts another)."""
    global _executor
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        process.terminate()
    executor.shutdown(wait=False, cancel_futures=True)
    if _executor is executor:
        _executor = None


async def paired(t: Tournament, timeout: float = PAIRING_SECONDS) -> Round:
    """:func:`bot.tournaments.next_round` of ``t``, computed in the worker; :class:`PairingFailed` when it
    does not come back within ``timeout`` seconds or the worker died."""
    executor = _pool()
    try:
        return await asyncio.wait_for(asyncio.wrap_future(executor.submit(next_round, t)), timeout)
    except (TimeoutError, BrokenProcessPool) as exc:
        _stop(executor)
        raise PairingFailed(f"round {len(t.rounds) + 1}: {type(exc).__name__}") from exc

