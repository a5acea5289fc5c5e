"""The Hex opening book: a stronger player's move in the first plies and in positions that
games often reach, looked up, not searched.

A few seconds of Monte Carlo search cannot tell which of two quiet opening moves holds a
game that is decided forty plies later, and strong Hex programs play the opening from a
book; so does this AI (docs/benchmarks.md and docs/ai-research.md say what it is worth). The moves are in the
package's data file ``book_moves.json.gz`` (:mod:`engine.ai.hex.packaged`), written by
``tools/hex_book.py`` and read on the first lookup: MoHex 2.0's choice after
a 2 s search, after every first stone and then the likeliest replies of each side a few
plies deep, and in the positions (up to 15 stones) this AI reached in at least two of its
match games against MoHex (or in one game of the latest runs); the positions of its first
two moves in those games (on 11×11, its first three) after a 20 s search (MoHex's 2 s choice
there is unsteady).

A position is keyed by its stones and the side to move, not by the moves that led to it
(transpositions share an entry), and a position and its 180° turn (the same position for
both sides: each edge maps to its own colour's other edge) share one key.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ...geometry import bits, grid
from .packaged import BOOK_FILE, read_json


def _key(black: int, white: int, black_to_move: bool) -> str:
    """The position as text: Black's cells, White's cells (indices, ascending) and the mover."""
    return "{}/{}/{}".format(
        ",".join(map(str, bits(black))), ",".join(map(str, bits(white))), "b" if black_to_move else "w"
    )


def turned_cell(n: int, cell: int) -> int:
    """The index of ``cell`` on the n×n board turned by 180° (the same position for both sides).

    >>> turned_cell(9, 0), turned_cell(9, 80)
    (80, 0)
    """
    return n * n - 1 - cell


def _turned(n: int, cells: int) -> int:
    """The bitboard turned by 180° (see :func:`turned_cell`)."""
    return sum(1 << turned_cell(n, i) for i in bits(cells))


def canonical(n: int, black: int, white: int, black_to_move: bool) -> tuple[str, bool]:
    """The book key of a position and whether it is the key of the position turned by 180°.

    >>> canonical(3, 1 << 8, 0, False)  # a Black stone on c3, White to move: the same as on a1
    ('0//w', True)
    """
    plain = _key(black, white, black_to_move)
    turned = _key(_turned(n, black), _turned(n, white), black_to_move)
    return (turned, True) if turned < plain else (plain, False)


def position_key(n: int, moves: list[str]) -> tuple[str, bool]:
    """:func:`canonical` of the position after ``moves`` (cell names, Black first, no swap).

    >>> position_key(9, ["i9", "h8"]) == position_key(9, ["a1", "b2"])[:1] + (True,)
    True
    """
    g = grid(n)
    stones = [0, 0]
    for j, m in enumerate(moves):
        stones[j % 2] |= 1 << g.parse(m)
    return canonical(n, stones[0], stones[1], len(moves) % 2 == 0)


def parse_book(doc: dict[str, Any]) -> dict[int, dict[str, int]]:
    """The book from the JSON document ``tools/hex_book.py --write`` writes: per board size (a text
    key in JSON), position key (:func:`canonical`) → the cell to play in the key's frame (as JSON
    gives them: text keys, integer cells)."""
    return {int(n): moves for n, moves in doc["books"].items()}


@cache
def entries() -> dict[int, dict[str, int]]:
    """The shipped book (see :func:`parse_book`), read from the package's data file on first use and kept."""
    return parse_book(read_json(BOOK_FILE))


def book_move(n: int, black: int, white: int, black_to_move: bool) -> int | None:
    """The book's cell for the side to move in this position of an n×n board, or None when out of book."""
    entries_of_size = entries().get(n)
    if not entries_of_size:
        return None
    key, turned = canonical(n, black, white, black_to_move)
    cell = entries_of_size.get(key)
    if cell is None:
        return None
    return turned_cell(n, cell) if turned else cell
