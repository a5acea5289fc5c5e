"""The puzzles' play tables on both databases: the puzzles a member may be set (of their server,
seen by them, not solved), one open attempt per member, an answer that came second writes
nothing, and the end of an attempt written with the ratings and streak in one go."""

from __future__ import annotations

import pytest

from bot.store import Conflict, PuzzlePlayerRow, PuzzleRow, Sight, Store


async def _finished_game(store: Store, guild_id: int, channel_id: int, a: int, b: int) -> int:
    async with store.transaction():
        row = await store.insert_game(guild_id=guild_id, channel_id=channel_id, parent_id=None, game="hex", size=5,
                                      variants=(), first=None, seed=1, seat0_id=a, seat1_id=b, rated=True,
                                      challenge_id=None, now=6.0)
        await store.append_actions(row.id, 0, ["d4", "a3", "b5"], a, 7.0)
        assert await store.finish_game(row.id, status="finished", winner_seat=1, reason="resign", now=8.0)
    return row.id


async def test_puzzles_offered_are_the_servers_seen_and_unsolved_ones(store):
    mine = await _finished_game(store, 1, 10, 100, 200)
    hidden = await _finished_game(store, 1, 11, 300, 400)  # a channel member 100 does not see
    elsewhere = await _finished_game(store, 2, 20, 100, 200)  # another server
    await store.put_puzzles([PuzzleRow(g, 0, "black", "c3", "d4", 9.0) for g in (mine, hidden, elsewhere)]
                            + [PuzzleRow(mine, 2, "black", "d2", "b5", 9.0)])
    sight = Sight(100, frozenset({10}))
    offered = await store.puzzle_choices(1, 100, sight, own=False, limit=10)
    assert sorted((c.puzzle.game_id, c.puzzle.ply) for c in offered) == [(mine, 0), (mine, 2)]
    assert offered[0].rating == 1500 and offered[0].game.id == mine and offered[0].failed == 0
    attempt = await store.start_puzzle_attempt(1, 100, mine, 0, 50.0)
    assert await store.end_puzzle_attempt(attempt, ("c3",), "solved", 60.0, None, (1400.0, 300.0, 0.06))
    left = await store.puzzle_choices(1, 100, sight, own=True, limit=10)
    assert [(c.puzzle.game_id, c.puzzle.ply) for c in left] == [(mine, 2)]
    assert (await store.puzzle_choice(100, mine, 0)).rating == 1400.0
    assert await store.puzzle_choices(1, 300, Sight(300, frozenset()), own=True, limit=10) != []


async def test_one_attempt_is_open_per_member_and_an_answer_that_came_second_writes_nothing(store):
    game = await _finished_game(store, 1, 10, 100, 200)
    await store.put_puzzles([PuzzleRow(game, 0, "black", "c3", "d4", 9.0)])
    attempt = await store.start_puzzle_attempt(1, 100, game, 0, 50.0)
    with pytest.raises(Conflict):
        await store.start_puzzle_attempt(1, 100, game, 0, 51.0)
    assert await store.advance_puzzle_attempt(attempt.id, (), ("c3", "b4"))
    assert not await store.advance_puzzle_attempt(attempt.id, (), ("e5", "b4"))  # the second of two taps
    now = await store.open_puzzle_attempt(1, 100)
    assert now is not None and now.line == ("c3", "b4")
    player = PuzzlePlayerRow(1, 100, 1450.0, 300.0, 0.06, 0, 1, 0, 0, 70.0)
    assert not await store.end_puzzle_attempt(attempt, ("a1",), "failed", 70.0, player, None)  # stale line
    assert await store.end_puzzle_attempt(now, now.line + ("a1",), "failed", 70.0, player, None)
    assert await store.puzzle_player(1, 100) == player and await store.open_puzzle_attempt(1, 100) is None
    ended = await store.puzzle_attempt(attempt.id)
    assert (ended.status, ended.line, ended.ended_at) == ("failed", ("c3", "b4", "a1"), 70.0)
    again = await store.puzzle_choices(1, 100, None, own=False, limit=10)
    assert [(c.failed, c.last_at) for c in again] == [(1, 70.0)]
