"""The shared engine core: geometry (RULES.md §1), notation (§5), records (§6), the position protocol."""

from __future__ import annotations

import random

import pytest

from engine import (
    GAME_NAMES,
    GameOverError,
    NotationError,
    OptionsError,
    Outcome,
    Reason,
    Record,
    WrongTurnError,
    make_options,
    new_game,
    position_class,
)
from engine.geometry import bits, grid
from engine.notation import MAX_ACTION_LENGTH, normalize, shorten


def mask(g, *names: str) -> int:
    return sum(1 << g.parse(n) for n in names)


# -- geometry --------------------------------------------------------------------------------
def test_cells_are_numbered_row_by_row():
    g = grid(7)
    assert (g.parse("a1"), g.parse("g1"), g.parse("a2"), g.parse("g7")) == (0, 6, 7, 48)


def test_a_cell_name_is_column_letter_then_row_number():
    assert [grid(11).name(i) for i in (0, 10, 11, 120)] == ["a1", "k1", "a2", "k11"]


def test_every_name_parses_back_to_its_cell():
    g = grid(19)
    assert all(g.parse(g.name(i)) == i for i in range(g.cells))


def test_d4_touches_the_six_cells_of_the_rules_example():
    g = grid(7)
    assert sorted(g.name(j) for j in g.neighbours[g.parse("d4")]) == ["c4", "c5", "d3", "d5", "e3", "e4"]


def test_the_obtuse_corners_have_three_neighbours_and_the_acute_ones_two():
    g = grid(5)
    counts = {n: len(g.neighbours[g.parse(n)]) for n in ("a1", "e1", "a5", "e5")}
    assert counts == {"a1": 2, "e1": 3, "a5": 3, "e5": 2}


def test_adjacency_is_symmetric():
    g = grid(6)
    assert all(i in g.neighbours[j] for i in range(g.cells) for j in g.neighbours[i])


@pytest.mark.parametrize("n", [1, 2, 3, 7, 11, 19])
def test_expand_adds_exactly_the_neighbours(n):
    g = grid(n)
    for i in range(g.cells):
        assert g.expand(1 << i) == (1 << i) | g.nmask[i]


def test_expand_of_a_random_set_is_the_union_of_neighbourhoods():
    g = grid(9)
    rng = random.Random(3)
    for _ in range(50):
        s = rng.getrandbits(g.cells)
        expected = s
        for i in bits(s):
            expected |= g.nmask[i]
        assert g.expand(s) == expected


def test_edge_masks_hold_the_first_and_last_rows_and_columns():
    g = grid(4)
    assert bits(g.top) == [0, 1, 2, 3] and bits(g.bottom) == [12, 13, 14, 15]
    assert bits(g.left) == [0, 4, 8, 12] and bits(g.right) == [3, 7, 11, 15]


def test_coords_and_index_are_inverse():
    g = grid(7)
    assert g.coords(g.index(3, 5)) == (3, 5)


@pytest.mark.parametrize("text", ["h1", "a8", "a0", "z99"])
def test_a_cell_off_the_board_is_a_notation_error(text):
    with pytest.raises(NotationError, match="off the board"):
        grid(7).parse(text)


@pytest.mark.parametrize("text", ["4c", "c", "cc4", "c 4", "c123", ""])
def test_text_that_is_not_a_cell_is_a_notation_error(text):
    with pytest.raises(NotationError, match="not a cell"):
        grid(7).parse(text)


def test_is_cell_accepts_cell_shapes_on_or_off_the_board():
    g = grid(5)
    assert g.is_cell("z9") and g.is_cell("a1") and not g.is_cell("swap")


def test_the_last_cell_names_the_bottom_right_corner():
    assert grid(7).last_cell() == "g7"


def test_the_grid_of_a_size_is_shared():
    assert grid(7) is grid(7)


@pytest.mark.parametrize("n", [0, 27])
def test_sizes_outside_1_to_26_have_no_grid(n):
    with pytest.raises(ValueError):
        grid(n)


def test_a_column_connects_top_and_bottom_only():
    g = grid(5)
    col = mask(g, "b1", "b2", "b3", "b4", "b5")
    assert g.connects(col, True) and not g.connects(col, False)


def test_a_row_connects_left_and_right_only():
    g = grid(5)
    row = mask(g, "a3", "b3", "c3", "d3", "e3")
    assert g.connects(row, False) and not g.connects(row, True)


def test_the_short_diagonal_connects_both_ways():
    # e1 d2 c3 b4 a5: each touches the next at (c-1, r+1), and the ends are corners.
    g = grid(5)
    diag = mask(g, "e1", "d2", "c3", "b4", "a5")
    assert g.connects(diag, True) and g.connects(diag, False)


def test_the_long_diagonal_does_not_connect():
    # a1 b2 c3 ...: (c+1, r+1) is not a neighbour.
    g = grid(5)
    assert not g.connects(mask(g, "a1", "b2", "c3", "d4", "e5"), True)


def test_connects_through_looks_only_at_the_chain_of_the_cell():
    g = grid(5)
    stones = mask(g, "b1", "b2", "b3", "b4", "b5", "e1")
    assert g.connects_through(stones, g.parse("b3"), True)
    assert not g.connects_through(stones, g.parse("e1"), True)


def test_component_is_the_chain_through_the_seed():
    g = grid(5)
    stones = mask(g, "a1", "a2", "c4")
    assert g.component(stones, 1 << g.parse("a1")) == mask(g, "a1", "a2")


def test_winning_chain_holds_every_connecting_stone():
    g = grid(4)
    stones = mask(g, "a1", "a2", "a3", "a4", "b3", "d1")
    assert g.winning_chain(stones, True) == mask(g, "a1", "a2", "a3", "a4", "b3")


def test_shortest_chain_is_a_path_from_side_to_side():
    g = grid(4)
    stones = mask(g, "a1", "a2", "a3", "a4", "b3", "b2")
    path = g.shortest_chain(stones, True)
    assert [g.name(i) for i in path] == ["a1", "a2", "a3", "a4"]


def test_shortest_chain_is_empty_without_a_connection():
    g = grid(4)
    assert g.shortest_chain(mask(g, "a1", "a2"), True) == []


def test_bits_lists_set_bits_lowest_first():
    assert bits(0) == [] and bits(0b1001) == [0, 3] and bits(1 << 200) == [200]


def test_bits_lists_the_set_bits_of_a_dense_mask_lowest_first():
    dense = sum(1 << i for i in range(0, 121, 2)) | 1 << 300
    assert bits(dense) == [*range(0, 121, 2), 300]


# -- notation ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, expected",
    [
        ("C4", "c4"), ("  c4  ", "c4"), ("move C4-D4", "c4 d4"), ("c4 - d4", "c4 d4"), ("MOVE   c4\td4", "c4 d4"),
        ("X: 1 + 4", "x: 1 + 4"), ("aside 5, 4", "aside 5, 4"), ("b2>e7", "b2>e7"), ("Swap", "swap"),
    ],
)
def test_normalize_folds_case_space_move_and_dashes(text, expected):
    assert normalize(text) == expected


def test_a_dash_not_between_cells_is_kept():
    assert normalize("x:-1") == "x:-1"


@pytest.mark.parametrize("text", ["", "   ", "move", "MOVE  "])
def test_empty_text_is_a_notation_error(text):
    with pytest.raises(NotationError, match="empty"):
        normalize(text)


def test_over_long_text_is_a_notation_error():
    with pytest.raises(NotationError, match="too long"):
        normalize("c4 " * MAX_ACTION_LENGTH)


def test_text_that_is_not_a_string_is_a_notation_error():
    with pytest.raises(NotationError):
        normalize(None)  # type: ignore[arg-type]


def test_shorten_cuts_long_text_and_hides_control_characters():
    assert shorten("a\nb") == "a?b"
    assert shorten("x" * 40, 10) == "x" * 9 + "…"


# -- records ----------------------------------------------------------------------------------
def test_a_record_lists_headers_then_actions():
    pos = new_game("hex", 5, ["swap"])
    pos.play("c3")
    text = Record.of(pos, {"white": "bob"}).to_text()
    assert text == "# game: hex\n# size: 5\n# variants: swap\n# white: bob\nc3\n"


def test_a_record_round_trips_through_text():
    pos = new_game("blindhex", first="o")
    pos.play("aside 1+2")
    record = Record.of(pos, {"note": "two  words"})
    back = Record.from_text(record.to_text())
    assert back == record and back.headers == {"note": "two words"}
    assert back.replay() == pos


def test_a_record_ignores_blank_lines_and_header_lines_without_a_colon():
    r = Record.from_text("# game: hex\n\n# size: 3\n# just a comment\n  b2  \n\n")
    assert r.actions == ["b2"] and r.headers == {}


def test_a_record_without_game_and_size_is_refused():
    with pytest.raises(OptionsError, match="game"):
        Record.from_text("c3\n")


def test_a_record_with_a_bad_size_is_refused():
    with pytest.raises(OptionsError):
        Record.from_text("# game: hex\n# size: eleven\n")


def test_given_options_override_the_record_headers():
    options = make_options("hex", 7)
    r = Record.from_text("# game: hex\n# size: 5\nc3\n", options)
    assert r.options.size == 7 and r.actions == ["c3"]


def test_replaying_a_bad_record_raises_the_engine_error():
    with pytest.raises(NotationError):
        Record(make_options("hex", 5), ["c3", "nonsense"]).replay()


# -- registry and the shared protocol ----------------------------------------------------------
def test_the_registry_offers_three_games():
    assert GAME_NAMES == ("inphexion", "hex", "blindhex")


def test_an_unknown_game_is_an_options_error():
    with pytest.raises(OptionsError, match="unknown game 'chess'"):
        position_class("chess")


def test_options_sort_variants_and_drop_duplicates():
    assert make_options("hex", 5, ["swap", "swap"]).variants == ("swap",)


def test_a_player_not_in_the_game_is_told_so():
    with pytest.raises(WrongTurnError, match="'x' does not play"):
        new_game("hex", 5).play("c3", "x")


def test_finishing_a_finished_game_is_refused():
    pos = new_game("hex", 5)
    pos.finish(Outcome(None, Reason.ABANDONED))
    assert pos.describe_outcome() == "no winner (abandoned)"
    with pytest.raises(GameOverError):
        pos.finish(Outcome("black", Reason.TIMEOUT))


def test_a_game_in_progress_is_described_so():
    assert new_game("hex", 5).describe_outcome() == "the game is in progress"


def test_seats_follow_a_swap():
    pos = new_game("hex", 5, ["swap"])
    assert (pos.colour_of_seat(0), pos.seat_of_colour("white")) == ("black", 1)
    pos.play("c3")
    pos.play("swap")
    assert (pos.colour_of_seat(0), pos.seat_of_colour("white")) == ("white", 0)


def test_other_names_the_opponent():
    assert new_game("blindhex").other("x") == "o"


def test_the_repr_names_the_game_state():
    assert repr(new_game("hex", 5)) == "<Hex 5×5 place after 0 actions>"


def test_outcome_reasons_are_the_record_words():
    assert [r.value for r in Reason] == [
        "connection", "no-legal-move", "cannot-relocate", "resignation", "timeout", "abandoned",
    ]
