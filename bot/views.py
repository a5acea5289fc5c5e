"""Persistent buttons: their custom_ids name what they act on, so they keep
working after a restart (registered with ``add_dynamic_items`` in setup_hook)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from .app import HexBot

CHALLENGE_ID = "hexcord:challenge:{id}:{act}"


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"hexcord:challenge:(?P<id>\d+):(?P<act>accept|decline|withdraw)",
):
    """Accept / Decline (for the challenged player) and Withdraw (for the challenger)."""

    STYLES = {
        "accept": ("Accept", discord.ButtonStyle.success),
        "decline": ("Decline", discord.ButtonStyle.danger),
        "withdraw": ("Withdraw", discord.ButtonStyle.secondary),
    }

    def __init__(self, challenge_id: int, act: str) -> None:
        label, style = self.STYLES[act]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=CHALLENGE_ID.format(id=challenge_id, act=act))
        )
        self.challenge_id = challenge_id
        self.act = act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> "ChallengeButton":
        """Rebuild the button from a click on any (even pre-restart) challenge message."""
        return cls(int(match["id"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the challenges cog."""
        bot: HexBot = interaction.client  # type: ignore[assignment]
        cog = bot.get_cog("Challenges")
        await cog.button(interaction, self.challenge_id, self.act)  # type: ignore[union-attr]


def challenge_view(challenge_id: int) -> discord.ui.View:
    """The buttons under an open challenge."""
    view = discord.ui.View(timeout=None)
    for act in ("accept", "decline", "withdraw"):
        view.add_item(ChallengeButton(challenge_id, act))
    return view
