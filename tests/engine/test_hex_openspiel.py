"""Our Hex agrees with OpenSpiel's on random games (an independent implementation).

OpenSpiel's ``hex``: player 0 (``x``) connects top and bottom, like our Black;
action = row · n + col, like our cell index; and its board has the same skew as
RULES.md §1 (row r+1 shifted right, so b1 touches a2 and a1 does not touch b2),
which ``test_openspiel_uses_our_adjacency`` checks, so no coordinate mapping is
needed. pyspiel comes with the ``dev`` extra; this test is not skipped.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

from engine import new_game


def _state(n: int):
    return pyspiel.load_game("hex", {"board_size": n}).new_initial_state()


def _play(state, actions: list[int]):
    for a in actions:
        state.apply_action(a)
    return state


def test_openspiel_player_0_connects_top_and_bottom():
    # x on a1 and a2 (column a) joins rows 1 and 2 on a 2×2 board.
    state = _play(_state(2), [0, 1, 2])
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_openspiel_uses_our_adjacency():
    # b1 (action 1) touches a2 (action 2) in RULES.md §1 ...
    assert _play(_state(2), [1, 0, 2]).is_terminal()
    # ... and a1 (0) does not touch b2 (3): the mirrored skew would connect here.
    assert not _play(_state(2), [0, 2, 3]).is_terminal()


def test_our_adjacency_matches_the_openspiel_checks():
    pos = new_game("hex", 3)
    g = pos.grid
    assert g.parse("a2") in g.neighbours[g.parse("b1")]
    assert g.parse("b2") not in g.neighbours[g.parse("a1")]


@pytest.mark.parametrize("n", range(3, 14))
def test_random_games_end_on_the_same_turn_with_the_same_winner(n):
    rng = random.Random(1000 + n)
    for _ in range(24):
        ours = new_game("hex", n)
        theirs = _state(n)
        turns = 0
        while ours.outcome is None:
            cell = rng.choice(ours.legal_actions())
            index = ours.grid.parse(cell)
            assert index in theirs.legal_actions()
            ours.play(cell)
            theirs.apply_action(index)
            turns += 1
            assert theirs.is_terminal() == (ours.outcome is not None), (n, ours.actions)
        winner = "black" if theirs.returns()[0] > 0 else "white"
        assert ours.outcome.winner == winner
        assert len(ours.actions) == turns
