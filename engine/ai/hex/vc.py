"""Virtual connections in Hex: an H-search over carriers, for one player at a time.

A *virtual connection* (VC) between two nodes holds whatever the opponent does: a
**full** connection needs no move from its owner (the owner answers each intrusion
into its *carrier*, the set of empty cells it relies on); a **semi** connection
becomes full with one move of its owner, the *key*, which belongs to its carrier.
Nodes are empty cells and *groups*: the owner's connected stones and the owner's
two edges (stones touching an edge belong to that edge's group).

H-search (Anshelevich 2002) builds them bottom-up from adjacency:

- AND rule: full(x, z) and full(z, y) with disjoint carriers (neither holding x or
  y) give full(x, y) when the midpoint z is a group, and semi(x, y) with key z when
  z is an empty cell; full(x, z) and semi(z, y) through a group z give semi(x, y);
- OR rule: semis between x and y whose carriers have no common cell give full(x, y)
  with the union of their carriers: each new semi with every combination of one to
  three of the pair's stored ones (as Benzene's ``max_ors`` of 4), not a greedy pick,
  which missed joins such as two ladders on either side of a wall.

Those two rules find bridges, the row-2 edge template, the ziggurat (template
IIIa) and many larger ones (tests check each by exhaustive search). The rules run
compiled (:mod:`engine.ai.hex.vc_kernel`, numba), in one of two modes: **full**, where
connections between two empty cells are derived like any other (the root's), and
**narrow**, where a derived connection keeps a group at one end (the only mode of the
earlier pure-Python search), for the tree's often-visited nodes: about a twentieth of the
cost, and weaker (after MoHex's proven winning moves in our games, it sees the loser's threat
in 32 of 42 positions where the full search sees 39 and MoHex's connections all 42). Each pair keeps
only a few of the smallest carriers (a *soft limit*, as in Benzene), and the search
stops at a work limit.

The soft limit can push out the ziggurat of an empty third-row cell, so the search
is also seeded with it: every placement of :data:`EDGE_TEMPLATES` (the ziggurat and
its mirror image, on each edge, wherever the whole carrier is on the board and holds
no opponent stone) is a full connection between the edge and the anchor (a cell, or
the group of an own stone there). With those, the rules derive the fourth-row
template (IV-1a): a fourth-row stone threatens ziggurats from the cells next to it
and bridged to it, and their carriers have no common cell.

What the AI uses:

- a full VC between a player's edges is a **proven win** for that player whoever
  moves; a semi is a proven win for the player to move (play its key);
- when the opponent has a virtual win, a move outside the intersection of all its
  edge-to-edge carriers (semis included: the opponent moves next) loses at once:
  the **mustplay** region. An empty mustplay means the position is lost.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np

from ...geometry import HexGrid, bits
from .vc_kernel import PAUSED, TRUNCATED, hsearch, hsearch_result, hsearch_start, hsearch_steps

#: asked between slices of work, True once the caller's time is spent (the search then stops)
Stop = Callable[[], bool]


@dataclass(frozen=True, slots=True)
class EdgeVCs:
    """A player's connections between their two edges, and the cost of finding them."""

    #: carriers of full connections (empty cells; a full with carrier 0 is a won game)
    fulls: tuple[int, ...]
    #: carriers of semi connections, each with its key: (carrier, key cell)
    semis: tuple[tuple[int, int], ...]
    #: True when the search stopped at its work limit (results may be incomplete)
    truncated: bool = False
    #: the player's answers to the opponent's intrusions, if asked for (see :func:`edge_vcs`):
    #: (intruded cell, the cells that restore what it broke), one entry per cell that has any
    answers: tuple[tuple[int, int], ...] = ()
    #: the work units the search spent (counted when it ran with a ``stop``, else 0)
    work: int = 0

    @property
    def won(self) -> bool:
        """A full connection: the player wins whoever moves."""
        return bool(self.fulls)

    def winning_move(self) -> int | None:
        """A key that turns a semi into a full connection (None without a semi)."""
        if not self.semis:
            return None
        return min(self.semis, key=lambda s: s[0].bit_count())[1]

    def mustplay(self, full_mask: int) -> int:
        """Cells where the opponent must play to stop these connections (``full_mask`` if none)."""
        region = full_mask
        for c in self.fulls:
            region &= c
        for c, _ in self.semis:
            region &= c
        return region


class HSearch:
    """The H-search of one player on one position (build with :func:`edge_vcs`).

    This part finds the nodes and the seed connections; the rules run compiled
    (:func:`engine.ai.hex.vc_kernel.hsearch`)."""

    #: carriers kept per pair of nodes
    FULL_LIMIT = 4
    SEMI_LIMIT = 6
    #: the longest work queue (connections found and not yet combined); beyond it the search stops
    QUEUE = 1 << 16
    #: compiled work units per unit of ``max_work`` (the limits were set for the pure-Python search, which
    #: spent about a microsecond on a carrier combination; compiled, one costs tens of nanoseconds)
    WORK_SCALE = 10
    #: compiled work units between two looks at the caller's clock (a few milliseconds on 19×19)
    SLICE = 1 << 16

    def __init__(
        self, g: HexGrid, mine: int, theirs: int, vertical: bool, max_work: int, narrow: bool = False,
        answers: bool = False,
    ) -> None:
        self.g = g
        self.narrow = narrow
        self.answers = answers
        self.n_cells = g.cells
        self.empty = g.full & ~(mine | theirs)
        self.max_work = max_work
        self.truncated = False
        #: whether the caller's ``stop`` ended the search (see :meth:`run`)
        self.stopped = False
        edge_a, edge_b = (g.top, g.bottom) if vertical else (g.left, g.right)
        # Groups: node ids from n_cells on; the two edges come first.
        stones_a = g.component(mine, mine & edge_a)
        stones_b = g.component(mine, mine & edge_b)
        self.groups: list[int] = [stones_a, stones_b]
        # Cells each group touches: its stones' neighbours, and the edge row itself.
        touch = [g.expand(stones_a) | edge_a, g.expand(stones_b) | edge_b]
        rest = mine & ~(stones_a | stones_b)
        while rest:
            seed = rest & -rest
            comp = g.component(mine, seed)
            rest &= ~comp
            self.groups.append(comp)
            touch.append(g.expand(comp))
        self.edge_a = self.n_cells
        self.edge_b = self.n_cells + 1
        self.connected = bool(stones_a & stones_b)
        #: the connections the rules start from: (x, y, carrier), all full
        self.seeds: list[tuple[int, int, int]] = []
        for k, t in enumerate(touch):
            x = self.n_cells + k
            self.seeds.extend((x, c, 0) for c in bits(t & self.empty))
        # Adjacent empty cells: the AND rule through an empty cell starts from these.
        for c in bits(self.empty):
            self.seeds.extend((c, d, 0) for d in g.neighbours[c] if d > c and self.empty >> d & 1)
        if not self.connected:
            self._seed_edge_templates(mine, theirs, vertical)
        self.result = EdgeVCs((0,), ()) if self.connected else EdgeVCs((), ())

    def _seed_edge_templates(self, mine: int, theirs: int, vertical: bool) -> None:
        """Full connections from cells and groups to an edge by the precomputed edge templates
        (:data:`EDGE_TEMPLATES`) whose carriers hold no opponent stone."""
        node_of: dict[int, int] = {}
        for k, comp in enumerate(self.groups):
            for c in bits(comp):
                node_of[c] = self.n_cells + k
        for edge_node, placed in ((self.edge_a, edge_templates(self.g.n, vertical, 0)),
                                  (self.edge_b, edge_templates(self.g.n, vertical, 1))):
            for anchor, carrier in placed:
                if carrier & theirs or theirs >> anchor & 1:
                    continue
                node = node_of.get(anchor, anchor)
                if node == edge_node:
                    continue
                self.seeds.append((edge_node, node, carrier & self.empty))

    def run(self, stop: Stop | None = None) -> None:
        """Apply the AND and OR rules until nothing new (or the work limit, or ``stop()``).

        With ``stop`` the rules run in slices of :attr:`SLICE` work units and ``stop`` is asked
        before each: once it says the time is spent, the connections found so far are the result
        (each is sound; fewer of them only make the mustplay region wider and prove less), marked
        ``truncated``."""
        words = (self.n_cells + 63) // 64
        seeds = np.array([(x, y) for x, y, _ in self.seeds], dtype=np.int32).reshape(-1, 2)
        seed_car = _to_words([c for _, _, c in self.seeds], words)
        n_nodes, max_work = self.n_cells + len(self.groups), self.max_work * self.WORK_SCALE
        if stop is None:
            fulls, semis, keys, truncated, answers = hsearch(
                self.n_cells, n_nodes, seeds, seed_car, self.FULL_LIMIT, self.SEMI_LIMIT,
                max_work, self.QUEUE, self.edge_a, self.edge_b, self.narrow, self.answers,
            )
            work = -1
        else:
            fcar, fcnt, scar, skey, scnt, q, qcar, qht, counter, truncated = hsearch_start(
                n_nodes, seeds, seed_car, self.FULL_LIMIT, self.SEMI_LIMIT, self.QUEUE)
            while not truncated:
                if stop():
                    truncated = self.stopped = True
                    break
                status = hsearch_steps(self.n_cells, n_nodes, fcar, fcnt, scar, skey, scnt, q, qcar, qht, counter,
                                       max_work, int(counter[0]) + self.SLICE, self.narrow)
                truncated = status == TRUNCATED
                if status != PAUSED:
                    break
            fulls, semis, keys, answers = hsearch_result(
                self.n_cells, n_nodes, fcar, fcnt, scar, skey, scnt, self.edge_a, self.edge_b, self.answers)
            work = int(counter[0])
        self.truncated = bool(truncated)
        self.result = EdgeVCs(
            tuple(_from_words(c) for c in fulls),
            tuple((_from_words(c), int(k)) for c, k in zip(semis, keys)),
            self.truncated,
            tuple((int(p), _from_words(answers[p])) for p in np.flatnonzero(answers.any(axis=1))),
            max(work, 0),
        )

    def edge_result(self) -> EdgeVCs:
        """The connections between the two edges found so far."""
        return self.result


def _to_words(carriers: list[int], words: int) -> np.ndarray:
    """Carriers as rows of 64-bit words (cell i: bit i % 64 of word i // 64)."""
    out = np.zeros((len(carriers), words), dtype=np.uint64)
    mask = (1 << 64) - 1
    for i, c in enumerate(carriers):
        for w in range(words):
            out[i, w] = (c >> (64 * w)) & mask
    return out


def _from_words(row: np.ndarray) -> int:
    """A carrier back from its words."""
    out = 0
    for w, v in enumerate(row.tolist()):
        out |= int(v) << (64 * w)
    return out


#: Edge templates the AND/OR rules do not derive from a cell (a derived connection has a
#: group at one end), as (column, row) offsets from the anchor for the top edge, rows counted
#: towards the edge (negative); each is also used mirrored and on the other three edges.
EDGE_TEMPLATES: dict[str, tuple[tuple[int, int], ...]] = {
    # IIIa, the ziggurat: a third-row cell (row -2 is the edge row)
    "IIIa": ((-1, 0), (-1, -1), (0, -1), (1, -1), (-1, -2), (0, -2), (1, -2), (2, -2)),
}


def _mirror(offsets: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The template reflected left-right (the reflection of the hex grid that keeps its rows)."""
    return tuple((-dc - dr, dr) for dc, dr in offsets)


@lru_cache(maxsize=None)
def edge_templates(n: int, vertical: bool, side: int) -> tuple[tuple[int, int], ...]:
    """Every placement of :data:`EDGE_TEMPLATES` (and mirrors) on one edge of an n×n board:
    (anchor cell, carrier bitboard), the whole carrier on the board.

    ``side`` 0 is the top (or left) edge, 1 the bottom (or right)."""
    out = []
    for offsets in EDGE_TEMPLATES.values():
        depth = -min(dr for _, dr in offsets)
        for form in {offsets, _mirror(offsets)}:
            for along in range(n):
                cells = []
                for dc, dr in [(0, 0), *form]:
                    # top edge: the anchor on row ``depth``; the bottom edge is the top turned by
                    # half a turn (c, r) -> (-c, -r), which maps the hex grid onto itself
                    c, r = (along + dc, depth + dr) if side == 0 else (along - dc, n - 1 - depth - dr)
                    if not (0 <= c < n and 0 <= r < n):
                        break
                    # White's edges: the board transposed (swapping column and row keeps adjacency)
                    cells.append(r * n + c if vertical else c * n + r)
                else:
                    out.append((cells[0], sum(1 << x for x in cells[1:])))
    return tuple(out)


def edge_vcs(
    g: HexGrid, mine: int, theirs: int, vertical: bool, max_work: int = 400_000, narrow: bool = False,
    answers: bool = False, stop: Stop | None = None,
) -> EdgeVCs:
    """The virtual connections between the edges of the player owning ``mine``.

    ``vertical`` is True for the player joining top and bottom. ``max_work`` bounds
    the carrier combinations tried, in tens (:attr:`HSearch.WORK_SCALE`; the default is a few
    milliseconds on 9×9). ``narrow``: only connections with a group at one end (several times
    cheaper, and weaker; see :func:`engine.ai.hex.vc_kernel.hsearch`).

    ``answers``: also the player's answers to intrusions, as MoHex's tree uses them (Benzene's
    "VC maintenance"): wherever a full connection between two of the player's groups (or a
    group and an edge) has carriers that all hold a cell, an opponent's stone there breaks it,
    and the keys of the pair's semis that avoid the cell restore it.

    ``stop``: asked every few milliseconds; once it returns True the search ends with what it has
    found (see :meth:`HSearch.run`). ``work`` of the result counts the work done (only with ``stop``).
    """
    h = HSearch(g, mine, theirs, vertical, max_work, narrow, answers)
    if not h.connected:
        h.run(stop)
    return h.edge_result()


@dataclass(frozen=True, slots=True)
class RootAnalysis:
    """What the virtual connections say about a position, for the player to move."""

    #: the mover's edge connections and the opponent's
    mine: EdgeVCs
    theirs: EdgeVCs
    #: cells the mover must play in (every empty cell when the opponent has no virtual win)
    mustplay: int
    seconds: float

    @property
    def mover_wins(self) -> bool:
        """The mover has a proven win (a full, or a semi to complete)."""
        return self.mine.won or bool(self.mine.semis)

    @property
    def mover_loses(self) -> bool:
        """The opponent has a virtual win that no single move stops."""
        return bool(self.theirs.fulls or self.theirs.semis) and self.mustplay == 0 and not self.mover_wins

    def merged(self, other: RootAnalysis) -> RootAnalysis:
        """Both analyses' connections of one position together (each is sound, so their union is):
        the H-search keeps only a few carriers per pair, and a narrow search, which derives fewer
        connections, can keep the ones that combine into an edge-to-edge connection where a full
        one kept others (2% of the root positions of our games against MoHex)."""
        mine, theirs = _union(self.mine, other.mine), _union(self.theirs, other.theirs)
        return RootAnalysis(mine, theirs, self.mustplay & other.mustplay, self.seconds + other.seconds)


def _union(a: EdgeVCs, b: EdgeVCs) -> EdgeVCs:
    """Two searches' edge connections of one player in one position, each carrier once, and the
    answers to each intrusion of both (any of them restores a connection)."""
    answers = dict(a.answers)
    for probe, cells in b.answers:
        answers[probe] = answers.get(probe, 0) | cells
    return EdgeVCs(
        tuple(dict.fromkeys(a.fulls + b.fulls)), tuple(dict.fromkeys(a.semis + b.semis)),
        a.truncated or b.truncated, tuple(sorted(answers.items())),
    )


def analyse(
    g: HexGrid, mine: int, theirs: int, vertical: bool, max_work: int = 400_000, narrow: bool = False,
    stop: Stop | None = None,
) -> RootAnalysis:
    """Both players' edge connections and the mover's mustplay region (``stop``: see :func:`edge_vcs`)."""
    t = time.perf_counter()
    empty = g.full & ~(mine | theirs)
    m = edge_vcs(g, mine, theirs, vertical, max_work, narrow, stop=stop)
    th = edge_vcs(g, theirs, mine, not vertical, max_work, narrow, answers=True, stop=stop)
    must = th.mustplay(empty) & empty if (th.fulls or th.semis) else empty
    return RootAnalysis(m, th, must, time.perf_counter() - t)
