"""A puzzle's own rating when several members finish it: each result moves it, none is lost (both databases)."""

from __future__ import annotations

import asyncio

from bot.ratings import DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY, Rating, rate_puzzle
from bot.service.puzzle_play import PuzzlePlay
from bot.store import PuzzleRow, Store
from tests.bot.test_puzzle_store import _finished_game


async def test_two_members_finishing_the_same_puzzle_at_once_both_move_its_rating(store: Store):
    game = await _finished_game(store, 1, 10, 100, 200)
    await store.put_puzzles([PuzzleRow(game, 0, "black", "c3", "d4", 9.0)])

    async def never(*_: object) -> object:
        raise AssertionError("no answer is checked here")

    play = PuzzlePlay(store, never, clock=lambda: 100.0)
    carol, dave = [(await play.puzzle(1, user, None, mine=False))[0] for user in (300, 400)]
    assert carol.choice.puzzle == dave.choice.puzzle
    await asyncio.gather(play._end(carol, ("c3",), ("c3",), (), solved=True),
                         play._end(dave, ("e1",), ("e1",), (), solved=False))
    after = (await store.puzzle_choice(300, game, 0))
    newcomer = Rating(DEFAULT_RATING, DEFAULT_DEVIATION, DEFAULT_VOLATILITY)
    start = Rating(carol.choice.rating, carol.choice.deviation, carol.choice.volatility)

    def both(first: bool, second: bool) -> Rating:
        return rate_puzzle(newcomer, rate_puzzle(newcomer, start, first)[1], second)[1]

    expected = [both(True, False), both(False, True)]  # in either order, never only one of them
    assert any(abs(after.rating - e.rating) < 1e-9 and abs(after.deviation - e.deviation) < 1e-9 for e in expected)
