"""A name as long as Discord allows (32 characters) stays inside its part of the picture, in every
game and script: cut with an ellipsis in the footer's free corner and in the player's box."""

from __future__ import annotations

import pytest
from PIL import ImageChops

import engine
import render
from render.fonts import text
from render.games import scene_of
from render.header import footer_size, last_turn_lines

#: Discord's longest display name, in scripts of different widths (one word each: nowhere to break)
LONG_NAMES = {
    "latin": "Bartholomew_Maximilian_Fitzgera1",
    "wide latin": "W" * 32,
    "chinese": "王" * 32,
    "arabic": "محمد" * 8,
}
WIDTHS = [400, 720, 900]


def after_a_turn(game: str):
    """A position in each game with a last turn to put in words (the footer's lines)."""
    if game == "blindhex":
        pos = engine.new_game("blindhex", first="x")
        for a in ("aside 4+5", "x:1+4", "o:2+3"):
            pos.play(a)
        pos.play(pos.legal_actions()[0])
        return pos
    pos = engine.new_game(game, 7)
    pos.play(pos.legal_actions()[0])
    return pos


def name_everyone(pos, name: str) -> dict[str, str]:
    return {colour: name for colour in pos.colours}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("script", LONG_NAMES)
@pytest.mark.parametrize("game", ["hex", "inphexion", "blindhex"])
def test_a_32_character_name_in_the_last_turn_stays_in_the_free_corner_beside_the_board(game, script, width):
    pos = after_a_turn(game)
    names = name_everyone(pos, LONG_NAMES[script])
    lay = render.layout_of(pos, names=names, width=width)
    lines = last_turn_lines(scene_of(pos, names), lay)
    assert lines and any("…" in words for words, _, _ in lines)  # the name was too long and is cut
    size = footer_size(width)
    for words, x, y in lines:
        left, top, right, bottom = text(words, size).bbox()
        # the ink box, in the picture: inside it, and left of the board (its bands and coordinates)
        assert x + left >= 0 and 0 <= y + top and y + bottom <= lay.height
        assert x + right <= lay.free_left(y + top, y + bottom), (words, x + right)


@pytest.mark.parametrize("script", LONG_NAMES)
@pytest.mark.parametrize("game", ["hex", "inphexion", "blindhex"])
def test_a_32_character_name_stays_inside_its_players_box(game, script):
    pos = engine.new_game(game) if game == "blindhex" else engine.new_game(game, 7)
    width = 720
    plain = render.render_image(pos, names=name_everyone(pos, "A"), width=width, palette=False)
    lay = render.layout_of(pos, width=width)
    for k, colour in enumerate(pos.colours):
        names = name_everyone(pos, "A") | {colour: LONG_NAMES[script]}
        drawn = ImageChops.difference(plain, render.render_image(pos, names=names, width=width, palette=False))
        left, top, right, bottom = drawn.getbbox()
        # box k fills its half of the header (less the margins): the name never crosses into the other
        assert (left >= width / 2 if k else right <= width / 2) and bottom <= lay.header
