"""PNG bytes from a picture, as a palette image when it looks the same.

A board picture holds few colours (flat cells, a handful of piece shades and
the antialiasing between them), so mapping it to the look's fixed 256-colour
palette (see :mod:`render.palette`) is indistinguishable from full colour and
about a third of the size.
"""

from __future__ import annotations

import io

from PIL import Image

#: zlib effort: a palette picture of flat colours packs well at level 3 (about 30-50 KB at
#: 720 px, a Blind Hex board with a number in every cell under 60 KB) in half of level 6's time
COMPRESS_LEVEL = 3


def to_palette(image: Image.Image, palette: Image.Image) -> Image.Image:
    """``image`` mapped to the colours of ``palette`` (a mode P image), nearest colour, no dithering."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def png_bytes(image: Image.Image) -> bytes:
    """Encode an RGB or palette image as PNG."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
