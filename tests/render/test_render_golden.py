"""A handful of pictures compared with stored goldens, with a small tolerance.

The goldens are in ``tests/render/golden/`` at 450 px wide (small files). After a
deliberate change to the look, regenerate them and look at them before committing::

    RENDER_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/render/test_render_golden.py

The tolerance absorbs antialiasing and font-hinting differences between Pillow
builds: the mean channel difference must stay under 1.5 and fewer than 1% of
pixels may differ by more than 48 in any channel.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import engine
import render
from engine.inphexion import InpHexion

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("RENDER_UPDATE_GOLDEN") == "1"
WIDTH = 450


def hex_won():
    pos = engine.new_game("hex", 7)
    for a in "d1 a1 d2 a2 d3 a3 d4 a4 d5 a5 d6 a6 d7".split():
        pos.play(a)
    return pos, {}, "light"


def hex_swap_pieces():
    pos = engine.new_game("hex", 11, ["swap-pieces"])
    for a in ("c2", "swap", "f6"):
        pos.play(a)
    return pos, {"black": "Ann", "white": "Ben"}, "dark"


def inphexion_relocating():
    pos = InpHexion.from_board(
        ["WW.B...", "B.W....", "..BW...", "...W...", ".B.....", "......W", "......."], to_move="black"
    )
    pos.play("b1 c1")
    return pos, {"white": "Alice", "black": "Bob"}, "dark"


def inphexion_neutral():
    pos = engine.new_game("inphexion", 7, ["neutral"])
    for a in ("d4 e4", "e4 f4", "e4 e5"):
        pos.play(a)
    return pos, {}, "light"


def blindhex_writing():
    pos = engine.new_game("blindhex", first="x")
    for a in ("aside 4+5", "x:1+4", "o:2+3"):
        pos.play(a)
    pos.play(pos.legal_actions()[0])
    return pos, {"x": "Xia", "o": "Oto"}, "dark"


CASES = [hex_won, hex_swap_pieces, inphexion_relocating, inphexion_neutral, blindhex_writing]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__)
def test_picture_matches_its_golden(case):
    pos, names, theme = case()
    png = render.render_position(pos, names=names, theme=theme, width=WIDTH)
    path = GOLDEN / f"{case.__name__}.png"
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"no golden {path.name}: run with RENDER_UPDATE_GOLDEN=1 and look at it")
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png)
        pytest.skip(f"wrote {path.name}")
    got = Image.open(io.BytesIO(png)).convert("RGB")
    want = Image.open(path).convert("RGB")
    assert got.size == want.size
    diff = ImageChops.difference(got, want)
    channels = diff.split()
    mean = sum(sum(i * c for i, c in enumerate(ch.histogram())) for ch in channels) / (3 * got.width * got.height)
    worst = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    far = sum(worst.histogram()[49:])
    assert mean < 1.5, f"mean difference {mean:.2f}"
    assert far < 0.01 * got.width * got.height, f"{far} pixels differ a lot"
