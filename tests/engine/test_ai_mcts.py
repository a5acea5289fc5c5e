"""The game-independent search: progressive bias from a state's policy."""

from __future__ import annotations

import random

from engine.ai.mcts import Expansion, Node, Params, Search

NO_KEY = 1023


class CoinFlip:
    """A one-move game of three equal moves whose result is a coin flip; its policy favours move 2."""

    def __init__(self) -> None:
        self.player = 0
        self.winner: int | None = None
        self.moved = False

    def copy(self) -> CoinFlip:
        c = CoinFlip()
        c.moved = self.moved
        return c

    def expand(self) -> Expansion:
        if self.moved:
            return Expansion([], [], [], [], None)
        return Expansion([0, 1, 2], [NO_KEY] * 3, [1.0] * 3, [0.5] * 3)

    def play(self, move: int) -> None:
        self.moved = True
        self.player = 1

    def playout(self, rng: random.Random) -> tuple[int, int, int]:
        return rng.randrange(2), 0, 0

    def policy(self, moves: list[int]) -> list[float]:
        return [0.8 if m == 2 else 0.1 for m in moves]


def test_progressive_bias_sends_most_early_visits_to_the_policys_favourite():
    search = Search(CoinFlip(), random.Random(1), Params(explore=0.2, bias=2.0))
    search.run(60)
    n = search.root.n
    assert n[2] > n[0] + n[1]


def test_without_bias_the_policy_is_not_asked():
    search = Search(CoinFlip(), random.Random(1), Params(explore=0.2))
    assert search.root.bias is None


def test_dropping_a_child_keeps_the_bias_with_its_move():
    node = Node(0, Expansion([5, 6, 7], [NO_KEY] * 3, [1.0] * 3, [0.5] * 3))
    node.bias = [0.1, 0.2, 0.3]
    node.drop(1)
    assert (node.moves, node.bias) == ([5, 7], [0.1, 0.3])


class TwoCoinFlips(CoinFlip):
    """Two moves each, then a coin flip: the root's children are nodes of their own."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0

    def copy(self) -> TwoCoinFlips:
        c = TwoCoinFlips()
        c.depth, c.player = self.depth, self.player
        return c

    def expand(self) -> Expansion:
        if self.depth == 2:
            return Expansion([], [], [], [], None)
        return Expansion([0, 1, 2], [NO_KEY] * 3, [1.0] * 3, [0.5] * 3)

    def play(self, move: int) -> None:
        self.depth += 1
        self.player ^= 1


def test_a_node_below_the_root_gets_its_policy_when_it_reaches_policy_at_visits():
    search = Search(TwoCoinFlips(), random.Random(2), Params(explore=0.2, bias=2.0, policy_at=10))
    search.run(200)
    children = [c for c in search.root.children if c is not None]
    assert any(c.visits >= 10 for c in children)
    for child in children:
        assert (child.bias is not None) == (child.visits >= 10)


class Deepened(TwoCoinFlips):
    """TwoCoinFlips whose ``deepen()`` keeps only move 1 (or proves a win for ``proves``)."""

    proves: int | None = None

    def copy(self) -> Deepened:
        c = Deepened()
        c.depth, c.player, c.proves = self.depth, self.player, self.proves
        return c

    def deepen(self) -> tuple[int | None, set[int] | None]:
        return (self.proves, None) if self.proves is not None else (None, {1})


def test_a_node_that_reaches_deepen_at_visits_keeps_only_the_moves_deepen_allows():
    search = Search(Deepened(), random.Random(2), Params(explore=0.2, deepen_at=20))
    search.run(300)
    children = [c for c in search.root.children if c is not None]
    assert any(c.visits >= 20 for c in children)
    for child in children:
        if child.visits >= 20:
            assert child.moves == [1] and sorted(m for _, m in child.dropped) == [0, 2]
        else:
            assert child.moves == [0, 1, 2]


def test_a_deepened_node_keeps_the_subtree_of_the_moves_it_keeps():
    search = Search(Deepened(), random.Random(2), Params(explore=0.2, deepen_at=20))
    search.run(300)
    child = max((c for c in search.root.children if c is not None), key=lambda c: c.visits)
    assert child.moves == [1] and child.children[0] is not None
    # No visit lost: the kept move's (from before the deepening too) and the dropped ones'.
    assert child.n[0] + sum(n for n, _ in child.dropped) == child.visits


def test_a_node_that_deepen_proves_lost_for_its_mover_proves_the_root_won():
    state = Deepened()
    state.proves = 0  # the root's player wins once any reply has been searched 20 times
    search = Search(state, random.Random(2), Params(explore=0.2, deepen_at=20))
    search.run(300)
    assert search.root.proven == 0
    assert [c.visits for c in search.root.children if c is not None and c.proven == 0] == [20]
