"""The pictures' words in Japanese and French: drawn in the language, as legible as the English.

The floors are those of ``tests/render/test_render_legibility.py`` (badges 10 px tall at
display size, the longest badges fit in a player's box), held for each translation; the
Japanese is drawn in the CJK face the renderer ships.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import engine
import render
from bot.ui.pictures import sayer
from render import display
from render.fonts import BOLD, CHAIN, face_of, text
from render.header import _pill, badge_size
from render.theme import theme
from render.words import say, saying

WIDTHS = [400, 720, 900]
SHOWN = {"desktop": display.desktop_scale, "phone": display.phone_scale}
BADGES = [("to move", {}), ("relocate {count}", {"count": 2}), ("write {number}", {"number": 1}),
          ("write two {number}s", {"number": 5}), ("set 2 aside", {}), ("wins", {})]
LONGEST = [("relocate {count}", {"count": 2}), ("write two {number}s", {"number": 5}), ("set 2 aside", {})]


def said(language: str, words: str, facts: dict[str, int]) -> str:
    with saying(sayer(language)):
        return say(words, **facts)


@pytest.mark.parametrize("language", ["ja", "fr"])
def test_every_badge_is_translated(language: str) -> None:
    for words, facts in BADGES:
        assert said(language, words, facts) != words.format(**facts), words


@pytest.mark.parametrize("where", SHOWN)
@pytest.mark.parametrize("language", ["ja", "fr"])
def test_translated_badges_are_10_px_tall_at_display_size(language: str, where: str) -> None:
    for width in WIDTHS:
        for game, n in [("hex", 11), ("inphexion", 7), ("blindhex", None)]:
            lay = render.layout_of(engine.new_game(game, n), width=width)
            for words, facts in BADGES:
                badge = said(language, words, facts).upper()
                _, top, _, bottom = text(badge, badge_size(width), BOLD).bbox()
                assert (bottom - top) * SHOWN[where](lay.width, lay.height) >= 10.0, (badge, width)


@pytest.mark.parametrize("language", ["ja", "fr"])
def test_the_longest_translated_badges_fit_in_a_players_box(language: str) -> None:
    for width in WIDTHS:
        for words, facts in LONGEST:
            pill = _pill(said(language, words, facts), "turn", width, theme("dark"))
            assert pill.width <= (width - 3 * 12 * width / 900) / 2 - 2 * 10 * width / 900, (words, width)


def test_japanese_is_drawn_in_the_cjk_face() -> None:
    faces = {face_of(ch) for ch in said("ja", "to move", {})}
    assert [CHAIN[k][0].name for k in faces] and all("CJK" in CHAIN[k][0].name for k in faces)


@pytest.mark.parametrize("language", ["ja", "fr"])
def test_a_position_is_drawn_with_its_words_in_the_language(language: str) -> None:
    """The whole picture differs from the English one only by its words: same size, other pixels."""
    pos = engine.new_game("inphexion", 7)
    rng = random.Random(3)
    for _ in range(9):
        pos.play(rng.choice(pos.legal_actions()))
    names = {"white": "alice", "black": "bob"}
    english = Image.open(io.BytesIO(render.render_position(pos, names=names)))
    translated = Image.open(io.BytesIO(render.render_position(pos, names=names, say=sayer(language))))
    assert translated.size == english.size and translated.tobytes() != english.tobytes()
