"""``/move`` (with autocomplete), ``/board`` and ``/resign``."""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from engine import ActionError, NotationError

from .. import texts
from ..present import MENTION_USERS, NO_MENTIONS, game_message, reply_with_result
from ..service import PlayResult

if TYPE_CHECKING:
    from ..app import HexBot

log = logging.getLogger(__name__)

MAX_CHOICES = 25


def examples(legal: list[str], limit: int = 5) -> str:
    """A few legal actions to show after a refusal, spread over the list."""
    if not legal:
        return ""
    step = max(1, len(legal) // limit)
    picks = legal[::step][:limit]
    more = f" (and {len(legal) - len(picks)} more — start typing in `/move` to see them)" if len(legal) > len(picks) else ""
    return "Legal now: " + ", ".join(f"`{a}`" for a in picks) + more


def filter_choices(legal: list[str], typed: str) -> list[str]:
    """Legal actions matching what was typed so far, best matches first, at most 25.

    >>> filter_choices(["c4 d4", "c4 c5", "d3 e3"], "C4")
    ['c4 c5', 'c4 d4']
    """
    text = " ".join(typed.lower().replace("-", " ").split())
    if text.startswith("move "):
        text = text[5:]
    squashed = text.replace(" ", "")
    starts = sorted(a for a in legal if a.startswith(text) or a.replace(" ", "").startswith(squashed))
    if len(starts) >= MAX_CHOICES:
        return starts[:MAX_CHOICES]
    rest = sorted(a for a in legal if a not in starts and squashed in a.replace(" ", ""))
    return (starts + rest)[:MAX_CHOICES]


class Play(commands.Cog):
    """Moving, showing the board, resigning."""

    def __init__(self, bot: "HexBot") -> None:
        self.bot = bot

    @property
    def service(self):
        return self.bot.service

    @app_commands.command(name="move", description="Play your move, e.g. c4 d4 (inpHeXion), e5 (Hex), 1+4 (Blind Hex)")
    @app_commands.guild_only()
    @app_commands.describe(action="your action in notation: c4 d4 · b2>e7 · d4 · swap · 1+4 · aside 4+5")
    async def move(self, interaction: discord.Interaction, action: app_commands.Range[str, 1, 200]) -> None:
        """Apply one action (or a whole inpHeXion turn) and post the new board."""
        channel_id = interaction.channel_id or 0
        try:
            result = await self.service.play(channel_id, interaction.user.id, action)
        except ActionError as exc:
            await interaction.response.send_message(
                await self._refusal(channel_id, interaction.user.id, exc), ephemeral=True, allowed_mentions=NO_MENTIONS
            )
            return
        await self.remember(interaction)
        self.bot.dispatch("game_changed", result.game)
        channel = interaction.channel
        if isinstance(channel, discord.Thread) and channel.archived and not channel.locked:
            # A game thread archived while players were away comes back when someone moves.
            try:
                await channel.edit(archived=False)
            except discord.HTTPException as exc:
                # The move is saved; the reply below still shows it (Discord reopens a thread it is posted in).
                log.warning("game %d: could not unarchive thread %d: %s", result.game.row.id, channel.id, exc)
        if result.secret:
            await self._secret_choice(interaction, result)
            return
        await reply_with_result(interaction, result, partial(self.service.names, result.game.row.guild_id, result.game.row.seats),
                                self.bot.clock.now())

    async def _refusal(self, channel_id: int, user_id: int, exc: ActionError) -> str:
        message = str(exc).rstrip(".")
        # Not capitalised: messages often start with a cell name, and c4 is not C4 in our notation.
        text = f"{message}."
        if isinstance(exc, NotationError) or len(text) < 160:
            hint = examples(await self.service.legal_for(channel_id, user_id))
            if hint:
                text += "\n" + hint
        return text[:1900]

    async def _secret_choice(self, interaction: discord.Interaction, result: PlayResult) -> None:
        """Blind Hex: confirm privately, tell the channel only that a choice was made."""
        cards = result.before.action(result.actions[0]).typed
        await interaction.response.send_message(
            f"You chose **{cards}** — secret until your opponent has chosen too.", ephemeral=True
        )
        names = await self.service.names(result.game.row.guild_id, result.game.row.seats)
        waiting = result.game.position.to_move
        other = " and ".join(f"<@{result.game.user_of(c)}>" for c in waiting)
        await interaction.followup.send(
            f"{texts.player(result.game, result.colour, names)} has chosen. Waiting for {other}.",
            allowed_mentions=MENTION_USERS,
        )

    @move.autocomplete("action")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the caller's legal actions in this channel's game that match what they typed."""
        try:
            legal = await self.service.legal_for(interaction.channel_id or 0, interaction.user.id)
        except Exception:
            log.exception("autocomplete failed")
            return []
        return [app_commands.Choice(name=a, value=a) for a in filter_choices(legal, current)]

    @app_commands.command(name="board", description="Show this channel's game again")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction) -> None:
        """Re-post the current position (image + caption)."""
        game = await self.service.game_in(interaction.channel_id or 0)
        if game is None:
            await interaction.response.send_message(
                "There is no game in progress in this channel. Start one with `/challenge`.", ephemeral=True
            )
            return
        await interaction.response.defer(thinking=True)
        names = await self.service.names(game.row.guild_id, game.row.seats)
        moves = len(game.position.public_record())
        message = await game_message(game, names, f"Position after {moves} action{'s' if moves != 1 else ''}.",
                                     now=self.bot.clock.now())
        await interaction.followup.send(**message.kwargs())

    @app_commands.command(name="resign", description="Resign this channel's game (your opponent wins)")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        """End the game in the opponent's favour."""
        result = await self.service.resign(interaction.channel_id or 0, interaction.user.id)
        await reply_with_result(interaction, result, partial(self.service.names, result.game.row.guild_id, result.game.row.seats),
                                self.bot.clock.now())

    async def remember(self, interaction: discord.Interaction) -> None:
        """Keep the caller's current display name for pictures and leaderboards."""
        if interaction.guild_id:
            await self.service.remember_names(interaction.guild_id, {interaction.user.id: interaction.user.display_name})


async def setup(bot: "HexBot") -> None:
    """Load the cog."""
    await bot.add_cog(Play(bot))
