"""Game lifecycle end to end with injected time: clocks, reminders, claims, restarts,
takebacks, aborts, threads, settings and abandoned games. No test sleeps."""

from __future__ import annotations

import asyncio

import pytest

import engine
from tests.bot.harness import eventually, mentions, png_of
from tests.dbquery import query
from tests.fake_discord import CommandUnavailable

DAY = 86400.0


async def new_game(h, **options):
    w = h.world
    options.setdefault("size", 5)
    options.setdefault("seat", "first")
    return await h.start_game(w.alice, w.bob, options.pop("game", "hex"), **options)


def after(h, message_id: int):
    """A predicate for public messages newer than ``message_id``."""
    return lambda m: m.id > message_id and not m.ephemeral and m.channel is h.channel


async def test_the_caption_shows_the_time_left_as_a_discord_timestamp_on_the_default_3_day_clock(harness, clock):
    async with harness.running():
        board = await new_game(harness)
    assert f"Move due <t:{int(clock.now() + 3 * DAY)}:R> (3d per move)" in board.embeds[0]["description"]


async def test_the_player_is_reminded_when_a_quarter_of_their_time_is_left(harness, clock):
    w = harness.world
    async with harness.running():
        board = await new_game(harness, clock="1d")
        clock.advance(0.75 * DAY + 1)
        reminder = await harness.fake.wait_for(lambda m: m.id > board.id and "your move" in m.content)
    assert mentions(reminder.content) == [w.alice.id]
    assert f"<t:{int(clock.now() + 0.25 * DAY - 1)}:R>" in reminder.content


async def test_a_player_who_asked_for_dms_is_reminded_by_direct_message(harness, clock):
    w = harness.world
    async with harness.running():
        await harness.slash(w.alice, "notify", dm=True)
        await new_game(harness, clock="1h")
        clock.advance(0.75 * 3600 + 1)
        dm = await harness.fake.wait_for(lambda m: m.channel.type == 1 and "your move" in m.content)
    assert dm in harness.fake.dms(w.alice)


async def test_a_dm_reminder_falls_back_to_the_channel_when_dms_are_closed(harness, clock):
    w = harness.world
    shy = harness.fake.add_member(w.guild, "shy", dms_open=False)
    async with harness.running():
        await harness.slash(shy, "notify", dm=True)
        board = await harness.start_game(shy, w.bob, "hex", size=5, seat="first", clock="1h")
        clock.advance(0.75 * 3600 + 1)
        reminder = await harness.fake.wait_for(after(harness, board.id))
    assert "your move" in reminder.content and mentions(reminder.content) == [shy.id]


async def test_when_time_is_up_the_waiting_player_gets_a_claim_button_and_wins_on_time(harness, clock):
    w = harness.world
    async with harness.running():
        board = await new_game(harness, clock="1h")
        await harness.move(w.alice, "c3")
        clock.advance(3600 + 1)
        expiry = await harness.fake.wait_for(lambda m: m.id > board.id and "Time is up" in m.content)
        pinged = mentions(expiry.content)
        button = expiry.components[0]["components"][0]["custom_id"]
        late = await harness.fake.click(w.bob, expiry, button)
        await harness.fake.click(w.alice, expiry, button)
        claimed = await harness.fake.wait_for(
            lambda m: m.id > expiry.id and bool(m.embeds) and "claims the win" in m.embeds[0]["description"])
    assert pinged == [w.bob.id, w.alice.id]
    assert late.ephemeral  # the late player can't claim
    assert "claims the win on time" in claimed.embeds[0]["description"]


async def test_the_waiting_player_claims_the_win_on_time(harness, clock):
    w = harness.world
    async with harness.running():
        await new_game(harness, clock="1h")
        await harness.move(w.alice, "c3")
        clock.advance(3600 + 1)
        r = await harness.slash(w.alice, "claim")
        history = await harness.slash(w.carol, "history")
    assert "claims the win on time" in r.embed["description"]
    assert "alice wins on time" in history.embed["description"]


async def test_claiming_before_time_is_up_says_how_much_is_left(harness, clock):
    w = harness.world
    async with harness.running():
        await new_game(harness, clock="1h")
        await harness.move(w.alice, "c3")
        deadline = clock.now() + 3600
        clock.advance(600)
        r = await harness.slash(w.alice, "claim")
    assert r.ephemeral and f"<t:{int(deadline)}:R>" in r.content


async def test_the_late_player_may_still_move_until_the_claim(harness, clock):
    w = harness.world
    async with harness.running():
        await new_game(harness, clock="1h")
        await harness.move(w.alice, "c3")
        clock.advance(3600 + 1)
        late = await harness.move(w.bob, "b2")
        claim = await harness.slash(w.alice, "claim")
    assert not late.ephemeral and png_of(late)
    assert claim.ephemeral  # it is Alice's turn now, with a fresh hour


async def test_a_deadline_set_before_a_restart_expires_after_it(harness, clock):
    w = harness.world
    async with harness.running():
        board = await new_game(harness, clock="1h")
    clock.advance(3600 + 1)
    async with harness.running():  # new client, same database: the timer row is still there
        expiry = await harness.fake.wait_for(lambda m: m.id > board.id and "Time is up" in m.content)
        await harness.fake.click(w.bob, expiry, expiry.components[0]["components"][0]["custom_id"])
        r = await harness.fake.wait_for(
            lambda m: m.id > expiry.id and bool(m.embeds) and "claims the win" in m.embeds[0]["description"])
    assert "claims the win on time" in r.embeds[0]["description"]


async def test_after_a_downtime_past_the_deadline_only_the_deadline_is_announced(harness, clock):
    async with harness.running():
        board = await new_game(harness, clock="1h")
    clock.advance(3600 + 1)  # the reminder (at 45 min) and the deadline both fell due while the bot was down
    async with harness.running():
        await harness.fake.wait_for(lambda m: m.id > board.id and "Time is up" in m.content)
        await harness.fake.settle()
        later = [m.content for m in harness.fake.messages(harness.channel) if m.id > board.id]
    assert not any("⏰" in (text or "") for text in later), later


async def test_a_timer_that_fails_while_handled_runs_again_after_a_restart(harness, clock, monkeypatch):
    from bot.cogs.lifecycle import Lifecycle

    async with harness.running():
        board = await new_game(harness, clock="1h")
    clock.advance(3600 + 1)

    async def crash(self, timer):
        raise asyncio.CancelledError  # the process dies in the middle of the handler

    with monkeypatch.context() as m:
        m.setattr(Lifecycle, "on_deadline", crash)
        async with harness.running():
            await harness.fake.settle()
    async with harness.running():
        expiry = await harness.fake.wait_for(lambda m: m.id > board.id and "Time is up" in m.content)
    assert expiry.components


async def test_an_accepted_takeback_undoes_the_turn_and_the_record_keeps_it(harness):
    w = harness.world
    async with harness.running():
        await new_game(harness)
        await harness.move(w.alice, "c3")
        ask = await harness.slash(w.alice, "takeback")
        wrong = await harness.fake.click(w.carol, ask, ask.custom_ids[0])
        await harness.fake.click(w.bob, ask, ask.custom_ids[0])
        again = await harness.move(w.alice, "d2")
        record = await harness.slash(w.carol, "record", game=1)
    assert w.bob.id in mentions(ask.content)
    assert wrong.ephemeral
    assert "accepted" in ask.message.content
    assert not again.ephemeral
    text = next(iter(record.attachments.values())).decode()
    assert engine.Record.from_text(text).actions == ["d2"]
    assert "# takeback 1: alice took back c3" in text


async def test_a_declined_takeback_changes_nothing(harness):
    w = harness.world
    async with harness.running():
        await new_game(harness)
        await harness.move(w.alice, "c3")
        ask = await harness.slash(w.alice, "takeback")
        await harness.fake.click(w.bob, ask, ask.custom_ids[1])
        g = await harness.bot.service.game_in(harness.channel.id)
    assert "declined" in ask.message.content
    assert g.position.actions == ["c3"]


async def test_a_takeback_is_stale_once_the_opponent_has_moved(harness):
    w = harness.world
    async with harness.running():
        await new_game(harness)
        await harness.move(w.alice, "c3")
        ask = await harness.slash(w.alice, "takeback")
        await harness.move(w.bob, "b2")
        late = await harness.fake.click(w.bob, ask, ask.custom_ids[0])
        board = await harness.slash(w.carol, "board")
    # The request says why it is over and loses its buttons; the game is as it was.
    assert "Too late" in late.message.content and not late.message.components
    assert "after 2 actions" in board.embed["description"]


async def test_only_your_own_last_turn_can_be_taken_back(harness):
    w = harness.world
    async with harness.running():
        await new_game(harness)
        await harness.move(w.alice, "c3")
        r = await harness.slash(w.bob, "takeback")
    assert r.ephemeral and "your own last turn" in r.content


async def test_blind_hex_has_no_takebacks(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "blindhex", seat="first")
        r = await harness.slash(w.alice, "takeback")
    assert r.ephemeral and "Blind Hex" in r.content


async def test_abort_ends_a_barely_started_game_without_a_result(harness, fake_discord):
    w = harness.world
    async with harness.running():
        await new_game(harness)
        await harness.move(w.alice, "c3")
        r = await harness.slash(w.bob, "abort")
        board = await harness.slash(w.alice, "leaderboard", game="hex")
    assert not r.ephemeral and "aborted" in r.content
    assert board.ephemeral  # nobody is rated


async def test_abort_is_refused_after_a_second_action(harness):
    w = harness.world
    async with harness.running():
        await new_game(harness, swap=False)
        for a, b in (("c3", "b2"), ("c2", None)):
            await harness.move(w.alice, a)
            if b:
                await harness.move(w.bob, b)
        r = await harness.slash(w.bob, "abort")
    assert r.ephemeral and "Too late" in r.content


async def test_an_archived_game_thread_is_unarchived_when_someone_moves(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", thread=True)
        thread = harness.fake.threads(harness.channel)[0]
        thread.archived = True  # Discord archives idle threads and tells the bot
        await harness.fake.dispatch("THREAD_UPDATE", thread.payload())
        await harness.fake.settle()
        r = await harness.move(w.alice, "c3", channel=thread)
    assert not thread.archived
    assert not r.ephemeral and png_of(r)


async def test_discord_hides_settings_from_members_without_manage_server(harness):
    w = harness.world
    async with harness.running():
        with pytest.raises(CommandUnavailable, match="0x20"):
            await harness.slash(w.alice, "settings", clock="1h")
        definition = harness.fake.synced_commands()["settings"]
    assert int(definition.payload["default_member_permissions"]) == 0x20  # Manage Server


async def test_settings_refuse_a_member_without_manage_server_even_if_the_server_shows_the_command(harness):
    w = harness.world
    async with harness.running():
        harness.fake.synced_commands()["settings"].payload["default_member_permissions"] = None  # a server override
        r = await harness.slash(w.alice, "settings", clock="1h")
    assert r.ephemeral and "Manage Server" in r.content


async def test_server_settings_set_the_default_clock_and_turn_threads_off(harness):
    w = harness.world
    async with harness.running():
        r = await harness.slash(w.admin, "settings", clock="1h", threads=False, challenge_minutes=5)
        challenge = await harness.slash(w.alice, "challenge", opponent=w.bob, game="hex", size=5)
    assert r.ephemeral and "1h" in r.content
    assert "1h per move" in challenge.content and "in a new thread" not in challenge.content


async def test_a_game_without_a_clock_is_closed_as_abandoned_after_30_days(harness, clock):
    w = harness.world
    async with harness.running():
        board = await new_game(harness, clock="none")
        await harness.move(w.alice, "c3")
        clock.advance(29 * DAY)
        await harness.move(w.bob, "b2")  # a move restarts the 30 days
        clock.advance(29 * DAY)
        alive = await harness.bot.service.game_in(harness.channel.id)
        clock.advance(2 * DAY)
        closed = await harness.fake.wait_for(lambda m: m.id > board.id and "abandoned" in str(m.embeds))
        ratings = await harness.slash(w.alice, "leaderboard", game="hex")
    assert alive is not None
    assert png_of(closed)
    assert ratings.ephemeral  # unrated


async def test_an_unclaimed_win_on_time_is_closed_as_abandoned_30_days_after_the_deadline(harness, clock):
    w = harness.world
    async with harness.running():
        board = await new_game(harness, clock="1h")
        await harness.move(w.alice, "c3")
        clock.advance(3600 + 29 * DAY)  # bob is late, and alice never claims
        alive = await harness.bot.service.game_in(harness.channel.id)
        clock.advance(2 * DAY)
        closed = await harness.fake.wait_for(lambda m: m.id > board.id and "abandoned" in str(m.embeds))
        again = await harness.challenge(w.alice, w.carol, "hex", size=5)
    assert alive is not None
    assert png_of(closed)
    assert not again.ephemeral, again.content  # the channel is free again


async def test_an_abandoned_game_is_announced_after_a_restart_when_its_process_died_before_posting_it(harness, clock):
    w = harness.world
    async with harness.running():
        board = await new_game(harness, clock="none")
        await harness.move(w.alice, "c3")
        # Discord fails the closing board; the process dies while discord.py retries it.
        post = harness.fake.fail(r"^POST /channels/\d+/messages$", 500, times=5)
        clock.advance(31 * DAY)
        await eventually(lambda: post.hits)
    game_id, reason = query(harness.db, "SELECT id, reason FROM games")[0]
    assert reason == "abandoned"
    post.times = post.hits  # Discord is well again
    async with harness.running():
        clock.advance(61)  # PostgreSQL: the dead process's claim lapses (SQLite: released at the start)
        closed = await harness.fake.wait_for(lambda m: m.id > board.id and "abandoned" in str(m.embeds))
        await eventually(lambda: query(harness.db, "SELECT COUNT(*) FROM timers WHERE ref_id = ?", game_id) == [(0,)])
    assert png_of(closed)
    assert [m.id for m in harness.fake.message_index.values() if "abandoned" in str(m.embeds)] == [closed.id]


async def test_asking_twice_for_the_same_takeback_is_refused_privately(harness):
    w = harness.world
    async with harness.running():
        await new_game(harness)
        await harness.move(w.alice, "c3")
        first = await harness.slash(w.alice, "takeback")
        second = await harness.slash(w.alice, "takeback")
    assert not first.ephemeral
    assert second.ephemeral and "already asked" in second.content
