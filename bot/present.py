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
    #: the game controls (Play, Board, …) while the game is in progress
    view: discord.ui.View | None = None

    def kwargs(self) -> dict:
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
        await controls.board_posted(message.game_id, message.view is not None, sent)


async def game_message(game: ActiveGame, names: dict[int, str], *lines: str, now: float | None = None) -> GameMessage:
    """A message with the board after ``lines`` (what happened) and what happens next (with time left at ``now``)."""
    mention, step = texts.next_step(game, names, now)
    description = "\n".join(line for line in (*lines, step) if line)
    embed = discord.Embed(title=texts.title(game), description=description[:4000], colour=EMBED_COLOUR)
    file = await images.board_file(game.position, texts.colour_names(game, names))
    embed.set_image(url=f"attachment://{file.filename}")
    players = " · ".join(texts.player(game, c, names) for c in game.position.colours)
    active = game.row.status == "active" and game.position.outcome is None
    hint = " · Play or /move · Board or /board" if active else ""
    embed.set_footer(text=discord.utils.remove_markdown(players) + hint)
    return GameMessage(mention, embed, file, game.row.id, board_view(game) if active else None)


async def result_message(result: PlayResult, names: dict[int, str], now: float) -> GameMessage:
    """The board after an accepted action, resignation or claim, saying who did what and what is next."""
    return await game_message(result.game, names, texts.turn_caption(result, names), texts.rating_line(result, names),
                              now=now)


async def reply_with_result(
    interaction: discord.Interaction, result: PlayResult, names: Callable[[], Awaitable[dict[int, str]]], now: float
) -> None:
    """Answer an interaction publicly with the new board (acknowledged first if it was not: drawing takes a moment).

    ``names()`` gives the players' display names; it is called once the interaction is acknowledged.
    """
    await ack(interaction)
    await post_board(interaction.client, partial(answer, interaction), await result_message(result, await names(), now))


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
