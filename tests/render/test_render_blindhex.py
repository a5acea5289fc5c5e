"""Blind Hex pictures: the cards in the header boxes, and the numbers over tinted cells.

The header must never show more cards than a player owns (five) nor a card
that is not on the table: the cards of a round are "played" only while it is
written (or in the final position of a game that ended during it). And the
numbers that tell a player which number a cell matches must stay readable
on the cells tinted for the next letter (the winning chain is all letters).
"""

from __future__ import annotations

import random

import pytest

import engine
import render
from render.games import scene_of
from render.theme import THEMES, mix

CARDS = 5


def cards_of(pos):
    """Each colour's header cards as the picture shows them: colour -> Cards."""
    return {p.colour: p.cards for p in scene_of(pos, None).panels}


def after(actions):
    pos = engine.new_game("blindhex", first="x")
    for a in actions:
        pos.play(a)
    return pos


def test_played_cards_are_gone_once_the_round_is_written():
    # the review's case: a round revealed and written, then back to choosing
    pos = after(["aside 4+5", "x:2+4", "o:1+3"])
    assert pos.phase == "write"
    assert cards_of(pos)["x"].played == (2, 4)
    while pos.phase == "write":
        pos.play(pos.legal_actions()[0])
    assert pos.phase == "choose"
    for colour, cards in cards_of(pos).items():
        assert cards.played == (), colour
        assert cards.hand + len(cards.aside) == CARDS, colour


def test_a_secret_choice_is_never_shown():
    pos = after(["aside 4+5", "x:2+4", "o:1+3"])
    while pos.phase == "write":
        pos.play(pos.legal_actions()[0])
    pos.play("x:1+3")  # x's choice for the next round, still secret
    cards = cards_of(pos)
    assert cards["x"].played == () and cards["o"].played == ()
    assert cards["x"].hand + len(cards["x"].aside) == CARDS


@pytest.mark.parametrize("seed", range(4))
def test_every_position_of_a_game_shows_five_cards_a_player_and_only_cards_on_the_table(seed):
    pos = engine.new_game("blindhex")
    rng = random.Random(seed)
    while pos.outcome is None:
        pos.play(rng.choice(pos.legal_actions()))
        revealed = pos.revealed() or {}
        for colour, cards in cards_of(pos).items():
            assert cards.hand + len(cards.aside) + len(cards.played) == CARDS, (colour, pos.actions)
            writing = pos.phase == "write" or (pos.phase == "over" and bool(pos.played()[colour]))
            assert cards.played == (tuple(revealed[colour]) if writing else ()), (colour, pos.actions)


def test_a_game_won_during_a_round_keeps_that_rounds_cards_in_the_final_picture():
    for seed in range(50):
        pos = engine.new_game("blindhex")
        rng = random.Random(seed)
        while pos.outcome is None:
            pos.play(rng.choice(pos.legal_actions()))
        if pos.played()[pos.outcome.winner]:
            break
    else:
        pytest.skip("no random game won with its round's cards on the table")
    revealed = pos.revealed()
    for colour, cards in cards_of(pos).items():
        assert cards.played == tuple(revealed[colour])


def blend(under, over, alpha):
    """``over`` painted at ``alpha`` (0-255) over ``under``."""
    return mix(under, over, alpha / 255)


def number_ink(image, lay, cell):
    """The darkest pixel of the number(s) written in a cell (a box round its centre, clear of any frame)."""
    x, y = lay.centre(cell)
    r = round(0.35 * lay.radius)
    box = image.crop((round(x) - r, round(y) - r, round(x) + r, round(y) + r))
    return min((box.getpixel((i, j)) for i in range(box.width) for j in range(box.height)), key=sum)


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_numbers_stay_dark_on_the_cells_a_letter_may_go_to(theme, decode_png):
    # a round to write: the cells the next letter may go to are tinted green
    pos = after(["aside 4+5", "x:2+4", "o:1+3"])
    cells = [c for c in pos.matching_cells(pos.pending_writes()[0][1]) if pos.piece_at(c) is None]
    assert any(pos.cell_number(c) for c in cells) and any(not pos.cell_number(c) for c in cells)
    image = decode_png(render.render_position(pos, theme=theme))
    lay = render.layout_of(pos)
    look = THEMES[theme]
    # the numbers are drawn over the tint: nearer the ink than the tinted cell
    for cell in cells:
        tinted = blend(look.cell_numbered if pos.cell_number(cell) else look.cell, look.hint, 150)
        limit = (sum(look.ink) + sum(tinted)) / 2
        ink = number_ink(image, lay, cell)
        assert sum(ink) < limit, (pos.grid.name(cell), ink, tinted)
