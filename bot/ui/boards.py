"""Posting a game's board: one call sends it and records it as the game's live board.

Only the newest board of a game keeps its controls, and a finished game's boards
have none. So every board goes out through :meth:`LiveBoards.post`, which sends it,
records it in the service as the game's live board and takes the controls off the
board it replaces, in one step.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import discord

from ..service import GameService, PlayResult
from . import texts
from .answers import NO_MENTIONS, ack, answer
from .answers import language as answer_language
from .messages import GameMessage, mid_turn_text, result_message

log = logging.getLogger(__name__)


class LiveBoards:
    """Posts boards and keeps the controls on each game's newest one only."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self._client = client
        self._service = service

    async def post(self, send: Callable[..., Awaitable[Any]], message: GameMessage) -> None:
        """Send a board with ``send``; it becomes its game's live board (or the game is over), and
        the board before it loses its controls."""
        sent = await send(**message.kwargs())
        if message.game_id and isinstance(sent, discord.Message):
            where = (sent.channel.id, sent.id) if message.controls else None
            await self._replace(message.game_id, where, sent.id)

    async def closed(self, game_id: int) -> None:
        """A game ended without a board (aborted): its last board loses its controls."""
        await self._replace(game_id, None, None)

    async def reply_with_result(self, interaction: discord.Interaction, result: PlayResult,
                                names: Callable[[], Awaitable[dict[int, str]]], now: float) -> None:
        """Answer an interaction publicly with the new board (acknowledged first if it was not: drawing
        takes a moment); in the middle of a Blind Hex writing turn with words only.

        ``names()`` gives the players' display names; it is called once the interaction is acknowledged.
        """
        await ack(interaction)
        if texts.mid_writing_turn(result):
            await answer(interaction, mid_turn_text(result, await names()), allowed_mentions=NO_MENTIONS)
            return
        bot_id = interaction.client.user.id if interaction.client.user else None
        language = await answer_language(interaction, private=False)
        await self.post(partial(answer, interaction), await result_message(result, await names(), now, bot_id, language))

    async def _replace(self, game_id: int, where: tuple[int, int] | None, keep: int | None) -> None:
        """Record ``where`` as the game's live board and strip the controls of the one it replaces."""
        try:
            previous = await self._service.swap_board_message(game_id, where)
            if previous is None or previous[1] == keep:
                return
            channel_id, message_id = previous
            await self._client.get_partial_messageable(channel_id).get_partial_message(message_id).edit(view=None)
        except Exception as exc:
            # A deleted board, a lost permission, or shutting down: stale controls only ever answer
            # "this game is over" or open a panel for the current position, so this is no failure.
            log.warning("game %d: could not remove the controls of its previous board: %r", game_id, exc)
