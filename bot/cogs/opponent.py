"""The bot as a player: whenever it is the AI's turn in a game against it, the
search runs in a worker process (never on the event loop) and its move is
posted like a person's."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

import engine

from ..i18n import render, t
from ..service import ActiveGame, GameService, PlayResult, UserError, position_version
from ..ui import texts
from ..ui.answers import MENTION_USERS, NO_MENTIONS
from ..ui.messages import mid_turn_text, result_message

if TYPE_CHECKING:
    from ..app import HexBot

log = logging.getLogger(__name__)


def loggable(line: str, secret_of: str | None, about: object = None) -> str:
    """The AI's action line (or, with ``about``, a message about it) as logs may show it:
    a secret card choice of ``secret_of`` (``x:1+4``) stays secret, and so does anything said about it."""
    if about is not None:
        return f"({type(about).__name__}; the message names a secret choice)" if secret_of else str(about)
    return f"{secret_of}:(secret)" if secret_of else line


class Opponent(commands.Cog):
    """Plays the AI's turns; one driver task per game at most."""

    def __init__(self, bot: "HexBot") -> None:
        self.bot = bot
        self._tasks: dict[int, asyncio.Task] = {}

    @property
    def service(self) -> GameService:
        """The bot's game service."""
        return self.bot.service

    def kick(self, game_id: int, seen: ActiveGame | None = None) -> None:
        """Make sure the AI looks at this game (no-op if it is already thinking about it).

        ``seen``: the game as it is now, if the caller has it (saves reading it again).
        """
        task = self._tasks.get(game_id)
        if task is None or task.done():
            task = asyncio.create_task(self._drive(game_id, seen), name=f"ai-game-{game_id}")
            self._tasks[game_id] = task
            task.add_done_callback(lambda t: self._tasks.pop(game_id) if self._tasks.get(game_id) is t else None)

    @commands.Cog.listener()
    async def on_game_changed(self, game: ActiveGame | int) -> None:
        """Something happened in a game (given as it is now, or by id): maybe it is the AI's turn now.

        A game between people is passed over without reading anything.
        """
        if isinstance(game, int):
            self.kick(game)
        elif game.row.ai_level is not None:
            self.kick(game.row.id, game)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start, resume every AI game that waits for the AI on this process's shards
        (another process resumes the others; playing one twice would still apply once)."""
        for row in await self.service.active_games():
            if row.ai_level is not None and self.bot.owns(row.guild_id):
                self.kick(row.id)

    async def cog_unload(self) -> None:
        """Stop thinking when the bot shuts down."""
        for task in self._tasks.values():
            task.cancel()

    def _my_turn(self, g: ActiveGame | None) -> str | None:
        """The AI's colour if this is a live game against it and it may act now."""
        if g is None or g.row.status != "active" or g.row.ai_level is None or self.bot.user is None:
            return None
        colour = g.colour_of(self.bot.user.id)
        return colour if colour in g.position.to_move else None

    def _opponent_of(self, g: ActiveGame) -> int | None:
        """The person the computer plays in ``g``: whose turn it waits for in the AI's fair queue."""
        return next((u for u in g.row.seats if u != self.bot.user_id), None)

    async def _drive(self, game_id: int, seen: ActiveGame | None = None) -> None:
        """Play the AI's actions in this game for as long as it is the AI's turn (from ``seen`` if given)."""
        refused = stale = 0
        try:
            while True:
                g, seen = seen or await self.service.game(game_id), None
                colour = self._my_turn(g)
                if g is None or colour is None:
                    return
                # Only what anyone may see: a human's secret Blind Hex choice is left out.
                actions = g.position.public_record()
                # The position the reply is for: after a takeback and another move the count of actions
                # can be the same again, the position not (the reply is then thought out afresh).
                chosen_for = position_version(g.row.id, g.position)
                line = await self.bot.ai.choose(g.position.options, actions, g.row.ai_level or "medium",
                                                (g.row.seed + len(actions)) & 0x7FFFFFFF, colour,
                                                owner=self._opponent_of(g))
                if refused >= 2:
                    # The search keeps choosing what the game refuses (a bug): keep the game going.
                    line = random.Random(g.row.seed).choice(g.position.legal_actions(colour))
                secret = colour if g.position.choosing_in_secret() else None
                try:
                    result = await self.service.play(g.row.channel_id, self.bot.user_id, line,
                                                     version=chosen_for)
                except UserError as exc:
                    # The game moved on while we thought (a takeback, a resignation, an abort): look again,
                    # but never spin: a refusal that keeps coming is logged and the driver stops.
                    stale += 1
                    log.log(logging.ERROR if stale >= 5 else logging.INFO,
                            "game %d: AI move %r not played: %s", game_id, loggable(line, secret), loggable(line, secret, exc))
                    if stale >= 5:
                        return
                    continue
                except engine.ActionError as exc:
                    refused += 1
                    log.error("game %d: the AI chose %r, which the game refused: %s", game_id, loggable(line, secret),
                              loggable(line, secret, exc))
                    continue
                await self._announce(g, colour, result)
        except asyncio.CancelledError:
            raise
        except discord.HTTPException:
            log.exception("game %d: could not post the AI's move (it is saved; /board shows it)", game_id)
        except Exception:
            log.exception("game %d: the AI failed to move", game_id)

    async def _names(self, g: ActiveGame) -> dict[int, str]:
        return await self.service.names(g.row.guild_id, g.row.seats)

    async def _announce(self, g: ActiveGame, colour: str, result: PlayResult) -> None:
        """Post the AI's action like a person's: the board, or only "has chosen" for a secret choice."""
        channel = await self.bot.messageable(g.row.channel_id)
        language = await self.bot.languages.public(g.row.guild_id)
        if result.secret:
            names = await self._names(g)
            await channel.send(render(t("{player} has chosen.", player=texts.player(result.game, colour, names)), language),
                               allowed_mentions=MENTION_USERS)
        elif texts.mid_writing_turn(result):
            await channel.send(render(mid_turn_text(result, await self._names(g)), language), allowed_mentions=NO_MENTIONS)
        else:
            message = await result_message(result, await self._names(g), self.bot.clock.now(), self.bot.user_id,
                                           language)
            await self.bot.boards.post(channel.send, message)


async def setup(bot: "HexBot") -> None:
    """Load the cog."""
    await bot.add_cog(Opponent(bot))
