"""The private Play panel as Discord components: its buttons and select menus.

What a panel offers is plain data from :mod:`.panel_steps`; this module only turns a
step into components. Their custom ids are ``hx:panel:{game}:{version}:{path}`` (buttons)
and ``hx:menu:{game}:{version}:{path}`` (menus), made for the position ``version``
(:func:`bot.service.position_version`), ``path`` the choices so far, so the bot keeps no
memory of open panels.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord

from ...i18n import SOURCE, render
from . import panel_steps
from .ids import custom_id, template
from .registry import dispatch

_STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
           "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}
#: the fields of a panel id: game, position version, path of choices
_FIELDS = r"(?P<game>\d+):(?P<version>\d+-[0-9a-z]+):(?P<path>[a-z0-9.]*)"


def panel_id(kind: str, game_id: int, version: str, path: tuple[str, ...]) -> str:
    """The custom_id of a panel button (``panel``) or menu (``menu``)."""
    return custom_id(kind, game_id, version, ".".join(path))


class PanelButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=template("panel", _FIELDS)):
    """A button in a Play panel: pressing it leads to the path it names."""

    def __init__(self, game_id: int, version: str, button: panel_steps.Button, language: str = SOURCE) -> None:
        super().__init__(discord.ui.Button(
            label=render(button.label, language)[:80], style=_STYLES[button.style], disabled=button.disabled,
            custom_id=panel_id("panel", game_id, version, button.path)))
        self.game_id, self.version, self.path = game_id, version, button.path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PanelButton:
        """Rebuild the button from a press."""
        path = tuple(p for p in match["path"].split(".") if p)
        return cls(int(match["game"]), match["version"], panel_steps.Button(getattr(item, "label", None) or "?", path))

    def chosen(self, interaction: discord.Interaction[Any]) -> tuple[str, ...]:
        """The path this press leads to."""
        return self.path

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the cog that registered the panel (controls)."""
        await dispatch(interaction, self)


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select],
                  template=template("menu", _FIELDS)):
    """A select menu in a Play panel: the chosen option's key extends the path."""

    def __init__(self, game_id: int, version: str, menu: panel_steps.Menu, language: str = SOURCE) -> None:
        options = [discord.SelectOption(label=render(label, language)[:100], value=key)
                   for label, key in menu.options[:25]]
        super().__init__(discord.ui.Select(
            placeholder=render(menu.placeholder, language)[:150], options=options, min_values=1, max_values=1,
            custom_id=panel_id("menu", game_id, version, menu.path)))
        self.game_id, self.version, self.path = game_id, version, menu.path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PanelSelect:
        """Rebuild the menu from a choice."""
        path = tuple(p for p in match["path"].split(".") if p)
        options = tuple((o.label, o.value) for o in getattr(item, "options", ())) or (("?", "?"),)
        placeholder = getattr(item, "placeholder", None) or ""
        return cls(int(match["game"]), match["version"], panel_steps.Menu(placeholder, path, options))

    def chosen(self, interaction: discord.Interaction[Any]) -> tuple[str, ...]:
        """The path this choice leads to: the value Discord sent, not the options we think it had."""
        data: Any = interaction.data or {}
        values = data.get("values") or []
        return self.path + (str(values[0]) if values else "",)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the choice to the cog that registered the panel (controls)."""
        await dispatch(interaction, self)


def step_view(step: panel_steps.Step, button: Callable[[panel_steps.Button], discord.ui.Item[Any]],
              menu: Callable[[panel_steps.Menu], discord.ui.Item[Any]]) -> discord.ui.View:
    """The components of one step of a tap panel (rows in order; at most 5), each made by ``button``
    or ``menu`` (a game's panel and a puzzle's have ids of their own kinds)."""
    view = discord.ui.View(timeout=None)
    for r, row in enumerate(step.rows[:panel_steps.MAX_ROWS]):
        items = [menu(row)] if isinstance(row, panel_steps.Menu) else [button(b) for b in row[:panel_steps.ROW_BUTTONS]]
        for item in items:
            item.row = r
            view.add_item(item)
    return view


def panel_view(game_id: int, version: str, step: panel_steps.Step, language: str = SOURCE) -> discord.ui.View:
    """The components of one panel step (rows in order; at most 5), their words in ``language``."""
    return step_view(step, lambda b: PanelButton(game_id, version, b, language),
                     lambda m: PanelSelect(game_id, version, m, language))
