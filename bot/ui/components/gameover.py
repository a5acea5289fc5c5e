"""Rematch, Replay, Moves and Review under a finished game (Rematch: the challenges cog; Replay, Moves: the info
cog; Review: the review cog, :mod:`.review`)."""

from __future__ import annotations

import re
from typing import Any

import discord

from ...i18n import t
from .. import review_texts
from .ids import custom_id, template
from .labels import label
from .registry import dispatch
from .review import ReviewButton


class GameOverButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=template("over", r"(?P<game>\d+):(?P<act>replay|moves)"),
):
    """Replay / Moves under the game-over message (the info cog answers them)."""

    STYLES = {
        "replay": (label(t("Replay")), discord.ButtonStyle.secondary),
        "moves": (label(t("Moves")), discord.ButtonStyle.secondary),
    }

    def __init__(self, game_id: int, act: str) -> None:
        label, style = self.STYLES[act]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id("over", game_id, act)))
        self.game_id = game_id
        self.act = act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameOverButton:
        """Rebuild the button from a click (also after a restart)."""
        return cls(int(match["game"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog that registered the button (info)."""
        await dispatch(interaction, self)


REMATCH = label(t("Rematch"))


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=template("over", r"(?P<game>\d+):rematch")):
    """Rematch under the game-over message (the challenges cog answers it)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=REMATCH, style=discord.ButtonStyle.success,
                                           custom_id=custom_id("over", game_id, "rematch")))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        """Rebuild the button from a click (also after a restart)."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog that registered the button (challenges)."""
        await dispatch(interaction, self)


def game_over_view(game_id: int) -> discord.ui.View:
    """The buttons under a finished game: Rematch, Replay, Moves, Review."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id))
    view.add_item(GameOverButton(game_id, "replay"))
    view.add_item(GameOverButton(game_id, "moves"))
    view.add_item(ReviewButton(game_id, review_texts.REVIEW_BUTTON))
    return view
