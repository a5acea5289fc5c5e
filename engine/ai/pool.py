"""Run AI searches in worker processes, so an asyncio event loop never waits on one.

Example (in a coroutine)::

    pool = AIPool(workers=2)
    line = await pool.choose(options, actions, "hard", seed=42)
    position.play(line)

Design:

- The worker gets the game's *record* (options and action list, both small and
  picklable) and replays it; a position object never crosses the process boundary.
- Workers are started with the ``spawn`` method, never ``fork``: the bot process
  runs threads (the render pool, aiosqlite's connection thread, asyncio's default
  executor), and forking a threaded process can copy a lock that another thread
  holds into the child, which then deadlocks. ``spawn`` starts a clean
  interpreter (about 0.2 s once per worker, paid by its first request).
  Processes start on demand, up to ``workers``; with ``warm=True`` all of them start
  at once and load the search (about a second: numba's cache of its compiled inner loops,
  the Hex H-search, playouts and tree; on a fresh install numba compiles them first, some
  15 s), so that no request waits for
  that and then finds its deadline spent.
- A worker exits by itself once the process that started it is gone (a killed bot
  cannot shut its pool down; see :func:`_watch_parent`).
- Every request carries a wall-clock deadline set when it is submitted (now +
  the level's budget). The search stops at the deadline even when the request had
  to wait for a worker, so an answer comes within the budget plus the replay and
  pickling overhead (well under 1 s) as long as no more than ``workers`` searches
  run at once. Searches sharing a core each get fewer iterations but keep their
  deadline; size ``workers`` to the number of AI games that may think at the same
  time (requests beyond that wait for a free worker).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Sequence

from ..position import GameOptions
from .levels import level


def _work(
    options: GameOptions, actions: Sequence[str], level_name: str, seed: int | None,
    player: str | None, iterations: int | None, deadline: float | None,
) -> str:
    """Worker side: rebuild the position from its record and search it."""
    from ..record import Record
    from . import choose

    position = Record(options, list(actions)).replay()
    return choose(position, level_name, seed=seed, player=player, iterations=iterations, deadline=deadline)


def _warm() -> int:
    """Worker side: nothing to do (a warm pool's worker loaded the search as it started); its pid."""
    return os.getpid()


def _start_worker(parent: int, warm: bool) -> None:
    """Worker side, at its start: watch the parent (see :func:`_watch_parent`) and, in a warm pool,
    load the search (engine.ai, and with it numba's compiled H-search, tree and playouts)."""
    _watch_parent(parent)
    if warm:
        from . import choose, hex_ai, hex_vc  # noqa: F401


def _watch_parent(parent: int) -> None:
    """Exit this worker once the process that started it is gone.

    A killed bot (SIGKILL, or SIGTERM, which it does not catch) cannot shut its pool
    down, and a pool worker never notices on its own: it waits on a queue whose other
    end it holds itself. Without this it would live on as an orphan.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class AIPool:
    """A process pool answering :func:`engine.ai.choose` without blocking the event loop.

    Use as a context manager or call :meth:`close`. ``workers`` is the most searches
    that run at once (see the module docstring for how to size it). ``warm``: start every
    worker now and have it load the search (see the module docstring).
    """

    def __init__(self, workers: int = 2, warm: bool = False) -> None:
        if workers < 1:
            raise ValueError("an AI pool needs at least one worker")
        self.workers = workers
        self._executor = ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker,
            initargs=(os.getpid(), warm),
        )
        # Each submission starts a worker while none is idle, so these start them all.
        #: the warm-up submissions (``warm``), done once a worker has loaded the search (result: its pid)
        self.warming: list[Future[int]] = [self._executor.submit(_warm) for _ in range(workers)] if warm else []

    async def choose(
        self,
        options: GameOptions,
        actions: Sequence[str],
        level_name: str = "medium",
        seed: int | None = None,
        *,
        player: str | None = None,
        iterations: int | None = None,
        budget: float | None = None,
    ) -> str:
        """The AI's action line for the position after ``actions`` (see :func:`engine.ai.choose`).

        With ``iterations`` the search is a fixed size (deterministic with ``seed``) and
        has no deadline; otherwise it ends ``budget`` (default: the level's) seconds
        after this call, however long it waited for a worker.
        """
        lvl = level(level_name)
        deadline = None if iterations is not None else time.time() + (lvl.budget if budget is None else budget)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor, _work, options, list(actions), level_name, seed, player, iterations, deadline
        )

    def close(self, wait: bool = True) -> None:
        """Stop the workers (pending requests are cancelled); ``wait=False`` returns at once."""
        self._executor.shutdown(wait=wait, cancel_futures=True)

    def __enter__(self) -> "AIPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
