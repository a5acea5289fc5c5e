"""Read-only commands: ``/leaderboard``, ``/stats``, ``/games``, ``/history``,
``/record``, ``/replay`` and ``/rules``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engine

from .. import gamerecord, images, rules, texts
from ..answers import ack, answer, answer_privately
from ..present import EMBED_COLOUR, NO_MENTIONS
from ..ratings import PROVISIONAL_DEVIATION
from ..service import GAME_TITLES, ActiveGame
from ..store import GameRow
from ..views import GameOverButton, PageButton, register_buttons, stepper_view, unregister_buttons

if TYPE_CHECKING:
    from ..app import HexBot

log = logging.getLogger(__name__)

#: The largest game number ``/record`` and ``/replay`` accept: 2**31 - 1, the top of a
#: 32-bit signed id (PostgreSQL ``integer``/``serial``), far more games than a bot will
#: ever host. Discord refuses a command whose integer bound exceeds 2**53 - 1 (the
#: spec's ``Int53Type``), so the old bound of 2**53 made every command sync fail.
MAX_GAME_ID = 2**31 - 1
GameId = app_commands.Range[int, 1, MAX_GAME_ID]
#: The answer to a game name that is none of ours (Discord offers only the choices; this guards the rest).
CHOOSE_A_GAME = "Choose one of the listed games: " + ", ".join(GAME_TITLES.values()) + "."


def _with_view(view: discord.ui.View | None) -> dict[str, discord.ui.View]:
    """``view=`` only when there are buttons to show (a one-page list has none)."""
    return {"view": view} if view is not None else {}


def rating_text(rating: float, deviation: float) -> str:
    """``1662 ±290, provisional`` (one marker of uncertainty), or ``1580 ±60``."""
    mark = ", provisional" if deviation > PROVISIONAL_DEVIATION else ""
    return f"{round(rating)} ±{round(deviation)}{mark}"


def when(ts: float | None) -> str:
    """A Discord timestamp that each reader sees in their own time zone."""
    return f"<t:{int(ts)}:d>" if ts else "?"


class Info(commands.Cog):
    """Leaderboards, statistics, game lists, records, replays and rules."""

    def __init__(self, bot: HexBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Answer Replay / Moves under finished games and the stepping buttons (also after a restart)."""
        register_buttons(self.bot, {
            GameOverButton: lambda i, b: (self.replay_for(i, b.game_id, private=True) if b.act == "replay"
                                          else self.moves_for(i, b.game_id, private=True)),
            PageButton: self._step,
        })

    async def cog_unload(self) -> None:
        """Stop answering those buttons."""
        unregister_buttons(self.bot, GameOverButton, PageButton)

    async def _step(self, interaction: discord.Interaction, button: PageButton) -> None:
        """A ⏮ ◀ ▶ ⏭ click: page (or position) ``button.to`` of what the button belongs to."""
        if button.kind == "rules":
            await self.rules_page(interaction, button.key, button.to)
        elif not button.key.isdigit():
            await answer_privately(interaction, "That button belongs to nothing I know.")
        elif button.kind == "moves":
            await self.moves_page(interaction, int(button.key), button.to)
        else:
            await self.replay_step(interaction, int(button.key), button.to)

    @property
    def service(self):
        return self.bot.service

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.guild_only()
    @app_commands.describe(game="which game's ratings")
    @app_commands.choices(game=texts.GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """Rank, name, rating ± deviation, games, wins–losses; provisional ratings marked."""
        await ack(interaction)
        if game not in GAME_TITLES:
            await answer_privately(interaction, CHOOSE_A_GAME)
            return
        rows = await self.service.leaderboard(interaction.guild_id or 0, game, limit=20)
        if not rows:
            await answer_privately(
                interaction, f"No rated {GAME_TITLES[game]} games in this server yet. Start one with `/challenge`.")
            return
        names = await self.service.names(interaction.guild_id or 0, [r.user_id for r in rows])
        lines = []
        for rank, r in enumerate(rows, 1):
            lines.append(
                f"`{rank:>2}.` **{texts.clean(names[r.user_id])}** — {rating_text(r.rating, r.deviation)}"
                f" · {texts.plural(r.games, 'game')} · {r.wins}–{r.losses}"
            )
        embed = discord.Embed(title=f"{GAME_TITLES[game]} leaderboard", description="\n".join(lines), colour=EMBED_COLOUR)
        embed.set_footer(text="provisional: few games yet, the rating is still settling · Glicko-2")
        await answer(interaction, embed=embed, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="stats", description="Ratings and results of a player (you by default)")
    @app_commands.guild_only()
    @app_commands.describe(player="whose statistics (default: yours)")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Per game: rating, games, wins, losses; and recent results."""
        await ack(interaction)
        user = player or interaction.user
        guild = interaction.guild_id or 0
        ratings = {r.game: r for r in await self.service.player_ratings(guild, user.id)}
        record = await self.service.player_record(guild, user.id)
        recent = await self.service.finished_games(guild, user.id, limit=5)
        embed = discord.Embed(title=f"{texts.clean(user.display_name)} — stats", colour=EMBED_COLOUR)
        for game, title in GAME_TITLES.items():
            games, wins, losses = record.get(game, (0, 0, 0))
            r = ratings.get(game)
            if not games and r is None:
                continue
            rating = rating_text(r.rating, r.deviation) if r else "unrated"
            embed.add_field(name=title, value=f"Rating {rating}\n{texts.plural(games, 'game')} · {wins} won · "
                                               f"{losses} lost")
        if recent:
            names = await self._names_of(guild, recent)
            embed.add_field(
                name="Recent games",
                value="\n".join(self._recent_line(g, names, user.id) for g in recent)[:1024],
                inline=False,
            )
        if not embed.fields:
            embed.description = "No finished games yet."
        await answer(interaction, embed=embed, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="games", description="Games in progress in this server")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        """Channel, players and whose turn for every game in progress here."""
        await ack(interaction)
        rows = await self.service.active_games(interaction.guild_id or 0)
        if not rows:
            await answer_privately(interaction, "No games in progress. Start one with `/challenge`.")
            return
        lines = []
        for row in rows[:25]:
            g = await self.service.game(row.id)
            if g is None:
                continue
            turn = " and ".join(f"<@{u}>" for u in g.users_to_move())
            lines.append(f"#{row.id} {GAME_TITLES[row.game]} {row.size}×{row.size} in <#{row.channel_id}> — "
                         f"<@{row.seat0_id}> vs <@{row.seat1_id}> · to move: {turn}")
        embed = discord.Embed(title="Games in progress", description="\n".join(lines), colour=EMBED_COLOUR)
        await answer(interaction, embed=embed, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="history", description="Recent finished games (of a player, if given)")
    @app_commands.guild_only()
    @app_commands.describe(player="only this player's games (default: everyone's)")
    async def history(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Recent finished games with their ids and results."""
        await ack(interaction)
        rows = await self.service.finished_games(interaction.guild_id or 0, player.id if player else None, limit=15)
        if not rows:
            await answer_privately(interaction, "No finished games yet.")
            return
        names = await self._names_of(interaction.guild_id or 0, rows)
        lines = [
            f"#{r.id} {GAME_TITLES[r.game]} {r.size}×{r.size} — {texts.finished_result(r, names, self._bot_id())} {when(r.finished_at)}"
            for r in rows
        ]
        embed = discord.Embed(title="Recent games", description="\n".join(lines), colour=EMBED_COLOUR)
        embed.set_footer(text="/record game:<id> for the moves · /replay game:<id> for an animation")
        await answer(interaction, embed=embed, allowed_mentions=NO_MENTIONS)

    def _recent_line(self, row: GameRow, names: dict[int, str], user_id: int) -> str:
        """``#3 Hex — lost · alice wins by connection <date>``: the game-over words, led by the player's side."""
        result = " · ".join(filter(None, (texts.side(row, user_id), texts.finished_result(row, names, self._bot_id()))))
        return f"#{row.id} {GAME_TITLES[row.game]} — {result} {when(row.finished_at)}"

    def _bot_id(self) -> int | None:
        return self.bot.user.id if self.bot.user else None

    async def _names_of(self, guild_id: int, rows: list[GameRow]) -> dict[int, str]:
        """Display names of the players of ``rows``."""
        return await self.service.names(guild_id, {u for r in rows for u in r.seats})

    async def _visible_game(self, interaction: discord.Interaction, game_id: int) -> ActiveGame | None:
        g = await self.service.game(game_id)
        if g is None or g.row.guild_id != interaction.guild_id:
            await answer_privately(interaction, f"There is no game #{game_id} in this server. See `/history`.")
            return None
        return g

    @app_commands.command(name="record", description="A game's moves as a score sheet, with the files to keep")
    @app_commands.guild_only()
    @app_commands.rename(game_id="game")
    @app_commands.describe(game_id="the game's number (see /history or /games)")
    async def record(self, interaction: discord.Interaction, game_id: GameId) -> None:
        """The move list in the chat (pages with buttons) and the record file (and SGF for Hex)."""
        await self.moves_for(interaction, game_id, private=False)

    async def moves_for(self, interaction: discord.Interaction, game_id: int, *, private: bool) -> None:
        """The first page of a game's moves with its files (``private``: only for the one who asked)."""
        await ack(interaction, private=private)
        g = await self._visible_game(interaction, game_id)
        if g is None:
            return
        names = await self.service.names(g.row.guild_id, g.row.seats)
        takebacks = [(names.get(tb.requester_id, "?"), tb.undone)
                     for tb in await self.service.accepted_takebacks(g.row.id)]
        record = gamerecord.record_of(g, names, takebacks)
        embed, view = gamerecord.moves_page(g, names, 0)
        note = ("The files hold every move: open the .sgf in HexGui, or keep the .txt."
                if g.row.game == "hex" else "The file holds every move, one a line.")
        await answer(interaction, note, private=private, embed=embed, files=gamerecord.files(g, record, names),
                     allowed_mentions=NO_MENTIONS, **_with_view(view))

    async def moves_page(self, interaction: discord.Interaction, game_id: int, page: int) -> None:
        """A ◀ ▶ click on a move list: show that page in place."""
        await ack(interaction, silent=True)
        g = await self.service.game(game_id)
        if g is None:
            await answer_privately(interaction, "That game no longer exists.")
            return
        names = await self.service.names(g.row.guild_id, g.row.seats)
        embed, view = gamerecord.moves_page(g, names, page)
        await interaction.edit_original_response(embed=embed, view=view, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="replay", description="Watch a game: an animation, then step through it with buttons")
    @app_commands.guild_only()
    @app_commands.rename(game_id="game")
    @app_commands.describe(game_id="the game's number (see /history or /games)")
    async def replay(self, interaction: discord.Interaction, game_id: GameId) -> None:
        """The GIF (one frame per turn) with ⏮ ◀ ▶ ⏭ to step through the positions."""
        await self.replay_for(interaction, game_id, private=False)

    async def replay_for(self, interaction: discord.Interaction, game_id: int, *, private: bool) -> None:
        """The replay GIF with stepping buttons (``private``: only for the one who asked)."""
        await ack(interaction, private=private)
        g = await self._visible_game(interaction, game_id)
        if g is None:
            return
        names = await self.service.names(g.row.guild_id, g.row.seats)
        record = engine.Record(g.position.options, g.position.public_record())
        # names as the players sat down: the GIF moves them across from a swap on
        start = g.position.options.new_position()
        file = await images.replay_file(record, texts.colour_names(g, names, start), f"game-{g.row.id}.gif")
        last = len(gamerecord.positions(g)) - 1
        players = " vs ".join(f"**{texts.clean(names.get(u, '?'))}**" for u in g.row.seats)
        content = f"{texts.title(g)} — {players}: the whole game; ◀ ▶ step through it turn by turn."
        view = stepper_view("replay", g.row.id, last, last)
        await answer(interaction, content, private=private, file=file, allowed_mentions=NO_MENTIONS,
                     **_with_view(view))

    async def replay_step(self, interaction: discord.Interaction, game_id: int, at: int) -> None:
        """A ⏮ ◀ ▶ ⏭ click on a replay: the picture of that position, in place."""
        await ack(interaction, silent=True)
        g = await self.service.game(game_id)
        if g is None:
            await answer_privately(interaction, "That game no longer exists.")
            return
        names = await self.service.names(g.row.guild_id, g.row.seats)
        steps = gamerecord.positions(g)
        at = max(0, min(at, len(steps) - 1))
        file = await images.board_file(steps[at], texts.colour_names(g, names, steps[at]),
                                       filename=f"game-{g.row.id}-{at}.png")
        where = "the start" if at == 0 else f"turn {at} of {len(steps) - 1}"
        await interaction.edit_original_response(
            content=f"{texts.title(g)} — {where}: {texts.players_at(g, names, steps[at])}.", attachments=[file],
            view=stepper_view("replay", g.row.id, at, len(steps) - 1), allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="rules", description="How to play inpHeXion, Hex or Blind Hex")
    @app_commands.describe(game="which game (default inpHeXion)")
    @app_commands.choices(game=texts.GAME_CHOICES)
    async def rules_cmd(self, interaction: discord.Interaction, game: str = "inphexion") -> None:
        """A private step-by-step tutorial: pages with a picture of each step, ◀ ▶ to turn them."""
        await ack(interaction, private=True)
        if game not in GAME_TITLES:
            await answer_privately(interaction, CHOOSE_A_GAME)
            return
        embed, file, view = await self._rules_page(game, 0)
        await answer(interaction, private=True, embed=embed, file=file, view=view)

    async def rules_page(self, interaction: discord.Interaction, game: str, index: int) -> None:
        """A ◀ ▶ click in the tutorial: that page, in place."""
        await ack(interaction, silent=True)
        if game not in GAME_TITLES:
            await answer_privately(interaction, CHOOSE_A_GAME)
            return
        embed, file, view = await self._rules_page(game, index)
        await interaction.edit_original_response(embed=embed, attachments=[file], view=view)

    async def _rules_page(self, game: str, index: int) -> tuple[discord.Embed, discord.File, discord.ui.View]:
        pages = rules.pages(game)
        index = max(0, min(index, len(pages) - 1))
        file = await rules.page_picture(game, index)
        embed = discord.Embed(title=f"How to play {GAME_TITLES[game]} — {index + 1}/{len(pages)}: "
                                    f"{pages[index].title}", description=rules.page_text(game, index),
                              colour=EMBED_COLOUR)
        embed.set_image(url=f"attachment://{file.filename}")
        view = stepper_view("rules", game, index, len(pages) - 1)
        assert view is not None  # every game has several pages
        return embed, file, view


async def setup(bot: HexBot) -> None:
    """Load the cog."""
    await bot.add_cog(Info(bot))
