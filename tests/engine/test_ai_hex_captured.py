"""Captured sets (engine.ai.hex.captured): what the local search finds, and that filling it is sound.

Soundness is checked against exhaustive search on 4×4 boards; no test depends on time.
"""

from __future__ import annotations

import random

from engine import new_game
from engine.ai.hex.ai import HexState, knowledge
from engine.ai.hex.captured import captured_sets, dead_rings, rings
from engine.ai.hex.inferior import dead_once, fill_in
from engine.geometry import bits, grid
from tests.engine.test_ai_hex_knowledge import _black_wins, _mask, _random_positions


def _corner_position() -> HexState:
    """9×9 after e5 f3 d4 e6 d6 c8 d7 d8 c4 b6: White's b6, c8 and d8 fence off the a7–c9 corner,
    with Black to move."""
    pos = new_game("hex", 9)
    for move in "e5 f3 d4 e6 d6 c8 d7 d8 c4 b6".split():
        pos.play(move)
    return HexState.from_position(pos)


def test_the_ring_table_agrees_with_the_dead_cell_patterns_on_the_board():
    """Every empty cell of random 5×5 positions: the ring code's verdict is the bitboard patterns' verdict."""
    g = grid(5)
    table, ring = dead_rings(), rings(5)
    compared = 0
    for black, white in _random_positions(g, random.Random(3), 200):
        dead = dead_once(g, black, white)
        for c in bits(g.full & ~(black | white)):
            code, weight = 0, 1
            for j in ring[c]:
                state = (1 if j == -1 or (j >= 0 and black >> j & 1) else 2 if j == -2 or (j >= 0 and white >> j & 1)
                         else 0)
                code += weight * state
                weight *= 3
            assert table[code] == bool(dead >> c & 1)
            compared += 1
    assert compared > 1000


def test_filling_a_captured_set_changes_no_result():
    """Random 4×4 positions, exhaustively: filling any captured set with its owner keeps the winner,
    whoever moves."""
    g = grid(4)
    checked = 0
    for black, white in _random_positions(g, random.Random(4), 120):
        for owner_black in (True, False):
            for cells in captured_sets(g, black, white, owner_black):
                checked += 1
                b, w = (black | cells, white) if owner_black else (black, white | cells)
                for black_to_move in (True, False):
                    assert _black_wins(g, b, w, black_to_move) == _black_wins(g, black, white, black_to_move)
    assert checked >= 120


def test_an_empty_board_has_no_captured_set():
    g = grid(9)
    assert captured_sets(g, 0, 0, True) == [] and captured_sets(g, 0, 0, False) == []


def test_a_corner_fenced_by_white_is_captured_by_white():
    state = _corner_position()
    g = state.t.g
    f = fill_in(g, state.black, state.white, set_size=6)
    assert f.captured_white & _mask(g, "c6 b7 c7 a8 b8 a9") == _mask(g, "c6 b7 c7 a8 b8 a9")
    assert not fill_in(g, state.black, state.white).captured_white & _mask(g, "b7 c7 a8 b8")


def test_the_filled_corner_leaves_intrusions_into_it_out_of_the_mustplay():
    """White threatens to join the corner to the east through f7. Unfilled, Black's moves into the
    corner look like answers (they touch White's carriers); filled, the H-search sees that they change
    nothing, and the mover's choice shrinks to the cells that can stop the threat."""
    state = _corner_position()
    g = state.t.g
    corner = _mask(g, "c6 b7 c7 a8 b8 a9")
    plain = knowledge(g, state.black, state.white, state.black_to_move)
    filled = knowledge(g, state.black, state.white, state.black_to_move, set_size=6)
    assert plain.allowed & corner and not filled.allowed & corner
    assert filled.vc.theirs.semis and filled.vc.mustplay >> g.parse("f7") & 1
    assert filled.allowed & ~plain.allowed == 0
