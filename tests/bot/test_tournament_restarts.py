"""Tournaments across restarts, a process dying mid-round and two processes on one PostgreSQL:
every round is paired once and announced once."""

from __future__ import annotations

import asyncio

import pytest

from bot.shards import ShardPlan
from tests.bot.crash_driver import BotProcess
from tests.bot.harness import Harness, eventually
from tests.bot.test_shards import Place, processes
from tests.bot.tournament_driver import announced, resign, sign_up
from tests.dbquery import query

HEX3 = dict(game="hex", size=3, swap=False, clock="1d")


def announcements(h: Harness, number: int) -> list:
    head = f"**Tournament #1 — round {number} of"
    return [m for m in h.fake.messages(h.channel) if (m.content or "").startswith(head)]


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'bot.sqlite3'}"


async def test_a_bot_stopped_mid_round_advances_the_round_once_after_its_restart(fake_discord, sqlite_url, clock):
    h = Harness(fake_discord, sqlite_url, clock)
    w = h.world
    players = [w.alice, w.bob, w.carol, h.fake.add_member(h.channel.guild, "dave")]
    by_id = {p.id: p for p in players}
    async with h.running():
        await sign_up(h, w.alice, players, format="swiss", rounds=2, **HEX3)
        (_, f1, s1, t1), (_, f2, s2, t2) = (await announced(h, 1, 1)).games
        await resign(h, by_id[s1], t1)
    async with h.running():  # a new process on the same database
        await resign(h, by_id[s2], t2)
        await announced(h, 1, 2)
        await h.fake.settle()
    assert len(announcements(h, 2)) == 1
    assert query(sqlite_url, "SELECT number FROM tournament_rounds ORDER BY number") == [(1,), (2,)]
    assert query(sqlite_url, "SELECT COUNT(*) FROM games") == [(4,)]


async def test_two_processes_and_a_kill_mid_announcement_pair_and_announce_a_round_once_on_postgresql(
        fake_discord, pg_url, clock):
    fake_discord.shard_count = 2
    place = Place(fake_discord, 1)
    h = Harness(fake_discord, pg_url, clock)
    h.channel = place.channel
    players = [place.alice, place.bob, fake_discord.add_member(place.guild, "carol"),
               fake_discord.add_member(place.guild, "dave")]
    by_id = {p.id: p for p in players}
    shards = [ShardPlan(2, (0,)), ShardPlan(2, (1,))]
    async with processes(fake_discord, pg_url, clock, shards) as bots:
        await sign_up(h, place.alice, players, format="swiss", rounds=2, **HEX3)
        (_, f1, s1, t1), (_, f2, s2, t2) = (await announced(h, 1, 1)).games
        await resign(h, by_id[s1], t1)
        # Both processes try to pair round 2 the moment round 1 is over (only the server's own
        # process runs its timers; the other is made to try anyway): one pairing stands.
        services = [b.get_cog("Tournaments").service for b in bots]  # type: ignore[union-attr]
        # The round's announcement reaches Discord, then the process running it dies before it hears so.
        fake_discord.delay(rf"^POST /channels/{place.channel.id}/messages$", 5)
        await resign(h, by_id[s2], t2)
        tried = await asyncio.gather(*(s.advance(1) for s in services))
        await h.fake.wait_for(lambda m: m.channel is place.channel and (m.content or "").startswith(
            "**Tournament #1 — round 2 of"), timeout=20)
    assert all(a.state.rounds[-1].number == 2 for a in tried)
    assert query(pg_url, "SELECT number, announced FROM tournament_rounds ORDER BY number") == [(1, True), (2, False)]
    async with processes(fake_discord, pg_url, clock, [None]):  # another process takes the server over
        clock.advance(61)  # the dead claimant's lease lapses: its timer runs again
        await eventually(lambda: query(pg_url, "SELECT announced FROM tournament_rounds WHERE number = 2") == [(True,)])
        await fake_discord.settle()
    assert len(announcements(h, 2)) == 1
    assert query(pg_url, "SELECT COUNT(*) FROM tournament_games") == [(4,)]
    assert query(pg_url, "SELECT COUNT(*) FROM games") == [(4,)]


async def test_a_bot_killed_with_sigkill_mid_announcement_announces_the_round_once_after_its_restart(
        fake_discord, sqlite_url, clock, tmp_path):
    h = Harness(fake_discord, sqlite_url, clock)
    w = h.world
    players = [w.alice, w.bob, w.carol, fake_discord.add_member(h.channel.guild, "dave")]
    by_id = {p.id: p for p in players}
    bot = BotProcess(fake_discord, tmp_path, sqlite_url)
    try:
        await bot.start()
        await fake_discord.wait_for_request(lambda r: r.method == "PUT" and "/commands" in r.path, timeout=30)
        await sign_up(h, w.alice, players, format="swiss", rounds=2, **HEX3)
        (_, f1, s1, t1), (_, f2, s2, t2) = (await announced(h, 1, 1)).games
        await resign(h, by_id[s1], t1)
        # Round 2's announcement reaches Discord; the process is killed before it hears so.
        fake_discord.delay(rf"^POST /channels/{h.channel.id}/messages$", 2)
        await resign(h, by_id[s2], t2)
        await announced(h, 1, 2)
        bot.kill_now()
        await bot.reap()
        assert query(sqlite_url, "SELECT number, announced FROM tournament_rounds ORDER BY number") == [(1, 1), (2, 0)]
        await bot.start()  # a lone process releases its dead predecessor's claims: the timer runs again
        await eventually(lambda: query(sqlite_url, "SELECT announced FROM tournament_rounds WHERE number = 2") == [(1,)],
                         timeout=30)
    finally:
        await bot.stop()
    assert len(announcements(h, 2)) == 1
    assert query(sqlite_url, "SELECT COUNT(*) FROM tournament_games") == [(4,)]
    assert query(sqlite_url, "SELECT COUNT(*) FROM games") == [(4,)]
    assert bot.problems() == []
