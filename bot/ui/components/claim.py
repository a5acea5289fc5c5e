"""Claim win, posted when a player's time is up (the lifecycle cog answers it)."""

from __future__ import annotations

import re
from typing import Any

import discord

from ...i18n import t
from .ids import custom_id, template
from .labels import label
from .registry import dispatch

CLAIM = label(t("Claim win"))


class ClaimButton(discord.ui.DynamicItem[discord.ui.Button], template=template("claim", r"(?P<game>\d+)")):
    """Claim win, posted when a player's time is up."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=CLAIM, style=discord.ButtonStyle.primary,
                                           custom_id=custom_id("claim", game_id)))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ClaimButton:
        """Rebuild the button from a click (also after a restart)."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog that registered the button (lifecycle)."""
        await dispatch(interaction, self)


def claim_view(game_id: int) -> discord.ui.View:
    """The Claim win button."""
    view = discord.ui.View(timeout=None)
    view.add_item(ClaimButton(game_id))
    return view
