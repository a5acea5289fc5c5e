"""Draw a :class:`~render.scene.Scene`: board layer, tints, Blind Hex numbers, pieces, marks, arrows, header, footer.

The painter knows nothing about the games; it turns the scene's cells into
pixels with :mod:`render.geometry` and the cached sprites of
:mod:`render.pieces`. The only shapes drawn per picture are the arrows and the
winning line, on patches no bigger than they are.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from .board import board_layer, digit, digit_size, pair, pair_size
from .geometry import Layout, layout
from .header import draw_footer, draw_header, draw_legend, footer_height, header_height
from .pieces import DISC, cell_frame, cell_tint, diamond, disc, dot, ghost, letter, place, ring, stack
from .raster import Point, arrow_polygon, dashes
from .scene import Arrow, Piece, Scene
from .theme import RGB, Theme


def scene_layout(scene: Scene, width: int, flip: bool) -> Layout:
    """The layout a scene needs at ``width`` (its header grows for Blind Hex cards)."""
    return layout(scene.size, width, header_height(scene, width), footer_height(scene, width), flip)


def paint(scene: Scene, theme: Theme, width: int = 900, flip: bool = False) -> Image.Image:
    """The picture of ``scene`` as an RGB image."""
    lay = scene_layout(scene, width, flip)
    image = board_layer(scene.style, lay, theme).copy()
    R = lay.radius
    tints = {
        "win": (cell_tint(theme.win, 235, R),),
        "hint": (cell_tint(theme.hint, 150, R),),
        "chosen": (cell_tint(theme.hint, 150, R),),
        "last": (cell_tint(theme.accent, 200, R),),
    }
    for cell, kind in scene.tints:
        for sprite in tints.get(kind, ()):
            place(image, sprite, *lay.centre(cell))
    if scene.chain:
        # under the pieces: it joins the chain's tinted cells into one path
        _chain_line(image, lay, scene.chain, theme.win)
    _numbers(image, scene, lay, theme)
    # outlines over the numbers: the shape (solid or dashed) tells the two apart, not only the colour
    frames = {"win": cell_frame(theme.win_edge, R, False), "hint": cell_frame(theme.hint_edge, R, True),
              "chosen": cell_frame(theme.hint_edge, R, False)}
    for cell, kind in scene.tints:
        if kind in frames:
            place(image, frames[kind], *lay.centre(cell))
    for piece in scene.pieces:
        place(image, piece_sprite(piece, R), *lay.centre(piece.cell))
    marks = {
        "ring": lambda: ring(theme.accent, theme.accent_edge, R),
        "pending": lambda: diamond(theme.alert, theme.alert_edge, R),
        "dot": lambda: dot(theme.accent, theme.accent_edge, R),
        "ghost": lambda: ghost(theme.accent, theme.accent_edge, R),
    }
    for cell, kind in scene.marks:
        place(image, marks[kind](), *lay.centre(cell))
    for arrow in scene.arrows:
        _arrow(image, lay, arrow, theme)
    draw_header(image, scene, lay, theme)
    draw_legend(image, scene, lay, theme)
    draw_footer(image, scene, lay, theme)
    return image


def _numbers(image: Image.Image, scene: Scene, lay: Layout, theme: Theme) -> None:
    """Blind Hex's numbers, over the tints and the winning line so they keep their contrast.

    A numbered cell shows its number in bold, a plain cell the numbers it
    matches, smaller. An ``erase`` tint leaves out the numbers of a cell a
    letter stands on.
    """
    if not scene.style.numbers:
        return
    hidden = {cell for cell, kind in scene.tints if kind == "erase"}
    size = digit_size(lay)
    small = pair_size(lay)
    for cell, k in enumerate(scene.style.numbers):
        if cell in hidden:
            continue
        if k:
            place(image, digit(k, size, theme), *lay.centre(cell))
        elif scene.style.matches and scene.style.matches[cell]:
            place(image, pair(scene.style.matches[cell], small, theme), *lay.centre(cell))


def piece_sprite(piece: Piece, radius: float) -> Image.Image:
    """The cached sprite of a piece on cells of ``radius``."""
    if piece.kind == "letter":
        return letter(piece.colour, piece.colours, radius)
    if piece.kind == "stack" and piece.under is not None:
        return stack(piece.under, piece.colours, radius)
    return disc(piece.colours, radius)


def _stroke_patch(image: Image.Image, shapes: list[tuple[str, list[Point], float]], colour: RGB, factor: int = 3) -> None:
    """Fill polygons and stroke polylines in one colour, antialiased, on a patch around them.

    ``shapes`` holds (``"fill"``, points, 0), (``"line"``, points, width) with round ends
    and (``"bar"``, points, width) with square ends. The patch is a one-channel mask
    drawn at ``factor`` times the size, so long arrows stay cheap.
    """
    xs = [x for _, pts, _ in shapes for x, _ in pts]
    ys = [y for _, pts, _ in shapes for _, y in pts]
    grow = max((w for _, _, w in shapes), default=0) + 2
    left = max(0, math.floor(min(xs) - grow))
    top = max(0, math.floor(min(ys) - grow))
    right = min(image.width, math.ceil(max(xs) + grow))
    bottom = min(image.height, math.ceil(max(ys) + grow))
    if right <= left or bottom <= top:
        return
    mask = Image.new("L", ((right - left) * factor, (bottom - top) * factor), 0)
    d = ImageDraw.Draw(mask)

    def p(q: Point) -> Point:
        return (q[0] - left) * factor, (q[1] - top) * factor

    for kind, pts, width in shapes:
        if kind == "fill":
            d.polygon([p(q) for q in pts], fill=255)
        else:
            w = max(1, round(width * factor))
            d.line([p(q) for q in pts], fill=255, width=w, joint="curve")
            if kind == "bar":
                continue
            for q in (pts[0], pts[-1]):
                cx, cy = p(q)
                r = w / 2
                d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
    image.paste(colour, (left, top, right, bottom), mask.reduce(factor))


def _arrow(image: Image.Image, lay: Layout, arrow: Arrow, theme: Theme) -> None:
    """A last-turn arrow with a dark outline: from off the start cell's centre to short of the end's."""
    R = lay.radius
    (ax, ay), (bx, by) = lay.centre(arrow.start), lay.centre(arrow.end)
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    # a relocation starts at the rim of the ghost of the lifted disc
    start_gap = DISC * R * 0.95 if arrow.dashed else 0.28 * R
    end_gap = 0.28 * R
    a = (ax + ux * start_gap, ay + uy * start_gap)
    b = (bx - ux * end_gap, by - uy * end_gap)
    shaft, head_l, head_w = 0.2 * R, 0.55 * R, 0.64 * R
    edge = max(1.2, 0.06 * R)
    head = arrow_polygon(a, b, shaft, head_l, head_w)
    if arrow.dashed:
        # the shaft in dashes up to the head's base, then the head itself
        base = ((head[1][0] + head[5][0]) / 2, (head[1][1] + head[5][1]) / 2)
        pieces = dashes(a, base, 0.4 * R, 0.3 * R)
        tri = [head[2], head[3], head[4]]
        # each dash's outline reaches ``edge`` past its ends; the rest of the gap shows the board
        outline = [("bar", [(p[0] - ux * edge, p[1] - uy * edge), (q[0] + ux * edge, q[1] + uy * edge)], shaft + 2 * edge) for p, q in pieces]
        outline += _outlined(tri, edge)
        fill = [("bar", [p, q], shaft) for p, q in pieces] + [("fill", tri, 0.0)]
    else:
        outline = _outlined(head, edge)
        fill = [("fill", head, 0.0)]
    _stroke_patch(image, outline, theme.accent_edge)
    _stroke_patch(image, fill, theme.accent)


def _outlined(poly: list[Point], edge: float) -> list[tuple[str, list[Point], float]]:
    """A polygon and a stroke ``edge`` wide round it: the dark border drawn behind a shape."""
    return [("fill", poly, 0.0), ("line", poly + [poly[0]], 2 * edge)]


def _chain_line(image: Image.Image, lay: Layout, chain: list[int], colour: RGB) -> None:
    """A broad line through the centres of the winning chain."""
    pts = [lay.centre(c) for c in chain]
    if len(pts) < 2:
        return
    # mostly hidden under the pieces, so a coarser mask does: it spans the whole board
    _stroke_patch(image, [("line", pts, 0.5 * lay.radius)], colour, factor=2)
