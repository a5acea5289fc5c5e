"""The public API: PNG out, pure and deterministic, safe to call from several threads."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

import engine
import render


def test_render_position_returns_png_bytes(random_position):
    png = render.render_position(random_position("hex", 7, 10, 1))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_picture_is_a_palette_png_of_the_requested_width(random_position):
    image = Image.open(io.BytesIO(render.render_position(random_position("hex", 7, 10, 1), width=640)))
    assert image.mode == "P"
    assert image.width == 640
    assert 0.75 * image.width <= image.height <= image.width


def test_rendering_the_same_position_twice_gives_the_same_bytes(random_position):
    pos = random_position("inphexion", 7, 30, 2)
    assert render.render_position(pos, names={"white": "A"}) == render.render_position(pos, names={"white": "A"})


def test_rendering_does_not_depend_on_what_was_rendered_before(random_position):
    pos = random_position("hex", 9, 20, 3)
    first = render.render_position(pos)
    for other in (random_position("hex", 9, 60, 4), random_position("blindhex", None, 40, 5)):
        render.render_position(other, theme="light")
    assert render.render_position(pos) == first


def test_rendering_does_not_change_the_position(random_position):
    pos = random_position("blindhex", None, 40, 6)
    before = (pos.copy(), list(pos.actions))
    render.render_position(pos)
    assert pos == before[0] and pos.actions == before[1]


def test_threads_rendering_at_once_get_the_same_pictures_as_one_thread(random_position):
    positions = [random_position(g, s, k, k) for g, s in (("hex", 11), ("inphexion", 7), ("blindhex", None)) for k in (5, 25)]
    alone = [render.render_position(p) for p in positions]
    with ThreadPoolExecutor(max_workers=6) as pool:
        together = list(pool.map(render.render_position, positions * 3))
    assert together == alone * 3


@pytest.mark.parametrize("theme", sorted(render.THEMES))
def test_every_theme_renders_every_game(theme, random_position):
    for game, size in (("hex", 5), ("inphexion", 5), ("blindhex", None)):
        assert render.render_position(random_position(game, size, 12, 7), theme=theme)


def test_themes_differ(random_position):
    pos = random_position("hex", 5, 6, 8)
    assert render.render_position(pos, theme="dark") != render.render_position(pos, theme="light")


def test_unknown_theme_is_a_value_error(random_position):
    with pytest.raises(ValueError, match="theme"):
        render.render_position(random_position("hex", 5, 2, 9), theme="sepia")


def test_absurd_width_is_a_value_error():
    with pytest.raises(ValueError, match="width"):
        render.render_position(engine.new_game("hex", 5), width=20)


def test_names_and_caption_change_the_picture_but_not_the_board(random_position):
    pos = random_position("hex", 7, 10, 10)
    plain = render.render_position(pos)
    named = render.render_position(pos, names={"black": "Alice", "white": "Bob"}, caption="Game 4")
    assert named != plain
    assert render.layout_of(pos).centre(0) == render.layout_of(pos, names={"black": "Alice"}).centre(0)


def test_very_long_names_do_not_break_the_picture(random_position):
    pos = random_position("inphexion", 7, 10, 11)
    png = render.render_position(pos, names={"white": "W" * 200, "black": "ÆØÅ 名前 🎲"})
    lay = render.layout_of(pos)
    assert Image.open(io.BytesIO(png)).size == (render.WIDTH, lay.height)
    assert lay == render.layout_of(pos, names={"white": "Al", "black": "Bo"})


def test_flip_changes_the_picture(random_position):
    pos = random_position("hex", 7, 10, 12)
    assert render.render_position(pos, flip=True) != render.render_position(pos)


@pytest.mark.parametrize("reason", ["resignation", "timeout", "abandoned"])
def test_games_ended_from_outside_render(reason, random_position):
    pos = random_position("hex", 7, 10, 13)
    pos.finish(engine.Outcome(None if reason == "abandoned" else "white", engine.Reason(reason)))
    assert render.render_position(pos)


def test_every_size_of_every_game_renders():
    for game in engine.GAME_NAMES:
        cls = engine.position_class(game)
        for size in cls.sizes:
            assert render.render_position(engine.new_game(game, size), width=400)


def test_a_name_is_kept_as_written():
    from render.games.common import display_name

    assert display_name("white", {"white": "José"}) == "José"
    assert display_name("white", {"white": "  Zoë   🎲 "}) == "Zoë 🎲"
    assert display_name("white", {"white": ""}) == "White"


@pytest.mark.parametrize("width", [300, 480, 900])
def test_the_last_turn_is_drawn_in_the_free_corner_below_left_of_the_board(width, random_position):
    pos = random_position("inphexion", 7, 10, 14)
    lay = render.layout_of(pos, width=width)
    assert lay.footer == 0
    # the corner is wide enough for a short line
    m = 12 * width / 900
    assert lay.free_left(lay.height - m - 30 * width / 900, lay.height - m) > 0.2 * width


def test_the_neutral_disc_is_named_in_a_legend_while_it_is_on_the_board(random_position):
    from render.games import scene_of

    with_neutral = random_position("inphexion", 7, 9, 4, variants=["neutral"])
    assert "neutral" in [with_neutral.piece_at(i) for i in range(49)]
    assert [words for _, words in scene_of(with_neutral, None).legend] == ["neutral disc"]
    assert scene_of(random_position("inphexion", 7, 9, 4), None).legend == []
    # and the legend is drawn: the corner above-right of the board is not empty
    image = render.render_image(with_neutral, palette=False)
    lay = render.layout_of(with_neutral)
    corner = image.crop((lay.width - 200, lay.header, lay.width - 10, lay.header + 40))
    assert len(corner.getcolors(maxcolors=10_000) or []) > 10


@pytest.mark.parametrize("game,size", [("hex", 7), ("hex", 11), ("hex", 19), ("inphexion", 7), ("inphexion", 11), ("blindhex", None)])
def test_a_board_png_stays_under_60_kb_at_the_bots_width(game, size, random_position):
    for seed in range(3):
        for actions in (10, 60, 400):
            png = render.render_position(random_position(game, size, actions, seed), names={"white": "Alice", "black": "Bob"})
            assert len(png) <= 60 * 1024


def test_chosen_and_choices_mark_only_their_own_cells(random_position):
    import numpy as np

    pos = random_position("inphexion", 7, 12, 3)
    chosen, choices = [24], [17, 31]
    plain = np.asarray(render.render_image(pos, palette=False), dtype=int)
    marked = np.asarray(render.render_image(pos, palette=False, chosen=chosen, choices=choices), dtype=int)
    changed = np.abs(marked - plain).max(axis=2) > 0
    lay = render.layout_of(pos)
    ys, xs = np.nonzero(changed)
    nearest = [min((c for c in chosen + choices), key=lambda c: (lay.centre(c)[0] - x) ** 2 + (lay.centre(c)[1] - y) ** 2)
               for x, y in zip(xs, ys)]
    far = [(x, y, c) for x, y, c in zip(xs, ys, nearest)
           if (lay.centre(c)[0] - x) ** 2 + (lay.centre(c)[1] - y) ** 2 > lay.radius ** 2]
    assert not far  # nothing drawn outside the marked cells
    for cell in chosen + choices:  # and each is marked
        x, y = lay.centre(cell)
        r = int(lay.radius)
        assert changed[int(y) - r:int(y) + r, int(x) - r:int(x) + r].sum() > 50


def test_chosen_and_choices_look_different():
    pos = engine.new_game("hex", 5)
    one = render.render_image(pos, palette=False, chosen=[12])
    other = render.render_image(pos, palette=False, choices=[12])
    assert one.tobytes() != other.tobytes()


def test_marking_a_cell_that_is_not_on_the_board_is_refused():
    with pytest.raises(ValueError, match="not on a board"):
        render.render_position(engine.new_game("hex", 5), chosen=[25])


def test_the_last_turn_is_cut_after_a_whole_word_when_the_corner_is_too_narrow():
    from render.header import _advance, _wrap

    words = "Last: Olga wrote d7 k11 (cards x 2+3, o 4+5)"
    lines = _wrap(words, 29, [130.0, 130.0, 150.0, 220.0])
    assert len(lines) == 4 and lines[-1].endswith("…")
    assert all(_advance(line, 29) <= width for line, width in zip(lines, [130.0, 130.0, 150.0, 220.0]))
    # every line but the cut one ends on a whole word of the text
    shown = " ".join(lines)[:-1].split(" ")
    assert shown == words.split(" ")[: len(shown)]


def test_a_line_drawn_word_by_word_looks_like_the_line_drawn_whole():
    from PIL import ImageChops, ImageDraw

    from render.fonts import text
    from render.header import _draw_line

    words = "Last: Alice b3 c4 · 2 surrounded"
    whole = Image.new("RGB", (700, 60), (30, 30, 30))
    text(words, 29).draw(ImageDraw.Draw(whole), (10, 40), (240, 240, 240), "ls")
    pieces = Image.new("RGB", (700, 60), (30, 30, 30))
    _draw_line(pieces, ImageDraw.Draw(pieces), words, 29, (10, 40), (240, 240, 240))
    diff = ImageChops.difference(whole, pieces).convert("L")
    inked = sum(whole.convert("L").histogram()[97:])
    assert inked > 500 and sum(diff.histogram()[97:]) < 0.01 * inked
