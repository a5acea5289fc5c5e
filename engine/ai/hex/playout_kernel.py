"""Hex playouts compiled by numba (the rules are in :mod:`engine.ai.hex.ai`'s account of playouts).

A playout is the one part of the search that runs on every iteration and touches every
empty cell: the bridge-aware fill, the random fill of the rest and the flood fill that
finds the winner. Written over Python integers it took some 25 µs on 11×11, a third of
the search's time; here a call takes about 3 µs.

Bitboards go in and out as 64-bit words (cell i is bit ``i % 64`` of word ``i // 64``).
The tables describe one board size (``engine.ai.hex.ai._kernel_tables``): the fill patterns per colour
(a stone's cells, its partner's offset, its carrier pairs' offsets), and the cells'
neighbours and edges. The random numbers come from splitmix64 seeded by the caller, so a
playout is a function of its position and seed.

Compiled once per machine (numba's cache, next to this file or in numba's cache
directory when that is not writable); the first use on a fresh install waits for it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: a pattern's partner offset when its partner is the edge (edge templates)
NO_PARTNER = 1 << 30
#: the most carrier pairs of one pattern (the ziggurat's four)
MAX_PAIRS = 4
#: edge flags of a cell
TOP, BOTTOM, LEFT, RIGHT = 1, 2, 4, 8

_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True, inline="always")
def _next(state: np.ndarray) -> np.uint64:
    """splitmix64: the next 64 random bits (``state`` is a one-word array it advances)."""
    state[0] = state[0] + np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _below(state: np.ndarray, bound: int) -> int:
    """A random integer in ``[0, bound)`` (the modulo bias is below 2⁻⁵⁰ for a board's bounds)."""
    return int(_next(state) % np.uint64(bound))


@njit(cache=True, inline="always")
def _has(words: np.ndarray, i: int) -> bool:
    return (words[i >> 6] >> np.uint64(i & 63)) & np.uint64(1) != 0


@njit(cache=True)
def _connects(board: np.ndarray, colour: int, neighbours: np.ndarray, edges: np.ndarray, start: int, goal: int) -> bool:
    """Whether ``colour``'s cells of ``board`` join an edge ``start`` cell to an edge ``goal`` cell."""
    cells = board.shape[0]
    seen = np.zeros(cells, dtype=np.uint8)
    stack = np.empty(cells, dtype=np.int64)
    top = 0
    for x in range(cells):
        if board[x] == colour and edges[x] & start:
            seen[x] = 1
            stack[top] = x
            top += 1
    while top:
        top -= 1
        x = stack[top]
        if edges[x] & goal:
            return True
        for j in range(neighbours.shape[1]):
            y = neighbours[x, j]
            if y >= 0 and not seen[y] and board[y] == colour:
                seen[y] = 1
                stack[top] = y
                top += 1
    return False


@njit(cache=True)
def playout(
    black: np.ndarray, white: np.ndarray, black_to_move: bool, seed: int,
    valid: np.ndarray, partner: np.ndarray, pairs: np.ndarray, npairs: np.ndarray,
    neighbours: np.ndarray, edges: np.ndarray, out: np.ndarray,
) -> bool:
    """One bridge-aware random fill of the empty cells; whether Black wins. ``out[0]`` and
    ``out[1]`` get Black's and White's cells at the end (words).

    ``valid[c, p]`` (colour c: 0 Black, 1 White; pattern p) is a byte per cell: whether
    the pattern may sit on a stone there; ``partner[c, p]`` its partner's offset (or
    :data:`NO_PARTNER`); ``pairs[c, p, :npairs[c, p]]`` its carrier pairs' offsets.
    """
    cells = edges.shape[0]
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    # 0 empty, 1 Black, 2 White; ``given`` holds what the patterns hand out.
    board = np.zeros(cells, dtype=np.int8)
    total = 0
    for x in range(cells):
        if _has(black, x):
            board[x] = 1
        elif _has(white, x):
            board[x] = 2
        else:
            total += 1
    given = np.zeros(cells, dtype=np.int8)
    # The side to move settles first where both colours want the same pair of cells.
    for turn in range(2):
        colour = 1 if black_to_move == (turn == 0) else 2
        other = 3 - colour
        c = colour - 1
        for p in range(valid.shape[1]):
            off = partner[c, p]
            for x in range(cells):
                if not valid[c, p, x] or board[x] != colour:
                    continue
                if off != NO_PARTNER and board[x + off] != colour:
                    continue
                intact = True
                for q in range(npairs[c, p]):
                    if board[x + pairs[c, p, q, 0]] != 0 or board[x + pairs[c, p, q, 1]] != 0:
                        intact = False
                        break
                if not intact:
                    continue
                for q in range(npairs[c, p]):
                    a = x + pairs[c, p, q, 0]
                    b = x + pairs[c, p, q, 1]
                    if given[a] == colour or given[b] == colour:
                        continue  # the owner already has a cell of this pair
                    if given[a] == 0 and given[b] == 0:
                        # Both free: one each, at random.
                        if _next(rng) & np.uint64(1):
                            given[a] = colour
                            given[b] = other
                        else:
                            given[b] = colour
                            given[a] = other
                    elif given[a] == 0:
                        given[a] = colour  # the opponent was given b: the owner answers with a
                    elif given[b] == 0:
                        given[b] = colour
    # The rest at random; the side to move gets the odd cell of the whole fill.
    rest = np.empty(cells, dtype=np.int64)
    free = 0
    given_black = 0
    for x in range(cells):
        if board[x] == 0:
            if given[x] == 0:
                rest[free] = x
                free += 1
            else:
                board[x] = given[x]
                if given[x] == 1:
                    given_black += 1
    want_black = (total + 1) // 2 if black_to_move else total // 2
    k = min(max(want_black - given_black, 0), free)
    # A partial Fisher–Yates shuffle: the first k of ``rest`` become a uniform k-subset.
    for i in range(k):
        j = i + _below(rng, free - i)
        rest[i], rest[j] = rest[j], rest[i]
    for i in range(free):
        board[rest[i]] = 1 if i < k else 2
    out[:] = 0
    for x in range(cells):
        row = 0 if board[x] == 1 else 1
        out[row, x >> 6] |= np.uint64(1) << np.uint64(x & 63)
    return _connects(board, 1, neighbours, edges, TOP, BOTTOM)


def _warm_up() -> None:
    """Compile (or load from numba's cache) now, at import, so that no search waits for it."""
    cells = 4  # a 2×2 board
    neighbours = np.array([[1, 2, -1], [0, 2, 3], [0, 1, 3], [1, 2, -1]], dtype=np.int64)
    edges = np.array([TOP | LEFT, TOP | RIGHT, BOTTOM | LEFT, BOTTOM | RIGHT], dtype=np.int64)
    # Read-only words, as ``hex_ai`` passes them (numba compiles a writable array's call apart).
    stones = np.frombuffer(bytes(8), dtype="<u8")
    playout(
        stones, stones, True, 1, np.zeros((2, 1, cells), dtype=np.uint8), np.full((2, 1), NO_PARTNER, dtype=np.int64),
        np.zeros((2, 1, MAX_PAIRS, 2), dtype=np.int64), np.zeros((2, 1), dtype=np.int64), neighbours, edges,
        np.empty((2, 1), dtype=np.uint64),
    )


_warm_up()
