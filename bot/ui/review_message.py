"""A finished review as a message: each player's accuracy and marks, the move list with the marks
and better moves, the win-probability graph, and one of the three worst moves on a board.

The words come from :mod:`.review_texts`, said in the message's language; the pictures from
:mod:`render.review_graph` and the board renderer (their words in the same language), drawn off
the event loop.
"""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import discord

import engine
from engine.ai.review import Review, TurnReview
from render.review_graph import render_review_graph

from ..i18n import SOURCE, render
from ..service import ActiveGame
from . import movelist, pictures, review_texts, texts
from .components.review import worst_view
from .messages import EMBED_COLOUR

#: how many of the worst moves are shown (the issue: three)
WORST = 3
#: the most characters of the move list in the message (embeds share 6,000 characters in all)
SHEET_CHARS = 2800
_CELL = re.compile(r"\b[a-z]{1,2}[0-9]{1,2}\b")


@dataclass
class ReviewMessage:
    """What to send or edit: text, embeds, files and the ◀ ▶ view."""

    content: str
    embeds: list[discord.Embed]
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of a new message (``answer``)."""
        out: dict[str, Any] = {"embeds": self.embeds, "files": self.files}
        if self.view is not None:
            out["view"] = self.view
        return out

    def edit_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of an edit in place (the attachments replaced)."""
        return {"content": self.content, "embeds": self.embeds, "attachments": self.files,
                "view": self.view or discord.ui.View(timeout=None)}


def chances(review: Review) -> tuple[list[float], list[tuple[int, str]]]:
    """The first player's chance at the start and after each judged turn, and the marked points
    (index into the chances, mark)."""
    judged = [t for t in review.turns if t.reviewed and t.win_before is not None and t.win_after is not None]
    if not judged:
        return [], []

    def seat0(t: TurnReview, p: float) -> float:
        return p if t.seat == 0 else 1.0 - p

    points = [seat0(judged[0], judged[0].win_before)]  # type: ignore[arg-type]
    marks: list[tuple[int, str]] = []
    for i, t in enumerate(judged, 1):
        points.append(seat0(t, t.win_after))  # type: ignore[arg-type]
        if t.mark:
            marks.append((i, t.mark))
    return points, marks


def worst(review: Review, count: int = WORST) -> list[TurnReview]:
    """The ``count`` marked turns that lost the most (first the worst; ties: the earlier)."""
    marked = [t for t in review.turns if t.mark]
    return sorted(marked, key=lambda t: (-t.drop, t.index))[:count]


def _annotation(t: TurnReview | None) -> str:
    if t is None or not t.mark:
        return ""
    return t.mark + (f" [{t.best}]" if t.best else "")


def _note(by_start: dict[int, TurnReview], start: int, i: int) -> str:
    return _annotation(by_start.get(start + i))


def sheet_lines(options: engine.GameOptions, actions: list[str], review: Review) -> list[str]:
    """The move list in ``/record``'s notation (:mod:`.movelist`) with each marked turn's mark and
    the better move after it: ``3. d4?? [c4]   e2``."""
    by_start = {t.index: t for t in review.turns}
    texts_: list[str] = []
    start = 0
    for turn in movelist.turns(options, actions):
        texts_.append(movelist.turn_text(options, turn, partial(_note, by_start, start)))
        start += len(turn)
    return movelist.numbered(options.game, texts_)


def cells_of(position: engine.Position, move: str | None) -> list[int]:
    """The board cells a move names (a Hex ``swap`` names none)."""
    if not move:
        return []
    out = []
    for name in _CELL.findall(move):
        try:
            out.append(position.grid.parse(name))
        except (ValueError, KeyError, IndexError):
            continue
    return out


async def graph_file(g: ActiveGame, names: dict[int, str], review: Review, language: str = SOURCE) -> discord.File:
    """The win-probability graph as a PNG attachment (drawn in a thread), its words in ``language``."""
    points, marks = chances(review)
    start = g.position.options.new_position()
    first = start.colour_of_seat(0)
    name, colour = texts.clean(names.get(g.row.seats[0], "?")), texts.COLOURS.get(first, first)
    say = pictures.sayer(language)
    png = await asyncio.get_running_loop().run_in_executor(
        None, lambda: render_review_graph(points, marks, name, colour, say=say))
    return discord.File(io.BytesIO(png), filename=f"review-{g.row.id}.png")


def _summary(g: ActiveGame, names: dict[int, str], review: Review, language: str) -> list[str]:
    lines = []
    for seat in (0, 1):
        colour = g.position.colour_of_seat(seat)
        s = review.players.get(colour)
        if s is None:
            continue
        marks = {"?!": s.inaccuracies, "?": s.mistakes, "??": s.blunders}
        lines.append(render(review_texts.player_line(texts.clean(names.get(g.row.seats[seat], "?")), colour, s.accuracy,
                                                     marks), language))
    return lines


async def review_message(g: ActiveGame, names: dict[int, str], review: Review, at: int = 0,
                         language: str = SOURCE) -> ReviewMessage:
    """The whole review, showing worst move ``at`` (0: the worst), its words in ``language``."""
    actions = list(g.position.public_record())
    if not any(t.reviewed for t in review.turns):
        return ReviewMessage(render(review_texts.no_moves(g.row.id), language), [])
    lines = sheet_lines(g.position.options, actions, review)
    sheet = "\n".join(lines)
    summary = _summary(g, names, review, language)
    files = [await graph_file(g, names, review, language)]
    cut = ""
    if len(sheet) > SHEET_CHARS:
        name = f"review-{g.row.id}.txt"
        full = "\n".join([*summary, "", *lines]).replace("**", "")
        files.append(discord.File(io.BytesIO(full.encode("utf-8")), filename=name))
        marked = [line for line in lines if "?" in line]
        sheet = "\n".join(marked)
        while len(sheet) > SHEET_CHARS:
            marked.pop()
            sheet = "\n".join(marked)
        cut = render(review_texts.sheet_cut(name), language) + "\n"
    body = "\n".join([*summary, "", render(review_texts.legend(review.iterations), language), "",
                      cut + f"```\n{sheet or '-'}\n```"])
    main = discord.Embed(title=render(review_texts.heading(texts.title(g)), language), description=body,
                         colour=EMBED_COLOUR)
    main.set_image(url=f"attachment://{files[0].filename}")
    embeds = [main]
    view = None
    bad = worst(review)
    if bad:
        at = max(0, min(at, len(bad) - 1))
        embed, board = await worst_embed(g, names, review, bad, at, language)
        embeds.append(embed)
        files.append(board)
        view = worst_view(g.row.id, at, len(bad))
    else:
        embeds.append(discord.Embed(description=render(review_texts.nothing_marked(), language), colour=EMBED_COLOUR))
    return ReviewMessage(render(review_texts.done(g.row.id), language), embeds, files, view)


async def worst_embed(g: ActiveGame, names: dict[int, str], review: Review, bad: list[TurnReview],
                      at: int, language: str = SOURCE) -> tuple[discord.Embed, discord.File]:
    """Worst move ``at`` of ``bad``: what was played, the better move, the chances; and the board
    after it, the played move marked as the last one and the better one pointed out (green)."""
    t = bad[at]
    actions = list(g.position.public_record())
    later = [u.index for u in review.turns if u.index > t.index]
    end = later[0] if later else len(actions)
    before = engine.Record(g.position.options, actions[:t.index]).replay()
    # The board after the move: the renderer marks it as the last move; the better cell, empty
    # before it, gets the dashed green of a suggestion.
    after = engine.Record(g.position.options, actions[:end]).replay()
    turn_number = len(movelist.turns(g.position.options, actions[:t.index])) + 1
    who = texts.clean(names.get(g.row.seats[t.seat], "?"))
    text = review_texts.worst_move(turn_number, who, t.move, t.mark or "", t.best,
                                   review_texts.chance(t.win_before, t.proved_before),
                                   review_texts.chance(t.win_after, t.proved_after))
    played = cells_of(before, t.move)
    better = [c for c in cells_of(before, t.best) if c not in played and after.piece_at(c) is None]
    board = await pictures.board_file(after, texts.colour_names(g, names, after),
                                      filename=f"review-{g.row.id}-worst-{at}.png", choices=better, language=language)
    embed = discord.Embed(title=render(review_texts.worst_title(at + 1, len(bad)), language),
                          description=render(text, language), colour=EMBED_COLOUR)
    embed.set_image(url=f"attachment://{board.filename}")
    return embed, board
