"""Every piece is drawn where the position says: pixels sampled at the computed cell centres.

These tests pin the geometry, not the art: they only ask whether a cell shows
a white or black disc, an x, an o, or nothing, and whose colour each side has.
"""

from __future__ import annotations

import pytest

import engine
import render


def disc_kind(image, lay, cell, shown):
    """What the disc/stone spots of a cell show: white, black or board."""
    return shown(image, lay, cell, "hex") or "board"


def expected(pos, cell):
    return pos.piece_at(cell) or "board"


@pytest.mark.parametrize("n,actions,seed", [(5, 12, 1), (11, 70, 2), (19, 200, 3)])
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_hex_stones_are_on_their_cells(n, actions, seed, theme, random_position, decode_png, shown):
    pos = random_position("hex", n, actions, seed)
    image = decode_png(render.render_position(pos, theme=theme))
    lay = render.layout_of(pos)
    for cell in range(n * n):
        assert disc_kind(image, lay, cell, shown) == expected(pos, cell), pos.grid.name(cell)


def test_flipped_hex_stones_are_on_their_cells(random_position, decode_png, shown):
    pos = random_position("hex", 9, 30, 4)
    image = decode_png(render.render_position(pos, flip=True))
    lay = render.layout_of(pos, flip=True)
    for cell in range(81):
        assert disc_kind(image, lay, cell, shown) == expected(pos, cell), pos.grid.name(cell)


@pytest.mark.parametrize("width", [480, 1400])
def test_stones_are_on_their_cells_at_any_width(width, random_position, decode_png, shown):
    pos = random_position("hex", 11, 50, 5)
    image = decode_png(render.render_position(pos, width=width))
    lay = render.layout_of(pos, width=width)
    assert image.width == width
    for cell in range(121):
        assert disc_kind(image, lay, cell, shown) == expected(pos, cell), pos.grid.name(cell)


@pytest.mark.parametrize("seed", [1, 2])
def test_blind_hex_letters_are_on_their_cells(seed, random_position, decode_png, shown):
    pos = random_position("blindhex", None, 90, seed)
    image = decode_png(render.render_position(pos))
    lay = render.layout_of(pos)
    for cell in range(121):
        assert shown(image, lay, cell, "blindhex") == pos.piece_at(cell), pos.grid.name(cell)


def band_colour(image, lay, cell, side, kind):
    """What lies just outside a border cell, across the given side."""
    from render.geometry import NORMALS

    x, y = lay.centre(cell)
    nx, ny = NORMALS[side]
    d = lay.radius + lay.band * 0.5
    return image.getpixel((round(x + nx * d), round(y + ny * d)))


@pytest.mark.parametrize("game", ["hex", "blindhex"])
@pytest.mark.parametrize("flip", [False, True])
def test_first_players_colour_runs_along_top_and_bottom_and_seconds_along_left_and_right(game, flip, decode_png):
    from render.theme import PIECES

    pos = engine.new_game(game)
    image = decode_png(render.render_position(pos, flip=flip))
    lay = render.layout_of(pos, flip=flip)
    n = pos.size
    vertical = PIECES[pos.vertical].band
    horizontal = PIECES[pos.other(pos.vertical)].band
    mid = n // 2
    for slot, side, colour in (
        ((mid, 0), "top", vertical),
        ((mid, n - 1), "bottom", vertical),
        ((0, mid), "left", horizontal),
        ((n - 1, mid), "right", horizontal),
    ):
        cell = lay.cell_at_slot(*slot)
        got = band_colour(image, lay, cell, side, None)
        assert max(abs(a - b) for a, b in zip(got, colour)) < 24, (side, got, colour)


def test_last_hex_stone_is_marked_with_the_accent_dot(decode_png):
    from render.theme import THEMES

    pos = engine.new_game("hex", 7)
    for a in ("d4", "c5", "e2"):
        pos.play(a)
    image = decode_png(render.render_position(pos))
    lay = render.layout_of(pos)
    accent = THEMES["dark"].accent
    for name, marked in (("e2", True), ("d4", False), ("c5", False)):
        x, y = lay.centre(pos.grid.parse(name))
        got = image.getpixel((round(x), round(y)))
        assert (max(abs(a - b) for a, b in zip(got, accent)) < 30) == marked, name


def test_winning_chain_cells_are_tinted(decode_png, random_position):
    from render.theme import THEMES

    pos = random_position("hex", 7, 100, 8)
    assert pos.outcome is not None
    image = decode_png(render.render_position(pos))
    lay = render.layout_of(pos)
    frame = THEMES["dark"].win_edge
    chain = set(pos.winning_chain())
    assert chain
    for cell in range(49):
        x, y = lay.centre(cell)
        # between the stone's rim and the cell's side: the chain's dark hexagonal frame
        got = image.getpixel((round(x - 0.745 * lay.radius), round(y)))
        assert (max(abs(a - b) for a, b in zip(got, frame)) < 40) == (cell in chain), pos.grid.name(cell)


def stack_kind(image, lay, cell, kind):
    """The neutral disc: its left half black, its right half white (a red band and rim round them)."""
    x, y = lay.centre(cell)
    R = lay.radius
    left = kind(image.getpixel((round(x - 0.3 * R), round(y))))
    right = kind(image.getpixel((round(x + 0.3 * R), round(y))))
    return left, right


@pytest.mark.parametrize("n,seed", [(5, 1), (7, 2), (11, 3)])
def test_inphexion_discs_are_on_their_cells(n, seed, random_position, decode_png, shown):
    pos = random_position("inphexion", n, n * n, seed)
    image = decode_png(render.render_position(pos))
    lay = render.layout_of(pos)
    for cell in range(n * n):
        assert disc_kind(image, lay, cell, shown) == expected(pos, cell), pos.grid.name(cell)


def test_inphexion_neutral_disc_is_drawn_half_black_half_white(random_position, decode_png, pixel_kind, shown):
    pos = random_position("inphexion", 7, 9, 4, variants=["neutral"])
    image = decode_png(render.render_position(pos))
    lay = render.layout_of(pos)
    (neutral,) = [i for i in range(49) if pos.piece_at(i) == "neutral"]
    assert stack_kind(image, lay, neutral, pixel_kind) == ("black", "white")
    for cell in range(49):
        if cell != neutral:
            assert disc_kind(image, lay, cell, shown) == expected(pos, cell), pos.grid.name(cell)


def near(got, want, tolerance=40):
    return max(abs(a - b) for a, b in zip(got, want)) < tolerance


def test_inphexion_move_is_an_arrow_from_the_old_cell_to_the_new_one_and_the_placed_disc_is_ringed(decode_png):
    from engine.inphexion import InpHexion
    from render.pieces import RING
    from render.theme import THEMES

    pos = InpHexion(InpHexion.make_options(7))
    pos.play("d4")
    pos.play("d4 e4")  # black moves White's disc d4 to e4 and places on d4
    image = decode_png(render.render_position(pos))
    lay = render.layout_of(pos)
    accent = THEMES["dark"].accent
    g = pos.grid
    (ax, ay), (bx, by) = lay.centre(g.parse("d4")), lay.centre(g.parse("e4"))
    # on the shaft, halfway between the two cells
    assert near(image.getpixel((round((ax + bx) / 2), round((ay + by) / 2))), accent)
    # the ring round the placed disc (to the left, away from the arrow), and none round the moved one
    R = lay.radius
    assert near(image.getpixel((round(ax - RING * R), round(ay))), accent)
    assert not near(image.getpixel((round(bx + RING * R), round(by))), accent)


def relocating_position():
    """Black to move; b1 c1 surrounds White's a1 (Black then relocates it)."""
    from engine.inphexion import InpHexion

    pos = InpHexion.from_board(["WW...", "B....", ".....", ".....", "....."], to_move="black")
    pos.play("b1 c1")
    return pos


def test_discs_waiting_for_relocation_are_highlighted(decode_png):
    from render.theme import THEMES

    pos = relocating_position()
    assert pos.phase == "relocate"
    image = decode_png(render.render_position(pos))
    lay = render.layout_of(pos)
    alert = THEMES["dark"].alert
    R = lay.radius
    for name, waiting in (("a1", True), ("c1", False), ("a2", False)):
        x, y = lay.centre(pos.grid.parse(name))
        assert near(image.getpixel((round(x), round(y + 0.8 * R))), alert) == waiting, name


def test_relocation_is_a_dashed_arrow_from_where_the_disc_was_lifted(decode_png, shown):
    from render.theme import THEMES

    pos = relocating_position()
    pos.play("a1>e5")
    image = decode_png(render.render_position(pos))
    lay = render.layout_of(pos)
    accent = THEMES["dark"].accent
    g = pos.grid
    (ax, ay), (bx, by) = lay.centre(g.parse("a1")), lay.centre(g.parse("e5"))
    samples = [image.getpixel((round(ax + (bx - ax) * t), round(ay + (by - ay) * t))) for t in [k / 100 for k in range(25, 76)]]
    on = sum(near(p, accent) for p in samples)
    # dashed: the line is there, with gaps
    assert 10 < on < len(samples) - 5
    assert disc_kind(image, lay, g.parse("e5"), shown) == "white"
    assert disc_kind(image, lay, g.parse("a1"), shown) != "white"
