"""Dead cells in Hex, from the six neighbours of each empty cell (bitboard form).

A cell is *dead* when no one needs it: whichever colour fills it, the winner is the
same, so playing there is like passing, and in Hex a pass never helps. Three local
patterns prove it (Hayward, Björnsson, Johanson, Maarup, *Dead cell analysis in
Hex and the Shannon game*, 2005); around the cell, in ring order, with X and O the
two colours:

- four consecutive neighbours of one colour: ``X X X X . .``;
- three consecutive of one colour and the neighbour opposite the middle one of the
  other: ``X X X . O .``;
- two consecutive of each colour facing each other: ``X X . O O .``.

In each, every pair of neighbours either colour could join through the cell is
already joined around it. The board's edges count as stones of their owner (a
cell on Black's edge has two black neighbours beyond it); a corner's neighbour
beyond both edges counts as nothing.

Filling dead cells can make more cells dead, so :func:`dead_cells` repeats.

Two more kinds of inferior cell follow from the same patterns, one move ahead:

- a pair of adjacent empty cells is *captured* by a colour when either cell is dead
  once that colour holds the other: whenever the opponent takes one, its owner
  answers with the other and the opponent's stone is dead. Filling a captured pair
  with its owner's stones changes no result (:func:`fill_in`), and the filled board
  proves more connections (larger captured sets, found by a local search, are in
  :mod:`engine.ai.hex.captured`; :func:`fill_in` fills them when asked);
- an empty cell is *vulnerable* for the player to move when one opponent stone on a
  neighbour (its *killer*) would make it dead: a stone there can be made worthless
  at once, so another move is at least as good. :func:`inferior` leaves those out
  (never a killer, so that a cell and its killer are not both left out).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ...geometry import RING, HexGrid, bits, grid
from .captured import captured_sets


class RingTables:
    """Per-size masks: for each ring direction, which cells have a neighbour there on the
    board (and the bit shift to it), and which look off the board at Black's or White's edge."""

    def __init__(self, n: int) -> None:
        self.g = grid(n)
        self.dirs: list[tuple[int, int, int, int]] = []
        for dc, dr in RING:
            on = off_black = off_white = 0
            for r in range(n):
                for c in range(n):
                    bit = 1 << (r * n + c)
                    cc, rr = c + dc, r + dr
                    col_in, row_in = 0 <= cc < n, 0 <= rr < n
                    if col_in and row_in:
                        on |= bit
                    elif col_in:
                        off_black |= bit  # beyond the top or bottom row
                    elif row_in:
                        off_white |= bit  # beyond the left or right column
            self.dirs.append((dc + dr * n, on, off_black, off_white))


@cache
def ring_tables(n: int) -> RingTables:
    """The shared ring tables of an n×n board."""
    return RingTables(n)


def _around(t: RingTables, stones: int, off: int) -> list[int]:
    """For each ring direction, the cells whose neighbour that way is one of ``stones`` (or ``off``)."""
    out = []
    for k, on, off_black, off_white in t.dirs:
        shifted = stones >> k if k >= 0 else stones << -k
        out.append((shifted & on) | (off_black if off == 0 else off_white))
    return out


def _empty_around(t: RingTables, empty: int) -> list[int]:
    """For each ring direction, the cells whose neighbour that way is an empty cell."""
    return [(empty >> k if k >= 0 else empty << -k) & on for k, on, _, _ in t.dirs]


def _dead(b: list[int], w: list[int]) -> int:
    """Cells whose ring (``b``/``w``: per direction, a black/white neighbour there) matches a dead pattern."""
    dead = 0
    for i in range(6):
        i1, i2, i3, i4 = (i + 1) % 6, (i + 2) % 6, (i + 3) % 6, (i + 4) % 6
        for x, o in ((b, w), (w, b)):
            run2 = x[i] & x[i1]
            run3 = run2 & x[i2]
            dead |= run3 & x[i3]
            dead |= run3 & o[i4]
            dead |= run2 & o[i3] & o[i4]
    return dead


def dead_once(g: HexGrid, black: int, white: int) -> int:
    """Empty cells matching a dead-cell pattern (one pass)."""
    t = ring_tables(g.n)
    return _dead(_around(t, black, 0), _around(t, white, 1)) & g.full & ~(black | white)


def dead_cells(g: HexGrid, black: int, white: int, rounds: int = 3) -> int:
    """Dead empty cells, filling the ones found and looking again (up to ``rounds`` passes).

    Filled cells are given to Black: a dead cell's colour changes nothing, and any
    cell dead under that filling is dead in the position too.
    """
    found = 0
    for _ in range(rounds):
        new = dead_once(g, black | found, white) & ~found
        if not new:
            break
        found |= new
    return found


def _dead_if(b: list[int], w: list[int], e: list[int], black_there: bool) -> list[int]:
    """Per direction i: the cells with an empty neighbour that way that would be dead were a
    stone of that colour on it (the pattern one move ahead)."""
    out = []
    for i in range(6):
        if black_there:
            b2 = b[:i] + [b[i] | e[i]] + b[i + 1:]
            out.append(_dead(b2, w) & e[i])
        else:
            w2 = w[:i] + [w[i] | e[i]] + w[i + 1:]
            out.append(_dead(b, w2) & e[i])
    return out


def _shift_to_neighbour(t: RingTables, cells: int, i: int) -> int:
    """The neighbours in direction ``i`` of ``cells`` (each cell's neighbour there is on the board)."""
    k = t.dirs[i][0]
    return cells << k if k >= 0 else cells >> -k


def captured_pairs(g: HexGrid, black: int, white: int, owner_black: bool) -> list[tuple[int, int]]:
    """Pairs of adjacent empty cells captured by one colour: each is dead once the owner holds the other."""
    t = ring_tables(g.n)
    empty = g.full & ~(black | white)
    b, w, e = _around(t, black, 0), _around(t, white, 1), _empty_around(t, empty)
    dead_if = _dead_if(b, w, e, owner_black)
    pairs = []
    for i in range(3):
        # a is dead with its direction-i neighbour the owner's; that neighbour is dead with a the owner's.
        both = dead_if[i] & empty & _shift_to_neighbour(t, dead_if[i + 3], i + 3)
        for a in bits(both):
            pairs.append((a, a + t.dirs[i][0]))
    return pairs


@dataclass(frozen=True, slots=True)
class FillIn:
    """A position with its inferior cells filled: a board with the same winner whoever moves.

    ``black``/``white`` are the filled boards; ``dead`` the dead cells (given to Black),
    ``captured_black``/``captured_white`` the cells of pairs each colour captured.
    """

    black: int
    white: int
    dead: int
    captured_black: int
    captured_white: int

    @property
    def filled(self) -> int:
        """Every empty cell the filling took."""
        return self.dead | self.captured_black | self.captured_white


def fill_in(g: HexGrid, black: int, white: int, rounds: int = 4, set_size: int = 0) -> FillIn:
    """Fill dead cells and captured pairs, and look again (up to ``rounds`` passes).

    Captured pairs are filled a disjoint set at a time: the owner answers inside each
    pair, which works for several pairs at once only when they share no cell.
    ``set_size`` of 3 or more also fills the captured sets of up to that many cells
    (:mod:`engine.ai.hex.captured`: a local search, some milliseconds on 9×9), the largest
    first, each disjoint from the rest.
    """
    dead = cap_b = cap_w = 0
    for _ in range(rounds):
        d = dead_once(g, black, white)
        dead |= d
        black |= d
        changed = bool(d)
        for owner_black in (True, False):
            used = 0
            for a, c in captured_pairs(g, black, white, owner_black):
                pair = 1 << a | 1 << c
                if pair & used:
                    continue
                used |= pair
            for cells in sorted(captured_sets(g, black, white, owner_black, set_size), key=int.bit_count, reverse=True):
                if not cells & used:
                    used |= cells
            if used:
                changed = True
                if owner_black:
                    black |= used
                    cap_b |= used
                else:
                    white |= used
                    cap_w |= used
        if not changed:
            break
    return FillIn(black, white, dead, cap_b, cap_w)


def vulnerable(g: HexGrid, black: int, white: int, black_to_move: bool) -> tuple[int, int]:
    """The mover's vulnerable empty cells (one opponent stone next to them kills them) and their killers."""
    t = ring_tables(g.n)
    empty = g.full & ~(black | white)
    b, w, e = _around(t, black, 0), _around(t, white, 1), _empty_around(t, empty)
    cells = killers = 0
    for i, m in enumerate(_dead_if(b, w, e, not black_to_move)):
        m &= empty
        cells |= m
        killers |= _shift_to_neighbour(t, m, i)
    return cells, killers & empty


def inferior(g: HexGrid, black: int, white: int, black_to_move: bool, set_size: int = 0) -> tuple[FillIn, int]:
    """The filled position and the empty cells the mover can leave out of the search.

    Left out: every filled cell (a dead cell is a pass; an own captured cell is already
    the mover's in effect; a cell of the opponent's captured pair dies at its answer)
    and the vulnerable cells of the filled board that are not killers themselves.
    Never every cell: if nothing would be left, nothing is left out.
    """
    f = fill_in(g, black, white, set_size=set_size)
    cells, killers = vulnerable(g, f.black, f.white, black_to_move)
    empty = g.full & ~(black | white)
    out = f.filled | (cells & ~killers)
    if not empty & ~out:
        return f, 0
    return f, out
