"""Text is big enough where it is read: in Discord's embed box (glyph boxes × display scale)."""

from __future__ import annotations

import pytest

import engine
import render
from render import display
from render.board import DIGIT_WEIGHT, digit_size
from render.fonts import BOLD, MEDIUM, font, text
from render.geometry import LABEL_WEIGHT
from render.header import badge_size, name_size

WIDTHS = [400, 720, 900]


def shown(lay) -> float:
    return display.scale(lay.width, lay.height)


def glyph_height(f, s: str) -> float:
    _, top, _, bottom = f.getbbox(s)
    return bottom - top


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game,n", [("hex", 7), ("hex", 11), ("inphexion", 11), ("hex", 13), ("hex", 19), ("blindhex", 11)])
def test_every_coordinate_is_tall_enough_at_display_size(game, n, width):
    pos = engine.new_game(game, n)
    lay = render.layout_of(pos, width=width)
    f = font(lay.label_size, LABEL_WEIGHT)
    floor = 9.0 if n <= 11 else 7.0 if n == 19 else display.label_floor(n)
    for lab in lay.labels():
        assert glyph_height(f, lab.text) * shown(lay) >= floor, lab.text


@pytest.mark.parametrize("width", WIDTHS)
def test_blind_hex_digits_are_8_px_tall_at_display_size(width):
    lay = render.layout_of(engine.new_game("blindhex", None), width=width)
    f = font(digit_size(lay), DIGIT_WEIGHT)
    for k in range(1, 6):
        assert glyph_height(f, str(k)) * shown(lay) >= 8.0


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["Alice", "Bob", "Zoë", "Ярослав", "Αλέξανδρος"])
def test_player_names_are_10_px_tall_at_display_size(name, width):
    lay = render.layout_of(engine.new_game("hex", 11), width=width)
    _, top, _, bottom = text(name, name_size(width), MEDIUM).bbox()
    assert (bottom - top) * shown(lay) >= 10.0


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("badge", ["to move", "relocate 2", "write 1", "wins"])
def test_whose_turn_badge_is_10_px_tall_at_display_size(badge, width):
    lay = render.layout_of(engine.new_game("inphexion", 7), width=width)
    assert glyph_height(font(badge_size(width), BOLD), badge.upper()) * shown(lay) >= 10.0


@pytest.mark.parametrize("game,n", [("hex", 11), ("blindhex", None), ("inphexion", 7)])
def test_the_picture_fills_discords_embed_box(game, n):
    # 4:3: scaled into the 400x300 box it is 400x300
    lay = render.layout_of(engine.new_game(game, n), width=900)
    assert round(lay.width * shown(lay)) == 400 and round(lay.height * shown(lay)) == 300


@pytest.mark.parametrize("width", WIDTHS)
def test_every_plain_blind_hex_cell_shows_the_numbers_it_matches_8_px_tall(width):
    from render.board import pair_size
    from render.games import scene_of

    pos = engine.new_game("blindhex", None)
    style = scene_of(pos, None).style
    lay = render.layout_of(pos, width=width)
    f = font(pair_size(lay), MEDIUM)
    for cell, k in enumerate(style.numbers):
        if k == 0:
            assert style.matches[cell] == pos.cell_matches(cell) and style.matches[cell]
            for m in style.matches[cell]:
                assert glyph_height(f, str(m)) * shown(lay) >= 8.0
