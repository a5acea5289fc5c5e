"""A review's win-probability graph: the first player's chance to win after every turn, with the
marked turns (inaccuracy, mistake, blunder) as dots, drawn for Discord's display size.

Only numbers come in (the chances and the marks) and whose chance it shows (a name and a colour),
so the picture knows nothing of games; its one sentence, the caption, is said through
:func:`render.words.say` in the language of the message it goes with (the caller's ``say``; the
fonts draw Japanese as they draw a board's words). The legend is the marks themselves (``?!``,
``?``, ``??``), which the message around the picture names. Text holds the floors of
:mod:`render.display` where the picture is shown smallest (a phone): the caption and legend
10 px, the axis numbers 8 px (tests/render/test_render_legibility.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from . import display, words
from .encode import png_bytes
from .fonts import BOLD, MEDIUM, text
from .theme import RGB, Theme, theme
from .words import Say, saying

#: the picture's width (as a board's) and its height: wide, for a line over many turns
WIDTH = 720
HEIGHT = 540
#: the marks drawn, mildest first, and which of the theme's colours each dot has
MARK_COLOURS: Mapping[str, str] = {"?!": "win", "?": "accent", "??": "alert"}
#: each mark's dot radius, as a share of the axis numbers' font size
DOT: Mapping[str, float] = {"?!": 0.3, "?": 0.4, "??": 0.5}


def caption_size(width: int = WIDTH) -> int:
    """Font size of the caption and legend (10 display px capitals where the picture shows smallest)."""
    return display.cap_font(display.NAME, width)


def axis_size(width: int = WIDTH) -> int:
    """Font size of the axis numbers (8 display px digits)."""
    return display.cap_font(display.DIGIT, width)


def render_review_graph(chances: Sequence[float], marks: Sequence[tuple[int, str]], name: str, colour: str, *,
                        say: Say | None = None, first: RGB | None = None, theme_name: str = "dark",
                        width: int = WIDTH) -> bytes:
    """The graph as PNG bytes: ``chances`` are the first player's chance to win (0–1) at the start
    and after each turn; ``marks`` are (index into ``chances`` after the marked turn, mark);
    ``name`` and ``colour``: the first player's, in the caption (said with ``say``, None: English);
    ``first``: the first player's colour for the area under the line (default: the theme's text)."""
    with saying(say):
        caption = words.say("Chance to win of {name} ({colour})", name=name, colour=colour)
    th = theme(theme_name)
    # A caption and a legend line, the plot under them.
    height = round(width * HEIGHT / WIDTH)
    img = Image.new("RGB", (width, height), th.background)
    draw = ImageDraw.Draw(img)
    big, small = caption_size(width), axis_size(width)
    pad = round(width * 0.02)
    # The caption, then the legend, at the top (each a line: at a phone's size they are wide).
    top = pad + big
    text(caption, big, BOLD, max_width=width - 2 * pad).draw(draw, (pad, top), th.text)
    top += round(big * 1.5)
    _legend(draw, th, big, pad, top)
    # The plot: left of it the percentages, under it the turn numbers (the last one's half beyond its end).
    left = pad + text("100%", small, MEDIUM).width + pad // 2
    right = width - pad - text(str(max(1, len(chances) - 1)), small, MEDIUM).width / 2
    plot = (left, top + big // 2 + pad, right, height - pad - 2 * small)
    _plot(draw, th, plot, chances, marks, first or th.text, small)
    return png_bytes(img)


def _legend(draw: ImageDraw.ImageDraw, th: Theme, size: int, left: float, baseline: float) -> None:
    """The marks' dots, each with its mark, in a line from ``left``."""
    x = left
    r = size * 0.35
    for mark in MARK_COLOURS:
        cy = baseline - size * 0.36
        draw.ellipse((x, cy - r, x + 2 * r, cy + r), fill=getattr(th, MARK_COLOURS[mark]), outline=th.background)
        x += r * 2 + size * 0.3
        name = text(mark, size, MEDIUM)
        name.draw(draw, (x, baseline), th.text)
        x += name.width + size * 0.9


def _plot(draw: ImageDraw.ImageDraw, th: Theme, box: tuple[float, float, float, float], chances: Sequence[float],
          marks: Sequence[tuple[int, str]], first: RGB, size: int) -> None:
    """The axes, the 50% line, the area of the first player's chance and the marked turns."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=th.panel)
    last = max(1, len(chances) - 1)

    def at(i: int, p: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * i / last, y1 - (y1 - y0) * min(1.0, max(0.0, p))

    if chances:
        points = [at(i, p) for i, p in enumerate(chances)]
        if len(points) == 1:
            points.append((x1, points[0][1]))
        draw.polygon([(x0, y1), *points, (points[-1][0], y1)], fill=_blend(th.panel, first, 0.35))
        draw.line(points, fill=first, width=max(2, round(size / 5)), joint="curve")
    for pct in (0, 50, 100):
        y = at(0, pct / 100)[1]
        if pct == 50:
            _dashed(draw, (x0, y), (x1, y), th.muted, max(1, round(size / 8)))
        text(f"{pct}%", size, MEDIUM).draw(draw, (x0 - size * 0.4, y), th.label, anchor="rm")
    for i in _ticks(last):
        x = at(i, 0)[0]
        draw.line((x, y1, x, y1 + size * 0.3), fill=th.muted, width=1)
        text(str(i), size, MEDIUM).draw(draw, (x, y1 + size * 0.4), th.label, anchor="ma")
    # The worse the mark, the bigger its dot, drawn on top; a long game's dots are smaller (they crowd).
    crowded = 0.7 if len(chances) > 100 else 1.0
    order = list(MARK_COLOURS)
    for i, mark in sorted(marks, key=lambda m: order.index(m[1]) if m[1] in order else -1):
        if 0 <= i < len(chances) and mark in MARK_COLOURS:
            x, y = at(i, chances[i])
            r = size * DOT[mark] * crowded
            draw.ellipse((x - r, y - r, x + r, y + r), fill=getattr(th, MARK_COLOURS[mark]), outline=th.background,
                         width=max(1, round(size / 8)))


def _ticks(last: int) -> list[int]:
    """Turn numbers under the axis: 0, the end, and round steps between (at most 7 in all).

    >>> _ticks(10), _ticks(300)
    ([0, 2, 4, 6, 8, 10], [0, 50, 100, 150, 200, 250, 300])
    """
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 10**9) if last / s <= 6)
    ticks = list(range(0, last + 1, step))
    if last - ticks[-1] >= step / 2:
        ticks.append(last)
    return ticks


def _dashed(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: RGB, width: int) -> None:
    """A horizontal dashed line from ``a`` to ``b``."""
    x, y = a
    dash = 8 * width
    while x < b[0]:
        draw.line((x, y, min(b[0], x + dash), y), fill=fill, width=width)
        x += 2 * dash


def _blend(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))
