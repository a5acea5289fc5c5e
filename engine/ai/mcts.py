"""Monte Carlo tree search with RAVE, prior knowledge and a win/loss solver.

The search is game-agnostic: it drives a *search state* (see :class:`SearchState`),
a small mutable object with integer moves that each game's adapter provides
(:mod:`engine.ai.hex.ai`, :mod:`engine.ai.inphexion_ai`, :mod:`engine.ai.blindhex_ai`).
Players are *seats* 0 and 1 (the people), not colours, so a pie-rule swap is just
a move after which the other seat is to move.

What makes it stronger than plain UCT in connection games:

- **RAVE / AMAF** (all moves as first): a playout tells the value of every cell the
  player ended up owning, not only of the first move. Each child keeps AMAF counts
  next to its own counts and the selection blends them (Gelly & Silver 2007):
  ``β = rn / (rn + n + K·rn·n)``, score ``(1-β)·w/n + β·rw/rn``. The states give
  the AMAF information as two bitmasks (the keys each seat "owned" in the playout)
  and a key per move, so the update is a bit test per child.
- **Prior knowledge**: adapters seed each child's AMAF counts with virtual
  playouts (``prior_n`` visits at ``prior_w`` wins), from cheap patterns such as
  answering an intrusion into a bridge.
- **Decisive and anti-decisive moves** (Teytaud & Teytaud 2010) and a **solver**:
  an adapter may report, when a node is created, that the mover wins at once (the
  node is proven) or must stop an immediate win (only those moves are searched).
  Proven results propagate up: a child that is a proven loss is dropped, a
  proven win ends the node's search.
- **Refinement** (as MoHex's knowledge threshold): a node visited often enough asks
  the state for costlier knowledge: a proof, the moves worth keeping, and a *fill*
  (cells whose owner is settled, such as Hex's dead and captured cells) that the
  state takes on every later pass through the node, so the playouts below it are
  played on the settled board. It may also name, for each move, the opponent's
  *answers*: the moves that restore a connection that move broke (MoHex's "VC
  maintenance"); each later pass that plays the move hands them to the state
  (its optional ``take_answers``) for the next node's priors and policy.

The tree is built one node per iteration; children's statistics live in their
parent's array, which selection and backup read in compiled loops
(:mod:`engine.ai.mcts_kernel`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import numpy as np

from . import mcts_kernel as kernel


class SearchState(Protocol):
    """What :func:`search` needs from a game adapter (mutable; ``copy`` is cheap)."""

    #: the seat (0 or 1) to move; meaningless once ``winner`` is set
    player: int
    #: the winning seat once the game is over, else None
    winner: int | None

    def copy(self) -> SearchState:
        """An independent copy."""

    def expand(self) -> Expansion:
        """The moves to search from here, their AMAF keys and priors (see :class:`Expansion`)."""

    def play(self, move: int) -> None:
        """Apply one of the moves ``expand`` listed."""

    def playout(self, rng: random.Random) -> tuple[int, int, int]:
        """Play to the end (leaving the state changed or not) and return
        ``(winning seat, AMAF mask of seat 0, AMAF mask of seat 1)``."""


@dataclass(slots=True)
class Expansion:
    """A node's moves as an adapter sees them.

    ``keys[i]`` is move i's AMAF bit (a bit index into the playout masks; use a bit
    that is never set, such as 1023, for moves without AMAF). ``prior_n``/``prior_w``
    are virtual AMAF visits and wins. ``proven`` is the winning seat when the node's
    value is already known (the game is over, the mover wins at once, or the
    opponent has two winning replies); ``moves`` then holds the move to play if the
    node is the root (the winning move, or a try at blocking), or is empty when the
    game is over.
    """

    moves: list[int]
    keys: list[int]
    prior_n: list[float] | np.ndarray
    prior_w: list[float] | np.ndarray
    proven: int | None = None


class Refinement(NamedTuple):
    """What a state's optional ``refine()`` returns (see :meth:`Search._refine`)."""

    #: the winning seat when the node's result is proven (then nothing else matters)
    proven: int | None
    #: the moves that may still be good (None: all); the others are dropped
    allowed: set[int] | None
    #: what the state takes on at this node on every pass (``state.apply_fill``; None: nothing)
    fill: object | None
    #: per move, the opponent's answers to it (a bitboard of moves), for the node after it
    answers: dict[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Params:
    """Search knobs. ``rave_k`` is the RAVE equivalence parameter K (smaller K trusts
    AMAF longer); ``explore`` the UCB exploration constant (small with RAVE);
    ``leaf_playouts`` playouts per new node (amortises Python tree overhead);
    ``expand_at``: a child gets its own node (and its expansion checks) once it has
    been visited that many times; before, its visits are plain playouts;
    ``refine_at``: a node below the root that reaches that many visits asks the state's
    optional ``refine()`` for costlier knowledge (0: never; see :meth:`Search._refine`);
    ``bias``: the progressive-bias constant: the root, and each node below it that
    reaches ``policy_at`` visits, asks the state's optional ``policy(moves)`` for move
    probabilities p, and selection adds ``bias·p/sqrt(n + 1)`` to a child's score (as
    MoHex does, whose "knowledge threshold" is the same idea; 0: off)."""

    rave_k: float = 0.002
    explore: float = 0.0
    leaf_playouts: int = 1
    expand_at: int = 1
    refine_at: int = 0
    bias: float = 0.0
    policy_at: int = 0


class Node:
    """A tree node: the mover's seat and, per child, move, node and statistics.

    The children's statistics live in one array (``stats``; its rows are
    :mod:`engine.ai.mcts_kernel`'s ``N``, ``W``, ``RN``, ``RW``, ``BIAS`` and ``KEY``), which
    the compiled selection and backup read in one call per node; ``n``, ``w``, ``rn``, ``rw``,
    ``keys`` and ``bias`` read them as lists.
    """

    __slots__ = (
        "player", "moves", "children", "stats", "visits", "proven", "dropped", "has_bias", "fill", "answers",
        "refined",
    )

    def __init__(self, player: int, exp: Expansion) -> None:
        self.player = player
        self.moves = exp.moves
        self.children: list[Node | None] = [None] * len(exp.moves)
        stats = np.zeros((kernel.ROWS, len(exp.moves)))
        # Kept positive: selection divides by rn + n (see kernel.select).
        stats[kernel.RN] = exp.prior_n
        stats[kernel.RN] = np.where(stats[kernel.RN] > 0, stats[kernel.RN], 1e-6)
        stats[kernel.RW] = exp.prior_w
        stats[kernel.KEY] = exp.keys
        if len(exp.keys) and not 0 <= min(exp.keys) <= max(exp.keys) < kernel.KEY_LIMIT:
            # The compiled backup reads a key's mask word unchecked.
            raise ValueError(f"AMAF keys must lie in [0, {kernel.KEY_LIMIT})")
        self.stats = stats
        self.visits = 0
        self.proven = exp.proven
        # (visits, move) of children dropped as proven losses: the fallback when every
        # move loses (the root must still answer something, preferably a stubborn one).
        self.dropped: list[tuple[int, int]] = []
        #: whether the node has a policy (its children's ``bias`` row was set; see ``Search._add_policy``)
        self.has_bias = False
        #: what the state takes on at this node on every pass (see ``Search._refine``; None: nothing)
        self.fill: object | None = None
        #: per move, the opponent's answers to it (see :class:`Refinement`; None: none known)
        self.answers: dict[int, int] | None = None
        #: whether the state's ``refine()`` already ran here (see ``Search._refine``)
        self.refined = False

    @property
    def n(self) -> list[int]:
        """Each child's visits."""
        return [int(x) for x in self.stats[kernel.N]]

    @property
    def w(self) -> list[float]:
        """Each child's wins (for the node's mover)."""
        return self.stats[kernel.W].tolist()

    @property
    def rn(self) -> list[float]:
        """Each child's AMAF visits (virtual ones from the priors included)."""
        return self.stats[kernel.RN].tolist()

    @property
    def rw(self) -> list[float]:
        """Each child's AMAF wins."""
        return self.stats[kernel.RW].tolist()

    @property
    def keys(self) -> list[int]:
        """Each child's AMAF key."""
        return [int(x) for x in self.stats[kernel.KEY]]

    @property
    def bias(self) -> list[float] | None:
        """Each child's progressive bias (the constant times its policy probability); None: no policy yet."""
        return self.stats[kernel.BIAS].tolist() if self.has_bias else None

    @bias.setter
    def bias(self, values: list[float] | None) -> None:
        self.stats[kernel.BIAS] = 0.0 if values is None else values
        self.has_bias = values is not None

    def best_index(self) -> int:
        """The most visited child (wins break ties); a proven win comes first."""
        for i, child in enumerate(self.children):
            if child is not None and child.proven == self.player:
                return i
        best, bi = (-1.0, -1.0), 0
        for i, key in enumerate(zip(self.stats[kernel.N].tolist(), self.stats[kernel.W].tolist())):
            if key > best:
                best, bi = key, i
        return bi

    def drop(self, i: int) -> None:
        """Remove child ``i`` (a proven loss, or a move a refinement found no better than one it
        kept), remembering its visits for the fallback."""
        self.dropped.append((int(self.stats[kernel.N, i]), self.moves[i]))
        self._remove(i)

    def _remove(self, i: int) -> None:
        """Remove child ``i``: its move, node and statistics."""
        self.moves.pop(i)
        self.children.pop(i)
        self.stats = np.delete(self.stats, i, axis=1)

    def keep_only(self, allowed: int) -> bool:
        """Forget the moves not in ``allowed`` (a bitboard of moves), as when this node becomes
        the root of a search restricted to them. False, and nothing forgotten, if none is allowed."""
        kept = [i for i, m in enumerate(self.moves) if allowed >> m & 1]
        if not kept:
            return False
        self.moves = [self.moves[i] for i in kept]
        self.children = [self.children[i] for i in kept]
        # Contiguous, as every other node's: the compiled loops are compiled for that layout.
        self.stats = np.ascontiguousarray(self.stats[:, kept])
        return True

    def child_for(self, move: int) -> Node | None:
        """The child reached by ``move`` (None if never visited or dropped)."""
        try:
            return self.children[self.moves.index(move)]
        except ValueError:
            return None


class Search:
    """One search tree over a root state; call :meth:`run` (repeatedly if you like)."""

    def __init__(
        self, root: SearchState, rng: random.Random, params: Params = Params(), tree: Node | None = None,
    ) -> None:
        """``tree``: a node of an earlier search whose position is ``root``'s, to go on from (its
        statistics and subtree are kept; see :meth:`Node.keep_only`), instead of a new root."""
        for found in _WATCHERS:
            found.append(self)
        self.root_state = root
        self.rng = rng
        self.params = params
        self.root = tree if tree is not None else Node(root.player, root.expand())
        self.iterations = 0
        #: refinements made in :meth:`run` (each costs as much as many iterations: the clock is read after one)
        self.refines = 0
        if params.bias and self.root.proven is None:
            self._add_policy(self.root, root, params.bias)

    def run(self, iterations: int | None = None, deadline: float | None = None, check_every: int = 16) -> int:
        """Search until ``iterations`` more iterations or ``time.perf_counter() >= deadline``.

        With neither, one iteration. Stops early once the root is proven, and at once (no
        iteration) when ``deadline`` has passed already. Returns the
        number of iterations run. Deterministic for a given rng when bounded by
        iterations only.
        """
        done = 0
        limit = iterations if iterations is not None else (1 << 62 if deadline is not None else 1)
        refines = self.refines
        while done < limit and self.root.proven is None and self.root.moves:
            # Looked at before the first iteration too (a search whose time is spent does none), and
            # after every refinement (one can cost as much as hundreds of iterations on a big board).
            if deadline is not None and (done % check_every == 0 or self.refines != refines):
                refines = self.refines
                if time.perf_counter() >= deadline:
                    break
            self._iterate()
            done += 1
        self.iterations += done
        return done

    def _iterate(self) -> None:
        """One descent: select, create one node, evaluate it (playouts or proof), back up."""
        k, explore = self.params.rave_k, self.params.explore
        expand_at = self.params.expand_at
        refine_at = self.params.refine_at
        bias, policy_at = self.params.bias, self.params.policy_at
        state = self.root_state.copy()
        node = self.root
        path: list[tuple[Node, int]] = []
        while True:
            if path:
                if refine_at and node.visits >= refine_at and not node.refined:
                    self._refine(node, state)
                    self.refines += 1
                if node.fill is not None:
                    # Only a state with refine() gives a node a fill, and such a state takes it back.
                    state.apply_fill(node.fill)  # type: ignore[attr-defined]
                if node.visits == policy_at and bias and node.proven is None:
                    self._add_policy(node, state, bias)
            if node.proven is not None:
                proven = node.proven
                break
            if not node.moves:
                # A leaf the adapter does not expand (e.g. the end of a Blind Hex round,
                # where hidden choices follow): evaluate it by a playout every time.
                self._backup(path, *state.playout(self.rng))
                return
            i = kernel.select(node.stats, node.visits, k, explore)
            path.append((node, i))
            state.play(node.moves[i])
            if node.answers is not None and node.moves[i] in node.answers:
                state.take_answers(node.answers[node.moves[i]])  # type: ignore[attr-defined]
            child = node.children[i]
            if child is None and node.stats[kernel.N, i] < expand_at and state.winner is None:
                # Not worth a node yet: most children are tried once and never again.
                self._backup(path, *state.playout(self.rng))
                return
            if child is None:
                child = Node(state.player, state.expand())
                node.children[i] = child
                if child.proven is not None:
                    proven = child.proven
                    break
                playouts = self.params.leaf_playouts
                for j in range(playouts):
                    s = state.copy() if j + 1 < playouts else state
                    self._backup(path, *s.playout(self.rng))
                self._solve(path)
                return
            node = child
        # A known result: count it as a playout without AMAF information.
        self._backup(path, proven, 0, 0)
        self._solve(path)

    def presearch(self, deadline: float | None = None, limit: int | None = None) -> int:
        """Refine every move of the root now, before the search, as MoHex's pre-search checks them
        (most likely first, by the root's policy or its priors, until ``deadline``, a
        ``time.perf_counter()`` moment): each gets its node and the state's ``refine()`` at once,
        not at ``refine_at`` visits. A move whose position is proven lost is dropped before a
        single playout is spent on it, one proven won makes the root proven; the others keep
        their knowledge (fill, mustplay, answers) for the search. Returns how many moves were
        refined; nothing happens for a state without ``refine`` or a proven root. ``limit``: refine
        at most that many moves (the most likely ones), a deterministic bound for searches that have
        no deadline."""
        root, base = self.root, self.root_state
        if getattr(base, "refine", None) is None or root.proven is not None or not root.moves:
            return 0
        if root.bias is not None:
            score = dict(zip(root.moves, root.bias))
        else:
            score = {m: rw / rn for m, rw, rn in zip(root.moves, root.rw, root.rn)}
        done = 0
        for move in sorted(root.moves, key=lambda m: -score[m]):
            if root.proven is not None or (deadline is not None and time.perf_counter() >= deadline):
                break
            if limit is not None and done >= limit:
                break
            i = root.moves.index(move)
            child = root.children[i]
            if child is not None and (child.refined or child.proven is not None):
                continue
            state = base.copy()
            state.play(move)
            if root.answers is not None and move in root.answers:
                state.take_answers(root.answers[move])  # type: ignore[attr-defined]
            if child is None:
                child = Node(state.player, state.expand())
                root.children[i] = child
            if child.proven is None:
                self._refine(child, state)
            done += 1
            if child.proven is not None:
                self._solve([(root, i)])
        return done

    @staticmethod
    def _add_policy(node: Node, state: SearchState, bias: float) -> None:
        """Give ``node`` the state's move probabilities as progressive bias, if the state has a policy."""
        policy = getattr(state, "policy", None)
        if policy is None or not node.moves:
            return
        node.bias = [bias * p for p in policy(node.moves)]

    @staticmethod
    def _refine(node: Node, state: SearchState) -> None:
        """Costly knowledge for a node that proved worth it: ``state.refine()`` returns a
        :class:`Refinement`: a proven seat, or the moves that may still be good (the other
        moves are proven losses, or no better than a kept one, and are dropped), a fill, and
        the opponent's answers to the node's moves (kept on the node; only a state with
        ``take_answers`` may give them).

        A fill is kept on the node and given to the state (``state.apply_fill``) on every
        pass through it, from this one on. The subtrees below the node were grown on the
        board without it, so they are let go (the node's own counts stay); at the
        refinement's visit count they are small.
        """
        refine = getattr(state, "refine", None)
        if refine is None:
            return
        node.refined = True
        proven, allowed, fill, answers = refine()
        if proven is not None:
            node.proven = proven
            return
        node.answers = answers
        if fill is not None:
            node.fill = fill
            node.children = [None] * len(node.moves)
        if allowed is None:
            return
        for i in reversed(range(len(node.moves))):
            if node.moves[i] not in allowed:
                node.drop(i)
        if not node.moves:
            node.proven = 1 - node.player

    @staticmethod
    def _backup(path: list[tuple[Node, int]], winner: int, m0: int, m1: int) -> None:
        """Count one result along the path: visits, wins and AMAF for every sibling."""
        masks = (kernel.mask_words(m0) if m0 else kernel.NO_MASK, kernel.mask_words(m1) if m1 else kernel.NO_MASK)
        for node, i in path:
            node.visits += 1
            kernel.backup(node.stats, i, 1.0 if winner == node.player else 0.0, masks[node.player])

    @staticmethod
    def _solve(path: list[tuple[Node, int]]) -> None:
        """Propagate proven results from the bottom of the path upward."""
        for node, i in reversed(path):
            if node.proven is not None:
                continue
            child = node.children[i]
            if child is None or child.proven is None:
                return
            if child.proven == node.player:
                node.proven = node.player
                continue
            # A proven loss: drop the child so selection never spends time on it.
            node.drop(i)
            if node.moves:
                return
            node.proven = 1 - node.player

    # -- answers ------------------------------------------------------------------
    def best_move(self) -> int:
        """The move to play: a proven win, else the most visited child, else (all lose)
        the losing move that was searched longest before it was proven lost. Before any
        visit (a search whose time was spent before it began): the move the root's
        knowledge rates best (:meth:`prior_move`)."""
        root = self.root
        if root.moves and root.visits == 0 and root.proven is None:
            return self.prior_move()
        if root.moves:
            return root.moves[root.best_index()]
        if root.dropped:
            return max(root.dropped)[1]
        raise ValueError("no move to choose from")

    def prior_move(self) -> int:
        """The root's best move by what is known without searching: a proven win, else the
        highest progressive bias (the state's policy), else the best prior win rate (its
        patterns, decisive moves and forced blocks). The quick answer of a search with no time."""
        root = self.root
        for child, move in zip(root.children, root.moves):
            if child is not None and child.proven == root.player:
                return move
        if root.bias is not None:
            score = list(root.bias)
        else:
            score = [rw / rn if rn else 0.0 for rw, rn in zip(root.rw, root.rn)]
        return root.moves[max(range(len(root.moves)), key=score.__getitem__)]

    def sample_move(self, rng: random.Random, temperature: float) -> int:
        """A move drawn with probability ∝ visits^(1/temperature) (for weaker levels)."""
        root = self.root
        if not root.moves or root.proven == root.player:
            return self.best_move()
        weights = [(n + 1) ** (1.0 / temperature) for n in root.n]
        return rng.choices(root.moves, weights)[0]

    def stats(self) -> list[tuple[int, int, float]]:
        """(move, visits, win rate) of the root's children, most visited first."""
        root = self.root
        out = [(m, n, w / n if n else 0.0) for m, n, w in zip(root.moves, root.n, root.w)]
        return sorted(out, key=lambda t: -t[1])


#: the lists :func:`watch` is filling (empty unless someone watches: nothing is kept otherwise)
_WATCHERS: list[list[Search]] = []


@contextmanager
def watch() -> Iterator[list[Search]]:
    """Collect every :class:`Search` made inside the block, in order, so that a caller of an
    adapter's ``choose`` (which keeps its searches to itself) can read their evaluations after
    it returns, e.g. a review (:func:`engine.ai.evaluate`). Only the block holds them."""
    found: list[Search] = []
    _WATCHERS.append(found)
    try:
        yield found
    finally:
        _WATCHERS.remove(found)


class RootValue(NamedTuple):
    """A search's evaluation of its root, for the seat to move there (``player``)."""

    player: int
    #: the chance that ``player`` wins (0–1): 1.0 or 0.0 when ``proven``
    win: float
    #: the solver proved the result
    proven: bool
    #: the root's visits the figure rests on
    visits: int


def root_value(search: Search) -> RootValue | None:
    """The root's value for its mover: a proven result as 1.0/0.0, else the win rate of the child
    the search would play (the most visited; the usual MCTS estimate of the position's value).
    None when no move of the root was visited (a search that ran no iteration)."""
    root = search.root
    if root.proven is not None:
        return RootValue(root.player, 1.0 if root.proven == root.player else 0.0, True, root.visits)
    if not root.moves:
        return None
    i = root.best_index()
    n = float(root.stats[kernel.N, i])
    if n <= 0:
        return None
    return RootValue(root.player, float(root.stats[kernel.W, i]) / n, False, root.visits)


__all__: Sequence[str] = (
    "Expansion", "Node", "Params", "Refinement", "RootValue", "Search", "SearchState", "root_value", "watch",
)
