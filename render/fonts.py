"""The pictures' fonts: Noto Sans and, for what it lacks, a chain of Noto faces for every script.

The faces come from two PyPI packages (``manimgx-fonts``: Noto Sans, Noto Sans
Arabic, Hebrew, Symbols, Noto Emoji and other scripts; ``manimgx-fonts-cjk``:
Noto Sans CJK), so ``pip install`` brings them and every machine draws the same
pixels. A player's name is drawn exactly as written: each character goes to the
first face of :data:`CHAIN` that has it. Arabic is shaped (letters joined) and
right-to-left text put in display order here, with ``arabic-reshaper`` and
``python-bidi``, rather than by Pillow's optional libraqm, which needs a system
FriBiDi library a fresh machine may not have.

Emoji are drawn in Noto Emoji's one-colour outlines in the text's colour (a
readable fallback for Discord's coloured ones). A character no face has is drawn
as U+FFFD, never left out silently.

FreeType faces must not be used by two threads at once, so each thread keeps
its own fonts.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import arabic_reshaper
import manimgx_fonts
import manimgx_fonts_cjk
from bidi import get_display
from PIL import ImageDraw, ImageFont

_LATIN = Path(manimgx_fonts.__file__).parent
_CJK = Path(manimgx_fonts_cjk.__file__).parent

#: the faces tried in order for each character: (file, face index in a collection)
CHAIN: tuple[tuple[Path, int], ...] = (
    (_LATIN / "NotoSans[wght].ttf", 0),
    (_LATIN / "NotoSansArabic[wght].ttf", 0),
    (_LATIN / "NotoSansHebrew[wght].ttf", 0),
    (_CJK / "NotoSansCJK-VF.otf.ttc", 0),
    (_LATIN / "NotoEmoji[wght].ttf", 0),
    (_LATIN / "NotoSansSymbols[wght].ttf", 0),
    *((p, 0) for p in sorted(_LATIN.glob("NotoSans?*[[]wght[]].ttf"))
      if p.name not in {"NotoSans-Italic[wght].ttf", "NotoSansArabic[wght].ttf", "NotoSansHebrew[wght].ttf",
                        "NotoSansSymbols[wght].ttf"}),
)
#: weights: text at small sizes reads better a little heavier than Noto's 400
REGULAR, MEDIUM, BOLD = 450, 550, 700
#: what a character no face has is drawn as
MISSING = "\ufffd"
#: code points that only steer emoji presentation or joining: drawn as nothing (the emoji around them still are)
_INVISIBLE = {0x200D, 0xFE0E, 0xFE0F, 0x20E3, *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080)}

#: faces whose space is too wide for text: a space after an emoji is Noto Sans' space
_WIDE_SPACE = {"NotoEmoji[wght].ttf", "NotoSansSymbols[wght].ttf"}

_local = threading.local()


def font(size: int, weight: int = REGULAR, face: int = 0) -> ImageFont.FreeTypeFont:
    """Face ``face`` of :data:`CHAIN` (0: Noto Sans) at ``size`` pixels and ``weight``, cached per thread."""
    cache: dict[tuple[int, int, int], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (max(1, int(size)), weight, face)
    f = cache.get(key)
    if f is None:
        path, index = CHAIN[face]
        # BASIC layout: the same pixels with or without libraqm (shaping is done in :func:`runs`)
        f = ImageFont.truetype(str(path), key[0], index=index, layout_engine=ImageFont.Layout.BASIC)
        axes = f.get_variation_axes()
        if axes:  # every face is variable in weight; the CJK one defaults to Thin
            f.set_variation_by_axes([min(max(weight, a["minimum"] or 0), a["maximum"] or weight) for a in axes])
        cache[key] = f
    return f


@lru_cache(maxsize=8192)
def face_of(ch: str) -> int:
    """Index in :data:`CHAIN` of the first face that draws ``ch``, or -1 when none does."""
    if ch == " " or (ch.isascii() and ch.isprintable()):
        return 0
    for k in range(len(CHAIN)):
        f = font(24, REGULAR, k)
        missing = f.getmask("\U0010fffd")
        mask = f.getmask(ch)
        if not (mask.size == missing.size and bytes(mask) == bytes(missing)):
            return k
    return -1


def clean(text: str) -> str:
    """``text`` ready to draw: composed (NFC), spaces collapsed, control characters dropped."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(ch for ch in text if ch.isprintable() or ch == " ")
    return " ".join(text.split())


def has_rtl(text: str) -> bool:
    """Whether ``text`` holds a right-to-left letter (Hebrew, Arabic...)."""
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


@lru_cache(maxsize=1024)
def runs(text: str) -> tuple[tuple[str, int], ...]:
    """``text`` in display order, cut into (piece, face) runs that one face draws each.

    Arabic letters are replaced by their joined presentation forms and right-to-left
    stretches reversed (the Unicode bidi algorithm), so drawing the runs left to
    right shows the text as a reader expects.
    """
    text = clean(text)
    if has_rtl(text):
        text = get_display(arabic_reshaper.reshape(text))
    out: list[tuple[str, int]] = []
    for ch in text:
        if ord(ch) in _INVISIBLE:
            continue
        k = face_of(ch)
        if k < 0:
            ch, k = MISSING, face_of(MISSING)
        if ch == " " and out and CHAIN[out[-1][1]][0].name not in _WIDE_SPACE:
            k = out[-1][1]  # a space stays in the run it is in (but Noto Emoji's is as wide as an emoji)
        if out and out[-1][1] == k:
            out[-1] = (out[-1][0] + ch, k)
        else:
            out.append((ch, k))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Text:
    """A line of text in one size and weight, measured (see :func:`text`)."""

    runs: tuple[tuple[str, int], ...]
    size: int
    weight: int

    @property
    def width(self) -> float:
        """Advance width in pixels."""
        return sum(font(self.size, self.weight, k).getlength(s) for s, k in self.runs)

    def _fonts(self) -> Iterator[tuple[str, ImageFont.FreeTypeFont]]:
        for s, k in self.runs:
            yield s, font(self.size, self.weight, k)

    def bbox(self) -> tuple[float, float, float, float]:
        """Ink box (left, top, right, bottom) relative to the start of the baseline."""
        x = 0.0
        box = [0.0, 0.0, 0.0, 0.0]
        first = True
        for s, f in self._fonts():
            left, top, right, bottom = f.getbbox(s, anchor="ls")
            if s.strip():
                if first:
                    box = [x + left, top, x + right, bottom]
                    first = False
                else:
                    box = [min(box[0], x + left), min(box[1], top), max(box[2], x + right), max(box[3], bottom)]
            x += f.getlength(s)
        return box[0], box[1], box[2], box[3]

    def draw(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], fill: tuple[int, ...], anchor: str = "ls") -> None:
        """Draw at ``xy`` with a Pillow-style two-letter ``anchor`` (``l``/``m``/``r`` then ``a``/``m``/``s``/``d``).

        The vertical anchor uses Noto Sans' ascender and descender whatever faces
        the runs need, so every piece stands on one baseline.
        """
        x, y = xy
        w = self.width
        x -= {"l": 0.0, "m": w / 2, "r": w}[anchor[0]]
        ascent, descent = font(self.size, self.weight).getmetrics()
        y += {"a": ascent, "m": (ascent - descent) / 2, "s": 0.0, "d": -descent}[anchor[1]]
        for s, f in self._fonts():
            draw.text((x, y), s, font=f, fill=fill, anchor="ls")
            x += f.getlength(s)


def text(value: str, size: int, weight: int = REGULAR, max_width: float | None = None) -> Text:
    """``value`` prepared to draw, cut with an ellipsis when it is wider than ``max_width``."""
    t = Text(runs(value), size, weight)
    if max_width is None or t.width <= max_width:
        return t
    chars = clean(value)
    while chars:
        chars = chars[:-1]
        t = Text(runs(chars.rstrip() + "…"), size, weight)
        if t.width <= max_width:
            return t
    return Text(runs("…"), size, weight)
