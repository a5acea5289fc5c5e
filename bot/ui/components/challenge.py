"""Accept / Decline / Withdraw under an open challenge (the challenges cog answers them)."""

from __future__ import annotations

import re
from typing import Any

import discord

from ...i18n import t
from .ids import custom_id, template
from .labels import label
from .registry import dispatch


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=template("challenge", r"(?P<id>\d+):(?P<act>accept|decline|withdraw)"),
):
    """Accept / Decline (for the challenged player) and Withdraw (for the challenger)."""

    STYLES = {
        "accept": (label(t("Accept")), discord.ButtonStyle.success),
        "decline": (label(t("Decline")), discord.ButtonStyle.danger),
        "withdraw": (label(t("Withdraw")), discord.ButtonStyle.secondary),
    }

    def __init__(self, challenge_id: int, act: str) -> None:
        label, style = self.STYLES[act]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=custom_id("challenge", challenge_id, act))
        )
        self.challenge_id = challenge_id
        self.act = act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChallengeButton:
        """Rebuild the button from a click on any (even pre-restart) challenge message."""
        return cls(int(match["id"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog that registered the button (challenges)."""
        await dispatch(interaction, self)


def challenge_view(challenge_id: int) -> discord.ui.View:
    """The buttons under an open challenge."""
    view = discord.ui.View(timeout=None)
    for act in ("accept", "decline", "withdraw"):
        view.add_item(ChallengeButton(challenge_id, act))
    return view
