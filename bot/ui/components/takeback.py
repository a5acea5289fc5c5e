"""Accept / Decline under a takeback request (the lifecycle cog answers them)."""

from __future__ import annotations

import re
from typing import Any

import discord

from ...i18n import t
from .ids import custom_id, template
from .labels import label
from .registry import dispatch

ACCEPT, DECLINE = label(t("Accept takeback")), label(t("Decline"))


class TakebackButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=template("takeback", r"(?P<id>\d+):(?P<act>accept|decline)"),
):
    """Accept / Decline under a takeback request (for the opponent of the one who asked)."""

    def __init__(self, takeback_id: int, act: str) -> None:
        words, style = (ACCEPT, discord.ButtonStyle.success) if act == "accept" else \
            (DECLINE, discord.ButtonStyle.danger)
        super().__init__(discord.ui.Button(label=words, style=style, custom_id=custom_id("takeback", takeback_id, act)))
        self.takeback_id = takeback_id
        self.act = act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TakebackButton:
        """Rebuild the button from a click (also after a restart)."""
        return cls(int(match["id"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog that registered the button (lifecycle)."""
        await dispatch(interaction, self)


def takeback_view(takeback_id: int) -> discord.ui.View:
    """The buttons under a takeback request."""
    view = discord.ui.View(timeout=None)
    view.add_item(TakebackButton(takeback_id, "accept"))
    view.add_item(TakebackButton(takeback_id, "decline"))
    return view
