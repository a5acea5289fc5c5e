"""Hex for the search: bitboard state, bridge-aware playouts, decisive moves, priors.

Playouts use the fact that makes Hex playouts cheap: stones never move and a full
board has exactly one winner, so a random game's winner is the winner of a random
*fill* of the empty cells (the side to move gets the odd cell). The fill is made
bridge-aware without playing move by move: before filling, every intact bridge
(two stones of one colour with both common neighbours empty) and every edge
template with a pairing strategy (row 2, and the ziggurat of row 3) gets one cell
of each carrier pair for its owner and the other for the opponent, which is what a
playout policy that always answers an intrusion into a bridge or template would
give. Where one colour's carrier meets the other's, a cell already given settles
the pair (the owner keeps the other cell), so crossing bridges of both colours both
hold, as they do when each side answers the other's intrusion. Then the rest is
filled at random and one flood fill decides. The playout is compiled
(:mod:`engine.ai.hex.playout_kernel`), as are the tree's inner loops.

Priors come twice: cheap hand-written ones (virtual AMAF playouts) for every new
node, and the learned policy of :mod:`engine.ai.hex.patterns` as a progressive bias
at the root and at nodes that reach 50 visits. There, and at the root, :func:`knowledge`
fills the dead cells and captured pairs (:mod:`engine.ai.hex.inferior`), runs the
H-search on the filled board, and keeps only the mustplay region less the inferior cells;
the filled cells then stay filled for every playout below (the search plays on the
settled board, as MoHex does). Before the search, every move of the root gets that
refinement at once (MoHex's pre-search, :meth:`engine.ai.mcts.Search.presearch`): a move
that loses by it is dropped, one that wins is played. Every new node leaves out the dead
cells (cheap enough for every node). A search bounded by time goes on from the same game's
previous search when that one's tree holds the position (subtree reuse, also as MoHex).

In the book's positions (the first plies, and later ones its games often reach), levels
that play their best take the opening book's move
(:mod:`engine.ai.hex.book`) instead of searching.

Moves are cell indices, plus :data:`SWAP` for the pie rule.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from functools import cache

import numpy as np

from ...geometry import HexGrid, bits, grid
from ...hex import Hex
from ..mcts import Expansion, Node, Params, Refinement, Search
from . import playout_kernel as playout_kernel
from .book import book_move
from .inferior import FillIn, dead_once, inferior
from .ladder import hopeless_pushes
from .patterns import Features, around, features, probabilities, score
from .vc import RootAnalysis, Stop, analyse, edge_vcs

#: the pie-rule move
SWAP = 1 << 10
#: AMAF key of moves without one (a bit never set in a playout mask)
NO_KEY = 1023


class HexTables:
    """Per-size shift tables for bridges and edge templates (bitboard form).

    A bridge is ``(valid, partner, c1, c2)``: for a stone on ``p`` (a bit of
    ``valid``), its partner stone sits on ``p + partner`` and the two carrier cells on
    ``p + c1`` and ``p + c2``. ``fill_patterns`` generalise this to several carrier
    pairs, with the edge as the partner for edge templates (they belong to one colour).
    """

    def __init__(self, n: int) -> None:
        g = grid(n)
        self.g = g
        cells = range(n * n)

        def mask(pred) -> int:
            return sum(1 << i for i in cells if pred(i % n, i // n))

        # The three bridge directions (the other three are the same bridges seen from the partner).
        self.bridges = (
            (mask(lambda c, r: c <= n - 2 and r <= n - 2), n + 1, 1, n),
            (mask(lambda c, r: c <= n - 3 and r >= 1), 2 - n, 1, 1 - n),
            (mask(lambda c, r: c <= n - 2 and r >= 2), 1 - 2 * n, 1 - n, -n),
        )
        # What a playout keeps connected, per colour (see ``playout``): each own bridge, and each
        # edge template that has a pairing strategy (row 2, and the ziggurat of row 3 in its two
        # mirror images), on both of the colour's edges. A pattern is (stones, partner, pairs):
        # it applies at each own stone p of ``stones`` whose partner p + ``partner`` is own too
        # (None: the edge is the partner) and whose carrier cells p + a, p + b (for each pair) are
        # all empty; the owner then keeps one cell of each pair whatever the opponent does.
        self.fill_patterns: dict[bool, tuple[tuple[int, int | None, tuple[tuple[int, int], ...]], ...]] = {}
        for colour_black in (True, False):
            pats: list[tuple[int, int | None, tuple[tuple[int, int], ...]]] = [
                (valid, partner, ((c1, c2),)) for valid, partner, c1, c2 in self.bridges
            ]
            for edge in (0, 1):
                for row, pairs in EDGE_TEMPLATES:
                    pats.append(_edge_pattern(n, colour_black, edge, row, pairs))
            self.fill_patterns[colour_black] = tuple(pats)
        # For each cell x: (d, pq) pairs where x and its neighbour d are the two carriers
        # of a bridge between the stones of ``pq`` (the common neighbours of x and d).
        saves: list[tuple[tuple[int, int], ...]] = []
        for x in cells:
            out = []
            for d in g.neighbours[x]:
                common = g.nmask[x] & g.nmask[d]
                if common.bit_count() == 2:
                    out.append((d, common))
            saves.append(tuple(out))
        self.saves = tuple(saves)
        # The same for edge templates, per colour: for each cell x, (stone, rest, answer) for each
        # template of that stone whose carrier holds x: when the opponent plays x and the rest of
        # the carrier is empty, ``answer`` (x's partner in its carrier pair) keeps the template.
        self.template_saves: dict[bool, tuple[tuple[tuple[int, int, int], ...], ...]] = {}
        for colour_black in (True, False):
            by_cell: list[list[tuple[int, int, int]]] = [[] for _ in cells]
            for valid, partner, shifts in self.fill_patterns[colour_black]:
                if partner is not None:
                    continue
                for p in bits(valid):
                    carrier = sum((1 << (p + a)) | (1 << (p + b)) for a, b in shifts)
                    for a, b in shifts:
                        for x, answer in ((p + a, p + b), (p + b, p + a)):
                            by_cell[x].append((p, carrier & ~(1 << x), answer))
            self.template_saves[colour_black] = tuple(tuple(v) for v in by_cell)
        # Cells on the first and last rows and columns (rarely good early).
        self.rim = g.top | g.bottom | g.left | g.right
        #: 64-bit words of a bitboard, and the compiled playout's tables (see ``_kernel_tables``)
        self.words = (n * n + 63) // 64
        self.kernel_tables = _kernel_tables(g, self.fill_patterns)


#: what ``_kernel_tables`` gives: valid cells, partners, pairs, pair counts, neighbours, edges
KernelTables = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _kernel_tables(
    g: HexGrid, fill_patterns: dict[bool, tuple[tuple[int, int | None, tuple[tuple[int, int], ...]], ...]],
) -> KernelTables:
    """The fill patterns and the board as :func:`engine.ai.hex.playout_kernel.playout` reads them:
    per colour (Black first) and pattern, the cells it may sit on, its partner's offset, its
    carrier pairs and their count; then each cell's neighbours (-1 pads) and edge flags."""
    cells = g.n * g.n
    count = len(fill_patterns[True])
    valid = np.zeros((2, count, cells), dtype=np.uint8)
    partner = np.full((2, count), playout_kernel.NO_PARTNER, dtype=np.int64)
    pairs = np.zeros((2, count, playout_kernel.MAX_PAIRS, 2), dtype=np.int64)
    npairs = np.zeros((2, count), dtype=np.int64)
    for c, colour_black in enumerate((True, False)):
        for p, (where, offset, carriers) in enumerate(fill_patterns[colour_black]):
            valid[c, p] = _cell_bits(where, cells)[:cells]
            if offset is not None:
                partner[c, p] = offset
            pairs[c, p, : len(carriers)] = carriers
            npairs[c, p] = len(carriers)
    neighbours = np.full((cells, 6), -1, dtype=np.int64)
    edges = np.zeros(cells, dtype=np.int64)
    for x in range(cells):
        neighbours[x, : len(g.neighbours[x])] = g.neighbours[x]
        for flag, side in ((playout_kernel.TOP, g.top), (playout_kernel.BOTTOM, g.bottom),
                           (playout_kernel.LEFT, g.left), (playout_kernel.RIGHT, g.right)):
            if side >> x & 1:
                edges[x] |= flag
    return valid, partner, pairs, npairs, neighbours, edges


def _words(board: int, words: int) -> np.ndarray:
    """A bitboard as ``words`` little-endian 64-bit words."""
    return np.frombuffer(board.to_bytes(8 * words, "little"), dtype="<u8")


@cache
def tables(n: int) -> HexTables:
    """The shared tables of an n×n board."""
    return HexTables(n)


#: Edge templates with a pairing strategy, in a frame where the owner's edge is row 0:
#: (the stone's row, pairs of carrier cells as (column, row) offsets from the stone). The owner
#: connects to the edge with one cell of each pair, whichever (tests check every choice).
EDGE_TEMPLATES: tuple[tuple[int, tuple[tuple[tuple[int, int], tuple[int, int]], ...]], ...] = (
    # row 2: the two edge cells under the stone
    (1, (((0, -1), (1, -1)),)),
    # the ziggurat (template IIIa) and its mirror image
    (2, (((-1, -1), (1, -1)), ((0, -1), (-1, 0)), ((-1, -2), (0, -2)), ((1, -2), (2, -2)))),
    (2, (((2, -1), (0, -1)), ((1, -1), (1, 0)), ((3, -2), (2, -2)), ((1, -2), (0, -2)))),
)


def _edge_pattern(
    n: int, vertical: bool, edge: int, row: int, pairs: tuple[tuple[tuple[int, int], tuple[int, int]], ...],
) -> tuple[int, None, tuple[tuple[int, int], ...]]:
    """A frame template placed on one edge of an n×n board, as a fill pattern (see ``HexTables``).

    The frame's top row maps to Black's top (bottom: a 180° turn) or to White's left
    (right) by a transposition; both keep the hex neighbourhood, and map a frame offset
    to a constant bit shift.
    """

    def board(c: int, r: int) -> tuple[int, int]:
        if edge:
            c, r = n - 1 - c, n - 1 - r
        return (c, r) if vertical else (r, c)

    def inside(c: int, r: int) -> bool:
        return 0 <= c < n and 0 <= r < n

    valid = 0
    for c in range(n):
        if all(inside(c + dc, row + dr) for pair in pairs for dc, dr in pair):
            bc, br = board(c, row)
            valid |= 1 << (br * n + bc)

    def shift(dc: int, dr: int) -> int:
        bc, br = board(dc, dr)
        oc, orow = board(0, 0)
        return (bc - oc) + (br - orow) * n

    return valid, None, tuple((shift(*a), shift(*b)) for a, b in pairs)


def _shape_values() -> np.ndarray:
    """A move's prior win rate by its shape code: 1 if it is next to a stone, + 2 if it makes a
    bridge with the mover's stones, + 4 if it is on the rim away from every stone."""
    out = []
    for code in range(8):
        v = 0.5
        if code & 1:
            v += 0.1
        if code & 2:
            v += 0.1
        if code & 4:
            v -= 0.1
        out.append(v)
    return np.array(out)


#: see :func:`_shape_values`
_SHAPE_VALUE = _shape_values()


def _cell_bits(mask: int, size: int) -> np.ndarray:
    """A bitboard as one 0/1 byte per cell (index = cell)."""
    return np.unpackbits(np.frombuffer(mask.to_bytes((size + 7) // 8, "little"), dtype=np.uint8), bitorder="little")


def _shift(x: int, k: int) -> int:
    """Bit p of the result is bit p+k of x."""
    return x >> k if k >= 0 else x << -k


def winning_cells(g: HexGrid, stones: int, vertical: bool, empty: int) -> int:
    """The empty cells where one more stone connects ``stones``' two sides (a bitboard)."""
    a, b = (g.top, g.bottom) if vertical else (g.left, g.right)
    if not stones & a and not (stones & b):
        # Nothing touches either side: one stone can join them only on a tiny board.
        if g.n > 2:
            return 0
    from_a = g.component(stones, stones & a)
    from_b = g.component(stones, stones & b)
    return empty & (g.expand(from_a) | a) & (g.expand(from_b) | b)


class HexState:
    """A Hex position for the search: colours' bitboards, who moves, and the seat map.

    Seat 0 is the person who started as Black. ``swapped`` (swap variant) means the
    seats have exchanged colours, so seat = colour index ^ swapped.
    """

    __slots__ = (
        "t", "black", "white", "black_to_move", "swapped", "swap_rule", "swap_open", "last", "player", "winner",
        "restrict", "answers", "stop",
    )

    def __init__(self, t: HexTables) -> None:
        self.t = t
        self.black = 0
        self.white = 0
        self.black_to_move = True
        self.swapped = 0
        self.swap_rule: str | None = None
        self.swap_open = False
        self.last = -1
        self.player = 0
        self.winner: int | None = None
        #: when non-zero, the only cells ``expand`` offers (the root's mustplay region); cleared by a move
        self.restrict = 0
        #: the mover's answers to the last move, from the H-search before it (see :meth:`take_answers`)
        self.answers = 0
        #: the search's deadline as a question (see :func:`_stop_at`): a refinement's H-search ends
        #: there with what it found (None: no deadline, an iteration-bounded search)
        self.stop: Stop | None = None

    @classmethod
    def from_position(cls, pos: Hex) -> HexState:
        """The search state of an engine position."""
        s = cls(tables(pos.size))
        s.black = pos._stones("black")
        s.white = pos._stones("white")
        s.black_to_move = pos.to_move == ["black"]
        s.swapped = int(pos.swapped)
        variants = pos.options.variants
        s.swap_rule = variants[0] if variants else None
        s.swap_open = pos._swap_allowed()
        last = pos.last_turn()
        s.last = last.placed[0] if last is not None and last.placed and not last.swapped else -1
        o = pos.outcome
        # A Hex board always has a winner once over; only the bot's abandonment ends a game
        # without one, and the AI is never asked about an ended game (engine.ai.choose refuses).
        if o is not None and o.winner is not None:
            s.winner = pos.seat_of_colour(o.winner)
        s.player = (0 if s.black_to_move else 1) ^ s.swapped
        return s

    def copy(self) -> HexState:
        """An independent copy."""
        s = object.__new__(HexState)
        s.t = self.t
        s.black = self.black
        s.white = self.white
        s.black_to_move = self.black_to_move
        s.swapped = self.swapped
        s.swap_rule = self.swap_rule
        s.swap_open = self.swap_open
        s.last = self.last
        s.player = self.player
        s.winner = self.winner
        s.restrict = self.restrict
        s.answers = self.answers
        s.stop = self.stop
        return s

    def move_text(self, move: int) -> str:
        """The move in notation."""
        return "swap" if move == SWAP else self.t.g.name(move)

    # -- moves ---------------------------------------------------------------------
    def play(self, move: int) -> None:
        """Place a stone for the side to move (or swap) and settle the winner."""
        g = self.t.g
        self.swap_open = False
        self.restrict = 0
        self.answers = 0
        if move == SWAP:
            if self.swap_rule == "swap-pieces":
                col, row = g.coords(self.black.bit_length() - 1)
                self.white = 1 << g.index(row, col)
                self.black = 0
                self.black_to_move = True
            else:
                self.swapped ^= 1
            self.last = -1
        else:
            bit = 1 << move
            if self.black_to_move:
                self.black |= bit
                if g.connects_through(self.black, move, True):
                    self.winner = self.swapped
            else:
                self.white |= bit
                if g.connects_through(self.white, move, False):
                    self.winner = 1 ^ self.swapped
            self.black_to_move = not self.black_to_move
            self.swap_open = self.swap_rule is not None and self.black.bit_count() + self.white.bit_count() == 1
            self.last = move
        self.player = (0 if self.black_to_move else 1) ^ self.swapped

    def expand(self) -> Expansion:
        """Moves with priors; decisive wins and forced blocks are found here."""
        if self.winner is not None:
            return Expansion([], [], [], [], self.winner)
        t = self.t
        g = t.g
        black, white = self.black, self.white
        empty = g.full & ~(black | white)
        vertical = self.black_to_move
        mine, theirs = (black, white) if vertical else (white, black)
        win = winning_cells(g, mine, vertical, empty)
        if win:
            cell = (win & -win).bit_length() - 1
            return Expansion([cell], [cell], [1.0], [1.0], self.player)
        threat = winning_cells(g, theirs, not vertical, empty)
        if threat:
            if threat & (threat - 1):
                # Two ways to win for the opponent: one stone cannot stop both. Blocking
                # one is still the move to play if this is the root.
                cells = bits(threat)
                return Expansion(cells, cells, [1.0] * len(cells), [0.0] * len(cells), 1 - self.player)
            cell = threat.bit_length() - 1
            return Expansion([cell], [cell], [1.0], [0.5])
        # Dead cells are never better than any other move (a pass never helps in Hex).
        live = empty & ~dead_once(g, black, white) or empty
        if self.restrict and live & self.restrict:
            live &= self.restrict
        moves = bits(live)
        prior_n, prior_w = self._priors(moves, mine, theirs, empty, vertical)
        keys = list(moves)
        if self.swap_open:
            moves.append(SWAP)
            keys.append(NO_KEY)
            prior_n = np.append(prior_n, 10.0)
            prior_w = np.append(prior_w, 5.0)
        return Expansion(moves, keys, prior_n, prior_w)

    def _priors(self, moves: list[int], mine: int, theirs: int, empty: int, vertical: bool) -> tuple[np.ndarray, np.ndarray]:
        """Virtual AMAF playouts per move from local shape.

        Favoured: answering an intrusion into one of the mover's bridges or edge templates
        (by far; the answer is the intruded cell's partner in its carrier pair),
        cells next to stones, cells that make a bridge with the mover's stones. Cells
        on the rim far from everything start a little lower (see :data:`_SHAPE_VALUE`).
        """
        t = self.t
        g = t.g
        near = g.expand(mine | theirs) & empty
        bridge = 0
        for valid, partner, c1, c2 in t.bridges:
            # Cells p that are a bridge away from a mover's stone, with both carriers empty.
            carriers = _shift(empty, c1) & _shift(empty, c2)
            bridge |= valid & _shift(mine, partner) & carriers
            bridge |= _shift(valid & mine & carriers, -partner)
        bridge &= empty
        save = self._saves(mine, empty, vertical)
        rim = t.rim & ~near
        cells = np.array(moves, dtype=np.intp)
        size = g.n * g.n
        shape = _cell_bits(near, size)[cells] | _cell_bits(bridge, size)[cells] << 1 | _cell_bits(rim, size)[cells] << 2
        prior_n = np.full(len(moves), 20.0)
        prior_w = 20.0 * _SHAPE_VALUE[shape]
        saves = _cell_bits(save, size)[cells].astype(bool)
        prior_n[saves] = 60.0
        prior_w[saves] = 60.0 * 0.95
        return prior_n, prior_w

    def _saves(self, mine: int, empty: int, vertical: bool) -> int:
        """The cells that answer the last move's intrusion into one of the mover's bridges or edge
        templates, or into a larger connection (:attr:`answers`)."""
        save = self.answers & empty
        if self.last >= 0:
            t = self.t
            for d, pq in t.saves[self.last]:
                if mine & pq == pq and empty >> d & 1:
                    save |= 1 << d
            for stone, rest, answer in t.template_saves[vertical][self.last]:
                if mine >> stone & 1 and rest & empty == rest:
                    save |= 1 << answer
        return save

    def move_features(self, moves: list[int]) -> list[Features]:
        """The learned priors' features of each move (see :mod:`engine.ai.hex.patterns`); not for swap."""
        vertical = self.black_to_move
        mine, theirs = (self.black, self.white) if vertical else (self.white, self.black)
        empty = self.t.g.full & ~(mine | theirs)
        save = self._saves(mine, empty, vertical)
        ar = around(self.t.g.n, vertical)
        return [features(ar, c, mine, theirs, self.last, bool(save >> c & 1)) for c in moves]

    def policy(self, moves: list[int]) -> list[float]:
        """The learned probability of each move (swap, never scored, gets the average move's score).

        The answer to an intrusion into a bridge or edge template (or into a larger connection,
        see :meth:`take_answers`) ranks first whatever the weights say: MoHex's self-play rarely
        intrudes (it is pointless against a program that answers), so the data says little
        there, and Hex theory says it all.
        """
        cells = [m for m in moves if m != SWAP]
        feats = self.move_features(cells)
        scores = [score(f) for f in feats]
        if any(f[4] for f in feats):
            top = max(scores) + SAVE_MARGIN
            scores = [max(s, top) if f[4] else s for s, f in zip(scores, feats)]
        if len(cells) < len(moves):
            mean = sum(scores) / len(scores) if scores else 0.0
            it = iter(scores)
            scores = [mean if m == SWAP else next(it) for m in moves]
        return probabilities(scores)

    def take_answers(self, answers: int) -> None:
        """The search's word, after a move, that the H-search before it found these cells (a
        bitboard) restore a connection of the mover's that the move broke (see :meth:`refine`):
        they count as answers to an intrusion, like a bridge's other cell, until the next move."""
        self.answers = answers

    def refine(self) -> Refinement:
        """Knowledge for a node the search visits often (see ``Search._refine``): a proven winner,
        or the moves worth searching (the mustplay cells when the opponent has a virtual win,
        without the inferior cells, see :func:`knowledge`), the fill: the dead cells and
        captured pairs as ``(black stones, white stones)`` to add, which change no result, and
        the opponent's answers to each move that breaks one of its connections."""
        if self.winner is not None or self.swap_open:
            return Refinement(None, None, None)
        k = knowledge(self.t.g, self.black, self.white, self.black_to_move, REFINE_WORK, narrow=True, stop=self.stop)
        if k.vc.mover_wins:
            return Refinement(self.player, None, None)
        if k.vc.mover_loses:
            return Refinement(1 - self.player, None, None)
        answers = dict(k.vc.theirs.answers) or None
        filled = k.fill.filled
        if not k.allowed & ~filled:
            # Nothing but filled cells left to play (never seen): keep the board as it is.
            return Refinement(None, (None if k.allowed == k.empty else set(bits(k.allowed))), None, answers)
        fill = (k.fill.black & ~self.black, k.fill.white & ~self.white) if filled else None
        if k.allowed == k.empty and fill is None:
            return Refinement(None, None, None, answers)
        return Refinement(None, set(bits(k.allowed & ~filled)), fill, answers)

    def apply_fill(self, fill: tuple[int, int]) -> None:
        """Add a fill (see :meth:`refine`): stones that settle cells without changing the winner.

        Only empty cells take them, so a state never holds both colours on a cell."""
        black, white = self.black, self.white
        self.black = black | fill[0] & ~white
        self.white = white | fill[1] & ~black

    # -- playouts --------------------------------------------------------------------
    def playout(self, rng: random.Random) -> tuple[int, int, int]:
        """A bridge-aware random fill (see the module's account; compiled in
        :mod:`engine.ai.hex.playout_kernel`, seeded from ``rng``); returns (winning seat, seat 0's
        cells, seat 1's cells)."""
        if self.winner is not None:
            return self.winner, 0, 0
        t = self.t
        out = np.empty((2, t.words), dtype=np.uint64)
        black_wins = playout_kernel.playout(
            _words(self.black, t.words), _words(self.white, t.words), self.black_to_move, rng.getrandbits(63),
            *t.kernel_tables, out,
        )
        black_final = int.from_bytes(out[0].tobytes(), "little")
        white_final = int.from_bytes(out[1].tobytes(), "little")
        winner = self.swapped if black_wins else 1 ^ self.swapped
        if self.swapped:
            return winner, white_final, black_final
        return winner, black_final, white_final


#: how far above every other move's learned score an intrusion's answer is put (e: about 2.7× as likely)
SAVE_MARGIN = 1.0
#: H-search work limit inside the tree (the root gets the default, larger one)
REFINE_WORK = 60_000
#: the most of a move's time the root's pre-search may take (see ``Search.presearch``; measured on
#: match positions, every move takes 28 ms on 9×9 and 120 ms on 11×11 on average, 58 and 229 at p90)
PRESEARCH_SHARE = 0.15
#: the share of a move's time the root's analysis (H-searches, inferior cells) may take at most; it
#: takes a few milliseconds on 9×9, and on 19×19 several seconds when let run to its work limit
ANALYSIS_SHARE = 0.5
#: a search bounded by iterations (no deadline) refines at most this many root moves in its
#: pre-search, by board size (absent: all of them). Without it a 19×19 pre-search refines every
#: candidate, some 150-250 H-searches, 85% of a 1,000-iteration search's CPU (a review of a
#: 300-move game: 45 CPU minutes); measured in ``bench/review.py``. Boards up to 11×11 keep
#: refining every move (their pre-search is cheap), so their searches are unchanged.
PRESEARCH_MOVES: dict[int, int] = {13: 40, 15: 32, 17: 28, 19: 24}
#: search parameters tuned for Hex; nodes visited ``refine_at`` times get an H-search
PARAMS = Params(rave_k=0.002, explore=0.1, refine_at=50, bias=2.5, policy_at=50)


@dataclass(slots=True)
class SearchReport:
    """What the last Hex move search found, for benchmarks and curious callers.

    ``proven`` is ``"win"`` or ``"loss"`` for the player who moved when the search
    proved the result (``by`` says how: ``"vc"`` for the virtual connections of the
    root, ``"search"`` for the tree's solver), None otherwise.
    """

    move: str
    proven: str | None = None
    by: str | None = None
    iterations: int = 0
    vc_seconds: float = 0.0
    mustplay: int = 0
    #: empty cells the search took as settled (dead cells and captured pairs given to their owner)
    filled: int = 0
    #: visits the search's root started with, kept from this game's previous search (see ``reuse``)
    reused: int = 0
    #: the move came from the opening book (:mod:`engine.ai.hex.book`), not from a search
    book: bool = False


#: the report of the most recent :func:`choose` in this process
LAST: SearchReport | None = None


def choose(
    pos: Hex, temperature: float, rng: random.Random, iterations: int | None, deadline: float | None,
    reuse: bool | None = None,
) -> str:
    """The search's move for the side to move: a cell or ``swap``.

    Levels that play their best (temperature 0) play the opening from the book
    (:func:`_opening_move`), then first look for virtual connections: a
    virtual win is played out without searching, when the opponent has one the
    search only looks inside its mustplay region, and inferior cells and hopeless
    ladder pushes are left out (see :func:`knowledge`).

    ``reuse`` (by default when the search is bounded by time, not by ``iterations``,
    so that a test's answer never depends on what ran before it): go on from this
    process's search of the same game two plies back when its tree holds the position,
    as MoHex does (see :func:`_reusable`).
    """
    global LAST
    state = HexState.from_position(pos)
    if temperature == 0:
        opening = _opening_move(state)
        if opening is not None:
            LAST = SearchReport(state.t.g.name(opening), book=True)
            return LAST.move
    reuse = reuse if reuse is not None else iterations is None
    vc: RootAnalysis | None = None
    tree: Node | None = None
    real = (state.black, state.white)
    # The root's analysis may take only its share of the time: on 19×19 its full H-searches
    # alone take seconds. A search whose time is spent already skips it (and answers by the priors).
    analysis_stop = _stop_at(_share(deadline, ANALYSIS_SHARE))
    spent = analysis_stop is not None and analysis_stop()
    if temperature == 0 and not state.swap_open and not spent:
        g = state.t.g
        kept = _reusable(state) if reuse else None
        if kept is not None:
            # The kept subtree was grown with these cells settled; they still are (a dead or
            # captured cell stays so as stones are added), and this position's own fill is
            # then found on top of them, which keeps every step sound.
            state.apply_fill(kept[1])
        k = knowledge(g, state.black, state.white, state.black_to_move, both_boards=True, stop=analysis_stop)
        if k.vc.mover_loses and kept is not None:
            # A lost position is searched on the real board (see below): start afresh.
            state, kept = HexState.from_position(pos), None
            k = knowledge(g, state.black, state.white, state.black_to_move, both_boards=True, stop=analysis_stop)
        vc = k.vc
        if vc.mover_wins:
            LAST = SearchReport(g.name(_winning_move(k)), "win", "vc", 0, vc.seconds)
            return LAST.move
        mine, theirs = (state.black, state.white) if state.black_to_move else (state.white, state.black)
        allowed = k.allowed
        # Pushing a ladder that cannot escape only builds the opponent a wall.
        allowed &= ~hopeless_pushes(g.n, mine, theirs, state.black_to_move) or allowed
        answers = _answers_to_last(state, real, analysis_stop)
        _confine(state, allowed, k.empty, answers)
        if not vc.mover_loses and not allowed & k.fill.filled:
            # The search plays on the settled board: its playouts no longer spend cells whose
            # owner is known (as MoHex's fill-in). A lost position keeps the real board, where
            # the search can still look for the most stubborn move.
            state.apply_fill((k.fill.black, k.fill.white))
            if kept is not None:
                tree = _fit_root(kept[0], k.fill.filled, allowed)
    state.stop = _stop_at(deadline)
    search = _root_search(state, rng, tree, vc)
    if vc is not None and not vc.mover_loses:
        search.presearch(_share(deadline, PRESEARCH_SHARE), _presearch_limit(state.t.g.n, deadline))
        if search.root.proven is not None and search.root.proven != search.root.player:
            # Every move loses: look for the most stubborn one on the real board, as for a lost position above.
            state = HexState.from_position(pos)
            state.stop = _stop_at(deadline)
            _confine(state, allowed, k.empty, answers)
            search = _root_search(state, rng, None, vc)
    reused = search.root.visits if tree is not None else 0
    search.run(iterations, deadline)
    # Nothing searched (no time left): the root's priors choose, at every level.
    move = search.sample_move(rng, temperature) if temperature > 0 and search.root.visits else search.best_move()
    if reuse and vc is not None and not vc.mover_loses:
        _keep(state, real, move, search.root.child_for(move))
    filled = (state.black | state.white) & ~(real[0] | real[1])
    report = SearchReport(
        state.move_text(move), iterations=search.iterations, filled=filled.bit_count(), reused=reused,
    )
    if vc is not None:
        report.vc_seconds = vc.seconds
        report.mustplay = state.restrict.bit_count()
        if vc.mover_loses:
            report.proven, report.by = "loss", "vc"
    root = search.root
    if root.proven is not None and report.proven is None:
        report.proven = "win" if root.proven == root.player else "loss"
        report.by = "search"
    LAST = report
    return report.move


def _root_search(state: HexState, rng: random.Random, tree: Node | None, vc: RootAnalysis | None) -> Search:
    """The search of the root (going on from ``tree`` if given), which knows the opponent's answers
    to the mover's intrusions into its connections when the root's H-search ran."""
    search = Search(state, rng, PARAMS, tree)
    if vc is not None:
        search.root.answers = dict(vc.theirs.answers) or None
    return search


def _confine(state: HexState, allowed: int, empty: int, answers: int) -> None:
    """Point the root's search at what the knowledge left: only the ``allowed`` cells (unless that is
    every ``empty`` one), with the mover's ``answers`` to the opponent's last move (see
    :func:`_answers_to_last`) put first."""
    if allowed != empty:
        state.restrict = allowed
    state.take_answers(answers)


def _presearch_limit(n: int, deadline: float | None) -> int | None:
    """How many root moves the pre-search of an ``n``×``n`` search may refine: all (None) under a
    deadline, which bounds it by time; else the cap of :data:`PRESEARCH_MOVES`' largest size up to ``n``."""
    if deadline is not None:
        return None
    sizes = [s for s in PRESEARCH_MOVES if s <= n]
    return PRESEARCH_MOVES[max(sizes)] if sizes else None


def _stop_at(deadline: float | None) -> Stop | None:
    """Whether ``deadline`` (a ``time.perf_counter()`` moment) has passed, as a question the
    H-search asks between its slices of work (None: no deadline)."""
    if deadline is None:
        return None
    return lambda: time.perf_counter() >= deadline


def _share(deadline: float | None, share: float) -> float | None:
    """The moment ``share`` of the time left until ``deadline`` has passed (None: no deadline)."""
    if deadline is None:
        return None
    now = time.perf_counter()
    return now + share * max(0.0, deadline - now)


def _answers_to_last(state: HexState, real: tuple[int, int], stop: Stop | None = None) -> int:
    """The mover's answers to the opponent's last move (see :func:`engine.ai.hex.vc.edge_vcs`): the cells
    that restore a connection of the mover's it broke, by the H-search of the position before it
    (real stones, so that the answers hold on the board as it is). 0 after a swap or with none."""
    last = state.last
    if last < 0:
        return 0
    black, white = real
    mine, theirs = (black, white) if state.black_to_move else (white, black)
    before = edge_vcs(state.t.g, mine, theirs & ~(1 << last), state.black_to_move, answers=True, stop=stop)
    return dict(before.answers).get(last, 0) & ~(black | white)


def _opening_move(state: HexState) -> int | None:
    """The opening book's cell for this position (:mod:`engine.ai.hex.book`), or None.

    Without a pie rule the first move on a board the book lacks is the centre (the
    strongest opening, which random playouts undervalue: they favour cells near the
    obtuse corners). With one, the book waits until the swap decision is behind: its
    first moves are the strongest, which is what the pie rule punishes.
    """
    if state.swap_open:
        return None
    black, white = state.black, state.white
    if state.swap_rule is not None and not black | white:
        return None
    n = state.t.g.n
    cell = book_move(n, black, white, state.black_to_move)
    if cell is None and state.swap_rule is None and not black | white:
        cell = (n // 2) * n + n // 2
    return cell


@dataclass(slots=True)
class KeptTree:
    """A finished search kept for the same game's next move (see :func:`_reusable`)."""

    n: int
    swapped: int
    black_to_move: bool
    #: the real stones at its root
    black: int
    white: int
    #: the fill its root state had on top of them
    fill: tuple[int, int]
    #: the move it chose, and the node after it (only that part of the tree can serve again)
    move: int
    after: Node


#: this process's last searches, newest first (a bot's worker serves several games at once)
KEPT: list[KeptTree] = []
#: how many searches a process keeps (each holds the tree after its move in memory)
KEEP = 4


def _keep(state: HexState, real: tuple[int, int], move: int, after: Node | None) -> None:
    """Remember a finished search (its root state, its move and the tree after it) for the game's next move."""
    if after is None:
        return
    fill = (state.black & ~real[0], state.white & ~real[1])
    KEPT.insert(0, KeptTree(state.t.g.n, state.swapped, state.black_to_move, real[0], real[1], fill, move, after))
    del KEPT[KEEP:]


def _reusable(state: HexState) -> tuple[Node, tuple[int, int]] | None:
    """The node of a kept search two plies back that holds this position (a real board), and
    the fill its subtree was grown with: its search's root fill and the refined nodes' fills on
    the way. The entry leaves :data:`KEPT` (the node becomes the new root; its old tree goes)."""
    black, white = state.black, state.white
    for i, kept in enumerate(KEPT):
        if (kept.n, kept.swapped, kept.black_to_move) != (state.t.g.n, state.swapped, state.black_to_move):
            continue
        if kept.black & ~black or kept.white & ~white:
            continue
        new_black, new_white = black & ~kept.black, white & ~kept.white
        if new_black.bit_count() != 1 or new_white.bit_count() != 1:
            continue
        first, second = (new_black, new_white) if state.black_to_move else (new_white, new_black)
        if first != 1 << kept.move:
            continue  # the same position in another game that moved elsewhere
        node = kept.after.child_for(second.bit_length() - 1)
        if node is None or node.proven is not None or node.player != state.player:
            continue
        del KEPT[i]
        fb, fw = kept.fill
        for f in (kept.after.fill, node.fill):
            if isinstance(f, tuple):
                fb, fw = fb | f[0], fw | f[1]
        return node, (fb & ~white, fw & ~black)
    return None


def _fit_root(node: Node, newly_filled: int, allowed: int) -> Node | None:
    """A reused node made fit to be the root of a search restricted to ``allowed`` (None if it has
    none of those moves). Where this position's fill settled cells (``newly_filled``) on top of
    the board the subtree was grown on, moves below may be on them: only the node's own
    statistics are kept then."""
    if not node.keep_only(allowed):
        return None
    if newly_filled:
        node.children = [None] * len(node.moves)
    return node


def _winning_move(k: Knowledge) -> int:
    """A move that keeps the mover's virtual win: a semi's key, else a cell of the smallest full carrier
    (an own stone never breaks an own connection); when the filled board is already connected, a cell
    of an own captured pair (the win holds whatever the mover plays)."""
    vc = k.vc
    key = vc.mine.winning_move()
    if key is not None:
        return key
    carrier = min(vc.mine.fulls, key=int.bit_count)
    if not carrier:
        f = k.fill
        own = f.captured_black if k.black_to_move else f.captured_white
        carrier = own or k.empty
    return (carrier & -carrier).bit_length() - 1


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What the AI knows of a position before searching it: the filled board, the virtual
    connections on it, and the moves worth searching (``allowed``)."""

    fill: FillIn
    vc: RootAnalysis
    #: the empty cells of the real board
    empty: int
    #: whether Black is the mover
    black_to_move: bool
    #: the mustplay region (every empty cell if the opponent has no virtual win) without the
    #: inferior cells; never empty unless the position is lost
    allowed: int


def knowledge(
    g: HexGrid, black: int, white: int, black_to_move: bool, max_work: int = 400_000, both_boards: bool = False,
    narrow: bool = False, set_size: int = 0, stop: Stop | None = None,
) -> Knowledge:
    """Inferior cells and virtual connections of a position, the mover's way round.

    The H-search runs on the filled board (dead cells and captured pairs filled,
    :func:`engine.ai.hex.inferior.fill_in`): it has the same winner, and its filled
    cells let the search see connections the empty ones hide. The inferior cells
    are left out of the mustplay region, unless that would leave nothing.

    ``both_boards``: when the filled board proves nothing, try the board as it is too (if the fill changed it).
    The H-search keeps only a few carriers per pair, so filling a cell can make it miss
    a connection it found before (2 of 460 positions of the test games).

    ``narrow``: the cheaper, weaker H-search (:func:`engine.ai.hex.vc.edge_vcs`), for nodes inside the tree.
    Without it, both searches run and their connections are merged (:meth:`RootAnalysis.merged`).
    ``set_size``: also fill captured sets of up to that many cells (:func:`engine.ai.hex.inferior.fill_in`;
    the search does not: tried at the root, it showed no gain against MoHex).
    ``stop``: the H-searches end once it says the time is spent (see :func:`engine.ai.hex.vc.edge_vcs`),
    and the optional second and third are then skipped: what was found is sound, only less.
    """
    f, out = inferior(g, black, white, black_to_move, set_size)
    mine, theirs = (f.black, f.white) if black_to_move else (f.white, f.black)
    vc = analyse(g, mine, theirs, black_to_move, max_work, narrow, stop=stop)
    if not narrow and not (vc.mover_wins or vc.mover_loses) and not (stop is not None and stop()):
        # Under a millisecond more: the narrow search sometimes keeps what the full one pushed out.
        vc = vc.merged(analyse(g, mine, theirs, black_to_move, max_work, narrow=True, stop=stop))
    # With nothing filled, the board as it is was the one just searched.
    if (both_boards and not (vc.mover_wins or vc.mover_loses) and (f.black, f.white) != (black, white)
            and not (stop is not None and stop())):
        mine, theirs = (black, white) if black_to_move else (white, black)
        plain = analyse(g, mine, theirs, black_to_move, max_work, narrow, stop=stop)
        if plain.mover_wins or plain.mover_loses:
            vc = plain
    empty = g.full & ~(black | white)
    region = vc.mustplay if not vc.mover_loses else empty
    allowed = region & ~out or region
    return Knowledge(f, vc, empty, black_to_move, allowed)
