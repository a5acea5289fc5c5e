"""Second- and third-row ladders in Hex: which pushes are hopeless.

In a ladder the attacker's stones run along row 2 (or 3) of one of its edges and
the defender blocks each push on the row below. Each push forces a block, so the
pair of moves is free, but a ladder with no escape ahead never connects: pushing
it only hands the defender a wall along the edge (and spends the ladder's threat,
which could have served later). A push is *hopeless* when reading the ladder out
to its end finds no escape:

- the ladder meets the side of the board, or a defender stone on the ladder's row
  or on the row it threatens: it ends unconnected;
- an attacker stone on the threatened row, or on the ladder's row ahead (a second
  threat), or any attacker stone near the ladder's path within two more rows (it
  may be an escape this reading does not model): not hopeless.

Edges are handled in one frame, the attacker's edge at the top: the other three
edges map onto it by a 180° turn and/or a transposition of the board, which keep
the hex neighbourhood.
"""

from __future__ import annotations

from functools import cache


@cache
def _frames(n: int) -> dict[tuple[bool, int], tuple[tuple[int, ...], tuple[int, ...]]]:
    """Per (vertical player?, edge 0/1): cell -> frame cell and back (the edge at the frame's top)."""
    out = {}
    for vertical in (True, False):
        for edge in (0, 1):
            to = []
            for i in range(n * n):
                c, r = i % n, i // n
                if not vertical:
                    c, r = r, c  # the left edge becomes the top
                if edge:
                    c, r = n - 1 - c, n - 1 - r  # the far edge too
                to.append(r * n + c)
            back = [0] * (n * n)
            for i, j in enumerate(to):
                back[j] = i
            out[(vertical, edge)] = (tuple(to), tuple(back))
    return out


def _in_frame(n: int, stones: int, to: tuple[int, ...]) -> int:
    out = 0
    while stones:
        low = stones & -stones
        out |= 1 << to[low.bit_length() - 1]
        stones ^= low
    return out


def hopeless_pushes(n: int, mine: int, theirs: int, vertical: bool) -> int:
    """Empty cells where the mover would push a second- or third-row ladder with no escape."""
    frames = _frames(n)
    out = 0
    for edge in (0, 1):
        to, back = frames[(vertical, edge)]
        own = _in_frame(n, mine, to)
        opp = _in_frame(n, theirs, to)
        for x in _frame_hopeless(n, own, opp):
            out |= 1 << back[x]
    return out


def _frame_hopeless(n: int, own: int, opp: int) -> list[int]:
    """Hopeless pushes in the frame (the attacker's edge at the top, row 0)."""

    def at(c: int, r: int, stones: int) -> bool:
        return 0 <= c < n and 0 <= r < n and bool(stones >> (r * n + c) & 1)

    found = []
    for row in (1, 2):
        below = row - 1
        for c in range(n):
            if at(c, row, own | opp):
                continue
            # Rightward: head at (c-1, row), the block at (c, below), the threat (c+1, below).
            if at(c - 1, row, own) and at(c, below, opp) and not _escapes(n, own, opp, c, row, +1):
                found.append(row * n + c)
            # Leftward: head at (c+1, row), the block at (c+1, below), the threat (c, below).
            elif at(c + 1, row, own) and at(c + 1, below, opp) and not _escapes(n, own, opp, c, row, -1):
                found.append(row * n + c)
    return found


def _escapes(n: int, own: int, opp: int, c: int, row: int, step: int) -> bool:
    """Read the ladder pushed at (c, row) in direction ``step``: does the attacker get out?"""

    def at(cc: int, rr: int, stones: int) -> bool:
        return bool(stones >> (rr * n + cc) & 1)

    below = row - 1
    # Attacker stones ahead off the ladder's row, up to two rows further in: maybe an escape
    # this reading does not model, so do not judge.
    for rr in range(0, min(n, row + 3)):
        if rr == row:
            continue
        for cc in range(n):
            if at(cc, rr, own) and (cc - c) * step >= 1:
                return True
    j = c
    while True:
        threat = j + 1 if step > 0 else j
        if not 0 <= threat < n or at(threat, below, opp):
            return False
        if at(threat, below, own):
            return True
        nxt = j + step
        if not 0 <= nxt < n or at(nxt, row, opp):
            return False
        if at(nxt, row, own):
            return True
        j = nxt


def ladder_frame_cell(n: int, vertical: bool, edge: int, frame_cell: int) -> int:
    """The board cell of a frame cell (for tests and callers building positions)."""
    return _frames(n)[(vertical, edge)][1][frame_cell]

