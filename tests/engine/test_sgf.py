"""Hex games exported as SGF read the same in HexGui's terms (its swap is ``swap-pieces``)."""

from __future__ import annotations

import random
import re

import pytest

from engine import Outcome, Reason, make_options, new_game
from engine.sgf import to_sgf


def finished_game(variant: str, seed: int) -> tuple[list[str], Outcome]:
    """A random Hex 5×5 game with the pie rule played at once, to its end."""
    pos = new_game("hex", 5, [variant])
    rng = random.Random(seed)
    pos.play(rng.choice(pos.legal_actions()))
    pos.play("swap")
    while pos.outcome is None:
        pos.play(rng.choice(pos.legal_actions()))
    return list(pos.actions), pos.outcome


def as_hexgui_plays(sgf: str) -> tuple[list[str], str]:
    """The moves of an SGF as HexGui plays them (its swap is swap-pieces), and RE's winner."""
    moves = re.findall(r";([BW])\[([^\]]+)\]", sgf)
    actions = ["swap" if cell == "swap-pieces" else cell for _, cell in moves]
    winner = re.search(r"RE\[([BW])\+", sgf)
    return actions, {"B": "black", "W": "white"}[winner.group(1)] if winner else ""


def test_the_root_node_is_hexguis_ff4_gm11_with_the_board_size():
    sgf = to_sgf(make_options("hex", 11, ["swap"]), ["c4"])
    assert sgf.startswith("(;FF[4]GM[11]SZ[11]") and ";B[c4])" in sgf


@pytest.mark.parametrize("variant", ["swap", "swap-pieces"])
@pytest.mark.parametrize("seed", range(8))
def test_a_game_with_a_swap_replayed_the_way_hexgui_plays_it_ends_the_same(variant, seed):
    actions, outcome = finished_game(variant, seed)
    sgf = to_sgf(make_options("hex", 5, [variant]), actions, {"black": "alice", "white": "bob"}, outcome)
    hexgui_actions, winner = as_hexgui_plays(sgf)
    assert "W[swap-pieces]" in sgf
    replay = new_game("hex", 5, ["swap-pieces"])
    for a in hexgui_actions:
        replay.play(a)
    assert replay.outcome is not None and replay.outcome.reason is Reason.CONNECTION
    assert replay.outcome.winner == winner
    # the person who won in the game won in the file too (the first player is Black there)
    first_player_won = outcome.winner == ("black" if variant == "swap-pieces" else "white")
    assert (winner == "black") == first_player_won


def test_a_resignation_is_written_as_re_with_r():
    sgf = to_sgf(make_options("hex", 5, ["swap"]), ["c3"], None, Outcome("black", Reason.RESIGNATION))
    assert "RE[B+R]" in sgf


def test_sgf_is_for_hex_only():
    with pytest.raises(ValueError):
        to_sgf(make_options("inphexion", 7), [])
