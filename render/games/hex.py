"""Hex: stones, the last stone dotted, a swap spelled out (and, with ``swap-pieces``, shown)."""

from __future__ import annotations

from collections.abc import Mapping

from engine import Position

from ..board import BoardStyle
from ..scene import Arrow, Piece, Scene
from ..theme import BLACK, WHITE
from ..words import say
from .common import last_text, panel

COLOURS = {"black": BLACK, "white": WHITE}


def scene(pos: Position, names: Mapping[str, str] | None) -> Scene:
    """The scene of a Hex position."""
    g = pos.grid
    style = BoardStyle(vertical=COLOURS[pos.vertical], horizontal=COLOURS[pos.other(pos.vertical)])
    pieces = [Piece(i, "disc", c, COLOURS[c]) for i in range(g.cells) if (c := pos.piece_at(i)) is not None]
    first, second = (
        panel(pos, c, names, Piece(-1, "disc", c, COLOURS[c]), COLOURS[c], badge=say("to move"))
        for c in pos.colours
    )
    sc = Scene(size=g.n, style=style, panels=(first, second), pieces=pieces)
    last = pos.last_turn()
    if last is not None:
        sc.marks += [(cell, "dot") for cell in last.placed]
        sc.tints += [(cell, "last") for cell in last.placed]
        if last.swapped:
            if last.placed:
                # swap-pieces: the first stone was mirrored across the long diagonal
                cell = last.placed[0]
                col, row = g.coords(cell)
                origin = g.index(row, col)
                if origin != cell:
                    sc.marks.append((origin, "ghost"))
                    sc.arrows.append(Arrow(origin, cell, dashed=True))
            else:
                # the seat swap leaves the stone; ring it so the swap is seen on the board too
                sc.marks += [(i, "ring") for i in range(g.cells) if pos.piece_at(i) is not None]
    chain = pos.winning_chain()
    sc.tints += [(c, "win") for c in chain]
    sc.chain = chain
    sc.last = _last(pos, names)
    return sc


def _last(pos: Position, names: Mapping[str, str] | None) -> str:
    """Footer words; a swap says what it did."""
    text = last_text(pos, names)
    last = pos.last_turn()
    if last is not None and last.swapped and pos.outcome is None:
        if "swap-pieces" in pos.options.variants:
            return text + say(" (the first stone was mirrored and turned white)")
        return text + say(" (the players exchanged colours)")
    return text
