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
  Processes start on demand, up to ``workers``.
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
import time
from concurrent.futures import ProcessPoolExecutor
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


class AIPool:
    """A process pool answering :func:`engine.ai.choose` without blocking the event loop.

    Use as a context manager or call :meth:`close`. ``workers`` is the most searches
    that run at once (see the module docstring for how to size it).
    """

    def __init__(self, workers: int = 2) -> None:
        if workers < 1:
            raise ValueError("an AI pool needs at least one worker")
        self.workers = workers
        self._executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))

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
