"""What a picture shows, as plain data: the game modules build it, the painter draws it.

Keeping the two apart means a game module only translates a position into
cells, marks and words (no pixels), and the painter never asks what game it is
drawing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import BoardStyle
from .theme import PieceColours

#: kinds of cell tints drawn under the pieces; ``erase`` paints nothing but leaves out
#: the Blind Hex digit of a cell (a letter stands on it); ``chosen`` is a cell the viewer
#: picked (solid outline), ``hint`` one they may pick (dashed outline)
TINTS = ("win", "hint", "erase", "last", "chosen")
#: kinds of marks drawn over the pieces
MARKS = ("ring", "pending", "dot", "ghost")


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece on a cell: ``kind`` is ``disc``, ``stack`` (the neutral disc) or ``letter``.

    ``colour`` is the game's colour name (``white``, ``x``, ...; for a stack, the
    colour of its upper disc) and ``colours`` how it looks.
    """

    cell: int
    kind: str
    colour: str
    colours: PieceColours
    under: PieceColours | None = None


@dataclass(frozen=True, slots=True)
class Arrow:
    """A last-turn arrow between two cells: solid for a move, dashed for a relocation."""

    start: int
    end: int
    dashed: bool = False


@dataclass(frozen=True, slots=True)
class Cards:
    """Blind Hex cards of one player: hand size, cards set aside, cards revealed this round."""

    hand: int
    aside: tuple[int, ...] = ()
    played: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Panel:
    """One player's box in the header.

    ``badge`` is a short state word (``to move``, ``relocate 2``, ``wins``) shown
    when the player acts now or has won; ``tone`` picks its colour (``turn``,
    ``alert`` or ``win``).
    """

    colour: str
    piece: Piece
    name: str
    sides: str
    vertical: bool
    colours: PieceColours
    detail: str = ""
    badge: str = ""
    tone: str = ""
    cards: Cards | None = None


@dataclass(slots=True)
class Scene:
    """Everything one picture shows."""

    size: int
    style: BoardStyle
    panels: tuple[Panel, Panel]
    pieces: list[Piece] = field(default_factory=list)
    #: (cell, kind) tints under the pieces, kinds from TINTS
    tints: list[tuple[int, str]] = field(default_factory=list)
    #: (cell, kind) marks over the pieces, kinds from MARKS
    marks: list[tuple[int, str]] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)
    #: the winning chain, in order, drawn as a line through the cells
    chain: list[int] = field(default_factory=list)
    #: footer: what happened last (left) and the caller's caption (right)
    last: str = ""
    caption: str = ""
    #: pieces that need a word of explanation while on the board (the neutral disc), with the word
    legend: list[tuple[Piece, str]] = field(default_factory=list)
