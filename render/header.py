"""The header (one box per player) and the footer (last turn, caption).

Each box shows the piece, the player's name, which sides they connect (a
small rhombus with their two sides in their colour), what they hold, and a
badge when they act now or have won. Sizes scale with the picture's width and
are chosen to stay legible when Discord shrinks the picture on a phone.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from . import display
from .fonts import BOLD, MEDIUM, REGULAR, clean, font, has_rtl, text
from .fonts import text as fonts_text
from .geometry import Layout
from .pieces import DISC, disc, letter, place, stack
from .raster import Pen, sprite
from .scene import Cards, Panel, Piece, Scene
from .theme import RGB, PieceColours, Theme, hex_rgb
from .words import say

MARGIN = 12
#: the footer's text at 900 px wide, if that is more than its floor; it goes in the free corner left of the board
FOOTER_TEXT = 26
DARK_TEXT = hex_rgb("#1b1b1f")
LIGHT_TEXT = hex_rgb("#ffffff")


def header_height(scene: Scene, width: int) -> int:
    """Height of the header: the boxes plus the margin above them."""
    return round(MARGIN * width / 900 + _panel_height(scene, width))


def footer_height(scene: Scene, width: int) -> int:
    """Height kept under the board for the footer: none, it goes in the board's free corners."""
    return 0


def name_size(width: int) -> int:
    """Font size of the players' names: capitals at least :data:`display.NAME` tall on Discord."""
    return display.cap_font(display.NAME, width)


def badge_size(width: int) -> int:
    """Font size of the badge saying who acts now (capitals, at least :data:`display.BADGE` tall)."""
    return display.cap_font(display.BADGE, width)


def detail_size(width: int) -> int:
    """Font size of a box's second row (pieces in hand) and of the card row's words."""
    return display.cap_font(display.SMALL, width)


def card_size(width: int) -> int:
    """Font size of a Blind Hex card's number: a number, at least :data:`display.DIGIT` tall."""
    return display.cap_font(display.DIGIT, width)


def footer_size(width: int) -> int:
    """Font size of the footer's last turn and of the caption."""
    return max(display.cap_font(display.SMALL, width), round(FOOTER_TEXT * width / 900))


def _rows(width: int) -> tuple[int, int, int, int]:
    """Heights of a box's padding, name row, badge row and card row (they follow the font sizes)."""
    return round(8 * width / 900), round(1.3 * name_size(width)), round(1.5 * badge_size(width)), \
        round(1.55 * card_size(width))


def _panel_height(scene: Scene, width: int) -> int:
    """Box height: two rows, plus a row of cards in Blind Hex."""
    pad, row1, row2, cards = _rows(width)
    has_cards = any(p.cards is not None for p in scene.panels)
    return 2 * pad + row1 + row2 + (cards if has_cards else 0)


def draw_header(image: Image.Image, scene: Scene, lay: Layout, theme: Theme) -> None:
    """Draw both players' boxes across the top of ``image``."""
    strip = _header(scene.panels, lay.width, lay.header, theme)
    image.paste(strip, (0, 0))


# the boxes change only when a badge, a count or a card does: a game's pictures share most of them
@lru_cache(maxsize=128)
def _header(panels: tuple[Panel, Panel], width: int, height: int, theme: Theme) -> Image.Image:
    """The header strip: both boxes on the background (do not mutate)."""
    image = Image.new("RGB", (width, height), theme.background)
    s = width / 900
    m = MARGIN * s
    box_w = (width - 3 * m) / 2
    box_h = height - m
    for k, panel in enumerate(panels):
        x = m + k * (box_w + m)
        _draw_panel(image, panel, x, m, box_w, box_h, width, theme)
    return image


def _draw_panel(image: Image.Image, p: Panel, x: float, y: float, w: float, h: float, width: int, theme: Theme) -> None:
    """One player's box: the piece and the name; the badge (or what the player holds); Blind Hex's cards.

    At the size a phone shows the picture a name and a badge do not fit side by
    side in half its width, so each has a row of its own.
    """
    s = width / 900
    active = bool(p.badge) and p.tone != "idle"
    outline = {"turn": theme.accent, "alert": theme.alert, "win": theme.win}.get(p.tone)
    box = _box(round(w), round(h), theme.panel_active if active else theme.panel, outline, s)
    image.paste(box, (round(x), round(y)), box)
    draw = ImageDraw.Draw(image)
    pad, row1_h, row2_h, cards_h = _rows(width)
    pad_x = 10 * s
    icon_r = 0.36 * row1_h
    row1 = y + pad + row1_h / 2
    place(image, _icon(p.piece, icon_r / DISC), x + pad_x + icon_r, row1)
    text_x = x + pad_x + 2 * icon_r + 8 * s
    right = x + w - pad_x
    name = text(p.name, name_size(width), MEDIUM, right - text_x)
    name.draw(draw, (text_x, row1), theme.text, "lm")
    row2 = y + pad + row1_h + row2_h / 2
    left = x + pad_x
    if p.badge:
        left = _badge(image, p.badge, p.tone, left, row2, width, theme) + 10 * s
    else:
        icon = _sides_icon(p.vertical, p.colours, theme.muted, s)
        image.paste(icon, (round(left), round(row2 - icon.height / 2)), icon)
        left += icon.width + 8 * s
    # the icon shows the sides; their name only when there is nothing else to say
    words = p.detail or ("" if p.badge else p.sides)
    small = text(words, detail_size(width))
    if words and small.width <= right - left:  # whole or not at all: beside a badge it may not fit
        small.draw(draw, (left, row2), theme.muted, "lm")
    if p.cards is not None:
        _cards_row(image, draw, p.cards, x + pad_x, row2 + row2_h / 2 + cards_h / 2, width, theme)


def _icon(piece: Piece, radius: float) -> Image.Image:
    """The player's piece at header size."""
    if piece.kind == "letter":
        return letter(piece.colour, piece.colours, radius * 1.15)
    if piece.kind == "stack" and piece.under is not None:
        return stack(piece.under, piece.colours, radius)
    return disc(piece.colours, radius)


def _badge(image: Image.Image, word: str, tone: str, left: float, cy: float, width: int, theme: Theme) -> float:
    """A pill with a short state word, its left edge at ``left``; returns its right edge."""
    pill = _pill(word, tone, width, theme)
    image.paste(pill, (round(left), round(cy - pill.height / 2)), pill)
    return left + pill.width


@lru_cache(maxsize=64)
def _pill(word: str, tone: str, width: int, theme: Theme) -> Image.Image:
    """The badge sprite: a rounded pill in the tone's colour with the word in capitals."""
    s = width / 900
    size = badge_size(width)
    f = font(size, BOLD)
    label = word.upper()
    words = text(label, size, BOLD)
    hpad, hh = 10 * s, 0.7 * size
    w, h = round(words.width + 2 * hpad), round(2 * hh)
    fill, ink = {
        "win": (theme.win, DARK_TEXT),
        "alert": (theme.alert, LIGHT_TEXT),
        "idle": (theme.panel, theme.muted),
    }.get(tone, (theme.accent, DARK_TEXT))

    def paint(pen: Pen) -> None:
        box = (0, 0, w * pen.k - 1, h * pen.k - 1)
        if tone == "idle":
            pen.draw.rounded_rectangle(box, radius=hh * pen.k, fill=theme.muted)
            e = 1.5 * s * pen.k
            inner = (e, e, w * pen.k - 1 - e, h * pen.k - 1 - e)
            pen.draw.rounded_rectangle(inner, radius=hh * pen.k - e, fill=fill)
        else:
            pen.draw.rounded_rectangle(box, radius=hh * pen.k, fill=fill)

    pill = sprite((w, h), paint, factor=3)
    if words.runs and all(face == 0 for _, face in words.runs):
        ImageDraw.Draw(pill).text((w / 2, h / 2), label, font=f, fill=(*ink, 255), anchor="mm")
    else:  # a script Noto Sans lacks (Japanese): each run in the face that has it
        words.draw(ImageDraw.Draw(pill), (w / 2, h / 2), (*ink, 255), "mm")
    return pill


@lru_cache(maxsize=32)
def _box(w: int, h: int, fill: RGB, outline: RGB | None, s: float) -> Image.Image:
    """A rounded box, antialiased, with an optional coloured outline."""
    r = 12 * s
    stroke = 3 * s

    def paint(pen: Pen) -> None:
        rect = (0, 0, w * pen.k - 1, h * pen.k - 1)
        if outline is not None:
            pen.draw.rounded_rectangle(rect, radius=r * pen.k, fill=outline)
            inner = (stroke * pen.k, stroke * pen.k, (w - stroke) * pen.k - 1, (h - stroke) * pen.k - 1)
            pen.draw.rounded_rectangle(inner, radius=(r - stroke) * pen.k, fill=fill)
        else:
            pen.draw.rounded_rectangle(rect, radius=r * pen.k, fill=fill)

    return sprite((w, h), paint, factor=3)


@lru_cache(maxsize=32)
def _sides_icon(vertical: bool, colours: PieceColours, muted: RGB, s: float) -> Image.Image:
    """A small rhombus with the player's two sides drawn thick in their colour."""
    a = 22 * s
    hgt = a * 0.866
    pad = 3 * s
    pts = [(pad, pad), (pad + a, pad), (pad + 1.5 * a, pad + hgt), (pad + a / 2, pad + hgt)]
    sides = [(pts[0], pts[1]), (pts[1], pts[2]), (pts[2], pts[3]), (pts[3], pts[0])]
    mine = (0, 2) if vertical else (1, 3)
    size = (round(1.5 * a + 2 * pad) + 1, round(hgt + 2 * pad) + 1)

    def paint(pen: Pen) -> None:
        for k, (p, q) in enumerate(sides):
            if k not in mine:
                pen.line(p, q, muted, 1.2 * s)
        for k in mine:
            p, q = sides[k]
            pen.line(p, q, colours.band_edge, 5.6 * s)
            pen.line(p, q, colours.band, 3.6 * s)

    return sprite(size, paint)


def _cards_row(image: Image.Image, draw: ImageDraw.ImageDraw, cards: Cards, x: float, cy: float, width: int,
               theme: Theme) -> None:
    """Blind Hex: the cards set aside, then the two cards revealed this round."""
    s = width / 900
    for label, values, played in ((say("aside"), cards.aside, False), (say("played"), cards.played, True)):
        if not values:
            continue
        word = _word(label, display.cap_font(display.SMALL - 1, width), theme.muted)
        image.paste(word, (round(x), round(cy - word.height / 2)), word)
        x += word.width + 6 * s
        for v in values:
            c = _card(v, played, theme, width)
            image.paste(c, (round(x), round(cy - c.height / 2)), c)
            x += c.width + 4 * s
        x += 12 * s


@lru_cache(maxsize=16)
def _word(text: str, size: int, colour: RGB) -> Image.Image:
    """A fixed word as a transparent sprite, its height the font's line height."""
    f = font(size)
    ascent, descent = f.getmetrics()
    words = fonts_text(text, size)
    image = Image.new("RGBA", (max(1, round(words.width)), ascent + descent), (*colour, 0))
    if all(face == 0 for _, face in words.runs):
        ImageDraw.Draw(image).text((0, 0), text, font=f, fill=(*colour, 255))
    else:  # a script Noto Sans lacks (Japanese): each run in the face that has it
        words.draw(ImageDraw.Draw(image), (0, 0), (*colour, 255), "la")
    return image


@lru_cache(maxsize=64)
def _card(value: int, played: bool, theme: Theme, width: int) -> Image.Image:
    """A small playing card showing ``value`` (dimmed when only set aside), its number :data:`display.DIGIT` tall."""
    s = width / 900
    size = card_size(width)
    w, h = round(0.95 * size), round(1.4 * size)
    face = hex_rgb("#fbf9f4") if played else hex_rgb("#c9c4b8")
    ink = DARK_TEXT if played else hex_rgb("#4a4740")
    edge = theme.accent if played else hex_rgb("#7d786d")

    def paint(pen: Pen) -> None:
        pen.draw.rounded_rectangle((0, 0, w * pen.k - 1, h * pen.k - 1), radius=5 * s * pen.k, fill=edge)
        b = 2 * s * pen.k
        pen.draw.rounded_rectangle((b, b, w * pen.k - 1 - b, h * pen.k - 1 - b), radius=4 * s * pen.k, fill=face)

    card = sprite((w, h), paint, factor=3)
    ImageDraw.Draw(card).text((w / 2, h / 2), str(value), font=font(size, MEDIUM), fill=(*ink, 255), anchor="mm")
    return card


def draw_footer(image: Image.Image, scene: Scene, lay: Layout, theme: Theme) -> None:
    """The last turn in words in the free corner below-left of the board, the caption in the one above-right.

    A 4:3 picture leaves two empty triangles beside the rhombus; putting the
    words there gives the board the whole height. The last turn may take up to
    four lines, from the bottom up; what still does not fit ends in an ellipsis.
    """
    s = lay.scale
    draw = ImageDraw.Draw(image)
    size = footer_size(lay.width)
    m = MARGIN * s
    ascent, descent = font(size).getmetrics()
    if scene.caption:
        y = m / 2 + lay.header + 4 * s
        free = lay.free_right(y, y + ascent + descent) - m - 0.5 * size
        text(scene.caption, size, REGULAR, free).draw(draw, (lay.width - m, y), theme.muted, "ra")
    for words, x, y in last_turn_lines(scene, lay):
        _draw_line(image, draw, words, size, (x, y), theme.text)


def last_turn_lines(scene: Scene, lay: Layout) -> list[tuple[str, float, float]]:
    """The footer's last-turn lines as (words, left x, baseline y), bottom line first: in the free corner
    below-left of the board, in :func:`footer_size`."""
    if not scene.last:
        return []
    size = footer_size(lay.width)
    m = MARGIN * lay.scale
    line = 1.25 * size
    descent = font(size).getmetrics()[1]
    bottom = lay.height - m / 2
    # clear of the coordinates by half a letter: a row number right after the words would read as part of them
    gap = m + 0.5 * size
    lines = _wrap(scene.last, size, [lay.free_left(bottom - (k + 1) * line, bottom - k * line) - gap
                                     for k in (3, 2, 1, 0)])
    return [(words, m, bottom - k * line - descent) for k, words in enumerate(reversed(lines))]


def _advance(words: str, size: int) -> float:
    """Width of a line of words: the sum of each word's (cached) width and the spaces between them."""
    parts = words.split(" ")
    return sum(_word_width(w, size) for w in parts) + (len(parts) - 1) * font(size).getlength(" ")


@lru_cache(maxsize=4096)
def _word_width(word: str, size: int) -> float:
    """A word's advance width, measured once."""
    return text(word, size).width


def _wrap(value: str, size: int, widths: list[float], single: int = -1) -> list[str]:
    """``value`` broken at spaces into at most ``len(widths)`` lines of those widths (the last one cut short).

    ``value`` stays whole when it fits the width ``widths[single]`` (where a single line would go).
    """
    if _advance(value, size) <= widths[single]:
        return [value]
    words = value.split(" ")
    lines: list[str] = []
    for k, avail in enumerate(widths):
        if not words:
            break
        if k == len(widths) - 1:
            lines.append(_cut(words, size, avail))
            break
        taken = 1
        while taken < len(words) and _advance(" ".join(words[: taken + 1]), size) <= avail:
            taken += 1
        # a word wider than the whole line (a 32-character name) is cut to it, not let run over the board
        lines.append(" ".join(words[:taken]) if taken > 1 else _fit_word(words[0], size, avail))
        words = words[taken:]
    return lines


def _cut(words: list[str], size: int, avail: float) -> str:
    """As many whole words as fit ``avail`` with an ellipsis after them (all of them, if they fit, without).

    Measured with the cached word widths; only a first word too long for the
    line on its own is cut letter by letter.
    """
    whole = " ".join(words)
    if _advance(whole, size) <= avail:
        return whole
    room = avail - _word_width("…", size)
    taken = 0
    while taken < len(words) and _advance(" ".join(words[: taken + 1]), size) <= room:
        taken += 1
    if taken:
        return " ".join(words[:taken]) + "…"
    return _fit_word(words[0], size, avail)


def _fit_word(word: str, size: int, avail: float) -> str:
    """``word`` whole if it fits ``avail``, else its first letters and an ellipsis that fit (an ellipsis
    alone if none do). In reading order, as the line it goes in is drawn (right-to-left text too).

    A word that only reaches into the half letter kept clear of the coordinates (see
    :func:`last_turn_lines`) stays whole: "connection" cut to "connecti…" reads worse than a word
    that ends a little nearer the row numbers, and the margin beyond that half letter remains."""
    if _word_width(word, size) <= avail + 0.5 * size:
        return word
    letters = clean(word)
    while letters:
        letters = letters[:-1]
        if text(letters + "…", size).width <= avail:
            return letters + "…"
    return "…"


def _draw_line(image: Image.Image, draw: ImageDraw.ImageDraw, words: str, size: int, start: tuple[float, float],
               colour: RGB) -> None:
    """A line of words on the baseline from ``start``, word by word from cached sprites.

    The words of the last turn recur from picture to picture (names, verbs,
    cells): drawing each once and pasting it is several times cheaper than
    rasterising the line again. Right-to-left text is drawn whole (its words'
    order is the bidi algorithm's).
    """
    x, y = start
    if has_rtl(words):
        text(words, size).draw(draw, (x, y), colour, "ls")
        return
    space = font(size).getlength(" ")
    for w in words.split(" "):
        sprite_, dx, dy, advance = _word_ink(w, size, colour)
        if sprite_ is not None:
            image.paste(sprite_, (round(x + dx), round(y + dy)), sprite_)
        x += advance + space


@lru_cache(maxsize=4096)
def _word_ink(word: str, size: int, colour: RGB) -> tuple[Image.Image | None, int, int, float]:
    """A word drawn once: its sprite, the sprite's offset from the word's baseline start, and its advance width."""
    t = text(word, size)
    left, top, right, bottom = t.bbox()
    if right <= left:
        return None, 0, 0, t.width
    dx, dy = math.floor(left) - 1, math.floor(top) - 1
    image = Image.new("RGBA", (math.ceil(right) - dx + 2, math.ceil(bottom) - dy + 2), (*colour, 0))
    t.draw(ImageDraw.Draw(image), (-dx, -dy), (*colour, 255), "ls")
    return image, dx, dy, t.width


def draw_legend(image: Image.Image, scene: Scene, lay: Layout, theme: Theme) -> None:
    """A note per piece that needs explaining (the neutral disc), in the free corner above-right of the board.

    The piece, then its words, right-aligned; the words break over a second
    line where the corner is too narrow for them on one.
    """
    if not scene.legend:
        return
    s = lay.scale
    m = MARGIN * s
    size = footer_size(lay.width)
    draw = ImageDraw.Draw(image)
    ascent, descent = font(size).getmetrics()
    line = 1.2 * size
    y = lay.header + m / 2 + (1.3 * size if scene.caption else 0)
    for piece, words in scene.legend:
        icon = _icon(piece, 0.8 * size / DISC)
        widths = [lay.free_right(y + k * line, y + (k + 1) * line) - m - 0.5 * size - (icon.width + 6 * s) * (k == 0)
                  for k in (0, 1)]
        lines = _wrap(words, size, widths, single=0)
        for k, words_k in enumerate(lines):
            cy = y + (k + 0.5) * line
            right = lay.width - m - _advance(words_k, size)
            _draw_line(image, draw, words_k, size, (right, cy + (ascent - descent) / 2), theme.text)
            if k == 0:
                place(image, icon, right - 6 * s - icon.width / 2, cy)
        y += max(icon.height, len(lines) * line) + 4 * s
