"""Blind Hex: the numbered board with every cell's number(s), x and o letters, cards.

A round is public only once both players have chosen, so the picture shows a
secret choice only as "chosen" (never the cards). While a revealed round is
being written (and in the final position of a game that ended during one),
each box shows the two cards its player revealed and the empty cells the
current letter may go on are tinted. Once the round is over those cards are
back in hand or set aside, so they are not shown as played any more (the
footer still names them).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine import BlindHex, Position

from ..board import BoardStyle
from ..scene import Cards, Piece, Scene
from ..theme import O_INK, X_INK
from ..words import say
from .common import last_text, panel

COLOURS = {"x": X_INK, "o": O_INK}


def scene(pos: Position, names: Mapping[str, str] | None) -> Scene:
    """The scene of a Blind Hex position."""
    assert isinstance(pos, BlindHex)
    g = pos.grid
    numbers = tuple(pos.cell_number(i) for i in range(g.cells))
    matches = tuple(() if numbers[i] else pos.cell_matches(i) for i in range(g.cells))
    style = BoardStyle(COLOURS[pos.vertical], COLOURS[pos.other(pos.vertical)], numbers, "letter", matches)
    pieces = []
    tints = []
    for i in range(g.cells):
        c = pos.piece_at(i)
        if c is not None:
            tints.append((i, "erase"))  # the letter says the cell is taken: its digits would only blur it
            pieces.append(Piece(i, "letter", c, COLOURS[c]))
    writes = pos.pending_writes()
    if writes and pos.outcome is None:
        _, k = writes[0]
        tints += [(i, "hint") for i in pos.matching_cells(k)]
    panels = tuple(_panel(pos, c, names, writes) for c in pos.colours)
    sc = Scene(size=g.n, style=style, panels=panels, pieces=pieces, tints=tints)
    last = pos.last_turn()
    if last is not None:
        sc.marks += [(cell, "ring") for cell in last.placed]
        sc.tints += [(cell, "last") for cell in last.placed]
    chain = pos.winning_chain()
    sc.tints += [(c, "win") for c in chain]
    sc.chain = chain
    sc.last = last_text(pos, names)
    return sc


def _round_on_table(pos: BlindHex) -> bool:
    """Whether a revealed round is on the table: being written, or the game ended while it was."""
    return pos.phase == "write" or (pos.phase == "over" and any(pos.played().values()))


def _panel(pos: BlindHex, colour: str, names: Mapping[str, str] | None, writes: list[tuple[str, int]]):
    """A player's box: hand size in words, cards aside and on the table as cards, and what they do now."""
    hand = len(pos.hands()[colour])
    aside = tuple(pos.aside()[colour])
    # Only the cards still on the table: those of the round being written (kept in the final
    # position if the game ended during it). ``revealed()`` would show last round's cards
    # during the next choice too, next to the same cards counted in hand or aside.
    # ``played()`` holds revealed cards only, so a secret choice never shows here.
    played = tuple(pos.played()[colour]) if _round_on_table(pos) else ()
    phase = pos.phase
    detail = say("{count} card in hand", count=hand) if hand == 1 else say("{count} cards in hand", count=hand)
    badge, tone, idle = "", "turn", ""
    if phase == "aside":
        badge = say("set 2 aside")
    elif phase == "choose":
        badge, idle = say("choose 2"), say("chosen")
    elif phase == "write" and writes:
        writer, k = writes[0]
        left = sum(1 for w in writes if w == (writer, k))
        badge = say("write {number}", number=k) if left == 1 else say("write two {number}s", number=k)
    return panel(
        pos,
        colour,
        names,
        Piece(-1, "letter", colour, COLOURS[colour]),
        COLOURS[colour],
        detail=detail,
        badge=badge,
        tone=tone,
        cards=Cards(hand, aside, played),
        idle=idle,
    )
