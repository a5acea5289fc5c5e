"""The game-independent search: progressive bias from a state's policy, refinements (their answers, the pre-search)."""

from __future__ import annotations

import random

import pytest

from engine.ai.mcts import Expansion, Node, Params, Refinement, Search

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

    #: moves before the coin flip
    MOVES = 2

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0

    def copy(self) -> TwoCoinFlips:
        c = TwoCoinFlips()
        c.depth, c.player = self.depth, self.player
        return c

    def expand(self) -> Expansion:
        if self.depth == self.MOVES:
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


class AnsweredCoinFlips(TwoCoinFlips):
    """Three moves each, then a coin flip; every refinement says the opponent answers move 1 with
    move 0. Its policy notes the moves so far and the answers the search handed over."""

    def __init__(self, seen: list[tuple[tuple[int, ...], int]]) -> None:
        super().__init__()
        self.seen = seen
        self.path: tuple[int, ...] = ()
        self.answers = 0

    def copy(self) -> AnsweredCoinFlips:
        c = AnsweredCoinFlips(self.seen)
        c.depth, c.player, c.path, c.answers = self.depth, self.player, self.path, self.answers
        return c

    MOVES = 3

    def play(self, move: int) -> None:
        super().play(move)
        self.path += (move,)
        self.answers = 0

    def take_answers(self, answers: int) -> None:
        self.answers = answers

    def refine(self) -> Refinement:
        return Refinement(None, None, None, {1: 1 << 0})

    def policy(self, moves: list[int]) -> list[float]:
        self.seen.append((self.path, self.answers))
        return [0.8 if self.answers >> m & 1 else 0.1 for m in moves]


def test_a_refinements_answers_reach_the_state_after_that_move():
    seen: list[tuple[tuple[int, ...], int]] = []
    search = Search(AnsweredCoinFlips(seen), random.Random(2), Params(explore=0.2, bias=2.0, refine_at=5, policy_at=10))
    search.run(1000)
    # The root is never refined; its children are, and the nodes below them get the answers.
    grandchildren = {path: answers for path, answers in seen if len(path) == 2}
    assert any(path[1] == 1 for path in grandchildren)
    assert all(answers == (1 if path[1] == 1 else 0) for path, answers in grandchildren.items())
    assert all(answers == 0 for path, answers in seen if len(path) < 2)


class ProvenCoinFlips(TwoCoinFlips):
    """Two moves each, then a coin flip; a refinement after the first move says who wins, by
    ``outcome`` (first move → winning seat, absent: not proven), and is noted in ``refined``."""

    def __init__(self, outcome: dict[int, int], refined: list[int]) -> None:
        super().__init__()
        self.outcome, self.refined = outcome, refined
        self.first: int | None = None

    def copy(self) -> ProvenCoinFlips:
        c = ProvenCoinFlips(self.outcome, self.refined)
        c.depth, c.player, c.first = self.depth, self.player, self.first
        return c

    def play(self, move: int) -> None:
        super().play(move)
        if self.first is None:
            self.first = move

    def refine(self) -> Refinement:
        assert self.first is not None
        self.refined.append(self.first)
        return Refinement(self.outcome.get(self.first), None, None)


def test_the_pre_search_drops_the_root_moves_proven_lost_before_any_playout():
    refined: list[int] = []
    search = Search(ProvenCoinFlips({0: 1}, refined), random.Random(1), Params(explore=0.2))
    assert search.presearch() == 3
    assert search.root.moves == [1, 2] and search.root.visits == 0
    assert sorted(refined) == [0, 1, 2]


def test_the_pre_search_proves_the_root_when_a_move_wins():
    search = Search(ProvenCoinFlips({2: 0}, []), random.Random(1), Params(explore=0.2))
    search.presearch()
    assert search.root.proven == 0 and search.best_move() == 2


def test_the_pre_search_checks_the_policys_favourite_first():
    refined: list[int] = []
    search = Search(ProvenCoinFlips({}, refined), random.Random(1), Params(explore=0.2, bias=2.0))
    search.presearch()
    assert refined[0] == 2


def test_a_pre_searched_move_is_not_refined_again_when_the_search_reaches_refine_at():
    refined: list[int] = []
    search = Search(ProvenCoinFlips({}, refined), random.Random(1), Params(explore=0.2, refine_at=5))
    search.presearch()
    search.run(200)
    assert sorted(refined) == [0, 1, 2]
    assert all(child is not None and child.visits > 5 for child in search.root.children)


def test_the_pre_search_stops_at_its_deadline():
    refined: list[int] = []
    search = Search(ProvenCoinFlips({}, refined), random.Random(1), Params(explore=0.2))
    assert search.presearch(deadline=0.0) == 0 and refined == []


def test_without_refine_there_is_no_pre_search():
    search = Search(CoinFlip(), random.Random(1), Params(explore=0.2))
    assert search.presearch() == 0 and search.root.children == [None, None, None]


def test_a_node_refuses_an_amaf_key_the_compiled_backup_cannot_read():
    with pytest.raises(ValueError, match="AMAF keys"):
        Node(0, Expansion([5], [1024], [1.0], [0.5]))
