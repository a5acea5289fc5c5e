"""inpHeXion: white and black discs, the neutral stack, and the last turn drawn out.

The last turn shows as: a solid arrow from the moved enemy disc's old cell to
its new one, a ring round the disc placed on the cell it left, and for each
relocated disc a dashed circle where it was lifted and a dashed arrow to where
it went. While a turn waits for relocations, the discs still to relocate get
a red ring and the mover's box says how many.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine import Position

from ..board import BoardStyle
from ..scene import Arrow, Piece, Scene
from ..theme import BLACK, WHITE
from ..words import say
from .common import last_text, panel

COLOURS = {"white": WHITE, "black": BLACK}


def scene(pos: Position, names: Mapping[str, str] | None) -> Scene:
    """The scene of an inpHeXion position."""
    g = pos.grid
    style = BoardStyle(COLOURS[pos.vertical], COLOURS[pos.other(pos.vertical)], (), "disc+stack")
    pieces = []
    for i in range(g.cells):
        c = pos.piece_at(i)
        if c == "neutral":
            pieces.append(Piece(i, "stack", c, WHITE, BLACK))
        elif c is not None:
            pieces.append(Piece(i, "disc", c, COLOURS[c]))
    last = pos.last_turn()
    pending = tuple(last.pending) if last is not None and pos.outcome is None else ()
    panels = tuple(_panel(pos, c, names, len(pending)) for c in pos.colours)
    sc = Scene(size=g.n, style=style, panels=panels, pieces=pieces)
    if last is not None:
        sc.marks += [(cell, "ring") for cell in last.placed]
        sc.tints += [(cell, "last") for cell in last.placed]
        sc.arrows += [Arrow(a, b) for a, b in last.moved]
        for a, b in last.relocated:
            if pos.piece_at(a) is None:
                sc.marks.append((a, "ghost"))
            sc.arrows.append(Arrow(a, b, dashed=True))
        sc.marks += [(cell, "pending") for cell in pending]
    neutral = [p for p in pieces if p.kind == "stack"]
    if neutral:
        sc.legend.append((neutral[0], say("neutral disc")))
    chain = pos.winning_chain()
    sc.tints += [(c, "win") for c in chain]
    sc.chain = chain
    sc.last = _last(pos, names, len(pending))
    return sc


def _panel(pos: Position, colour: str, names: Mapping[str, str] | None, pending: int):
    """A player's box: discs in hand, and the badge for what they do now."""
    hands = pos.hands() or {}
    count = hands.get(colour, 0)
    detail = say("{count} disc in hand", count=count) if count == 1 else say("{count} discs in hand", count=count)
    if pos.phase == "relocate" and pending:
        badge, tone = say("relocate {count}", count=pending), "alert"
    elif pos.phase == "place":
        badge, tone = say("to place"), "turn"
    else:
        badge, tone = say("to move"), "turn"
    return panel(pos, colour, names, Piece(-1, "disc", colour, COLOURS[colour]), COLOURS[colour], detail, badge, tone)


def _last(pos: Position, names: Mapping[str, str] | None, pending: int) -> str:
    """Footer words; while relocations wait, say so."""
    text = last_text(pos, names)
    last = pos.last_turn()
    if last is not None and last.swapped and pos.outcome is None:
        text += say(" (the players exchanged colours)")
    if pending and pos.outcome is None:
        text += say(" · {count} surrounded disc to relocate", count=pending) if pending == 1 else \
            say(" · {count} surrounded discs to relocate", count=pending)
    return text
