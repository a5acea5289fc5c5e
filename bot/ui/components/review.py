"""Review under a finished game, and ◀ ▶ through a review's worst moves (the review cog answers them)."""

from __future__ import annotations

import re
from typing import Any

import discord

from .ids import custom_id, template
from .registry import dispatch


class ReviewButton(discord.ui.DynamicItem[discord.ui.Button], template=template("over", r"(?P<game>\d+):review")):
    """Review under the game-over message (``hx:over:<game>:review``, beside Rematch, Replay, Moves)."""

    def __init__(self, game_id: int, label: str) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=custom_id("over", game_id, "review")))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReviewButton:
        """Rebuild the button from a click (also after a restart)."""
        return cls(int(match["game"]), getattr(item, "label", None) or "Review")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog that registered the button (review)."""
        await dispatch(interaction, self)


class ReviewStepButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=template("review", r"(?P<game>\d+):(?P<to>\d+):(?P<act>prev|next)"),
):
    """◀ ▶ through a review's worst moves: show worst move ``to`` (0 the worst) of game ``game``."""

    LABELS = {"prev": "◀", "next": "▶"}

    def __init__(self, game_id: int, to: int, act: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=self.LABELS[act], style=discord.ButtonStyle.secondary,
                                           custom_id=custom_id("review", game_id, to, act), disabled=disabled))
        self.game_id, self.to = game_id, to

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReviewStepButton:
        """Rebuild the button from a click (also after a restart)."""
        return cls(int(match["game"]), int(match["to"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog that registered the button (review)."""
        await dispatch(interaction, self)


def worst_view(game_id: int, at: int, count: int) -> discord.ui.View | None:
    """◀ ▶ for worst move ``at`` of ``count`` (None for one or none)."""
    if count <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ReviewStepButton(game_id, max(at - 1, 0), "prev", disabled=at == 0))
    view.add_item(ReviewStepButton(game_id, min(at + 1, count - 1), "next", disabled=at == count - 1))
    return view
