"""The life of a game beyond moves: clocks and reminders, ``/claim``, ``/takeback``,
``/abort``, ``/notify``, ``/settings``, and abandoned games."""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from engine import Reason

from .. import access
from ..choices import ClockName
from ..i18n import render, t
from ..i18n.text import Listed
from ..service import CLOCKS, ClosedRequest, GameService, PlayResult, UserError
from ..service.limits import LIMITS
from ..store import TimerRow
from ..timing.timers import nonce
from ..ui import review_texts, texts, tournament_texts
from ..ui.answers import MENTION_USERS, NO_MENTIONS, ack, answer, answer_privately, language
from ..ui.components.claim import ClaimButton, claim_view
from ..ui.components.labels import localized
from ..ui.components.takeback import TakebackButton, takeback_view
from ..ui.languages import GUILD, LANGUAGE_CHOICES, NAMES, USER
from ..ui.messages import game_message, result_message

if TYPE_CHECKING:
    from ..app import HexBot

log = logging.getLogger(__name__)

#: the /settings options of the limits, each with its range from bot/data/limits.toml (Discord
#: checks it; the service checks it again)
OpenChallenges = app_commands.Range[int, LIMITS["open_challenges"].low, LIMITS["open_challenges"].high]
ChallengesToMember = app_commands.Range[int, LIMITS["challenges_to_member"].low, LIMITS["challenges_to_member"].high]
AIGames = app_commands.Range[int, LIMITS["ai_games"].low, LIMITS["ai_games"].high]
BoardCooldown = app_commands.Range[int, LIMITS["board_cooldown"].low, LIMITS["board_cooldown"].high]
Replays = app_commands.Range[int, LIMITS["replays"].low, LIMITS["replays"].high]
Reviews = app_commands.Range[int, LIMITS["reviews"].low, LIMITS["reviews"].high]
OpenTournaments = app_commands.Range[int, LIMITS["open_tournaments"].low, LIMITS["open_tournaments"].high]


class Lifecycle(commands.Cog):
    """Clocks, claims, takebacks, aborts, notifications and server settings."""

    def __init__(self, bot: HexBot) -> None:
        self.bot = bot
        bot.timers.on("reminder", self.on_reminder)
        bot.timers.on("deadline", self.on_deadline)
        bot.timers.on("abandon", self.on_abandon)

    @property
    def service(self) -> GameService:
        """The bot's game service."""
        return self.bot.service

    def _bot_id(self) -> int | None:
        """This bot's user id (never pinged)."""
        return self.bot.user.id if self.bot.user else None

    async def _post_result(self, interaction: discord.Interaction, result: PlayResult) -> None:
        names = partial(self.service.names, result.game.row.guild_id, result.game.row.seats)
        await self.bot.boards.reply_with_result(interaction, result, names, self.bot.clock.now())

    # -- claim -------------------------------------------------------------------------
    @app_commands.command(name="claim", description="Claim the win when your opponent's time is up")
    @app_commands.guild_only()
    async def claim(self, interaction: discord.Interaction) -> None:
        """Win on time (reason ``timeout``, rated)."""
        await ack(interaction)
        result = await self.service.claim(interaction.channel_id or 0, interaction.user.id)
        await self._post_result(interaction, result)

    async def cog_load(self) -> None:
        """Answer takeback and Claim win clicks (also on messages posted before a restart)."""
        buttons = self.bot.button_handlers
        buttons.register(self.bot, TakebackButton, lambda i, b: self.takeback_button(i, b.takeback_id, b.act == "accept"))
        buttons.register(self.bot, ClaimButton, lambda i, b: self.claim_button(i, b.game_id))

    async def cog_unload(self) -> None:
        """Stop answering takeback and Claim win buttons."""
        self.bot.button_handlers.unregister(TakebackButton, ClaimButton)

    async def claim_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Claim win button posted when time ran out; once the game is over the button goes."""
        await ack(interaction, silent=True)  # the answer edits the button's message
        g = await self.service.game(game_id)
        if g is None or g.row.status != "active":
            # Claimed (or ended) already, e.g. with /claim: nothing left to press.
            await interaction.edit_original_response(
                content=render(t("⌛ Time ran out in game #{id}; that game is over now.", id=game_id),
                               await self._public(interaction)), view=None, allowed_mentions=NO_MENTIONS)
            return
        result = await self.service.claim(g.row.channel_id, interaction.user.id)
        names = await self.service.names(g.row.guild_id, g.row.seats)
        await interaction.edit_original_response(
            content=render(t("⌛ Time ran out in game #{id}: **{name}** claimed the win.", id=game_id,
                             name=texts.clean(names[interaction.user.id])), await self._public(interaction)),
            view=None, allowed_mentions=NO_MENTIONS)
        message = await result_message(result, names, self.bot.clock.now(), self._bot_id(),
                                       await self.bot.languages.public(g.row.guild_id, interaction.guild_locale))
        await self.bot.boards.post(partial(answer, interaction), message)

    # -- takeback ------------------------------------------------------------------------
    @app_commands.command(name="takeback", description="Ask to undo your last turn (before your opponent moves)")
    @app_commands.guild_only()
    async def takeback(self, interaction: discord.Interaction) -> None:
        """Post a takeback request with Accept / Decline for the opponent."""
        await ask_takeback(self.bot, interaction)

    async def takeback_button(self, interaction: discord.Interaction, takeback_id: int, accept: bool) -> None:
        """The opponent answers a takeback request."""
        await ack(interaction, silent=True)  # the answer edits the request itself
        try:
            tb, g = await self.service.answer_takeback(takeback_id, interaction.user.id, accept)
        except ClosedRequest as exc:
            # Nothing to decide any more: say why on the request itself and take its buttons away.
            public = await self._public(interaction)
            await self._edit_request(interaction, content=render(t("~~Takeback request~~ — {why}",
                                                                   why=texts.refusal(exc, public)), public),
                                     view=None, allowed_mentions=NO_MENTIONS)
            return
        if not accept:
            await self._edit_request(interaction, content=render(t("Takeback declined."), await self._public(interaction)),
                                     view=None)
            return
        await self._edit_request(interaction, content=render(t("Takeback accepted: undid `{undone}`.", undone=tb.undone),
                                                             await self._public(interaction)), view=None)
        names = await self.service.names(g.row.guild_id, g.row.seats)
        message = await game_message(g, names, t("Takeback: `{undone}` was undone.", undone=tb.undone),
                                     now=self.bot.clock.now(),
                                     happened=t("Takeback accepted: `{undone}` was undone", undone=tb.undone),
                                     actor=interaction.user.id, bot_id=self._bot_id(),
                                     language=await self.bot.languages.public(g.row.guild_id, interaction.guild_locale))
        await self.bot.boards.post(partial(answer, interaction), message)

    @staticmethod
    async def _edit_request(interaction: discord.Interaction, **kwargs: Any) -> None:
        """Edit the takeback request the button is on (the click is already acknowledged)."""
        try:
            await interaction.edit_original_response(**kwargs)
        except discord.HTTPException as exc:
            log.warning("could not edit takeback request %s: %s", interaction.message and interaction.message.id, exc)

    # -- abort ---------------------------------------------------------------------------
    @app_commands.command(name="abort", description="Call off a game that has barely started (no result)")
    @app_commands.guild_only()
    async def abort(self, interaction: discord.Interaction) -> None:
        """Either player, while neither has made a second action."""
        await ack(interaction)
        g = await self.service.abort(interaction.channel_id or 0, interaction.user.id)
        self.bot.dispatch("game_closed", g.row.id)
        await answer(
            interaction,
            t("Game #{id} was aborted by **{name}**: no result, no rating change.", id=g.row.id,
              name=texts.clean(interaction.user.display_name)), allowed_mentions=NO_MENTIONS,
        )

    # -- notify --------------------------------------------------------------------------
    @app_commands.command(name="notify", description="How you are reminded to move: direct message or here")
    @app_commands.describe(dm="true: remind me by direct message; false: mention me in the game's channel")
    async def notify(self, interaction: discord.Interaction, dm: bool) -> None:
        """Store the player's reminder preference."""
        await ack(interaction, private=True)
        await self.service.set_dm(interaction.user.id, dm)
        await answer_privately(interaction, t("You'll be reminded by direct message (in the channel if your DMs are closed).")
                               if dm else t("You'll be reminded with a mention in the game's channel."))

    # -- settings ------------------------------------------------------------------------
    @app_commands.command(name="settings", description="This server's defaults for games (Manage Server)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        clock="default time per move for new challenges",
        challenge_minutes="how long a challenge stays open (minutes)",
        threads="give every game its own thread where I can make one (default yes)",
        tournaments_staff_only="only members with Manage Server may create tournaments (default no)",
        background_reviews="review finished games in the background to find puzzles (default yes)",
        language="the language of public messages (boards, results); auto: the server's Discord language",
        **{name: limit.what for name, limit in LIMITS.items()},
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        clock: ClockName | None = None,
        challenge_minutes: app_commands.Range[int, 1, 1440] | None = None,
        threads: bool | None = None,
        open_challenges: OpenChallenges | None = None,
        challenges_to_member: ChallengesToMember | None = None,
        ai_games: AIGames | None = None,
        board_cooldown: BoardCooldown | None = None,
        replays: Replays | None = None,
        reviews: Reviews | None = None,
        open_tournaments: OpenTournaments | None = None,
        tournaments_staff_only: bool | None = None,
        background_reviews: bool | None = None,
        language: str | None = None,
    ) -> None:
        """Show or change the server's defaults and limits, and what the bot lacks in this channel."""
        await ack(interaction, private=True)
        if not interaction.permissions.manage_guild:
            await answer_privately(interaction, t("Only members with **Manage Server** can change settings."))
            return
        guild_id = interaction.guild_id or 0
        limits = {"open_challenges": open_challenges, "challenges_to_member": challenges_to_member,
                  "ai_games": ai_games, "board_cooldown": board_cooldown, "replays": replays, "reviews": reviews,
                  "open_tournaments": open_tournaments}
        chosen = self.service.checked_language(language) if language is not None else None
        changed, updated = await self.service.update_guild_settings(
            guild_id, clock=clock, challenge_minutes=challenge_minutes, always_thread=threads, limits=limits)
        if language is not None:
            updated = updated or await self.bot.languages.chosen(GUILD, guild_id) != chosen
            await self.bot.languages.choose(GUILD, guild_id, chosen)
        here = access.settings_line(interaction.app_permissions, interaction.channel_id or 0,
                                    thread=isinstance(interaction.channel, discord.Thread))
        now = await self.service.limits(guild_id)
        if tournaments_staff_only is not None:
            await self.service.store.set_tournament_staff_only(guild_id, tournaments_staff_only)
        staff_only = await self.service.store.tournament_staff_only(guild_id)
        if background_reviews is not None:
            updated = updated or await self.service.store.review_background(guild_id) != background_reviews
            await self.service.store.set_review_background(guild_id, background_reviews)
        background = await self.service.store.review_background(guild_id)
        spoken = await self.bot.languages.chosen(GUILD, guild_id)
        await answer_privately(interaction, t(
            "{verb}: clock **{clock}** per move · challenges open for **{minutes} min** · every game in a thread: "
            "**{thread}** · public messages in **{language}**.\nLimits per member: {limits}.\n{tournaments}\n{here}",
            verb=t("Settings updated") if updated else t("Settings"), clock=changed.default_clock,
            minutes=changed.challenge_minutes, thread=t("yes") if changed.always_thread else t("no"),
            language=NAMES[spoken] if spoken else t("the server's Discord language"),
            limits=texts.Joined([texts.limit_shown(LIMITS[name], value) for name, value in now.items()]),
            # the background reviews' line goes with the tournaments' (one message, its translations kept)
            tournaments=texts.Joined([tournament_texts.settings_line(staff_only), review_texts.settings_line(background)],
                                     "\n"), here=here,
        ))

    async def _public(self, interaction: discord.Interaction) -> str:
        """The language of a public message answering ``interaction``."""
        return await language(interaction, private=False)

    # -- timers ---------------------------------------------------------------------------
    async def _channel(self, channel_id: int) -> discord.abc.Messageable:
        """The game's channel, its thread unarchived if it was archived (a reminder must be seen)."""
        channel = await self.bot.messageable(channel_id)
        if isinstance(channel, discord.Thread) and channel.archived and not channel.locked:
            await channel.edit(archived=False)
        return channel

    async def on_reminder(self, timer: TimerRow) -> None:
        """A quarter of the time is left: remind the player(s) to move."""
        g = await self.service.due_game(timer.ref_id, timer.payload)
        if g is None or (g.row.deadline or 0) <= self.bot.clock.now():
            return  # after a long downtime the deadline itself is the news
        due = texts.relative_time(g.row.deadline or 0)
        public = await self.bot.languages.public(g.row.guild_id)
        for user_id in g.users_to_move():
            if self.bot.user is not None and user_id == self.bot.user.id:
                continue  # the computer needs no reminder
            # A nonce per seat and per way of reminding: a rerun after a crash re-sends the same
            # messages, which Discord drops, whoever has moved since (Blind Hex: both players remind).
            seat = g.row.seats.index(user_id)
            text = t("⏰ <@{user}>, your move in game #{id} — time runs out {due}.", user=user_id, id=g.row.id, due=due)
            if await self.service.wants_dm(user_id):
                try:
                    user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                    # a direct message is private: in the player's own language if they chose one
                    own = await self.bot.languages.chosen(USER, user_id) or public
                    await user.send(render(t("{reminder} It is in <#{channel}>.", reminder=text, channel=g.row.channel_id),
                                           own), nonce=nonce(timer, 2 * seat))
                    continue
                except discord.HTTPException:
                    log.info("game %d: DMs closed for %d; reminding in the channel", g.row.id, user_id)
            channel = await self._channel(g.row.channel_id)
            await channel.send(render(text, public), allowed_mentions=MENTION_USERS, nonce=nonce(timer, 2 * seat + 1))

    async def on_deadline(self, timer: TimerRow) -> None:
        """Time is up: tell the channel and offer the opponent a Claim win button."""
        g = await self.service.due_game(timer.ref_id, timer.payload)
        if g is None:
            bot_id = self._bot_id()
            again = None if bot_id is None else await self.service.ended_by_timer(timer.ref_id, Reason.TIMEOUT, bot_id)
            if again is not None:  # this timer's run that won on time for the computer died before saying so
                await self._announce_win_on_time(timer, again)
            return
        late = Listed([f"<@{u}>" for u in g.users_to_move()])
        waiting = [u for u in g.row.seats if u not in g.users_to_move()]
        if not waiting:
            return  # both players are late (Blind Hex choices): nobody can claim
        if self.bot.user is not None and waiting[0] == self.bot.user.id:
            # The computer is never away: like a chess server's clock, it ends the game at once.
            try:
                result = await self.service.claim(g.row.channel_id, self.bot.user.id)
            except UserError:
                return  # a move got in just before the deadline
            await self._announce_win_on_time(timer, result)
            return
        channel = await self._channel(g.row.channel_id)
        public = await self.bot.languages.public(g.row.guild_id)
        await channel.send(
            render(t("⌛ Time is up for {late} in game #{id}. <@{waiting}> may claim the win "
                     "(until then a move still counts).", late=late, id=g.row.id, waiting=waiting[0]), public),
            view=localized(claim_view(g.row.id), public), allowed_mentions=MENTION_USERS, nonce=nonce(timer),
        )

    async def _announce_win_on_time(self, timer: TimerRow, result: PlayResult) -> None:
        """The computer's win on time, with the final board (the timer's nonce: posted once; part 1,
        another message than the "time is up" notice of part 0)."""
        names = await self.service.names(result.game.row.guild_id, result.game.row.seats)
        message = await result_message(result, names, self.bot.clock.now(), self._bot_id(),
                                       await self.bot.languages.public(result.game.row.guild_id))
        channel = await self._channel(result.game.row.channel_id)
        await self.bot.boards.post(partial(channel.send, nonce=nonce(timer, 1)), message)

    async def on_abandon(self, timer: TimerRow) -> None:
        """No move for 30 days in a game without a clock: close it, unrated."""
        result = await self.service.abandon_if_idle(timer.ref_id)
        if result is None:
            # This timer's earlier run closed the game but its process died before saying so.
            result = await self.service.ended_by_timer(timer.ref_id, Reason.ABANDONED)
        if result is None:
            return
        names = await self.service.names(result.game.row.guild_id, result.game.row.seats)
        message = await game_message(result.game, names, texts.turn_caption(result, names), now=self.bot.clock.now(),
                                     happened=t("No move for 30 days: the game is closed"), bot_id=self._bot_id(),
                                     language=await self.bot.languages.public(result.game.row.guild_id))
        channel = await self._channel(result.game.row.channel_id)
        await self.bot.boards.post(partial(channel.send, nonce=nonce(timer)), message)


async def ask_takeback(bot: HexBot, interaction: discord.Interaction) -> None:
    """Ask for a takeback in the interaction's channel (``/takeback`` and the Takeback button)."""
    await ack(interaction)
    tb, g = await bot.service.request_takeback(interaction.channel_id or 0, interaction.user.id)
    if tb.status == "accepted":  # against the computer: granted at once
        names = await bot.service.names(g.row.guild_id, g.row.seats)
        message = await game_message(g, names, t("Takeback: `{undone}` was undone.", undone=tb.undone),
                                     now=bot.clock.now(), actor=interaction.user.id,
                                     bot_id=bot.user.id if bot.user else None,
                                     language=await bot.languages.public(g.row.guild_id, interaction.guild_locale))
        await bot.boards.post(partial(answer, interaction), message)
        return
    opponent = next(u for u in g.row.seats if u != interaction.user.id)
    await answer(
        interaction,
        t("<@{opponent}>, **{name}** asks to take back their last turn.", opponent=opponent,
          name=texts.clean(interaction.user.display_name)),
        view=localized(takeback_view(tb.id), await language(interaction, private=False)), allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent)]),
    )


async def setup(bot: HexBot) -> None:
    """Load the cog."""
    await bot.add_cog(Lifecycle(bot))


__all__ = ["Lifecycle", "CLOCKS"]
