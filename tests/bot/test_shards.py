"""Several bot processes on one PostgreSQL: shards, events on their shard's connection, exactly once.

Two real discord.py clients (shards 0 and 1 of 2) run against the fake Discord and one
PostgreSQL database. The fake routes each server's events to the connection of its shard;
with ``overlap_shards`` it delivers every event to both, as during a reshard, and nothing may
then apply twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import AsyncIterator

import discord
import pytest

import engine
from bot.ai import BotAI
from bot.app import HexBot, make_bot
from bot.config import Settings
from bot.service import ActiveGame
from bot.shards import ShardPlan, shard_of
from tests.bot.harness import AI_ITERATIONS, Harness, ManualClock, eventually
from tests.dbquery import query
from tests.fake_discord import FakeDiscord, FakeMember, InteractionResult
from tests.fake_discord.fixtures import run_client


def guild_on_shard(fake: FakeDiscord, shard: int, count: int = 2):
    """A new server (with #games, alice and bob) whose events go to ``shard``."""
    while True:
        guild = fake.add_guild(f"Server {shard}")
        if shard_of(guild.id, count) == shard:
            return guild
        time.sleep(0.002)  # the next snowflake's timestamp part moves on


class Place:
    """A server with a channel and two players."""

    def __init__(self, fake: FakeDiscord, shard: int) -> None:
        self.guild = guild_on_shard(fake, shard)
        self.channel = fake.add_text_channel(self.guild, "games")
        self.alice: FakeMember = fake.add_member(self.guild, "alice")
        self.bob: FakeMember = fake.add_member(self.guild, "bob")


@contextlib.asynccontextmanager
async def processes(fake: FakeDiscord, url: str, clock: ManualClock, plans: list[ShardPlan | None],
                    ai: BotAI | None = None) -> AsyncIterator[list[HexBot]]:
    """One bot per plan on the same database, all connected to the fake."""
    async with contextlib.AsyncExitStack() as stack:
        bots = []
        for plan in plans:
            settings = Settings(token=fake.token, database_url=url, shards=plan)
            brain = ai or BotAI(workers=1, iterations=AI_ITERATIONS, warm=False)
            bots.append(await stack.enter_async_context(run_client(make_bot(settings, clock=clock, ai=brain), fake)))
        yield bots


SHARDS = [ShardPlan(2, (0,)), ShardPlan(2, (1,))]


@pytest.fixture
def places(fake_discord) -> list[Place]:
    fake_discord.shard_count = 2
    return [Place(fake_discord, 0), Place(fake_discord, 1)]


async def start_game(h: Harness, place: Place, **options) -> None:
    """alice (first) and bob start a game (Hex 5×5 unless ``options`` say otherwise, e.g. ``clock="1h"``)."""
    options = {"game": "hex", "size": 5, **options} if options.get("game", "hex") == "hex" else options
    r = await h.slash(place.alice, "challenge", place.channel, opponent=place.bob, seat="first", thread=False,
                      **options)
    assert not r.ephemeral, r.content
    accept = next(c for c in r.custom_ids if c.endswith(":accept"))
    await h.fake.click(place.bob, r, accept)
    await h.fake.wait_for(lambda m: m.channel is place.channel and "begins" in f"{m.content} {m.embeds}")


async def open_challenge(h: Harness, place: Place) -> None:
    """alice challenges bob to Hex 5×5 in the place's channel; nobody accepts."""
    r = await h.slash(place.alice, "challenge", place.channel, opponent=place.bob, game="hex", size=5, thread=False)
    assert not r.ephemeral, r.content


def stored(url: str, channel_id: int) -> list[tuple[int, str, int]]:
    game = query(url, "SELECT MAX(id) FROM games WHERE channel_id = ?", channel_id)[0][0]
    return query(url, "SELECT seq, action, user_id FROM actions WHERE game_id = ? ORDER BY seq", game)


async def all_at_once(fake: FakeDiscord, starts) -> list[InteractionResult]:
    inters = await asyncio.gather(*starts)
    results = await asyncio.gather(*(i.wait(30) for i in inters))
    await fake.settle()
    return list(results)


async def test_each_process_identifies_with_its_shard_and_receives_only_its_servers(fake_discord, places, pg_url,
                                                                                      clock):
    async with processes(fake_discord, pg_url, clock, SHARDS) as bots:
        shards = sorted(tuple(s.identify["shard"]) for s in fake_discord.gateway.sessions)
        assert shards == [(0, 2), (1, 2)]
        for bot, place in zip(bots, places):
            assert place.guild.id in {g.id for g in bot.guilds}
            assert all(shard_of(g.id, 2) == bot.settings.shards.ids[0] for g in bot.guilds)


async def test_the_gateway_recommends_the_fakes_shard_count(fake_discord, places, pg_url, clock):
    async with processes(fake_discord, pg_url, clock, [None]) as (bot,):
        data = await bot.http.get_bot_gateway()
        assert data[0] == 2


async def test_games_on_both_shards_are_played_through_their_own_process(fake_discord, places, pg_url, clock):
    h = Harness(fake_discord, pg_url, clock)
    async with processes(fake_discord, pg_url, clock, SHARDS):
        for place in places:
            await start_game(h, place)
            r = await h.slash(place.alice, "move", place.channel, action="c3")
            assert not r.ephemeral, r.content
    for place in places:
        assert stored(pg_url, place.channel.id) == [(0, "c3", place.alice.id)]


async def test_the_same_interaction_delivered_to_both_processes_applies_once(fake_discord, places, pg_url, clock):
    h = Harness(fake_discord, pg_url, clock)
    async with processes(fake_discord, pg_url, clock, SHARDS):
        for place in places:
            await start_game(h, place)
        fake_discord.overlap_shards = True
        before = {place: len(place.channel.messages) for place in places}
        for place in places:
            await h.slash(place.alice, "move", place.channel, action="c3")  # answered by whichever acks first
        await asyncio.sleep(0.3)
        await fake_discord.settle()
    for place in places:
        assert stored(pg_url, place.channel.id) == [(0, "c3", place.alice.id)]
        answers = [m for m in place.channel.messages[before[place]:] if not m.deleted]
        assert len(answers) == 1 and not answers[0].ephemeral and "played c3" in answers[0].content


async def test_fifty_racing_moves_across_both_processes_apply_exactly_one(fake_discord, places, pg_url, clock):
    h = Harness(fake_discord, pg_url, clock)
    place = places[1]
    rng = random.Random(16)
    async with processes(fake_discord, pg_url, clock, SHARDS):
        await start_game(h, place)
        fake_discord.overlap_shards = True  # every move reaches both processes
        choices = rng.sample(engine.new_game("hex", 5, ("swap",)).legal_actions(), 25)
        starts = [fake_discord.start_slash(place.alice, place.channel, "move", action=a) for a in choices * 2]
        results = await all_at_once(fake_discord, starts)
    rows = stored(pg_url, place.channel.id)
    assert len(rows) == 1 and rows[0][2] == place.alice.id
    # Each interaction is handled by the process that acknowledged it: one board, 49 refusals, one answer each.
    assert sum(1 for r in results if r.type is not None and not r.ephemeral) == 1
    assert all(len([m for m in r.messages if not m.deleted]) == 1 for r in results), \
        [[m.content for m in r.messages] for r in results]


async def test_a_challenge_expiry_fires_once_with_two_processes_on_every_shard(fake_discord, places, pg_url, clock):
    h = Harness(fake_discord, pg_url, clock)
    place = places[0]
    async with processes(fake_discord, pg_url, clock, [None]):
        await open_challenge(h, place)
        # A second process that also runs every shard (a reshard in progress): both timer drivers race.
        async with processes(fake_discord, pg_url, clock, [None]):
            clock.advance(16 * 60)
            await fake_discord.wait_for(lambda m: m.channel is place.channel and "expired" in str(m.content).lower())
            for _ in range(3):  # give both drivers time to (not) fire it again
                clock.advance(5)
                await asyncio.sleep(0.2)
                await fake_discord.settle()
    edits = [rq for rq in fake_discord.requests
             if rq.method == "PATCH" and f"/channels/{place.channel.id}/messages/" in rq.path]
    assert len(edits) == 1, [rq.path for rq in edits]
    assert query(pg_url, "SELECT COUNT(*) FROM timers WHERE kind = 'challenge-expiry'") == [(0,)]
    assert query(pg_url, "SELECT status FROM challenges") == [("expired",)]


async def test_a_reminder_fires_once_on_the_shard_that_owns_the_game(fake_discord, places, pg_url, clock):
    h = Harness(fake_discord, pg_url, clock)
    place = places[1]
    async with processes(fake_discord, pg_url, clock, SHARDS):
        await start_game(h, place, clock="1h")
        async with processes(fake_discord, pg_url, clock, [None]):  # a third process that runs every shard
            clock.advance(46 * 60)
            await fake_discord.wait_for(lambda m: m.channel is place.channel and "your move in game" in (m.content or ""))
            for _ in range(3):
                clock.advance(1)
                await asyncio.sleep(0.2)
                await fake_discord.settle()
    reminders = [m for m in fake_discord.messages(place.channel) if "your move in game" in (m.content or "")]
    assert len(reminders) == 1, [m.content for m in reminders]
    assert query(pg_url, "SELECT COUNT(*) FROM timers WHERE kind = 'reminder'") == [(0,)]


async def test_a_reminder_posted_just_before_its_process_dies_is_not_posted_again_by_the_rerun(
        fake_discord, places, pg_url, clock):
    h = Harness(fake_discord, pg_url, clock)
    place = places[1]
    reminder = lambda m: m.channel is place.channel and "your move in game" in (m.content or "")  # noqa: E731
    async with processes(fake_discord, pg_url, clock, SHARDS):
        await start_game(h, place, clock="1h")
        # The reminder reaches Discord, but the process dies before it hears so and deletes its timer.
        fake_discord.delay(rf"^POST /channels/{place.channel.id}/messages$", 30)
        clock.advance(46 * 60)
        await fake_discord.wait_for(reminder)
    assert query(pg_url, "SELECT COUNT(*) FROM timers WHERE kind = 'reminder' AND claimed_by IS NOT NULL") == [(1,)]
    async with processes(fake_discord, pg_url, clock, [None]):  # another process takes over the shard
        clock.advance(61)  # the dead claimant's lease lapses
        await eventually(lambda: query(pg_url, "SELECT COUNT(*) FROM timers WHERE kind = 'reminder'") == [(0,)])
        await fake_discord.settle()
    assert query(pg_url, "SELECT COUNT(*) FROM timers WHERE kind = 'reminder'") == [(0,)]
    sent = fake_discord.requests_to(rf"^POST /channels/{place.channel.id}/messages$")
    assert len([q for q in sent if "your move in game" in str(q.json)]) == 2  # the rerun did send it again
    assert len([m for m in fake_discord.messages(place.channel) if reminder(m)]) == 1


async def test_a_blind_hex_reminder_cut_short_by_a_crash_still_reminds_the_player_who_has_not_chosen(
        fake_discord, places, pg_url, clock):
    h = Harness(fake_discord, pg_url, clock)
    place = places[1]
    reminders = lambda: [m for m in fake_discord.messages(place.channel)  # noqa: E731
                         if "your move in game" in (m.content or "")]

    async def game(bot: HexBot) -> ActiveGame:
        g = await bot.service.game_in(place.channel.id)
        assert g is not None
        return g

    def member(user_id: int) -> FakeMember:
        return next(p for p in (place.alice, place.bob) if p.id == user_id)

    async with processes(fake_discord, pg_url, clock, SHARDS) as bots:
        await start_game(h, place, game="blindhex", clock="1h")
        g = await game(bots[1])
        setter = member(g.row.seats[g.position.seat_of_colour(g.position.to_move[0])])
        aside = g.position.legal_actions()[0]
        assert not (await h.slash(setter, "move", place.channel, action=aside)).ephemeral  # cards set aside
        # Both now choose; the reminder to the first of them reaches Discord, then the process dies.
        fake_discord.delay(rf"^POST /channels/{place.channel.id}/messages$", 30)
        clock.advance(46 * 60)
        await fake_discord.wait_for(lambda m: m in reminders())
    [first] = reminders()
    async with processes(fake_discord, pg_url, clock, [None]) as (bot,):
        # The player just reminded chooses before the dead process's timer runs again.
        g = await game(bot)
        chooser = next(p for p in (place.alice, place.bob) if first.content.startswith(f"⏰ <@{p.id}>"))
        colour = g.position.colour_of_seat(g.row.seats.index(chooser.id))
        choice = next(a for a in g.position.legal_actions() if a.startswith(f"{colour}:")).partition(":")[2]
        assert (await h.slash(chooser, "move", place.channel, action=choice)).ephemeral  # a secret choice
        clock.advance(61)
        await eventually(lambda: query(pg_url, "SELECT COUNT(*) FROM timers WHERE kind = 'reminder'") == [(0,)])
        await fake_discord.settle()
    other = place.bob if chooser is place.alice else place.alice
    assert [m.content.split(">")[0] for m in reminders()] == [f"⏰ <@{chooser.id}", f"⏰ <@{other.id}"]


async def test_a_deadline_cut_short_by_a_crash_does_not_announce_a_win_claimed_meanwhile_again(
        fake_discord, places, pg_url, clock):
    h = Harness(fake_discord, pg_url, clock)
    place = places[1]
    results = lambda: [m for m in fake_discord.messages(place.channel)  # noqa: E731
                       if "claims the win" in str(m.embeds)]
    async with processes(fake_discord, pg_url, clock, SHARDS):
        await start_game(h, place, clock="1h")
        assert not (await h.slash(place.alice, "move", place.channel, action="c3")).ephemeral
        # "Time is up" reaches Discord, then the process dies before it hears so.
        fake_discord.delay(rf"^POST /channels/{place.channel.id}/messages$", 30)
        clock.advance(3600 + 1)
        notice = await fake_discord.wait_for(lambda m: m.channel is place.channel and "Time is up" in (m.content or ""))
    async with processes(fake_discord, pg_url, clock, [None]):
        claimed = await fake_discord.click(place.alice, notice, next(c for c in notice.custom_ids if ":claim:" in c))
        assert not claimed.ephemeral, claimed.content
        clock.advance(61)  # the dead process's deadline timer runs again: the game is over, by alice's claim
        await eventually(lambda: query(pg_url, "SELECT COUNT(*) FROM timers") == [(0,)])
        await fake_discord.settle()
    assert len(results()) == 1, [m.embeds for m in results()]
    assert query(pg_url, "SELECT reason, winner_seat FROM games") == [("timeout", 0)]


async def test_a_challenge_expiry_cut_short_by_a_crash_is_announced_by_the_rerun(fake_discord, places, pg_url, clock):
    h = Harness(fake_discord, pg_url, clock)
    place = places[0]
    async with processes(fake_discord, pg_url, clock, [None]):
        await open_challenge(h, place)
        # Discord fails the edit that announces the expiry; the process dies while discord.py retries it.
        edit = fake_discord.fail(rf"^PATCH /channels/{place.channel.id}/messages/", 500, times=5)
        clock.advance(16 * 60)
        await eventually(lambda: edit.hits)
        assert edit.hits == 1
    assert query(pg_url, "SELECT status FROM challenges") == [("expired",)]
    edit.times = edit.hits  # Discord is well again
    async with processes(fake_discord, pg_url, clock, [None]):
        clock.advance(61)
        await fake_discord.wait_for(lambda m: m.channel is place.channel and "expired" in str(m.content).lower())
        await eventually(lambda: query(pg_url, "SELECT COUNT(*) FROM timers WHERE kind = 'challenge-expiry'") == [(0,)])
    assert query(pg_url, "SELECT COUNT(*) FROM timers WHERE kind = 'challenge-expiry'") == [(0,)]
    [message] = fake_discord.messages(place.channel)
    assert "expired" in message.content and not message.components


class StalledAI(BotAI):
    """A brain that never answers: the computer's games stay waiting for it."""

    def __init__(self) -> None:
        super().__init__(warm=False)

    async def choose(self, *args, **kwargs) -> str:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


async def test_the_computer_resumes_only_games_on_its_own_shards(fake_discord, places, pg_url, clock):
    h = Harness(fake_discord, pg_url, clock)
    async with processes(fake_discord, pg_url, clock, [None], ai=StalledAI()):
        for place in places:
            r = await h.slash(place.alice, "challenge", place.channel, opponent=fake_discord.bot_member(place.guild),
                              game="hex", size=5, seat="second", thread=False)
            assert not r.ephemeral, r.content
        await fake_discord.settle()
    games = dict(query(pg_url, "SELECT guild_id, id FROM games WHERE ai_level IS NOT NULL"))
    assert set(games) == {p.guild.id for p in places}
    async with processes(fake_discord, pg_url, clock, [SHARDS[1]], ai=StalledAI()) as (bot,):
        cog = bot.get_cog("Opponent")
        for _ in range(100):  # on_ready reads the database: real time passes
            if cog._tasks:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # a kick of the other shard's game would have happened by now
        assert set(bot.get_cog("Opponent")._tasks) == {games[places[1].guild.id]}


async def test_events_without_a_server_go_to_shard_zero_only(fake_discord, places, pg_url, clock):
    async with processes(fake_discord, pg_url, clock, SHARDS):
        dm = {"channel_id": str(fake_discord.snowflakes.next()), "user_id": str(places[0].alice.id), "timestamp": 0}
        assert await fake_discord.dispatch("TYPING_START", dm) == 1
        got = [s.shard for s in fake_discord.gateway.sessions
               if s.buffer and json.loads(s.buffer[-1][1])["t"] == "TYPING_START"]
        assert got == [(0, 2)]


async def test_an_identify_with_an_impossible_shard_is_refused(fake_discord, pg_url, clock):
    bot = HexBot(Settings(token=fake_discord.token, database_url=pg_url), clock=clock, shard_id=3, shard_count=2)
    with pytest.raises(discord.ConnectionClosed):
        async with run_client(bot, fake_discord, timeout=5):
            pass
    assert fake_discord.gateway.identifies == 0
