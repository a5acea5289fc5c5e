"""The game registry: every game's facts on its class, found by name, and the Action value."""

from __future__ import annotations

import pytest

import engine
from engine import Action, BlindHex, Hex, InpHexion


def test_the_registry_offers_the_three_games_in_order():
    assert engine.GAME_NAMES == ("inphexion", "hex", "blindhex")
    assert [cls for cls in engine.GAMES.values()] == [InpHexion, Hex, BlindHex]


@pytest.mark.parametrize("name", engine.GAME_NAMES)
def test_each_game_s_example_size_is_one_it_is_played_on(name):
    cls = engine.GAMES[name]
    assert cls.example_size in cls.sizes and cls.default_size in cls.sizes


def test_only_blind_hex_has_a_secret_phase_and_a_cut():
    assert [(c.secret_phase, c.has_cut) for c in engine.GAMES.values()] == [(None, False), (None, False),
                                                                          ("choose", True)]


def test_options_start_a_position_of_their_game_without_the_registry_module():
    assert type(engine.make_options("blindhex", first="o").new_position()) is BlindHex


def test_a_pending_secret_choice_is_left_out_of_the_public_record_and_hidden_in_public_actions():
    pos = engine.new_game("blindhex", first="x")
    pos.play("aside 4+5")
    pos.play("x:1+4")
    assert pos.choosing_in_secret()
    assert pos.public_record() == ["aside 4+5"]
    assert pos.public_actions() == ["aside 4+5", "x:?"]


def test_after_gives_the_next_position_and_leaves_this_one_unchanged():
    pos = engine.new_game("hex", 5)
    nxt, done = pos.after("c3")
    assert done == ["c3"] and nxt.actions == ["c3"] and pos.actions == []


@pytest.mark.parametrize("text, kind, cells, cards, player", [
    ("swap", "swap", (), (), None),
    ("aside 4+5", "aside", (), (4, 5), None),
    ("o:2+3", "choose", (), (2, 3), "o"),
    ("b2>e7", "relocate", ("b2", "e7"), (), None),
    ("c4 d4", "move", ("c4", "d4"), (), None),
    ("d4", "place", ("d4",), (), None),
])
def test_canonical_notation_parses_into_an_action(text, kind, cells, cards, player):
    assert Action.parse(text) == Action(text, kind, cells, cards, player)


def test_a_lone_cell_is_a_letter_written_in_blind_hex():
    assert engine.new_game("blindhex", first="x").action("f6").kind == "write"


def test_text_that_is_not_canonical_is_refused():
    with pytest.raises(ValueError):
        Action.parse("c4 d4 e5")


def test_a_choice_never_revealed_stays_out_of_the_public_record_after_the_game_ends():
    pos = engine.new_game("blindhex", first="x")
    pos.play("aside 4+5")
    pos.play("x:1+4")
    pos.finish(engine.Outcome("x", engine.Reason.RESIGNATION))
    assert pos.public_record() == ["aside 4+5"]
    assert pos.public_actions() == ["aside 4+5", "x:?"]
