"""Text is big enough where it is read: on Discord's desktop and on a phone (glyph boxes × display scale).

Every floor is checked at both display sizes (:func:`render.display.desktop_scale`,
the 400×300 embed box, and :func:`render.display.phone_scale`, an embed image on
a 360 px phone), for every game at the sizes the issue names and at several
picture widths. Heights are measured on the glyph boxes the renderer draws with,
or on the drawn sprite itself where the renderer reshapes the glyphs.
"""

from __future__ import annotations

import pytest

import engine
import render
from render import display
from render.board import DIGIT_WEIGHT, digit, digit_size, pair, pair_size
from render.fonts import BOLD, MEDIUM, font, text
from render.geometry import LABEL_WEIGHT
from render.header import badge_size, card_size, name_size
from render.theme import theme

WIDTHS = [400, 720, 900]
SHOWN = {"desktop": display.desktop_scale, "phone": display.phone_scale}
BOARDS = [("hex", 7), ("hex", 11), ("inphexion", 7), ("inphexion", 11), ("hex", 13), ("hex", 19), ("blindhex", None)]


def shown(lay, where: str) -> float:
    return SHOWN[where](lay.width, lay.height)


def glyph_height(f, s: str) -> float:
    _, top, _, bottom = f.getbbox(s)
    return bottom - top


def ink_height(sprite) -> int:
    """Height of what a sprite actually inks (its alpha's box)."""
    box = sprite.getchannel("A").getbbox()
    return box[3] - box[1]


@pytest.mark.parametrize("where", SHOWN)
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game,n", BOARDS)
def test_every_coordinate_is_tall_enough_at_display_size(game, n, width, where):
    pos = engine.new_game(game, n)
    lay = render.layout_of(pos, width=width)
    f = font(lay.label_size, LABEL_WEIGHT)
    size = n or 11
    floor = 9.0 if size <= 11 else 7.0 if size == 19 else display.label_floor(size)
    for lab in lay.labels():
        assert glyph_height(f, lab.text) * shown(lay, where) >= floor, lab.text


@pytest.mark.parametrize("where", SHOWN)
@pytest.mark.parametrize("width", WIDTHS)
def test_blind_hex_digits_are_8_px_tall_at_display_size(width, where):
    lay = render.layout_of(engine.new_game("blindhex", None), width=width)
    f = font(digit_size(lay), DIGIT_WEIGHT)
    for k in range(1, 6):
        assert glyph_height(f, str(k)) * shown(lay, where) >= 8.0
        assert ink_height(digit(k, digit_size(lay), theme("dark"))) * shown(lay, where) >= 8.0


@pytest.mark.parametrize("where", SHOWN)
@pytest.mark.parametrize("width", WIDTHS)
def test_every_plain_blind_hex_cell_shows_the_numbers_it_matches_8_px_tall(width, where):
    from render.games import scene_of

    pos = engine.new_game("blindhex", None)
    style = scene_of(pos, None).style
    lay = render.layout_of(pos, width=width)
    for cell, k in enumerate(style.numbers):
        if k == 0:
            assert style.matches[cell] == pos.cell_matches(cell) and style.matches[cell]
            sprite = pair(style.matches[cell], pair_size(lay), theme("dark"))
            # measured on the drawn pair: its digits are narrowed, never shortened
            assert ink_height(sprite) * shown(lay, where) >= 8.0


@pytest.mark.parametrize("width", WIDTHS)
def test_a_plain_cells_numbers_fit_inside_it_with_room_between_cells(width):
    # two digits side by side must stay inside the cell, apart from the next cell's pair
    pos = engine.new_game("blindhex", None)
    lay = render.layout_of(pos, width=width)
    widest = max(pair((a, b), pair_size(lay), theme("dark")).width for a in range(1, 6) for b in range(1, 6) if a != b)
    assert widest <= 0.8 * lay.cell_width


@pytest.mark.parametrize("where", SHOWN)
@pytest.mark.parametrize("width", WIDTHS)
def test_blind_hex_cards_numbers_are_8_px_tall_at_display_size(width, where):
    lay = render.layout_of(engine.new_game("blindhex", None), width=width)
    f = font(card_size(width), MEDIUM)
    for k in range(1, 6):
        assert glyph_height(f, str(k)) * shown(lay, where) >= 8.0


@pytest.mark.parametrize("where", SHOWN)
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["Alice", "Bob", "Zoë", "Ярослав", "Αλέξανδρος"])
def test_player_names_are_10_px_tall_at_display_size(name, width, where):
    for game, n in BOARDS:
        lay = render.layout_of(engine.new_game(game, n), width=width)
        _, top, _, bottom = text(name, name_size(width), MEDIUM).bbox()
        assert (bottom - top) * shown(lay, where) >= 10.0


@pytest.mark.parametrize("where", SHOWN)
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("badge", ["to move", "relocate 2", "write 1", "write two 5s", "set 2 aside", "wins"])
def test_whose_turn_badge_is_10_px_tall_at_display_size(badge, width, where):
    for game, n in BOARDS:
        lay = render.layout_of(engine.new_game(game, n), width=width)
        assert glyph_height(font(badge_size(width), BOLD), badge.upper()) * shown(lay, where) >= 10.0


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("badge", ["relocate 2", "write two 5s", "set 2 aside"])
def test_the_longest_badges_fit_in_a_players_box(badge, width):
    from render.header import _pill

    pill = _pill(badge, "turn", width, theme("dark"))
    assert pill.width <= (width - 3 * 12 * width / 900) / 2 - 2 * 10 * width / 900


@pytest.mark.parametrize("game,n", BOARDS)
def test_the_picture_fits_discords_desktop_box_and_a_phones_width(game, n):
    lay = render.layout_of(engine.new_game(game, n))
    k = display.desktop_scale(lay.width, lay.height)
    # 4:3 up to square: 300 px tall on desktop, 300-400 wide
    assert round(lay.height * k) == 300 and 300 <= round(lay.width * k) <= 400
    assert round(lay.width * display.phone_scale(lay.width, lay.height)) == display.PHONE


def test_the_phone_is_the_smaller_display_so_floors_are_held_there():
    for game, n in BOARDS:
        lay = render.layout_of(engine.new_game(game, n))
        assert display.phone_scale(lay.width, lay.height) < display.desktop_scale(lay.width, lay.height)
        assert display.scale(lay.width, lay.height) == display.phone_scale(lay.width, lay.height)


# -- the review's win-probability graph (issue 48) --------------------------------------------
@pytest.mark.parametrize("where", SHOWN)
def test_the_review_graphs_caption_is_10_px_and_its_axis_numbers_8_px_tall_at_display_size(where):
    from render import review_graph

    w, h = review_graph.WIDTH, review_graph.HEIGHT
    k = SHOWN[where](w, h)
    assert glyph_height(font(review_graph.caption_size(w), BOLD), "Black (alice)".upper()) * k >= 10.0
    assert glyph_height(font(review_graph.axis_size(w), MEDIUM), "0123456789%") * k >= 8.0


def test_the_review_graph_fits_discords_desktop_box_and_a_phones_width():
    import io

    from PIL import Image

    from render import review_graph

    png = review_graph.render_review_graph([0.5, 0.7, 0.2], [(2, "??")], "alice", "black")
    img = Image.open(io.BytesIO(png))
    assert img.size == (review_graph.WIDTH, review_graph.HEIGHT)
    assert img.height / img.width <= display.TALLEST
