"""Tournaments in the store, on both databases: sign-up order, the round guard, results recorded once."""

from __future__ import annotations

import pytest

import engine
from bot.service.tournament_results import loser_of_abandoned
from bot.store import Conflict, GameRow, Store


async def _tournament(store: Store, **kw):
    fields = dict(guild_id=1, channel_id=10, organiser_id=100, game="hex", size=5, variants=("swap",),
                  format="swiss", rounds=None, cycles=1, clock="1d", max_players=8, rated=True, now=5.0)
    fields.update(kw)
    async with store.transaction():
        return await store.insert_tournament(**fields)


async def _game(store: Store, channel_id: int, a: int, b: int) -> int:
    async with store.transaction():
        row = await store.insert_game(guild_id=1, channel_id=channel_id, parent_id=10, game="hex", size=5,
                                      variants=("swap",), first=None, seed=1, seat0_id=a, seat1_id=b, rated=True,
                                      challenge_id=None, now=6.0)
    return row.id


async def test_a_tournament_round_trips_and_entrants_keep_their_sign_up_order_on_both_databases(store):
    t = await _tournament(store)
    for user, name in ((300, "cy"), (100, "ann"), (200, "bob")):
        async with store.transaction():
            await store.lock_tournament(t.id)
            await store.add_entrant(t.id, user, name)
    assert (await store.get_tournament(t.id)) == t
    assert t.variants == ("swap",) and t.rated is True and t.status == "open"
    assert [(e.user_id, e.seq) for e in await store.entrants(t.id)] == [(300, 1), (100, 2), (200, 3)]
    with pytest.raises(Conflict):
        async with store.transaction():
            await store.add_entrant(t.id, 100, "ann")
    assert (await store.newest_tournament_in(10, ["open"])).id == t.id
    assert await store.newest_tournament_in(10, ["running"]) is None
    async with store.transaction():
        assert await store.move_tournament(t.id, "open", "running")
        assert not await store.move_tournament(t.id, "open", "running")


async def test_a_round_is_paired_once_and_a_game_result_is_recorded_once_on_both_databases(store):
    t = await _tournament(store)
    async with store.transaction():
        await store.insert_round(t.id, 1, [300], [(100, 200)], 7.0)
    with pytest.raises(Conflict):
        async with store.transaction():
            await store.insert_round(t.id, 1, [], [(200, 100)], 8.0)
    rounds = await store.tournament_rounds(t.id)
    assert [(r.number, r.byes, r.announced) for r in rounds] == [(1, (300,), False)]
    game_id = await _game(store, 11, 100, 200)
    async with store.transaction():
        assert await store.set_tournament_game(t.id, 1, 1, game_id)
        assert not await store.set_tournament_game(t.id, 1, 1, game_id + 1)
    async with store.transaction():
        assert await store.record_tournament_result(game_id, 200, "resigned")
        assert not await store.record_tournament_result(game_id, 100, "played")
    (g,) = await store.tournament_games(t.id)
    assert (g.first_id, g.second_id, g.game_id, g.winner_id, g.ending) == (100, 200, game_id, 200, "resigned")
    assert await store.tournament_game_of(game_id) == g
    assert await store.mark_round_announced(t.id, 1) and not await store.mark_round_announced(t.id, 1)


async def test_withdrawing_twice_counts_once_and_the_staff_only_setting_is_per_server_on_both_databases(store):
    t = await _tournament(store)
    async with store.transaction():
        await store.add_entrant(t.id, 100, "ann")
        assert await store.withdraw_entrant(t.id, 100, 2, "lapsed")
        assert not await store.withdraw_entrant(t.id, 100, 3, "asked")
    (e,) = await store.entrants(t.id)
    assert (e.withdrawn_round, e.withdrawn_reason) == (2, "lapsed")
    await store.set_tournament_staff_only(1, True)
    assert await store.tournament_staff_only(1) and not await store.tournament_staff_only(2)
    await store.set_tournament_staff_only(1, False)
    assert not await store.tournament_staff_only(1)


def test_an_abandoned_tournament_game_is_lost_by_the_player_it_waited_for():
    row = GameRow(id=1, guild_id=1, channel_id=2, parent_id=None, game="hex", size=3, variants=(), first=None, seed=1,
                  seat0_id=100, seat1_id=200, rated=True, status="active", winner_seat=None, reason=None,
                  challenge_id=None, created_at=0.0, updated_at=0.0, finished_at=None)
    pos = engine.make_options("hex", 3, (), None).new_position()
    assert loser_of_abandoned(row, pos) == 100  # the first seat never moved
    pos, _ = pos.after("a1", player=pos.to_move[0])
    assert loser_of_abandoned(row, pos) == 200  # the second seat never answered


async def test_a_servers_tournaments_are_listed_by_status_and_organiser_on_both_databases(store):
    mine = await _tournament(store, organiser_id=100)
    theirs = await _tournament(store, organiser_id=200)
    await _tournament(store, organiser_id=100, guild_id=2)  # another server's
    over = await _tournament(store, organiser_id=100)
    async with store.transaction():
        assert await store.move_tournament(over.id, "open", "cancelled")
        assert await store.move_tournament(theirs.id, "open", "running")
    assert [t.id for t in await store.tournaments_of(1, ("open", "running"), 100)] == [mine.id]
    assert [t.id for t in await store.tournaments_of(1, ("open", "running"))] == [mine.id, theirs.id]
    assert [t.id for t in await store.tournaments_of(1, ("running",))] == [theirs.id]
    assert [t.id for t in await store.tournaments_of(1, ("cancelled",), 100)] == [over.id]
