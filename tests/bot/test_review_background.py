"""Reviews made in the background as games end (issue 48: puzzles "found in the background as games
finish, never by the command that asks for one"), the asked reviews first, a member's limit on
reviews being made, and two processes on one database making each review once.

The game service and the reviews' maker without Discord, on a real database; each position's
search runs in a thread with a small budget (the bot runs the same job in its AI workers). Store
behaviour is pinned on both databases in test_review_store.py; these run on SQLite, but the
two processes' test, which needs PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

import engine
from bot.service import ChallengeRequest, GameService, UserError
from bot.service.limits import BACKGROUND_MIN_TURNS
from bot.service.reviews import ReviewsService
from bot.store import Store
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401
from tests.bot.harness import eventually

GUILD, OTHER_GUILD, ALICE, BOB = 1, 2, 100, 200
#: a review's search per position in these tests
ITERATIONS = 20


class Runner:
    """Runs a review's job in a thread, as the AI workers would; records which game each job was of
    (by its moves) and waits at ``gate`` before each (a test holds a review mid-way)."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.gate.set()
        self.jobs: list[tuple[str, ...]] = []

    async def __call__(self, fn: Callable[..., Any], *args: Any) -> Any:
        self.jobs.append(tuple(args[1]))
        await self.gate.wait()
        return await asyncio.to_thread(fn, *args)


@pytest.fixture
def service(store):
    return GameService(store, seed_source=lambda: 12345)


@pytest.fixture
async def reviews(store):
    r = ReviewsService(store, Runner(), iterations=ITERATIONS)
    r.poll = 0.2
    yield r
    await r.close()


def hex_moves(count: int, seed: int = 1) -> list[str]:
    """``count`` 5×5 Hex moves (no swap) after which nobody has won yet."""
    for s in range(seed, seed + 100):
        rng, pos, moves = random.Random(s), engine.new_game("hex", 5), []
        while len(moves) < count and pos.outcome is None:
            move = rng.choice([a for a in pos.legal_actions() if a != "swap"])
            pos.play(move)
            moves.append(move)
        if pos.outcome is None:
            return moves
    raise AssertionError("no such game")


async def finished_game(service: GameService, moves: list[str], channel: int, guild: int = GUILD) -> int:
    """A 5×5 Hex game between alice (first) and bob with ``moves``, then bob resigns: its id."""
    ch = await service.create_challenge(ChallengeRequest(
        guild_id=guild, channel_id=channel, channel_is_thread=False, challenger_id=ALICE, opponent_id=BOB,
        opponent_is_bot=False, game="hex", size=5, seat="first", thread=False))
    game = await service.accept(ch.id, BOB)
    for i, move in enumerate(moves):
        await service.play(channel, ALICE if i % 2 == 0 else BOB, move)
    await service.resign(channel, BOB)
    return game.game.row.id


async def test_a_long_enough_game_is_queued_as_it_ends_and_reviewed_after_a_restart_without_anyone_asking(
        service, store, reviews):
    game_id = await finished_game(service, hex_moves(BACKGROUND_MIN_TURNS), channel=10)
    queued = await store.review(game_id)
    assert queued is not None and queued.background and queued.done_at is None  # committed with the game's end
    # the maker starts (as after a restart) and finds it in the database
    assert await reviews.resume() == 1
    await eventually(lambda: reviews.background_done == 1, 60)
    made = await store.review(game_id)
    assert made.done_at is not None and made.total == BACKGROUND_MIN_TURNS + 1
    g = await service.game(game_id)
    state = await reviews.ask(g, ALICE, most=1)
    assert state.review is not None and state.stored  # asked for later: served at once, no search more
    assert reviews.searches == made.total


async def test_short_games_and_games_of_a_server_that_switched_them_off_are_not_reviewed_in_the_background(
        service, store):
    short = await finished_game(service, hex_moves(BACKGROUND_MIN_TURNS - 1), channel=10)
    await store.set_review_background(OTHER_GUILD, False)
    switched_off = await finished_game(service, hex_moves(BACKGROUND_MIN_TURNS), channel=11, guild=OTHER_GUILD)
    assert await store.review(short) is None and await store.review(switched_off) is None
    assert await store.unfinished_reviews(10) == []


async def test_a_review_a_member_asks_for_goes_before_a_background_review_in_progress(service, store, reviews):
    background = await finished_game(service, hex_moves(BACKGROUND_MIN_TURNS), channel=10)
    asked = await finished_game(service, hex_moves(5, seed=50), channel=11)
    runner: Runner = reviews.run  # type: ignore[assignment]
    runner.gate.clear()
    await reviews.resume()
    await eventually(lambda: len(runner.jobs) == 1)  # the background review's first position is in a worker
    state = await reviews.ask(await service.game(asked), ALICE, most=1)
    assert state.review is None
    runner.gate.set()
    await eventually(lambda: reviews.background_done == 1, 60)
    names = {tuple((await service.game(i)).position.public_record()): i for i in (background, asked)}
    order = [names[job] for job in runner.jobs]
    # one background position, then every position of the asked review, then the rest of the background one
    first_asked = order.index(asked)
    assert order[:first_asked] == [background] and set(order[first_asked:first_asked + 6]) == {asked}
    assert set(order[first_asked + 6:]) == {background} and len(order) == 6 + BACKGROUND_MIN_TURNS + 1
    assert (await store.review(asked)).done_at is not None and (await store.review(background)).done_at is not None


async def test_a_member_with_as_many_reviews_being_made_as_allowed_is_refused_and_a_finished_review_still_served(
        service, store, reviews):
    done, first, second = [await finished_game(service, hex_moves(5, seed=s), channel=10 + s) for s in (1, 2, 3)]
    runner: Runner = reviews.run  # type: ignore[assignment]
    await reviews.ask(await service.game(done), ALICE, most=1)
    await eventually(lambda: not reviews.running(done), 60)
    runner.gate.clear()
    await reviews.ask(await service.game(first), ALICE, most=1)
    with pytest.raises(UserError) as refused:
        await reviews.ask(await service.game(second), ALICE, most=1)
    assert "1 review being made" in str(refused.value) and "allows 1 at once" in str(refused.value)
    assert await store.review(second) is None  # the refusal changed nothing
    kept = await reviews.ask(await service.game(done), ALICE, most=1)
    assert kept.review is not None and kept.stored
    # another member may follow the review being made; bob's own ask is counted for bob
    assert (await reviews.ask(await service.game(first), BOB, most=1)).review is None
    await reviews.ask(await service.game(second), BOB, most=1)
    runner.gate.set()
    await eventually(lambda: not reviews.running(first) and not reviews.running(second), 60)
    assert reviews.being_made_for(ALICE) == 0 and reviews.being_made_for(BOB) == 0
    assert (await reviews.ask(await service.game(second), ALICE, most=1)).review is not None


async def test_two_processes_on_one_postgresql_make_each_background_review_once(pg_url):
    stores = [await Store.open(pg_url) for _ in range(2)]
    service = GameService(stores[0], seed_source=lambda: 12345)
    games = [await finished_game(service, hex_moves(BACKGROUND_MIN_TURNS, seed=s), channel=10 + s) for s in (1, 2, 3)]
    makers = [ReviewsService(s, Runner(), iterations=ITERATIONS, shared=True) for s in stores]
    try:
        for maker in makers:  # both think they own the server (a reshard in progress)
            maker.poll = 0.2
        await asyncio.gather(*(maker.resume() for maker in makers))
        await eventually(lambda: sum(m.background_done for m in makers) == len(games), 120)
        rows = [await stores[0].review(g) for g in games]
        assert all(r is not None and r.done_at is not None for r in rows)
        # every position searched once in all: no review made twice, none half by each
        assert sum(m.searches for m in makers) == sum(r.total for r in rows)
    finally:
        for maker in makers:
            await maker.close()
        for s in stores:
            await s.close()
