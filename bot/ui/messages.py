"""Builds the messages that show a game: content with mentions, an embed, the board image."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from ..i18n import SOURCE, render, t, tn
from ..i18n.text import Joined, word
from ..service import ActiveGame, PlayResult
from . import pictures, texts
from .answers import MENTION_USERS
from .components.board import board_view
from .components.gameover import game_over_view
from .components.labels import localized

EMBED_COLOUR = discord.Colour.from_rgb(214, 160, 82)


@dataclass
class GameMessage:
    """The parts of a message that shows a game."""

    content: str
    embed: discord.Embed
    file: discord.File
    game_id: int = 0
    #: Play, Board, … while the game is in progress; Rematch, Replay, Moves once it is over
    view: discord.ui.View | None = None
    #: the view is the in-game controls (:class:`.boards.LiveBoards` keeps them on the newest board only)
    controls: bool = False

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``send``/``followup.send``."""
        kwargs: dict[str, Any] = {"content": self.content or None, "embed": self.embed, "file": self.file,
                                  "allowed_mentions": MENTION_USERS}
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs


async def game_message(game: ActiveGame, names: dict[int, str], *lines: str, now: float | None = None,
                       happened: str = "", actor: int | None = None, bot_id: int | None = None,
                       ping: bool = True, ratings: dict[int, tuple[float, float]] | None = None,
                       language: str = SOURCE) -> GameMessage:
    """A message with the board after ``lines`` (what happened) and what happens next (with time left at ``now``),
    in ``language`` (a public message: the server's).

    The content pings only who must act now (never ``actor``, who just acted, nor the bot;
    nobody at all with ``ping=False``) and says ``happened`` first; at the end of a game it
    pings both players, and the embed leads with the result (see :func:`game_over_embed`).
    """
    content = render(texts.ping_line(game, names, happened, actor=actor, bot_id=bot_id), language) if ping else ""
    file = await pictures.board_file(game.position, texts.colour_names(game, names), language=language)
    view: discord.ui.View | None = None
    if game.position.outcome is not None:
        embed = game_over_embed(game, names, lines, ratings or {}, language)
        view = localized(game_over_view(game.row.id), language)
    else:
        step = texts.next_step(game, names, now)
        description = "\n".join(render(line, language) for line in (*lines, step) if line)
        embed = discord.Embed(title=render(texts.title(game), language), description=description[:4000],
                              colour=EMBED_COLOUR)
        players = discord.utils.remove_markdown(render(texts.players_at(game, names), language))
        active = game.row.status == "active"
        footer = t("{players} · Play or {move} · Board or {board}", players=players, move=f"/{word('command', 'move', language)}",
                   board=f"/{word('command', 'board', language)}") if active else players
        embed.set_footer(text=render(footer, language))
        view = localized(board_view(game), language) if active else None
    embed.set_image(url=f"attachment://{file.filename}")
    return GameMessage(content, embed, file, game.row.id, view, controls=game.position.outcome is None and view is not None)


def game_over_embed(game: ActiveGame, names: dict[int, str], lines: tuple[str, ...],
                    ratings: dict[int, tuple[float, float]], language: str = SOURCE) -> discord.Embed:
    """The end of a game: the result first, then what ended it, each player's rating change,
    the number of turns and the game id (in ``language``)."""
    parts: list[str] = [texts.result_line(game, names), *lines]
    parts += [texts.rating_change(names.get(u, "?"), *ratings[u]) for u in game.row.seats if u in ratings]
    turns = tn("{n} turn", "{n} turns", texts.turn_count(game.position))
    parts.append(t("{turns} · game #{id}", turns=turns, id=game.row.id) if ratings or not game.row.rated
                 else t("{turns} · game #{id} · not rated", turns=turns, id=game.row.id))
    embed = discord.Embed(title=render(t("Game over — {title}", title=texts.title(game)), language),
                          description="\n".join(render(p, language) for p in parts if p)[:4000], colour=EMBED_COLOUR)
    players = discord.utils.remove_markdown(render(texts.players_at(game, names), language))
    embed.set_footer(text=render(t("{players} · Rematch, Replay or Moves below", players=players), language))
    return embed


async def result_message(result: PlayResult, names: dict[int, str], now: float, bot_id: int | None,
                         language: str = SOURCE) -> GameMessage:
    """The board after an accepted action, resignation or claim, saying who did what and what is next."""
    return await game_message(result.game, names, texts.turn_caption(result, names), now=now,
                              happened=Trimmed(texts.turn_caption(result, names, colour=False)),
                              actor=result.user_id, bot_id=bot_id, ratings=result.rating_changes, language=language)


class Trimmed(str):
    """A sentence without its full stop, in any language (``happened`` leads the ping line)."""

    text: str

    def __new__(cls, text: str) -> Trimmed:
        self = super().__new__(cls, text.rstrip("."))
        self.text = text
        return self

    def said_in(self, language: str) -> str:
        """The sentence in ``language`` without its full stop."""
        return render(self.text, language).rstrip(".。")


def mid_turn_text(result: PlayResult, names: dict[int, str]) -> Joined:
    """The words for a Blind Hex letter after which the same player writes again (no picture)."""
    return Joined([texts.turn_caption(result, names), texts.next_step(result.game, names)], " ")
