"""Games whose place is gone: a deleted channel or thread, or a server the bot is no longer in.

Nobody can play, resign or abort such a game any more (every command answers in its channel),
so it ends at once as aborted: no result, no rating change, its timers gone.
"""

from __future__ import annotations

import logging

from ..store import GameRow
from ..timing.clocks import GAME_TIMERS
from .core import ServiceCore
from .errors import UserError
from .values import ActiveGame

log = logging.getLogger(__name__)


class GoneService(ServiceCore):
    """Ending the games of channels, threads and servers that are gone."""

    async def games_under(self, channel_id: int) -> list[GameRow]:
        """The games in progress in a channel and in its threads."""
        return await self.store.active_games_under(channel_id)

    async def close_gone(self, row: GameRow, why: str) -> ActiveGame | None:
        """End a game whose channel or server is gone as aborted (unrated); ``why`` goes to the log.

        None when it had ended already (another process, or a move that finished it, got there first).
        """
        async with self._game_locks.lock(row.channel_id):
            try:
                async with self.store.transaction():
                    await self._hold_game(row.id, None)
                    if not await self.store.finish_game(row.id, status="aborted", winner_seat=None, reason=None,
                                                        now=self.clock()):
                        return None
                    await self.store.end_timers(row.id, GAME_TIMERS)
            except UserError:
                return None  # it has just ended
            self._forget(row.id)
        await self._wake()
        log.info("game %d: closed without a result: %s", row.id, why)
        return await self.game(row.id)
