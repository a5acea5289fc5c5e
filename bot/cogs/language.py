"""``/language`` (the language the bot answers a member in, in every server) and ``/help``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from ..i18n import t
from ..ui import helppage
from ..ui.answers import ack, answer_privately
from ..ui.languages import LANGUAGE_CHOICES, USER

if TYPE_CHECKING:
    from ..app import HexBot

class Language(commands.Cog):
    """A member's language and the help page."""

    def __init__(self, bot: HexBot) -> None:
        self.bot = bot

    @app_commands.command(name="language", description="The language I answer you in, in every server")
    @app_commands.describe(language="a language, or auto: the one your Discord app uses")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        """Keep the member's choice (across servers); ``auto`` forgets it."""
        await ack(interaction, private=True)
        chosen = self.bot.service.checked_language(language)
        await self.bot.languages.choose(USER, interaction.user.id, chosen)
        if chosen is None:
            await answer_privately(interaction, t("I'll answer you in the language your Discord app uses."))
        else:
            # said in the language just chosen: each translation names its own language
            await answer_privately(interaction, t("I'll answer you in this language in every server: English."))

    @app_commands.command(name="help", description="How to start a game, the commands, playing with taps")
    async def help(self, interaction: discord.Interaction) -> None:
        """One private page in the member's language."""
        await ack(interaction, private=True)
        await answer_privately(interaction, helppage.page())


async def setup(bot: HexBot) -> None:
    """Load the cog."""
    await bot.add_cog(Language(bot))
