"""The ``/rules`` tutorial: a few pages per game, each a short step with a picture of
exactly that step (positions built from real actions, so the picture cannot drift
from the text).

>>> [p.title for p in pages("hex")]
['Coordinates', 'The first stone', 'The swap', 'A win']
>>> page_position("hex", 1).board_rows()[2]
'..B..'
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Callable
from dataclasses import dataclass

import discord

import engine

from ..i18n import SOURCE, Text, render, t
from ..i18n.text import Joined
from . import pictures
from .texts import COLOURS, Typed


@dataclass(frozen=True, slots=True)
class Page:
    """One step of a tutorial: its words and how to reach the position its picture shows."""

    title: Text
    text: Text
    position: Callable[[], engine.Position]


def _play(game: str, size: int | None, actions: list[str], variants: tuple[str, ...] = (),
          first: str | None = None) -> engine.Position:
    pos = engine.new_game(game, size, variants, first)
    for action in actions:
        pos.play(action)
    return pos


def _first_random(game: str, size: int | None, found: Callable[[engine.Position], bool],
                  first: str | None = None) -> engine.Position:
    """The first position of seeded random games (seeds 0, 1, …) where ``found`` holds."""
    for seed in range(500):
        pos = engine.new_game(game, size, (), first)
        rng = random.Random(seed)
        while pos.outcome is None:
            if found(pos):
                return pos
            player = pos.to_move[0]
            pos.play(rng.choice(pos.legal_actions(player)), player)
        if found(pos):
            return pos
    raise LookupError("no such position in 500 seeded games")


def _one_lone_disc_to_relocate(pos: engine.Position) -> bool:
    return pos.phase == "relocate" and len(pos.pending_relocations()) == 1  # type: ignore[attr-defined]


def _won_by_connection(pos: engine.Position) -> bool:
    return pos.outcome is not None and pos.outcome.reason is engine.Reason.CONNECTION


COORDINATES = t("Cells are named by their column letter and row number: **a1** is the top-left corner, "
                "rows go down, and each row sits half a cell to the right of the one above.")


def move(rest: str) -> Typed:
    """``/move …`` as typed, by the command's name in the reader's language."""
    return Typed("move", rest)


_PAGES: dict[str, list[Page]] = {
    "inphexion": [
        Page(t("Coordinates"), t("{coordinates} **White** joins top and bottom, **Black** left and right.",
                                 coordinates=COORDINATES),
             lambda: _play("inphexion", 7, [])),
        Page(t("The first disc"), t("White starts by placing one disc anywhere: {example}.", example=move("d4")),
             lambda: _play("inphexion", 7, ["d4"])),
        Page(t("Move and place"), t("Every other turn: move one **enemy** disc to an empty neighbouring cell, then put "
                                    "your own disc where it was. Here Black moved d4→e4 and placed on d4: {example}.",
                                    example=move("d4 e4")),
             lambda: _play("inphexion", 7, ["d4", "d4 e4"])),
        Page(t("A surround and its relocation"),
             t("If your turn leaves a lone enemy disc with your discs or the edge on every side, you relocate it "
               "(highlighted) to any empty cell. Groups of two or more are never surrounded. Here: {example}."),
             lambda: _first_random("inphexion", 7, _one_lone_disc_to_relocate)),
        Page(t("The neutral disc"), t("With the `neutral` variant a grey disc starts in the centre; it belongs to "
                                      "nobody and can be moved like an enemy disc."),
             lambda: _play("inphexion", 7, [], ("neutral",))),
        Page(t("A win"), t("Join your two sides to win (the winning chain is marked). If your move completes your "
                           "*opponent's* chain, they win; no legal move, or no room to relocate, and you lose."),
             lambda: _first_random("inphexion", 7, _won_by_connection)),
    ],
    "hex": [
        Page(t("Coordinates"), t("{coordinates} **Black** joins top and bottom, **White** left and right.",
                                 coordinates=COORDINATES),
             lambda: _play("hex", 5, [])),
        Page(t("The first stone"), t("Players take turns placing one stone on any empty cell; Black starts: "
                                     "{example}. Stones never move.", example=move("c3")),
             lambda: _play("hex", 5, ["c3"])),
        Page(t("The swap"), t("With `swap` (on by default) White may answer the first stone with {example}: the "
                              "players exchange colours and the stone is now theirs, so Black should not start too "
                              "strong.", example=move("swap")),
             lambda: _play("hex", 5, ["c3", "swap"], ("swap",))),
        Page(t("A win"), t("The first to join their two sides wins; a full board always has exactly one winner."),
             lambda: _first_random("hex", 5, _won_by_connection)),
    ],
    "blindhex": [
        Page(t("The board"), t("{coordinates} A numbered cell shows its number (1–5, bold, lighter cell); every other "
                               "cell shows the two numbers it matches (its numbered neighbours'). x joins left and "
                               "right, o top and bottom.", coordinates=COORDINATES),
             lambda: _play("blindhex", None, [], first="x")),
        Page(t("Setting aside"), t("Each holds cards 1–5. The loser of the cut sets two aside at the start: "
                                   "{example}.", example=move("aside 4+5")),
             lambda: _play("blindhex", None, ["aside 4+5"], first="x")),
        Page(t("A reveal"), t("Each round both choose two cards in secret ({example}, only you see it), then they "
                              "are shown together. Lowest number first, each writes a letter for each card played, in "
                              "a cell marked with that number or next to one.", example=move("1+4")),
             lambda: _play("blindhex", None, ["aside 4+5", "x:1+4", "o:2+3"], first="x")),
        Page(t("A common number"), t("A number both chose is skipped, and each writes two letters with their other "
                                     "card (both can go in one move: {example}). The same pair: nobody writes.",
                                     example=move("e5 f6")),
             lambda: _play("blindhex", None, ["aside 4+5", "x:1+2", "o:1+3"], first="x")),
        Page(t("A win"), t("The player with four cards on the table takes them all back; the other sets theirs "
                           "aside. Join your two sides to win."),
             lambda: _first_random("blindhex", None, _won_by_connection, first="x")),
    ],
}

#: each variant in one line
VARIANTS = {
    "inphexion": t("Variants: `pie` — Black may swap colours after White's first disc · `neutral` — a neutral disc "
                   "starts in the centre · `free_reply` — Black's first turn may place anywhere."),
    "hex": t("Variant: `swap` (on by default) — White may take over the first stone."),
    "blindhex": t("No variants: always the printed 11×11 board."),
}


def pages(game: str) -> list[Page]:
    """The tutorial pages of a game (KeyError for an unknown game)."""
    return _PAGES[game]


@functools.cache
def page_position(game: str, index: int) -> engine.Position:
    """The position page ``index`` shows (computed once)."""
    return _PAGES[game][index].position()


def page_text(game: str, index: int) -> str:
    """The words of a page; the last page also lists the variants, one line each."""
    text = _PAGES[game][index].text
    if "{example}" in text:  # the relocation page: its example is the position's own disc and cell
        pos = page_position(game, index)
        pending = pos.grid.name(pos.pending_relocations()[0])  # type: ignore[attr-defined]
        target = pos.grid.name(pos.relocation_targets()[0])  # type: ignore[attr-defined]
        text = Text(text.msgid, {**text.args, "example": move(f"{pending}>{target}")})
    if index == len(_PAGES[game]) - 1:
        return Joined([text, VARIANTS[game]], "\n")
    return text


async def page_picture(game: str, index: int, language: str = SOURCE) -> discord.File:
    """The picture of page ``index`` (rendered off the event loop), its words in ``language``."""
    pos = await asyncio.to_thread(page_position, game, index)  # a search for the example: off the loop
    names = {c: render(COLOURS.get(c, c), language).capitalize() for c in pos.colours}
    return await pictures.board_file(pos, names, filename=f"{game}-rules-{index + 1}.png", language=language)
