"""Hex rules (RULES.md §3): placement, connection, the two pie rules, the fast playout."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from engine import (
    GameOverError,
    IllegalActionError,
    NotationError,
    OptionsError,
    Outcome,
    Reason,
    Record,
    WrongTurnError,
    new_game,
)
from engine.geometry import grid
from engine.hex import Hex


def play(pos, *actions):
    for a in actions:
        pos.play(a)
    return pos


def cell(pos, name):
    return pos.grid.parse(name)


# -- start and options ---------------------------------------------------------------
def test_black_moves_first_on_an_empty_board():
    pos = new_game("hex", 5)
    assert (pos.to_move, pos.phase, pos.actions, pos.outcome) == (["black"], "place", [], None)


def test_every_cell_is_legal_at_the_start():
    assert len(new_game("hex", 5).legal_actions()) == 25


def test_legal_actions_are_sorted():
    legal = new_game("hex", 11).legal_actions()
    assert legal == sorted(legal)


def test_the_default_size_is_eleven():
    assert new_game("hex").size == 11


@pytest.mark.parametrize("size", [2, 20])
def test_sizes_outside_3_to_19_are_refused(size):
    with pytest.raises(OptionsError, match="3–19"):
        new_game("hex", size)


@pytest.mark.parametrize("size", [3, 19])
def test_sizes_3_and_19_are_offered(size):
    assert new_game("hex", size).size == size


def test_swap_and_swap_pieces_together_are_refused():
    with pytest.raises(OptionsError, match="not both"):
        new_game("hex", 5, ["swap", "swap-pieces"])


def test_an_unknown_variant_is_refused():
    with pytest.raises(OptionsError, match="no variant 'pie'"):
        new_game("hex", 5, ["pie"])


def test_a_cut_winner_is_refused():
    with pytest.raises(OptionsError):
        new_game("hex", 5, first="x")


def test_hex_has_no_hands_and_no_aside():
    pos = new_game("hex", 5)
    assert pos.hands() is None and pos.aside() is None


# -- placing stones ----------------------------------------------------------------------
def test_a_stone_goes_on_the_named_cell_in_the_movers_colour():
    pos = play(new_game("hex", 5), "c2")
    assert pos.piece_at(cell(pos, "c2")) == "black"
    assert pos.to_move == ["white"]


def test_colours_alternate():
    pos = play(new_game("hex", 5), "c2", "d4")
    assert pos.piece_at(cell(pos, "d4")) == "white"
    assert pos.to_move == ["black"]


@pytest.mark.parametrize("text", ["E5", " e5 ", "move E5"])
def test_cell_input_is_forgiving_and_recorded_canonically(text):
    pos = new_game("hex", 5)
    assert pos.play(text) == ["e5"]
    assert pos.actions == ["e5"]


def test_an_occupied_cell_is_illegal_and_changes_nothing():
    pos = play(new_game("hex", 5), "c3")
    before = pos.copy()
    with pytest.raises(IllegalActionError, match="c3 already holds a black stone"):
        pos.play("c3")
    assert pos == before and pos.actions == ["c3"]


def test_a_cell_off_the_board_is_a_notation_error():
    with pytest.raises(NotationError, match="off the board"):
        new_game("hex", 5).play("f1")


@pytest.mark.parametrize("text", ["hello", "c3 d4", "c3>d4", "aside 1+2", "x:1+2", ""])
def test_text_that_is_not_a_hex_action_is_a_notation_error(text):
    pos = new_game("hex", 5)
    with pytest.raises(NotationError):
        pos.play(text)
    assert pos.actions == []


@pytest.mark.parametrize("text", ["q" * 200, "e5 " + "f6 " * 65])
def test_long_text_is_quoted_shortened_in_the_error(text):
    with pytest.raises(NotationError) as exc:
        new_game("hex", 5).play(text)
    assert len(str(exc.value)) < 100 and "…" in str(exc.value)


def test_the_wrong_player_is_refused():
    with pytest.raises(WrongTurnError, match="black's turn"):
        new_game("hex", 5).play("c3", "white")


def test_the_right_player_is_accepted():
    assert new_game("hex", 5).play("c3", "black") == ["c3"]


# -- winning ---------------------------------------------------------------------------
def _column_a_game():
    """Black plays down column a while White plays down column e (5×5)."""
    pos = new_game("hex", 5)
    for row in range(1, 6):
        pos.play(f"a{row}")
        if pos.outcome:
            break
        pos.play(f"e{row}")
    return pos


def test_black_wins_by_joining_top_and_bottom():
    pos = _column_a_game()
    assert pos.outcome == Outcome("black", Reason.CONNECTION)
    assert len(pos.actions) == 9


def test_white_wins_by_joining_left_and_right():
    pos = play(new_game("hex", 3), "a1", "a2", "b1", "b2", "a3")
    assert pos.outcome is None
    pos.play("c2")
    assert pos.outcome == Outcome("white", Reason.CONNECTION)


def test_a_corner_cell_belongs_to_both_of_its_sides():
    # c1 is on the top edge and the right edge: White's row 1 chain a1-b1-c1 connects.
    pos = play(new_game("hex", 3), "a2", "a1", "a3", "b1", "b3", "c1")
    assert pos.outcome == Outcome("white", Reason.CONNECTION)


def test_a_zigzag_chain_through_the_skewed_neighbours_connects():
    # b1 touches a2 (RULES.md §1: (c-1, r+1)); a2-a3 finish Black's chain.
    pos = play(new_game("hex", 3), "b1", "c1", "a2", "c2", "a3")
    assert pos.outcome == Outcome("black", Reason.CONNECTION)


def test_the_winning_chain_is_reported():
    pos = _column_a_game()
    assert [pos.grid.name(i) for i in pos.winning_chain()] == ["a1", "a2", "a3", "a4", "a5"]


def test_nothing_is_legal_after_a_win():
    pos = _column_a_game()
    assert (pos.to_move, pos.phase, pos.legal_actions()) == ([], "over", [])


def test_an_action_after_the_end_is_refused():
    pos = _column_a_game()
    with pytest.raises(GameOverError, match="black won by connection"):
        pos.play("c3")


def test_a_full_board_has_exactly_one_winner():
    rng = random.Random(5)
    for _ in range(20):
        pos = new_game("hex", 4)
        while pos.outcome is None:
            pos.play(rng.choice(pos.legal_actions()))
        g = pos.grid
        black = sum(1 << i for i in range(g.cells) if pos.piece_at(i) == "black")
        white = sum(1 << i for i in range(g.cells) if pos.piece_at(i) == "white")
        assert g.connects(black, True) != g.connects(white, False)


# -- swap (seat exchange) ---------------------------------------------------------------------
def test_swap_is_offered_only_on_whites_first_turn():
    pos = new_game("hex", 5, ["swap"])
    assert "swap" not in pos.legal_actions()
    pos.play("c2")
    assert "swap" in pos.legal_actions()
    pos.play("d4")
    assert "swap" not in pos.legal_actions()


def test_swap_exchanges_the_people_and_keeps_the_black_stone():
    pos = play(new_game("hex", 5, ["swap"]), "c2", "swap")
    assert pos.swapped
    assert pos.piece_at(cell(pos, "c2")) == "black"
    assert pos.colour_of_seat(0) == "white" and pos.colour_of_seat(1) == "black"


def test_after_swap_white_moves_next():
    pos = play(new_game("hex", 5, ["swap"]), "c2", "swap")
    assert pos.to_move == ["white"]
    pos.play("d2")
    assert pos.piece_at(cell(pos, "d2")) == "white" and pos.to_move == ["black"]


def test_swap_cannot_be_played_twice():
    pos = play(new_game("hex", 5, ["swap"]), "c2", "swap")
    with pytest.raises(IllegalActionError, match="White's first turn"):
        pos.play("swap")


def test_swap_before_the_first_stone_is_illegal():
    with pytest.raises(IllegalActionError, match="has not placed"):
        new_game("hex", 5, ["swap"]).play("swap")


def test_swap_without_the_variant_is_illegal():
    pos = play(new_game("hex", 5), "c2")
    with pytest.raises(IllegalActionError, match="without the swap rule"):
        pos.play("swap")
    assert pos.actions == ["c2"]


def test_swap_is_reported_with_the_swappers_new_colour_black():
    turn = play(new_game("hex", 5, ["swap"]), "c2", "swap").last_turn()
    assert (turn.player, turn.swapped, turn.placed) == ("black", True, ())


# -- swap-pieces -------------------------------------------------------------------------------
def test_swap_pieces_mirrors_the_first_stone_and_makes_it_white():
    pos = play(new_game("hex", 5, ["swap-pieces"]), "c1", "swap")
    assert pos.board_rows() == [".....", ".....", "W....", ".....", "....."]
    assert not pos.swapped


def test_after_swap_pieces_black_moves_next():
    pos = play(new_game("hex", 5, ["swap-pieces"]), "c1", "swap")
    assert pos.to_move == ["black"]


def test_after_swap_pieces_turns_keep_alternating():
    pos = play(new_game("hex", 5, ["swap-pieces"]), "c1", "swap", "c3")
    assert pos.to_move == ["white"]
    pos.play("d3")
    assert pos.piece_at(cell(pos, "d3")) == "white" and pos.to_move == ["black"]


def test_swap_pieces_on_the_long_diagonal_keeps_the_cell():
    pos = play(new_game("hex", 5, ["swap-pieces"]), "b2", "swap")
    assert pos.piece_at(cell(pos, "b2")) == "white"


def test_swap_pieces_is_reported_with_the_mirrored_stone():
    pos = play(new_game("hex", 5, ["swap-pieces"]), "c1", "swap")
    turn = pos.last_turn()
    assert (turn.player, turn.swapped, turn.placed) == ("white", True, (cell(pos, "a3"),))


def test_swap_pieces_is_offered_as_swap_once():
    pos = play(new_game("hex", 5, ["swap-pieces"]), "c1")
    assert pos.legal_actions().count("swap") == 1
    pos.play("swap")
    assert "swap" not in pos.legal_actions()


# -- reporting ------------------------------------------------------------------------------
def test_last_turn_is_none_before_the_first_stone():
    assert new_game("hex", 5).last_turn() is None


def test_last_turn_names_the_placed_stone():
    pos = play(new_game("hex", 5), "c2", "d4")
    turn = pos.last_turn()
    assert (turn.player, turn.placed, turn.swapped) == ("white", (cell(pos, "d4"),), False)


def test_board_rows_use_b_and_w():
    assert play(new_game("hex", 3), "a1", "c3").board_rows() == ["B..", "...", "..W"]


def test_the_json_has_the_cli_keys():
    data = play(new_game("hex", 3, ["swap"]), "b2").to_json()
    assert data == {
        "game": "hex", "size": 3, "variants": ["swap"], "to_move": ["white"], "phase": "place",
        "board": ["...", ".B.", "..."], "hands": None, "aside": None,
        "legal": sorted(["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3", "swap"]),
        "winner": None, "reason": None,
    }


def test_a_copy_is_independent():
    pos = play(new_game("hex", 5), "c2")
    other = pos.copy()
    other.play("d4")
    assert pos.actions == ["c2"] and pos.piece_at(cell(pos, "d4")) is None


def test_positions_reached_in_different_orders_are_equal():
    assert play(new_game("hex", 5), "a1", "b1", "c1", "d1") == play(new_game("hex", 5), "c1", "d1", "a1", "b1")


def test_a_record_replays_to_the_same_position():
    pos = play(new_game("hex", 5, ["swap"]), "c2", "swap", "d2", "b4")
    assert Record.of(pos).replay() == pos


def test_a_resignation_ends_the_game():
    pos = play(new_game("hex", 5), "c2")
    pos.finish(Outcome("black", Reason.RESIGNATION))
    assert pos.legal_actions() == [] and pos.describe_outcome() == "black won by resignation"


# -- internal integer API ------------------------------------------------------------------------
def test_empty_mask_lists_the_empty_cells():
    pos = play(new_game("hex", 3), "a1")
    assert pos._empty_mask() == grid(3).full & ~1


def test_push_cell_plays_like_play():
    pos = new_game("hex", 5)
    pos._push_cell(cell(pos, "c2"))
    assert pos == play(new_game("hex", 5), "c2") and pos.actions == ["c2"]


# -- fast random playout -------------------------------------------------------------------------
def test_random_playout_leaves_the_position_unchanged():
    pos = play(new_game("hex", 7), "d4")
    before = pos.copy()
    outcome = pos.random_playout(random.Random(1))
    assert outcome.reason is Reason.CONNECTION and outcome.winner in ("black", "white")
    assert pos == before and pos.actions == before.actions


def test_random_playout_of_a_finished_game_is_its_outcome():
    pos = _column_a_game()
    assert pos.random_playout(random.Random(1)) == pos.outcome


@pytest.mark.parametrize("variants", [(), ("swap",), ("swap-pieces",)])
def test_random_playout_log_replays_to_the_same_outcome(variants):
    rng = random.Random(7)
    for opening in ([], ["c3"], ["c3", "b2"]):
        for _ in range(30):
            pos = play(new_game("hex", 5, variants), *opening)
            log: list[str] = []
            outcome = pos.random_playout(rng, log)
            assert play(pos.copy(), *log).outcome == outcome


def test_random_playout_swaps_sometimes_when_swap_is_allowed():
    rng = random.Random(3)
    pos = play(new_game("hex", 3, ["swap"]), "b2")
    logs = []
    for _ in range(200):
        log: list[str] = []
        pos.random_playout(rng, log)
        logs.append(log[0] == "swap")
    # Random play swaps with probability 1/9 here (8 empty cells + swap).
    assert 5 <= sum(logs) <= 50


def test_random_playout_win_rate_matches_random_fills_exactly_enumerated():
    # On 3×3 random play fills 5 black and 4 white cells uniformly at random:
    # count the fills that Black wins.
    g = grid(3)
    fills = list(combinations(range(9), 5))
    black_wins = sum(g.connects(sum(1 << i for i in f), True) for f in fills)
    p = black_wins / len(fills)
    rng = random.Random(11)
    trials = 4000
    wins = sum(new_game("hex", 3).random_playout(rng).winner == "black" for _ in range(trials))
    sigma = (p * (1 - p) / trials) ** 0.5
    assert abs(wins / trials - p) < 4 * sigma


def test_hex_class_is_registered_as_hex():
    assert type(new_game("hex", 5)) is Hex
