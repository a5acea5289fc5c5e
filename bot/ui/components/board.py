"""The controls under a board: Play, Board, Takeback, Resign, Abort, and the Yes / Keep playing
confirmations of Resign and Abort (the controls cog answers them).

Their custom ids are ``hx:board:{game}:{n}:{act}`` (see :mod:`.ids`), ``n`` the number of
public actions when the board was posted, so they work after a restart.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from ...i18n import t
from ...service import ActiveGame
from .ids import custom_id, template
from .labels import label
from .registry import dispatch

BOARD_ACTS = ("play", "board", "takeback", "resign", "abort", "resign!", "abort!", "keep")
_BOARD_LABELS = {
    "play": (label(t("Play")), discord.ButtonStyle.primary), "board": (label(t("Board")), discord.ButtonStyle.secondary),
    "takeback": (label(t("Takeback")), discord.ButtonStyle.secondary),
    "resign": (label(t("Resign")), discord.ButtonStyle.danger),
    "abort": (label(t("Abort")), discord.ButtonStyle.secondary),
    "resign!": (label(t("Yes, resign")), discord.ButtonStyle.danger),
    "abort!": (label(t("Yes, abort")), discord.ButtonStyle.danger),
    "keep": (label(t("Keep playing")), discord.ButtonStyle.secondary),
}


def board_id(game_id: int, n: int, act: str) -> str:
    """The custom_id of a board control."""
    return custom_id("board", game_id, n, act)


class BoardButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=template("board", r"(?P<game>\d+):(?P<n>\d+):(?P<act>play|board|takeback|resign!?|abort!?|keep)")):
    """A control under a board (or in its confirmation message)."""

    def __init__(self, game_id: int, n: int, act: str) -> None:
        label, style = _BOARD_LABELS[act]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=board_id(game_id, n, act)))
        self.game_id, self.n, self.act = game_id, n, act

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BoardButton:
        """Rebuild the control from a press (also on a message posted before a restart)."""
        return cls(int(match["game"]), int(match["n"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the cog that registered the control (controls)."""
        await dispatch(interaction, self)


def board_view(game: ActiveGame) -> discord.ui.View:
    """The controls under a board of a game in progress."""
    n = len(game.position.public_record())
    view = discord.ui.View(timeout=None)
    acts = ["play", "board"]
    if game.position.game != "blindhex":
        acts.append("takeback")
    acts.append("resign")
    if game.may_abort():  # the rule /abort applies, on the position this board shows
        acts.append("abort")
    for act in acts:
        view.add_item(BoardButton(game.row.id, n, act))
    return view


def confirm_view(game_id: int, n: int, act: str) -> discord.ui.View:
    """Yes / Keep playing under a Resign or Abort confirmation."""
    view = discord.ui.View(timeout=None)
    view.add_item(BoardButton(game_id, n, f"{act}!"))
    view.add_item(BoardButton(game_id, n, "keep"))
    return view


def fresh_panel_view(game_id: int, n: int) -> discord.ui.View:
    """A single Play button: opens a panel for the current position."""
    view = discord.ui.View(timeout=None)
    view.add_item(BoardButton(game_id, n, "play"))
    return view


