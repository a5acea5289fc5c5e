"""The review's marks against the truth: Hex 4×4 and 5×5 positions solved exactly (tests/engine/hex_solver.py).

Seeded random games (random moves make many wins thrown away) are reviewed at the review's
own budget; every turn from a position the solver can afford is checked against the solved
values before and after it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from engine.ai.review import TurnReview, review
from engine.games import make_options
from engine.hex import Hex

from .hex_solver import HexSolver

#: (size, games, smallest number of stones before a checked turn: the solver's reach)
BOARDS = ((4, 8, 2), (5, 6, 10))


@dataclass(frozen=True)
class Checked:
    """A reviewed turn with the solved truth: did the mover win with perfect play before and after it?"""

    size: int
    turn: TurnReview
    won_before: bool
    won_after: bool


def _bitboards(pos: Hex) -> tuple[int, int]:
    black = white = 0
    for cell in range(pos.size * pos.size):
        piece = pos.piece_at(cell)
        if piece == "black":
            black |= 1 << cell
        elif piece == "white":
            white |= 1 << cell
    return black, white


def _random_game(size: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    pos = make_options("hex", size, [], None).new_position()
    while pos.outcome is None:
        pos.play(rng.choice(pos.legal_actions()))
    return list(pos.actions)


@pytest.fixture(scope="module")
def checked() -> list[Checked]:
    out: list[Checked] = []
    for size, games, min_stones in BOARDS:
        options = make_options("hex", size, [], None)
        solver: HexSolver | None = None
        for seed in range(games):
            actions = _random_game(size, 1000 * size + seed)
            result = review(options, actions, seed=seed)
            pos = options.new_position()
            assert isinstance(pos, Hex)
            solver = solver or HexSolver(pos.grid)
            for turn in result.turns:
                black, white = _bitboards(pos)
                mover_black = pos.to_move == ["black"]
                stones = (black | white).bit_count()
                pos.play(turn.move)
                if stones < min_stones:
                    continue
                after_black, after_white = _bitboards(pos)
                won_before = solver.value(black, white, mover_black, mover_black)
                won_after = solver.value(after_black, after_white, not mover_black, mover_black)
                out.append(Checked(size, turn, won_before, won_after))
    return out


def test_every_move_that_throws_a_won_position_away_is_marked_a_mistake_or_blunder(checked: list[Checked]) -> None:
    thrown = [c for c in checked if c.won_before and not c.won_after]
    marks = {m: sum(c.turn.mark == m for c in thrown) for m in ("??", "?", "?!", None)}
    print(f"\nthrown-away wins: {len(thrown)} of {len(checked)} checked turns, marked {marks}")
    assert len(thrown) >= 20, "the sample should hold enough thrown-away wins to mean something"
    unmarked = [(c.size, c.turn.move, c.turn.win_before, c.turn.win_after, c.turn.best) for c in thrown
                if c.turn.mark not in ("?", "??")]
    assert unmarked == []


def test_a_move_that_keeps_a_won_position_won_is_rarely_marked_a_blunder(checked: list[Checked]) -> None:
    kept = [c for c in checked if c.won_before and c.won_after]
    blunders = [c for c in kept if c.turn.mark == "??"]
    assert len(kept) >= 20
    rate = len(blunders) / len(kept)
    marks = {m: sum(c.turn.mark == m for c in kept) for m in ("?", "?!")}
    print(f"\nkept-won turns marked ??: {len(blunders)} of {len(kept)} ({rate:.1%}); others {marks}")
    assert rate <= 0.05


def test_a_proved_value_agrees_with_the_solver_and_is_exactly_one_or_zero(checked: list[Checked]) -> None:
    proved = [c for c in checked if c.turn.proved_before]
    assert len(proved) >= 20
    for c in proved:
        assert c.turn.win_before == (1.0 if c.won_before else 0.0)
    for c in (c for c in checked if c.turn.proved_after):
        assert c.turn.win_after == (1.0 if c.won_after else 0.0)


def test_the_review_counts_what_it_marks(checked: list[Checked]) -> None:
    options = make_options("hex", 4, [], None)
    result = review(options, _random_game(4, 4000), seed=0)
    for colour, summary in result.players.items():
        mine = [t for t in result.turns if t.player == colour]
        assert summary.turns == len(mine)
        assert summary.blunders == sum(t.mark == "??" for t in mine)
        assert summary.mistakes == sum(t.mark == "?" for t in mine)
        assert summary.inaccuracies == sum(t.mark == "?!" for t in mine)
