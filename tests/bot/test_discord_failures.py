"""Discord failures: the fake answers 500s and 429s (with Discord's rate-limit headers and
``retry_after``) to some of the bot's replies and uploads.

Whatever fails, an accepted action is stored exactly once; the reply is
retried until it gets through, or — when Discord keeps failing — the board is
posted in the channel instead and ``/board`` shows the position afterwards; and the bot keeps running: later commands work,
and every error is handled by the bot itself (logged, the user told when
Discord lets it) — none reaches discord.py's "Ignoring exception" fallback or
asyncio's "exception was never retrieved".
"""

from __future__ import annotations

import logging

import pytest

from bot.ui.answers import SORRY
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import Harness, png_of
from tests.dbquery import query
from tests.fake_discord import InteractionFailed

WEBHOOK = r"^POST /webhooks/\d+/[^/]+$"                        # follow-ups (the board after a move)
CALLBACK = r"^POST /interactions/\d+/[^/]+/callback$"         # the first answer (defer / message)
ORIGINAL = r"^PATCH /webhooks/\d+/[^/]+/messages/@original$"  # editing the answered message
UPLOAD = r"^POST /channels/\d+/messages$"                     # the board posted when a game starts


def actions(h: Harness) -> list[tuple[int, str]]:
    game = query(h.db, "SELECT MAX(id) FROM games")[0][0]
    return query(h.db, "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", game)


def no_crash(caplog: pytest.LogCaptureFixture) -> None:
    """Nothing died unnoticed: no never-retrieved task exception, no unhandled error in discord.py's loop."""
    bad = [r.getMessage() for r in caplog.records
           if "never retrieved" in r.getMessage() or "Ignoring exception" in r.getMessage()
           or (r.name == "asyncio" and r.levelno >= logging.ERROR)]
    assert not bad, bad


def boards_of(h: Harness, after_id: int) -> list:
    return [m for m in h.fake.messages(h.channel) if m.id > after_id and any(n.endswith(".png") for n in m.files)]


async def test_a_500_on_the_board_follow_up_is_retried_and_the_move_counts_once(harness, caplog):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        last = harness.fake.messages(harness.channel)[-1].id
        fault = harness.fake.fail(WEBHOOK, status=500, times=1)
        r = await harness.move(w.alice, "c3")
        nxt = await harness.move(w.bob, "b2")
    assert fault.hits == 1
    assert not r.ephemeral and png_of(r)
    assert len(boards_of(harness, last)) == 2  # one board per move, none doubled by the retry
    assert actions(harness) == [(0, "c3"), (1, "b2")]
    assert not nxt.ephemeral
    no_crash(caplog)


async def test_an_acknowledgement_that_got_a_500_yet_went_through_is_still_followed_by_the_board(harness, caplog):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        fault = harness.fake.fail(CALLBACK, status=500, times=1, applied=True)
        r = await harness.move(w.alice, "c3")
    # discord.py retried the acknowledgement that had landed: Discord said "already acknowledged".
    assert fault.hits == 1 and [q.status for q in harness.fake.requests_to(CALLBACK)][-2:] == [500, 400]
    assert not r.ephemeral and png_of(r)
    assert actions(harness) == [(0, "c3")]
    no_crash(caplog)


async def test_a_private_answer_after_an_acknowledgement_that_got_a_500_yet_went_through_stays_private(harness,
                                                                                                     caplog):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        harness.fake.fail(CALLBACK, status=500, times=1, applied=True)
        r = await harness.move(w.bob, "c3")
    assert r.ephemeral and "not your turn" in r.content.lower(), r.content
    assert actions(harness) == []
    no_crash(caplog)


async def test_an_acknowledgement_that_went_through_while_every_retry_got_a_5xx_is_still_followed_by_the_board(
        harness, caplog):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        harness.fake.fail(CALLBACK, status=500, times=1, applied=True)
        harness.fake.fail(CALLBACK, status=502, times=4)  # discord.py gives up after five attempts
        r = await harness.fake.slash(w.alice, harness.channel, "move", action="c3", timeout=40)
    assert [q.status for q in harness.fake.requests_to(CALLBACK)][-6:] == [500, 502, 502, 502, 502, 400]
    assert not r.ephemeral and png_of(r)
    assert actions(harness) == [(0, "c3")]
    no_crash(caplog)


async def test_429s_on_answers_follow_ups_and_uploads_are_waited_out(harness, caplog):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        faults = [fake.fail(UPLOAD, status=429, times=2, retry_after=0.05),
                  fake.fail(ORIGINAL, status=429, times=1, retry_after=0.05)]
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        faults += [fake.fail(CALLBACK, status=429, times=2, retry_after=0.05),
                   fake.fail(WEBHOOK, status=429, times=2, retry_after=0.05, is_global=True)]
        r = await harness.move(w.alice, "c3")
        games = await harness.slash(w.carol, "games")
    assert [f.hits for f in faults] == [2, 1, 2, 2]
    limited = [q for q in fake.requests if q.status == 429]
    assert len(limited) == 7 and all(q.fault for q in limited)
    assert png_of(board) and not r.ephemeral and png_of(r)
    assert sum("begins" in str(m.embeds) for m in fake.messages(harness.channel)) == 1
    assert actions(harness) == [(0, "c3")]
    assert not games.ephemeral
    no_crash(caplog)


async def test_a_500_on_the_game_start_upload_and_on_the_challenge_edit_start_one_game(harness, caplog):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex", size=5, seat="first")
        faults = [fake.fail(UPLOAD, status=500, times=1), fake.fail(ORIGINAL, status=502, times=1)]
        await fake.click(w.bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
        board = await fake.wait_for(lambda m: "begins" in str(m.embeds))
        moved = await harness.move(w.alice, "c3")
    assert [f.hits for f in faults] == [1, 1]
    assert png_of(board) and "accepted" in r.message.content
    assert sum("begins" in str(m.embeds) for m in fake.messages(harness.channel)) == 1
    assert not moved.ephemeral and actions(harness) == [(0, "c3")]
    no_crash(caplog)


async def test_when_every_retry_of_the_board_fails_the_move_counts_once_and_board_recovers(harness, caplog):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        # discord.py tries a request 5 times; the board follow-up fails every time.
        fault = fake.fail(WEBHOOK, status=429, times=5, retry_after=0.01)
        inter = await fake.start_slash(w.alice, harness.channel, "move", action="c3")
        await fake.wait_for_request(lambda q: fault.hits >= 5, timeout=15)
        # The board goes to the channel instead.
        posted = await fake.wait_for(lambda m: m.interaction is None and "played c3" in str(m.embeds) and bool(m.files))
        assert not inter.done  # the user still sees "thinking…": Discord never took the answer
        assert posted.channel is harness.channel
        again = await harness.move(w.alice, "c3")  # the user tries again
        board = await harness.slash(w.carol, "board")
        nxt = await harness.move(w.bob, "b2")
    assert again.ephemeral and "not your turn" in again.content
    assert not board.ephemeral and png_of(board) and "after 1 action" in board.embed["description"]
    assert not nxt.ephemeral
    assert actions(harness) == [(0, "c3"), (1, "b2")]
    no_crash(caplog)


async def test_when_discord_refuses_every_answer_the_move_counts_once_and_board_recovers(harness, caplog):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        fault = fake.fail(CALLBACK, status=429, times=10, retry_after=0.01)
        inter = await fake.start_slash(w.alice, harness.channel, "move", action="c3")
        with pytest.raises(InteractionFailed):  # "The application did not respond" after 3 s
            await inter.wait(15)
        await fake.wait_for_request(lambda q: fault.hits >= 10, timeout=15)
        # The acknowledgement and then the answer failed 5 times each: the board went to the channel.
        await fake.wait_for(lambda m: m.interaction is None and "played c3" in str(m.embeds) and bool(m.files))
        board = await harness.slash(w.carol, "board")
        nxt = await harness.move(w.bob, "b2")
    assert not board.ephemeral and "after 1 action" in board.embed["description"]
    assert not nxt.ephemeral
    assert actions(harness) == [(0, "c3"), (1, "b2")]
    no_crash(caplog)


async def test_a_failing_public_notice_keeps_a_blind_hex_choice_applied_once(harness, caplog):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        harness.bot.service._seed = lambda: 11  # a seeded cut
        await harness.start_game(w.alice, w.bob, "blindhex", seat="first")
        g = await harness.bot.service.game_in(harness.channel.id)
        user = {w.alice.id: w.alice, w.bob.id: w.bob}
        await harness.move(user[g.user_of(g.position.to_move[0])], g.position.legal_actions()[0])
        g = await harness.bot.service.game_in(harness.channel.id)
        colour = g.position.to_move[0]
        chooser = user[g.user_of(colour)]
        cards = g.position.legal_actions(colour)[0].split(":")[1]
        fault = fake.fail(WEBHOOK, status=500, times=1)  # the public "has chosen" follow-up
        mine = await harness.move(chooser, cards)
        notice = await fake.wait_for(lambda m: not m.ephemeral and "has chosen" in (m.content or ""))
        again = await harness.move(chooser, cards)
    assert fault.hits == 1 and mine.ephemeral and cards in mine.content
    assert notice.channel is harness.channel and cards not in notice.content
    assert again.ephemeral and "already chosen" in again.content
    assert [a for _, a in actions(harness)][-1] == f"{colour}:{cards}" and len(actions(harness)) == 2
    no_crash(caplog)


async def test_when_the_game_start_board_never_gets_through_the_game_exists_once_and_board_recovers(harness, caplog):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex", size=5, seat="first")
        fault = fake.fail(UPLOAD, status=429, times=5, retry_after=0.01)
        accepted = await fake.click(w.bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
        await fake.wait_for_request(lambda q: fault.hits >= 5, timeout=15)
        await fake.settle()
        twice = await fake.click(w.bob, r.message.id, next(c for c in r.custom_ids if c.endswith(":accept"))) \
            if r.message.components else None
        board = await harness.slash(w.alice, "board")
        moved = await harness.move(w.alice, "c3")
    assert "accepted" in (accepted.content or "")
    assert twice is None or (twice.ephemeral and "accepted" in twice.content)
    assert not board.ephemeral and png_of(board) and "after 0 actions" in board.embed["description"]
    assert not moved.ephemeral and actions(harness) == [(0, "c3")]
    assert query(harness.db, "SELECT COUNT(*) FROM games") == [(1,)]
    assert any(rec.levelno >= logging.ERROR for rec in caplog.records), "the lost board must be logged"
    no_crash(caplog)


async def test_a_refused_challenge_edit_on_accept_still_starts_the_game_with_its_board(harness, caplog):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex", size=5, seat="first")
        fault = fake.fail(ORIGINAL, status=404, times=1)
        # The click's own answer (the edited challenge) is what fails, so don't wait for it.
        await fake.start_component(w.bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
        board = await fake.wait_for(lambda m: "begins" in str(m.embeds))
        moved = await harness.move(w.alice, "c3")
    assert fault.hits == 1
    assert png_of(board) and not moved.ephemeral
    no_crash(caplog)


async def test_a_button_that_fails_inside_tells_the_clicker_privately(harness, caplog, monkeypatch):
    w = harness.world
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex", size=5, seat="first")

        async def broken(*args, **kwargs):
            raise RuntimeError("a bug in the accept path")

        monkeypatch.setattr(harness.bot.service, "accept", broken)
        clicked = await harness.fake.click(w.bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
    assert clicked.ephemeral and SORRY in clicked.content and "Traceback" not in clicked.content
    assert any("button hx:challenge:" in rec.getMessage() for rec in caplog.records if rec.levelno >= logging.ERROR)
    no_crash(caplog)


async def test_a_refused_unarchive_still_answers_the_move_with_its_board(harness, caplog):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", thread=True)
        thread = fake.threads(harness.channel)[0]
        thread.archived = True
        await fake.dispatch("THREAD_UPDATE", thread.payload())
        await fake.settle()
        fault = fake.fail(r"^PATCH /channels/\d+$", status=403, times=1)
        r = await harness.move(w.alice, "c3", channel=thread)
    assert fault.hits == 1
    assert not r.ephemeral and png_of(r)
    assert actions(harness) == [(0, "c3")]
    no_crash(caplog)
