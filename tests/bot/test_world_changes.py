"""The world changes under a game (issue 45): its thread or channel is deleted, or the bot leaves
its server — while the bot runs, or while it is down. Such a game ends as aborted (unrated) and
both players get a direct message; nothing else changes. A player who left the server still
loses on time as usual.
"""

from __future__ import annotations

import logging

from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import Harness, eventually
from tests.dbquery import query

CLOSED = "was closed because"


async def thread_game(harness: Harness, challenger, opponent, **options):
    """A Hex 5×5 game in its own thread of #games: (game id, thread)."""
    before = set(c.id for c in harness.fake.threads(harness.channel))
    await harness.start_game(challenger, opponent, "hex", size=5, thread=True, **options)
    [thread] = [c for c in harness.fake.threads(harness.channel) if c.id not in before]
    g = await harness.bot.service.game_in(thread.id)
    return g.row.id, thread


async def channel_game(harness: Harness, challenger, opponent, channel, **options) -> int:
    """A Hex 5×5 game played in ``channel`` itself: its id."""
    r = await harness.challenge(challenger, opponent, "hex", size=5, channel=channel, **options)
    await harness.fake.click(opponent, r, next(c for c in r.custom_ids if c.endswith(":accept")))
    await harness.fake.wait_for(lambda m: m.channel is channel and "begins" in str(m.embeds))
    return (await harness.bot.service.game_in(channel.id)).row.id


def status(harness: Harness, game_id: int) -> str:
    return query(harness.db, "SELECT status FROM games WHERE id = ?", game_id)[0][0]


def closed_unrated(harness: Harness, game_id: int) -> bool:
    """Aborted, without a result, a rating change or a timer left."""
    row = query(harness.db, "SELECT status, winner_seat, reason FROM games WHERE id = ?", game_id)[0]
    return (tuple(row) == ("aborted", None, None)
            and not query(harness.db, "SELECT 1 FROM rating_changes WHERE game_id = ?", game_id)
            and not query(harness.db, "SELECT 1 FROM timers WHERE ref_id = ? AND kind != 'challenge'", game_id))


def notes(harness: Harness, member, game_id: int) -> list[str]:
    return [m.content for m in harness.fake.dms(member) if f"#{game_id} " in m.content and CLOSED in m.content]


async def closed_and_told(harness: Harness, game_id: int, *told) -> None:
    """Wait until the bot has closed the game (unrated) and sent its note to each of ``told``."""
    await eventually(lambda: closed_unrated(harness, game_id) and all(notes(harness, m, game_id) for m in told))


async def test_deleting_a_games_thread_ends_it_unrated_and_tells_both_players(harness):
    w, fake = harness.world, harness.fake
    async with harness.running():
        game, thread = await thread_game(harness, w.alice, w.bob, clock="1d")
        other, _ = await thread_game(harness, w.carol, w.admin)
        await harness.move(w.alice, "c3", channel=thread)
        await fake.delete_channel(thread)
        await closed_and_told(harness, game, w.alice, w.bob)
        assert status(harness, other) == "active"
        for player in (w.alice, w.bob):
            [note] = notes(harness, player, game)
            assert "deleted" in note and "no rating" in note
        after = await harness.slash(w.alice, "resign")  # nothing left to resign: no game points to the thread
        assert after.ephemeral and str(thread.id) not in after.content


async def test_deleting_a_channel_ends_its_game_and_the_games_of_its_threads(harness):
    w, fake = harness.world, harness.fake
    side = fake.add_text_channel(w.guild, "side")
    kept = fake.add_text_channel(w.guild, "kept")
    async with harness.running():
        here = await channel_game(harness, w.alice, w.bob, side)
        r = await harness.challenge(w.carol, w.admin, "hex", size=5, channel=side, thread=True)
        await fake.click(w.admin, r, next(c for c in r.custom_ids if c.endswith(":accept")))
        await fake.wait_for(lambda m: m.channel.parent is side and "begins" in str(m.embeds))
        threaded = (await harness.bot.service.games_under(side.id))[-1].id
        elsewhere = await channel_game(harness, w.alice, w.carol, kept)
        await fake.delete_channel(side)
        await closed_and_told(harness, here, w.alice, w.bob)
        await closed_and_told(harness, threaded, w.carol, w.admin)
        assert status(harness, elsewhere) == "active"


async def test_removing_the_bot_from_a_server_ends_its_games(harness):
    w, fake = harness.world, harness.fake
    async with harness.running():
        game, _ = await thread_game(harness, w.alice, w.bob)
        await fake.remove_bot(w.guild)
        await closed_and_told(harness, game, w.alice, w.bob)
        [note] = notes(harness, w.alice, game)
        assert "no longer in the server" in note


async def test_deletions_while_the_bot_was_down_end_their_games_at_start_up(harness):
    w, fake = harness.world, harness.fake
    side = fake.add_text_channel(w.guild, "side")
    async with harness.running():
        in_thread, thread = await thread_game(harness, w.alice, w.bob)
        archived, quiet = await thread_game(harness, w.carol, w.admin)
        in_channel = await channel_game(harness, w.alice, w.carol, side)
    quiet.archived = True  # archived meanwhile: missing from GUILD_CREATE, yet it exists
    await fake.delete_channel(thread)
    await fake.delete_channel(side)
    async with harness.running():
        await closed_and_told(harness, in_thread, w.alice, w.bob)
        await closed_and_told(harness, in_channel, w.alice, w.carol)
        assert status(harness, archived) == "active"
        assert not notes(harness, w.admin, archived)


async def test_a_server_left_while_the_bot_was_down_ends_its_games_at_start_up(harness):
    w, fake = harness.world, harness.fake
    async with harness.running():
        game, _ = await thread_game(harness, w.alice, w.bob)
    other = fake.add_guild("Other Server")  # the bot's commands still sync somewhere
    await fake.remove_bot(w.guild)
    async with harness.running(dev_guild_id=other.id):
        await closed_and_told(harness, game, w.alice, w.bob)


async def test_a_closed_dm_is_logged_and_the_other_player_still_told(harness, caplog):
    caplog.set_level(logging.INFO)
    w, fake = harness.world, harness.fake
    w.bob.user.dms_open = False
    async with harness.running():
        game, thread = await thread_game(harness, w.alice, w.bob)
        await fake.delete_channel(thread)
        await closed_and_told(harness, game, w.alice)
        await eventually(lambda: any(f"game {game}: could not tell player {w.bob.id}" in r.getMessage()
                                     for r in caplog.records))
        assert not notes(harness, w.bob, game)


async def test_a_player_who_left_the_server_still_loses_on_time(harness):
    w, fake = harness.world, harness.fake
    async with harness.running():
        game, thread = await thread_game(harness, w.alice, w.bob, clock="1h", seat="first")
        for player, cell in ((w.alice, "c3"), (w.bob, "a1"), (w.alice, "b2")):  # both played: a rated game
            assert not (await harness.move(player, cell, channel=thread)).ephemeral
        fake.remove_member(w.guild, w.bob)
        harness.clock.advance(2 * 3600)
        await fake.wait_for(lambda m: m.channel is thread and "Time is up" in (m.content or ""))
        claimed = await harness.slash(w.alice, "claim", channel=thread)
        assert not claimed.ephemeral, claimed.content
        row = query(harness.db, "SELECT status, reason, winner_seat FROM games WHERE id = ?", game)[0]
        assert tuple(row) == ("finished", "timeout", 0)
        assert {u for (u,) in query(harness.db, "SELECT user_id FROM rating_changes WHERE game_id = ?", game)} \
            == {w.alice.id, w.bob.id}
