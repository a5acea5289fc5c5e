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
  with the union of their carriers.

Those two rules find bridges, the row-2 edge template, the ziggurat (template
IIIa) of a stone and many larger ones (tests check each by exhaustive search). To
keep the pure-Python search small, derived connections always have a group at one
end (cell-to-cell ones are only adjacencies), and each pair keeps only a few of the
smallest carriers (a *soft limit*, as in Benzene).

That restriction hides the ziggurat of an *empty* third-row cell (it needs the
cell-to-cell bridge), so the search is also seeded with it: every placement of
:data:`EDGE_TEMPLATES` (the ziggurat and its mirror image, on each edge, wherever the
whole carrier is on the board and holds no opponent stone) is a full connection
between the edge and the anchor (a cell, or the group of an own stone there). With
those, the rules derive the fourth-row template (IV-1a): a fourth-row stone threatens
ziggurats from the cells next to it and bridged to it, and their carriers have no
common cell. Its derived carrier (23 cells: from 2 columns left to 5 right of the
stone on the edge row, for the top edge) may be larger than the smallest one known, so
a fourth-row stone closer to a corner than that is not claimed connected.

What the AI uses:

- a full VC between a player's edges is a **proven win** for that player whoever
  moves; a semi is a proven win for the player to move (play its key);
- when the opponent has a virtual win, a move outside the intersection of all its
  edge-to-edge carriers (semis included: the opponent moves next) loses at once:
  the **mustplay** region. An empty mustplay means the position is lost.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from ..geometry import HexGrid, bits


@dataclass(frozen=True, slots=True)
class EdgeVCs:
    """A player's connections between their two edges, and the cost of finding them."""

    #: carriers of full connections (empty cells; a full with carrier 0 is a won game)
    fulls: tuple[int, ...]
    #: carriers of semi connections, each with its key: (carrier, key cell)
    semis: tuple[tuple[int, int], ...]
    #: True when the search stopped at its work limit (results may be incomplete)
    truncated: bool = False

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
    """The H-search of one player on one position (build with :func:`edge_vcs`)."""

    #: carriers kept per pair of nodes
    FULL_LIMIT = 4
    SEMI_LIMIT = 6

    def __init__(self, g: HexGrid, mine: int, theirs: int, vertical: bool, max_work: int) -> None:
        self.g = g
        self.n_cells = g.cells
        self.empty = g.full & ~(mine | theirs)
        self.max_work = max_work
        self.work = 0
        self.truncated = False
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
        # full[x][y] / semi[x][y]: carriers (semis: (carrier, key)), stored both ways.
        self.full: dict[int, dict[int, list[int]]] = {}
        self.semi: dict[int, dict[int, list[tuple[int, int]]]] = {}
        self.queue: deque[tuple[int, int, int]] = deque()
        for k, t in enumerate(touch):
            x = self.n_cells + k
            self.full.setdefault(x, {})
            for c in bits(t & self.empty):
                self._add_full(x, c, 0)
        if not self.connected:
            self._seed_edge_templates(mine, theirs, vertical)

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
                self._add_full(edge_node, node, carrier & self.empty)

    def is_group(self, x: int) -> bool:
        """Whether node ``x`` is a group (else it is an empty cell)."""
        return x >= self.n_cells

    # -- storing ----------------------------------------------------------------------
    def _add_full(self, x: int, y: int, carrier: int) -> None:
        lst = self.full.setdefault(x, {}).setdefault(y, [])
        for c in lst:
            if c & carrier == c:
                return  # an existing carrier is a subset: nothing new
        lst[:] = [c for c in lst if c & carrier != carrier]
        if len(lst) >= self.FULL_LIMIT:
            # Soft limit: keep the smallest carriers.
            worst = max(range(len(lst)), key=lambda i: lst[i].bit_count())
            if lst[worst].bit_count() <= carrier.bit_count():
                return
            lst.pop(worst)
        lst.append(carrier)
        self.full.setdefault(y, {})[x] = lst
        self.queue.append((x, y, carrier))

    def _add_semi(self, x: int, y: int, carrier: int, key: int) -> None:
        fulls = self.full.get(x, {}).get(y)
        if fulls:
            for c in fulls:
                if c & carrier == c:
                    return  # a full connection inside this carrier already
        lst = self.semi.setdefault(x, {}).setdefault(y, [])
        for c, _ in lst:
            if c & carrier == c:
                return
        lst[:] = [s for s in lst if s[0] & carrier != carrier]
        if len(lst) >= self.SEMI_LIMIT:
            worst = max(range(len(lst)), key=lambda i: lst[i][0].bit_count())
            if lst[worst][0].bit_count() <= carrier.bit_count():
                return
            lst.pop(worst)
        lst.append((carrier, key))
        self.semi.setdefault(y, {})[x] = lst
        self._or_rule(x, y, lst)
        # Semi-AND through a group: full(w, x) + semi(x, y) with x a group gives semi(w, y);
        # kept to pairs of groups (between cells it costs more than it finds).
        for mid, other in ((x, y), (y, x)):
            if mid >= self.n_cells and other >= self.n_cells:
                for w, carriers in list(self.full.get(mid, {}).items()):
                    if w == other or w < self.n_cells:
                        continue
                    for c in carriers:
                        self.work += 1
                        if c & carrier or (w < self.n_cells and carrier >> w & 1) or (other < self.n_cells and c >> other & 1):
                            continue
                        self._add_semi(w, other, c | carrier, key)

    def _or_rule(self, x: int, y: int, semis: list[tuple[int, int]]) -> None:
        """New fulls from semis whose carriers have nothing in common (greedy, newest first)."""
        if len(semis) < 2:
            return
        newest = semis[-1][0]
        for start in range(len(semis) - 1):
            inter, union = newest, newest
            for c, _ in semis[start:-1]:
                self.work += 1
                if inter & c != inter:
                    inter &= c
                    union |= c
                    if not inter:
                        self._add_full(x, y, union)
                        break
            if not inter:
                return

    # -- the rules ---------------------------------------------------------------------
    def run(self) -> None:
        """Apply the AND and OR rules until nothing new (or the work limit)."""
        ncells = self.n_cells
        full = self.full
        nbrs = self.g.neighbours
        empty = self.empty
        while self.queue:
            if self.work > self.max_work:
                self.truncated = True
                return
            x, y, cx = self.queue.popleft()
            if cx not in full.get(x, {}).get(y, ()):
                continue  # superseded by a smaller carrier
            for mid, end in ((x, y), (y, x)):
                if mid >= ncells:
                    # Through a group: full(end, mid) + full(mid, w) = full(end, w).
                    for w, carriers in list(full[mid].items()):
                        if w == end or (w < ncells and end < ncells):
                            continue
                        for c in list(carriers):
                            self.work += 1
                            if c & cx or (w < ncells and cx >> w & 1) or (end < ncells and c >> end & 1):
                                continue
                            self._add_full(end, w, c | cx)
                    for w, semis in list(self.semi.get(mid, {}).items()):
                        if w == end or w < ncells or end < ncells:
                            continue
                        for c, key in list(semis):
                            self.work += 1
                            if c & cx or (w < ncells and cx >> w & 1) or (end < ncells and c >> end & 1):
                                continue
                            self._add_semi(end, w, c | cx, key)
                elif end >= ncells:
                    # Through an empty cell: semi(end, w) with key mid, w a group or a neighbour cell.
                    bit = 1 << mid
                    for w, carriers in list(full[mid].items()):
                        if w == end or w < ncells:
                            continue
                        for c in list(carriers):
                            self.work += 1
                            if c & cx or c >> mid & 1:
                                continue
                            self._add_semi(end, w, c | cx | bit, mid)
                    for w in nbrs[mid]:
                        if empty >> w & 1 and not cx >> w & 1:
                            self.work += 1
                            self._add_semi(end, w, cx | bit, mid)

    def edge_result(self) -> EdgeVCs:
        """The connections between the two edges found so far."""
        if self.connected:
            return EdgeVCs((0,), (), self.truncated)
        fulls = tuple(self.full.get(self.edge_a, {}).get(self.edge_b, ()))
        semis = tuple(self.semi.get(self.edge_a, {}).get(self.edge_b, ()))
        return EdgeVCs(fulls, semis, self.truncated)


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


def edge_vcs(g: HexGrid, mine: int, theirs: int, vertical: bool, max_work: int = 400_000) -> EdgeVCs:
    """The virtual connections between the edges of the player owning ``mine``.

    ``vertical`` is True for the player joining top and bottom. ``max_work`` bounds
    the number of carrier combinations tried (about a microsecond each).
    """
    h = HSearch(g, mine, theirs, vertical, max_work)
    if not h.connected:
        h.run()
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


def analyse(g: HexGrid, mine: int, theirs: int, vertical: bool, max_work: int = 400_000) -> RootAnalysis:
    """Both players' edge connections and the mover's mustplay region."""
    t = time.perf_counter()
    empty = g.full & ~(mine | theirs)
    m = edge_vcs(g, mine, theirs, vertical, max_work)
    th = edge_vcs(g, theirs, mine, not vertical, max_work)
    must = th.mustplay(empty) & empty if (th.fulls or th.semis) else empty
    return RootAnalysis(m, th, must, time.perf_counter() - t)
