"""``/challenge``, ``/accept``, ``/decline`` and the challenge buttons.

Thin: it reads the interaction, asks the game service, and turns the answer
into messages. Refusals are short ephemeral replies.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from .. import access
from ..choices import ClockName, Level, Seat
from ..i18n import Text, render, t, tc
from ..i18n.text import Joined
from ..service import (
    GAME_TITLES,
    ActiveGame,
    ChallengeRequest,
    ChallengeRow,
    Channel,
    Command,
    GameService,
    Option,
    StartedGame,
    UserError,
)
from ..store import TimerRow
from ..ui import texts
from ..ui.answers import MISSING_PERMISSIONS, NO_MENTIONS, ack, answer, answer_privately, language
from ..ui.components.challenge import ChallengeButton, challenge_view
from ..ui.components.gameover import RematchButton
from ..ui.components.labels import localized
from ..ui.messages import GameMessage, game_message

if TYPE_CHECKING:
    from ..app import HexBot

log = logging.getLogger(__name__)


def describe_challenge(ch: ChallengeRow) -> Text:
    """``inpHeXion 7×7 (pie), rated, challenger plays first``."""
    variants = f" ({', '.join(ch.variants)})" if ch.variants else ""
    seat = {"first": t("challenger moves first"), "second": t("challenger moves second"),
            "random": t("seats drawn at random")}[ch.seat]
    clock = t("no clock") if ch.clock == "none" else t("{clock} per move", clock=tc("choice", ch.clock))
    extras = [t("rated") if ch.rated else t("unrated"), clock, seat]
    if ch.thread:
        extras.append(t("in a new thread"))
    return t("{game} {size}×{size}{variants} — {extras}", game=GAME_TITLES[ch.game], size=ch.size, variants=variants,
             extras=Joined(extras, ", "))


class Challenges(commands.Cog):
    """Challenges: posting, accepting, declining, withdrawing, expiring."""

    def __init__(self, bot: HexBot) -> None:
        self.bot = bot
        bot.timers.on("challenge-expiry", self.on_expiry)

    @property
    def service(self) -> GameService:
        """The bot's game service."""
        return self.bot.service

    @app_commands.command(name="challenge", description="Challenge someone to inpHeXion, Hex or Blind Hex")
    @app_commands.guild_only()
    @app_commands.describe(
        opponent="who you want to play",
        game="inpHeXion, Hex or Blind Hex",
        size="board size (inpHeXion 5, 7, 9, 11; Hex 3–19; Blind Hex 11)",
        pie="inpHeXion: Black may swap colours after White's first move",
        neutral="inpHeXion: start with the neutral disc in the centre",
        free_reply="inpHeXion: Black's first turn may place anywhere",
        swap="Hex: White may swap after the first stone (default on)",
        seat="your seat: first, second or random (default)",
        rated="counts for the leaderboard (default yes)",
        thread="play in a new thread (default: this server's setting)",
        clock="time per move: 5m, 1h, 1d, 3d (default), 7d or none",
        level="against me (the bot): easy, medium (default) or hard",
    )
    @app_commands.choices(game=texts.GAME_CHOICES)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        game: str,
        size: app_commands.Range[int, 3, 19] | None = None,
        pie: bool | None = None,
        neutral: bool | None = None,
        free_reply: bool | None = None,
        swap: bool | None = None,
        seat: Seat = "random",
        rated: bool = True,
        thread: bool | None = None,
        clock: ClockName | None = None,
        level: Level | None = None,
    ) -> None:
        """Post a challenge with Accept / Decline / Withdraw buttons (or start a game against the AI)."""
        await ack(interaction)
        req = ChallengeRequest(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            channel_is_thread=isinstance(interaction.channel, discord.Thread),
            channel_can_thread=isinstance(interaction.channel, discord.TextChannel),
            # by default a game gets a thread only where the bot can make one (and post in it)
            bot_can_thread=interaction.app_permissions.create_public_threads
            and interaction.app_permissions.send_messages_in_threads,
            challenger_id=interaction.user.id,
            opponent_id=opponent.id,
            opponent_is_bot=opponent.bot,
            game=game, size=size, pie=pie, neutral=neutral, free_reply=free_reply, swap=swap,
            seat=seat, rated=rated, thread=thread, clock=clock,
        )
        names = {interaction.user.id: interaction.user.display_name, opponent.id: opponent.display_name}
        if self.bot.user is not None and opponent.id == self.bot.user.id:
            await self._play_the_computer(interaction, replace(req, opponent_is_me=True, level=level or "medium"), names)
            return
        if level is not None:
            why = UserError("{level} is for games against me (the bot); leave it out when challenging a person.",
                            level=Option("level"))
            await answer_privately(interaction, texts.refusal(why, await language(interaction, private=True)))
            return
        await self._post_challenge(interaction, req, names)

    async def _post_challenge(self, interaction: discord.Interaction, req: ChallengeRequest, names: dict[int, str],
                              what: str = "") -> None:
        """Record a challenge and post it with Accept / Decline / Withdraw, pinging only the challenged."""
        ch = await self.service.create_challenge(req, names)  # a UserError is answered privately by the handler
        opponent_id = req.opponent_id
        content = t("<@{opponent}>, **{challenger}** challenges you to {what}{challenge}.\n"
                    "Accept or decline by {time} ({accept}, {decline}).", opponent=opponent_id,
                    challenger=texts.clean(interaction.user.display_name), what=what, challenge=describe_challenge(ch),
                    time=f"<t:{int(ch.expires_at)}:t>", accept=texts.Shown(Command("accept")),
                    decline=texts.Shown(Command("decline")))
        posted = await answer(
            interaction, content, view=localized(challenge_view(ch.id), await language(interaction, private=False)),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent_id)], everyone=False, roles=False),
        )
        if posted is not None:
            await self.service.set_challenge_message(ch.id, posted.id)

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Rematch button: the same game again with the seats swapped, as a challenge to
        the other player (against the computer it starts at once)."""
        await ack(interaction)
        # the service refuses (privately, through the error handler) a second rematch of the same game
        req = await self.service.rematch_request(game_id, interaction.user.id, self.bot.user_id)
        names = {interaction.user.id: interaction.user.display_name}
        if req.opponent_is_me:
            await self._play_the_computer(interaction, req, names)
            return
        await self._post_challenge(interaction, req, names, t("a rematch of game #{id}: ", id=game_id))

    async def _play_the_computer(self, interaction: discord.Interaction, req: ChallengeRequest,
                                 names: dict[int, str]) -> None:
        """``/challenge opponent:@bot``: the game starts at once; the AI moves when it is its turn."""
        async def open_thread(who: str) -> tuple[int, int]:
            said = t("{game}: {player} vs the computer", game=GAME_TITLES[req.game], player=who)
            language = await self.bot.languages.public(interaction.guild_id, interaction.guild_locale)
            return await self._open_thread(interaction, render(said, language)[:100])

        game, cut = await self.service.start_ai_game(req, self.bot.user_id, open_thread, names)
        names = await self.service.names(game.row.guild_id, game.row.seats)
        lines: list[str] = [t("Game #{id} against the computer ({level}, unrated) begins!", id=game.row.id,
                                level=tc("choice", req.level)), texts.players_at(game, names)]
        if cut:
            winner = game.position.options.first
            lines.append(t("The cut: {cuts} — **{winner}** wins the cut.", winner=winner,
                           cuts=", ".join(f"{c} cut {cut[c]}" for c in ("x", "o"))))
        message = await game_message(game, names, *lines, now=self.bot.clock.now(), happened=t("Game #{id} begins", id=game.row.id),
                                     actor=interaction.user.id, bot_id=self.bot.user.id,  # type: ignore[union-attr]
                                     language=await self.bot.languages.public(game.row.guild_id))
        if game.row.channel_id == interaction.channel_id:
            await self.bot.boards.post(partial(answer, interaction), message)
        else:
            await answer(interaction, t("Game #{id} is in <#{channel}>.", id=game.row.id, channel=game.row.channel_id))
            await self._post_first_board(game, message, interaction)
        self.bot.dispatch("game_changed", game)

    async def _open_thread(self, interaction: discord.Interaction, title: str) -> tuple[int, int]:
        """Create a public thread for a game in the interaction's channel: (thread id, channel id)."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise UserError("Threads can only be made in a text channel.")
        try:
            thread = await channel.create_thread(name=title, type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=10080)
        except discord.HTTPException as exc:
            log.warning("could not create a thread in channel %d: %s", channel.id, exc)
            raise UserError("I can't make a thread for the game in {channel}: I'm missing the {permissions} "
                            "permission there. A server manager can allow it, or challenge again with `thread:False`.",
                            channel=Channel(channel.id), permissions=access.listed(["create_public_threads"])) from None
        return thread.id, channel.id

    @app_commands.command(name="accept", description="Accept the challenge addressed to you in this channel")
    @app_commands.guild_only()
    async def accept_cmd(self, interaction: discord.Interaction) -> None:
        """The same as pressing Accept on your newest challenge here."""
        await ack(interaction, private=True)
        ch = await self.service.challenge_to(interaction.channel_id or 0, interaction.user.id)
        await self._accept(interaction, ch.id)

    @app_commands.command(name="decline", description="Decline the challenge addressed to you in this channel")
    @app_commands.guild_only()
    async def decline_cmd(self, interaction: discord.Interaction) -> None:
        """The same as pressing Decline on your newest challenge here."""
        await ack(interaction, private=True)
        ch = await self.service.challenge_to(interaction.channel_id or 0, interaction.user.id)
        ch = await self.service.decline(ch.id, interaction.user.id)
        await answer_privately(interaction, t("Challenge declined."))
        await self._close_message(ch, t("~~{challenge}~~ — declined by <@{user}>.", challenge=describe_challenge(ch),
                                        user=ch.opponent_id))

    async def cog_load(self) -> None:
        """Answer Accept / Decline / Withdraw clicks (also on challenges posted before a restart)."""
        buttons = self.bot.button_handlers
        buttons.register(self.bot, ChallengeButton, lambda i, b: self.button(i, b.challenge_id, b.act))
        buttons.register(self.bot, RematchButton, lambda i, b: self.rematch(i, b.game_id))

    async def cog_unload(self) -> None:
        """Stop answering challenge and rematch buttons."""
        self.bot.button_handlers.unregister(ChallengeButton, RematchButton)

    async def button(self, interaction: discord.Interaction, challenge_id: int, act: str) -> None:
        """A click on Accept, Decline or Withdraw."""
        await ack(interaction, silent=True)  # the answer edits the challenge itself
        if act == "accept":
            ch = await self.service.challenge(challenge_id)
            if ch is not None and ch.status == "open" and interaction.user.id != ch.opponent_id:
                await answer_privately(interaction, t("Only the challenged player can accept this challenge."))
                return
            await self._accept(interaction, challenge_id)
            return
        if act == "decline":
            ch = await self.service.decline(challenge_id, interaction.user.id)
            note = t("~~{challenge}~~ — declined by <@{user}>.", challenge=describe_challenge(ch), user=ch.opponent_id)
        else:
            ch = await self.service.withdraw(challenge_id, interaction.user.id)
            note = t("~~{challenge}~~ — withdrawn by <@{user}>.", challenge=describe_challenge(ch), user=ch.challenger_id)
        try:
            await interaction.edit_original_response(
                content=render(note, await self.bot.languages.public(ch.guild_id, interaction.guild_locale)),
                view=None, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.warning("challenge %d: could not edit its message: %s", ch.id, exc)

    async def _accept(self, interaction: discord.Interaction, challenge_id: int) -> None:
        """Start the game (the interaction is already deferred) and post the first board."""
        async def open_thread(ch: ChallengeRow) -> tuple[int, int]:
            names = await self.service.names(ch.guild_id, (ch.challenger_id, ch.opponent_id))
            said = t("{game}: {first} vs {second}", game=GAME_TITLES[ch.game], first=names[ch.challenger_id],
                     second=names[ch.opponent_id])
            language = await self.bot.languages.public(ch.guild_id, interaction.guild_locale)
            return await self._open_thread(interaction, render(said, language)[:100])

        started = await self.service.accept(
            challenge_id, interaction.user.id, open_thread, {interaction.user.id: interaction.user.display_name}
        )
        await self._announce(interaction, started)

    async def _announce(self, interaction: discord.Interaction, started: StartedGame) -> None:
        ch, game = started.challenge, started.game
        where = t(" in <#{channel}>", channel=game.row.channel_id) if game.row.channel_id != ch.channel_id else ""
        closing = t("{challenge} — accepted by <@{user}>: game #{id}{where}.", challenge=describe_challenge(ch),
                    user=ch.opponent_id, id=game.row.id, where=where)
        if interaction.type is discord.InteractionType.component:
            # The click was on the challenge message itself: answer the interaction by editing it.
            try:
                await interaction.edit_original_response(
                    content=render(closing, await self.bot.languages.public(ch.guild_id, interaction.guild_locale)),
                    view=None, allowed_mentions=NO_MENTIONS)
            except discord.HTTPException as exc:
                # The game has started all the same: its board below is what matters.
                log.warning("challenge %d: could not edit its message: %s", ch.id, exc)
        else:
            await self._close_message(ch, closing)
            await answer(interaction, t("Accepted — game #{id}{where}.", id=game.row.id, where=where), private=True)
        names = await self.service.names(game.row.guild_id, game.row.seats)
        lines: list[str] = [texts.players_at(game, names)]
        if started.cut:
            winner = game.position.options.first
            cut = Joined([t("{player} cut {card}", player=texts.player(game, c, names), card=started.cut[c])
                          for c in ("x", "o")], ", ")
            lines.append(t("The cut: {cuts} — **{winner}** wins the cut.", cuts=cut, winner=winner))
        message = await game_message(game, names, t("Game #{id} begins!", id=game.row.id), *lines,
                                     now=self.bot.clock.now(), happened=t("Game #{id} begins", id=game.row.id),
                                     actor=interaction.user.id, bot_id=self.bot.user.id if self.bot.user else None,
                                     language=await self.bot.languages.public(game.row.guild_id))
        await self._post_first_board(game, message, interaction)

    async def _post_first_board(self, game: ActiveGame, message: GameMessage, interaction: discord.Interaction) -> None:
        """Post a new game's first board in its channel; the game exists either way (``/board`` recovers).

        When Discord refuses for want of a permission, the one who started it is told privately which.
        """
        channel: discord.abc.Messageable | None = None
        try:
            channel = await self.bot.messageable(game.row.channel_id)
            await self.bot.boards.post(channel.send, message)
        except discord.HTTPException as exc:
            log.exception("game %d: started, but its first board could not be posted (/board shows it)", game.row.id)
            if exc.code == MISSING_PERMISSIONS and isinstance(channel, discord.abc.GuildChannel | discord.Thread):
                thread = isinstance(channel, discord.Thread)
                names = access.lacking(channel.permissions_for(channel.guild.me), access.needed(thread=thread)) \
                    or access.needed(thread=thread)
                await answer_privately(interaction, access.missing_line(names, channel.id))

    async def _close_message(self, ch: ChallengeRow, content: str) -> None:
        """Edit the challenge message to its final words (in the server's language), without buttons."""
        if ch.message_id is None:
            return
        content = render(content, await self.bot.languages.public(ch.guild_id))
        try:
            channel = self.bot.get_partial_messageable(ch.channel_id, guild_id=ch.guild_id)
            await channel.get_partial_message(ch.message_id).edit(content=content, view=None, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.warning("challenge %d: could not edit its message: %s", ch.id, exc)

    async def on_expiry(self, timer: TimerRow) -> None:
        """A challenge's time is over: its message says so (again, if a crash cut the last run short)."""
        ch = await self.service.expire_challenge(timer.ref_id)
        if ch is not None:
            await self._close_message(ch, t("~~{challenge}~~ — expired (nobody accepted in time).",
                                            challenge=describe_challenge(ch)))


async def setup(bot: HexBot) -> None:
    """Load the cog."""
    await bot.add_cog(Challenges(bot))
