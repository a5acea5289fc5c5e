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
"""

from __future__ import annotations

from functools import cache

from ..geometry import HexGrid, grid

#: neighbour directions (column step, row step) in ring order around a cell
RING = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


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


def dead_once(g: HexGrid, black: int, white: int) -> int:
    """Empty cells matching a dead-cell pattern (one pass)."""
    t = ring_tables(g.n)
    b = _around(t, black, 0)
    w = _around(t, white, 1)
    dead = 0
    for i in range(6):
        i1, i2, i3, i4 = (i + 1) % 6, (i + 2) % 6, (i + 3) % 6, (i + 4) % 6
        for x, o in ((b, w), (w, b)):
            run2 = x[i] & x[i1]
            run3 = run2 & x[i2]
            dead |= run3 & x[i3]
            dead |= run3 & o[i4]
            dead |= run2 & o[i3] & o[i4]
    return dead & g.full & ~(black | white)


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
