"""The AI keeps its time: the root's analysis stops at the deadline, and a search whose time is
spent before it starts answers at once with its quick move.

Nothing here reads the wall clock to judge: the tests count the work done (H-search runs and
work units, tree iterations) when the deadline has passed, or ask with a deadline already past.
"""

from __future__ import annotations

import random
import time

import pytest

from engine import new_game
from engine.ai import choose, mcts
from engine.ai.hex import vc
from engine.ai.hex.ai import HexState


def _random_position(game: str, size: int | None, stones: int, seed: int):
    rng = random.Random(seed)
    pos = new_game(game, size)
    while len(pos.actions) < stones and pos.outcome is None:
        pos.play(rng.choice([a for a in pos.legal_actions() if a != "swap"]))
    return pos


@pytest.fixture
def work(monkeypatch) -> dict[str, int]:
    """Counts of the search's costly steps: root/tree H-search runs, and tree iterations."""
    counts = {"hsearch": 0, "iterations": 0}
    run, iterate = vc.HSearch.run, mcts.Search._iterate

    def counted_run(self, *args, **kwargs):
        counts["hsearch"] += 1
        return run(self, *args, **kwargs)

    def counted_iterate(self):
        counts["iterations"] += 1
        return iterate(self)

    monkeypatch.setattr(vc.HSearch, "run", counted_run)
    monkeypatch.setattr(mcts.Search, "_iterate", counted_iterate)
    return counts


@pytest.mark.parametrize("level_name", ["easy", "medium", "hard"])
def test_a_search_whose_time_is_spent_answers_without_analysing_or_searching(work, level_name):
    pos = _random_position("hex", 19, 60, 0)
    line = choose(pos, level_name, seed=1, deadline=time.time() - 1)
    assert line in pos.legal_actions()
    assert work == {"hsearch": 0, "iterations": 0}


def test_the_quick_move_of_a_spent_search_takes_a_win_in_one(work):
    pos = new_game("hex", 9)
    # Black (to move) has a1..a8 of the a-file: a9 wins.
    for black, white in zip([f"a{r}" for r in range(1, 9)], [f"c{r}" for r in range(1, 9)]):
        pos.play(black)
        pos.play(white)
    assert choose(pos, "medium", seed=1, deadline=time.time() - 1) == "a9"
    assert work["iterations"] == 0


def test_a_spent_search_answers_with_the_priors_best_not_the_first_cell():
    pos = _random_position("hex", 19, 60, 0)
    quick = {choose(pos, "medium", seed=s, deadline=time.time() - 1) for s in range(3)}
    assert quick != {pos.legal_actions()[0]}
    assert len(quick) == 1  # the priors' best: no dice


def test_the_root_h_search_stops_at_the_first_slice_once_its_time_is_spent():
    state = HexState.from_position(_random_position("hex", 19, 60, 0))
    g = state.t.g
    asked = []

    def stop_after_two() -> bool:
        asked.append(True)
        return len(asked) > 2

    whole = vc.edge_vcs(g, state.black, state.white, True, stop=lambda: False)
    stopped = vc.edge_vcs(g, state.black, state.white, True, stop=stop_after_two)
    assert whole.work > 2 * vc.HSearch.SLICE  # the position's H-search is longer than what the stop allows
    assert stopped.truncated and stopped.work <= 2 * vc.HSearch.SLICE + vc.HSearch.SLICE // 8

