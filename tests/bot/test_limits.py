"""The limits against abuse (issue 45), end to end on both databases: open challenges per challenger
and per target, games against the computer per member, the board re-post cooldown, replays per
member and at once; each refusal private, saying the limit and when it frees up, changing nothing;
each limit changed by a server's admins in ``/settings``. Time is the harness's clock."""

from __future__ import annotations

import asyncio
import re
import threading

import pytest

import render
from bot.service.limits import LIMITS, resolved
from bot.ui import texts
from tests.bot.harness import Harness, eventually, png_of
from tests.dbquery import query, snapshot

#: the board cooldown's default, in seconds
COOLDOWN = LIMITS["board_cooldown"].default


def members(h: Harness, n: int, prefix: str = "m") -> list:
    """``n`` more members of the test server."""
    return [h.fake.add_member(h.world.guild, f"{prefix}{i}") for i in range(n)]


def open_challenges(h: Harness) -> list[tuple[int, int]]:
    """(challenger, opponent) of every open challenge."""
    return query(h.db, "SELECT challenger_id, opponent_id FROM challenges WHERE status = 'open' ORDER BY id")


def timestamp(text: str) -> int:
    """The Unix time of the one relative Discord timestamp in a text."""
    found = re.findall(r"<t:(\d+):R>", text)
    assert len(found) == 1, text
    return int(found[0])


# -- open challenges ------------------------------------------------------------------------------
async def test_a_member_with_the_most_open_challenges_is_refused_another_saying_when_one_expires(harness, clock):
    w = harness.world
    most = LIMITS["open_challenges"].default
    targets = members(harness, most + 1)
    async with harness.running():
        for t in targets[:most]:
            assert not (await harness.challenge(w.alice, t, "hex", size=5)).ephemeral
            clock.advance(10)
        # each challenge's message id is stored just after it is posted
        await eventually(lambda: query(harness.db, "SELECT COUNT(*) FROM challenges WHERE message_id IS NULL") == [(0,)])
        before = snapshot(harness.db)
        r = await harness.challenge(w.alice, targets[most], "hex", size=5)
        after = snapshot(harness.db)
    assert r.ephemeral and f"this server allows {most} at once" in r.content
    first_expiry = query(harness.db, "SELECT MIN(expires_at) FROM challenges")[0][0]
    assert timestamp(r.content) == int(first_expiry)
    assert before == after


async def test_a_member_is_sent_at_most_the_limit_of_open_challenges_so_pings_cannot_flood_them(harness):
    w = harness.world
    most = LIMITS["challenges_to_member"].default
    challengers = members(harness, most + 1)
    async with harness.running():
        for c in challengers[:most]:
            assert not (await harness.challenge(c, w.bob, "hex", size=5)).ephemeral
        r = await harness.challenge(challengers[most], w.bob, "hex", size=5)
    assert r.ephemeral and f"They already have {most} open challenges waiting" in r.content and "<t:" in r.content
    assert f"<@{w.bob.id}>" not in r.content
    assert len(open_challenges(harness)) == most


async def test_a_second_challenge_to_the_same_member_points_at_the_first_one(harness):
    w = harness.world
    async with harness.running():
        first = await harness.challenge(w.alice, w.bob, "hex", size=5)
        again = await harness.challenge(w.alice, w.bob, "inphexion")
    link = f"https://discord.com/channels/{w.guild.id}/{harness.channel.id}/{first.message.id}"
    assert again.ephemeral and link in again.content
    assert open_challenges(harness) == [(w.alice.id, w.bob.id)]


async def test_an_expired_challenge_frees_its_place(harness, clock):
    w = harness.world
    most = LIMITS["open_challenges"].default
    targets = members(harness, most + 1)
    async with harness.running():
        for t in targets[:most]:
            await harness.challenge(w.alice, t, "hex", size=5)
        clock.advance(15 * 60 + 1)  # the default 15 minutes
        r = await harness.challenge(w.alice, targets[most], "hex", size=5)
    assert not r.ephemeral, r.content


async def test_challenges_sent_at_once_never_pass_the_limit(harness):
    w = harness.world
    most = LIMITS["open_challenges"].default
    targets = members(harness, most + 4)
    async with harness.running():
        results = await asyncio.gather(*(harness.challenge(w.alice, t, "hex", size=5) for t in targets))
    assert sum(not r.ephemeral for r in results) == most
    assert len(open_challenges(harness)) == most


# -- games against the computer ---------------------------------------------------------------------
async def test_a_member_plays_at_most_the_limit_of_games_against_the_computer_at_once(harness):
    w = harness.world
    most = LIMITS["ai_games"].default
    async with harness.running():
        for _ in range(most):
            r = await harness.slash(w.alice, "challenge", opponent=w.bot, game="hex", size=5, level="easy", thread=True)
            assert not r.ephemeral, r.content
        threads = len(harness.fake.threads(harness.channel))
        refused = await harness.slash(w.alice, "challenge", opponent=w.bot, game="hex", size=5, level="easy",
                                      thread=True)
        bob = await harness.slash(w.bob, "challenge", opponent=w.bot, game="hex", size=5, level="easy", thread=True)
    games = query(harness.db, "SELECT channel_id FROM games WHERE seat0_id = ? OR seat1_id = ?", w.alice.id, w.alice.id)
    assert refused.ephemeral and f"this server allows {most} games at once" in refused.content
    assert all(f"<#{channel}>" in refused.content for (channel,) in games) and len(games) == most
    assert len(harness.fake.threads(harness.channel)) == threads + 1  # bob's; none made for the refusal
    assert not bob.ephemeral


# -- board re-posts -----------------------------------------------------------------------------------
async def test_a_board_repeated_within_the_cooldown_is_answered_privately_with_a_link_to_the_last_one(harness, clock):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        shown = await harness.slash(w.carol, "board")
        clock.advance(COOLDOWN - 5)
        count = len(harness.fake.messages(harness.channel))
        again = await harness.slash(w.bob, "board")
        public = [m for m in harness.fake.messages(harness.channel)[count:] if not m.ephemeral]
    assert not shown.ephemeral and png_of(shown)
    assert again.ephemeral and not again.attachments and not public
    assert f"https://discord.com/channels/{w.guild.id}/{harness.channel.id}/{shown.message.id}" in again.content
    assert timestamp(again.content) == int(clock.now() + 5)


async def test_a_board_can_be_posted_again_once_the_cooldown_has_run(harness, clock):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        await harness.slash(w.carol, "board")
        clock.advance(COOLDOWN)
        again = await harness.slash(w.carol, "board")
    assert not again.ephemeral and png_of(again)


async def test_the_board_button_within_the_cooldown_answers_privately_too(harness, clock):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        button = next(c for c in board.custom_ids if c.endswith(":board"))
        first = await harness.fake.click(w.carol, board, button)
        await harness.board_registered(first.message)
        count = len(harness.fake.messages(harness.channel))
        second = await harness.fake.click(w.alice, first.message, next(c for c in first.message.custom_ids
                                                                      if c.endswith(":board")))
        public = [m for m in harness.fake.messages(harness.channel)[count:] if not m.ephemeral]
    assert not first.ephemeral and png_of(first)
    assert second.ephemeral and "can be posted again" in second.content and "<t:" in second.content
    assert not public


# -- /settings ----------------------------------------------------------------------------------------
async def test_settings_show_every_limit_with_its_default(harness):
    w = harness.world
    async with harness.running():
        r = await harness.slash(w.admin, "settings")
    for name, limit in LIMITS.items():
        assert texts.limit_shown(limit, limit.default) in r.content, name


async def test_an_admin_changes_a_limit_in_settings_and_it_applies_at_once(harness):
    w = harness.world
    async with harness.running():
        r = await harness.slash(w.admin, "settings", open_challenges=1, board_cooldown=0)
        first = await harness.challenge(w.alice, w.bob, "hex", size=5)
        second = await harness.challenge(w.alice, w.carol, "hex", size=5)
    assert r.ephemeral and "Settings updated" in r.content
    assert texts.limit_shown(LIMITS["open_challenges"], 1) in r.content and texts.limit_shown(LIMITS["board_cooldown"], 0) in r.content
    assert not first.ephemeral
    assert second.ephemeral and "You have 1 open challenge — this server allows 1 at once" in second.content


async def test_no_board_cooldown_lets_every_board_through(harness):
    w = harness.world
    async with harness.running():
        await harness.slash(w.admin, "settings", board_cooldown=0)
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        shown = [await harness.slash(w.carol, "board") for _ in range(3)]
    assert all(not r.ephemeral and png_of(r) for r in shown)


async def test_a_limit_out_of_range_from_a_modified_client_is_refused_and_changes_nothing(harness):
    w = harness.world
    async with harness.running():
        before = await harness.bot.service.limits(w.guild.id)
        with pytest.raises(Exception, match="from 1 to 10"):
            await harness.bot.service.update_guild_settings(w.guild.id, clock="1h", limits={"ai_games": 11})
        after = await harness.bot.service.limits(w.guild.id)
        settings = await harness.bot.service.store.guild_settings(w.guild.id)
    assert before == after and settings.default_clock != "1h"


# -- replays ------------------------------------------------------------------------------------------
class Renders:
    """The real replay renderer, counted: how many replays were made, how many at once at most; while
    ``gate`` is cleared, each waits for it (a replay that takes its time)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made = 0
        self.running = 0
        self.most = 0
        self.gate = threading.Event()
        self.gate.set()
        self._lock = threading.Lock()
        real = render.render_replay

        def counted(*args, **kwargs):
            with self._lock:
                self.made += 1
                self.running += 1
                self.most = max(self.most, self.running)
            try:
                self.gate.wait(30)
                return real(*args, **kwargs)
            finally:
                with self._lock:
                    self.running -= 1

        monkeypatch.setattr(render, "render_replay", counted)


async def finished_game(h: Harness) -> None:
    w = h.world
    await h.start_game(w.alice, w.bob, "hex", size=5, seat="first")
    for user, action in ((w.alice, "c3"), (w.bob, "b2")):
        await h.move(user, action)
    await h.slash(w.alice, "resign")


def gif_of(r) -> bytes:
    return next(data for name, data in r.attachments.items() if name.endswith(".gif"))


async def test_a_finished_games_replay_is_made_once_and_posted_again_after_a_restart(harness, monkeypatch):
    w = harness.world
    renders = Renders(monkeypatch)
    async with harness.running():
        await finished_game(harness)
        first = await harness.slash(w.carol, "replay", game=1)
        second = await harness.slash(w.bob, "replay", game=1)
    async with harness.running():
        third = await harness.slash(w.alice, "replay", game=1)
    assert renders.made == 1
    assert gif_of(first) == gif_of(second) == gif_of(third)
    assert query(harness.db, "SELECT game_id FROM replay_gifs") == [(1,)]


async def test_a_second_replay_while_ones_own_is_being_made_is_refused_privately(harness, monkeypatch):
    w = harness.world
    renders = Renders(monkeypatch)
    async with harness.running():
        await finished_game(harness)
        renders.gate.clear()
        first = asyncio.create_task(harness.slash(w.carol, "replay", game=1))
        while renders.running == 0:
            await asyncio.sleep(0.01)
        refused = await harness.slash(w.carol, "replay", game=1)
        renders.gate.set()
        made = await first
    assert refused.ephemeral and "still being made" in refused.content
    assert not made.ephemeral and gif_of(made)


async def test_replays_asked_by_several_members_at_once_are_made_one_at_a_time(harness, monkeypatch):
    w = harness.world
    renders = Renders(monkeypatch)
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")  # a game in progress: made afresh for each
        renders.gate.clear()
        asked = [asyncio.create_task(harness.slash(u, "replay", game=1)) for u in (w.alice, w.bob, w.carol)]
        while renders.made == 0:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # time for the others to start, were they allowed to
        renders.gate.set()
        results = await asyncio.gather(*asked)
    assert all(not r.ephemeral and gif_of(r) for r in results)
    assert renders.made == 3 and renders.most == 1


# -- the store's part -----------------------------------------------------------------------------------
async def test_the_replay_cache_keeps_only_the_gifs_used_most_recently(store):
    for game_id, now in ((1, 10.0), (2, 20.0), (3, 30.0)):
        await store.put_replay_gif(game_id, "k", b"GIF%d" % game_id, now, keep=3)
    assert await store.replay_gif(1, "k", 40.0) == b"GIF1"  # used again: now the newest
    await store.put_replay_gif(4, "k", b"GIF4", 50.0, keep=3)
    kept = {g: await store.replay_gif(g, "k", 60.0) for g in (1, 2, 3, 4)}
    assert kept == {1: b"GIF1", 2: None, 3: b"GIF3", 4: b"GIF4"}


async def test_a_kept_gif_made_from_other_moves_or_names_is_not_posted(store):
    await store.put_replay_gif(1, "old-key", b"GIF-old", 10.0, keep=5)
    assert await store.replay_gif(1, "new-key", 20.0) is None
    await store.put_replay_gif(1, "new-key", b"GIF-new", 30.0, keep=5)
    assert await store.replay_gif(1, "new-key", 40.0) == b"GIF-new"
    assert await store.replay_gif(1, "old-key", 50.0) is None


async def test_limits_set_for_one_server_leave_the_others_at_their_defaults(store):
    await store.put_guild_limits(1, {"ai_games": 5, "board_cooldown": 0})
    await store.put_guild_limits(1, {"ai_games": 4})
    assert await store.guild_limits(1) == {"ai_games": 4, "board_cooldown": 0}
    assert await store.guild_limits(2) == {}
    assert resolved(await store.guild_limits(2)) == {name: limit.default for name, limit in LIMITS.items()}
