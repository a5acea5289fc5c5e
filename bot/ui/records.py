"""A finished (or running) game to take away: the move list in the chat, page by page,
its files (the record, and SGF for Hex), and its positions one by one for a replay.

The move list's words are said in the language of the message it is on; the files are data (their
headers stay English, as the notation does)."""

from __future__ import annotations

import io
from collections.abc import Sequence

import discord

import engine
from engine.sgf import to_sgf
from render.replay import turns as replay_turns

from ..i18n import Text, render, t, tn
from ..i18n.text import Joined
from ..service import ActiveGame
from . import movelist, texts
from .components.pages import stepper_view
from .messages import EMBED_COLOUR


def record_of(g: ActiveGame, names: dict[int, str], takebacks: Sequence[tuple[str, str]] = ()) -> engine.Record:
    """The game's public record with headers a player can read (names, result, takebacks)."""
    # the players by the colour they started with (a swap is said, not hidden)
    headers = {start: name if start == now else f"{name} ({texts.colours_of_game(start, now)})"
               for name, start, now in texts.seated(g, names)}
    headers["game id"] = str(g.row.id)
    for i, (who, undone) in enumerate(takebacks, 1):
        headers[f"takeback {i}"] = f"{who} took back {undone}"
    headers["result"] = texts.result_words(g, names)
    headers["how to read"] = ("after these lines, every action of the game, one a line, in the order played; "
                              "in Discord, /replay with the game id above shows the positions one by one")
    return engine.Record(g.position.options, g.position.public_record(), headers)


def files(g: ActiveGame, record: engine.Record, names: dict[int, str]) -> list[discord.File]:
    """``game-N.txt`` (the record) and, for Hex, ``game-N.sgf`` that HexGui opens."""
    out = [discord.File(io.BytesIO(record.to_text().encode("utf-8")), filename=f"game-{g.row.id}.txt")]
    if g.row.game == "hex":
        # the people by the colour they sat down with (seat 0 is Black, the first player)
        start = {"black": names.get(g.row.seat0_id, "?"), "white": names.get(g.row.seat1_id, "?")}
        sgf = to_sgf(g.position.options, record.actions, start, g.position.outcome)
        out.append(discord.File(io.BytesIO(sgf.encode("utf-8")), filename=f"game-{g.row.id}.sgf"))
    return out


def players_line(g: ActiveGame, names: dict[int, str]) -> Text:
    """``**alice** vs **bob**``."""
    first, second = (f"**{texts.clean(names.get(u, '?'))}**" for u in g.row.seats)
    return t("{first} vs {second}", first=first, second=second)


def moves_page(g: ActiveGame, names: dict[int, str], page: int,
               language: str) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` of the score sheet as an embed in ``language``, with ⏮ ◀ ▶ ⏭ when there are more."""
    pages = movelist.pages(g.position.options, g.position.public_record())
    page = max(0, min(page, len(pages) - 1))
    # the score sheet's columns: the first player's turns, then the second's, whatever the colours
    order = Joined([t("**{name}** ({colours})", name=name, colours=texts.colours_of_game(start, now))
                    for name, start, now in texts.seated(g, names)])
    sheet = pages[page] or render(t("(no moves yet)"), language)
    turns = tn("{n} turn", "{n} turns", texts.turn_count(g.position))
    head = render(t("{players} — {turns}", players=players_line(g, names), turns=turns), language)
    body = f"{head}\n{render(order, language)}\n```\n{sheet}\n```"
    embed = discord.Embed(title=render(t("Moves — {title}", title=texts.title(g)), language), description=body[:4000],
                          colour=EMBED_COLOUR)
    embed.set_footer(text=render(t("page {page} of {pages} · {result}", page=page + 1, pages=len(pages),
                                   result=texts.result_text(g, names)), language))
    return embed, stepper_view("moves", g.row.id, page, len(pages) - 1)


def positions(g: ActiveGame) -> list[engine.Position]:
    """The start position, then the position after each turn (what a replay steps through)."""
    record = engine.Record(g.position.options, g.position.public_record())
    start = g.position.options.new_position()
    after = [p for p in replay_turns(record)] if record.actions else []
    return [start, *after]
