"""The Hex search going on from the same game's previous search (subtree reuse).

Searches here are bounded by iterations and ask for reuse explicitly, so every
answer is the same on every machine. No test depends on time.
"""

from __future__ import annotations

import dataclasses
import random

from engine import new_game
from engine.ai.hex import ai as hex_ai
from engine.ai.hex.ai import HexState
from engine.ai.mcts import Node


def _replay(n: int, moves: str):
    pos = new_game("hex", n)
    for m in moves.split():
        pos.play(m)
    return pos


def _search(pos, iterations: int = 1500, seed: int = 1, reuse: bool | None = True) -> hex_ai.SearchReport:
    hex_ai.choose(pos, 0.0, random.Random(seed), iterations, None, reuse=reuse)
    assert hex_ai.LAST is not None
    return hex_ai.LAST


def _expected_reply(pos, move: str, kept: hex_ai.KeptTree | None = None) -> str:
    """The reply the kept search (by default the newest) looked at most after ``move``."""
    kept = kept or hex_ai.KEPT[0]
    assert pos.grid.name(kept.move) == move
    return pos.grid.name(kept.after.moves[kept.after.best_index()])


def _fresh_cache() -> None:
    hex_ai.KEPT.clear()


def test_the_next_search_of_a_game_goes_on_from_the_position_in_the_kept_tree():
    _fresh_cache()
    pos = _replay(9, "e5 d6 f4")
    first = _search(pos)
    assert first.reused == 0
    reply = _expected_reply(pos, first.move)
    pos.play(first.move)
    pos.play(reply)
    second = _search(pos)
    assert second.reused > 0
    assert second.move in pos.legal_actions()


def test_a_search_bounded_by_iterations_starts_afresh_unless_asked():
    _fresh_cache()
    pos = _replay(9, "e5 d6 f4")
    first = _search(pos)
    reply = _expected_reply(pos, first.move)
    pos.play(first.move)
    pos.play(reply)
    assert _search(pos, reuse=None).reused == 0


def test_a_kept_tree_serves_only_the_position_two_plies_below_its_root():
    _fresh_cache()
    _search(_replay(9, "e5 d6 f4"))
    assert _search(_replay(9, "c3 g7 d6")).reused == 0  # another game, White to move too
    _fresh_cache()
    pos = _replay(9, "e5 d6 f4")
    first = _search(pos)
    pos.play(first.move)
    assert _search(pos).reused == 0  # one ply later: the other side's turn


def test_the_same_position_kept_from_another_game_does_not_hide_this_games_tree():
    """A worker serving two games that reached one position: the newer entry moved elsewhere."""
    _fresh_cache()
    pos = _replay(9, "e5 d6 f4")
    first = _search(pos)
    ours = hex_ai.KEPT[0]
    elsewhere = next(m for m in range(pos.grid.cells) if m != ours.move and not (ours.black | ours.white) >> m & 1)
    hex_ai.KEPT.insert(0, dataclasses.replace(ours, move=elsewhere))
    reply = _expected_reply(pos, first.move, ours)
    pos.play(first.move)
    pos.play(reply)
    assert _search(pos).reused > 0


def test_a_reused_root_starts_on_the_board_its_subtree_was_grown_on(monkeypatch):
    """The kept search's root fill and the fills of the refined nodes on the way down (after
    the chosen move, after the reply) are all stones of the new root state."""
    searches = _record_searches(monkeypatch)
    _fresh_cache()
    pos = _replay(9, "c2 e5 g2")  # Black's row-2 stones capture the edge cells under them
    first = _search(pos, iterations=3000)
    kept = hex_ai.KEPT[0]
    assert kept.fill[0]
    # The reply most looked at among those whose node was refined and filled (Black's stones).
    filled = [
        (child.visits, move) for move, child in zip(kept.after.moves, kept.after.children)
        if child is not None and isinstance(child.fill, tuple) and child.fill[0]
    ]
    reply = pos.grid.name(max(filled)[1])
    node = kept.after.child_for(pos.grid.parse(reply))
    assert node is not None
    # A marker in the recorded root fill (i9, far from everything, settled by no rule here):
    # the new root takes the recorded fill as it is, not only what its own fill-in finds again.
    marker = 1 << pos.grid.parse("i9")
    kept.fill = (kept.fill[0] | marker, kept.fill[1])
    expected_black, expected_white = kept.fill
    for f in (kept.after.fill, node.fill):
        if isinstance(f, tuple):
            expected_black, expected_white = expected_black | f[0], expected_white | f[1]
    pos.play(first.move)
    pos.play(reply)
    searches.clear()
    assert _search(pos, iterations=3000).reused > 0
    root_state = searches[0].root_state
    assert isinstance(root_state, HexState)
    assert root_state.black & expected_black == expected_black
    assert root_state.white & expected_white == expected_white


def _record_searches(monkeypatch) -> list[hex_ai.Search]:
    """Every search ``hex_ai.choose`` makes from now on, in order."""
    searches: list[hex_ai.Search] = []

    class Recorded(hex_ai.Search):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            searches.append(self)

    monkeypatch.setattr(hex_ai, "Search", Recorded)
    return searches


def _tree_moves_are_empty_cells(state: HexState, node: Node) -> int:
    """Walk the tree below ``state`` as the search does (fills taken on at refined nodes); count the
    moves checked."""
    if isinstance(node.fill, tuple):
        state.apply_fill(node.fill)
    checked = 0
    for move, child in zip(node.moves, node.children):
        assert not (state.black | state.white) >> move & 1, f"move {state.move_text(move)} on a stone"
        checked += 1
        if child is not None:
            s = state.copy()
            s.play(move)
            checked += _tree_moves_are_empty_cells(s, child)
    return checked


def test_every_move_in_a_reused_tree_is_an_empty_cell_of_its_board(monkeypatch):
    """Whole 7×7 games, each side going on from its own previous search: after every search,
    its tree, walked from its root state with the fills it was grown with, offers no filled
    cell (these games reach positions whose fill settles cells a kept subtree had as moves)."""
    searches = _record_searches(monkeypatch)
    checked = reused = 0
    for game in range(3):
        _fresh_cache()
        pos = _replay(7, "d4")
        rng = random.Random(game)
        while pos.outcome is None:
            searches.clear()
            report = _search(pos, iterations=400, seed=rng.getrandbits(16))
            if searches:
                reused += report.reused > 0
                search = searches[0]
                assert isinstance(search.root_state, HexState)
                checked += _tree_moves_are_empty_cells(search.root_state.copy(), search.root)
            pos.play(report.move)
    assert reused >= 10 and checked > 3000
