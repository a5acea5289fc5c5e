"""Read-only commands: ``/leaderboard``, ``/stats``, ``/games``, ``/history``,
``/record``, ``/replay`` and ``/rules``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engine

from ..i18n import render, t, tn
from ..i18n.text import Joined, Listed, Word
from ..ratings import PROVISIONAL_DEVIATION
from ..service import GAME_TITLES, ActiveGame, Command, GameService
from ..store import GameRow
from ..ui import pictures, records, texts, tutorial
from ..ui.answers import NO_MENTIONS, ack, answer, answer_privately, language
from ..ui.components.gameover import GameOverButton
from ..ui.components.pages import PageButton, stepper_view
from ..ui.messages import EMBED_COLOUR
from ..ui.visibility import sight_of

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
CHOOSE_A_GAME = t("Choose one of the listed games: {games}.", games=", ".join(GAME_TITLES.values()))


def _with_view(view: discord.ui.View | None) -> dict[str, discord.ui.View]:
    """``view=`` only when there are buttons to show (a one-page list has none)."""
    return {"view": view} if view is not None else {}


def rating_text(rating: float, deviation: float) -> str:
    """``1662 ±290, provisional`` (one marker of uncertainty), or ``1580 ±60``."""
    if deviation > PROVISIONAL_DEVIATION:
        return t("{rating} ±{deviation}, provisional", rating=round(rating), deviation=round(deviation))
    return f"{round(rating)} ±{round(deviation)}"


def when(ts: float | None) -> str:
    """A Discord timestamp that each reader sees in their own time zone."""
    return f"<t:{int(ts)}:d>" if ts else "?"


class Info(commands.Cog):
    """Leaderboards, statistics, game lists, records, replays and rules."""

    def __init__(self, bot: HexBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Answer Replay / Moves under finished games and the stepping buttons (also after a restart)."""
        buttons = self.bot.button_handlers
        buttons.register(self.bot, GameOverButton,
                         lambda i, b: (self.replay_for(i, b.game_id, private=True) if b.act == "replay"
                                       else self.moves_for(i, b.game_id, private=True)))
        buttons.register(self.bot, PageButton, self._step)

    async def cog_unload(self) -> None:
        """Stop answering those buttons."""
        self.bot.button_handlers.unregister(GameOverButton, PageButton)

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
    def service(self) -> GameService:
        """The bot's game service."""
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
            await answer_privately(interaction, t("No rated {game} games in this server yet. Start one with {challenge}.",
                                                  game=GAME_TITLES[game], challenge=texts.Shown(Command("challenge"))))
            return
        lang = await language(interaction, private=False)
        names = await self.service.names(interaction.guild_id or 0, [r.user_id for r in rows])
        lines = []
        for rank, r in enumerate(rows, 1):
            lines.append(render(t("`{rank}.` **{name}** — {rating} · {games} · {wins}–{losses}", rank=f"{rank:>2}",
                                  name=texts.clean(names[r.user_id]), rating=rating_text(r.rating, r.deviation),
                                  games=tn("{n} game", "{n} games", r.games), wins=r.wins, losses=r.losses), lang))
        embed = discord.Embed(title=render(t("{game} leaderboard", game=GAME_TITLES[game]), lang),
                              description="\n".join(lines), colour=EMBED_COLOUR)
        embed.set_footer(text=render(t("provisional: few games yet, the rating is still settling · Glicko-2"), lang))
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
        recent = await self.service.finished_games(guild, user.id, limit=5, sight=sight_of(interaction))
        lang = await language(interaction, private=False)
        embed = discord.Embed(title=render(t("{name} — stats", name=texts.clean(user.display_name)), lang),
                              colour=EMBED_COLOUR)
        for game, title in GAME_TITLES.items():
            games, wins, losses = record.get(game, (0, 0, 0))
            r = ratings.get(game)
            if not games and r is None:
                continue
            rating = rating_text(r.rating, r.deviation) if r else t("unrated")
            embed.add_field(name=title, value=render(t("Rating {rating}\n{games} · {wins} won · {losses} lost",
                                                       rating=rating, games=tn("{n} game", "{n} games", games),
                                                       wins=wins, losses=losses), lang))
        puzzles = await self.bot.store.puzzle_player(guild, user.id)
        if puzzles is not None:
            embed.add_field(name=render(t("Puzzles"), lang), value=render(t(
                "Rating {rating}\n{solved} solved · {failed} failed · streak {streak} (best {best})",
                rating=rating_text(puzzles.rating, puzzles.deviation), solved=puzzles.solved, failed=puzzles.failed,
                streak=puzzles.streak, best=puzzles.best_streak), lang))
        if recent:
            names = await self._names_of(guild, recent)
            embed.add_field(
                name=render(t("Recent games"), lang),
                value="\n".join(render(self._recent_line(g, names, user.id), lang) for g in recent)[:1024],
                inline=False,
            )
        if not embed.fields:
            embed.description = render(t("No finished games yet."), lang)
        await answer(interaction, embed=embed, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="games", description="Games in progress in this server")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        """Channel, players and whose turn for every game in progress here."""
        await ack(interaction)
        rows = await self.service.active_games(interaction.guild_id or 0, sight_of(interaction))
        if not rows:
            await answer_privately(interaction, t("No games in progress. Start one with {challenge}.",
                                                  challenge=texts.Shown(Command("challenge"))))
            return
        lang = await language(interaction, private=False)
        lines = []
        for row in rows[:25]:
            g = await self.service.game(row.id)
            if g is None:
                continue
            turn = Listed([f"<@{u}>" for u in g.users_to_move()])
            lines.append(render(t("#{id} {game} {size}×{size} in <#{channel}> — <@{first}> vs <@{second}> · to move: {turn}",
                                  id=row.id, game=GAME_TITLES[row.game], size=row.size, channel=row.channel_id,
                                  first=row.seat0_id, second=row.seat1_id, turn=turn), lang))
        embed = discord.Embed(title=render(t("Games in progress"), lang), description="\n".join(lines),
                              colour=EMBED_COLOUR)
        await answer(interaction, embed=embed, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="history", description="Recent finished games (of a player, if given)")
    @app_commands.guild_only()
    @app_commands.describe(player="only this player's games (default: everyone's)")
    async def history(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Recent finished games with their ids and results."""
        await ack(interaction)
        rows = await self.service.finished_games(interaction.guild_id or 0, player.id if player else None, limit=15,
                                                 sight=sight_of(interaction))
        if not rows:
            await answer_privately(interaction, t("No finished games yet."))
            return
        lang = await language(interaction, private=False)
        names = await self._names_of(interaction.guild_id or 0, rows)
        lines = [
            f"#{r.id} {GAME_TITLES[r.game]} {r.size}×{r.size} — "
            f"{render(texts.finished_result(r, names, self._bot_id()), lang)} {when(r.finished_at)}"
            for r in rows
        ]
        embed = discord.Embed(title=render(t("Recent games"), lang), description="\n".join(lines), colour=EMBED_COLOUR)
        embed.set_footer(text=render(t("/{record} {game}:<id> for the moves · /{replay} {game}:<id> for an animation",
                                       record=Word("command", "record"), replay=Word("command", "replay"),
                                       game=Word("option /record", "game")), lang))
        await answer(interaction, embed=embed, allowed_mentions=NO_MENTIONS)

    def _recent_line(self, row: GameRow, names: dict[int, str], user_id: int) -> str:
        """``#3 Hex — lost · alice wins by connection <date>``: the game-over words, led by the player's side."""
        result = Joined(list(filter(None, (texts.side(row, user_id), texts.finished_result(row, names, self._bot_id())))))
        return Joined([f"#{row.id} {GAME_TITLES[row.game]} — ", result, f" {when(row.finished_at)}"], "")

    def _bot_id(self) -> int | None:
        return self.bot.user.id if self.bot.user else None

    async def _names_of(self, guild_id: int, rows: list[GameRow]) -> dict[int, str]:
        """Display names of the players of ``rows``."""
        return await self.service.names(guild_id, {u for r in rows for u in r.seats})

    async def _visible_game(self, interaction: discord.Interaction, game_id: int) -> ActiveGame | None:
        g = await self.service.game(game_id)
        # A game in a channel this member cannot see is answered as no game at all (not even that it exists).
        if g is None or g.row.guild_id != interaction.guild_id or not sight_of(interaction).sees(g.row):
            await answer_privately(interaction, t("There is no game #{id} in this server. See {history}.", id=game_id,
                                                  history=texts.Shown(Command("history"))))
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
        record = records.record_of(g, names, takebacks)
        embed, view = records.moves_page(g, names, 0, await language(interaction, private=private))
        note = (t("The files hold every move: open the .sgf in HexGui, or keep the .txt.")
                if g.row.game == "hex" else t("The file holds every move, one a line."))
        await answer(interaction, note, private=private, embed=embed, files=records.files(g, record, names),
                     allowed_mentions=NO_MENTIONS, **_with_view(view))

    async def moves_page(self, interaction: discord.Interaction, game_id: int, page: int) -> None:
        """A ◀ ▶ click on a move list: show that page in place."""
        await ack(interaction, silent=True)
        g = await self.service.game(game_id)
        if g is None:
            await answer_privately(interaction, NO_SUCH_GAME)
            return
        names = await self.service.names(g.row.guild_id, g.row.seats)
        embed, view = records.moves_page(g, names, page, await language(interaction, private=_on_private(interaction)))
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
        # one replay in the making per member (the server's limit); a finished game's GIF is made once
        speaks = await language(interaction, private=private)
        async with self.service.replay_slot(g.row.guild_id, interaction.user.id):
            names = await self.service.names(g.row.guild_id, g.row.seats)
            record = engine.Record(g.position.options, g.position.public_record())
            # names as the players sat down: the GIF moves them across from a swap on
            start_names = texts.colour_names(g, names, g.position.options.new_position())
            gif = await self.service.replay_gif(g, start_names, pictures.replay_look(speaks),
                                                lambda: pictures.replay_gif(record, start_names, speaks))
        file = pictures.gif_file(gif, f"game-{g.row.id}.gif")
        last = len(records.positions(g)) - 1
        content = t("{title} — {players}: the whole game; ◀ ▶ step through it turn by turn.", title=texts.title(g),
                    players=records.players_line(g, names))
        view = stepper_view("replay", g.row.id, last, last)
        await answer(interaction, content, private=private, file=file, allowed_mentions=NO_MENTIONS,
                     **_with_view(view))

    async def replay_step(self, interaction: discord.Interaction, game_id: int, at: int) -> None:
        """A ⏮ ◀ ▶ ⏭ click on a replay: the picture of that position, in place."""
        await ack(interaction, silent=True)
        g = await self.service.game(game_id)
        if g is None:
            await answer_privately(interaction, NO_SUCH_GAME)
            return
        speaks = await language(interaction, private=_on_private(interaction))
        names = await self.service.names(g.row.guild_id, g.row.seats)
        steps = records.positions(g)
        at = max(0, min(at, len(steps) - 1))
        file = await pictures.board_file(steps[at], texts.colour_names(g, names, steps[at]),
                                       filename=f"game-{g.row.id}-{at}.png", language=speaks)
        where = t("the start") if at == 0 else t("turn {turn} of {turns}", turn=at, turns=len(steps) - 1)
        caption = t("{title} — {where}: {players}.", title=texts.title(g), where=where,
                    players=texts.players_at(g, names, steps[at]))
        await interaction.edit_original_response(
            content=render(caption, speaks), attachments=[file],
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
        embed, file, view = await self._rules_page(game, 0, await language(interaction, private=True))
        await answer(interaction, private=True, embed=embed, file=file, view=view)

    async def rules_page(self, interaction: discord.Interaction, game: str, index: int) -> None:
        """A ◀ ▶ click in the tutorial: that page, in place."""
        await ack(interaction, silent=True)
        if game not in GAME_TITLES:
            await answer_privately(interaction, CHOOSE_A_GAME)
            return
        embed, file, view = await self._rules_page(game, index, await language(interaction, private=True))
        await interaction.edit_original_response(embed=embed, attachments=[file], view=view)

    async def _rules_page(self, game: str, index: int,
                          lang: str) -> tuple[discord.Embed, discord.File, discord.ui.View]:
        pages = tutorial.pages(game)
        index = max(0, min(index, len(pages) - 1))
        file = await tutorial.page_picture(game, index, lang)
        embed = discord.Embed(title=render(t("How to play {game} — {page}/{pages}: {title}", game=GAME_TITLES[game],
                                             page=index + 1, pages=len(pages), title=pages[index].title), lang),
                              description=render(tutorial.page_text(game, index), lang), colour=EMBED_COLOUR)
        embed.set_image(url=f"attachment://{file.filename}")
        view = stepper_view("rules", game, index, len(pages) - 1)
        assert view is not None  # every game has several pages
        return embed, file, view


#: a move list's or replay's game deleted since (a click on its buttons)
NO_SUCH_GAME = t("That game no longer exists.")


def _on_private(interaction: discord.Interaction) -> bool:
    """Whether a click came from a private message (then its words are the member's language, else the server's)."""
    return interaction.message is not None and interaction.message.flags.ephemeral


async def setup(bot: HexBot) -> None:
    """Load the cog."""
    await bot.add_cog(Info(bot))
