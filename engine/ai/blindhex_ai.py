"""Blind Hex for the search: card choices as a matrix game, letters by tree search.

Only public information is used: the board, the hands (a secret choice stays in
its owner's hand until revealed), the cards aside and on the table. The
opponent's pending secret choice, which the position (replayed from the full
record) may hold, is never read.

- **choose** (simultaneous, hidden): every pair of ours against every pair the
  opponent could hold makes a payoff matrix of win rates. Each entry is measured
  by revealing both pairs, writing this round's letters greedily (on the cells
  that random playouts from here value most for the writer, an AMAF map), and
  random playouts after that. The AI plays a mixed strategy: an approximate
  equilibrium of that zero-sum matrix game (regret matching), sampled with the
  seed, so the choice cannot be read off the position.
- **aside** (the cut loser, once): each pair to set aside is valued by random
  playouts from the resulting hands.
- **write**: MCTS with RAVE over this round's remaining letters (the tree stops
  at the end of the round, where hidden choices come next), random playouts
  after; the writer's consecutive letters are answered in one line.

Playouts need no connection test per letter: letters never move and a full
board has exactly one connection, so random rounds fill the board and one flood
fill names the winner.
"""

from __future__ import annotations

import random
import time
from itertools import combinations

from ..blindhex import BlindHex, _writes
from ..blindhex_board import MATCH_CELLS, MATCH_MASK, SIZE
from ..geometry import bits, grid
from .mcts import Expansion, Node, Params, Search

#: seats: x is 0, o is 1 (Blind Hex has no swap)
SEATS = ("x", "o")
#: search parameters for the write phase
PARAMS = Params(rave_k=0.005, explore=0.25)
G = grid(SIZE)


class BlindState:
    """Public Blind Hex state for the search; seat 0 is x (left–right), 1 is o (top–bottom)."""

    __slots__ = ("marks", "hand", "aside", "played", "writes", "player", "winner")

    def __init__(self) -> None:
        self.marks = [0, 0]
        self.hand: list[tuple[int, ...]] = [(), ()]
        self.aside: list[tuple[int, ...]] = [(), ()]
        self.played: list[tuple[int, ...]] = [(), ()]
        #: (seat, number) of the letters still to write this round
        self.writes: tuple[tuple[int, int], ...] = ()
        self.player = 0
        self.winner: int | None = None

    @classmethod
    def from_position(cls, pos: BlindHex) -> "BlindState":
        """The public state of a position (any pending secret choice is ignored)."""
        s = cls()
        hands, aside, played = pos.hands(), pos.aside(), pos.played()
        for seat, c in enumerate(SEATS):
            s.marks[seat] = pos._marks[c]
            s.hand[seat] = tuple(hands[c])
            s.aside[seat] = tuple(aside[c])
            s.played[seat] = tuple(played[c])
        s.writes = tuple((SEATS.index(c), k) for c, k in pos.pending_writes())
        if pos.outcome is not None:
            s.winner = SEATS.index(pos.outcome.winner)
        s.player = s.writes[0][0] if s.writes else 0
        return s

    def copy(self) -> "BlindState":
        """An independent copy."""
        s = object.__new__(BlindState)
        s.marks = list(self.marks)
        s.hand = list(self.hand)
        s.aside = list(self.aside)
        s.played = list(self.played)
        s.writes = self.writes
        s.player = self.player
        s.winner = self.winner
        return s

    # -- rules ------------------------------------------------------------------------
    def allowed(self, k: int) -> int:
        """Empty cells where a letter for k may go (matching ones, else any)."""
        empty = G.full & ~(self.marks[0] | self.marks[1])
        return MATCH_MASK[k] & empty or empty

    def reveal(self, x_pair: tuple[int, int], o_pair: tuple[int, int]) -> None:
        """Both choices shown: cards to the table, the round's letters queued."""
        for seat, pair in ((0, x_pair), (1, o_pair)):
            self.hand[seat] = tuple(k for k in self.hand[seat] if k not in pair)
            self.played[seat] = pair
        self.writes = tuple((SEATS.index(c), k) for c, k in _writes(x_pair, o_pair))
        if self.writes:
            self.player = self.writes[0][0]
        else:
            self.end_round()

    def end_round(self) -> None:
        """Step 3: four cards on the table go back to hand, two played ones go aside."""
        for seat in (0, 1):
            if self.aside[seat]:
                self.hand[seat] = tuple(sorted(self.hand[seat] + self.aside[seat] + self.played[seat]))
                self.aside[seat] = ()
            else:
                self.aside[seat] = self.played[seat]
            self.played[seat] = ()

    def play(self, cell: int) -> None:
        """Write the next letter of the round on ``cell``."""
        seat = self.writes[0][0]
        self.writes = self.writes[1:]
        marks = self.marks[seat] | 1 << cell
        self.marks[seat] = marks
        if G.connects_through(marks, cell, seat == 1):
            self.winner = seat
            return
        if self.writes:
            self.player = self.writes[0][0]
        else:
            self.end_round()

    def expand(self) -> Expansion:
        """The cells for the next letter; none at the end of the round (a playout leaf)."""
        if self.winner is not None:
            return Expansion([], [], [], [], self.winner)
        if not self.writes:
            return Expansion([], [], [], [])
        seat, k = self.writes[0]
        allowed = self.allowed(k)
        mine = self.marks[seat]
        a, b = (G.top, G.bottom) if seat == 1 else (G.left, G.right)
        win = allowed & (G.expand(G.component(mine, mine & a)) | a) & (G.expand(G.component(mine, mine & b)) | b)
        if win:
            cell = (win & -win).bit_length() - 1
            return Expansion([cell], [cell], [1.0], [1.0], seat)
        moves = bits(allowed)
        near = G.expand(self.marks[0] | self.marks[1])
        prior_w = [6.0 if near >> c & 1 else 4.0 for c in moves]
        return Expansion(moves, list(moves), [10.0] * len(moves), prior_w)

    # -- playouts ----------------------------------------------------------------------------
    def playout(self, rng: random.Random) -> tuple[int, int, int]:
        """Random letters and random card choices until the board is full.

        Returns (winning seat, x's cells, o's cells). Changes the state. Cards are
        handled as 5-bit masks with precomputed pairs and write orders.
        """
        if self.winner is not None:
            return self.winner, 0, 0
        marks = self.marks
        x, o = marks
        empty = G.full & ~(x | o)
        rand = rng.random
        writes = self.writes
        hand = [_mask(self.hand[0]), _mask(self.hand[1])]
        aside = [_mask(self.aside[0]), _mask(self.aside[1])]
        played = [_mask(self.played[0]), _mask(self.played[1])]
        while empty:
            for seat, k in writes:
                cells = MATCH_CELLS[k]
                size = len(cells)
                for _ in range(4):
                    cell = cells[int(rand() * size)]
                    if empty >> cell & 1:
                        bit = 1 << cell
                        break
                else:
                    m = MATCH_MASK[k] & empty or empty
                    r = int(rand() * m.bit_count())
                    while r:
                        m &= m - 1
                        r -= 1
                    bit = m & -m
                empty ^= bit
                if seat:
                    o |= bit
                else:
                    x |= bit
                if not empty:
                    break
            if not empty:
                break
            if played[0]:
                # Step 3 of the round just written.
                for seat in (0, 1):
                    if aside[seat]:
                        hand[seat] |= aside[seat] | played[seat]
                        aside[seat] = 0
                    else:
                        aside[seat] = played[seat]
            x_pairs = _PAIRS[hand[0]]
            o_pairs = _PAIRS[hand[1]]
            px = x_pairs[int(rand() * len(x_pairs))]
            po = o_pairs[int(rand() * len(o_pairs))]
            hand[0] ^= px
            hand[1] ^= po
            played = [px, po]
            writes = _WRITES[px, po]
        marks[0], marks[1] = x, o
        winner = 1 if G.connects(o, True) else 0
        return winner, x, o


def _mask(cards: tuple[int, ...]) -> int:
    """Cards as a bit mask (bit k for card k)."""
    out = 0
    for k in cards:
        out |= 1 << k
    return out


#: the two-card masks of each hand mask
_PAIRS: dict[int, tuple[int, ...]] = {
    h: tuple((1 << a) | (1 << b) for a, b in combinations([k for k in range(1, 6) if h >> k & 1], 2))
    for h in range(1 << 6)
}
#: (seat, number) letters of a round, by (x's pair mask, o's pair mask)
_WRITES: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
for _px in range(1 << 6):
    for _po in range(1 << 6):
        if _px.bit_count() == 2 and _po.bit_count() == 2 and not (_px | _po) & 1:
            _x1, _x2 = (k for k in range(1, 6) if _px >> k & 1)
            _o1, _o2 = (k for k in range(1, 6) if _po >> k & 1)
            _WRITES[_px, _po] = tuple((0 if c == "x" else 1, k) for c, k in _writes((_x1, _x2), (_o1, _o2)))


# -- card decisions -------------------------------------------------------------------------
def _pairs(hand: tuple[int, ...]) -> list[tuple[int, int]]:
    return list(combinations(sorted(hand), 2))


def value_map(state: BlindState, rng: random.Random, playouts: int) -> list[list[float]]:
    """AMAF win rate per seat and cell: how good owning each cell turned out in random games."""
    n = [[1] * G.cells for _ in range(2)]
    w = [[0.5] * G.cells for _ in range(2)]
    for _ in range(playouts):
        z, x, o = state.copy().playout(rng)
        for seat, mask in ((0, x), (1, o)):
            r = 1.0 if z == seat else 0.0
            ns, ws = n[seat], w[seat]
            for c in bits(mask & ~state.marks[seat]):
                ns[c] += 1
                ws[c] += r
    return [[w[s][c] / n[s][c] for c in range(G.cells)] for s in (0, 1)]


def _greedy_round(state: BlindState, values: list[list[float]]) -> None:
    """Write this round's letters, each on the allowed cell the writer values most."""
    while state.writes and state.winner is None:
        seat, k = state.writes[0]
        vals = values[seat]
        best = max(bits(state.allowed(k)), key=vals.__getitem__)
        state.play(best)


def payoff_matrix(
    state: BlindState, me: int, rng: random.Random, iterations: int | None, deadline: float | None
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[list[float]]]:
    """My pairs, the opponent's pairs, and my estimated win rate for each combination."""
    mine, theirs = _pairs(state.hand[me]), _pairs(state.hand[1 - me])
    total = iterations if iterations is not None else 1 << 30
    map_playouts = max(20, min(400, total // 5))
    values = value_map(state, rng, map_playouts)
    starts = []
    for a in mine:
        row = []
        for b in theirs:
            s = state.copy()
            s.reveal(*((a, b) if me == 0 else (b, a)))
            _greedy_round(s, values)
            row.append(s)
        starts.append(row)
    wins = [[0.0] * len(theirs) for _ in mine]
    count = 0
    budget = max(len(mine) * len(theirs), total - map_playouts)
    while count < budget:
        for i in range(len(mine)):
            for j in range(len(theirs)):
                z, _, _ = starts[i][j].copy().playout(rng)
                wins[i][j] += z == me
        count += len(mine) * len(theirs)
        if deadline is not None and time.perf_counter() >= deadline:
            break
    rounds = count // (len(mine) * len(theirs))
    return mine, theirs, [[wins[i][j] / rounds for j in range(len(theirs))] for i in range(len(mine))]


def equilibrium(matrix: list[list[float]], iterations: int = 3000) -> list[float]:
    """An approximate maximin mixed strategy of the row player (regret matching, averaged).

    >>> [round(p, 1) for p in equilibrium([[1.0, 0.0], [0.0, 1.0]])]
    [0.5, 0.5]
    >>> equilibrium([[0.9, 0.8], [0.1, 0.2]])[0] > 0.99
    True
    """
    rows, cols = len(matrix), len(matrix[0])
    reg_r, reg_c = [0.0] * rows, [0.0] * cols
    avg = [0.0] * rows
    for _ in range(iterations):
        pos_r = [max(r, 0.0) for r in reg_r]
        sr = sum(pos_r)
        p = [x / sr for x in pos_r] if sr > 0 else [1.0 / rows] * rows
        pos_c = [max(r, 0.0) for r in reg_c]
        sc = sum(pos_c)
        q = [x / sc for x in pos_c] if sc > 0 else [1.0 / cols] * cols
        row_vals = [sum(matrix[i][j] * q[j] for j in range(cols)) for i in range(rows)]
        col_vals = [sum(matrix[i][j] * p[i] for i in range(rows)) for j in range(cols)]
        v = sum(p[i] * row_vals[i] for i in range(rows))
        for i in range(rows):
            reg_r[i] += row_vals[i] - v
            avg[i] += p[i]
        for j in range(cols):
            # The column player minimises the row player's payoff.
            reg_c[j] += v - col_vals[j]
    total = sum(avg)
    return [a / total for a in avg]


def _choose_cards(
    pos: BlindHex, player: str, temperature: float, rng: random.Random, iterations: int | None, deadline: float | None
) -> str:
    state = BlindState.from_position(pos)
    me = SEATS.index(player)
    mine, _, matrix = payoff_matrix(state, me, rng, iterations, deadline)
    strategy = equilibrium(matrix)
    # Drop the dust of the approximation: moves played under 3% of the time.
    strategy = [p if p >= 0.03 else 0.0 for p in strategy]
    if temperature > 0:
        strategy = [p + temperature / len(strategy) for p in strategy]
    a, b = rng.choices(mine, strategy)[0]
    return f"{player}:{a}+{b}"


def _choose_aside(pos: BlindHex, temperature: float, rng: random.Random, iterations: int | None, deadline: float | None) -> str:
    state = BlindState.from_position(pos)
    me = SEATS.index(pos._loser)
    options = _pairs(state.hand[me])
    starts = []
    for pair in options:
        s = state.copy()
        s.hand[me] = tuple(k for k in s.hand[me] if k not in pair)
        s.aside[me] = pair
        starts.append(s)
    wins = [0] * len(options)
    budget = iterations if iterations is not None else 1 << 30
    count = 0
    while count < budget:
        for i, s in enumerate(starts):
            z, _, _ = s.copy().playout(rng)
            wins[i] += z == me
        count += len(options)
        if deadline is not None and time.perf_counter() >= deadline:
            break
    if temperature > 0:
        pair = rng.choices(options, [w + 1 for w in wins])[0]
    else:
        pair = options[max(range(len(options)), key=wins.__getitem__)]
    return f"aside {pair[0]}+{pair[1]}"


def _choose_letters(pos: BlindHex, temperature: float, rng: random.Random, iterations: int | None, deadline: float | None) -> str:
    state = BlindState.from_position(pos)
    writer = state.player
    search = Search(state, rng, PARAMS)
    search.run(iterations, deadline)
    node: Node | None = search.root
    cells: list[str] = []
    first = True
    while True:
        if first and temperature > 0:
            cell = search.sample_move(rng, temperature)
        elif node is not None and node.moves:
            cell = node.moves[node.best_index()]
        else:
            # The tree never went here: answer the next letter by a short search of its own.
            sub = Search(state, rng, PARAMS)
            sub.run(50 if iterations is not None else None, None if deadline is None else time.perf_counter() + 0.05)
            node, cell = sub.root, sub.best_move()
        first = False
        cells.append(G.name(cell))
        child = node.child_for(cell) if node is not None else None
        state.play(cell)
        if state.winner is not None or not state.writes or state.writes[0][0] != writer:
            break
        node = child
    return " ".join(cells)


def choose(
    pos: BlindHex, player: str, temperature: float, rng: random.Random, iterations: int | None, deadline: float | None
) -> str:
    """The AI's action for ``player``: an aside, a secret choice or letters."""
    phase = pos.phase
    if phase == "aside":
        return _choose_aside(pos, temperature, rng, iterations, deadline)
    if phase == "choose":
        return _choose_cards(pos, player, temperature, rng, iterations, deadline)
    return _choose_letters(pos, temperature, rng, iterations, deadline)
