"""Persistent buttons: their custom_ids name what they act on, so they keep
working after a restart.

Each cog registers the buttons it answers in ``cog_load`` with
:func:`register_buttons` (``add_dynamic_items`` plus the cog's handler for each
class), so a click reaches its cog without looking it up by name, and a cog that
is not loaded leaves its buttons answered with an apology, not silence.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from .answers import HandledElsewhere
from .present import SORRY, refuse, reply_privately
from .service import UserError

if TYPE_CHECKING:
    from .app import HexBot

log = logging.getLogger(__name__)

#: what a cog does with a click on one of its buttons (the button carries the ids it acts on)
ButtonHandler = Callable[[discord.Interaction, Any], Awaitable[None]]


def register_buttons(bot: HexBot, handlers: dict[type[discord.ui.DynamicItem[Any]], ButtonHandler]) -> None:
    """Make these button classes work (also on messages posted before a restart) and send their clicks to a cog."""
    bot.add_dynamic_items(*handlers)
    bot.button_handlers.update(handlers)


def unregister_buttons(bot: HexBot, *items: type[discord.ui.DynamicItem[Any]]) -> None:
    """Stop sending these buttons' clicks to a cog (when it unloads).

    The button classes stay known to discord.py, so a click is still answered: with
    an apology (see :func:`dispatch`) rather than "the application did not respond".
    """
    for item in items:
        bot.button_handlers.pop(item, None)


async def dispatch(interaction: discord.Interaction, button: discord.ui.DynamicItem[Any]) -> None:
    """Hand a click to the handler its cog registered, guarded like every button."""
    handlers: dict[type, ButtonHandler] = getattr(interaction.client, "button_handlers", {})
    handler = handlers.get(type(button))
    if handler is None:
        log.error("button %s: no cog handles %s", button.custom_id, type(button).__name__)
        await reply_privately(interaction, SORRY)
        return
    await guarded(interaction, button.custom_id, handler(interaction, button))


async def guarded(interaction: discord.Interaction, what: str, work: Awaitable[None]) -> None:
    """Run a button's work: a refusal is answered privately, and an unexpected error is
    logged and the clicker gets a short apology.

    discord.py only logs errors of dynamic items (the command tree's error handler never
    sees them), so without this a failed click would leave the user with no answer.
    """
    try:
        await work
    except HandledElsewhere:
        return  # another process acknowledged the click first and answers it
    except UserError as exc:
        await refuse(interaction, exc)
    except Exception:
        log.exception("button %s failed", what)
        await reply_privately(interaction, SORRY)

CHALLENGE_ID = "hexcord:challenge:{id}:{act}"


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"hexcord:challenge:(?P<id>\d+):(?P<act>accept|decline|withdraw)",
):
    """Accept / Decline (for the challenged player) and Withdraw (for the challenger)."""

    STYLES = {
        "accept": ("Accept", discord.ButtonStyle.success),
        "decline": ("Decline", discord.ButtonStyle.danger),
        "withdraw": ("Withdraw", discord.ButtonStyle.secondary),
    }

    def __init__(self, challenge_id: int, act: str) -> None:
        label, style = self.STYLES[act]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=CHALLENGE_ID.format(id=challenge_id, act=act))
        )
        self.challenge_id = challenge_id
        self.act = act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChallengeButton:
        """Rebuild the button from a click on any (even pre-restart) challenge message."""
        return cls(int(match["id"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog that registered the button (challenges)."""
        await dispatch(interaction, self)


def challenge_view(challenge_id: int) -> discord.ui.View:
    """The buttons under an open challenge."""
    view = discord.ui.View(timeout=None)
    for act in ("accept", "decline", "withdraw"):
        view.add_item(ChallengeButton(challenge_id, act))
    return view


class TakebackButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"hexcord:takeback:(?P<id>\d+):(?P<act>accept|decline)",
):
    """Accept / Decline under a takeback request (for the opponent of the one who asked)."""

    def __init__(self, takeback_id: int, act: str) -> None:
        label, style = ("Accept takeback", discord.ButtonStyle.success) if act == "accept" else \
            ("Decline", discord.ButtonStyle.danger)
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"hexcord:takeback:{takeback_id}:{act}"))
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


class ClaimButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hexcord:claim:(?P<game>\d+)"):
    """Claim win, posted when a player's time is up."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Claim win", style=discord.ButtonStyle.primary,
                                           custom_id=f"hexcord:claim:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ClaimButton:
        """Rebuild the button from a click (also after a restart)."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog that registered the button (lifecycle)."""
        await dispatch(interaction, self)


def takeback_view(takeback_id: int) -> discord.ui.View:
    """The buttons under a takeback request."""
    view = discord.ui.View(timeout=None)
    view.add_item(TakebackButton(takeback_id, "accept"))
    view.add_item(TakebackButton(takeback_id, "decline"))
    return view


def claim_view(game_id: int) -> discord.ui.View:
    """The Claim win button."""
    view = discord.ui.View(timeout=None)
    view.add_item(ClaimButton(game_id))
    return view


class GameOverButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"hexcord:over:(?P<game>\d+):(?P<act>replay|moves)",
):
    """Replay / Moves under the game-over message (the info cog answers them)."""

    STYLES = {
        "replay": ("Replay", discord.ButtonStyle.secondary),
        "moves": ("Moves", discord.ButtonStyle.secondary),
    }

    def __init__(self, game_id: int, act: str) -> None:
        label, style = self.STYLES[act]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"hexcord:over:{game_id}:{act}"))
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


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hexcord:over:(?P<game>\d+):rematch"):
    """Rematch under the game-over message (the challenges cog answers it)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success,
                                           custom_id=f"hexcord:over:{game_id}:rematch"))
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
    """The buttons under a finished game: Rematch, Replay, Moves."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id))
    view.add_item(GameOverButton(game_id, "replay"))
    view.add_item(GameOverButton(game_id, "moves"))
    return view


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"hexcord:(?P<kind>moves|replay|rules):(?P<key>[a-z0-9]+):(?P<to>\d+):(?P<act>first|prev|next|last)",
):
    """Stepping buttons: pages of a move list (key: game id), positions of a replay (game id),
    pages of the ``/rules`` tutorial (key: the game's name)."""

    LABELS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}

    def __init__(self, kind: str, key: int | str, to: int, act: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=self.LABELS[act], style=discord.ButtonStyle.secondary,
                                           custom_id=f"hexcord:{kind}:{key}:{to}:{act}", disabled=disabled))
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
