"""The one inpHeXion playout kernel agrees with the engine's rules, as the AI uses it.

The AI's playouts (``engine.ai.inphexion_ai``) and the engine's ``random_playout``
both run :func:`engine.inphexion.fast_playout`; here its moves are replayed
through ``play`` on random positions of every variant and size.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from engine.ai.inphexion_ai import InpState
from engine.inphexion import fast_playout
from tests.engine.test_inphexion_properties import SETTINGS, positions


def _ready(pos):
    """Play on (randomly) to a move phase where the kernel takes over, or None if the game ends first."""
    rng = random.Random(len(pos.actions))
    while pos.outcome is None and (pos.phase != "move" or pos._free_reply_allowed() or pos._swap_allowed()):
        pos.play(rng.choice(pos.legal_actions()))
    return pos if pos.outcome is None else None


@SETTINGS
@given(positions(), st.randoms(use_true_random=False))
def test_the_kernel_s_moves_replay_through_play_to_its_result_and_discs(pos, rng):
    pos = _ready(pos)
    if pos is None:
        return
    log: list[str] = []
    winner, reason, white, black = fast_playout(pos.grid, pos._side, pos._stones, pos._hand, pos._neutral,
                                                 rng.random, log)
    replay = pos.copy()
    for action in log:
        replay.play(action)
    assert replay.outcome is not None
    assert (replay.outcome.winner, replay.outcome.reason) == (("white", "black")[winner], reason)
    assert (replay._stones[0], replay._stones[1]) == (white, black)


@SETTINGS
@given(positions(), st.integers(0, 2**32))
def test_the_ai_s_playout_reports_the_winner_the_engine_finds(pos, seed):
    pos = _ready(pos)
    if pos is None:
        return
    state = InpState(pos.copy())
    seat, mask0, mask1 = state.playout(random.Random(seed))
    # Same dice through the engine's own path from the same position: the kernel's log.
    log: list[str] = []
    side, _, white, black = fast_playout(pos.grid, pos._side, pos._stones, pos._hand, pos._neutral,
                                         random.Random(seed).random, log)
    replay = pos.copy()
    for action in log:
        replay.play(action)
    assert seat == replay.seat_of_colour(replay.outcome.winner)
    own = {0: mask0, 1: mask1}[replay.seat_of_colour("white")] & ((1 << 128) - 1)
    assert own == white
