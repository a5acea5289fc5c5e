"""The printed Blind Hex board (``boards/blind-hex-11.txt``, from Don Kirkby's PDF).

Each numbered cell shows a number 1–5 on all six sides; a plain cell (``.``)
carries the numbers of the numbered cells next to it (every plain cell touches
exactly two). A letter for number k may go on a cell that *matches* k.

>>> NUMBERS[0], NUMBERS[1], NUMBERS[2]
(5, 0, 1)
>>> MATCHES[1]
(1, 5)
"""

from __future__ import annotations

from .geometry import grid

SIZE = 11

# Rows 1..11 top to bottom, columns a..k; '.' is a plain cell. Copied from
# /work/shared/boards/blind-hex-11.txt (same geometry as RULES.md §1).
_ROWS = """\
5 . 1 . 3 . 4 . 2 . 5
. . . . . . . . . . .
2 . 5 . 1 . 3 . 4 . 2
. . . . . . . . . . .
4 . 2 . 5 . 1 . 3 . 4
. . . . . . . . . . .
3 . 4 . 2 . 5 . 1 . 3
. . . . . . . . . . .
1 . 3 . 4 . 2 . 5 . 1
. . . . . . . . . . .
5 . 1 . 3 . 4 . 2 . 5
"""

#: the number printed on each cell (0 for a plain cell), by cell index
NUMBERS: tuple[int, ...] = tuple(
    0 if token == "." else int(token) for line in _ROWS.splitlines() for token in line.split()
)


def _matches(cell: int) -> tuple[int, ...]:
    """The numbers a cell matches: its own, or those of the numbered cells next to it."""
    if NUMBERS[cell]:
        return (NUMBERS[cell],)
    return tuple(sorted({NUMBERS[j] for j in grid(SIZE).neighbours[cell] if NUMBERS[j]}))


#: the numbers each cell matches, sorted (one or two numbers), by cell index
MATCHES: tuple[tuple[int, ...], ...] = tuple(_matches(i) for i in range(SIZE * SIZE))

#: for each number k (index 1..5; index 0 unused), the bitboard of cells that match k
MATCH_MASK: tuple[int, ...] = tuple(
    sum(1 << i for i, m in enumerate(MATCHES) if k in m) for k in range(6)
)

#: for each number k, the cells that match k, as a tuple (for fast random picks)
MATCH_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, m in enumerate(MATCHES) if k in m) for k in range(6)
)
