"""The game controls as persistent Discord components: the buttons under a board and the Play panel.

Every custom_id names what it acts on, so the controls work after a restart:

- ``hx:b:{game}:{n}:{act}``: a board control (Play, Board, Takeback, Resign, Abort and the
  confirmations), ``n`` the number of public actions when the board was posted;
- ``hx:p:{game}:{version}:{path}`` (buttons) and ``hx:s:{game}:{version}:{path}`` (menus): a
  choice in a Play panel, made for the position ``version`` (:func:`bot.service.position_version`),
  ``path`` the choices so far (see :mod:`bot.panels`).

The items only hand the press to the Controls cog, which registers them.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from . import panels
from .service import ActiveGame

BOARD_ACTS = ("play", "board", "takeback", "resign", "abort", "resign!", "abort!", "keep")
_STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
           "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}
_BOARD_LABELS = {
    "play": ("Play", discord.ButtonStyle.primary), "board": ("Board", discord.ButtonStyle.secondary),
    "takeback": ("Takeback", discord.ButtonStyle.secondary), "resign": ("Resign", discord.ButtonStyle.danger),
    "abort": ("Abort", discord.ButtonStyle.secondary), "resign!": ("Yes, resign", discord.ButtonStyle.danger),
    "abort!": ("Yes, abort", discord.ButtonStyle.danger), "keep": ("Keep playing", discord.ButtonStyle.secondary),
}


def board_id(game_id: int, n: int, act: str) -> str:
    """The custom_id of a board control."""
    return f"hx:b:{game_id}:{n}:{act}"


def panel_id(kind: str, game_id: int, version: str, path: tuple[str, ...]) -> str:
    """The custom_id of a panel button (``p``) or menu (``s``)."""
    return f"hx:{kind}:{game_id}:{version}:{'.'.join(path)}"


async def _dispatch(interaction: discord.Interaction[Any], item: discord.ui.DynamicItem[Any]) -> None:
    """Hand a press to the handler the Controls cog registered (guarded like every button)."""
    from .views import dispatch  # views needs present, which needs this module

    await dispatch(interaction, item)


class BoardButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"hx:b:(?P<game>\d+):(?P<n>\d+):(?P<act>play|board|takeback|resign!?|abort!?|keep)"):
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
        """Hand the press to the Controls cog."""
        await _dispatch(interaction, self)


class PanelButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"hx:p:(?P<game>\d+):(?P<version>\d+-[0-9a-z]+):(?P<path>[a-z0-9.]*)"):
    """A button in a Play panel: pressing it leads to the path it names."""

    def __init__(self, game_id: int, version: str, button: panels.Button) -> None:
        super().__init__(discord.ui.Button(
            label=button.label[:80], style=_STYLES[button.style], disabled=button.disabled,
            custom_id=panel_id("p", game_id, version, button.path)))
        self.game_id, self.version, self.path = game_id, version, button.path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PanelButton:
        """Rebuild the button from a press."""
        path = tuple(p for p in match["path"].split(".") if p)
        return cls(int(match["game"]), match["version"], panels.Button(getattr(item, "label", None) or "?", path))

    def chosen(self, interaction: discord.Interaction[Any]) -> tuple[str, ...]:
        """The path this press leads to."""
        return self.path

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the Controls cog."""
        await _dispatch(interaction, self)


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select],
                  template=r"hx:s:(?P<game>\d+):(?P<version>\d+-[0-9a-z]+):(?P<path>[a-z0-9.]*)"):
    """A select menu in a Play panel: the chosen option's key extends the path."""

    def __init__(self, game_id: int, version: str, menu: panels.Menu) -> None:
        options = [discord.SelectOption(label=label[:100], value=key) for label, key in menu.options[:25]]
        super().__init__(discord.ui.Select(
            placeholder=menu.placeholder[:150], options=options, min_values=1, max_values=1,
            custom_id=panel_id("s", game_id, version, menu.path)))
        self.game_id, self.version, self.path = game_id, version, menu.path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PanelSelect:
        """Rebuild the menu from a choice."""
        path = tuple(p for p in match["path"].split(".") if p)
        options = tuple((o.label, o.value) for o in getattr(item, "options", ())) or (("?", "?"),)
        placeholder = getattr(item, "placeholder", None) or ""
        return cls(int(match["game"]), match["version"], panels.Menu(placeholder, path, options))

    def chosen(self, interaction: discord.Interaction[Any]) -> tuple[str, ...]:
        """The path this choice leads to: the value Discord sent, not the options we think it had."""
        data: Any = interaction.data or {}
        values = data.get("values") or []
        return self.path + (str(values[0]) if values else "",)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the choice to the Controls cog."""
        await _dispatch(interaction, self)


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


def panel_view(game_id: int, version: str, step: panels.Step) -> discord.ui.View:
    """The components of one panel step (rows in order; at most 5)."""
    view = discord.ui.View(timeout=None)
    for r, row in enumerate(step.rows[:panels.MAX_ROWS]):
        if isinstance(row, panels.Menu):
            item: discord.ui.Item[Any] = PanelSelect(game_id, version, row)
            item.row = r
            view.add_item(item)
            continue
        for button in row[:panels.ROW_BUTTONS]:
            item = PanelButton(game_id, version, button)
            item.row = r
            view.add_item(item)
    return view
