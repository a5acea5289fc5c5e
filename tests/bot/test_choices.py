"""The slash commands offer exactly the games, clocks, levels and seats the rest of the code knows."""

from __future__ import annotations

from typing import get_args

import engine
from bot.choices import ClockName, GameName, Level, Seat
from bot.service import CLOCKS, SEATS
from engine.ai import LEVELS


def test_the_offered_games_are_the_registered_games():
    assert get_args(GameName) == engine.GAME_NAMES


def test_the_offered_clocks_are_the_clocks_the_service_knows():
    assert get_args(ClockName) == tuple(CLOCKS)


def test_the_offered_levels_are_the_ai_levels():
    assert get_args(Level) == tuple(LEVELS)


def test_the_offered_seats_are_the_seats_the_service_knows():
    assert get_args(Seat) == SEATS
