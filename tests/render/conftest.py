"""Shared helpers for the picture tests: decoding PNGs and reading what a pixel shows."""

from __future__ import annotations

import io
import math
import random

import pytest
from PIL import Image

import engine


def decode(data: bytes) -> Image.Image:
    """PNG or GIF bytes as an RGB image (first frame)."""
    return Image.open(io.BytesIO(data)).convert("RGB")


def classify(rgb: tuple[int, ...]) -> str:
    """What a pixel's colour is: white, black (discs/stones), x (red), o (blue), board, or other."""
    r, g, b = rgb[:3]
    spread = max(r, g, b) - min(r, g, b)
    lum = (r * 299 + g * 587 + b * 114) / 1000
    if spread < 45 and lum > 170:
        return "white"
    if spread < 45 and lum < 110:
        return "black"
    if r > 150 and g < 110 and b < 100:
        return "x"
    if b > 150 and r < 100 and g < 160:
        return "o"
    if r > 180 and 140 < g < 225 and 90 < b < 190 and r - b > 45:
        return "board"
    return "other"


def play_random(game: str, size: int | None, actions: int, seed: int, **kw) -> engine.Position:
    """A position after up to ``actions`` random legal actions."""
    pos = engine.new_game(game, size, **kw)
    rng = random.Random(seed)
    for _ in range(actions):
        if pos.outcome is not None:
            break
        pos.play(rng.choice(pos.legal_actions()))
    return pos


def shown_at(image: Image.Image, lay, cell: int, game: str) -> str | None:
    """The piece a picture shows on a cell, read from a few pixels: a colour name or None.

    Discs and stones: the majority of six spots around the centre (clear of the
    last-move dot; an arrow crossing the disc covers at most two of them).
    Letters: a spot on an x's stroke, then spots on an o's ring.
    """
    x, y = lay.centre(cell)
    R = lay.radius
    if game == "blindhex":
        if classify(image.getpixel((round(x + 0.2 * R), round(y + 0.2 * R)))) == "x":
            return "x"
        ring = [classify(image.getpixel((round(x + dx * R), round(y)))) for dx in (-0.37, 0.37)]
        return "o" if "o" in ring else None
    kinds = []
    for k in range(6):
        a = math.pi / 6 + k * math.pi / 3
        kinds.append(classify(image.getpixel((round(x + 0.47 * R * math.cos(a)), round(y + 0.47 * R * math.sin(a))))))
    best = max(set(kinds), key=kinds.count)
    if kinds.count(best) < 3:
        return "?"
    return None if best == "board" else best


def relocating_game(size: int = 5) -> engine.Position:
    """The first seeded random game whose record holds a relocation, played to its end."""
    for seed in range(1000):
        pos = play_random("inphexion", size, 500, seed)
        if any(">" in a for a in pos.actions):
            return pos
    raise AssertionError("no random game with a relocation")


@pytest.fixture
def relocating():
    """The :func:`relocating_game` helper."""
    return relocating_game


@pytest.fixture
def shown():
    """The :func:`shown_at` helper."""
    return shown_at


@pytest.fixture
def decode_png():
    """The :func:`decode` helper."""
    return decode


@pytest.fixture
def pixel_kind():
    """The :func:`classify` helper."""
    return classify


@pytest.fixture
def random_position():
    """The :func:`play_random` helper."""
    return play_random
