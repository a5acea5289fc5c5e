"""Board pictures of inpHeXion, Hex and Blind Hex: pure functions from positions to images.

>>> import engine, render
>>> png = render.render_position(engine.new_game("hex", 5))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True

Everything here is pure and thread-safe: caches hold only immutable images and
layouts, and fonts are kept per thread.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from PIL import Image

from engine import Position

from .encode import png_bytes, to_palette
from .fonts import clean
from .games import scene_of
from .geometry import Layout, check_width
from .paint import paint, scene_layout
from .palette import palette_for
from .replay import render_replay
from .scene import Scene
from .theme import THEMES
from .theme import theme as _theme
from .words import Say, saying

#: default picture width: about three times the 248 px a phone shows (sharp on its high-density screen;
#: see :mod:`render.display`)
WIDTH = 720

__all__ = ["WIDTH", "THEMES", "Layout", "layout_of", "render_position", "render_image", "render_replay"]


def render_image(
    pos: Position,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
    width: int = WIDTH,
    flip: bool = False,
    caption: str | None = None,
    palette: bool = True,
    chosen: Collection[int] = (),
    choices: Collection[int] = (),
) -> Image.Image:
    """The picture of a position as a Pillow image (see :func:`render_position`).

    The image is in palette mode (``P``) with the look's fixed palette; pass
    ``palette=False`` for the full-colour RGB image it is mapped from.
    """
    check_width(width)
    look = _theme(theme)
    sc = _scene(pos, names, caption, chosen, choices)
    image = paint(sc, look, width, flip)
    if not palette:
        return image
    cards = any(p.cards is not None for p in sc.panels)
    return to_palette(image, palette_for(sc.style, sc.size, cards, look, width, flip))


def layout_of(
    pos: Position,
    *,
    names: Mapping[str, str] | None = None,
    width: int = WIDTH,
    flip: bool = False,
    caption: str | None = None,
) -> Layout:
    """Where :func:`render_position` with the same arguments draws each cell.

    ``layout_of(pos).centre(i)`` is the pixel centre of cell ``i`` and
    ``.radius`` the hexagons' radius: for tests, and for anything that must
    point at a cell in the picture.
    """
    return scene_layout(_scene(pos, names, caption, (), ()), width, flip)


def render_position(
    pos: Position,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
    width: int = WIDTH,
    flip: bool = False,
    caption: str | None = None,
    chosen: Collection[int] = (),
    choices: Collection[int] = (),
    say: Say | None = None,
) -> bytes:
    """PNG bytes of a position.

    ``names`` maps colours to player display names; ``theme`` is a key of
    :data:`THEMES`; ``flip`` turns the board half a turn (the view from the
    other side of the table); ``caption`` is shown at the bottom right.
    ``chosen`` and ``choices`` are cells (indices) to point out to someone
    picking on the board: what they picked (a green cell with a solid outline)
    and where they may pick next (green with a dashed outline, as Blind Hex's
    cells a letter may go to). ``say`` says the picture's words in the reader's language
    (see :mod:`render.words`; English without it).
    """
    with saying(say):
        return png_bytes(render_image(pos, names=names, theme=theme, width=width, flip=flip, caption=caption,
                                      chosen=chosen, choices=choices))


def _scene(pos: Position, names: Mapping[str, str] | None, caption: str | None, chosen: Collection[int],
           choices: Collection[int]) -> Scene:
    """The scene of a position with the caller's caption and picked cells."""
    sc = scene_of(pos, names)
    if caption:
        sc.caption = clean(caption)
    cells = pos.grid.cells
    bad = [c for c in (*chosen, *choices) if not 0 <= c < cells]
    if bad:
        raise ValueError(f"cells {bad} are not on a board of {cells} cells")
    sc.tints += [(c, "chosen") for c in chosen] + [(c, "hint") for c in choices]
    return sc
