"""A review computed position by position (engine.ai.review: needed, value_at, assemble) is the engine's review."""

from __future__ import annotations

import random

import pytest

from engine.ai.review import assemble, needed, review, value_at
from engine.games import make_options


def _random_game(game: str, size: int | None, seed: int, plies: int) -> list[str]:
    rng = random.Random(seed)
    pos = make_options(game, size, [], None).new_position()
    while pos.outcome is None and len(pos.actions) < plies:
        pos.play(rng.choice(pos.legal_actions()))
    return list(pos.actions)


@pytest.mark.parametrize(("game", "size", "plies"), [("hex", 4, 16), ("inphexion", 5, 12)])
def test_a_review_put_together_from_single_positions_is_the_whole_review(game: str, size: int, plies: int) -> None:
    options = make_options(game, size, [], None)
    actions = _random_game(game, size, 3, plies)
    values = {k: value_at(options, actions, k, iterations=30, seed=5) for k in needed(options, actions)}
    assert assemble(options, actions, values, 30) == review(options, actions, iterations=30, seed=5)


def test_blind_hex_card_choices_need_no_position_valued() -> None:
    actions = ["aside 3+4", "o:1+5", "x:2+4", "h4", "a2", "e10", "k2"]
    options = make_options("blindhex", None, [], "x")
    assert needed(options, actions) == [3, 4, 5, 6, 7]
    values = {k: value_at(options, actions, k, iterations=30, seed=0) for k in needed(options, actions)}
    assert assemble(options, actions, values, 30) == review(options, actions, iterations=30, seed=0)
