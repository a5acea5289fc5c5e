"""The pixel layout follows RULES.md §1: a rhombus whose row r+1 sits half a cell right of row r."""

from __future__ import annotations

import math

import pytest

from engine.geometry import grid
from render.geometry import SIDES, layout

SIZES = (3, 5, 7, 11, 13, 19)


@pytest.mark.parametrize("n", SIZES)
def test_every_engine_neighbour_is_one_cell_width_away(n):
    lay = layout(n, 900, 100, 30)
    g = grid(n)
    for i in range(g.cells):
        x, y = lay.centre(i)
        for j in g.neighbours[i]:
            u, v = lay.centre(j)
            assert math.hypot(u - x, v - y) == pytest.approx(lay.cell_width)


@pytest.mark.parametrize("n", SIZES)
def test_cells_that_are_not_neighbours_are_farther_apart(n):
    lay = layout(n, 900, 100, 30)
    g = grid(n)
    for i in range(g.cells):
        x, y = lay.centre(i)
        for j in set(range(g.cells)) - set(g.neighbours[i]) - {i}:
            u, v = lay.centre(j)
            assert math.hypot(u - x, v - y) > lay.cell_width * 1.5


def test_next_row_is_drawn_half_a_cell_to_the_right():
    lay = layout(7, 900, 100, 30)
    g = grid(7)
    x1, y1 = lay.centre(g.parse("c3"))
    x2, y2 = lay.centre(g.parse("c4"))
    assert x2 - x1 == pytest.approx(lay.cell_width / 2)
    assert y2 > y1


def test_a1_is_top_left_and_the_last_cell_bottom_right():
    lay = layout(7, 900, 100, 30)
    g = grid(7)
    a1, g7, g1, a7 = (lay.centre(g.parse(c)) for c in ("a1", "g7", "g1", "a7"))
    assert a1[1] == g1[1] < a7[1] == g7[1]
    assert a1[0] < g1[0] and a7[0] < g7[0]


def test_flip_turns_the_board_half_a_turn():
    plain, flipped = layout(7, 900, 100, 30), layout(7, 900, 100, 30, flip=True)
    g = grid(7)
    assert flipped.centre(g.parse("a1")) == pytest.approx(plain.centre(g.parse("g7")))
    assert flipped.centre(g.parse("c2")) == pytest.approx(plain.centre(g.parse("e6")))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("width", (400, 900, 1600))
def test_board_with_bands_and_coordinates_fits_the_width(n, width):
    lay = layout(n, width, round(100 * width / 900), round(30 * width / 900))
    left, top, right, bottom = lay.board_box
    assert 0 <= left and right <= width
    assert lay.header <= top and bottom <= lay.height - lay.footer
    # and it uses the room it has: no more than the margins are left over across or down
    room = lay.height - lay.header - lay.footer
    assert right - left > width * 0.9 or bottom - top > room * 0.9


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("width", [400, 720, 900])
def test_pictures_are_4_by_3_up_to_square(n, width):
    height = layout(n, width, round(170 * width / 900), 0).height
    assert round(width * 3 / 4) <= height <= width


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("width", [400, 720, 900])
def test_a_taller_picture_is_only_as_tall_as_the_board_needs_to_fill_the_width(n, width):
    # on a phone the width is the limit: the board takes all of it, and the picture
    # is no taller than that needs (nor than square)
    header = round(170 * width / 900)
    lay = layout(n, width, header, 0)
    left, top, right, bottom = lay.board_box
    if lay.height > round(width * 3 / 4):
        assert right - left > 0.97 * (width - 2 * 8 * width / 900)
        assert lay.height - bottom < 0.02 * width + 2


def test_letters_label_columns_above_and_below_and_numbers_label_rows_left_and_right():
    n = 7
    lay = layout(n, 900, 100, 30)
    g = grid(n)
    labels = lay.labels()
    assert len(labels) == 4 * n
    for lab in labels:
        if lab.text.isalpha():
            col = ord(lab.text) - ord("A")
            top, bottom = lay.centre(g.index(col, 0)), lay.centre(g.index(col, n - 1))
            assert lab.x in (pytest.approx(top[0]), pytest.approx(bottom[0]))
            assert lab.y < top[1] or lab.y > bottom[1]
        else:
            row = int(lab.text) - 1
            left, right = lay.centre(g.index(0, row)), lay.centre(g.index(n - 1, row))
            assert lab.y == pytest.approx(left[1])
            assert lab.x < left[0] or lab.x > right[0]


def test_flipped_coordinates_run_the_other_way():
    lay = layout(5, 900, 100, 30, flip=True)
    tops = [lab.text for lab in sorted(lay.labels(), key=lambda lab: (lab.y, lab.x)) if lab.text.isalpha()][:5]
    assert tops == ["E", "D", "C", "B", "A"]


@pytest.mark.parametrize("side", SIDES)
def test_each_band_lies_outside_its_side_of_the_board(side):
    from render.geometry import NORMALS

    lay = layout(7, 900, 100, 30)
    nx, ny = NORMALS[side]
    edge_cells = {
        "top": [lay.centre(i) for i in range(7)],
        "bottom": [lay.centre(42 + i) for i in range(7)],
        "left": [lay.centre(7 * r) for r in range(7)],
        "right": [lay.centre(7 * r + 6) for r in range(7)],
    }[side]
    reach = max(nx * x + ny * y for x, y in edge_cells)
    for x, y in lay.band_polygon(side):
        assert nx * x + ny * y >= reach + lay.radius / 2 - 1e-6
