"""inpHeXion rules (RULES.md §2, §5, §6): start, notation, errors, atomicity, records, internal API."""

from __future__ import annotations

import json
import random

import pytest

from engine import (
    GameOverError,
    IllegalActionError,
    LastTurn,
    NotationError,
    OptionsError,
    Outcome,
    Reason,
    Record,
    WrongTurnError,
    new_game,
)
from engine.inphexion import RELOCATE, SWAP_STEP, InpHexion

# Black c3 is surrounded once White moves the black disc on d2 to e1 (see the examples).
ONE_SURROUNDED = [".....", "..WB.", ".WBW.", ".WW..", "....."]
# Black d2 and b3 are both surrounded once White moves the black disc on c3 to c4.
TWO_SURROUNDED = ["...WW", ".WWBW", "WBBW.", "WW...", "....."]


def play(pos, *lines):
    for line in lines:
        pos.play(line)
    return pos


def at(pos, name):
    return pos.piece_at(pos.grid.parse(name))


def relocating_one():
    return play(InpHexion.from_board(ONE_SURROUNDED, "white"), "d2 e1")


def relocating_two():
    return play(InpHexion.from_board(TWO_SURROUNDED, "white"), "c3 c4")


# -- start and options ------------------------------------------------------------------------
def test_white_places_first_on_an_empty_board():
    pos = new_game("inphexion")
    assert (pos.size, pos.to_move, pos.phase, pos.actions, pos.outcome) == (7, ["white"], "place", [], None)


def test_every_cell_is_a_legal_opening():
    assert len(new_game("inphexion", 7).legal_actions()) == 49


@pytest.mark.parametrize(("size", "discs"), [(5, 13), (7, 25), (9, 41), (11, 61)])
def test_each_player_holds_half_the_board_rounded_up(size, discs):
    assert new_game("inphexion", size).hands() == {"white": discs, "black": discs}


def test_the_neutral_disc_takes_one_disc_from_each_hand():
    assert new_game("inphexion", 7, ["neutral"]).hands() == {"white": 24, "black": 24}


@pytest.mark.parametrize("size", [3, 6, 8, 13])
def test_only_odd_sizes_5_to_11_are_offered(size):
    with pytest.raises(OptionsError, match="5, 7, 9, 11"):
        new_game("inphexion", size)


def test_an_unknown_variant_is_refused():
    with pytest.raises(OptionsError, match="no variant 'swap'"):
        new_game("inphexion", 7, ["swap"])


def test_inphexion_is_registered_under_its_cli_name():
    assert type(new_game("inphexion")) is InpHexion


def test_placing_uses_a_disc_from_the_hand():
    pos = play(new_game("inphexion", 7), "d4")
    assert (at(pos, "d4"), pos.to_move, pos.phase) == ("white", ["black"], "move")
    assert pos.hands() == {"white": 24, "black": 25}


def test_a_move_shifts_the_enemy_disc_and_fills_the_cell_it_left():
    pos = play(new_game("inphexion", 7), "d4", "d4 e4")
    assert (at(pos, "d4"), at(pos, "e4"), pos.hands()) == ("black", "white", {"white": 24, "black": 24})


def test_legal_moves_are_every_enemy_disc_to_every_empty_neighbour():
    pos = play(new_game("inphexion", 7), "a1")
    assert pos.legal_actions() == ["a1 a2", "a1 b1"]


def test_legal_actions_are_sorted():
    pos = play(new_game("inphexion", 7, ["free-reply", "pie"]), "d4")
    legal = pos.legal_actions()
    assert legal == sorted(legal) and "swap" in legal and "a1" in legal and "d4 e4" in legal


def test_legal_actions_of_the_player_not_to_move_are_empty():
    assert new_game("inphexion").legal_actions("black") == []


def test_relocation_actions_pair_every_waiting_disc_with_every_allowed_cell():
    pos = relocating_two()
    targets = len(pos.relocation_targets())
    assert len(pos.legal_actions()) == 2 * targets
    assert all(">" in a for a in pos.legal_actions())


def test_relocation_targets_are_the_empty_cells():
    pos = relocating_one()
    empty = [i for i in range(pos.grid.cells) if pos.piece_at(i) is None]
    assert pos.relocation_targets() == empty


def test_outside_a_relocation_nothing_is_pending():
    pos = new_game("inphexion")
    assert (pos.pending_relocations(), pos.relocation_targets()) == ([], [])


def test_discs_lists_the_cells_of_a_colour():
    pos = new_game("inphexion", 7, ["neutral"])
    assert (pos.discs("neutral"), pos.discs("white")) == ([pos.grid.parse("d4")], [])


# -- notation forgiveness ----------------------------------------------------------------------
@pytest.mark.parametrize("text", ["MOVE D4-E4", "  d4   e4 ", "d4 - e4", "D4 E4", "move d4 e4"])
def test_moves_are_read_forgivingly(text):
    pos = play(new_game("inphexion", 7), "d4")
    assert pos.play(text) == ["d4 e4"]


@pytest.mark.parametrize("text", ["c3>a5", "C3 > A5", " c3>  a5", "move c3>a5"])
def test_relocations_are_read_forgivingly(text):
    assert relocating_one().play(text) == ["c3>a5"]


def test_a_bare_cell_relocates_the_only_waiting_disc():
    assert relocating_one().play("a5") == ["c3>a5"]


def test_a_whole_turn_in_one_line_records_each_action():
    pos = InpHexion.from_board(TWO_SURROUNDED, "white")
    assert pos.play("c3-c4 b3 > a5 d2>e5") == ["c3 c4", "b3>a5", "d2>e5"]
    assert pos.actions == ["c3 c4", "b3>a5", "d2>e5"]


def test_the_destination_alone_may_follow_a_move_that_surrounds_one_disc():
    pos = InpHexion.from_board(ONE_SURROUNDED, "white")
    assert pos.play("d2 e1 a5") == ["d2 e1", "c3>a5"]


# -- not notation -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["hello", "zz99", "c4 hello", "c4>", ">e7", "b2>e7>f1", "4c", "", "   ", "c4 d4 !"])
def test_text_that_is_not_notation_raises_notation_error(text):
    with pytest.raises(NotationError):
        new_game("inphexion").play(text)


def test_an_off_board_cell_is_a_notation_error_naming_the_board():
    with pytest.raises(NotationError, match="off the board: cells go from a1 to g7"):
        new_game("inphexion").play("h1")


def test_an_unknown_word_says_what_actions_look_like():
    with pytest.raises(NotationError, match="'hello' is not an inpHeXion action: write a move such as c4 d4"):
        new_game("inphexion").play("hello")


# -- not legal now ---------------------------------------------------------------------------------
def refused(pos, text, match):
    with pytest.raises(IllegalActionError, match=match):
        pos.play(text)


def test_moving_from_an_empty_cell_is_refused():
    refused(play(new_game("inphexion"), "d4"), "c4 c5", "c4 is empty — pick an enemy disc to move")


def test_moving_your_own_disc_is_refused():
    pos = play(new_game("inphexion"), "d4", "d4 e4")
    refused(pos, "e4 f4", "e4 holds your own disc — you move one of your opponent's discs")


def test_moving_to_a_cell_that_is_not_next_is_refused():
    refused(play(new_game("inphexion"), "d4"), "d4 f4", "f4 is not next to d4")


def test_moving_onto_a_taken_cell_is_refused():
    pos = InpHexion.from_board(ONE_SURROUNDED, "white")
    refused(pos, "c3 d3", "d3 is taken")


def test_moving_a_disc_onto_itself_is_refused():
    refused(play(new_game("inphexion"), "d4"), "d4 d4", "must move to an empty cell next to d4")


def test_placing_on_a_taken_cell_is_refused():
    refused(play(new_game("inphexion", 7, ["free-reply"]), "d4"), "d4", "d4 is taken")


def test_a_placement_outside_the_first_turns_is_refused():
    refused(play(new_game("inphexion"), "d4"), "e5", "a turn moves an enemy disc .* write both cells")


def test_a_move_on_whites_opening_turn_is_refused():
    refused(new_game("inphexion"), "d4 d5", "White's first turn places one disc")


def test_swap_without_the_pie_rule_is_refused():
    refused(play(new_game("inphexion"), "d4"), "swap", "swap is only allowed on Black's first turn with the pie rule")


def test_swap_after_blacks_first_turn_is_refused():
    refused(play(new_game("inphexion", 7, ["pie"]), "d4", "d4 d5"), "swap", "only allowed on Black's first turn")


def test_swap_on_whites_opening_is_refused():
    refused(new_game("inphexion", 7, ["pie"]), "swap", "only allowed on Black's first turn")


def test_swap_followed_by_a_move_on_one_line_is_refused():
    refused(play(new_game("inphexion", 7, ["pie"]), "d4"), "swap d4 d5", "swap is a turn of its own")


def test_relocating_when_nothing_is_surrounded_is_refused():
    refused(play(new_game("inphexion"), "d4"), "d4>a1", "there is no disc to relocate")


def test_relocating_a_disc_that_is_not_waiting_is_refused():
    refused(relocating_one(), "b3>a5", r"b3 is not waiting to be relocated \(relocate c3\)")


def test_relocating_onto_a_taken_cell_is_refused():
    refused(relocating_one(), "c3>b3", "b3 is taken")


def test_moving_before_the_relocation_is_made_is_refused():
    refused(relocating_one(), "c2 c1", r"the turn is not finished: relocate c3 first \(e.g. c3>")


def test_swap_before_the_relocation_is_made_is_refused():
    refused(relocating_one(), "swap", "the turn is not finished")


def test_a_bare_destination_with_two_waiting_discs_asks_where_each_goes():
    refused(relocating_two(), "a5", r"two discs are surrounded \(d2, b3\): say where each goes, e\.g\. d2>\w+ b3>\w+")


def test_the_shorthand_with_two_surrounded_discs_asks_where_each_goes():
    pos = InpHexion.from_board(TWO_SURROUNDED, "white")
    refused(pos, "c3 c4 a5", "two discs are surrounded")


def test_two_bare_destinations_with_two_waiting_discs_ask_where_each_goes():
    refused(relocating_two(), "a5 e5", r"two discs are surrounded \(d2, b3\): say where each goes, e\.g\. d2>\w+ b3>\w+")


def test_two_bare_cells_with_one_waiting_disc_say_how_to_relocate_it_and_to_leave_out_the_extra():
    refused(relocating_one(), "a5 b5", r"one disc is surrounded \(c3\): relocate it with c3>a5 and leave out b5$")


def test_a_whole_turn_with_bare_destinations_for_two_surrounded_discs_asks_where_each_goes():
    pos = InpHexion.from_board(TWO_SURROUNDED, "white")
    refused(pos, "c3 c4 a5 e5", r"two discs are surrounded \(d2, b3\): say where each goes")
    assert pos.phase == "move" and pos.actions == []


def test_a_destination_after_a_move_that_surrounds_nothing_is_refused():
    pos = play(new_game("inphexion"), "d4")
    refused(pos, "d4 e4 a1", r"the turn ended after d4 e4 \(no disc was surrounded\): leave out a1")


def test_two_turns_on_one_line_are_refused():
    refused(play(new_game("inphexion"), "d4"), "d4 e4 e4 f4", "the turn ended after d4 e4")


def test_actions_after_the_game_ended_in_the_same_line_are_refused():
    pos = InpHexion.from_board(["WWW..", "B.W..", ".....", "..W..", "..W.."], "black")
    with pytest.raises(GameOverError, match="the game ended after a1>c3 .white won by connection.: leave out"):
        pos.play("b1 b2 a1>c3 e5 e4")


def test_playing_after_the_game_is_over_is_refused():
    pos = InpHexion.from_board(["..W..", "..W..", "...W.", "..W..", "..W.."], "black")
    pos.play("d3 c3")
    with pytest.raises(GameOverError, match="white won by connection"):
        pos.play("c3 b3")


def test_playing_out_of_turn_is_refused():
    with pytest.raises(WrongTurnError, match="white's turn, not black's"):
        new_game("inphexion").play("d4", "black")


def test_the_mover_keeps_the_turn_through_a_relocation():
    pos = relocating_one()
    with pytest.raises(WrongTurnError):
        pos.play("c3>a5", "black")
    assert pos.play("c3>a5", "white") == ["c3>a5"]


# -- atomicity ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "line", ["c3 c4 b3>a5 d2>b3", "c3 c4 b3>a5 d2>b2", "c3 c4 b3>a5 d2>zz", "c3 c4 a5", "c3 c4 b3>a5 swap"]
)
def test_a_refused_line_changes_nothing(line):
    pos = InpHexion.from_board(TWO_SURROUNDED, "white")
    before = pos.copy()
    with pytest.raises((NotationError, IllegalActionError)):
        pos.play(line)
    assert pos == before and pos.actions == before.actions and pos.phase == "move"


def test_a_copy_is_independent():
    pos = play(new_game("inphexion"), "d4")
    other = pos.copy()
    other.play("d4 e4")
    assert (pos.actions, at(pos, "e4"), pos.hands()["black"]) == (["d4"], None, 25)


# -- last turn ---------------------------------------------------------------------------------------
def test_there_is_no_last_turn_before_the_first_action():
    assert new_game("inphexion").last_turn() is None


def test_the_last_turn_of_a_placement_names_the_disc():
    pos = play(new_game("inphexion"), "d4")
    assert pos.last_turn() == LastTurn("white", placed=(pos.grid.parse("d4"),), text="d4")


def test_the_last_turn_of_a_move_names_the_placed_and_moved_discs():
    pos = play(new_game("inphexion"), "d4", "d4 e4")
    d4, e4 = pos.grid.parse("d4"), pos.grid.parse("e4")
    assert pos.last_turn() == LastTurn("black", placed=(d4,), moved=((d4, e4),), text="d4 e4")


def test_the_last_turn_shows_relocations_made_and_pending():
    pos = play(relocating_two(), "b3>a5")
    g = pos.grid
    last = pos.last_turn()
    assert (last.player, last.relocated, last.pending) == ("white", ((g.parse("b3"), g.parse("a5")),), (g.parse("d2"),))
    assert last.text == "c3 c4 b3>a5"


def test_the_last_turn_of_a_swap_says_so_and_names_the_swappers_new_colour():
    pos = play(new_game("inphexion", 7, ["pie"]), "d4", "swap")
    assert pos.last_turn() == LastTurn("white", swapped=True, text="swap")


def test_the_last_turn_text_is_the_whole_turn():
    pos = play(new_game("inphexion", 7, ["pie"]), "d4", "d4 d5")
    assert pos.last_turn().text == "d4 d5"


# -- records and JSON -----------------------------------------------------------------------------
def random_game(variants=(), size=7, seed=1, steps=400):
    pos = new_game("inphexion", size, variants)
    rng = random.Random(seed)
    for _ in range(steps):
        if pos.outcome is not None:
            break
        pos.play(rng.choice(pos.legal_actions()))
    return pos


@pytest.mark.parametrize("variants", [(), ("neutral",), ("free-reply", "pie")])
def test_a_record_replays_to_an_equal_position(variants):
    pos = random_game(variants)
    assert pos.outcome is not None
    assert Record.of(pos).replay() == pos


def test_a_record_replays_through_its_text_form():
    pos = random_game(("neutral", "pie"), seed=4)
    record = Record.of(pos)
    again = Record.from_text(record.to_text())
    assert again == record and again.replay() == pos


def test_a_relocation_in_progress_replays():
    rng = random.Random(3)
    pos = new_game("inphexion", 5)
    while pos.phase != "relocate":
        if pos.outcome is not None:
            pos = new_game("inphexion", 5)
        pos.play(rng.choice(pos.legal_actions()))
    assert Record.of(pos).replay() == pos


def test_the_json_form_describes_the_position():
    pos = relocating_one()
    data = json.loads(json.dumps(pos.to_json()))
    assert data["game"] == "inphexion" and data["phase"] == "relocate" and data["to_move"] == ["white"]
    assert data["board"][1] == "..WW." and data["hands"] == pos.hands()
    assert data["legal"] == pos.legal_actions() and data["winner"] is None


def test_the_json_form_of_a_finished_game_names_the_winner():
    pos = InpHexion.from_board(["..W..", "..W..", "...W.", "..W..", "..W.."], "black")
    pos.play("d3 c3")
    data = pos.to_json()
    assert (data["phase"], data["winner"], data["reason"], data["legal"]) == ("over", "white", "connection", [])


# -- from_board --------------------------------------------------------------------------------------
def test_from_board_counts_hands_from_the_discs_on_the_board():
    pos = InpHexion.from_board(ONE_SURROUNDED, "white")
    assert pos.hands() == {"white": 13 - 5, "black": 13 - 2}


def test_from_board_ignores_spaces_in_rows():
    pos = InpHexion.from_board([". . . . .", ". . W B .", ". W B W .", ". W W . .", ". . . . ."], "white")
    assert pos == InpHexion.from_board(ONE_SURROUNDED, "white")


def test_from_board_refuses_a_neutral_disc_without_the_variant():
    with pytest.raises(ValueError, match="neutral"):
        InpHexion.from_board(["N....", ".....", ".....", ".....", "....."])


def test_from_board_refuses_ragged_rows():
    with pytest.raises(ValueError, match="5 cells"):
        InpHexion.from_board(["....", ".....", ".....", ".....", "....."])


def test_from_board_settles_a_board_that_already_connects():
    pos = InpHexion.from_board(["..W..", "..W..", "..W..", "..W..", "..W.."], "black")
    assert pos.outcome == Outcome("white", Reason.CONNECTION)


def test_from_board_of_an_empty_board_is_whites_opening():
    pos = InpHexion.from_board(["....."] * 5)
    assert pos == new_game("inphexion", 5)


# -- the fast random game and the internal API ----------------------------------------------
def test_random_playout_leaves_the_position_unchanged():
    pos = play(new_game("inphexion", 7), "d4")
    before = pos.copy()
    outcome = pos.random_playout(random.Random(1))
    assert outcome.winner in ("white", "black")
    assert pos == before and pos.actions == before.actions


def test_random_playout_of_a_finished_game_is_its_outcome():
    pos = random_game()
    assert pos.random_playout(random.Random(1)) == pos.outcome


@pytest.mark.parametrize("variants", [(), ("neutral",), ("free-reply", "pie"), ("free-reply", "neutral", "pie")])
def test_random_playout_log_replays_to_the_same_outcome(variants):
    rng = random.Random(7)
    for _ in range(40):
        pos = new_game("inphexion", 5, variants)
        log: list[str] = []
        outcome = pos.random_playout(rng, log)
        assert play(pos.copy(), *log).outcome == outcome


def test_random_playout_finishes_a_relocation_in_progress():
    pos = relocating_two()
    log: list[str] = []
    outcome = pos.random_playout(random.Random(2), log)
    assert log[0].startswith(("d2>", "b3>")) and play(pos.copy(), *log).outcome == outcome


def test_the_internal_steps_name_the_legal_actions():
    pos = play(new_game("inphexion", 7, ["free-reply", "pie"]), "d4")
    assert sorted(pos._move_text(m) for m in pos._legal_moves()) == pos.legal_actions()


def test_pushing_a_step_is_playing_its_text():
    pos = relocating_two()
    for step in pos._legal_moves()[:20]:
        pushed = pos.copy()
        pushed._push(step)
        assert pushed == play(pos.copy(), pos._move_text(step))


def test_steps_encode_moves_placements_relocations_and_swap():
    pos = new_game("inphexion", 7)
    d4, e4 = pos.grid.parse("d4"), pos.grid.parse("e4")
    assert pos._move_text(d4 << 7 | e4) == "d4 e4"
    assert pos._move_text(d4 << 7 | d4) == "d4"
    assert pos._move_text(RELOCATE | d4 << 7 | e4) == "d4>e4"
    assert pos._move_text(SWAP_STEP) == "swap"
