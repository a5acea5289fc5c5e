"""A tournament's standings as a picture: rank, name, points, tie-break columns and games, sized for Discord.

The picture follows the board pictures' rules (:mod:`render.display`): a phone
shows it 248 px wide, so every size here is chosen from the floors there
(names and numbers :data:`display.NAME` tall, column labels
:data:`display.DIGIT`), and it is at most square so that Discord's desktop
box never shows it smaller than a phone does. A name too long for its
column takes a second line; what still does not fit ends in an ellipsis.
Rows that do not fit the square are left out and counted on a last line
("+ 12 more"), so the caller can page through a long table.

Names go through the project's font machinery (:mod:`render.fonts`): any
script, right-to-left text shaped and ordered, emoji in outline. The picture
knows nothing of tournaments: it draws the rows it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from . import display
from .encode import png_bytes
from .fonts import BOLD, MEDIUM, REGULAR, clean, has_rtl, text
from .geometry import check_width
from .theme import Theme
from .theme import theme as _theme
from .words import Say, say, saying

#: default width, as the board pictures (about three times what a phone shows)
WIDTH = 720
#: lines a name may take before it is cut with an ellipsis
NAME_LINES = 2
#: a name's line height, and the space above and below a row's text, in font sizes
LINE = 1.2
PAD = 0.18


@dataclass(frozen=True, slots=True)
class Row:
    """One player's line: tie-break values follow the table's columns (None is shown as a dash)."""

    rank: int
    name: str
    points: float
    tiebreaks: tuple[float | None, ...] = ()
    games: int = 0
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """What the picture shows: an optional title, the tie-break column labels (short: "BH", "SB"), the rows."""

    rows: tuple[Row, ...]
    columns: tuple[str, ...] = ()
    title: str | None = None


@dataclass(frozen=True, slots=True)
class Column:
    """A column of numbers: its label and the x of its right edge (numbers are right-aligned)."""

    label: str
    right: float


@dataclass(frozen=True, slots=True)
class Line:
    """A row as laid out: its top, height, and the name's lines (one or two)."""

    row: Row
    top: float
    height: float
    name_lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StandingsLayout:
    """Where everything goes in a picture ``width`` × ``height``: for drawing, and for tests to check."""

    width: int
    height: int
    name_size: int
    label_size: int
    #: x of the rank column's right edge, and of the name column's left and right edges
    rank_right: float
    name_left: float
    name_right: float
    columns: tuple[Column, ...]
    title_top: float
    header_top: float
    header_height: float
    lines: tuple[Line, ...]
    #: rows given but not shown (they did not fit)
    more: int


def number(value: float | None) -> str:
    """A table number: whole numbers without a decimal point, halves with one, None as a dash.

    >>> number(3), number(2.5), number(None)
    ('3', '2.5', '–')
    """
    if value is None:
        return "–"
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _headers(columns: Sequence[str]) -> tuple[str, ...]:
    """The number columns' labels: points, the tie-breaks (given in the table, already said), games."""
    return (say("Pts"), *columns, say("G"))


def _cells(row: Row) -> tuple[str, ...]:
    """A row's numbers as text, in the order of :func:`_headers`."""
    return (number(row.points), *(number(v) for v in row.tiebreaks), str(row.games))


def layout(table: Table, width: int = WIDTH) -> StandingsLayout:
    """How :func:`render_standings` lays ``table`` out at ``width``."""
    check_width(width)
    return _layout(table, width, _headers(table.columns))


@lru_cache(maxsize=32)
def _layout(table: Table, width: int, headers: tuple[str, ...]) -> StandingsLayout:
    """:func:`layout` without the width check, cached by the words of the language being drawn (a
    table is laid out once to draw and once to test)."""
    s = width / 900
    margin = 16 * s
    name_size = display.cap_font(display.NAME, width)
    label_size = display.cap_font(display.DIGIT, width)
    gap = 0.45 * name_size
    # numbers, right to left: each column as wide as its widest cell or label
    cells = [_cells(r) for r in table.rows]
    x = width - margin
    columns: list[Column] = []
    for k in range(len(headers) - 1, -1, -1):
        widest = max([text(headers[k], label_size, MEDIUM).width, *(text(c[k], name_size, MEDIUM).width for c in cells)])
        columns.append(Column(headers[k], x))
        x -= widest + gap
    columns.reverse()
    name_right = x + gap - 0.9 * gap
    rank_right = margin + max(text(str(r.rank), name_size, MEDIUM).width for r in table.rows) if table.rows \
        else margin + text("00", name_size).width
    name_left = rank_right + gap
    line = LINE * name_size
    pad = PAD * name_size
    title_top = margin * 0.75
    header_top = title_top + (1.35 * name_size if table.title else 0)
    header_height = 1.5 * label_size
    y = header_top + header_height
    rows: list[Line] = []
    limit = width  # at most square: see the module docstring
    more_line = 1.5 * label_size
    for k, r in enumerate(table.rows):
        lines = name_lines(r.name, name_size, name_right - name_left)
        h = len(lines) * line + 2 * pad
        room = limit - margin * 0.75 - (more_line if k < len(table.rows) - 1 else 0)
        if y + h > room:
            break
        rows.append(Line(r, y, h, lines))
        y += h
    more = len(table.rows) - len(rows)
    height = round(y + (more_line if more else 0) + margin * 0.75)
    return StandingsLayout(width, height, name_size, label_size, rank_right, name_left, name_right,
                           tuple(columns), title_top, header_top, header_height, tuple(rows), more)


def name_lines(name: str, size: int, room: float) -> tuple[str, ...]:
    """``name`` in at most :data:`NAME_LINES` lines of ``room`` pixels, the last cut with an ellipsis if need be.

    Lines break at spaces; where that would leave the name cut short, they
    break anywhere instead (also what scripts written without spaces need).
    Right-to-left names keep one line, cut by :func:`render.fonts.text`, since
    their display order is the bidi algorithm's.
    """
    value = clean(name) or "?"
    if text(value, size, MEDIUM).width <= room:
        return (value,)
    if has_rtl(value):
        return (_cut(value, size, room),)
    at_spaces = _wrap(value, size, room, True)
    if not at_spaces[-1].endswith("…"):
        return at_spaces
    return _wrap(value, size, room, False)


def _wrap(value: str, size: int, room: float, at_spaces: bool) -> tuple[str, ...]:
    """``value`` in :data:`NAME_LINES` lines at most, broken at spaces or anywhere; the last cut if need be."""
    out: list[str] = []
    rest = value
    while rest and len(out) < NAME_LINES - 1:
        cut = _fit(rest, size, room, at_spaces)
        out.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        out.append(_cut(rest, size, room))
    return tuple(out)


def _cut(value: str, size: int, room: float) -> str:
    """``value`` (in logical order) if it fits ``room``, else as much of its start as fits with an ellipsis."""
    if text(value, size, MEDIUM).width <= room:
        return value
    chars = value
    while chars and text(chars.rstrip() + "…", size, MEDIUM).width > room:
        chars = chars[:-1]
    return chars.rstrip() + "…"


def _fit(value: str, size: int, room: float, at_spaces: bool) -> int:
    """How many characters of ``value`` start a line of ``room`` pixels (up to a space, if asked and there is one)."""
    n = 1
    while n < len(value) and text(value[: n + 1], size, MEDIUM).width <= room:
        n += 1
    if at_spaces and n < len(value):
        space = value.rfind(" ", 0, n + 1)
        if space > 0:
            return space + 1
    return n


def render_standings_image(table: Table, *, theme: str = "dark", width: int = WIDTH, say: Say | None = None) -> Image.Image:
    """The standings picture as an RGB Pillow image; ``say``: how its words are said (None: English, see
    :mod:`render.words`; the table's title and tie-break labels come said already)."""
    with saying(say):
        return _image(table, theme, width)


def _image(table: Table, theme: str, width: int) -> Image.Image:
    lay = layout(table, width)
    look = _theme(theme)
    image = Image.new("RGB", (lay.width, lay.height), look.background)
    draw = ImageDraw.Draw(image)
    s = width / 900
    margin = 16 * s
    if table.title:
        text(table.title, lay.name_size, BOLD, width - 2 * margin).draw(draw, (margin, lay.title_top), look.text, "la")
    label_y = lay.header_top + lay.header_height / 2
    text(say("#"), lay.label_size, MEDIUM).draw(draw, (lay.rank_right, label_y), look.muted, "rm")
    text(say("Player"), lay.label_size, MEDIUM).draw(draw, (lay.name_left, label_y), look.muted, "lm")
    for col in lay.columns:
        text(col.label, lay.label_size, MEDIUM).draw(draw, (col.right, label_y), look.muted, "rm")
    for k, line in enumerate(lay.lines):
        _draw_line(draw, lay, line, k, look, margin)
    if lay.more:
        y = lay.lines[-1].top + lay.lines[-1].height if lay.lines else lay.header_top + lay.header_height
        words = say("+ {count} more", count=lay.more)
        text(words, lay.label_size, REGULAR).draw(draw, (lay.name_left, y + 0.75 * lay.label_size), look.muted, "lm")
    return image


def _draw_line(draw: ImageDraw.ImageDraw, lay: StandingsLayout, line: Line, k: int, look: Theme,
               margin: float) -> None:
    """One row: a band on every other row, the rank, the name's lines, the numbers on the first line."""
    if k % 2 == 0:
        draw.rectangle((round(margin / 2), round(line.top), round(lay.width - margin / 2), round(line.top + line.height) - 1),
                       fill=look.panel)
    ink = look.muted if line.row.withdrawn else look.text
    first = line.top + (PAD + LINE / 2) * lay.name_size
    text(str(line.row.rank), lay.name_size, MEDIUM).draw(draw, (lay.rank_right, first), ink, "rm")
    for j, words in enumerate(line.name_lines):
        text(words, lay.name_size, MEDIUM).draw(draw, (lay.name_left, first + j * LINE * lay.name_size), ink, "lm")
    for n, (col, cell) in enumerate(zip(lay.columns, _cells(line.row))):
        weight = BOLD if n == 0 else MEDIUM  # the points
        text(cell, lay.name_size, weight).draw(draw, (col.right, first), ink, "rm")


def render_standings(table: Table, *, theme: str = "dark", width: int = WIDTH, say: Say | None = None) -> bytes:
    """PNG bytes of the standings picture (see the module docstring for what it shows), its words said by ``say``."""
    return png_bytes(render_standings_image(table, theme=theme, width=width, say=say))
