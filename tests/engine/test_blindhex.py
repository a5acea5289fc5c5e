"""Blind Hex rules (RULES.md §4): the board, set-up, secret choices, writing, step 3, winning."""

from __future__ import annotations

import random

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
from engine.blindhex import BlindHex
from engine.blindhex_board import MATCH_MASK, MATCHES, NUMBERS
from engine.geometry import bits, grid

G = grid(11)

# The printed board (boards/blind-hex-11.txt): numbered cells sit on odd rows and odd columns.
PRINTED = [
    "5.1.3.4.2.5", "...........", "2.5.1.3.4.2", "...........", "4.2.5.1.3.4", "...........",
    "3.4.2.5.1.3", "...........", "1.3.4.2.5.1", "...........", "5.1.3.4.2.5",
]


def c(name: str) -> int:
    return G.parse(name)


def play(pos, *actions, player=None):
    for a in actions:
        pos.play(a, player)
    return pos


def game(first: str = "x") -> BlindHex:
    return new_game("blindhex", first=first)


def chosen(x: str, o: str, first: str = "x") -> BlindHex:
    """After the cut loser set 4+5 aside and both chose (x then o)."""
    return play(game(first), "aside 4+5", f"x:{x}", f"o:{o}")


def with_letters(pos: BlindHex, x: list[str] = (), o: list[str] = ()) -> BlindHex:
    """Put letters on the board directly, to set up a late-game situation."""
    pos._marks["x"] |= sum(1 << c(n) for n in x)
    pos._marks["o"] |= sum(1 << c(n) for n in o)
    return pos


# -- the board ---------------------------------------------------------------------------
def test_the_board_numbers_are_those_printed():
    shown = ["".join(str(NUMBERS[r * 11 + col] or ".") for col in range(11)) for r in range(11)]
    assert shown == PRINTED


def test_every_plain_cell_touches_exactly_two_numbered_cells():
    for i in range(121):
        if not NUMBERS[i]:
            assert sum(1 for j in G.neighbours[i] if NUMBERS[j]) == 2, G.name(i)


def test_a_numbered_cell_matches_only_its_number():
    pos = game()
    assert (pos.cell_number(c("e5")), pos.cell_matches(c("e5"))) == (5, (5,))


def test_a_plain_cell_matches_the_numbers_next_to_it():
    pos = game()
    assert (pos.cell_number(c("f5")), pos.cell_matches(c("f5"))) == (0, (1, 5))


def test_matching_cells_are_the_numbered_cells_and_their_plain_neighbours():
    expected = {i for i in range(121) if NUMBERS[i] == 3} | {
        i for i in range(121) if not NUMBERS[i] and any(NUMBERS[j] == 3 for j in G.neighbours[i])
    }
    assert set(game().matching_cells(3)) == expected


# -- options -------------------------------------------------------------------------------
def test_the_cut_winner_defaults_to_x():
    assert new_game("blindhex").options.first == "x"


def test_the_cut_winner_may_be_o():
    assert game("o").to_move == ["x"]


def test_a_cut_winner_other_than_x_or_o_is_refused():
    with pytest.raises(OptionsError, match="x or o"):
        new_game("blindhex", first="black")


def test_only_the_11_board_is_offered():
    with pytest.raises(OptionsError):
        new_game("blindhex", 9)


def test_another_size_is_refused_naming_the_only_board():
    with pytest.raises(OptionsError, match="^Blind Hex is played only on 11×11, not 9×9$"):
        new_game("blindhex", 9)


def test_blind_hex_has_no_variants():
    with pytest.raises(OptionsError):
        new_game("blindhex", variants=["swap"])


# -- set-up: the cut loser sets two cards aside ------------------------------------------------
def test_the_cut_loser_sets_cards_aside_first():
    pos = game("x")
    assert (pos.phase, pos.to_move) == ("aside", ["o"])


def test_both_start_with_cards_1_to_5_and_nothing_aside():
    pos = game()
    assert pos.hands() == {"o": [1, 2, 3, 4, 5], "x": [1, 2, 3, 4, 5]}
    assert pos.aside() == {"o": [], "x": []}


def test_any_two_cards_may_be_set_aside():
    assert len(game().legal_actions()) == 10


@pytest.mark.parametrize("text", ["aside 5+4", "aside 5 4", "aside 5, 4", "ASIDE 4 + 5", "aside 4+5"])
def test_aside_input_is_forgiving_and_recorded_lower_first(text):
    assert game().play(text) == ["aside 4+5"]


def test_a_bare_pair_in_the_aside_phase_is_the_aside():
    assert game().play("5+4", "o") == ["aside 4+5"]


def test_cards_set_aside_leave_the_hand():
    pos = play(game(), "aside 4+5")
    assert pos.hands()["o"] == [1, 2, 3] and pos.aside()["o"] == [4, 5]


def test_the_cut_winner_cannot_set_cards_aside():
    with pytest.raises(WrongTurnError):
        game().play("aside 4+5", "x")


def test_setting_aside_later_is_illegal():
    pos = play(game(), "aside 4+5")
    with pytest.raises(IllegalActionError, match="only at the start"):
        pos.play("aside 1+2")


def test_choosing_before_the_aside_is_illegal():
    with pytest.raises(IllegalActionError, match=r"sets two cards aside, such as aside 1\+2"):
        game().play("x:1+2")


# -- step 1: secret choices ---------------------------------------------------------------------
def test_both_players_choose_at_once():
    pos = play(game(), "aside 4+5")
    assert (pos.phase, pos.to_move) == ("choose", ["o", "x"])


def test_legal_choices_list_both_players_pairs():
    legal = play(game(), "aside 4+5").legal_actions()
    assert len(legal) == 3 + 10 and "o:1+3" in legal and "x:4+5" in legal and "o:4+5" not in legal


@pytest.mark.parametrize("text", ["x:1+4", "X: 4 + 1", "x:4 1", "x:4, 1", "x : a+4"])
def test_choice_input_is_forgiving_and_recorded_lower_first(text):
    assert play(game(), "aside 4+5").play(text) == ["x:1+4"]


def test_a_bare_pair_is_the_given_players_choice():
    assert play(game(), "aside 4+5").play("4+1", "x") == ["x:1+4"]


def test_a_bare_pair_without_a_player_is_ambiguous_while_both_choose():
    with pytest.raises(NotationError, match="whose cards"):
        play(game(), "aside 4+5").play("1+4")


def test_a_bare_pair_without_a_player_is_the_last_choosers_once_one_has_chosen():
    assert play(game(), "aside 4+5", "x:1+4").play("1+2") == ["o:1+2"]


def test_a_choice_for_the_other_player_is_refused():
    with pytest.raises(WrongTurnError, match="you play x"):
        play(game(), "aside 4+5").play("o:1+2", "x")


def test_a_choice_is_locked_once_made():
    pos = play(game(), "aside 4+5", "x:1+4")
    with pytest.raises(WrongTurnError, match="already chosen"):
        pos.play("x:2+3")
    assert pos.secret_choice("x") == (1, 4)


def test_a_card_not_in_hand_is_refused():
    pos = play(game(), "aside 4+5")
    with pytest.raises(IllegalActionError, match="o does not hold 4"):
        pos.play("o:1+4")


def test_the_same_card_twice_is_refused():
    with pytest.raises(IllegalActionError, match="two different cards"):
        play(game(), "aside 4+5").play("x:2+2")


@pytest.mark.parametrize("text", ["x:1+6", "x:0+1", "aside 4+9"])
def test_a_number_that_is_not_a_card_is_a_notation_error(text):
    pos = play(game(), "aside 4+5") if text.startswith("x") else game()
    with pytest.raises(NotationError, match="not a card"):
        pos.play(text)


def test_an_unknown_player_prefix_is_a_notation_error():
    with pytest.raises(NotationError, match="not a player"):
        play(game(), "aside 4+5").play("z:1+2")


def test_writing_before_the_reveal_is_illegal():
    with pytest.raises(IllegalActionError, match="once the cards are revealed"):
        play(game(), "aside 4+5").play("e5")


# -- secrecy ------------------------------------------------------------------------------------
def _public(pos):
    data = pos.to_json()
    return data["hands"], data["aside"], data["board"], pos.last_turn(), pos.legal_actions("o"), pos.revealed()


def test_nothing_public_shows_a_choice_before_both_have_chosen():
    before = play(game(), "aside 4+5")
    after = play(before.copy(), "x:1+4")
    assert _public(after) == _public(before)


def test_only_to_move_shows_that_someone_has_chosen():
    pos = play(game(), "aside 4+5", "x:1+4")
    assert pos.to_move == ["o"] and pos.legal_actions() == ["o:1+2", "o:1+3", "o:2+3"]


def test_the_chosen_cards_stay_in_hand_until_revealed():
    assert play(game(), "aside 4+5", "x:1+4").hands()["x"] == [1, 2, 3, 4, 5]


def test_public_actions_hide_a_pending_choice():
    pos = play(game(), "aside 4+5", "x:1+4")
    assert pos.public_actions() == ["aside 4+5", "x:?"]
    assert pos.actions == ["aside 4+5", "x:1+4"]


def test_public_actions_show_choices_once_revealed():
    pos = chosen("1+4", "2+3")
    assert pos.public_actions() == pos.actions


def test_the_hidden_form_is_not_an_action():
    with pytest.raises(NotationError, match="hides the cards"):
        play(game(), "aside 4+5").play("x:?")


# -- reveal and step 2 ---------------------------------------------------------------------------
def test_both_choices_are_revealed_together():
    pos = chosen("1+4", "2+3")
    assert pos.revealed() == {"o": (2, 3), "x": (1, 4)}
    assert pos.last_turn().cards == {"o": (2, 3), "x": (1, 4)}


def test_four_different_numbers_are_written_in_increasing_order():
    pos = chosen("1+4", "2+3")
    assert pos.pending_writes() == [("x", 1), ("o", 2), ("o", 3), ("x", 4)]
    assert (pos.phase, pos.to_move) == ("write", ["x"])


def test_one_number_in_common_is_skipped_and_the_lower_other_number_writes_twice_first():
    pos = chosen("2+5", "1+2")
    assert pos.pending_writes() == [("o", 1), ("o", 1), ("x", 5), ("x", 5)]


def test_one_number_in_common_when_x_holds_the_lower_number():
    assert chosen("1+3", "3+2").pending_writes() == [("x", 1), ("x", 1), ("o", 2), ("o", 2)]


def test_the_same_two_numbers_mean_nobody_writes_and_a_new_round_starts():
    pos = chosen("1+2", "1+2")
    assert (pos.phase, pos.to_move, pos.pending_writes()) == ("choose", ["o", "x"], [])
    assert pos.board_rows() == ["." * 11] * 11


def test_played_cards_leave_the_hand_during_writing():
    pos = chosen("1+4", "2+3")
    assert pos.hands() == {"o": [1], "x": [2, 3, 5]}
    assert pos.played() == {"o": [2, 3], "x": [1, 4]}


def test_a_letter_goes_on_a_numbered_cell_showing_its_number():
    pos = chosen("1+4", "2+3")  # x writes for 1 first; g5 shows 1
    assert pos.play("g5") == ["g5"]
    assert pos.piece_at(c("g5")) == "x"


def test_a_letter_goes_on_a_plain_cell_next_to_its_number():
    pos = chosen("1+4", "2+3")  # f5 touches e5 (5) and g5 (1)
    pos.play("f5")
    assert pos.piece_at(c("f5")) == "x"


def test_a_cell_that_does_not_match_is_refused_with_examples():
    pos = chosen("1+4", "2+3")
    expected = r"e5 does not match 1 — write in a cell marked 1 or next to a 1 \(e\.g\. b1,"
    with pytest.raises(IllegalActionError, match=expected):
        pos.play("e5")
    assert pos.actions[-1] == "o:2+3"


def test_a_taken_cell_is_refused():
    pos = play(chosen("1+4", "2+3"), "g5")
    with pytest.raises(IllegalActionError, match="already holds X"):
        pos.play("g5")  # o writes for 2 next; g5 is taken (it matches 1 only anyway)


def test_the_legal_cells_are_the_empty_matching_cells():
    pos = chosen("1+4", "2+3")
    assert pos.legal_actions() == sorted(G.name(i) for i in bits(MATCH_MASK[1]))


def test_with_no_empty_matching_cell_any_empty_cell_may_be_used():
    pos = chosen("1+4", "2+3")
    names = [G.name(i) for i in bits(MATCH_MASK[1])]
    with_letters(pos, o=names)
    empty = [G.name(i) for i in range(121) if pos.piece_at(i) is None]
    assert pos.legal_actions() == sorted(empty)
    assert pos.matching_cells(1) == [c(n) for n in empty]


def test_writers_take_turns_in_order():
    pos = play(chosen("1+4", "2+3"), "g5")
    assert pos.to_move == ["o"] and pos.pending_writes() == [("o", 2), ("o", 3), ("x", 4)]


def test_the_writer_may_write_both_letters_in_one_line():
    pos = chosen("2+5", "1+2")
    assert pos.play("g5 c1", "o") == ["g5", "c1"]
    assert pos.to_move == ["x"]


def test_a_line_cannot_write_the_other_players_letters():
    pos = chosen("2+5", "1+2")
    with pytest.raises(IllegalActionError, match="o has only 2 letters"):
        pos.play("g5 c1 e5")
    assert pos.pending_writes()[0] == ("o", 1) and pos.piece_at(c("g5")) is None


def test_a_choice_during_writing_is_illegal():
    with pytest.raises(IllegalActionError, match="start of a round"):
        chosen("1+4", "2+3").play("x:2+3")


def test_last_turn_lists_the_letters_of_the_round():
    pos = play(chosen("1+4", "2+3"), "g5", "c5")
    turn = pos.last_turn()
    assert (turn.player, turn.placed) == ("o", (c("g5"), c("c5")))


# -- step 3 --------------------------------------------------------------------------------------
def _round(pos, x: str, o: str):
    """Choose, then write every pending letter on the first legal cell."""
    play(pos, f"x:{x}", f"o:{o}")
    while pos.phase == "write":
        pos.play(pos.legal_actions()[0])
    return pos


def test_the_player_with_four_cards_on_the_table_takes_them_back():
    pos = _round(play(game(), "aside 4+5"), "1+4", "2+3")
    assert pos.hands()["o"] == [1, 2, 3, 4, 5] and pos.aside()["o"] == []


def test_the_other_player_sets_their_played_cards_aside():
    pos = _round(play(game(), "aside 4+5"), "1+4", "2+3")
    assert pos.hands()["x"] == [2, 3, 5] and pos.aside()["x"] == [1, 4]


def test_hands_alternate_between_five_and_three_cards():
    pos = play(game(), "aside 4+5")
    sizes = []
    for x, o in (("1+4", "2+3"), ("2+3", "3+4"), ("2+4", "1+5")):
        _round(pos, x, o)
        sizes.append((len(pos.hands()["x"]), len(pos.hands()["o"])))
    assert sizes == [(3, 5), (5, 3), (3, 5)]


def test_step_3_also_follows_a_round_without_letters():
    pos = chosen("1+2", "1+2")
    assert pos.hands() == {"o": [1, 2, 3, 4, 5], "x": [3, 4, 5]}
    assert pos.aside() == {"o": [], "x": [1, 2]}


# -- winning -------------------------------------------------------------------------------------
def _nearly_won_by_x():
    """x holds all of row 2 but f2 (which matches 1 and 4); x writes for 1 first."""
    pos = play(game(), "aside 4+5")
    with_letters(pos, x=[f"{col}2" for col in "abcdeghijk"])
    return play(pos, "x:1+5", "o:2+3")


def test_a_letter_that_completes_a_chain_wins_at_once():
    pos = _nearly_won_by_x()
    pos.play("f2")
    assert pos.outcome == Outcome("x", Reason.CONNECTION)


def test_later_letters_of_the_round_are_not_written():
    pos = play(_nearly_won_by_x(), "f2")
    assert (pos.to_move, pos.phase, pos.pending_writes(), pos.legal_actions()) == ([], "over", [], [])
    with pytest.raises(GameOverError):
        pos.play("c3")


def test_a_line_that_goes_on_after_the_winning_letter_is_refused():
    pos = _nearly_won_by_x()
    pos._writes = (("x", 1), ("x", 1))  # as after a common number
    with pytest.raises(IllegalActionError, match="f2 already wins"):
        pos.play("f2 g1")
    assert pos.outcome is None


def test_o_wins_by_joining_top_and_bottom():
    pos = play(game(), "aside 1+2")
    with_letters(pos, o=[f"a{r}" for r in range(1, 11)])  # a11 shows 5
    play(pos, "x:3+4", "o:3+5")  # common 3: x writes twice for 4 first, then o twice for 5
    play(pos, "g1", "i3", "a11")
    assert pos.outcome == Outcome("o", Reason.CONNECTION)


def test_the_winning_chain_is_reported():
    pos = play(_nearly_won_by_x(), "f2")
    assert len(pos.winning_chain()) == 11


# -- records, copies, random play ---------------------------------------------------------------------
def test_a_record_replays_to_the_same_position():
    pos = _round(play(game("o"), "aside 1+3"), "2+4", "1+5")
    assert Record.of(pos).replay() == pos


def test_a_record_keeps_the_cut_winner():
    assert "# first: o" in Record.of(game("o")).to_text()


def test_a_copy_is_independent():
    pos = play(game(), "aside 4+5")
    other = play(pos.copy(), "x:1+2")
    assert pos.to_move == ["o", "x"] and other.to_move == ["o"]


def test_the_json_has_hands_and_aside():
    data = play(game(), "aside 4+5").to_json()
    assert data["hands"] == {"o": [1, 2, 3], "x": [1, 2, 3, 4, 5]}
    assert (data["aside"], data["phase"]) == ({"o": [4, 5], "x": []}, "choose")


def test_last_turn_after_the_aside_names_the_cut_loser():
    turn = play(game(), "aside 4+5").last_turn()
    assert (turn.player, turn.cards, turn.placed) == ("o", None, ())


def test_random_playout_leaves_the_position_unchanged():
    pos = play(game(), "aside 4+5")
    before = pos.copy()
    outcome = pos.random_playout(random.Random(2))
    assert outcome.reason is Reason.CONNECTION and pos == before and pos.actions == before.actions


def test_random_playout_log_replays_to_the_same_outcome():
    rng = random.Random(4)
    for first in ("x", "o"):
        for _ in range(10):
            pos = game(first)
            log: list[str] = []
            outcome = pos.random_playout(rng, log)
            assert play(pos.copy(), *log).outcome == outcome


def test_blind_hex_class_is_registered_as_blindhex():
    assert type(game()) is BlindHex and MATCHES[0] == (5,)


@pytest.mark.parametrize("text", ["q" * 200, "bob" * 60 + ":?", "w" * 150 + ":1+2", "x:" + "1" * 150 + "+2"])
def test_long_text_is_quoted_shortened_in_the_error(text):
    with pytest.raises(NotationError) as exc:
        new_game("blindhex").play(text)
    assert len(str(exc.value)) < 120 and "…" in str(exc.value)
