"""The one font of the pictures: Pillow's bundled default (Aileron) at a real size.

It ships inside Pillow, so nothing has to be installed by hand. Its glyphs
cover little beyond ASCII (no accented letters, arrows or dashes): marks are
drawn as shapes, and player names go through :func:`drawable`.

FreeType faces must not be used by two threads at once, so each thread keeps
its own fonts (loading one takes about a millisecond).
"""

from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache

from PIL import ImageFont

_local = threading.local()


def font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` pixels, cached for the calling thread."""
    cache: dict[int, ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    f = cache.get(size)
    if f is None:
        f = ImageFont.load_default(size=max(1, int(size)))
        if not isinstance(f, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow without FreeType
            raise RuntimeError("Pillow was built without FreeType; the board pictures need it")
        cache[size] = f
    return f


def fit(text: str, size: int, max_width: float) -> str:
    """``text`` cut with an ellipsis so that it fits ``max_width`` pixels at ``size``."""
    f = font(size)
    if f.getlength(text) <= max_width:
        return text
    while text and f.getlength(text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


@lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """Whether the font draws ``ch`` (rather than its empty-box "missing" glyph)."""
    if ch.isspace() or ch.isascii():
        return True
    f = font(20)
    missing = f.getmask("\ue000")
    mask = f.getmask(ch)
    return not (mask.size == missing.size and bytes(mask) == bytes(missing))


#: letters that Unicode does not decompose into a base letter and an accent
_SPELLED = {
    "ß": "ss", "Æ": "AE", "æ": "ae", "Ø": "O", "ø": "o", "Œ": "OE", "œ": "oe", "Ł": "L", "ł": "l",
    "Đ": "D", "đ": "d", "Ð": "D", "ð": "d", "Þ": "Th", "þ": "th", "ı": "i", "–": "-", "—": "-",
    "‘": "'", "’": "'", "“": '"', "”": '"', "×": "x",
}


def drawable(text: str) -> str:
    """``text`` as the font can draw it: accents dropped, other missing characters left out.

    The bundled font covers little beyond ASCII, and Discord names often hold
    accented letters, emoji or other scripts: ``Zoë`` becomes ``Zoe``, an emoji
    disappears (a row of empty boxes would be worse).
    """
    out = []
    for ch in text:
        if not ch.isprintable():
            continue
        if has_glyph(ch):
            out.append(ch)
            continue
        spelled = _SPELLED.get(ch)
        if spelled is None:
            spelled = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        out.append("".join(c for c in spelled if c != ch and has_glyph(c)))
    return " ".join("".join(out).split())
