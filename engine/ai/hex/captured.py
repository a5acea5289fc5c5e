"""Captured sets in Hex: groups of empty cells one colour owns already, found by a local search.

A set S of empty cells is *captured* by a colour X when X, answering inside S every
move the opponent O makes inside S, can make sure that once S is full every O stone
in it is dead (Henderson, *Playing and solving Hex*, 2010). O gains nothing by playing
in S, so S can be filled with X's stones without changing the winner, whoever moves.

The pairs of :func:`engine.ai.hex.inferior.captured_pairs` are the two-cell case, read
straight from the dead-cell patterns. This module searches larger sets, which MoHex
fills by its hand-made pattern library (an edge region fenced by one colour's stones is
the usual case): every connected set of 3 to ``max_size`` empty cells is tried, with O
moving first inside S and X answering, and a leaf wins for X when the dead-cell
patterns (:mod:`engine.ai.hex.inferior`) make every O stone in S dead, a dead stone
counting as X's when the next one is judged (its colour changes nothing).

Only stones and edges, which never change, and the cells of S decide a leaf, so the
verdict holds whatever happens elsewhere on the board.
"""

from __future__ import annotations

from functools import cache

from ...geometry import RING, HexGrid, bits

#: a ring position's state in a ring code (digit i of the base-3 code is ring direction i)
EMPTY, BLACK, WHITE = 0, 1, 2
#: ring entries that are not cells: off the board beyond Black's edge, White's, or both
OFF_BLACK, OFF_WHITE, OFF_BOTH = -1, -2, -3


@cache
def dead_rings() -> tuple[bool, ...]:
    """For each of the 3⁶ ring codes, whether a cell with that ring is dead (the three patterns
    of :mod:`engine.ai.hex.inferior`, either colour, any rotation)."""
    out = []
    for code in range(3**6):
        ring = [code // 3**i % 3 for i in range(6)]
        dead = False
        for i in range(6):
            r = ring[i:] + ring[:i]
            for x, o in ((BLACK, WHITE), (WHITE, BLACK)):
                run3 = r[0] == x and r[1] == x and r[2] == x
                dead |= run3 and r[3] == x
                dead |= run3 and r[4] == o
                dead |= r[0] == x and r[1] == x and r[3] == o and r[4] == o
        out.append(dead)
    return tuple(out)


@cache
def rings(n: int) -> tuple[tuple[int, ...], ...]:
    """Each cell's six ring entries in :data:`RING` order: a neighbour's index, or an OFF_* value."""
    out = []
    for i in range(n * n):
        c, r = i % n, i // n
        row = []
        for dc, dr in RING:
            cc, rr = c + dc, r + dr
            col_in, row_in = 0 <= cc < n, 0 <= rr < n
            row.append(rr * n + cc if col_in and row_in else OFF_BLACK if col_in else OFF_WHITE if row_in else OFF_BOTH)
        out.append(tuple(row))
    return tuple(out)


class _Board:
    """One position seen from one capturing colour: ring codes of cells given a filling of a set."""

    __slots__ = ("ring", "fixed", "x", "o", "dead")

    def __init__(self, g: HexGrid, black: int, white: int, owner_black: bool) -> None:
        self.ring = rings(g.n)
        self.dead = dead_rings()
        self.x, self.o = (BLACK, WHITE) if owner_black else (WHITE, BLACK)
        fixed = {OFF_BLACK: BLACK, OFF_WHITE: WHITE, OFF_BOTH: EMPTY}
        for c in bits(black):
            fixed[c] = BLACK
        for c in bits(white):
            fixed[c] = WHITE
        self.fixed = fixed

    def is_dead(self, cell: int, filling: dict[int, int]) -> bool:
        """Whether ``cell`` is dead with the set's cells as ``filling`` says (others as on the board)."""
        code, weight = 0, 1
        for j in self.ring[cell]:
            code += weight * filling.get(j, self.fixed.get(j, EMPTY))
            weight *= 3
        return self.dead[code]

    def all_o_dead(self, filling: dict[int, int]) -> bool:
        """Whether every O stone of ``filling`` is dead, dead ones counting as X's for the rest."""
        left = [c for c, v in filling.items() if v == self.o]
        if not left:
            return True
        work = dict(filling)
        progress = True
        while left and progress:
            progress = False
            for c in list(left):
                if self.is_dead(c, work):
                    work[c] = self.x
                    left.remove(c)
                    progress = True
        return not left

    def x_holds(self, rest: list[int], filling: dict[int, int]) -> bool:
        """Whether X, answering inside ``rest`` each O move there, leaves every O stone dead."""
        for o in rest:
            after = [c for c in rest if c != o]
            filling[o] = self.o
            if not after:
                held = self.all_o_dead(filling)
            else:
                held = False
                for x in after:
                    filling[x] = self.x
                    left = [c for c in after if c != x]
                    held = self.x_holds(left, filling) if left else self.all_o_dead(filling)
                    del filling[x]
                    if held:
                        break
            del filling[o]
            if not held:
                return False
        return True


def captured_sets(g: HexGrid, black: int, white: int, owner_black: bool, max_size: int = 6) -> list[int]:
    """The connected sets of 3 to ``max_size`` empty cells captured by one colour, as bitboards
    (a set and its supersets may all appear)."""
    if max_size < 3:
        return []
    b = _Board(g, black, white, owner_black)
    empty = g.full & ~(black | white)
    ring = b.ring
    # A dead-cell pattern needs four stones around the cell; in the end a cell of the set has the
    # board's stones and edges around it and, at most, the set's other cells.
    settled = [0] * g.cells
    for c in bits(empty):
        settled[c] = sum(1 for j in ring[c] if j != OFF_BOTH and (j < 0 or not empty >> j & 1))
    start = [c for c in bits(empty) if settled[c] >= 1]
    usable = set(start)
    seen: set[int] = set()
    found: list[int] = []
    stack: list[tuple[int, tuple[int, ...]]] = [(1 << c, (c,)) for c in start]
    while stack:
        mask, cells = stack.pop()
        if mask in seen:
            continue
        seen.add(mask)
        if len(cells) >= 3 and all(
            settled[c] + sum(1 for j in ring[c] if j >= 0 and mask >> j & 1) >= 4 for c in cells
        ) and b.x_holds(list(cells), {}):
            found.append(mask)
        if len(cells) < max_size:
            for c in cells:
                for d in g.neighbours[c]:
                    if d in usable and not mask >> d & 1:
                        stack.append((mask | 1 << d, (*cells, d)))
    return found
