"""Builds the messages that show a game: content with mentions, an embed, the board image."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord
from discord.ext import commands

from . import images, texts
from .answers import ack, answer, answer_privately
from .controls import board_view
from .service import ActiveGame, PlayResult, UserError

log = logging.getLogger(__name__)

EMBED_COLOUR = discord.Colour.from_rgb(214, 160, 82)
#: only the people a message names may be pinged — never @everyone or roles
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
NO_MENTIONS = discord.AllowedMentions.none()


@dataclass
class GameMessage:
    """The parts of a message that shows a game."""

    content: str
    embed: discord.Embed
    file: discord.File
    game_id: int = 0
    #: Play, Board, … while the game is in progress; Rematch, Replay, Moves once it is over
    view: discord.ui.View | None = None
    #: the view is the in-game controls (the Controls cog keeps them on the newest board only)
    controls: bool = False

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``send``/``followup.send``."""
        kwargs: dict[str, Any] = {"content": self.content or None, "embed": self.embed, "file": self.file,
                                  "allowed_mentions": MENTION_USERS}
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs


async def post_board(client: discord.Client, send: Callable[..., Awaitable[Any]], message: GameMessage) -> None:
    """Send a board with ``send`` and tell the Controls cog: only the newest board of a game keeps
    its controls, and a finished game's boards lose theirs."""
    sent = await send(**message.kwargs())
    controls: Any = client.get_cog("Controls") if isinstance(client, commands.Bot) else None
    if controls is not None and message.game_id and isinstance(sent, discord.Message):
        await controls.board_posted(message.game_id, message.controls, sent)


async def game_message(game: ActiveGame, names: dict[int, str], *lines: str, now: float | None = None,
                       happened: str = "", actor: int | None = None, bot_id: int | None = None,
                       ping: bool = True, ratings: dict[int, tuple[float, float]] | None = None) -> GameMessage:
    """A message with the board after ``lines`` (what happened) and what happens next (with time left at ``now``).

    The content pings only who must act now (never ``actor``, who just acted, nor the bot;
    nobody at all with ``ping=False``) and says ``happened`` first; at the end of a game it
    pings both players, and the embed leads with the result (see :func:`game_over_embed`).
    """
    content = texts.ping_line(game, names, happened, actor=actor, bot_id=bot_id) if ping else ""
    file = await images.board_file(game.position, texts.colour_names(game, names))
    view: discord.ui.View | None = None
    if game.position.outcome is not None:
        from .views import game_over_view  # views needs this module's apology first

        embed = game_over_embed(game, names, lines, ratings or {})
        view = game_over_view(game.row.id)
    else:
        step = texts.next_step(game, names, now)
        description = "\n".join(line for line in (*lines, step) if line)
        embed = discord.Embed(title=texts.title(game), description=description[:4000], colour=EMBED_COLOUR)
        players = texts.players_at(game, names)
        active = game.row.status == "active"
        hint = " · Play or /move · Board or /board" if active else ""
        embed.set_footer(text=discord.utils.remove_markdown(players) + hint)
        view = board_view(game) if active else None
    embed.set_image(url=f"attachment://{file.filename}")
    return GameMessage(content, embed, file, game.row.id, view, controls=game.position.outcome is None and view is not None)


def game_over_embed(game: ActiveGame, names: dict[int, str], lines: tuple[str, ...],
                    ratings: dict[int, tuple[float, float]]) -> discord.Embed:
    """The end of a game: the result first, then what ended it, each player's rating change,
    the number of turns and the game id."""
    parts = [texts.result_line(game, names), *lines]
    parts += [texts.rating_change(names.get(u, "?"), *ratings[u]) for u in game.row.seats if u in ratings]
    turns = texts.turn_count(game.position)
    parts.append(f"{texts.plural(turns, 'turn')} · game #{game.row.id}" + ("" if ratings or not game.row.rated
                                                                          else " · not rated"))
    embed = discord.Embed(title=f"Game over — {texts.title(game)}", description="\n".join(p for p in parts if p)[:4000],
                          colour=EMBED_COLOUR)
    players = texts.players_at(game, names)
    embed.set_footer(text=discord.utils.remove_markdown(players) + " · Rematch, Replay or Moves below")
    return embed


async def result_message(result: PlayResult, names: dict[int, str], now: float, bot_id: int | None) -> GameMessage:
    """The board after an accepted action, resignation or claim, saying who did what and what is next."""
    return await game_message(result.game, names, texts.turn_caption(result, names), now=now,
                              happened=texts.turn_caption(result, names, colour=False).rstrip("."),
                              actor=result.user_id, bot_id=bot_id, ratings=result.rating_changes)


def mid_turn_text(result: PlayResult, names: dict[int, str]) -> str:
    """The words for a Blind Hex letter after which the same player writes again (no picture)."""
    return f"{texts.turn_caption(result, names)} {texts.next_step(result.game, names)}"


async def reply_with_result(
    interaction: discord.Interaction, result: PlayResult, names: Callable[[], Awaitable[dict[int, str]]], now: float
) -> None:
    """Answer an interaction publicly with the new board (acknowledged first if it was not: drawing takes a moment);
    in the middle of a Blind Hex writing turn with words only.

    ``names()`` gives the players' display names; it is called once the interaction is acknowledged.
    """
    await ack(interaction)
    if texts.mid_writing_turn(result):
        await answer(interaction, mid_turn_text(result, await names()), allowed_mentions=NO_MENTIONS)
        return
    bot_id = interaction.client.user.id if interaction.client.user else None
    await post_board(interaction.client, partial(answer, interaction),
                     await result_message(result, await names(), now, bot_id))


SORRY = "Sorry — something went wrong on my side. Nothing you did caused it; `/board` shows the current game."


async def reply_privately(
    interaction: discord.Interaction, message: str, mentions: discord.AllowedMentions = NO_MENTIONS
) -> None:
    """Answer with an ephemeral message, whether or not the interaction was acknowledged (publicly or not) already."""
    await answer_privately(interaction, message, mentions)


async def refuse(interaction: discord.Interaction, error: UserError) -> None:
    """The one answer to a refused request: a private message saying what is wrong (changes nothing).

    Called by the command tree's error handler and the buttons' (``views.guarded``), so
    commands and buttons just let the service's :class:`UserError` propagate.
    """
    await reply_privately(interaction, texts.refusal(error))
