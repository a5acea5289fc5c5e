"""The real bot against what real Discord does and a lenient fake would not: channel
permissions (403 50013), the 3-second deadline, 15-minute interaction tokens, rate
limits that run out, and the visibility rule of follow-ups after a "thinking…" defer.

Every case goes through the real discord.py client and the real database; no
accepted move is lost and nothing private lands in public.
"""

from __future__ import annotations

import asyncio
import contextlib
import traceback

from bot.ui.answers import SORRY
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import Harness, png_of
from tests.dbquery import query
from tests.fake_discord import InteractionFailed

CALLBACK = r"^POST /interactions/\d+/[^/]+/callback$"


def actions(h: Harness) -> list[str]:
    game = query(h.db, "SELECT MAX(id) FROM games")[0][0]
    return [r[0] for r in query(h.db, "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", game)]


def games(h: Harness) -> int:
    return query(h.db, "SELECT COUNT(*) FROM games")[0][0]


async def acknowledged(h: Harness, inter) -> None:
    """Wait until the fake accepted the interaction's first response."""
    await h.fake.wait_for_request(lambda q: q.path.startswith(f"/interactions/{inter.id}/") and q.status is not None)
    await h.fake.settle()


def last_private(h: Harness, user) -> str:
    mine = h.fake.ephemerals(user)
    assert mine, f"{user.name} got no private message"
    return mine[-1].content


# --------------------------------------------------------------------------- acknowledge first


async def test_a_move_is_acknowledged_while_its_game_is_locked(harness):
    w = harness.world
    async with harness.running() as bot:
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        async with bot.service._game_locks.lock(harness.channel.id):  # another move holds the game
            inter = await harness.fake.start_slash(w.alice, harness.channel, "move", action="c3")
            await acknowledged(harness, inter)
            assert inter.callback_type == 5 and not inter.late  # "thinking…", before any database work
            assert actions(harness) == []
        r = await inter.wait(10)
    assert not r.ephemeral and png_of(r) and actions(harness) == ["c3"]


async def test_a_button_is_acknowledged_while_its_challenge_is_locked(harness):
    w = harness.world
    async with harness.running() as bot:
        challenge = await harness.challenge(w.alice, w.bob, "hex", size=5, seat="first")
        accept = next(c for c in challenge.custom_ids if c.endswith(":accept"))
        async with bot.service._challenge_locks.lock(int(accept.split(":")[2])):
            inter = await harness.fake.start_component(w.bob, challenge, accept)
            await acknowledged(harness, inter)
            assert inter.callback_type == 6 and games(harness) == 0
        board = await harness.fake.wait_for(lambda m: "begins" in str(m.embeds))
    assert png_of(board) and games(harness) == 1


async def test_a_refused_move_after_the_public_thinking_message_is_private(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        before = len(harness.fake.messages(harness.channel))
        r = await harness.move(w.bob, "c3")  # not bob's turn
    assert r.ephemeral and "not your turn" in r.content
    assert r.interaction.original.deleted  # the public "thinking…" went away
    assert len(harness.fake.messages(harness.channel)) == before


async def test_sorry_after_a_public_defer_stays_private(harness, monkeypatch):
    w = harness.world
    async with harness.running() as bot:
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")

        async def broken(*args, **kwargs):
            raise RuntimeError("a bug in play")

        monkeypatch.setattr(bot.service, "play", broken)
        r = await harness.move(w.alice, "c3")
    assert r.ephemeral and SORRY in r.content
    assert not any(SORRY in (m.content or "") for m in harness.fake.messages(harness.channel))


# --------------------------------------------------------------------------- the 3-second deadline


async def test_a_move_that_reaches_the_bot_too_late_still_counts_and_its_board_goes_to_the_channel(harness):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        fake.interaction_age = fake.interaction_deadline + 0.5  # the gateway delivered it late
        inter = await fake.start_slash(w.alice, harness.channel, "move", action="c3")
        try:
            await inter.wait(10)
            raise AssertionError("a late answer was accepted")
        except InteractionFailed:
            pass  # the user saw "The application did not respond"
        board = await fake.wait_for(lambda m: m.interaction is None and "played c3" in str(m.embeds) and bool(m.files))
        fake.interaction_age = 0.0
        nxt = await harness.move(w.bob, "b2")
    refused = [q for q in fake.requests_to(CALLBACK) if q.path.startswith(f"/interactions/{inter.id}/")]
    assert refused and all(q.error_code == 10062 for q in refused)
    assert board.channel is harness.channel and png_of(board)
    assert actions(harness) == ["c3", "b2"] and not nxt.ephemeral


# --------------------------------------------------------------------------- 15-minute tokens


async def test_a_board_after_the_token_expired_goes_to_the_channel(harness):
    w = harness.world
    fake = harness.fake
    async with harness.running() as bot:
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        async with bot.service._game_locks.lock(harness.channel.id):
            inter = await fake.start_slash(w.alice, harness.channel, "move", action="c3")
            await acknowledged(harness, inter)
            fake.advance(15 * 60 + 1)  # the bot is stuck for longer than the token lives
        board = await fake.wait_for(lambda m: m.interaction is None and "played c3" in str(m.embeds) and bool(m.files))
    expired = [q for q in fake.requests if q.path.startswith(f"/webhooks/{fake.application_id}/{inter.token}")]
    assert expired and all((q.status, q.error_code) == (401, 50027) for q in expired)
    assert png_of(board) and actions(harness) == ["c3"]
    assert inter.original.loading  # the thinking message could never be filled


# --------------------------------------------------------------------------- channel permissions


async def test_without_attach_files_the_move_counts_shows_as_text_and_the_player_is_told_privately(harness):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        await fake.set_permissions(harness.channel, w.bot, deny=["attach_files"])
        r = await harness.move(w.alice, "c3")
        line = last_private(harness, w.alice)
        await fake.set_permissions(harness.channel, w.bot)  # a manager fixes it
        board = await harness.slash(w.carol, "board")
    assert not r.ephemeral and "c3" in r.content and not r.attachments
    assert "Attach Files" in line and f"<#{harness.channel.id}>" in line and len(fake.ephemerals(w.alice)) == 1
    assert actions(harness) == ["c3"]
    assert png_of(board) and "after 1 action" in board.embed["description"]


async def test_without_send_messages_the_game_starts_and_the_accepter_is_told_privately(harness):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        await fake.set_permissions(harness.channel, w.bot, deny=["send_messages"])
        challenge = await harness.challenge(w.alice, w.bob, "hex", size=5, seat="first")
        await fake.click(w.bob, challenge, next(c for c in challenge.custom_ids if c.endswith(":accept")))
        line = await fake.wait_for(lambda m: m.ephemeral and "Send Messages" in (m.content or ""))
        await fake.set_permissions(harness.channel, w.bot)
        board = await harness.slash(w.alice, "board")
        moved = await harness.move(w.alice, "c3")
    assert line.visible_to.id == w.bob.id and f"<#{harness.channel.id}>" in line.content
    assert games(harness) == 1 and png_of(board) and png_of(moved) and actions(harness) == ["c3"]


async def test_without_create_public_threads_the_accepter_is_told_privately(harness):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        await fake.set_permissions(harness.channel, w.bot, deny=["create_public_threads"])
        challenge = await harness.challenge(w.alice, w.bob, "hex", size=5, seat="first", thread=True)
        await fake.click(w.bob, challenge, next(c for c in challenge.custom_ids if c.endswith(":accept")))
        line = await fake.wait_for(lambda m: m.ephemeral and "Create Public Threads" in (m.content or ""))
    assert line.visible_to.id == w.bob.id and f"<#{harness.channel.id}>" in line.content
    assert not any("Create Public Threads" in (m.content or "") for m in fake.messages(harness.channel))
    assert fake.threads(harness.channel) == []


async def test_settings_show_a_manager_what_the_bot_lacks_in_the_channel(harness):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        fine = await harness.slash(w.admin, "settings")
        await fake.set_permissions(harness.channel, w.bot, deny=["attach_files", "embed_links"])
        lacking = await harness.slash(w.admin, "settings")
    assert fine.ephemeral and "every permission" in fine.content
    assert lacking.ephemeral and "**Attach Files** and **Embed Links**" in lacking.content
    assert f"<#{harness.channel.id}>" in lacking.content


# --------------------------------------------------------------------------- rate limits


async def test_rate_limits_that_run_out_are_waited_out_and_nothing_is_lost(harness):
    w = harness.world
    fake = harness.fake
    rooms = [fake.add_text_channel(w.guild, f"room-{i}") for i in range(4)]
    # one challenger a room (a member may have one open challenge to the same member), all to bob
    rivals = [w.alice] + [fake.add_member(w.guild, f"rival-{i}") for i in range(1, 4)]
    async with harness.running():
        for room in rooms:
            await fake.dispatch("CHANNEL_CREATE", room.payload())
        await fake.settle()
        # four challenges waiting for bob at once: above the default limit against ping floods
        await harness.slash(w.admin, "settings", challenges_to_member=4)
        challenges = [await fake.slash(rival, room, "challenge", opponent=w.bob, game="hex", size=5, seat="first",
                                      thread=False)
                      for rival, room in zip(rivals, rooms)]
        fake.global_rate_limit(2, per=0.2)
        edits = fake.rate_limit(r"^PATCH /webhooks/", limit=1, per=0.2)
        await asyncio.gather(*(fake.click(w.bob, c, next(i for i in c.custom_ids if i.endswith(":accept")))
                               for c in challenges))
        boards = [await fake.wait_for(lambda m, room=room: m.channel is room and "begins" in str(m.embeds))
                  for room in rooms]
        moves = await asyncio.gather(*(fake.slash(rival, room, "move", action="c3") for rival, room in zip(rivals, rooms)))
    assert fake.ratelimits.global_refused > 0 and edits.exhausted > 0
    assert all(png_of(b) for b in boards) and all(png_of(m) and not m.ephemeral for m in moves)
    assert all(sum("begins" in str(m.embeds) for m in fake.messages(room)) == 1 for room in rooms)
    assert query(harness.db, "SELECT COUNT(*) FROM actions")[0][0] == 4


async def test_a_move_and_the_players_name_are_one_write_transaction(harness, monkeypatch):
    w = harness.world
    async with harness.running() as bot:
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        store = bot.service.store
        outermost = []
        depth: dict = {}
        original = type(store).transaction

        @contextlib.asynccontextmanager
        async def counting(self):
            task = asyncio.current_task()
            # The move's own writes; not the timers' driver, nor the live boards noting which
            # message is now the game's live board (that needs the posted message's id).
            frames = {f.name for f in traceback.extract_stack()}
            if not depth.get(task) and task is not None and task.get_name() != "timers" \
                    and "swap_board_message" not in frames:
                outermost.append(1)
            depth[task] = depth.get(task, 0) + 1
            try:
                async with original(self) as inner:
                    yield inner
            finally:
                depth[task] -= 1

        monkeypatch.setattr(type(store), "transaction", counting)
        w.alice.nick = "Alice the Bold"
        r = await harness.move(w.alice, "c3")
        monkeypatch.undo()
        names = await store.names(w.guild.id, [w.alice.id])
    assert png_of(r) and actions(harness) == ["c3"]
    assert len(outermost) == 1 and names[w.alice.id] == "Alice the Bold"
