"""The world changes under a game: its channel or thread is deleted, or the bot leaves its server.

Such a game can never be played, resigned or aborted again, so it ends at once as aborted
(unrated) and both players get a note by direct message. Deletions the bot did not see
(it was down) are found when the gateway next describes the server: a game whose channel is
in no GUILD_CREATE, and which Discord answers 404 Unknown Channel for, is gone; a game of a
server missing from READY is in a server the bot left. An outage (a server ``unavailable``)
changes nothing.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from ..i18n import render
from ..service import GameService
from ..store import GameRow
from ..ui import texts
from ..ui.languages import USER
from ..ui.texts import CHANNEL_GONE, SERVER_GONE

if TYPE_CHECKING:
    from ..app import HexBot

log = logging.getLogger(__name__)

class World(commands.Cog):
    """Ends the games whose channel, thread or server is gone, and tells their players."""

    def __init__(self, bot: HexBot) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        """The bot's game service."""
        return self.bot.service

    # -- as it happens ---------------------------------------------------------------
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its games and those of its threads end."""
        await self._close_all(await self.service.games_under(channel.id), CHANNEL_GONE)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted (cached or not): its game ends."""
        game = await self.service.game_in(payload.thread_id)
        if game is not None:
            await self._close_all([game.row], CHANNEL_GONE)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (GUILD_DELETE without ``unavailable``): its games end."""
        await self._close_all(await self.service.active_games(guild.id), SERVER_GONE)

    # -- what happened while the bot was away ------------------------------------------
    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server's channels as the gateway describes them now (start-up, after an outage)."""
        await self.reconcile(guild)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """A server the bot (re)joined: games left from an earlier stay whose channels are gone end."""
        await self.reconcile(guild)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Every server is described now: games of this process's servers that the bot is no longer in end."""
        left = [row for row in await self.service.active_games()
                if self.bot.owns(row.guild_id) and self.bot.get_guild(row.guild_id) is None]
        await self._close_all(left, SERVER_GONE)

    async def reconcile(self, guild: discord.Guild) -> None:
        """End the games of a server whose channel or thread no longer exists."""
        if guild.unavailable or not self.bot.owns(guild.id):
            return
        gone = [row for row in await self.service.active_games(guild.id) if await self._is_gone(guild, row)]
        await self._close_all(gone, CHANNEL_GONE)

    async def _is_gone(self, guild: discord.Guild, row: GameRow) -> bool:
        """Whether a game's channel or thread was deleted. GUILD_CREATE lists every channel but only
        active threads: a thread missing from it is asked about (an archived one still exists)."""
        if guild.get_channel_or_thread(row.channel_id) is not None:
            return False
        if row.parent_id is not None and guild.get_channel(row.parent_id) is None:
            return True  # a thread goes with its channel
        try:
            await self.bot.fetch_channel(row.channel_id)
        except discord.NotFound:
            return True
        except discord.HTTPException as exc:
            # No access, or Discord failing: it may well exist; leave the game be.
            log.info("game %d: can't tell whether channel %d exists: %s", row.id, row.channel_id, exc)
        return False

    # -- closing ---------------------------------------------------------------------
    async def _close_all(self, rows: list[GameRow], why: str) -> None:
        for row in rows:
            try:
                await self._close(row, why)
            except Exception:
                # One game's trouble must not keep the others open (nor reach discord.py's handler).
                log.exception("game %d: could not close it (%s)", row.id, why)

    async def _close(self, row: GameRow, why: str) -> None:
        """End one game and tell its players by direct message (a closed DM is logged and skipped)."""
        g = await self.service.close_gone(row, why)
        if g is None:
            return  # ended already, and whoever ended it said so
        names = await self.service.names(row.guild_id, row.seats)
        public = await self.bot.languages.public(row.guild_id)
        for user_id in row.seats:
            if user_id == self.bot.user_id:
                continue  # the computer needs no note
            note = texts.closed_note(g, names, user_id, self.bot.user_id, why)
            # a direct message: in the player's own language if they chose one, else the server's
            own = await self.bot.languages.chosen(USER, user_id) or public
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(render(note, own), allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                log.info("game %d: could not tell player %d that it was closed: %s", row.id, user_id, exc)


async def setup(bot: HexBot) -> None:
    """Load the cog."""
    await bot.add_cog(World(bot))
