"""``/review`` and the Review button under a finished game: the computer's review of a game
(issue 48), made in the AI workers behind the moves (:mod:`bot.service.reviews`), shown with
progress while it runs and at once when it was made before."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from ..i18n import render
from ..service import ActiveGame
from ..service.reviews import ReviewState
from ..ui import review_texts
from ..ui.answers import NO_MENTIONS, ack, answer, answer_privately, language
from ..ui.components.review import ReviewButton, ReviewStepButton
from ..ui.review_message import review_message, worst
from ..ui.visibility import sight_of
from .info import GameId

if TYPE_CHECKING:
    from ..app import HexBot

log = logging.getLogger(__name__)

#: the least time between two progress edits of one message (Discord's rate limits: a few seconds)
PROGRESS_EVERY = 3.0
#: how long a message follows its review: an interaction's token lasts 15 minutes
FOLLOW_FOR = 14 * 60.0


class Reviews(commands.Cog):
    """The Review button, ``/review`` and ◀ ▶ through a review's worst moves."""

    def __init__(self, bot: HexBot) -> None:
        self.bot = bot
        #: seconds between progress edits (tests lower it to see every step)
        self.progress_every = PROGRESS_EVERY

    async def cog_load(self) -> None:
        """Answer the Review button and the review's ◀ ▶ (also on messages from before a restart)."""
        buttons = self.bot.button_handlers
        buttons.register(self.bot, ReviewButton, lambda i, b: self.review_for(i, b.game_id, private=True))
        buttons.register(self.bot, ReviewStepButton, self._step)

    async def cog_unload(self) -> None:
        """Stop answering those buttons."""
        self.bot.button_handlers.unregister(ReviewButton, ReviewStepButton)

    @app_commands.command(name="review", description=review_texts.COMMAND_DESCRIPTION)
    @app_commands.guild_only()
    @app_commands.rename(game_id="game")
    @app_commands.describe(game_id=review_texts.GAME_OPTION)
    async def review(self, interaction: discord.Interaction, game_id: GameId | None = None) -> None:
        """A finished game's review (default: the member's last finished game)."""
        await self.review_for(interaction, game_id, private=False)

    async def _visible(self, interaction: discord.Interaction, game_id: int | None) -> ActiveGame | None:
        """The game if this member may see it (as /record decides), else a private refusal and None."""
        sight = sight_of(interaction)
        if game_id is None:
            assert interaction.guild_id is not None
            last = await self.bot.store.finished_games(interaction.guild_id, interaction.user.id, 1, sight)
            if not last:
                await answer_privately(interaction, review_texts.NO_FINISHED_GAME)
                return None
            game_id = last[0].id
        g = await self.bot.service.game(game_id)
        if g is None or g.row.guild_id != interaction.guild_id or not sight.sees(g.row):
            await answer_privately(interaction, review_texts.no_such_game(game_id))
            return None
        if g.row.status == "active":
            await answer_privately(interaction, review_texts.still_playing(game_id))
            return None
        return g

    async def review_for(self, interaction: discord.Interaction, game_id: int | None, *, private: bool) -> None:
        """Acknowledge, then the review: at once when kept, else progress edits until it is made."""
        await ack(interaction, private=private)
        g = await self._visible(interaction, game_id)
        if g is None:
            return
        # A review not made yet counts against the member's limit while it is made (a refusal changes nothing).
        most = (await self.bot.service.limits(g.row.guild_id))["reviews"]
        state = await self.bot.reviews.ask(g, interaction.user.id, most)
        # a private answer in the member's language, a review in the channel in the server's
        lang = await language(interaction, private)
        progressed = state.review is None
        if progressed:
            await answer(interaction, review_texts.progress(g.row.id, _percent(state)), private=private,
                         allowed_mentions=NO_MENTIONS)
        started = last_edit = time.monotonic()
        while state.review is None:
            if time.monotonic() - started > FOLLOW_FOR:
                await interaction.edit_original_response(
                    content=render(review_texts.still_running(g.row.id, _percent(state)), lang))
                return
            if not self.bot.reviews.running(g.row.id):
                # The maker gave up on it (a worker died): what is done is kept for the next ask.
                state = await self.bot.reviews.state(g) or state
                if state.review is None:
                    await interaction.edit_original_response(content=render(review_texts.failed(g.row.id), lang))
                    return
                break
            shown = state.done
            state = await self.bot.reviews.wait(g, timeout=self.progress_every)
            # Not more often than every few seconds: each edit counts against the interaction's rate limit.
            if state.review is None and state.done != shown and time.monotonic() - last_edit >= self.progress_every:
                await interaction.edit_original_response(
                    content=render(review_texts.progress(g.row.id, _percent(state)), lang))
                last_edit = time.monotonic()
        names = await self.bot.service.names(g.row.guild_id, g.row.seats)
        message = await review_message(g, names, state.review, language=lang)
        if progressed:
            await interaction.edit_original_response(allowed_mentions=NO_MENTIONS, **message.edit_kwargs())
        else:
            await answer(interaction, message.content, private=private, allowed_mentions=NO_MENTIONS,
                         **message.send_kwargs())

    async def _step(self, interaction: discord.Interaction, button: ReviewStepButton) -> None:
        """A ◀ ▶ click: show worst move ``button.to`` of the review, in place."""
        await ack(interaction, silent=True)
        g = await self.bot.service.game(button.game_id)
        state = None if g is None or g.row.status == "active" else await self.bot.reviews.state(g)
        if g is None or state is None or state.review is None or not sight_of(interaction).sees(g.row):
            await answer_privately(interaction, review_texts.STALE_BUTTON)
            return
        bad = worst(state.review)
        if not bad:
            await answer_privately(interaction, review_texts.STALE_BUTTON)
            return
        at = max(0, min(button.to, len(bad) - 1))
        names = await self.bot.service.names(g.row.guild_id, g.row.seats)
        # the message keeps its language: the member's when only they see it, else the server's
        private = bool(interaction.message is not None and interaction.message.flags.ephemeral)
        message = await review_message(g, names, state.review, at, language=await language(interaction, private))
        await interaction.edit_original_response(allowed_mentions=NO_MENTIONS, **message.edit_kwargs())


def _percent(state: ReviewState) -> int:
    return int(100 * state.share)


async def setup(bot: HexBot) -> None:
    """Load the cog."""
    await bot.add_cog(Reviews(bot))
