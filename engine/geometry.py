"""Hex-board geometry shared by the three games (RULES.md §1).

Cells are integers ``i = row * n + col`` (0-based), so a set of cells is an
integer bitboard with bit ``i`` set. Row r+1 is drawn half a cell right of
row r, so the neighbours of (c, r) are (c-1, r), (c+1, r), (c, r-1),
(c+1, r-1), (c-1, r+1), (c, r+1).

>>> g = grid(7)
>>> g.name(g.parse("d4"))
'd4'
>>> sorted(g.name(j) for j in g.neighbours[g.parse("d4")])
['c4', 'c5', 'd3', 'd5', 'e3', 'e4']
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import compress

from .errors import NotationError
from .messages import sentence

_CELL = re.compile(r"^([a-z])(\d{1,2})$")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: the six neighbour directions (column step, row step) in ring order around a cell
RING = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class HexGrid:
    """The cells, names, neighbours and edge masks of one n×n rhombus."""

    __slots__ = (
        "n", "cells", "full", "top", "bottom", "left", "right",
        "neighbours", "nmask", "_not_first_col", "_not_last_col", "_names",
    )

    def __init__(self, n: int) -> None:
        if not 1 <= n <= 26:
            raise ValueError(f"board size {n} is out of range")
        self.n = n
        self.cells = n * n
        self.full = (1 << self.cells) - 1
        self.top = (1 << n) - 1
        self.bottom = self.top << (n * (n - 1))
        self.left = sum(1 << (r * n) for r in range(n))
        self.right = self.left << (n - 1)
        self._not_first_col = self.full & ~self.left
        self._not_last_col = self.full & ~self.right
        self._names = tuple(f"{LETTERS[i % n]}{i // n + 1}" for i in range(self.cells))
        nbrs: list[tuple[int, ...]] = []
        for i in range(self.cells):
            c, r = i % n, i // n
            out = []
            for dc, dr in ((-1, 0), (1, 0), (0, -1), (1, -1), (-1, 1), (0, 1)):
                cc, rr = c + dc, r + dr
                if 0 <= cc < n and 0 <= rr < n:
                    out.append(rr * n + cc)
            nbrs.append(tuple(out))
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(nbrs)
        self.nmask: tuple[int, ...] = tuple(sum(1 << j for j in nb) for nb in nbrs)

    # -- names -------------------------------------------------------------
    def name(self, i: int) -> str:
        """The cell's name in notation, e.g. ``c4``."""
        return self._names[i]

    def index(self, col: int, row: int) -> int:
        """The cell index of 0-based column and row."""
        return row * self.n + col

    def coords(self, i: int) -> tuple[int, int]:
        """0-based (column, row) of a cell."""
        return i % self.n, i // self.n

    def last_cell(self) -> str:
        """The name of the bottom-right cell, for messages (``g7`` on 7×7)."""
        return self._names[-1]

    def parse(self, text: str) -> int:
        """Read one cell name (already lower-case and trimmed); NotationError if it is not one."""
        m = _CELL.match(text)
        if not m:
            raise NotationError(sentence("'{typed}' is not a cell: write a letter then a number, such as c4", typed=text))
        col = ord(m.group(1)) - 97
        row = int(m.group(2)) - 1
        if col >= self.n or not 0 <= row < self.n:
            raise NotationError(sentence("{cell} is off the board: cells go from a1 to {last} on this {n}×{n} board",
                                      cell=text, last=self.last_cell(), n=self.n))
        return row * self.n + col

    def is_cell(self, text: str) -> bool:
        """True when ``text`` looks like a cell name (on this board or not)."""
        return bool(_CELL.match(text))

    # -- bitboards -----------------------------------------------------------
    def expand(self, s: int) -> int:
        """``s`` together with every neighbour of a cell in ``s``."""
        n = self.n
        return (
            s
            | ((s >> 1) & self._not_last_col)
            | ((s << 1) & self._not_first_col)
            | (s >> n)
            | ((s >> (n - 1)) & self._not_first_col)
            | ((s << (n - 1)) & self._not_last_col)
            | (s << n)
        ) & self.full

    def component(self, stones: int, seed: int) -> int:
        """The cells of ``stones`` connected to ``seed`` (a bitboard) through ``stones``."""
        f = seed & stones
        while True:
            g = self.expand(f) & stones
            if g == f:
                return f
            f = g

    def connects(self, stones: int, vertical: bool) -> bool:
        """Whether ``stones`` hold a chain between top and bottom (or left and right)."""
        a, b = (self.top, self.bottom) if vertical else (self.left, self.right)
        if not (stones & a and stones & b):
            return False
        f = stones & a
        while True:
            if f & b:
                return True
            g = self.expand(f) & stones
            if g == f:
                return False
            f = g

    def connects_through(self, stones: int, cell: int, vertical: bool) -> bool:
        """Whether the chain of ``stones`` through ``cell`` joins the two sides."""
        a, b = (self.top, self.bottom) if vertical else (self.left, self.right)
        if not (stones & a and stones & b):
            return False
        f = (1 << cell) & stones
        while True:
            if f & a and f & b:
                return True
            g = self.expand(f) & stones
            if g == f:
                return False
            f = g

    def winning_chain(self, stones: int, vertical: bool) -> int:
        """The stones of every chain that joins the two sides (0 if none)."""
        a, b = (self.top, self.bottom) if vertical else (self.left, self.right)
        from_a = self.component(stones, stones & a)
        from_b = self.component(stones, stones & b)
        return from_a & from_b

    def shortest_chain(self, stones: int, vertical: bool) -> list[int]:
        """One shortest path of ``stones`` between the two sides, as cells (empty if none)."""
        a, b = (self.top, self.bottom) if vertical else (self.left, self.right)
        start = [i for i in bits(stones & a)]
        prev: dict[int, int] = {i: -1 for i in start}
        frontier = start
        while frontier:
            nxt = []
            for i in frontier:
                if b >> i & 1:
                    path = []
                    while i != -1:
                        path.append(i)
                        i = prev[i]
                    return path[::-1]
                for j in self.neighbours[i]:
                    if stones >> j & 1 and j not in prev:
                        prev[j] = i
                        nxt.append(j)
            frontier = nxt
        return []


#: binary digits to the bytes 0 and 1 (for :func:`bits`)
_DIGITS = str.maketrans("01", "\x00\x01")


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first.

    >>> bits(0b10110)
    [1, 2, 4]
    """
    if mask.bit_count() > 8:
        # A dense mask (a board's empty cells): one pass over its binary digits in C beats a
        # Python step per bit (2 µs against 8 for 80 of 121 cells).
        return list(compress(range(mask.bit_length()), bin(mask)[:1:-1].translate(_DIGITS).encode()))
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@lru_cache(maxsize=None)
def grid(n: int) -> HexGrid:
    """The shared, immutable geometry of an n×n board."""
    return HexGrid(n)
