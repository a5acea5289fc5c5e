"""Reading for the info commands: leaderboards, a player's ratings and record, games in progress and past."""

from __future__ import annotations

from ..store import GameRow, RatingRow, Sight, TakebackRow
from .core import ServiceCore


class ReadingService(ServiceCore):
    """What the cogs show besides a game itself; cogs read through here, never the store."""

    async def leaderboard(self, guild_id: int, game: str, limit: int = 20) -> list[RatingRow]:
        """A server's rated players of a game, best rating first."""
        return await self.store.leaderboard(guild_id, game, limit)

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """A player's ratings in a server, one per game."""
        return await self.store.player_ratings(guild_id, user_id)

    async def player_record(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int, int]]:
        """game → (finished games, wins, losses) of a player in a server, rated or not."""
        return await self.store.player_record(guild_id, user_id)

    async def finished_games(self, guild_id: int, user_id: int | None = None, limit: int = 10,
                             sight: Sight | None = None) -> list[GameRow]:
        """Recently ended games in a server (optionally of one player; only those ``sight`` sees), newest first."""
        return await self.store.finished_games(guild_id, user_id, limit, sight)

    async def active_games(self, guild_id: int | None = None, sight: Sight | None = None) -> list[GameRow]:
        """Games in progress (in one server, or everywhere; only those ``sight`` sees), oldest first."""
        rows = await self.store.active_games(guild_id)
        return rows if sight is None else [r for r in rows if sight.sees(r)]

    async def accepted_takebacks(self, game_id: int) -> list[TakebackRow]:
        """Accepted takebacks of a game, oldest first (for its record)."""
        return await self.store.takebacks_of(game_id)

    async def languages(self) -> dict[tuple[str, int], str]:
        """Every language chosen: (scope, id) → language."""
        return await self.store.languages()

    async def wants_dm(self, user_id: int) -> bool:
        """Whether a player asked for reminders by direct message."""
        return await self.store.wants_dm(user_id)
