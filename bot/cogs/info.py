"""Read-only commands: ``/leaderboard``, ``/stats``, ``/games``, ``/history``,
``/record``, ``/replay`` and ``/rules``."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engine

from .. import images, rules, texts
from ..answers import ack, answer, answer_privately
from ..choices import GameName
from ..present import EMBED_COLOUR, NO_MENTIONS
from ..ratings import PROVISIONAL_DEVIATION
from ..service import GAME_TITLES, ActiveGame
from ..store import GameRow

if TYPE_CHECKING:
    from ..app import HexBot

log = logging.getLogger(__name__)

#: The largest game number ``/record`` and ``/replay`` accept: 2**31 - 1, the top of a
#: 32-bit signed id (PostgreSQL ``integer``/``serial``), far more games than a bot will
#: ever host. Discord refuses a command whose integer bound exceeds 2**53 - 1 (the
#: spec's ``Int53Type``), so the old bound of 2**53 made every command sync fail.
MAX_GAME_ID = 2**31 - 1
GameId = app_commands.Range[int, 1, MAX_GAME_ID]


def result_text(row: GameRow, user_id: int | None = None) -> str:
    """``won``/``lost`` for a player, else ``seat 0 won by connection``-style text."""
    if row.status == "aborted":
        return "aborted"
    if row.winner_seat is None:
        return row.reason or "no result"
    if user_id is not None and user_id in row.seats:
        won = row.seats[row.winner_seat] == user_id
        return f"{'won' if won else 'lost'} ({row.reason})"
    return f"<@{row.seats[row.winner_seat]}> won ({row.reason})"


def versus_computer(row: GameRow) -> str:
    """`` vs the computer (hard)`` for a game against the bot's AI, else nothing."""
    return f" vs the computer ({row.ai_level})" if row.ai_level else ""


def when(ts: float | None) -> str:
    """A Discord timestamp that each reader sees in their own time zone."""
    return f"<t:{int(ts)}:d>" if ts else "?"


class Info(commands.Cog):
    """Leaderboards, statistics, game lists, records, replays and rules."""

    def __init__(self, bot: "HexBot") -> None:
        self.bot = bot

    @property
    def service(self):
        return self.bot.service

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: GameName) -> None:
        """Rank, name, rating ± deviation, games, wins–losses; provisional ratings marked."""
        await ack(interaction)
        rows = await self.service.leaderboard(interaction.guild_id or 0, game, limit=20)
        if not rows:
            await answer_privately(
                interaction, f"No rated {GAME_TITLES[game]} games in this server yet. Start one with `/challenge`.")
            return
        names = await self.service.names(interaction.guild_id or 0, [r.user_id for r in rows])
        lines = []
        for rank, r in enumerate(rows, 1):
            mark = "?" if r.deviation > PROVISIONAL_DEVIATION else ""
            lines.append(
                f"`{rank:>2}.` **{texts.clean(names[r.user_id])}** — {round(r.rating)}{mark} ±{round(r.deviation)}"
                f" · {r.games} game{'s' if r.games != 1 else ''} · {r.wins}–{r.losses}"
            )
        embed = discord.Embed(title=f"{GAME_TITLES[game]} leaderboard", description="\n".join(lines), colour=EMBED_COLOUR)
        embed.set_footer(text="? = provisional rating (fewer games, still settling) · Glicko-2")
        await answer(interaction, embed=embed, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="stats", description="Ratings and results of a player (you by default)")
    @app_commands.guild_only()
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
            rating = (f"{round(r.rating)}{'?' if r.deviation > PROVISIONAL_DEVIATION else ''} ±{round(r.deviation)}"
                      if r else "unrated")
            embed.add_field(name=title, value=f"Rating {rating}\n{games} games · {wins} won · {losses} lost")
        if recent:
            embed.add_field(
                name="Recent games",
                value="\n".join(f"#{g.id} {GAME_TITLES[g.game]}{versus_computer(g)} — {result_text(g, user.id)} "
                                f"{when(g.finished_at)}" for g in recent),
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
    async def history(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Recent finished games with their ids and results."""
        await ack(interaction)
        rows = await self.service.finished_games(interaction.guild_id or 0, player.id if player else None, limit=15)
        if not rows:
            await answer_privately(interaction, "No finished games yet.")
            return
        lines = [
            f"#{r.id} {GAME_TITLES[r.game]} {r.size}×{r.size} — <@{r.seat0_id}> vs <@{r.seat1_id}>: "
            f"{result_text(r, player.id if player else None)} {when(r.finished_at)}"
            for r in rows
        ]
        embed = discord.Embed(title="Recent games", description="\n".join(lines), colour=EMBED_COLOUR)
        embed.set_footer(text="/record game:<id> for the moves · /replay game:<id> for an animation")
        await answer(interaction, embed=embed, allowed_mentions=NO_MENTIONS)

    async def _visible_game(self, interaction: discord.Interaction, game_id: int) -> ActiveGame | None:
        g = await self.service.game(game_id)
        if g is None or g.row.guild_id != interaction.guild_id:
            await answer_privately(interaction, f"There is no game #{game_id} in this server. See `/history`.")
            return None
        return g

    @app_commands.command(name="record", description="A game's record as a text file")
    @app_commands.guild_only()
    @app_commands.rename(game_id="game")
    @app_commands.describe(game_id="the game's number (see /history or /games)")
    async def record(self, interaction: discord.Interaction, game_id: GameId) -> None:
        """Options + one action per line, the ``--record`` format of ``python -m engine``."""
        await ack(interaction)
        g = await self._visible_game(interaction, game_id)
        if g is None:
            return
        names = await self.service.names(g.row.guild_id, g.row.seats)
        headers = {c: names[g.user_of(c)] for c in g.position.colours}
        headers["game id"] = str(g.row.id)
        for i, tb in enumerate(await self.service.accepted_takebacks(g.row.id), 1):
            who = names.get(tb.requester_id, "?")
            headers[f"takeback {i}"] = f"{who} took back {tb.undone}"
        headers["result"] = g.position.describe_outcome() if g.position.outcome else "in progress"
        record = engine.Record(g.position.options, g.position.public_record(), headers)
        data = record.to_text().encode("utf-8")
        await answer(
            interaction,
            f"Game #{g.row.id} — replay it with `python -m engine {g.row.game} --record game-{g.row.id}.txt`"
            + (f" --size {g.row.size}" if g.row.game != "blindhex" else f" --first {g.position.options.first}")
            + "".join(f" --variant {v}" for v in g.position.options.variants),
            file=discord.File(io.BytesIO(data), filename=f"game-{g.row.id}.txt"),
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="replay", description="A game as an animated GIF")
    @app_commands.guild_only()
    @app_commands.rename(game_id="game")
    @app_commands.describe(game_id="the game's number (see /history or /games)")
    async def replay(self, interaction: discord.Interaction, game_id: GameId) -> None:
        """One frame per turn, the final position held longer."""
        await ack(interaction)
        g = await self._visible_game(interaction, game_id)
        if g is None:
            return
        names = await self.service.names(g.row.guild_id, g.row.seats)
        record = engine.Record(g.position.options, g.position.public_record())
        file = await images.replay_file(record, texts.colour_names(g, names), f"game-{g.row.id}.gif")
        await answer(interaction, f"Game #{g.row.id} — {texts.title(g)}", file=file, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="rules", description="How to play inpHeXion, Hex or Blind Hex")
    @app_commands.describe(game="which game (default inpHeXion)")
    async def rules_cmd(self, interaction: discord.Interaction, game: GameName = "inphexion") -> None:
        """A short, friendly explanation with an example picture."""
        await ack(interaction)
        text, file = await rules.explain(game)
        embed = discord.Embed(title=f"How to play {GAME_TITLES[game]}", description=text, colour=EMBED_COLOUR)
        embed.set_image(url=f"attachment://{file.filename}")
        await answer(interaction, embed=embed, file=file)


async def setup(bot: "HexBot") -> None:
    """Load the cog."""
    await bot.add_cog(Info(bot))
