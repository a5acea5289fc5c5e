"""The bot's side of the AI: searches run in worker processes (the engine's
:class:`~engine.ai.pool.AIPool`), so the event loop keeps answering
interactions while the computer thinks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from engine import GameOptions
from engine.ai.pool import AIPool

T = TypeVar("T")


class BotAI:
    """The computer player's brain, started by :meth:`start` or on first use.

    ``workers`` is how many searches run at once (two on a two-core machine);
    more AI games thinking at the same moment wait for a worker, taking turns by
    user, but keep their deadline, so every answer comes within its level's time
    plus a little (one whose time passed in the queue answers at once).
    ``iterations`` replaces the levels' time budgets with a fixed amount of search
    (tests use it to be fast and deterministic on any machine).
    ``warm``: :meth:`start` (the bot calls it as it starts) starts the workers and has
    them load the search, so the first AI move after a restart does not wait for that;
    without it the workers start with the first AI move (tests, where most bots never
    play the computer).
    """

    def __init__(self, workers: int = 2, iterations: int | None = None, warm: bool = True,
                 review_iterations: int | None = None) -> None:
        self.workers = workers
        self.iterations = iterations
        self.warm = warm
        #: a review's search per position (None: the engine's budget per game,
        #: :data:`engine.ai.review.ITERATIONS`); tests lower it to be quick
        self.review_iterations = review_iterations
        self._pool: AIPool | None = None

    @property
    def started(self) -> bool:
        """Whether the worker processes are running (or starting)."""
        return self._pool is not None

    def start(self) -> None:
        """Start the workers now when ``warm`` (they load the search in the background; never blocks)."""
        if self.warm and self._pool is None:
            self._pool = AIPool(self.workers, warm=True)

    async def choose(self, options: GameOptions, actions: list[str], level: str, seed: int, player: str,
                     owner: int | None = None) -> str:
        """The AI's action line for ``player`` in the position after ``actions``.

        ``owner``: the user the computer plays against; the workers serve owners in turn, so one
        user's many games never make another user's game wait behind all of them. A worker that
        dies is replaced and its search run again (see :class:`~engine.ai.pool.AIPool`)."""
        if self._pool is None:
            self._pool = AIPool(self.workers, warm=self.warm)
        return await self._pool.choose(options, actions, level, seed, player=player, iterations=self.iterations,
                                       owner=owner)

    async def when_idle(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker once no move waits for one (a review's position; see
        :meth:`~engine.ai.pool.AIPool.when_idle`): background work never delays a computer move by
        more than the one job in progress."""
        if self._pool is None:
            self._pool = AIPool(self.workers, warm=self.warm)
        return await self._pool.when_idle(fn, *args)

    @property
    def pool(self) -> AIPool | None:
        """The process pool, once started."""
        return self._pool

    def close(self) -> None:
        """Stop the worker processes without waiting for a search in progress."""
        if self._pool is not None:
            self._pool.close(wait=False)
            self._pool = None
