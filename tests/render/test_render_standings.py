"""The standings picture: legible at Discord's display size, names of up to 32 characters in any script, no overlap."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from render import display
from render.fonts import MEDIUM, font, text
from render.standings import Row, Table, _cut, layout, render_standings, render_standings_image
from tests.render.conftest import decode

WIDTHS = [400, 720, 900]
SHOWN = {"desktop": display.desktop_scale, "phone": display.phone_scale}
NAMES = ["Alice", "Zoë", "Ярослав", "Αλέξανδρος", "李小龍", "محمد", "שרה", "Ngũgĩ wa Thiong'o", "🐉 dragon"]
#: names of exactly 32 characters (Discord's longest display name)
LONG = [
    "Alexandria Featherstonehaugh-Wyn",
    "Wolfeschlegelsteinhausenbergerdo",
    "Ярослав Олександрович Тимошенко!",
    "Αλέξανδρος Παπαδόπουλος Γεωργίου",
    "María José Carreño Quiñones 2000",
]


def table(names, columns=("BH", "SB")) -> Table:
    """A Swiss table of ``names`` in rank order; rank 3 has withdrawn."""
    rows = tuple(Row(k, n, 9 - k, (20 - k, 10 - k), 5, withdrawn=k == 3) for k, n in enumerate(names, start=1))
    return Table(rows, columns, "Final standings")


def glyph_height(size: int, s: str) -> float:
    """Height of ``s``'s glyph box in the standings' font at ``size``."""
    _, top, _, bottom = font(size, MEDIUM).getbbox(s)
    return bottom - top


def test_long_names_are_exactly_32_characters():
    assert {len(n) for n in LONG} == {32}


@pytest.mark.parametrize("where", SHOWN)
@pytest.mark.parametrize("width", WIDTHS)
def test_names_and_numbers_are_10_px_tall_at_display_size(width, where):
    lay = layout(table(NAMES[:4]), width)
    k = SHOWN[where](lay.width, lay.height)
    for name in ("Alice", "Zoë", "Ярослав", "Αλέξανδρος"):
        _, top, _, bottom = text(name, lay.name_size, MEDIUM).bbox()
        assert (bottom - top) * k >= display.NAME
    assert glyph_height(lay.name_size, "0123456789") * k >= display.NAME


@pytest.mark.parametrize("where", SHOWN)
@pytest.mark.parametrize("width", WIDTHS)
def test_column_labels_are_8_px_tall_at_display_size(width, where):
    lay = layout(table(NAMES[:4]), width)
    k = SHOWN[where](lay.width, lay.height)
    for label in ("Pts", "BH", "SB", "DE", "G", "#"):
        assert glyph_height(lay.label_size, label.upper()) * k >= display.DIGIT


@pytest.mark.parametrize("rows", [1, 9, 40])
@pytest.mark.parametrize("width", WIDTHS)
def test_the_picture_is_at_most_square_so_a_phone_is_where_it_shows_smallest(width, rows):
    lay = layout(table([f"Player {k}" for k in range(rows)]), width)
    assert lay.height <= lay.width
    assert display.phone_scale(lay.width, lay.height) <= display.desktop_scale(lay.width, lay.height)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", LONG)
def test_a_32_character_name_is_shown_whole_on_at_most_two_lines(name, width):
    lay = layout(table([name]), width)
    (line,) = lay.lines
    assert len(line.name_lines) <= 2
    assert "".join(line.name_lines).replace(" ", "") == name.replace(" ", "")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", [*NAMES, *LONG, "李" * 32, "محمد بن عبد الله بن عبد المطلب الهاشمي"])
def test_every_line_of_a_name_fits_its_column(name, width):
    lay = layout(table([name]), width)
    for words in lay.lines[0].name_lines:
        assert text(words, lay.name_size, MEDIUM).width <= lay.name_right - lay.name_left + 0.5


@pytest.mark.parametrize("name", ["李" * 32, "m" * 32, "W" * 32])
def test_a_name_too_wide_for_two_lines_ends_in_an_ellipsis(name):
    lay = layout(table([name]), 720)
    lines = lay.lines[0].name_lines
    assert len(lines) == 2 and lines[-1].endswith("…")
    assert (lines[0] + lines[1][:-1]) == name[: len(lines[0]) + len(lines[1]) - 1]


def test_a_right_to_left_name_too_wide_keeps_one_line_cut_at_its_logical_end():
    name = "محمد بن عبد الله بن عبد المطلب الهاشمي"
    (line,) = layout(table([name]), 720).lines[0].name_lines
    assert line.endswith("…") and name.startswith(line[:-1])


def test_a_table_of_nine_players_fits_whole():
    lay = layout(table(NAMES))
    assert len(lay.lines) == 9 and lay.more == 0


def test_rows_that_do_not_fit_are_counted_on_a_last_line():
    lay = layout(table([f"Player {k}" for k in range(40)]))
    assert lay.more == 40 - len(lay.lines) > 0
    assert [line.row.rank for line in lay.lines] == list(range(1, len(lay.lines) + 1))


@pytest.mark.parametrize("width", WIDTHS)
def test_names_are_drawn_only_inside_the_name_column(width):
    # the same table with short names and with names filling their line differs only inside the name column
    lay = layout(table(["a"] * 3), width)
    room = lay.name_right - lay.name_left
    full = [_cut(n * 40, lay.name_size, room) for n in ("W", "李", "Я")]
    assert all(len(line.name_lines) == 1 for line in layout(table(full), width).lines)
    plain = render_standings_image(table(["a"] * 3), width=width)
    named = render_standings_image(table(full), width=width)
    box = ImageChops.difference(plain, named).getbbox()
    assert box is not None and lay.name_left - 2 <= box[0] and box[2] <= lay.name_right + 2


def test_numbers_are_right_aligned_in_their_columns_and_do_not_overlap():
    lay = layout(table(NAMES))
    rights = [lay.name_right, *(c.right for c in lay.columns)]
    assert rights == sorted(rights) and len(set(rights)) == len(rights)


def test_the_picture_is_a_png_of_the_layouts_size():
    t = table(NAMES)
    image = decode(render_standings(t))
    lay = layout(t)
    assert image.size == (lay.width, lay.height)


def test_the_same_table_draws_the_same_picture():
    assert render_standings(table(NAMES), theme="light") == render_standings(table(NAMES), theme="light")


def test_a_withdrawn_players_row_is_drawn_in_the_muted_colour():
    from render.theme import theme

    look = theme("dark")
    lay = layout(table(NAMES[:4]))
    image = render_standings_image(table(NAMES[:4]))
    line = lay.lines[2]  # rank 3 has withdrawn
    band = image.crop((round(lay.name_left), round(line.top), round(lay.name_right), round(line.top + line.height)))
    brightest = max(sum(band.getpixel((x, y))) for x in range(band.width) for y in range(band.height))
    assert brightest <= sum(look.muted) + 3


def test_the_standings_picture_imports_only_pillow_and_render():
    import ast
    from pathlib import Path

    import render.standings

    tree = ast.parse(Path(render.standings.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            assert (node.module or "").split(".")[0] in {"__future__", "collections", "dataclasses", "functools", "PIL"}
        elif isinstance(node, ast.Import):
            assert all(a.name.split(".")[0] in {"PIL"} for a in node.names)
