"""The header (one box per player) and the footer (last turn, caption).

Each box shows the piece, the player's name, which sides they connect (a
small rhombus with their two sides in their colour), what they hold, and a
badge when they act now or have won. Sizes scale with the picture's width and
are chosen to stay legible when Discord shrinks the picture on a phone.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from . import display
from .fonts import BOLD, MEDIUM, REGULAR, Text, font, text
from .geometry import Layout
from .pieces import DISC, disc, letter, place, stack
from .raster import Pen, sprite
from .scene import Cards, Panel, Piece, Scene
from .theme import RGB, PieceColours, Theme, hex_rgb

MARGIN = 12
ROW1 = 60
ROW2 = 38
CARD_ROW = 50
#: the coordinates' and footer's text at 900 px wide; the footer goes in the free corner left of the board
FOOTER_TEXT = 26
DARK_TEXT = hex_rgb("#1b1b1f")
LIGHT_TEXT = hex_rgb("#ffffff")


def header_height(scene: Scene, scale: float) -> int:
    """Height of the header: the boxes plus the margin above them."""
    return round((MARGIN + _panel_height(scene)) * scale)


def footer_height(scene: Scene, scale: float) -> int:
    """Height kept under the board for the footer: none, it goes in the board's free corners."""
    return 0


def name_size(width: int) -> int:
    """Font size of the players' names: capitals at least :data:`display.NAME` tall on Discord."""
    return display.cap_font(display.NAME, width)


def badge_size(width: int) -> int:
    """Font size of the badge saying who acts now (capitals, at least :data:`display.BADGE` tall)."""
    return display.cap_font(display.BADGE, width)


def detail_size(scale: float) -> int:
    """Font size of a box's second row (sides, pieces in hand)."""
    return round(24 * scale)


def footer_size(scale: float) -> int:
    """Font size of the footer's last turn and of the caption."""
    return round(FOOTER_TEXT * scale)


def _panel_height(scene: Scene) -> int:
    """Box height at scale 1: two rows, plus a row of cards in Blind Hex."""
    has_cards = any(p.cards is not None for p in scene.panels)
    return 8 + ROW1 + ROW2 + (CARD_ROW if has_cards else 0) + 6


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
    """One player's box."""
    s = width / 900
    active = bool(p.badge) and p.tone != "idle"
    outline = {"turn": theme.accent, "alert": theme.alert, "win": theme.win}.get(p.tone)
    box = _box(round(w), round(h), theme.panel_active if active else theme.panel, outline, s)
    image.paste(box, (round(x), round(y)), box)
    draw = ImageDraw.Draw(image)
    pad = 10 * s
    icon_r = 21 * s
    row1 = y + pad + ROW1 * s / 2
    place(image, _icon(p.piece, icon_r / DISC), x + pad + icon_r, row1)
    text_x = x + pad + 2 * icon_r + 10 * s
    right = x + w - pad
    if p.badge:
        right = _badge(image, p.badge, p.tone, right, row1, width, theme) - 8 * s
    name = text(p.name, name_size(width), MEDIUM, right - text_x)
    name.draw(draw, (text_x, row1), theme.text, "lm")
    row2 = y + pad + ROW1 * s + ROW2 * s / 2
    icon = _sides_icon(p.vertical, p.colours, theme.muted, s)
    image.paste(icon, (round(text_x), round(row2 - icon.height / 2)), icon)
    # the icon shows the sides; their name only when there is nothing else to say
    words = p.detail or p.sides
    small = text(words, detail_size(s), REGULAR, x + w - pad - text_x - icon.width - 8 * s)
    small.draw(draw, (text_x + icon.width + 8 * s, row2), theme.muted, "lm")
    if p.cards is not None:
        _cards_row(image, draw, p.cards, text_x, row2 + ROW2 * s / 2 + CARD_ROW * s / 2, s, theme)


def _icon(piece: Piece, radius: float) -> Image.Image:
    """The player's piece at header size."""
    if piece.kind == "letter":
        return letter(piece.colour, piece.colours, radius * 1.15)
    if piece.kind == "stack" and piece.under is not None:
        return stack(piece.under, piece.colours, radius)
    return disc(piece.colours, radius)


def _badge(image: Image.Image, word: str, tone: str, right: float, cy: float, width: int, theme: Theme) -> float:
    """A pill with a short state word, right-aligned at ``right``; returns its left edge."""
    pill = _pill(word, tone, width, theme)
    left = right - pill.width
    image.paste(pill, (round(left), round(cy - pill.height / 2)), pill)
    return left


@lru_cache(maxsize=64)
def _pill(word: str, tone: str, width: int, theme: Theme) -> Image.Image:
    """The badge sprite: a rounded pill in the tone's colour with the word in capitals."""
    s = width / 900
    size = badge_size(width)
    f = font(size, BOLD)
    label = word.upper()
    hpad, hh = 10 * s, 0.7 * size
    w, h = round(f.getlength(label) + 2 * hpad), round(2 * hh)
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
    ImageDraw.Draw(pill).text((w / 2, h / 2), label, font=f, fill=(*ink, 255), anchor="mm")
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


def _cards_row(image: Image.Image, draw: ImageDraw.ImageDraw, cards: Cards, x: float, cy: float, s: float, theme: Theme) -> None:
    """Blind Hex: the cards set aside, then the two cards revealed this round."""
    for label, values, played in (("aside", cards.aside, False), ("played", cards.played, True)):
        if not values:
            continue
        word = _word(label, round(16 * s), theme.muted)
        image.paste(word, (round(x), round(cy - word.height / 2)), word)
        x += word.width + 8 * s
        for v in values:
            c = _card(v, played, theme, s)
            image.paste(c, (round(x), round(cy - c.height / 2)), c)
            x += c.width + 4 * s
        x += 14 * s


@lru_cache(maxsize=16)
def _word(text: str, size: int, colour: RGB) -> Image.Image:
    """A fixed word as a transparent sprite, its height the font's line height."""
    f = font(size)
    ascent, descent = f.getmetrics()
    image = Image.new("RGBA", (max(1, round(f.getlength(text))), ascent + descent), (*colour, 0))
    ImageDraw.Draw(image).text((0, 0), text, font=f, fill=(*colour, 255))
    return image


@lru_cache(maxsize=64)
def _card(value: int, played: bool, theme: Theme, s: float) -> Image.Image:
    """A small playing card showing ``value`` (dimmed when only set aside)."""
    w, h = round(28 * s), round(38 * s)
    face = hex_rgb("#fbf9f4") if played else hex_rgb("#c9c4b8")
    ink = DARK_TEXT if played else hex_rgb("#4a4740")
    edge = theme.accent if played else hex_rgb("#7d786d")

    def paint(pen: Pen) -> None:
        pen.draw.rounded_rectangle((0, 0, w * pen.k - 1, h * pen.k - 1), radius=5 * s * pen.k, fill=edge)
        b = 2 * s * pen.k
        pen.draw.rounded_rectangle((b, b, w * pen.k - 1 - b, h * pen.k - 1 - b), radius=4 * s * pen.k, fill=face)

    card = sprite((w, h), paint, factor=3)
    ImageDraw.Draw(card).text((w / 2, h / 2), str(value), font=font(round(22 * s)), fill=(*ink, 255), anchor="mm")
    return card


def draw_footer(image: Image.Image, scene: Scene, lay: Layout, theme: Theme) -> None:
    """The last turn in words in the free corner below-left of the board, the caption in the one above-right.

    A 4:3 picture leaves two empty triangles beside the rhombus; putting the
    words there gives the board the whole height. The last turn may take two
    lines, from the bottom up; what still does not fit ends in an ellipsis.
    """
    s = lay.scale
    draw = ImageDraw.Draw(image)
    size = footer_size(s)
    m = MARGIN * s
    line = 1.25 * size
    ascent, descent = font(size).getmetrics()
    if scene.caption:
        y = m / 2 + lay.header + 4 * s
        free = lay.free_right(y, y + ascent + descent) - m
        text(scene.caption, size, REGULAR, free).draw(draw, (lay.width - m, y), theme.muted, "ra")
    if scene.last:
        bottom = lay.height - m / 2
        lines = _wrap(scene.last, size, [lay.free_left(bottom - (k + 1) * line, bottom - k * line) - m for k in (2, 1, 0)])
        for k, words in enumerate(reversed(lines)):
            words.draw(draw, (m, bottom - k * line), theme.text, "ld")


def _wrap(value: str, size: int, widths: list[float]) -> list[Text]:
    """``value`` broken at spaces into at most ``len(widths)`` lines of those widths (the last one cut short)."""
    if text(value, size).width <= widths[-1]:
        return [text(value, size)]
    words = value.split(" ")
    lines: list[Text] = []
    for k, avail in enumerate(widths):
        if not words:
            break
        if k == len(widths) - 1:
            lines.append(text(" ".join(words), size, REGULAR, avail))
            break
        taken = 1
        while taken < len(words) and text(" ".join(words[: taken + 1]), size).width <= avail:
            taken += 1
        lines.append(text(" ".join(words[:taken]), size, REGULAR, avail))
        words = words[taken:]
    return lines


def draw_legend(image: Image.Image, scene: Scene, lay: Layout, theme: Theme) -> None:
    """A line per piece that needs explaining (the neutral disc), in the free corner above-right of the board."""
    if not scene.legend:
        return
    s = lay.scale
    m = MARGIN * s
    size = footer_size(s)
    draw = ImageDraw.Draw(image)
    ascent, descent = font(size).getmetrics()
    y = lay.header + m / 2 + (1.3 * size if scene.caption else 0)
    for piece, words in scene.legend:
        icon = _icon(piece, 0.8 * size / DISC)
        free = lay.free_right(y, y + max(icon.height, ascent + descent)) - m
        line = text(words, size, REGULAR, max(0.0, free - icon.width - 6 * s))
        line.draw(draw, (lay.width - m, y + icon.height / 2), theme.text, "rm")
        place(image, icon, lay.width - m - line.width - 6 * s - icon.width / 2, y + icon.height / 2)
        y += icon.height + 4 * s
