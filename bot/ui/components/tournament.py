"""Join / Leave / Start / Cancel under a tournament's sign-up message (the tournaments cog answers them)."""

from __future__ import annotations

import re
from typing import Any

import discord

from .. import tournament_texts as say
from .ids import custom_id, template
from .registry import dispatch

#: the acts of the sign-up buttons, in the order they are shown
ACTS = ("join", "leave", "start", "cancel")


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=template("tourney", r"(?P<id>\d+):(?P<act>join|leave|start|cancel)"),
):
    """Join and Leave (anyone), Start and Cancel (the organiser) of one tournament."""

    STYLES = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger,
    }

    def __init__(self, tournament_id: int, act: str) -> None:
        super().__init__(discord.ui.Button(label=say.BUTTONS[act], style=self.STYLES[act],
                                           custom_id=custom_id("tourney", tournament_id, act)))
        self.tournament_id = tournament_id
        self.act = act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TournamentButton:
        """Rebuild the button from a click on any (even pre-restart) sign-up message."""
        return cls(int(match["id"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog that registered the button (tournaments)."""
        await dispatch(interaction, self)


def signup_view(tournament_id: int) -> discord.ui.View:
    """The buttons under an open tournament's sign-up message."""
    view = discord.ui.View(timeout=None)
    for act in ACTS:
        view.add_item(TournamentButton(tournament_id, act))
    return view
