"""inpHeXion for the search: the engine's integer steps, fast playouts with AMAF, whole turns.

A search move is one engine *step* (see :mod:`engine.inphexion`): a move
``from << 7 | to``, a placement, a relocation or the swap. A turn that surrounds
discs is a move step followed by relocation steps of the same player, so the tree
has nodes where the same seat moves twice; :func:`choose` follows the tree (or
searches again) through the relocations and answers the whole turn in one line,
such as ``c4 d4 b2>e7``.

AMAF keys: a move's key is the cell the mover's new disc lands on (``from``), a
placement's its cell, and a relocation's ``128 + to`` where bit ``128 + c`` of a
seat's playout mask means "the opponent ended on c" (a good relocation puts the
disc where it does the opponent no good). Playout masks are final ownership.
"""

from __future__ import annotations

import random
import time

from ..geometry import HexGrid
from ..inphexion import RELOCATE, SWAP_STEP, InpHexion, fast_playout
from .mcts import Expansion, Node, Params, Search

_CELL_BITS = 7
_CELL_MASK = (1 << _CELL_BITS) - 1
NO_KEY = 1023
#: search parameters tuned for inpHeXion
PARAMS = Params(rave_k=0.01, explore=0.25)


def _winning_cells(g: HexGrid, stones: int, vertical: bool) -> int:
    """Cells (any content) where one more disc of ``stones`` joins its two sides."""
    a, b = (g.top, g.bottom) if vertical else (g.left, g.right)
    from_a = g.component(stones, stones & a)
    from_b = g.component(stones, stones & b)
    return (g.expand(from_a) | a) & (g.expand(from_b) | b) & ~stones


class InpState:
    """An engine position wrapped for the search (seat = side ^ swapped)."""

    __slots__ = ("pos", "player", "winner")

    def __init__(self, pos: InpHexion) -> None:
        self.pos = pos
        self._settle()

    def _settle(self) -> None:
        pos = self.pos
        o = pos.outcome
        # inpHeXion always has a winner once over (no draws; abandonment is the bot's, not the engine's).
        self.winner = None if o is None or o.winner is None else pos.seat_of_colour(o.winner)
        self.player = pos._side ^ int(pos.swapped)

    def copy(self) -> "InpState":
        """An independent copy (the wrapped position's record is kept empty)."""
        s = object.__new__(InpState)
        s.pos = self.pos.copy()
        s.player = self.player
        s.winner = self.winner
        return s

    def play(self, step: int) -> None:
        """Apply one step."""
        self.pos._push(step, record=False)
        self._settle()

    def move_text(self, step: int) -> str:
        """The step in notation."""
        return self.pos._move_text(step)

    def expand(self) -> Expansion:
        """Legal steps, with an immediate connection found up front (a proven win)."""
        pos = self.pos
        if self.winner is not None:
            return Expansion([], [], [], [], self.winner)
        moves = pos._legal_moves()
        phase = pos._phase
        if phase == "move" and pos._hand[pos._side]:
            g = pos.grid
            side = pos._side
            win = _winning_cells(g, pos._stones[side], side == 0) & pos._enemy(side)
            if win:
                for m in moves:
                    if m != SWAP_STEP and win >> (m >> _CELL_BITS & _CELL_MASK) & 1 and m >> _CELL_BITS != m & _CELL_MASK:
                        return Expansion([m], [NO_KEY], [1.0], [1.0], self.player)
        keys = []
        for m in moves:
            if m == SWAP_STEP:
                keys.append(NO_KEY)
            elif m & RELOCATE:
                keys.append(128 + (m & _CELL_MASK))
            else:
                keys.append(m >> _CELL_BITS & _CELL_MASK)
        count = len(moves)
        return Expansion(moves, keys, [4.0] * count, [2.0] * count)

    def playout(self, rng: random.Random) -> tuple[int, int, int]:
        """A random game to the end; returns (winning seat, seat 0's mask, seat 1's mask)."""
        if self.winner is not None:
            return self.winner, 0, 0
        pos = self.pos
        rand = rng.random
        # Openings and unfinished relocations step through the engine; no swap in playouts.
        while pos.outcome is None and (pos._phase != "move" or pos._free_reply_allowed()):
            moves = [m for m in pos._legal_moves() if m != SWAP_STEP]
            pos._push(moves[int(rand() * len(moves))], record=False)
        if pos.outcome is not None:
            self._settle()
            st = pos._stones
            assert self.winner is not None
            return (self.winner, *_masks(st[0], st[1], int(pos.swapped)))
        winner_side, _, white, black = fast_playout(pos.grid, pos._side, pos._stones, pos._hand, pos._neutral, rand)
        swapped = int(pos.swapped)
        return (winner_side ^ swapped, *_masks(white, black, swapped))


def _masks(white: int, black: int, swapped: int) -> tuple[int, int]:
    """Seat 0's and seat 1's AMAF masks from the final discs (own cells | opponent's << 128)."""
    m_white = white | black << 128
    m_black = black | white << 128
    return (m_black, m_white) if swapped else (m_white, m_black)


def choose(pos: InpHexion, temperature: float, rng: random.Random, iterations: int | None, deadline: float | None) -> str:
    """The whole turn for the player to move, in one line (move and relocations).

    The main search gets most of the budget; if the chosen move surrounds discs the
    relocations are read from the tree, or searched again from there when the tree
    has seen too little of that branch.
    """
    scratch = pos.copy()
    scratch.actions = []
    state = InpState(scratch)
    mover = state.player
    main_iters = None if iterations is None else max(1, iterations * 4 // 5)
    main_deadline = None
    if deadline is not None:
        now = time.perf_counter()
        main_deadline = now + (deadline - now) * 0.85
    search = Search(state, rng, PARAMS)
    search.run(main_iters, main_deadline)
    node: Node | None = search.root
    steps: list[str] = []
    while True:
        if node is not None and node.moves and node.proven is None and temperature > 0 and not steps:
            step = search.sample_move(rng, temperature)
        elif node is not None and node.moves and (sum(node.n) >= 30 or node.proven is not None):
            step = node.moves[node.best_index()]
        else:
            sub = Search(state, rng, PARAMS)
            sub_iters = None if iterations is None else max(20, iterations // 10)
            sub.run(sub_iters, None if deadline is None else max(deadline, time.perf_counter() + 0.02))
            node, step = sub.root, sub.best_move()
        steps.append(state.move_text(step))
        child = node.child_for(step) if node is not None else None
        state.play(step)
        if state.winner is not None or state.player != mover or state.pos._phase != "relocate":
            break
        node = child
    return " ".join(steps)
