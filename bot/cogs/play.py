"""``/move`` (with autocomplete), ``/board`` and ``/resign``."""

from __future__ import annotations

import logging
import re
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from engine import ActionError, NotationError

from ..i18n import Text, t, tn
from ..i18n.notation import SWAP, swap_begun, universal
from ..i18n.text import Joined, Listed
from ..service import ActiveGame, Command, GameService, PlayResult
from ..ui import texts
from ..ui.answers import MENTION_USERS, THINKING, ack, answer, answer_privately, language
from ..ui.messages import game_message

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
    actions = ", ".join(f"`{a}`" for a in picks)
    if len(legal) > len(picks):
        return t("Legal now: {actions} (and {more} more — start typing in {move} to see them)", actions=actions,
                 more=len(legal) - len(picks), move=texts.Shown(Command("move")))
    return t("Legal now: {actions}", actions=actions)


def _natural(action: str) -> tuple:
    """Sort key: special actions (swap, aside …) first, then cells by column letter and row number
    (a2 before a10), token by token.

    >>> sorted(["a10", "b1", "swap", "a2"], key=_natural)
    ['swap', 'a2', 'a10', 'b1']
    """
    tokens = re.findall(r"[a-z]+|\d+|[^a-z\d\s]", action)
    special = 0 if tokens and not CELL.match(action.split()[0].split(">")[0]) and not tokens[0].isdigit() else 1
    return (special, *[(0, int(t), "") if t.isdigit() else (1, 0, t) for t in tokens])


CELL = re.compile(r"^[a-z]\d{1,2}$")


def filter_choices(legal: list[str], typed: str) -> list[tuple[str, str]]:
    """(name, value) of the legal actions matching what was typed so far, at most 25: those starting
    with it first, in natural order (special actions, then a2 before a10). While inpHeXion moves of
    more than one disc match, each of those discs comes first (``c4 → b5 c5 d4``), so that typing
    one narrows the list to its moves.

    >>> filter_choices(["c4 d4", "c4 c5", "d3 e3"], "C4")
    [('c4 c5', 'c4 c5'), ('c4 d4', 'c4 d4')]
    >>> [v for _, v in filter_choices(["c4 d4", "c4 c5", "d3 e3", "swap"], "")]
    ['swap', 'c4 ', 'd3 ', 'c4 c5', 'c4 d4', 'd3 e3']
    """
    text = " ".join(typed.lower().replace("-", " ").split())
    if text.startswith("move "):
        text = text[5:]
    squashed = text.replace(" ", "")
    starts = sorted((a for a in legal if a.startswith(text) or a.replace(" ", "").startswith(squashed)), key=_natural)
    rest = sorted((a for a in legal if a not in starts and squashed in a.replace(" ", "")), key=_natural)
    matches = starts + rest
    discs = _discs(matches)
    if len(discs) > 1:
        special = [a for a in matches if _natural(a)[0] == 0]
        others = [a for a in matches if a not in special]
        chosen = [(a, a) for a in special] + [(f"{d} → {' '.join(t)}"[:100], d + " ") for d, t in discs.items()]
        return (chosen + [(a, a) for a in others])[:MAX_CHOICES]
    return [(a, a) for a in matches[:MAX_CHOICES]]


def _discs(actions: list[str]) -> dict[str, list[str]]:
    """The discs moved by inpHeXion moves ``a b`` among ``actions``, with their targets, in order."""
    out: dict[str, list[str]] = {}
    for a in actions:
        parts = a.split()
        if len(parts) == 2 and CELL.match(parts[0]) and CELL.match(parts[1]):
            out.setdefault(parts[0], []).append(parts[1])
    return out


def secret_line(result: PlayResult) -> Text:
    """The private confirmation of a secret Blind Hex choice."""
    cards = result.before.action(result.actions[0]).typed
    return t("You chose **{cards}** — secret until your opponent has chosen too.", cards=cards)


class Play(commands.Cog):
    """Moving, showing the board, resigning."""

    def __init__(self, bot: HexBot) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        """The bot's game service."""
        return self.bot.service

    @app_commands.command(name="move", description="Play your move, e.g. c4 d4 (inpHeXion), e5 (Hex), 1+4 (Blind Hex)")
    @app_commands.guild_only()
    @app_commands.describe(action="your action in notation: c4 d4 · b2>e7 · d4 · swap · 1+4 · aside 4+5")
    async def move(self, interaction: discord.Interaction, action: app_commands.Range[str, 1, 200]) -> None:
        """Apply one action (or a whole inpHeXion turn) and post the new board."""
        # Acknowledge before the game lock and the database: the board is the usual answer.
        await ack(interaction)
        channel_id = interaction.channel_id or 0
        names = {interaction.user.id: interaction.user.display_name} if interaction.guild_id else None
        try:
            # notation is universal; ``swap`` may also be typed in the player's language
            result = await self.service.play(channel_id, interaction.user.id, universal(action), names=names)
        except ActionError as exc:
            await answer_privately(interaction, await self._refusal(channel_id, interaction.user.id, exc, action))
            return
        await announce(self.bot, interaction, result)

    async def _refusal(self, channel_id: int, user_id: int, exc: ActionError, typed: str = "") -> str:
        # Not capitalised: messages often start with a cell name, and c4 is not C4 in our notation.
        # The engine's sentences are short (a player's text is quoted shortened): no cut is needed.
        text = texts.engine_reason(exc)
        if isinstance(exc, NotationError) or len(text) < 160:
            legal = await self.service.legal_for(channel_id, user_id)
            # A disc typed (or picked in autocomplete) alone: its own moves are the useful examples.
            own = [a for a in legal if a.startswith(" ".join(typed.lower().split()) + " ")]
            hint = examples(own or legal)
            if hint:
                return Joined([text, hint], "\n")
        return text

    @move.autocomplete("action")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the caller's legal actions in this channel's game that match what they typed."""
        try:
            legal = await self.service.legal_for(interaction.channel_id or 0, interaction.user.id)
        except Exception:
            log.exception("autocomplete failed")
            return []
        # the start of a language's word for swap (``éch``, ``スワ``) offers ``swap``
        typed = SWAP if swap_begun(current) and SWAP in legal else universal(current)
        return [app_commands.Choice(name=name, value=value) for name, value in filter_choices(legal, typed)]

    @app_commands.command(name="board", description="Show this channel's game again")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction) -> None:
        """Re-post the current position (image + caption)."""
        await ack(interaction)
        game = await self.service.game_in(interaction.channel_id or 0)
        if game is None:
            await answer_privately(interaction, texts.refusal(
                await self.service.no_game_here(interaction.channel_id or 0, interaction.user.id),
                await language(interaction, private=True)))
            return
        await post_position(self.bot, interaction, game)

    @app_commands.command(name="resign", description="Resign this channel's game (your opponent wins)")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        """End the game in the opponent's favour."""
        await ack(interaction)
        result = await self.service.resign(interaction.channel_id or 0, interaction.user.id)
        names = partial(self.service.names, result.game.row.guild_id, result.game.row.seats)
        await self.bot.boards.reply_with_result(interaction, result, names, self.bot.clock.now())


async def announce(bot: HexBot, interaction: discord.Interaction, result: PlayResult) -> None:
    """Show an accepted action: the new board publicly, or for a secret Blind Hex choice a private
    confirmation (unless already answered, as by a Play panel) and a public "has chosen" line."""
    bot.dispatch("game_changed", result.game)
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.archived and not channel.locked:
        # A game thread archived while players were away comes back when someone moves.
        try:
            await channel.edit(archived=False)
        except discord.HTTPException as exc:
            # The move is saved; the reply below still shows it (Discord reopens a thread it is posted in).
            log.warning("game %d: could not unarchive thread %d: %s", result.game.row.id, channel.id, exc)
    if result.secret:
        await _secret_choice(bot, interaction, result)
        return
    names = partial(bot.service.names, result.game.row.guild_id, result.game.row.seats)
    await bot.boards.reply_with_result(interaction, result, names, bot.clock.now())


async def _secret_choice(bot: HexBot, interaction: discord.Interaction, result: PlayResult) -> None:
    """Blind Hex: confirm privately, tell the channel only that a choice was made."""
    if interaction.extras.get(THINKING) is not None or not interaction.response.is_done():
        # Our own "thinking…" (a /move): answer it privately. A Play panel has answered already.
        await answer_privately(interaction, secret_line(result))
    names = await bot.service.names(result.game.row.guild_id, result.game.row.seats)
    waiting = [result.game.user_of(c) for c in result.game.position.to_move]
    me = bot.user.id if bot.user else None
    # the computer is never pinged: it is named instead
    other = Listed([t("the computer") if u == me else f"<@{u}>" for u in waiting])
    await answer(interaction, t("{player} has chosen. Waiting for {other}.",
                                player=texts.player(result.game, result.colour, names), other=other),
                 allowed_mentions=MENTION_USERS)


async def post_position(bot: HexBot, interaction: discord.Interaction, game: ActiveGame) -> None:
    """Post a game's current position publicly as the (deferred) answer to ``interaction`` (``/board``,
    the Board button); within the server's board cooldown, a UserError points at the last one instead."""
    await bot.service.claim_board_repost(game)
    names = await bot.service.names(game.row.guild_id, game.row.seats)
    moves = len(game.position.public_record())
    # Showing the board again is no news: nobody is pinged (a spectator may have asked).
    message = await game_message(game, names, tn("Position after {n} action.", "Position after {n} actions.", moves),
                                 now=bot.clock.now(), ping=False,
                                 language=await bot.languages.public(game.row.guild_id, interaction.guild_locale))
    await bot.boards.post(partial(answer, interaction), message)


async def setup(bot: HexBot) -> None:
    """Load the cog."""
    await bot.add_cog(Play(bot))
