"""Two real bot processes that both receive every interaction (a reshard in progress), on one PostgreSQL.

The process whose acknowledgement Discord refuses (400 40060, already acknowledged) must drop the
interaction entirely: the user sees one answer, and the action is stored once. The fake makes the
worst order happen: the accepted acknowledgement's answer reaches its process a second late, so the
refused process is first at the database.

Real processes, not two clients in this one: discord.py's webhook adapter is shared by every
client of a process and sends requests to one interaction one after the other, which would hide
the race.
"""

from __future__ import annotations

import asyncio

from tests.bot.test_crash_shards import ShardProcess
from tests.bot.test_shards import guild_on_shard
from tests.dbquery import query
from tests.fake_discord import FakeDiscord, FakeInteraction

CALLBACK = r"^POST /interactions/\d+/[^/]+/callback$"


async def both_tried(inter: FakeInteraction) -> None:
    """Wait until both processes sent their acknowledgement, then give the refused one time to (not) act."""
    for _ in range(300):
        if len(inter.callbacks) >= 2:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.5)


async def test_an_interaction_both_processes_receive_applies_once_with_one_answer(pg_url, tmp_path):
    fake = FakeDiscord(token="overlap-processes", shard_count=2)
    guild = guild_on_shard(fake, 0)
    channel = fake.add_text_channel(guild, "games")
    alice, bob = fake.add_member(guild, "alice"), fake.add_member(guild, "bob")
    await fake.start()
    procs = [ShardProcess(fake, tmp_path, pg_url, 0), ShardProcess(fake, tmp_path, pg_url, 1)]
    try:
        await asyncio.gather(*(p.start() for p in procs))
        r = await fake.slash(alice, channel, "challenge", opponent=bob, game="hex", size=5, seat="first", thread=False)
        await fake.click(bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
        await fake.wait_for(lambda m: m.channel is channel and "begins" in (m.content or ""))
        game = query(pg_url, "SELECT id FROM games WHERE channel_id = ?", channel.id)[0][0]
        fake.overlap_shards = True

        # A /move: one board, nothing else, stored once.
        slow = fake.delay(CALLBACK, 1.0)
        before = len(channel.messages)
        move = await fake.start_slash(alice, channel, "move", action="c3")
        board = await move.wait(30)
        await both_tried(move)
        assert slow.hits == 1
        assert query(pg_url, "SELECT seq, action, user_id FROM actions WHERE game_id = ?", game) == \
            [(0, "c3", alice.id)]
        assert not board.ephemeral and any(n.endswith(".png") for n in board.attachments), board.content
        seen = [m for m in channel.messages[before:] if not m.deleted]
        assert seen == [board.message], [(m.content, m.ephemeral) for m in seen]
        assert [(c.status, (c.response or {}).get("code")) for c in move.callbacks] == [(200, None), (400, 40060)]

        # A button (Resign, confirmed): the game ends once, one result, the confirmation edited once.
        ask = await fake.click(bob, board, next(c for c in board.custom_ids if c.endswith(":resign")))
        assert ask.ephemeral and len(ask.interaction.callbacks) == 2, ask.content
        fake.delay(CALLBACK, 1.0)
        before = len(channel.messages)
        press = await fake.start_component(bob, ask.message, next(c for c in ask.custom_ids if c.endswith(":resign!")))
        await press.wait(30)
        await both_tried(press)
        assert query(pg_url, "SELECT status, winner_seat FROM games WHERE id = ?", game) == [("finished", 0)]
        seen = [m for m in channel.messages[before:] if not m.deleted]
        assert len(seen) == 1 and not seen[0].ephemeral and "resign" in (seen[0].content or "").lower(), \
            [(m.content, m.ephemeral) for m in seen]
        assert ask.message.content.startswith("You resigned game #"), ask.message.content
        assert [(c.status, (c.response or {}).get("code")) for c in press.callbacks] == [(200, None), (400, 40060)]
    finally:
        await asyncio.gather(*(p.stop() for p in procs))
        await fake.stop()
