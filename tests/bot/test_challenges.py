"""Challenges end to end: posting, buttons, refusals, expiry (through the real client and the fake)."""

from __future__ import annotations

from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import mentions, png_of


async def test_a_challenge_is_posted_publicly_with_accept_decline_and_withdraw(harness):
    w = harness.world
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex", size=5)
    assert not r.ephemeral
    assert r.labels == ["Accept", "Decline", "Withdraw"]
    assert w.bob.id in mentions(r.content)


async def test_accepting_with_the_button_starts_the_game_with_a_board_and_a_mention(harness):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
    assert png_of(board).startswith(b"\x89PNG")
    assert w.alice.id in mentions(board.content)  # Alice plays first


async def test_only_the_challenged_player_can_press_accept(harness):
    w = harness.world
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex", size=5)
        answer = await harness.fake.click(w.carol, r, r.custom_ids[0])
        again = await harness.fake.click(w.alice, r, r.custom_ids[0])
    assert answer.ephemeral and "Only the challenged player" in answer.content
    assert again.ephemeral
    assert r.message.components  # the challenge is still open


async def test_decline_closes_the_challenge_message(harness):
    w = harness.world
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex")
        await harness.fake.click(w.bob, r, r.custom_ids[1])
    assert "declined" in r.message.content
    assert not r.message.components


async def test_withdraw_is_only_for_the_challenger(harness):
    w = harness.world
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex")
        refused = await harness.fake.click(w.bob, r, r.custom_ids[2])
        await harness.fake.click(w.alice, r, r.custom_ids[2])
    assert refused.ephemeral and "Only the challenger" in refused.content
    assert "withdrawn" in r.message.content


async def test_accept_command_accepts_the_challenge_addressed_to_you(harness):
    w = harness.world
    async with harness.running():
        await harness.challenge(w.alice, w.bob, "hex", size=5)
        r = await harness.slash(w.bob, "accept")
        board = await harness.fake.wait_for(lambda m: any(n.endswith(".png") for n in m.files))
    assert r.ephemeral and "Accepted" in r.content
    assert board.channel is harness.channel


async def test_decline_command_without_a_challenge_says_so(harness):
    w = harness.world
    async with harness.running():
        r = await harness.slash(w.carol, "decline")
    assert r.ephemeral and "Nobody has challenged you" in r.content


async def test_challenging_yourself_is_refused_privately(harness):
    w = harness.world
    async with harness.running():
        r = await harness.challenge(w.alice, w.alice, "hex")
    assert r.ephemeral and "yourself" in r.content
    assert harness.fake.messages(harness.channel) == []


async def test_challenging_another_bot_is_refused_privately(harness):
    w = harness.world
    other = harness.fake.add_member(w.guild, harness.fake.add_user("otherbot", bot=True))
    async with harness.running():
        r = await harness.challenge(w.alice, other, "hex")
    assert r.ephemeral and "Bots" in r.content
    assert harness.fake.messages(harness.channel) == []


async def test_options_that_do_not_fit_the_game_are_refused_privately(harness):
    w = harness.world
    async with harness.running():
        swap = await harness.challenge(w.alice, w.bob, "inphexion", swap=True)
        even = await harness.challenge(w.alice, w.bob, "inphexion", size=8, neutral=True)
        pie = await harness.challenge(w.alice, w.bob, "hex", pie=True)
    assert swap.ephemeral and "Hex option" in swap.content
    assert even.ephemeral and "odd sizes" in even.content
    assert pie.ephemeral and "inpHeXion option" in pie.content


async def test_a_busy_channel_refuses_a_challenge_and_suggests_a_thread(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5)
        r = await harness.challenge(w.carol, w.alice, "hex")
    assert r.ephemeral and "thread:true" in r.content


async def test_a_thread_challenge_plays_in_a_new_thread(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5)
        r = await harness.challenge(w.carol, w.alice, "hex", size=5, thread=True, seat="first")
        await harness.fake.click(w.alice, r, r.custom_ids[0])
        threads = harness.fake.threads(harness.channel)
        assert len(threads) == 1
        board = await harness.fake.wait_for(lambda m: m.channel is threads[0] and bool(m.files))
        moved = await harness.move(w.carol, "c3", channel=threads[0])
    assert w.carol.id in mentions(board.content)
    assert not moved.ephemeral and png_of(moved)


async def test_an_unanswered_challenge_expires_after_15_minutes(harness, clock):
    w = harness.world
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex")
        clock.advance(15 * 60 + 1)
        await harness.fake.wait_for(lambda m: m.id == r.message.id and "expired" in m.content)
        late = await harness.fake.click(w.bob, r.message.id, r.custom_ids[0]) if r.message.components else None
    assert "expired" in r.message.content
    assert late is None or late.ephemeral
