"""The life of a game beyond moves: clocks and reminders, ``/claim``, ``/takeback``,
``/abort``, ``/notify``, ``/settings``, and abandoned games."""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from engine import Reason

from .. import access, texts
from ..answers import ack, answer, answer_privately
from ..choices import ClockName
from ..present import MENTION_USERS, NO_MENTIONS, game_message, post_board, reply_with_result, result_message
from ..service import CLOCKS, ClosedRequest, PlayResult, UserError
from ..store import TimerRow
from ..timers import nonce
from ..views import ClaimButton, TakebackButton, claim_view, register_buttons, takeback_view, unregister_buttons

if TYPE_CHECKING:
    from ..app import HexBot

log = logging.getLogger(__name__)


class Lifecycle(commands.Cog):
    """Clocks, claims, takebacks, aborts, notifications and server settings."""

    def __init__(self, bot: HexBot) -> None:
        self.bot = bot
        bot.timers.on("reminder", self.on_reminder)
        bot.timers.on("deadline", self.on_deadline)
        bot.timers.on("abandon", self.on_abandon)

    @property
    def service(self):
        return self.bot.service

    def _bot_id(self) -> int | None:
        """This bot's user id (never pinged)."""
        return self.bot.user.id if self.bot.user else None

    async def _post_result(self, interaction: discord.Interaction, result: PlayResult) -> None:
        await reply_with_result(interaction, result, partial(self.service.names, result.game.row.guild_id, result.game.row.seats),
                                self.bot.clock.now())

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
        register_buttons(self.bot, {
            TakebackButton: lambda i, b: self.takeback_button(i, b.takeback_id, b.act == "accept"),
            ClaimButton: lambda i, b: self.claim_button(i, b.game_id),
        })

    async def cog_unload(self) -> None:
        """Stop answering takeback and Claim win buttons."""
        unregister_buttons(self.bot, TakebackButton, ClaimButton)

    async def claim_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Claim win button posted when time ran out; once the game is over the button goes."""
        await ack(interaction, silent=True)  # the answer edits the button's message
        g = await self.service.game(game_id)
        if g is None or g.row.status != "active":
            # Claimed (or ended) already, e.g. with /claim: nothing left to press.
            await interaction.edit_original_response(
                content=f"⌛ Time ran out in game #{game_id}; that game is over now.", view=None,
                allowed_mentions=NO_MENTIONS)
            return
        result = await self.service.claim(g.row.channel_id, interaction.user.id)
        names = await self.service.names(g.row.guild_id, g.row.seats)
        await interaction.edit_original_response(
            content=f"⌛ Time ran out in game #{game_id}: **{texts.clean(names[interaction.user.id])}** claimed the win.",
            view=None, allowed_mentions=NO_MENTIONS)
        message = await result_message(result, names, self.bot.clock.now(), self._bot_id())
        await post_board(self.bot, partial(answer, interaction), message)

    # -- takeback ------------------------------------------------------------------------
    @app_commands.command(name="takeback", description="Ask to undo your last turn (before your opponent moves)")
    @app_commands.guild_only()
    async def takeback(self, interaction: discord.Interaction) -> None:
        """Post a takeback request with Accept / Decline for the opponent."""
        await self.ask_takeback(interaction)

    async def ask_takeback(self, interaction: discord.Interaction) -> None:
        """Ask for a takeback in the interaction's channel (``/takeback`` and the Takeback button)."""
        await ack(interaction)
        tb, g = await self.service.request_takeback(interaction.channel_id or 0, interaction.user.id)
        if tb.status == "accepted":  # against the computer: granted at once
            names = await self.service.names(g.row.guild_id, g.row.seats)
            message = await game_message(g, names, f"Takeback: `{tb.undone}` was undone.", now=self.bot.clock.now(),
                                         actor=interaction.user.id, bot_id=self._bot_id())
            await post_board(self.bot, partial(answer, interaction), message)
            return
        opponent = next(u for u in g.row.seats if u != interaction.user.id)
        await answer(
            interaction,
            f"<@{opponent}>, **{texts.clean(interaction.user.display_name)}** asks to take back their last turn.",
            view=takeback_view(tb.id), allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent)]),
        )

    async def takeback_button(self, interaction: discord.Interaction, takeback_id: int, accept: bool) -> None:
        """The opponent answers a takeback request."""
        await ack(interaction, silent=True)  # the answer edits the request itself
        try:
            tb, g = await self.service.answer_takeback(takeback_id, interaction.user.id, accept)
        except ClosedRequest as exc:
            # Nothing to decide any more: say why on the request itself and take its buttons away.
            await self._edit_request(interaction, content=f"~~Takeback request~~ — {exc}", view=None,
                                     allowed_mentions=NO_MENTIONS)
            return
        if not accept:
            await self._edit_request(interaction, content="Takeback declined.", view=None)
            return
        await self._edit_request(interaction, content=f"Takeback accepted: undid `{tb.undone}`.", view=None)
        names = await self.service.names(g.row.guild_id, g.row.seats)
        message = await game_message(g, names, f"Takeback: `{tb.undone}` was undone.", now=self.bot.clock.now(),
                                     happened=f"Takeback accepted: `{tb.undone}` was undone",
                                     actor=interaction.user.id, bot_id=self._bot_id())
        await post_board(self.bot, partial(answer, interaction), message)

    @staticmethod
    async def _edit_request(interaction: discord.Interaction, **kwargs) -> None:
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
            f"Game #{g.row.id} was aborted by **{texts.clean(interaction.user.display_name)}**: no result, "
            "no rating change.", allowed_mentions=NO_MENTIONS,
        )

    # -- notify --------------------------------------------------------------------------
    @app_commands.command(name="notify", description="How you are reminded to move: direct message or here")
    @app_commands.describe(dm="true: remind me by direct message; false: mention me in the game's channel")
    async def notify(self, interaction: discord.Interaction, dm: bool) -> None:
        """Store the player's reminder preference."""
        await ack(interaction, private=True)
        await self.service.set_dm(interaction.user.id, dm)
        where = "by direct message (in the channel if your DMs are closed)" if dm else "with a mention in the game's channel"
        await answer_privately(interaction, f"You'll be reminded {where}.")

    # -- settings ------------------------------------------------------------------------
    @app_commands.command(name="settings", description="This server's defaults for games (Manage Server)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        clock="default time per move for new challenges",
        challenge_minutes="how long a challenge stays open (minutes)",
        threads="give every game its own thread where I can make one (default yes)",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        clock: ClockName | None = None,
        challenge_minutes: app_commands.Range[int, 1, 1440] | None = None,
        threads: bool | None = None,
    ) -> None:
        """Show or change the server's defaults, and what the bot lacks in this channel."""
        await ack(interaction, private=True)
        if not interaction.permissions.manage_guild:
            await answer_privately(interaction, "Only members with **Manage Server** can change settings.")
            return
        changed, updated = await self.service.update_guild_settings(
            interaction.guild_id or 0, clock=clock, challenge_minutes=challenge_minutes, always_thread=threads)
        verb = "Settings updated" if updated else "Settings"
        here = access.settings_line(interaction.app_permissions, interaction.channel_id or 0,
                                    thread=isinstance(interaction.channel, discord.Thread))
        await answer_privately(
            interaction,
            f"{verb}: clock **{changed.default_clock}** per move · challenges open for "
            f"**{changed.challenge_minutes} min** · every game in a thread: **{'yes' if changed.always_thread else 'no'}**.\n"
            + here,
        )

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
        for user_id in g.users_to_move():
            if self.bot.user is not None and user_id == self.bot.user.id:
                continue  # the computer needs no reminder
            # A nonce per seat and per way of reminding: a rerun after a crash re-sends the same
            # messages, which Discord drops, whoever has moved since (Blind Hex: both players remind).
            seat = g.row.seats.index(user_id)
            text = f"⏰ <@{user_id}>, your move in game #{g.row.id} — time runs out {due}."
            if await self.service.wants_dm(user_id):
                try:
                    user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                    await user.send(f"{text} It is in <#{g.row.channel_id}>.", nonce=nonce(timer, 2 * seat))
                    continue
                except discord.HTTPException:
                    log.info("game %d: DMs closed for %d; reminding in the channel", g.row.id, user_id)
            channel = await self._channel(g.row.channel_id)
            await channel.send(text, allowed_mentions=MENTION_USERS, nonce=nonce(timer, 2 * seat + 1))

    async def on_deadline(self, timer: TimerRow) -> None:
        """Time is up: tell the channel and offer the opponent a Claim win button."""
        g = await self.service.due_game(timer.ref_id, timer.payload)
        if g is None:
            bot_id = self._bot_id()
            again = None if bot_id is None else await self.service.ended_by_timer(timer.ref_id, Reason.TIMEOUT, bot_id)
            if again is not None:  # this timer's run that won on time for the computer died before saying so
                await self._announce_win_on_time(timer, again)
            return
        late = " and ".join(f"<@{u}>" for u in g.users_to_move())
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
        await channel.send(
            f"⌛ Time is up for {late} in game #{g.row.id}. <@{waiting[0]}> may claim the win "
            "(until then a move still counts).",
            view=claim_view(g.row.id), allowed_mentions=MENTION_USERS, nonce=nonce(timer),
        )

    async def _announce_win_on_time(self, timer: TimerRow, result: PlayResult) -> None:
        """The computer's win on time, with the final board (the timer's nonce: posted once; part 1,
        another message than the "time is up" notice of part 0)."""
        names = await self.service.names(result.game.row.guild_id, result.game.row.seats)
        message = await result_message(result, names, self.bot.clock.now(), self._bot_id())
        channel = await self._channel(result.game.row.channel_id)
        await post_board(self.bot, partial(channel.send, nonce=nonce(timer, 1)), message)

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
                                     happened="No move for 30 days: the game is closed", bot_id=self._bot_id())
        channel = await self._channel(result.game.row.channel_id)
        await post_board(self.bot, partial(channel.send, nonce=nonce(timer)), message)


async def setup(bot: HexBot) -> None:
    """Load the cog."""
    await bot.add_cog(Lifecycle(bot))


__all__ = ["Lifecycle", "CLOCKS"]
