"""A puzzle's tap panel (``/puzzle``) as Discord components: the Play panel's steps
(:mod:`.panel_steps`, worked out from the legal actions) under ids of their own kinds.

Ids: ``hx:puzzle:{attempt}:{version}:{path}`` (buttons) and ``hx:pzmenu:{attempt}:{version}:{path}``
(menus): the member's attempt (its stored row says whose it is and whether it is open), the step
it was made for (the number of moves played in the puzzle) and the choices so far, so a panel
works after a restart with nothing remembered, and a panel of an earlier step is known as such.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from ...i18n import SOURCE, render
from . import panel_steps
from .ids import custom_id, template
from .panel import step_view
from .registry import dispatch

_STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
           "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}
#: the fields of a puzzle panel id: attempt, step, path of choices
_FIELDS = r"(?P<attempt>\d+):(?P<version>\d+):(?P<path>[a-z0-9.]*)"


def _path(match: re.Match[str]) -> tuple[str, ...]:
    return tuple(p for p in match["path"].split(".") if p)


class PuzzleButton(discord.ui.DynamicItem[discord.ui.Button], template=template("puzzle", _FIELDS)):
    """A button in a puzzle's panel: pressing it leads to the path it names."""

    def __init__(self, attempt_id: int, version: int, button: panel_steps.Button, language: str = SOURCE) -> None:
        super().__init__(discord.ui.Button(
            label=render(button.label, language)[:80], style=_STYLES[button.style], disabled=button.disabled,
            custom_id=custom_id("puzzle", attempt_id, version, ".".join(button.path))))
        self.attempt_id, self.version, self.path = attempt_id, version, button.path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PuzzleButton:
        """Rebuild the button from a press."""
        label = getattr(item, "label", None) or "?"
        return cls(int(match["attempt"]), int(match["version"]), panel_steps.Button(label, _path(match)))

    def chosen(self, interaction: discord.Interaction[Any]) -> tuple[str, ...]:
        """The path this press leads to."""
        return self.path

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the puzzle cog."""
        await dispatch(interaction, self)


class PuzzleSelect(discord.ui.DynamicItem[discord.ui.Select], template=template("pzmenu", _FIELDS)):
    """A select menu in a puzzle's panel: the chosen option's key extends the path."""

    def __init__(self, attempt_id: int, version: int, menu: panel_steps.Menu, language: str = SOURCE) -> None:
        options = [discord.SelectOption(label=render(label, language)[:100], value=key)
                   for label, key in menu.options[:25]]
        super().__init__(discord.ui.Select(
            placeholder=render(menu.placeholder, language)[:150], options=options, min_values=1, max_values=1,
            custom_id=custom_id("pzmenu", attempt_id, version, ".".join(menu.path))))
        self.attempt_id, self.version, self.path = attempt_id, version, menu.path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PuzzleSelect:
        """Rebuild the menu from a choice."""
        options = tuple((o.label, o.value) for o in getattr(item, "options", ())) or (("?", "?"),)
        placeholder = getattr(item, "placeholder", None) or ""
        return cls(int(match["attempt"]), int(match["version"]), panel_steps.Menu(placeholder, _path(match), options))

    def chosen(self, interaction: discord.Interaction[Any]) -> tuple[str, ...]:
        """The path this choice leads to: the value Discord sent."""
        data: Any = interaction.data or {}
        values = data.get("values") or []
        return self.path + (str(values[0]) if values else "",)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the choice to the puzzle cog."""
        await dispatch(interaction, self)


def puzzle_view(attempt_id: int, version: int, step: panel_steps.Step, language: str = SOURCE) -> discord.ui.View:
    """The components of one step of a puzzle's panel (rows in order; at most 5), their words in ``language``."""
    return step_view(step, lambda b: PuzzleButton(attempt_id, version, b, language),
                     lambda m: PuzzleSelect(attempt_id, version, m, language))
