"""The Hex search's learned move priors: features read from the board, and what the weights favour."""

from __future__ import annotations

from engine import new_game
from engine.ai.hex.ai import HexState
from engine.ai.hex.patterns import (
    LAST_ADJACENT,
    LAST_BRIDGE,
    LAST_FAR,
    MINE,
    THEIRS,
    around,
    near_code,
)
from engine.geometry import HexGrid


def _replay(n: int, moves: str):
    pos = new_game("hex", n)
    for m in moves.split():
        pos.play(m)
    return pos


def _rotate(g: HexGrid, moves: str) -> str:
    """The same moves rotated by 180° (every edge keeps its colour)."""
    out = []
    for m in moves.split():
        c, r = g.coords(g.parse(m))
        out.append(g.name(g.index(g.n - 1 - c, g.n - 1 - r)))
    return " ".join(out)


def _transpose(g: HexGrid, moves: str) -> str:
    """The moves mirrored on the long diagonal (column and row exchanged): Black's shapes become White's."""
    out = []
    for m in moves.split():
        c, r = g.coords(g.parse(m))
        out.append(g.name(g.index(r, c)))
    return " ".join(out)


def _features_by_cell(pos) -> dict[int, tuple]:
    s = HexState.from_position(pos)
    empty = [c for c in range(pos.size**2) if not (s.black | s.white) >> c & 1]
    return dict(zip(empty, s.move_features(empty)))


def test_a_shape_and_its_180_degree_rotation_are_the_same_feature():
    g = new_game("hex", 9).grid
    moves = "e5 d6 c7 f3 b2 g6"
    here, there = _features_by_cell(_replay(9, moves)), _features_by_cell(_replay(9, _rotate(g, moves)))
    for cell, f in here.items():
        c, r = g.coords(cell)
        assert there[g.index(8 - c, 8 - r)] == f


def _state(g: HexGrid, black: str, white: str, black_to_move: bool, last: str) -> HexState:
    s = HexState.from_position(new_game("hex", g.n))
    s.black = sum(1 << g.parse(c) for c in black.split())
    s.white = sum(1 << g.parse(c) for c in white.split())
    s.black_to_move = black_to_move
    s.last = g.parse(last)
    return s


def test_white_moving_on_the_transposed_board_has_blacks_features():
    """Features are the mover's view: exchange columns with rows and colours, and every cell's
    features are those of its mirror image."""
    g = new_game("hex", 9).grid
    black_to_move = _state(g, "e5 c7 b2", "d6 f3 g6", True, "g6")
    white_to_move = _state(g, _transpose(g, "d6 f3 g6"), _transpose(g, "e5 c7 b2"), False, _transpose(g, "g6"))
    empty = [c for c in range(81) if not (black_to_move.black | black_to_move.white) >> c & 1]
    mirrored = [g.parse(_transpose(g, g.name(c))) for c in empty]
    assert black_to_move.move_features(empty) == white_to_move.move_features(mirrored)


def test_cells_beyond_an_edge_read_as_the_edges_owner():
    """b1, Black to move: seven of its 18 surrounding cells lie beyond Black's top edge (Black's),
    three beyond White's left edge (White's); for White the mirror cell a2 reads the same."""
    for vertical, cell in ((True, 1), (False, 9)):
        code = around(9, vertical).shape(cell, 0, 0)
        digits = [(code // 3**k) % 3 for k in range(18)]
        assert (digits.count(MINE), digits.count(THEIRS)) == (7, 3)


def test_the_near_code_is_the_canonical_six_neighbour_shape():
    ar = around(9, True)
    g = new_game("hex", 9).grid
    mine = 1 << g.parse("e4")
    theirs = 1 << g.parse("d5")
    centre = g.parse("e5")
    rotated_mine, rotated_theirs = 1 << g.parse("e6"), 1 << g.parse("f5")
    assert near_code(ar.shape(centre, mine, theirs)) == near_code(ar.shape(centre, rotated_mine, rotated_theirs))


def test_the_last_stone_is_bucketed_by_distance():
    ar = around(9, True)
    g = new_game("hex", 9).grid
    e5 = g.parse("e5")
    assert ar.last_bucket(e5, g.parse("e4")) == LAST_ADJACENT
    assert ar.last_bucket(e5, g.parse("f6")) == LAST_BRIDGE
    assert ar.last_bucket(e5, g.parse("a1")) == LAST_FAR


# -- the policy the search is biased by ---------------------------------------------------------
def _policy(pos) -> dict[str, float]:
    s = HexState.from_position(pos)
    moves = [c for c in range(pos.size**2) if not (s.black | s.white) >> c & 1]
    return {pos.grid.name(c): p for c, p in zip(moves, s.policy(moves))}


# Answers to intrusions rank first whatever the weights (the template case failed on the
# learned weights alone: they preferred c2).
def test_the_learned_priors_put_the_answer_to_a_bridge_intrusion_first():
    """Black's e5 and f3 are a bridge (carrier e4, f4); White intrudes at e4: f4 keeps it."""
    policy = _policy(_replay(9, "e5 a1 f3 e4"))
    assert max(policy, key=policy.__getitem__) == "f4"


def test_the_learned_priors_put_the_answer_to_an_intrusion_into_a_row_two_template_first():
    """Black's e2 reaches the top edge through e1 or f1; White takes e1: f1 keeps the connection."""
    policy = _policy(_replay(9, "e2 a9 e7 e1"))
    assert max(policy, key=policy.__getitem__) == "f1"


# What the learned weights favour (these fail with every weight at zero: all moves equally likely).
def test_the_learned_priors_keep_early_moves_off_the_rim():
    policy = _policy(_replay(9, "e5"))
    g = new_game("hex", 9).grid
    rim = {g.name(c) for c in range(81) if (g.top | g.bottom | g.left | g.right) >> c & 1}
    on_rim = [p for m, p in policy.items() if m in rim]
    inside = [p for m, p in policy.items() if m not in rim]
    assert max(on_rim) < sum(inside) / len(inside)


def test_the_learned_priors_answer_the_centre_opening_in_contact():
    """After Black's e5, White's two likeliest replies are neighbours of e5 (MoHex blocks in
    contact), and a shape and its rotation weigh the same, so they come as a pair."""
    policy = _policy(_replay(9, "e5"))
    g = new_game("hex", 9).grid
    first, second = sorted(policy, key=policy.__getitem__, reverse=True)[:2]
    assert g.nmask[g.parse("e5")] >> g.parse(first) & 1 and g.nmask[g.parse("e5")] >> g.parse(second) & 1
    assert policy[first] == policy[second]
