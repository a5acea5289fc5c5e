"""``/tournament create|join|leave|start|cancel|standings|withdraw``, the sign-up buttons, and the
timer that runs each tournament from round to round (issue 46).

Thin: the service (:mod:`bot.service.tournaments`) keeps the tournament; this cog opens the
games' threads, posts the rounds and the standings, and edits the sign-up message.
"""

from __future__ import annotations

import asyncio
import io
import logging
import unicodedata
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from render.standings import Row, Table, render_standings

from ..choices import ClockName
from ..i18n import Text, render
from ..i18n.text import Joined
from ..service import ChallengeRequest, UserError, challenge_options
from ..service.tournament_results import TOURNAMENT_TIMER
from ..service.tournaments import State, TournamentRequest, TournamentService, settings_of, title_of, winner_of
from ..store import TimerRow
from ..store.rows import TournamentGameRow, TournamentRow
from ..timing.timers import nonce
from ..tournaments import COLUMNS, MOST_PLAYERS, MOST_ROUNDS, Format, planned_rounds
from ..ui import texts
from ..ui import tournament_texts as say
from ..ui.answers import MENTION_USERS, NO_MENTIONS, ack, answer, answer_privately, language
from ..ui.components.labels import localized
from ..ui.components.tournament import TournamentButton, signup_view
from ..ui.messages import game_message, result_message
from ..ui.pictures import sayer

if TYPE_CHECKING:
    from ..app import HexBot

log = logging.getLogger(__name__)

#: Discord's limit on a message's text
MESSAGE_LIMIT = 2000
#: rounds a timer run may announce in a row (rounds of byes only are complete at once)
MOST_ROUNDS_PER_RUN = 8
#: seconds before a round whose games could not all be started is tried again
RETRY_AFTER = 60.0


def chunks(lines: list[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """``lines`` joined into as few messages as fit ``limit`` characters each (a line never split).

    >>> chunks(["a" * 6, "b" * 6, "c"], limit=10)
    ['aaaaaa', 'bbbbbb\\nc']
    """
    out: list[str] = []
    for line in lines:
        if out and len(out[-1]) + 1 + len(line) <= limit:
            out[-1] += "\n" + line
        else:
            out.append(line[:limit])
    return out


def head_of(row: TournamentRow, count: int | None = None) -> Text:
    """The tournament's one-line description (Swiss rounds as planned for ``count`` players, when known)."""
    rounds = row.rounds
    if row.format == "swiss" and rounds is None and count is not None and count >= 2:
        rounds = planned_rounds(settings_of(row), count)
    return say.describe(row.id, title_of(row), row.size, row.variants, row.format, rounds, row.cycles, row.clock,
                        row.rated)


def discord_length(text: str) -> int:
    """A message's length as Discord counts it (UTF-16 code units: an emoji in a name may count two)."""
    return len(text.encode("utf-16-le")) // 2


def width(text: str) -> int:
    """Columns ``text`` takes in a monospace code block (East Asian wide and full-width characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def padded(text: str, columns: int, right: bool = False) -> str:
    """``text`` cut and padded to ``columns`` monospace columns (right-aligned if asked), so that the
    table's columns line up in Japanese too."""
    out = ""
    for c in text:
        if width(out + c) > columns:
            break
        out += c
    fill = " " * (columns - width(out))
    return fill + out if right else out + fill


def standings_text(st: State, final: bool, language: str, tail: str = "") -> str:
    """The standings in ``language`` as one message: one player per line with points, the labelled
    tie-break columns and games played, in a code block; the legend under it, then ``tail`` (the
    winner). A table longer than one message shows its top rows and "… and N more"."""
    columns = COLUMNS[settings_of(st.row).format]
    names = st.names()
    rank, player, points = (render(h, language) for h in say.TABLE_HEAD)
    labels = [render(say.COLUMN_LABELS[c], language) for c in columns]
    games = render(say.GAMES_HEAD, language)
    # each number column as wide as its label in the reader's language (3 at least; games 5)
    wide = [max(3, width(points)), *(max(3, width(x)) for x in labels), max(5, width(games))]
    head = f"{padded(rank, 3, True)} {padded(player, 20)} " + " ".join(
        padded(x, w, True) for x, w in zip([points, *labels, games], wide))
    gone = render(say.WITHDRAWN_MARK, language)
    rows = []
    for s in st.table():
        name = padded(names.get(int(s.player), s.player).replace("`", "'"), 20)
        cells = [str(s.points), *("-" if v is None else str(v) for v in s.tiebreaks), str(s.games)]
        rows.append(f"{s.rank:>3} {name} " + " ".join(c.rjust(w) for c, w in zip(cells, wide))
                    + (gone if s.withdrawn else ""))
    top = render(say.standings_head(st.row.id, final), language)
    after = "\n```\n" + render(say.legend(columns), language) + ("\n" + tail if tail else "")

    def composed(shown: int) -> str:
        cut = [render(say.more(len(rows) - shown), language)] if shown < len(rows) else []
        return f"{top}\n```\n{head}\n" + "\n".join(rows[:shown] + cut) + after

    shown = len(rows)
    while shown and discord_length(composed(shown)) > MESSAGE_LIMIT:
        shown -= 1
    return composed(shown)


def standings_table(st: State, final: bool, language: str) -> Table:
    """What the standings picture shows, its title and column labels in ``language``."""
    names = st.names()
    rows = tuple(Row(s.rank, names.get(int(s.player), s.player), s.points, s.tiebreaks, s.games, s.withdrawn)
                 for s in st.table())
    columns = tuple(render(say.COLUMN_LABELS[c], language) for c in COLUMNS[settings_of(st.row).format])
    return Table(rows, columns, render(say.standings_title(st.row.id, final), language))


async def standings_png(st: State, final: bool, language: str) -> bytes:
    """The standings picture in ``language`` (drawn off the event loop: CPU work)."""
    return await asyncio.to_thread(partial(render_standings, standings_table(st, final, language),
                                           say=sayer(language)))


class Tournaments(commands.GroupCog, group_name="tournament", group_description="Tournaments: Swiss, round robin, knockout"):
    """Tournaments from sign-up to the final standings."""

    def __init__(self, bot: HexBot) -> None:
        self.bot = bot
        self.service = TournamentService(bot.service)
        bot.timers.on(TOURNAMENT_TIMER, self.on_timer)
        super().__init__()

    async def cog_load(self) -> None:
        """Answer sign-up button clicks (also on messages posted before a restart)."""
        self.bot.button_handlers.register(self.bot, TournamentButton, lambda i, b: self.button(i, b.tournament_id, b.act))

    async def cog_unload(self) -> None:
        """Stop answering the sign-up buttons."""
        self.bot.button_handlers.unregister(TournamentButton)

    # -- commands ------------------------------------------------------------------------------
    @app_commands.command(name="create", description="Create a tournament here: a sign-up message with Join / Leave")
    @app_commands.guild_only()
    @app_commands.describe(
        game="inpHeXion, Hex or Blind Hex",
        format="swiss, round-robin or knockout",
        size="board size (inpHeXion 5, 7, 9, 11; Hex 3–19; Blind Hex 11)",
        pie="inpHeXion: Black may swap colours after White's first move",
        neutral="inpHeXion: start with the neutral disc in the centre",
        free_reply="inpHeXion: Black's first turn may place anywhere",
        swap="Hex: White may swap after the first stone (default on)",
        rounds="Swiss: how many rounds (default ⌈log2 n⌉ + 1)",
        double="round robin: everyone meets everyone twice, seats swapped",
        clock="time per move in every game: 5m, 1h, 1d, 3d, 7d or none (default: this server's)",
        max_players="most players who may join (default 64)",
        rated="its games count for the leaderboard (default yes)",
    )
    @app_commands.choices(game=texts.GAME_CHOICES)
    async def create(
        self, interaction: discord.Interaction, game: str, format: Format,
        size: app_commands.Range[int, 3, 19] | None = None, pie: bool | None = None, neutral: bool | None = None,
        free_reply: bool | None = None, swap: bool | None = None, rounds: app_commands.Range[int, 1, MOST_ROUNDS] | None = None,
        double: bool = False, clock: ClockName | None = None,
        max_players: app_commands.Range[int, 2, MOST_PLAYERS] = 64, rated: bool = True,
    ) -> None:
        """Open a tournament for sign-up and post its sign-up message."""
        await ack(interaction)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise UserError(say.NEEDS_TEXT_CHANNEL)
        perms = interaction.app_permissions
        if not (perms.create_public_threads and perms.send_messages_in_threads):
            raise UserError(say.NEEDS_THREADS)
        guild_id = interaction.guild_id or 0
        options = challenge_options(ChallengeRequest(
            guild_id=guild_id, channel_id=channel.id, channel_is_thread=False, challenger_id=interaction.user.id,
            opponent_id=0, opponent_is_bot=False, game=game, size=size, pie=pie, neutral=neutral,
            free_reply=free_reply, swap=swap))
        settings = await self.bot.service.store.guild_settings(guild_id)
        staff = isinstance(interaction.user, discord.Member) and interaction.user.guild_permissions.manage_guild
        row = await self.service.create(TournamentRequest(
            guild_id=guild_id, channel_id=channel.id, organiser_id=interaction.user.id, game=game, size=options.size,
            variants=options.variants, format=format, rounds=rounds, cycles=2 if double else 1,
            clock=clock or settings.default_clock, max_players=max_players, rated=rated), staff)
        st = await self.service.state(row.id)
        view = localized(signup_view(row.id), await language(interaction, private=False))
        posted = await answer(interaction, self._signup(st), view=view, allowed_mentions=NO_MENTIONS)
        if posted is not None:
            await self.service.set_message(row.id, posted.id)

    @app_commands.command(name="join", description="Join the newest open tournament of this channel")
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction) -> None:
        """The same as pressing Join."""
        await ack(interaction, private=True)
        row = await self.service.newest(interaction.channel_id or 0)
        st = await self.service.join(row.id, interaction.user.id, interaction.user.display_name)
        await answer_privately(interaction, say.joined(row.id))
        await self._refresh(st)

    @app_commands.command(name="leave", description="Leave the newest open tournament of this channel")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        """The same as pressing Leave."""
        await ack(interaction, private=True)
        row = await self.service.newest(interaction.channel_id or 0)
        st = await self.service.leave(row.id, interaction.user.id)
        await answer_privately(interaction, say.left(row.id))
        await self._refresh(st)

    @app_commands.command(name="start", description="Start your tournament in this channel (the organiser)")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction) -> None:
        """The same as pressing Start."""
        await ack(interaction, private=True)
        row = await self.service.newest(interaction.channel_id or 0)
        st = await self.service.start(row.id, interaction.user.id)
        await answer_privately(interaction, say.started(row.id, len(st.entrants)))
        await self._refresh(st)

    @app_commands.command(name="cancel", description="Cancel your tournament in this channel, before it starts or while it runs")
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        """The same as pressing Cancel; a running tournament too (no further round; games in progress play on)."""
        await ack(interaction, private=True)
        row = await self.service.newest(interaction.channel_id or 0)
        st = await self.service.cancel(row.id, interaction.user.id, running_too=True)
        await answer_privately(interaction, say.cancelled(row.id))
        if row.status == "running":  # everyone in it learns that no round follows
            try:
                public = await self.bot.languages.public(row.guild_id)
                total = st.tournament.total_rounds if st.tournament is not None else None
                await (await self.bot.messageable(row.channel_id)).send(
                    render(say.stopped(row.id, row.organiser_id, len(st.rounds), total), public),
                    allowed_mentions=NO_MENTIONS)
            except discord.HTTPException as exc:
                log.warning("tournament %d: could not announce its cancellation: %s", row.id, exc)
        await self._refresh(st)

    @app_commands.command(name="withdraw", description="Leave the running tournament of this channel (your game is resigned)")
    @app_commands.guild_only()
    async def withdraw(self, interaction: discord.Interaction) -> None:
        """Withdraw: the game in progress is resigned; later rounds pair without you."""
        await ack(interaction, private=True)
        row = await self.service.newest(interaction.channel_id or 0, ("running",))
        game = await self.service.withdraw(row.id, interaction.user.id)
        result = None
        if game is not None:
            try:
                result = await self.bot.service.resign(game.row.channel_id, interaction.user.id)
            except UserError:
                pass  # the game ended meanwhile: its result stands, the withdrawal too
        if game is not None and result is not None:
            names = await self.bot.service.names(game.row.guild_id, game.row.seats)
            message = await result_message(result, names, self.bot.clock.now(), self.bot.user_id,
                                           await self.bot.languages.public(game.row.guild_id))
            try:
                await self.bot.boards.post((await self.bot.messageable(game.row.channel_id)).send, message)
            except discord.HTTPException as exc:
                log.warning("tournament %d: could not post game %d's end: %s", row.id, game.row.id, exc)
        await answer_privately(interaction, say.withdrew(row.id, interaction.user.id))
        try:
            public = await self.bot.languages.public(row.guild_id)
            await (await self.bot.messageable(row.channel_id)).send(
                render(say.withdrew(row.id, interaction.user.id), public), allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.warning("tournament %d: could not announce a withdrawal: %s", row.id, exc)

    @app_commands.command(name="standings", description="A tournament's standings, as text and as a picture")
    @app_commands.guild_only()
    @app_commands.describe(tournament="its number (default: this channel's newest)")
    async def standings(self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1] | None = None) -> None:
        """Post the standings table and its picture."""
        await ack(interaction)
        row = await self.service.find(interaction.guild_id or 0, interaction.channel_id or 0, tournament)
        st = await self.service.state(row.id)
        if st.tournament is None:
            raise UserError(say.NOT_STARTED, id=row.id)
        final = st.row.status == "finished"
        public = await language(interaction, private=False)
        png = await standings_png(st, final, public)
        await answer(interaction, standings_text(st, final, public), file=discord.File(io.BytesIO(png), "standings.png"),
                     allowed_mentions=NO_MENTIONS)

    # -- the sign-up buttons ---------------------------------------------------------------------
    async def button(self, interaction: discord.Interaction, tournament_id: int, act: str) -> None:
        """A click on Join, Leave, Start or Cancel: the sign-up message is edited to match."""
        await ack(interaction, silent=True)
        user = interaction.user
        if act == "join":
            st = await self.service.join(tournament_id, user.id, user.display_name)
        elif act == "leave":
            st = await self.service.leave(tournament_id, user.id)
        elif act == "start":
            st = await self.service.start(tournament_id, user.id)
        else:
            st = await self.service.cancel(tournament_id, user.id)
        public = await self.bot.languages.public(st.row.guild_id, interaction.guild_locale)
        await interaction.edit_original_response(content=render(self._signup(st), public),
                                                 view=self._view(st, public), allowed_mentions=NO_MENTIONS)

    def _signup(self, st: State) -> Joined:
        return say.signup(head_of(st.row, len(st.entrants)), st.row.organiser_id, [e.user_id for e in st.entrants],
                          st.row.max_players, st.row.status)

    @staticmethod
    def _view(st: State, language: str) -> discord.ui.View | None:
        return localized(signup_view(st.row.id), language) if st.row.status == "open" else None

    async def _refresh(self, st: State) -> None:
        """Edit the sign-up message to the entrants and status now."""
        if st.row.message_id is None:
            return
        try:
            public = await self.bot.languages.public(st.row.guild_id)
            channel = self.bot.get_partial_messageable(st.row.channel_id, guild_id=st.row.guild_id)
            await channel.get_partial_message(st.row.message_id).edit(
                content=render(self._signup(st), public), view=self._view(st, public), allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.warning("tournament %d: could not edit its sign-up message: %s", st.row.id, exc)

    # -- rounds ------------------------------------------------------------------------------------
    async def on_timer(self, timer: TimerRow) -> None:
        """Move a tournament on: announce withdrawals, start and announce a new round, or post the end."""
        tid = timer.ref_id
        lapses = 0  # withdrawals announced in this run: each message its own nonce
        for _ in range(MOST_ROUNDS_PER_RUN):
            adv = await self.service.advance(tid)
            st = adv.state
            if not (adv.withdrawn or adv.round is not None or adv.final):
                return
            channel = await self.bot.messageable(st.row.channel_id)
            public = await self.bot.languages.public(st.row.guild_id)
            for user in adv.withdrawn:
                await channel.send(render(say.withdrew(tid, user, lapsed=True), public), nonce=nonce(timer, 1000 + lapses),
                                   allowed_mentions=NO_MENTIONS)
                lapses += 1
            if adv.round is not None:
                if not await self._start_games(st, adv.to_start, public):
                    await self.service.again(tid, self.bot.clock.now() + RETRY_AFTER)
                    return
                await self._announce_round(channel, await self.service.state(tid), adv.round.number, timer, public)
                await self.service.announced(tid, adv.round.number)
                continue  # a round of byes only is complete at once: the next one may be due
            if adv.final:
                await self._post_final(channel, st, timer, public)
                await self.service.finish(tid)
                await self._refresh(await self.service.state(tid))
            return

    async def _start_games(self, st: State, games: list[TournamentGameRow], public: str) -> bool:
        """Open a thread for each game not started yet and start it there; False if Discord refused one."""
        parent = await self.bot.messageable(st.row.channel_id)
        if not isinstance(parent, discord.TextChannel):
            log.warning("tournament %d: channel %d is no text channel", st.row.id, st.row.channel_id)
            return False
        names = st.names()
        for g in games:
            title = render(say.thread_title(st.row.id, g.round, names.get(g.first_id, str(g.first_id)),
                                            names.get(g.second_id, str(g.second_id))), public)
            try:
                thread = await parent.create_thread(name=title[:100], type=discord.ChannelType.public_thread,
                                                    auto_archive_duration=10080)
            except discord.HTTPException as exc:
                log.warning("tournament %d: could not make a thread: %s", st.row.id, exc)
                return False
            game = await self.service.start_game(st, g, thread.id, parent.id)
            if game is None:
                continue
            seen = await self.bot.service.names(game.row.guild_id, game.row.seats)
            seen.update({u: names[u] for u in game.row.seats if u in names})
            message = await game_message(game, seen, say.game_begins(game.row.id, st.row.id, g.round),
                                         texts.players_at(game, seen), now=self.bot.clock.now(),
                                         happened=say.game_began(game.row.id, st.row.id, g.round),
                                         bot_id=self.bot.user_id, language=public)
            try:
                await self.bot.boards.post(thread.send, message)
            except discord.HTTPException as exc:
                log.warning("tournament %d: game %d's first board: %s (/board shows it)", st.row.id, game.row.id, exc)
        return True

    async def _announce_round(self, channel: discord.abc.Messageable, st: State, number: int, timer: TimerRow,
                              public: str) -> None:
        """One public announcement per round (more messages only when 2000 characters do not hold it)."""
        assert st.tournament is not None
        lines: list[str] = [say.round_head(st.row.id, number, st.tournament.total_rounds)]
        for g in st.games_of(number):
            game = await self.bot.service.store.get_game(g.game_id) if g.game_id is not None else None
            lines.append(say.pairing_line(g.board, g.first_id, g.second_id, game.channel_id if game else st.row.channel_id))
        lines += say.bye_lines(st.rounds[number - 1].byes)
        for k, text in enumerate(chunks([render(line, public) for line in lines])):
            await channel.send(text, nonce=nonce(timer, (number % 100) * 10 + k), allowed_mentions=MENTION_USERS)

    async def _post_final(self, channel: discord.abc.Messageable, st: State, timer: TimerRow, public: str) -> None:
        """The final standings (text and picture) and the winner."""
        png = await standings_png(st, True, public)
        text = standings_text(st, True, public, render(say.winner_line(st.row.id, winner_of(st)), public))
        await channel.send(text, file=discord.File(io.BytesIO(png), "standings.png"),
                           nonce=nonce(timer, 2000), allowed_mentions=MENTION_USERS)


async def setup(bot: HexBot) -> None:
    """Load the cog."""
    await bot.add_cog(Tournaments(bot))
