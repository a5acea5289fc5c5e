"""Learned move priors for the Hex search: local shape around a cell, scored by weights.

A move's *features* are read from the board around it, always from the mover's point
of view (the board is seen transposed when White moves, so the mover's edges are
always the top and bottom):

- ``shape``: the 18 cells within distance two (6 neighbours, 6 bridge cells, 6 cells
  two steps straight), each empty, the mover's or the opponent's; a cell off the board
  counts as a stone of the colour whose edge it lies beyond (edges are stones);
- ``near``: its first six cells alone (a coarser shape, for shapes too rare to weigh);
- ``rows``: how far the cell is from the mover's nearer edge and from the opponent's
  nearer edge (each capped at 4);
- ``last``: where the opponent's last stone is (a neighbour, a bridge away, two away,
  farther);
- ``save``: the move answers an intrusion into one of the mover's bridges or edge
  templates (as the search's hand-written priors know it).

A shape and its 180° rotation are the same feature (the rotation keeps every edge its
colour). The score of a move is the sum of its features' weights; the probability of
a move is ``exp(score)`` over the sum for all moves offered (a conditional logit, the
model of Coulom's "Computing Elo ratings of move patterns"). The weights live in
:mod:`engine.ai.hex.packaged`'s ``prior_weights.json.gz``, fitted to MoHex 2.0's choices in
self-play by ``tools/hex_priors.py`` (the data and how it was made are described there), read
on the first score and kept.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any, NamedTuple

from .packaged import PRIORS_FILE, read_json

#: the 18 cells around a cell as (column, row) offsets, in three rings of six; within each
#: ring, offset k + 3 is offset k rotated by 180°, so rotating a shape is a digit shift
RING: tuple[tuple[int, int], ...] = (
    (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1),
    (1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2), (2, -1),
    (2, 0), (0, 2), (-2, 2), (-2, 0), (0, -2), (2, -2),
)
#: where each offset goes under the 180° rotation
ROTATED: tuple[int, ...] = tuple(6 * (k // 6) + (k % 6 + 3) % 6 for k in range(18))
#: a digit of a shape code: 0 empty, 1 the mover's, 2 the opponent's
EMPTY, MINE, THEIRS = 0, 1, 2
#: the caps of the ``rows`` feature
ROW_CAP = 4
#: ``last`` buckets: none or far, a neighbour, a bridge away, two away in a line
LAST_FAR, LAST_ADJACENT, LAST_BRIDGE, LAST_TWO = 0, 1, 2, 3


class Around:
    """For one board size and one mover orientation: each cell's 18 surroundings.

    ``fixed[c]`` is the shape code (and its rotation's) of the off-board cells alone;
    ``inside[c]`` maps each on-board one to (weight, rotated weight), the weights being
    the digit's power of three in the code and in the rotated code; ``masks[c]`` is
    the bitboard of the on-board ones (most cells have few stones around them, so
    only those are looked at).
    """

    __slots__ = ("n", "vertical", "fixed", "inside", "masks", "rows", "ring_of")

    def __init__(self, n: int, vertical: bool) -> None:
        self.n = n
        self.vertical = vertical
        fixed: list[tuple[int, int]] = []
        inside: list[dict[int, tuple[int, int]]] = []
        masks: list[int] = []
        rows: list[int] = []
        ring_of: list[dict[int, int]] = []
        for cell in range(n * n):
            col, row = cell % n, cell // n
            # The mover's frame: its edges are rows -1 and n (transposed for White).
            x, y = (col, row) if vertical else (row, col)
            code = rot = 0
            on: dict[int, tuple[int, int]] = {}
            where: dict[int, int] = {}
            for k, (dx, dy) in enumerate(RING):
                fx, fy = x + dx, y + dy
                w, wr = 3**k, 3 ** ROTATED[k]
                if 0 <= fx < n and 0 <= fy < n:
                    c2 = fy * n + fx if vertical else fx * n + fy
                    on[c2] = (w, wr)
                    where[c2] = k
                else:
                    # Beyond the mover's edges (rows) it is the mover's colour, else the opponent's.
                    digit = MINE if not 0 <= fy < n else THEIRS
                    code += digit * w
                    rot += digit * wr
            fixed.append((code, rot))
            inside.append(on)
            masks.append(sum(1 << c2 for c2 in on))
            mine_edge = min(y, n - 1 - y)
            their_edge = min(x, n - 1 - x)
            rows.append(min(mine_edge, ROW_CAP) * (ROW_CAP + 1) + min(their_edge, ROW_CAP))
            ring_of.append(where)
        self.fixed = tuple(fixed)
        self.inside = tuple(inside)
        self.masks = tuple(masks)
        self.rows = tuple(rows)
        self.ring_of = tuple(ring_of)

    def shape(self, cell: int, mine: int, theirs: int) -> int:
        """The canonical 18-cell shape code of ``cell`` (the smaller of it and its rotation)."""
        code, rot = self.fixed[cell]
        m = self.masks[cell]
        inside = self.inside[cell]
        for stones, digit in ((mine & m, MINE), (theirs & m, THEIRS)):
            while stones:
                low = stones & -stones
                stones ^= low
                w, wr = inside[low.bit_length() - 1]
                code += digit * w
                rot += digit * wr
        return code if code <= rot else rot

    def last_bucket(self, cell: int, last: int) -> int:
        """Where the opponent's last stone lies from ``cell`` (a ``LAST_*`` bucket)."""
        k = self.ring_of[cell].get(last)
        if k is None:
            return LAST_FAR
        return (LAST_ADJACENT, LAST_BRIDGE, LAST_TWO)[k // 6]


@cache
def around(n: int, vertical: bool) -> Around:
    """The shared :class:`Around` of a board size and mover orientation."""
    return Around(n, vertical)


#: 3**6: the ``near`` code is the shape code's lowest six digits
NEAR = 3**6


def near_code(shape: int) -> int:
    """The canonical six-neighbour code within a canonical 18-cell code.

    The six neighbours are the lowest digits, and the 180° rotation shifts them within
    themselves, so the canonical near code is the smaller of the digits and their shift.
    """
    a = shape % NEAR
    # Rotate the six digits by three places: (d0 d1 d2 d3 d4 d5) -> (d3 d4 d5 d0 d1 d2).
    b = a // 27 + (a % 27) * 27
    return a if a <= b else b


#: a move's features: (shape, near, rows, last, save)
Features = tuple[int, int, int, int, bool]


def features(ar: Around, cell: int, mine: int, theirs: int, last: int, save: bool) -> Features:
    """A move's features: (shape, near, rows, last, save) as described in the module docstring."""
    shape = ar.shape(cell, mine, theirs)
    return shape, near_code(shape), ar.rows[cell], ar.last_bucket(cell, last) if last >= 0 else LAST_FAR, save


class Weights(NamedTuple):
    """The learned weight of each feature value (see the module docstring)."""

    #: canonical 18-cell shape code → weight (shapes too rare in the data are absent: 0)
    shape: dict[int, float]
    #: canonical six-neighbour code → weight
    near: dict[int, float]
    #: per ``rows`` value (mover's edge distance × 5 + opponent's), 25 weights
    rows: tuple[float, ...]
    #: per ``LAST_*`` bucket
    last: tuple[float, ...]
    #: the weight of answering an intrusion
    save: float


def parse_weights(doc: dict[str, Any]) -> Weights:
    """:class:`Weights` from the JSON document ``tools/hex_priors.py train`` writes.

    A code → weight table is two parallel arrays (``codes``, ``weights``) rather than a JSON
    object, whose keys would be text to convert: this is read in a fresh worker before its
    first search, and pairing two arrays is several times faster.
    """
    return Weights(
        dict(zip(doc["shape"]["codes"], doc["shape"]["weights"])),
        dict(zip(doc["near"]["codes"], doc["near"]["weights"])),
        tuple(doc["rows"]),
        tuple(doc["last"]),
        doc["save"],
    )


@cache
def weights() -> Weights:
    """The shipped weights, read from the package's data file on first use and kept."""
    return parse_weights(read_json(PRIORS_FILE))


def score(f: Features) -> float:
    """The learned score of a move's features (unknown shapes weigh nothing)."""
    shape, near, rows, last, save = f
    shape_w, near_w, rows_w, last_w, save_w = weights()
    return shape_w.get(shape, 0.0) + near_w.get(near, 0.0) + rows_w[rows] + last_w[last] + (save_w if save else 0.0)


def probabilities(scores: list[float]) -> list[float]:
    """Softmax of move scores."""
    top = max(scores)
    e = [math.exp(s - top) for s in scores]
    total = sum(e)
    return [x / total for x in e]
