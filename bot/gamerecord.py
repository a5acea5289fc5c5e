"""A finished (or running) game to take away: the move list in the chat, page by page,
its files (the record, and SGF for Hex), and its positions one by one for a replay."""

from __future__ import annotations

import io
from collections.abc import Sequence

import discord

import engine
from engine.sgf import to_sgf
from render.replay import turns as replay_turns

from . import movelist, texts
from .present import EMBED_COLOUR
from .service import ActiveGame
from .views import stepper_view


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


def moves_page(g: ActiveGame, names: dict[int, str], page: int) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` of the score sheet as an embed, with ⏮ ◀ ▶ ⏭ when there are more."""
    pages = movelist.pages(g.position.options, g.position.public_record())
    page = max(0, min(page, len(pages) - 1))
    players = " vs ".join(f"**{texts.clean(names.get(u, '?'))}**" for u in g.row.seats)
    # the score sheet's columns: the first player's turns, then the second's, whatever the colours
    order = " · ".join(f"**{name}** ({texts.colours_of_game(start, now)})" for name, start, now in texts.seated(g, names))
    sheet = pages[page] or "(no moves yet)"
    turns = texts.turn_count(g.position)
    body = (f"{players} — {texts.plural(turns, 'turn')}\n{order}\n```\n{sheet}\n```")
    embed = discord.Embed(title=f"Moves — {texts.title(g)}", description=body[:4000], colour=EMBED_COLOUR)
    result = texts.result_words(g, names)
    embed.set_footer(text=f"page {page + 1} of {len(pages)} · {result}")
    return embed, stepper_view("moves", g.row.id, page, len(pages) - 1)


def positions(g: ActiveGame) -> list[engine.Position]:
    """The start position, then the position after each turn (what a replay steps through)."""
    record = engine.Record(g.position.options, g.position.public_record())
    start = g.position.options.new_position()
    after = [p for p in replay_turns(record)] if record.actions else []
    return [start, *after]
