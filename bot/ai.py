"""The bot's side of the AI: searches run in worker processes (the engine's
:class:`~engine.ai.pool.AIPool`), so the event loop keeps answering
interactions while the computer thinks."""

from __future__ import annotations

from engine import GameOptions
from engine.ai.pool import AIPool


class BotAI:
    """The computer player's brain, started by :meth:`start` or on first use.

    ``workers`` is how many searches run at once (two on a two-core machine);
    more AI games thinking at the same moment wait for a worker but keep their
    deadline, so every answer comes within its level's time plus a little.
    ``iterations`` replaces the levels' time budgets with a fixed amount of search
    (tests use it to be fast and deterministic on any machine).
    ``warm``: :meth:`start` (the bot calls it as it starts) starts the workers and has
    them load the search, so the first AI move after a restart does not wait for that;
    without it the workers start with the first AI move (tests, where most bots never
    play the computer).
    """

    def __init__(self, workers: int = 2, iterations: int | None = None, warm: bool = True) -> None:
        self.workers = workers
        self.iterations = iterations
        self.warm = warm
        self._pool: AIPool | None = None

    @property
    def started(self) -> bool:
        """Whether the worker processes are running (or starting)."""
        return self._pool is not None

    def start(self) -> None:
        """Start the workers now when ``warm`` (they load the search in the background; never blocks)."""
        if self.warm and self._pool is None:
            self._pool = AIPool(self.workers, warm=True)

    async def choose(self, options: GameOptions, actions: list[str], level: str, seed: int, player: str) -> str:
        """The AI's action line for ``player`` in the position after ``actions``."""
        if self._pool is None:
            self._pool = AIPool(self.workers, warm=self.warm)
        return await self._pool.choose(options, actions, level, seed, player=player, iterations=self.iterations)

    def close(self) -> None:
        """Stop the worker processes without waiting for a search in progress."""
        if self._pool is not None:
            self._pool.close(wait=False)
            self._pool = None
