"""The worked examples of the inpHeXion rule texts (seeds 000, 001, 003), each on a small board.

Boards are 5×5 and written row 1 (top) to row 5; ``W`` white, ``B`` black,
``N`` the neutral disc. White connects top–bottom, Black left–right.
"""

from __future__ import annotations

import pytest

from engine import IllegalActionError, Outcome, Reason, new_game
from engine.inphexion import InpHexion


def cells(pos, *names):
    return [pos.grid.parse(n) for n in names]


def at(pos, name):
    return pos.piece_at(pos.grid.parse(name))


# -- surround and relocate -------------------------------------------------------------------
# "White moves a black disc. White surrounds a black. White moves the black disc that is
# surrounded by white." Black c3 has white on five sides; White moves the black disc on d2
# to e1 and fills d2.
ONE_SURROUNDED = [
    ".....",
    "..WB.",
    ".WBW.",
    ".WW..",
    ".....",
]


def test_a_single_surrounded_disc_waits_to_be_relocated_by_the_mover():
    pos = InpHexion.from_board(ONE_SURROUNDED, "white")
    assert pos.play("d2 e1") == ["d2 e1"]
    assert (pos.phase, pos.to_move) == ("relocate", ["white"])
    assert pos.pending_relocations() == cells(pos, "c3")


def test_the_surrounded_disc_goes_to_the_empty_cell_the_mover_chooses():
    pos = InpHexion.from_board(ONE_SURROUNDED, "white")
    pos.play("d2 e1")
    assert pos.play("c3>a5") == ["c3>a5"]
    assert (at(pos, "c3"), at(pos, "a5")) == (None, "black")
    assert (pos.phase, pos.to_move) == ("move", ["black"])


def test_a_surrounded_disc_cannot_go_back_to_its_own_cell():
    pos = InpHexion.from_board(ONE_SURROUNDED, "white")
    pos.play("d2 e1")
    with pytest.raises(IllegalActionError, match="c3 was a starting cell"):
        pos.play("c3>c3")


def test_the_whole_turn_with_its_relocation_fits_on_one_line():
    pos = InpHexion.from_board(ONE_SURROUNDED, "white")
    assert pos.play("d2 e1 c3>a5") == ["d2 e1", "c3>a5"]
    assert pos.to_move == ["black"]


def test_one_surrounded_disc_may_be_relocated_by_naming_only_its_destination():
    pos = InpHexion.from_board(ONE_SURROUNDED, "white")
    assert pos.play("d2 e1 a5") == ["d2 e1", "c3>a5"]


# "Those 2 black discs are not moved": the pair c3–d3 is enclosed by white after White
# moves the black disc on e2 to e1, but each touches the other, so neither is surrounded.
ENCLOSED_PAIR = [
    ".....",
    "..WWB",
    ".WBBW",
    ".WWW.",
    ".....",
]


def test_a_pair_of_enclosed_discs_is_not_moved():
    pos = InpHexion.from_board(ENCLOSED_PAIR, "white")
    pos.play("e2 e1")
    assert (pos.phase, pos.to_move) == ("move", ["black"])
    assert (at(pos, "c3"), at(pos, "d3")) == ("black", "black")


# "If multiple isolated enemy discs are surrounded simultaneously, all of them must be
# moved to empty cells. Note that none of the starting cells can be used as destination
# cells." White moves the black disc on c3 to c4: black d2 and b3 are both surrounded.
TWO_SURROUNDED = [
    "...WW",
    ".WWBW",
    "WBBW.",
    "WW...",
    ".....",
]


def test_two_isolated_discs_surrounded_at_once_both_wait_for_relocation():
    pos = InpHexion.from_board(TWO_SURROUNDED, "white")
    pos.play("c3 c4")
    assert pos.pending_relocations() == cells(pos, "d2", "b3")


def test_two_surrounded_discs_are_both_relocated():
    pos = InpHexion.from_board(TWO_SURROUNDED, "white")
    assert pos.play("c3 c4 b3>a5 d2>e5") == ["c3 c4", "b3>a5", "d2>e5"]
    assert [at(pos, c) for c in ("b3", "d2", "a5", "e5")] == [None, None, "black", "black"]
    assert pos.to_move == ["black"]


def test_the_mover_relocates_several_discs_in_the_order_they_choose():
    pos = InpHexion.from_board(TWO_SURROUNDED, "white")
    pos.play("c3 c4")
    pos.play("b3>a5")
    assert (pos.phase, pos.pending_relocations()) == ("relocate", cells(pos, "d2"))
    pos.play("d2>e5")
    assert pos.phase == "move"


def test_a_relocated_disc_may_not_land_on_the_starting_cell_of_another():
    pos = InpHexion.from_board(TWO_SURROUNDED, "white")
    pos.play("c3 c4 d2>e5")
    with pytest.raises(IllegalActionError, match="d2 was a starting cell of a relocated disc this turn"):
        pos.play("b3>d2")


def test_a_relocated_disc_may_not_land_on_a_starting_cell_still_occupied():
    pos = InpHexion.from_board(TWO_SURROUNDED, "white")
    pos.play("c3 c4")
    with pytest.raises(IllegalActionError, match="b3 was a starting cell"):
        pos.play("d2>b3")


def test_the_starting_cells_are_not_offered_as_targets():
    pos = InpHexion.from_board(TWO_SURROUNDED, "white")
    pos.play("c3 c4 d2>e5")
    assert pos.grid.parse("d2") not in pos.relocation_targets()
    assert all(not a.endswith(">d2") for a in pos.legal_actions())


# "A disc is not moved when it is surrounded by opponents' discs as a result of his own
# move." Black moves the white disc on b2 to b1, which encloses Black's own a1.
OWN_MOVE_ENCLOSES = [
    "B....",
    "WW...",
    ".....",
    ".....",
    ".....",
]


def test_a_disc_surrounded_by_its_owners_own_move_is_not_moved():
    pos = InpHexion.from_board(OWN_MOVE_ENCLOSES, "black")
    pos.play("b2 b1")
    assert (pos.phase, pos.to_move, at(pos, "a1")) == ("move", ["white"], "black")


def test_a_disc_surrounded_by_its_owners_own_move_is_not_moved_on_the_next_turn_either():
    pos = InpHexion.from_board(OWN_MOVE_ENCLOSES, "black")
    pos.play("b2 b1")
    pos.play("b2 c2")
    assert (pos.phase, pos.to_move, at(pos, "a1")) == ("move", ["black"], "black")


# "If the moved opponent's disc that was surrounded by your discs got surrounded again, it
# is not moved a second time." White relocates black c3 into the corner a1, which white
# b1 and a2 already enclose.
LANDS_SURROUNDED = [
    ".W...",
    "W.WB.",
    ".WBW.",
    ".WW..",
    ".....",
]


def test_a_relocated_disc_landing_surrounded_is_not_moved_again():
    pos = InpHexion.from_board(LANDS_SURROUNDED, "white")
    pos.play("d2 e1 c3>a1")
    assert (pos.phase, pos.to_move, at(pos, "a1")) == ("move", ["black"], "black")


def test_a_relocated_disc_landing_surrounded_stays_on_later_turns():
    pos = InpHexion.from_board(LANDS_SURROUNDED, "white")
    pos.play("d2 e1 c3>a1")
    pos.play("d3 e3")
    pos.play("d3 d4")
    assert (pos.phase, pos.to_move, at(pos, "a1")) == ("move", ["black"], "black")


def test_a_disc_freed_and_surrounded_again_on_a_later_turn_is_relocated():
    pos = InpHexion.from_board(LANDS_SURROUNDED, "white")
    pos.play("d2 e1 c3>a1")
    pos.play("a2 a3")  # Black takes a2: a1 is free again
    pos.play("a2 b2")  # White takes a2 back: a1 is surrounded anew
    assert pos.pending_relocations() == cells(pos, "a1")


# -- end of the game --------------------------------------------------------------------------
# "Moving the enemy discs to an empty cell after surrounding them is mandatory; if you cannot
# move it you lose the game." Found in random play: Black moves the white disc on a2 to a1,
# which surrounds both a1 and b2, and only d1 is left empty.
NO_ROOM = [
    ".BB.B",
    "WWBWW",
    "BBWWB",
    "WBWWB",
    "WBWWB",
]


def test_the_mover_loses_when_there_is_no_room_to_relocate():
    pos = InpHexion.from_board(NO_ROOM, "black")
    pos.play("a2 a1")
    assert pos.outcome == Outcome("white", Reason.CANNOT_RELOCATE)
    assert (pos.phase, pos.to_move, pos.legal_actions()) == ("over", [], [])


# "Note that you lose if you happen to complete your opponents' connection with your own
# move." White's column c has a gap at c3; Black moves the white disc on d3 into it.
GAP_IN_WHITES_COLUMN = [
    "..W..",
    "..W..",
    "...W.",
    "..W..",
    "..W..",
]


def test_moving_an_enemy_disc_into_its_own_chain_loses():
    pos = InpHexion.from_board(GAP_IN_WHITES_COLUMN, "black")
    pos.play("d3 c3")
    assert pos.outcome == Outcome("white", Reason.CONNECTION)
    assert [pos.grid.name(i) for i in pos.winning_chain()] == ["c1", "c2", "c3", "c4", "c5"]


# The same through a relocation: Black surrounds white a1 and relocates it into c3.
RELOCATION_INTO_THE_GAP = [
    "WWW..",
    "B.W..",
    ".....",
    "..W..",
    "..W..",
]


def test_relocating_an_enemy_disc_into_its_own_chain_loses():
    pos = InpHexion.from_board(RELOCATION_INTO_THE_GAP, "black")
    pos.play("b1 b2")
    assert pos.pending_relocations() == cells(pos, "a1")
    pos.play("a1>c3")
    assert pos.outcome == Outcome("white", Reason.CONNECTION)


def test_completing_the_opponents_chain_mid_turn_ends_the_game_at_once():
    pos = InpHexion.from_board(RELOCATION_INTO_THE_GAP, "black")
    assert pos.play("b1 b2 a1>c3") == ["b1 b2", "a1>c3"]
    assert pos.outcome == Outcome("white", Reason.CONNECTION)


# White's column d lacks only d1, where a black disc stands; moving it to e1 fills d1 and
# also surrounds it in the corner, but the win comes first and nothing is relocated.
WHITE_NEEDS_D1 = [
    "...B.",
    "...WW",
    "...W.",
    "...W.",
    "...W.",
]


def test_connecting_your_own_sides_wins_at_once_without_relocating():
    pos = InpHexion.from_board(WHITE_NEEDS_D1, "white")
    pos.play("d1 e1")
    assert pos.outcome == Outcome("white", Reason.CONNECTION)
    assert (pos.phase, pos.pending_relocations(), at(pos, "e1")) == ("over", [], "black")


# "The player who has no legal moves left loses." After White moves the black disc on a1 to
# b1, White's only disc a1 has no empty neighbour, so Black cannot move anything.
CORNERED = [
    "B....",
    "B....",
    ".....",
    ".....",
    ".....",
]


def test_a_player_without_a_legal_move_loses():
    pos = InpHexion.from_board(CORNERED, "white")
    pos.play("a1 b1")
    assert pos.outcome == Outcome("white", Reason.NO_LEGAL_MOVE)


def test_a_player_without_discs_in_hand_loses():
    pos = InpHexion.from_board(ONE_SURROUNDED, "black", hands={"white": 0})
    pos.play("c2 c1")
    assert pos.outcome == Outcome("black", Reason.NO_LEGAL_MOVE)


# -- variants -------------------------------------------------------------------------------------
def test_with_the_neutral_disc_white_first_moves_it_off_the_centre():
    pos = new_game("inphexion", 7, ["neutral"])
    assert (pos.phase, pos.to_move, at(pos, "d4")) == ("move", ["white"], "neutral")
    assert pos.legal_actions() == ["d4 c4", "d4 c5", "d4 d3", "d4 d5", "d4 e3", "d4 e4"]
    pos.play("d4 c4")
    assert (at(pos, "d4"), at(pos, "c4")) == ("white", "neutral")
    assert pos.hands() == {"white": 23, "black": 24}


def test_black_may_move_the_neutral_disc_too():
    pos = new_game("inphexion", 7, ["neutral"])
    pos.play("d4 c4")
    pos.play("c4 b4")
    assert (at(pos, "c4"), at(pos, "b4")) == ("black", "neutral")


NEUTRAL_IN_A_CORNER = [
    "NB...",
    "W....",
    ".....",
    ".....",
    ".....",
]


def test_a_surrounded_neutral_disc_is_relocated():
    pos = InpHexion.from_board(NEUTRAL_IN_A_CORNER, "white", variants=["neutral"])
    pos.play("b1 b2")
    assert pos.pending_relocations() == cells(pos, "a1")
    pos.play("a1>e5")
    assert at(pos, "e5") == "neutral"


def test_the_neutral_disc_is_no_wall_for_the_mover():
    board = ["BB...", "N....", ".....", ".....", "....."]
    pos = InpHexion.from_board(board, "white", variants=["neutral"])
    pos.play("b1 b2")
    assert (pos.phase, at(pos, "a1")) == ("move", "black")


def test_the_neutral_disc_never_counts_for_a_connection():
    board = ["..W..", "..W..", "..N..", "..W..", "..W.."]
    pos = InpHexion.from_board(board, "black", variants=["neutral"])
    assert pos.outcome is None


def test_moving_the_neutral_disc_out_of_a_chain_can_win():
    board = ["..W..", "..W..", "..N..", "..W..", "..W.."]
    pos = InpHexion.from_board(board, "white", variants=["neutral"])
    pos.play("c3 d3")
    assert pos.outcome == Outcome("white", Reason.CONNECTION)


def test_with_the_pie_rule_black_may_swap_after_whites_first_disc():
    pos = new_game("inphexion", 7, ["pie"])
    pos.play("d4")
    assert "swap" in pos.legal_actions()
    assert pos.play("swap") == ["swap"]
    assert (pos.swapped, pos.to_move, at(pos, "d4")) == (True, ["black"], "white")
    assert pos.colour_of_seat(0) == "black"


def test_after_a_swap_black_makes_the_first_move_and_cannot_swap_again():
    pos = new_game("inphexion", 7, ["pie"])
    pos.play("d4")
    pos.play("swap")
    assert "swap" not in pos.legal_actions()
    with pytest.raises(IllegalActionError, match="no second swap"):
        pos.play("swap")
    pos.play("d4 d5")
    assert pos.to_move == ["white"]


def test_with_free_reply_black_may_place_a_disc_on_any_empty_cell():
    pos = new_game("inphexion", 7, ["free-reply"])
    pos.play("d4")
    assert pos.play("a1") == ["a1"]
    assert (at(pos, "a1"), pos.hands(), pos.to_move) == ("black", {"white": 24, "black": 24}, ["white"])


def test_free_reply_is_only_for_blacks_first_turn():
    pos = new_game("inphexion", 7, ["free-reply"])
    pos.play("d4")
    pos.play("a1")
    with pytest.raises(IllegalActionError, match="only for Black's first turn"):
        pos.play("g7")


def test_free_reply_is_still_offered_after_a_swap():
    pos = new_game("inphexion", 7, ["free-reply", "pie"])
    pos.play("d4")
    pos.play("swap")
    assert pos.play("a1") == ["a1"]
