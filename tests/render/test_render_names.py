"""Names in every script: drawn as written with a face that has each glyph, right-to-left in display order."""

from __future__ import annotations

import unicodedata

import pytest

import engine
import render
from render.fonts import CHAIN, MISSING, font, runs, text

NAMES = {
    "latin": "José Ødegård",
    "cyrillic": "Ярослав",
    "greek": "Αλέξανδρος",
    "japanese": "さくら山田",
    "korean": "김민준",
    "chinese": "王小明",
    "arabic": "محمد",
    "hebrew": "שלום",
    "emoji": "🎲 Dice",
}


def notdef(f) -> bytes:
    return bytes(f.getmask("\U0010fffd"))


@pytest.mark.parametrize("script", sorted(NAMES))
def test_every_character_of_a_name_has_a_face_that_draws_it(script):
    for piece, k in runs(NAMES[script]):
        assert k >= 0
        f = font(30, face=k)
        for ch in piece.replace(" ", ""):
            assert ch != MISSING
            mask = f.getmask(ch)
            assert mask.getbbox() is not None, (script, ch)
            assert bytes(mask) != notdef(f), (script, ch)  # never the empty box


@pytest.mark.parametrize("script", ["cyrillic", "greek", "japanese", "korean", "chinese", "arabic", "hebrew"])
def test_a_name_in_another_script_is_drawn_in_that_script(script):
    drawn = "".join(piece for piece, _ in runs(NAMES[script]))
    assert len(drawn) == len(NAMES[script])
    if script not in ("arabic",):
        assert set(drawn) == set(NAMES[script])


def test_cjk_uses_the_cjk_face_and_emoji_the_emoji_face():
    cjk = next(k for k, (path, _) in enumerate(CHAIN) if "CJK" in path.name)
    emoji = next(k for k, (path, _) in enumerate(CHAIN) if "Emoji" in path.name)
    assert {k for _, k in runs(NAMES["korean"])} == {cjk}
    assert runs("🎲")[0][1] == emoji


def test_hebrew_is_shown_right_to_left():
    assert "".join(p for p, _ in runs("שלום")) == "םולש"


def test_arabic_letters_are_joined_and_shown_right_to_left():
    drawn = "".join(p for p, _ in runs("محمد"))
    # presentation forms (joined shapes) instead of the bare letters
    assert all("ARABIC LETTER" in unicodedata.name(ch) and "FORM" in unicodedata.name(ch) for ch in drawn)
    # the first letter (meem, initial form) is drawn at the right end
    assert unicodedata.name(drawn[-1]) == "ARABIC LETTER MEEM INITIAL FORM"


def test_latin_and_hebrew_mixed_keep_latin_left_to_right():
    drawn = "".join(p for p, _ in runs("Dan שלום"))
    assert drawn.startswith("Dan ") and drawn.endswith("םולש")


def test_emoji_joiners_and_skin_tones_leave_the_emoji_themselves():
    drawn = "".join(p for p, _ in runs("👍🏽 ok"))
    assert drawn == "👍 ok"


def test_a_character_no_face_has_is_shown_as_a_replacement_mark_not_dropped():
    drawn = "".join(p for p, _ in runs("a\U000e01efb"))  # a variation selector no font draws on its own
    assert len(drawn) == 3 and drawn[1] == MISSING


def test_long_name_is_cut_with_an_ellipsis_to_fit():
    t = text("Bartholomew-Maximilian Fitzgerald", 30, max_width=200)
    assert t.width <= 200
    assert "".join(p for p, _ in t.runs).endswith("…")


@pytest.mark.parametrize("script", sorted(NAMES))
def test_a_board_with_that_name_shows_ink_where_the_name_goes(script):
    pos = engine.new_game("hex", 7)
    plain = render.render_image(pos, names={"black": "", "white": ""}, width=600, palette=False)
    named = render.render_image(pos, names={"black": NAMES[script], "white": ""}, width=600, palette=False)
    # the first box holds the name; the pictures differ there and only there
    from PIL import ImageChops

    diff = ImageChops.difference(plain, named).getbbox()
    assert diff is not None
    assert diff[2] < 300 and diff[3] < 80
