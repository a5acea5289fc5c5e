"""Stepping buttons (⏮ ◀ ▶ ⏭) through a move list, a replay or the rules tutorial (the info cog answers them)."""

from __future__ import annotations

import re
from typing import Any

import discord

from .ids import custom_id, template
from .registry import dispatch


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=template("page", r"(?P<kind>moves|replay|rules):(?P<key>[a-z0-9]+):(?P<to>\d+):(?P<act>first|prev|next|last)"),
):
    """Stepping buttons: pages of a move list (key: game id), positions of a replay (game id),
    pages of the ``/rules`` tutorial (key: the game's name)."""

    LABELS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}

    def __init__(self, kind: str, key: int | str, to: int, act: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=self.LABELS[act], style=discord.ButtonStyle.secondary,
                                           custom_id=custom_id("page", kind, key, to, act), disabled=disabled))
        self.kind, self.key, self.to = kind, str(key), to

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        """Rebuild the button from a click (also after a restart)."""
        return cls(match["kind"], match["key"], int(match["to"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog that registered the button (info): page (or position) ``to``."""
        await dispatch(interaction, self)


def stepper_view(kind: str, key: int | str, at: int, last: int) -> discord.ui.View | None:
    """⏮ ◀ ▶ ⏭ for item ``at`` of ``0..last`` (None when there is only one)."""
    if last <= 0:
        return None
    view = discord.ui.View(timeout=None)
    for act, to in (("first", 0), ("prev", max(at - 1, 0)), ("next", min(at + 1, last)), ("last", last)):
        view.add_item(PageButton(kind, key, to, act, disabled=(to == at)))
    return view
