"""The head-to-head driver's player process (``research/hex_versus.py``), as the MoHex review uses it."""

from __future__ import annotations

from pathlib import Path

from research import hex_versus

ROOT = Path(__file__).resolve().parents[2]
VERSUS = vars(hex_versus)

#: a 9×9 position out of the opening book, far from decided (White to move)
POSITION = ["a1", "i9", "b2", "h8", "c3"]


def test_a_side_bounded_by_iterations_runs_that_many_and_answers_the_same_each_time():
    """``--iterations`` in the MoHex review: the search stops after exactly that many iterations,
    not at the time given (30 s would run far more), and the same position and seed get the same move."""
    player = VERSUS["Player"](ROOT)
    try:
        first = player.move(9, POSITION, "medium", 30.0, 7, iterations=300)
        again = player.move(9, POSITION, "medium", 30.0, 7, iterations=300)
    finally:
        player.close()
    assert first[2] == again[2] == 300
    assert first[0] == again[0]
