"""A tiny bot to run as a separate process against the fake (launcher and crash tests).

    python -m tests.fake_discord.launch --url http://127.0.0.1:PORT -- tests.fake_discord.sample_bot

Reads the token from ``SAMPLE_BOT_TOKEN``. ``/challenge`` posts a message with
a persistent "Accept" button (``sample:accept``) that keeps working after a
restart because :meth:`SampleBot.setup_hook` re-registers the view.
"""

from __future__ import annotations

import asyncio
import os
import sys

import discord
from discord import app_commands
from discord.ext import commands


class AcceptView(discord.ui.View):
    """A persistent view: no timeout, fixed custom_id."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Accept", style=discord.ButtonStyle.success, custom_id="sample:accept")
    async def accept(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        """Edit the message in place (callback type 7) and remove the button."""
        await interaction.response.edit_message(content=f"accepted by {interaction.user.name} (pid {os.getpid()})", view=None)


class SampleBot(commands.Bot):
    """Syncs global commands on start-up; ``/challenge`` and ``/pid``."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), help_command=None,
                         guild_ready_timeout=0.05)

        @app_commands.command(name="challenge", description="Post a challenge with a button")
        async def challenge(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("A challenge!", view=AcceptView())

        @app_commands.command(name="pid", description="Which process answers")
        async def pid(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(str(os.getpid()))

        self.tree.add_command(challenge)
        self.tree.add_command(pid)

    async def setup_hook(self) -> None:
        """Re-arm the persistent view and sync (globally)."""
        self.add_view(AcceptView())
        await self.tree.sync()


async def _main() -> None:
    async with SampleBot() as bot:
        await bot.start(os.environ["SAMPLE_BOT_TOKEN"])


def main() -> int:
    """Run until killed; 2 on a rejected token."""
    try:
        asyncio.run(_main())
    except discord.LoginFailure:
        print("error: token rejected", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
