"""The ``/rules`` texts, each with an example picture of a game under way."""

from __future__ import annotations

import random

import discord

import engine

from . import images

RULES = {
    "inphexion": (
        "**inpHeXion** (Masahiro Nakajima, 2014) grows like a fungus. White connects top–bottom, "
        "Black left–right.\n"
        "• White's first turn: place a disc anywhere (`/move d4`).\n"
        "• Every other turn: move one **enemy** disc to an empty neighbouring cell, then put your own "
        "disc where it was (`/move c4 d4`). That is the only way to add discs.\n"
        "• If that leaves a lone enemy disc with your discs (or the edge) on every side, you **relocate** it "
        "to any empty cell (`/move b2>e7`; or the whole turn at once: `/move c4 d4 b2>e7`). Groups of two or "
        "more are never surrounded.\n"
        "• Connect your two sides to win — but if your move completes your *opponent's* chain, they win. "
        "No legal move, or no room to relocate, and you lose.\n"
        "Variants: `pie`, `neutral`, `free_reply`."
    ),
    "hex": (
        "**Hex** (Piet Hein 1942, John Nash 1948). Black connects top–bottom, White left–right.\n"
        "• Take turns placing one stone on any empty cell (`/move e5`). Stones never move.\n"
        "• The first to connect their two sides wins; a full board always has exactly one winner.\n"
        "• With `swap` (on by default) White may answer the first stone with `/move swap` and take it over: "
        "the players exchange colours."
    ),
    "blindhex": (
        "**Blind Hex** (Don Kirkby, 2012) is Hex with hidden, simultaneous choices. x connects left–right, "
        "o top–bottom, on a board whose cells are marked 1–5.\n"
        "• Each holds cards 1–5; the loser of the cut sets two aside (`/move aside 4+5`).\n"
        "• Each round both choose two cards **in secret** (`/move 1+4`: only you see it). Then they are revealed.\n"
        "• For each card played you write a letter in an empty cell that matches its number (a cell marked "
        "with it, or next to one) — lowest number first. A number both chose is skipped and each writes two "
        "with their other card; the same pair means nobody writes.\n"
        "• The player with four cards on the table takes them all back; the other sets theirs aside.\n"
        "• Connect your sides to win."
    ),
}

_EXAMPLE_LENGTH = {"inphexion": 14, "hex": 16, "blindhex": 12}


def example_position(game: str, seed: int = 7) -> engine.Position:
    """A game under way, reached by seeded random legal actions."""
    pos = engine.new_game(game, engine.GAMES[game].example_size)
    rng = random.Random(seed)
    for _ in range(_EXAMPLE_LENGTH[game]):
        if pos.outcome is not None:
            break
        player = pos.to_move[0]
        pos.play(rng.choice(pos.legal_actions(player)), player)
    return pos


async def explain(game: str) -> tuple[str, discord.File]:
    """The rules text and an example board picture for ``game``."""
    pos = example_position(game)
    file = await images.board_file(pos, {c: c.capitalize() for c in pos.colours}, filename=f"{game}-example.png")
    return RULES[game], file
