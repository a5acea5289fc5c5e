"""The Hex opening book: a stronger player's move in the first few plies, looked up, not searched.

A few seconds of Monte Carlo search cannot tell which of two quiet opening moves holds a
game that is decided forty plies later, and strong Hex programs play the opening from a
book; so does this AI (the README's benchmarks say what it is worth). The moves are in
:mod:`engine.ai.hex_book_moves`, written by ``bench/hex_book.py``: MoHex 2.0's choice after
a 2 s search, after every first stone and then the likeliest replies of each side a few
plies deep. The engine does no I/O, so the book is a module.

A position is keyed by its stones and the side to move, not by the moves that led to it
(transpositions share an entry), and a position and its 180° turn (the same position for
both sides: each edge maps to its own colour's other edge) share one key.
"""

from __future__ import annotations

from .hex_book_moves import BOOK


def _key(n: int, black: int, white: int, black_to_move: bool) -> str:
    """The position as text: Black's cells, White's cells (indices, ascending) and the mover."""
    return "{}/{}/{}".format(
        ",".join(str(i) for i in range(n * n) if black >> i & 1),
        ",".join(str(i) for i in range(n * n) if white >> i & 1),
        "b" if black_to_move else "w",
    )


def _turned(n: int, cells: int) -> int:
    """The bitboard turned by 180° (cell i goes to n·n − 1 − i)."""
    out = 0
    last = n * n - 1
    while cells:
        low = cells & -cells
        out |= 1 << (last - low.bit_length() + 1)
        cells ^= low
    return out


def canonical(n: int, black: int, white: int, black_to_move: bool) -> tuple[str, bool]:
    """The book key of a position and whether it is the key of the position turned by 180°.

    >>> canonical(3, 1 << 8, 0, False)  # a Black stone on c3, White to move: the same as on a1
    ('0//w', True)
    """
    plain = _key(n, black, white, black_to_move)
    turned = _key(n, _turned(n, black), _turned(n, white), black_to_move)
    return (turned, True) if turned < plain else (plain, False)


def book_move(n: int, black: int, white: int, black_to_move: bool) -> int | None:
    """The book's cell for the side to move in this position of an n×n board, or None when out of book."""
    entries = BOOK.get(n)
    if not entries:
        return None
    key, turned = canonical(n, black, white, black_to_move)
    cell = entries.get(key)
    if cell is None:
        return None
    return n * n - 1 - cell if turned else cell
