"""Who answers a press on a persistent component.

Each cog registers the components it answers in ``cog_load`` with
:meth:`ButtonRegistry.register` (``add_dynamic_items`` plus the cog's typed handler
for each class); the bot holds the one registry (``HexBot.button_handlers``). A
press reaches its handler through that registry, never by looking a cog up by
name, and a component whose cog is not loaded is answered with an apology, not
silence.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import discord
from discord.ext import commands

from ...service import UserError
from ..answers import SORRY, HandledElsewhere, refuse, reply_privately

log = logging.getLogger(__name__)

Item = TypeVar("Item", bound=discord.ui.DynamicItem[Any])
#: what a cog does with a press on one of its components (the component carries the ids it acts on)
Handler = Callable[[discord.Interaction, Item], Awaitable[None]]


class ButtonRegistry:
    """Each persistent component class → the handler of the cog that registered it."""

    def __init__(self) -> None:
        self._handlers: dict[type[discord.ui.DynamicItem[Any]], Callable[[discord.Interaction, Any],
                                                                          Awaitable[None]]] = {}

    def register(self, bot: commands.Bot, item: type[Item], handler: Handler[Item]) -> None:
        """Make ``item`` work (also on messages posted before a restart) and send its presses to ``handler``."""
        bot.add_dynamic_items(item)
        self._handlers[item] = handler

    def unregister(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Stop sending these components' presses to a cog (when it unloads).

        The classes stay known to discord.py, so a press is still answered: with
        an apology (see :func:`dispatch`) rather than "the application did not respond".
        """
        for item in items:
            self._handlers.pop(item, None)

    def handler(self, item: discord.ui.DynamicItem[Any]) -> Callable[[discord.Interaction, Any], Awaitable[None]] | None:
        """The handler registered for this component's class, if its cog is loaded."""
        return self._handlers.get(type(item))

    def __iter__(self) -> Iterator[type[discord.ui.DynamicItem[Any]]]:
        """The component classes that have a handler now."""
        return iter(list(self._handlers))


def registry_of(client: discord.Client) -> ButtonRegistry | None:
    """The registry of the bot a press arrived at (None for a client without one)."""
    found = getattr(client, "button_handlers", None)
    return found if isinstance(found, ButtonRegistry) else None


async def dispatch(interaction: discord.Interaction, item: discord.ui.DynamicItem[Any]) -> None:
    """Hand a press to the handler its cog registered, guarded like every component."""
    registry = registry_of(interaction.client)
    handler = registry.handler(item) if registry is not None else None
    if handler is None:
        log.error("button %s: no cog handles %s", item.custom_id, type(item).__name__)
        await reply_privately(interaction, SORRY)
        return
    await guarded(interaction, item.custom_id, handler(interaction, item))


async def guarded(interaction: discord.Interaction, what: str, work: Awaitable[None]) -> None:
    """Run a component's work: a refusal is answered privately, and an unexpected error is
    logged and the presser gets a short apology.

    discord.py only logs errors of dynamic items (the command tree's error handler never
    sees them), so without this a failed press would leave the user with no answer.
    """
    try:
        await work
    except HandledElsewhere:
        return  # another process acknowledged the press first and answers it
    except UserError as exc:
        await refuse(interaction, exc)
    except Exception:
        log.exception("button %s failed", what)
        await reply_privately(interaction, SORRY)
