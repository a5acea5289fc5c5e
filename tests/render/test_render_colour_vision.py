"""Every mark that means something stays visible and distinct under colour-vision deficiencies.

Each mark is drawn for real (the painter, the dark and light themes) on a cell,
and compared with the same picture without it. Both pictures go through the
Machado, Oliveira & Fernandes (2009) simulation of deuteranopia, protanopia and
tritanopia (severity 100, via ``colorspacious``); then a good share of the
mark's pixels must keep WCAG contrast ≥ 3:1 against what was under them. Marks
with different meanings must also differ in shape, not only in hue.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np
import pytest
from colorspacious import cspace_convert

import engine
from render.games import scene_of
from render.paint import paint
from render.scene import Arrow, Piece, Scene
from render.theme import BLACK, O_INK, WHITE, X_INK, theme

CVD = ["deuteranomaly", "protanomaly", "tritanomaly"]
WIDTH = 600
CELL = 12  # c3 on a 5x5 board: the middle
#: share of a mark's pixels that must reach 3:1 (its outline or body; antialiasing and soft inner shades may not)
SHARE = 0.25
#: pieces are told apart by their own look (see the shape test), not by contrast with the cell; the
#: last move's tint backs its ring or dot, which carries the contrast
NOT_MARKS = {"white disc", "black disc", "x letter", "o letter", "last move cell tint"}


def blank() -> Scene:
    sc = scene_of(engine.new_game("inphexion", 5), None)
    sc.last = ""
    return sc


def disc_on(sc: Scene, cell: int = CELL, colours=BLACK) -> Scene:
    sc.pieces.append(Piece(cell, "disc", "black" if colours is BLACK else "white", colours))
    return sc


def with_disc(colours=BLACK) -> Callable[[], Scene]:
    return lambda: disc_on(blank(), CELL, colours)


def last_cell(colours) -> Callable[[], Scene]:
    """A disc on the tinted cell of the last move: the ring or dot is the mark drawn over it."""

    def make() -> Scene:
        sc = disc_on(blank(), CELL, colours)
        sc.tints.append((CELL, "last"))
        return sc

    return make


# mark name -> (picture without it, how to add it)
MARKS: dict[str, tuple[Callable[[], Scene], Callable[[Scene], None]]] = {
    "last move ring on black": (last_cell(BLACK), lambda s: s.marks.append((CELL, "ring"))),
    "last move ring on white": (last_cell(WHITE), lambda s: s.marks.append((CELL, "ring"))),
    "last Hex stone dot on black": (last_cell(BLACK), lambda s: s.marks.append((CELL, "dot"))),
    "last Hex stone dot on white": (last_cell(WHITE), lambda s: s.marks.append((CELL, "dot"))),
    "last move cell tint": (with_disc(WHITE), lambda s: s.tints.append((CELL, "last"))),
    "must relocate on white": (with_disc(WHITE), lambda s: s.marks.append((CELL, "pending"))),
    "must relocate on black": (with_disc(BLACK), lambda s: s.marks.append((CELL, "pending"))),
    "relocated from (ghost)": (blank, lambda s: s.marks.append((CELL, "ghost"))),
    "relocation arrow": (blank, lambda s: s.arrows.append(Arrow(CELL - 1, CELL + 1, dashed=True))),
    "move arrow": (blank, lambda s: s.arrows.append(Arrow(CELL - 1, CELL + 1))),
    "winning chain": (with_disc(BLACK), lambda s: s.tints.append((CELL, "win"))),
    "may write here": (blank, lambda s: s.tints.append((CELL, "hint"))),
    "picked disc on white": (with_disc(WHITE), lambda s: s.tints.append((CELL, "chosen"))),
    "picked disc on black": (with_disc(BLACK), lambda s: s.tints.append((CELL, "chosen"))),
    "neutral disc": (blank, lambda s: s.pieces.append(Piece(CELL, "stack", "neutral", WHITE, BLACK))),
    "white disc": (blank, lambda s: disc_on(s, CELL, WHITE)),
    "black disc": (blank, lambda s: disc_on(s, CELL, BLACK)),
    "x letter": (blank, lambda s: s.pieces.append(Piece(CELL, "letter", "x", X_INK))),
    "o letter": (blank, lambda s: s.pieces.append(Piece(CELL, "letter", "o", O_INK))),
}


def pictures(name: str, look: str) -> tuple[np.ndarray, np.ndarray]:
    make, add = MARKS[name]
    base = make()
    marked = copy.deepcopy(base)
    add(marked)
    t = theme(look)
    return (np.asarray(paint(base, t, WIDTH), dtype=float) / 255, np.asarray(paint(marked, t, WIDTH), dtype=float) / 255)


def luminance(rgb: np.ndarray) -> np.ndarray:
    c = np.clip(rgb, 0, 1)
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return lin @ np.array([0.2126, 0.7152, 0.0722])


def contrast(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    la, lb = luminance(a), luminance(b)
    return (np.maximum(la, lb) + 0.05) / (np.minimum(la, lb) + 0.05)


def simulate(rgb: np.ndarray, kind: str) -> np.ndarray:
    return np.clip(cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": kind, "severity": 100}, "sRGB1"), 0, 1)


def mark_mask(base: np.ndarray, marked: np.ndarray) -> np.ndarray:
    return np.abs(marked - base).max(axis=2) > 8 / 255


@pytest.mark.parametrize("look", ["dark", "light"])
@pytest.mark.parametrize("kind", CVD)
@pytest.mark.parametrize("name", sorted(set(MARKS) - NOT_MARKS))
def test_mark_keeps_3_to_1_contrast_against_what_is_under_it(name, kind, look):
    base, marked = pictures(name, look)
    mask = mark_mask(base, marked)
    assert mask.sum() > 20  # the mark is drawn at all
    c = contrast(simulate(marked[mask], kind), simulate(base[mask], kind))
    assert (c >= 3.0).mean() >= SHARE, f"{name}: {(c >= 3.0).mean():.2f} of its pixels reach 3:1"


def test_the_simulation_is_the_machado_one():
    # pure red under full deuteranopia turns a dull olive: the model is really applied
    red = simulate(np.array([[1.0, 0.0, 0.0]]), "deuteranomaly")[0]
    assert red[0] < 0.8 and red[1] > 0.3 and abs(red[0] - red[1]) < 0.35


#: marks that mean different things and can meet on one board
DIFFERENT = [
    ("last move ring on white", "must relocate on white"),
    ("last Hex stone dot on black", "winning chain"),
    ("winning chain", "may write here"),
    ("last move cell tint", "winning chain"),
    ("last move cell tint", "may write here"),
    ("relocated from (ghost)", "must relocate on white"),
    ("move arrow", "relocation arrow"),
    ("neutral disc", "white disc"),
    ("neutral disc", "black disc"),
    ("picked disc on white", "must relocate on white"),
    ("picked disc on black", "must relocate on black"),
    # (a picked disc never meets the winning chain: nothing is picked once the game is won)
    ("picked disc on white", "last move ring on white"),
]


@pytest.mark.parametrize("kind", CVD)
@pytest.mark.parametrize("a,b", DIFFERENT)
def test_marks_with_different_meanings_differ_in_shape_or_lightness_not_only_hue(a, b, kind):
    base_a, marked_a = pictures(a, "dark")
    base_b, marked_b = pictures(b, "dark")
    ma, mb = mark_mask(base_a, marked_a), mark_mask(base_b, marked_b)
    union = ma | mb
    overlap = (ma & mb).sum() / union.sum()
    # what a colour-blind reader sees of each, in lightness only: hue is taken away
    la = luminance(simulate(marked_a[union], kind))
    lb = luminance(simulate(marked_b[union], kind))
    lightness = np.abs(la - lb).mean()
    assert overlap < 0.6 or lightness > 0.08, f"{a} / {b}: {overlap:.0%} same pixels, lightness differs by {lightness:.2f}"
