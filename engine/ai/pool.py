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
  time (requests beyond that wait for a free worker). A request whose deadline passed
  while it waited searches nothing: the worker answers at once with its quick move.
- Fair share: requests wait in one queue per *owner* (the bot passes the human
  player's id), and a free worker takes the oldest request of the waiting owner it
  served longest ago (round robin), so one user with many games against the
  computer delays another user's game by at most one search per worker, however
  many games they start.
- Background work (:meth:`AIPool.when_idle`, a game's review position by position): one
  job at a time, started only when no search waits and, with several workers, one more
  worker than it takes is free; so a move finds a free worker unless two think at once,
  and then waits at most for the one job in progress (keep jobs short).
- Healing: a worker that dies (the OOM killer, a crash in compiled code) breaks a
  ``ProcessPoolExecutor`` for good: every later submission raises
  ``BrokenProcessPool``. The pool then starts a new executor, logs a warning, and
  re-runs the searches that were lost (each at most :data:`RETRIES` times, so a
  position that kills its worker every time fails instead of looping).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Sequence, TypeVar

from ..position import GameOptions
from .levels import level

log = logging.getLogger(__name__)

T = TypeVar("T")

#: how many times a search lost with its worker is run again before its caller gets the error
RETRIES = 2


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
    load the search (engine.ai, and with it numba's compiled H-search, tree and playouts) and the
    Hex opening book and priors' weights, package data read on first use: the first move of a game
    then pays for none of it."""
    _watch_parent(parent)
    if warm:
        from . import choose  # noqa: F401
        from .hex import ai, book, patterns, vc  # noqa: F401

        book.entries()
        patterns.weights()


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


@dataclass(eq=False)
class _Request:
    """A search waiting for a worker, or running in one."""

    args: tuple[Any, ...]
    owner: Hashable
    future: asyncio.Future[str]
    #: how many times it was lost with a dead worker
    lost: int = 0
    #: the executor generation it runs in (None while it waits)
    generation: int | None = field(default=None)


class AIPool:
    """A process pool answering :func:`engine.ai.choose` without blocking the event loop.

    Use as a context manager or call :meth:`close`. ``workers`` is the most searches
    that run at once (see the module docstring for how to size it). ``warm``: start every
    worker now and have it load the search (see the module docstring). Requests are
    served round robin between owners, and a dead worker is replaced (module docstring).
    """

    def __init__(self, workers: int = 2, warm: bool = False) -> None:
        if workers < 1:
            raise ValueError("an AI pool needs at least one worker")
        self.workers = workers
        self.warm = warm
        #: how many times a dead worker made the pool start a new executor
        self.restarts = 0
        self._generation = 0
        self._executor = self._new_executor()
        # Each submission starts a worker while none is idle, so these start them all.
        #: the warm-up submissions (``warm``), done once a worker has loaded the search (result: its pid)
        self.warming: list[Future[int]] = self._warm_up()
        #: waiting requests, one queue per owner (in the order the owners began to wait)
        self._queues: dict[Hashable, deque[_Request]] = {}
        #: when each owner with a search waiting or running was last served (a dispatch count)
        self._served: dict[Hashable, int] = {}
        self._dispatched = 0
        self._running: set[_Request] = set()
        self._closed = False
        #: background jobs waiting (see :meth:`when_idle`), and whether one is in a worker now
        self._idle_jobs: deque[tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any]]] = deque()
        self._idle_busy = False

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker,
            initargs=(os.getpid(), self.warm),
        )

    def _warm_up(self) -> list[Future[int]]:
        return [self._executor.submit(_warm) for _ in range(self.workers)] if self.warm else []

    @property
    def running(self) -> int:
        """How many searches are in the workers now (a background job not counted)."""
        return len(self._running)

    @property
    def waiting(self) -> int:
        """How many searches wait for a worker."""
        return sum(len(q) for q in self._queues.values())

    def pids(self) -> list[int]:
        """The worker processes' ids (those started so far)."""
        # ProcessPoolExecutor keeps its processes in a private mapping; nothing public lists them.
        processes = getattr(self._executor, "_processes", None) or {}
        return sorted(processes)

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
        owner: Hashable = None,
    ) -> str:
        """The AI's action line for the position after ``actions`` (see :func:`engine.ai.choose`).

        With ``iterations`` the search is a fixed size (deterministic with ``seed``) and
        has no deadline; otherwise it ends ``budget`` (default: the level's) seconds
        after this call, however long it waited for a worker. ``owner``: whose request it
        is, for the round robin between owners (None: one shared owner).
        """
        if self._closed:
            raise RuntimeError("the AI pool is closed")
        lvl = level(level_name)
        deadline = None if iterations is not None else time.time() + (lvl.budget if budget is None else budget)
        loop = asyncio.get_running_loop()
        request = _Request((options, list(actions), level_name, seed, player, iterations, deadline), owner,
                           loop.create_future())
        self._enqueue(request)
        self._dispatch()
        try:
            return await asyncio.shield(request.future)
        except asyncio.CancelledError:
            # The caller gave up: a waiting request leaves its queue (a running one cannot be stopped).
            self._withdraw(request)
            raise

    async def when_idle(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, behind every search: it starts only when no search waits and a
        worker is free besides the one kept for moves (see the module docstring), one such job at a
        time, so a move waits at most for the job in progress.
        ``fn`` and ``args`` must be picklable (a module-level function). A job lost with a dead
        worker raises BrokenProcessPool (the caller may run it again)."""
        if self._closed:
            raise RuntimeError("the AI pool is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._idle_jobs.append((fn, args, future))
        self._dispatch()
        return await future

    def _dispatch_idle(self) -> None:
        """Start the next background job if nothing else wants a worker (see :meth:`when_idle`)."""
        # With several workers one is kept for moves (a move never waits behind a background job
        # unless two moves think at once); a lone worker is shared, a move then waiting for one job.
        while (not self._closed and self._idle_jobs and not self._idle_busy and not self._queues
               and len(self._running) < max(1, self.workers - 1)):
            fn, args, future = self._idle_jobs.popleft()
            if future.done():
                continue
            try:
                submitted = self._executor.submit(fn, *args)
            except BrokenProcessPool as exc:
                future.set_exception(exc)
                continue
            self._idle_busy = True
            asyncio.wrap_future(submitted).add_done_callback(functools.partial(self._idle_done, future))

    def _idle_done(self, future: asyncio.Future[Any], done: asyncio.Future[Any]) -> None:
        """A background job ended: pass its answer on, then give the worker to whoever waits."""
        self._idle_busy = False
        if not future.done():
            if done.cancelled():
                future.cancel()
            elif done.exception() is not None:
                future.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                future.set_result(done.result())
        self._dispatch()

    def _enqueue(self, request: _Request, first: bool = False) -> None:
        queue = self._queues.setdefault(request.owner, deque())
        if first:
            queue.appendleft(request)
        else:
            queue.append(request)

    def _withdraw(self, request: _Request) -> None:
        queue = self._queues.get(request.owner)
        if queue is not None and request in queue:
            queue.remove(request)
            if not queue:
                del self._queues[request.owner]
            self._forget_idle(request.owner)

    def _next(self) -> _Request:
        """The oldest request of the waiting owner served longest ago (never, first; ties: who waited first)."""
        owner = min(self._queues, key=lambda o: self._served.get(o, -1))
        queue = self._queues[owner]
        request = queue.popleft()
        if not queue:
            del self._queues[owner]
        self._served[owner] = self._dispatched
        self._dispatched += 1
        return request

    def _forget_idle(self, owner: Hashable) -> None:
        """Drop an owner's turn record once nothing of theirs waits or runs (the record stays small)."""
        if owner not in self._queues and all(r.owner != owner for r in self._running):
            self._served.pop(owner, None)

    def _dispatch(self) -> None:
        """Start waiting requests while a worker is free."""
        while not self._closed and self._queues and len(self._running) < self.workers:
            request = self._next()
            if request.future.done():
                self._forget_idle(request.owner)
                continue
            request.generation = self._generation
            self._running.add(request)
            try:
                submitted = self._executor.submit(_work, *request.args)
            except BrokenProcessPool as exc:
                self._running.discard(request)
                self._lost(request, exc)
                continue
            asyncio.wrap_future(submitted).add_done_callback(functools.partial(self._finished, request))
        self._dispatch_idle()

    def _finished(self, request: _Request, done: asyncio.Future[str]) -> None:
        """A worker's answer (or failure) for ``request``: pass it on, or re-run a search a dead worker lost."""
        self._running.discard(request)
        self._forget_idle(request.owner)
        if done.cancelled():
            if not request.future.done():
                request.future.cancel()
        elif isinstance(done.exception(), BrokenProcessPool):
            self._lost(request, done.exception())
        elif not request.future.done():
            exc = done.exception()
            if exc is not None:
                request.future.set_exception(exc)
            else:
                request.future.set_result(done.result())
        self._dispatch()

    def _lost(self, request: _Request, exc: BaseException | None) -> None:
        """``request`` was lost with a dead worker: start a new executor (once per death) and run it again."""
        if self._closed:
            if not request.future.done():
                request.future.set_exception(RuntimeError("the AI pool is closed"))
            return
        if request.generation == self._generation:
            self._restart()
        request.lost += 1
        if request.lost > RETRIES:
            log.error("AI pool: a search was lost with its worker %d times; giving up on it", request.lost)
            if not request.future.done():
                request.future.set_exception(exc or BrokenProcessPool("the AI's worker process died"))
            return
        log.warning("AI pool: re-running a search lost with its worker (attempt %d of %d)", request.lost + 1,
                    RETRIES + 1)
        request.generation = None
        self._enqueue(request, first=True)

    def _restart(self) -> None:
        """Replace the broken executor (a worker process died) with a new one."""
        self.restarts += 1
        self._generation += 1
        broken = self._executor
        self._executor = self._new_executor()
        self.warming = self._warm_up()
        broken.shutdown(wait=False, cancel_futures=True)
        log.warning("AI pool: a worker process died; started new workers (restart %d)", self.restarts)

    def close(self, wait: bool = True) -> None:
        """Stop the workers (pending requests are cancelled); ``wait=False`` returns at once."""
        self._closed = True
        for queue in self._queues.values():
            for request in queue:
                request.future.cancel()
        self._queues.clear()
        for _, _, future in self._idle_jobs:
            future.cancel()
        self._idle_jobs.clear()
        self._executor.shutdown(wait=wait, cancel_futures=True)

    def __enter__(self) -> "AIPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
