"""Which language the bot speaks to whom.

- A private answer is in the asking member's language: the one they chose with ``/language``
  (kept across servers), else their Discord client's (``interaction.locale``), else English.
- A public message (boards, game over, reminders, announcements) is in the server's language:
  the one its admins chose with ``/settings language``, else Discord's server locale
  (``interaction.guild_locale``, or the cached guild's ``preferred_locale``), else English.

Every choice is kept in memory (a few rows: only those who chose), read at start and read again
in the background every :data:`KEEP` seconds, so an answer never waits for the database; another
process's change shows within that time.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from ..i18n import SOURCE, language_of
from ..i18n.text import PSEUDO, pseudo_on

if TYPE_CHECKING:
    from ..service import GameService

log = logging.getLogger(__name__)

#: seconds a chosen language is kept in memory (another process's change shows within this)
KEEP = 30.0
USER, GUILD = "user", "guild"
#: the choices of a language option: each language by its own name (as its speakers look for it
#: in a list), then ``auto`` (Discord's locale decides)
LANGUAGE_CHOICES = [app_commands.Choice(name="English", value="en"), app_commands.Choice(name="日本語", value="ja"),
                    app_commands.Choice(name="Français", value="fr"), app_commands.Choice(name="auto", value="auto")]
#: each language by its own name
NAMES = {c.value: c.name for c in LANGUAGE_CHOICES if c.value != "auto"}




class Languages:
    """The languages of members and servers, chosen or from Discord; the choices kept in memory."""

    def __init__(self, service: GameService, client: discord.Client) -> None:
        self.service = service
        self.client = client
        self._chosen: dict[tuple[str, int], str] = {}
        self._read_at = -KEEP
        self._reading: asyncio.Task[None] | None = None

    async def load(self) -> None:
        """Read every choice from the store (at start, then in the background)."""
        started = time.monotonic()
        self._chosen = await self.service.languages()
        self._read_at = started

    async def chosen(self, scope: str, id: int) -> str | None:
        """The language a member or server chose (None: none), from memory (read again in the background
        when older than :data:`KEEP`)."""
        if time.monotonic() - self._read_at >= KEEP and (self._reading is None or self._reading.done()):
            self._reading = asyncio.create_task(self._reload())
        return self._chosen.get((scope, id))

    async def _reload(self) -> None:
        try:
            await self.load()
        except Exception:  # the old choices stay; the next answer tries again
            log.warning("could not read the chosen languages", exc_info=True)
            self._read_at = time.monotonic()

    async def choose(self, scope: str, id: int, language: str | None) -> None:
        """Store a member's or server's choice (None: Discord's locale again)."""
        await self.service.set_language(scope, id, language)
        if language is None:
            self._chosen.pop((scope, id), None)
        else:
            self._chosen[(scope, id)] = language

    async def private(self, interaction: discord.Interaction) -> str:
        """The language of a private answer to ``interaction``'s member."""
        if pseudo_on():
            return PSEUDO
        return await self.chosen(USER, interaction.user.id) or language_of(interaction.locale)

    async def public(self, guild_id: int | None, guild_locale: object = None) -> str:
        """The language of a public message in a server (``guild_locale``: Discord's, when an interaction told it)."""
        if pseudo_on():
            return PSEUDO
        if not guild_id:
            return SOURCE if guild_locale is None else language_of(guild_locale)
        chosen = await self.chosen(GUILD, guild_id)
        if chosen:
            return chosen
        if guild_locale is None:
            guild = self.client.get_guild(guild_id)
            guild_locale = guild.preferred_locale if guild is not None else None
        return language_of(guild_locale)

    async def of(self, interaction: discord.Interaction, private: bool) -> str:
        """The language of an answer to ``interaction``: the member's when private, the server's when public."""
        if private:
            return await self.private(interaction)
        return await self.public(interaction.guild_id, interaction.guild_locale)
