"""Playing against the bot's own AI: `/challenge opponent:@bot`, end to end through the fake Discord.

The computer searches a fixed number of iterations in a real worker process
(see ``Harness.running``), so these games are the same on any machine.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import random
import signal

import pytest

import engine
from bot.ai import BotAI
from bot.ui.movelist import turns
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import AI_ITERATIONS, Harness, eventually, mentions, png_of
from tests.dbquery import query, query_dicts
from tests.fake_discord import FakeMessage


def live_actions(h: Harness) -> list[tuple[str, int]]:
    """The newest game's actions that stand (not taken back), as (action, user id)."""
    game = query(h.db, "SELECT MAX(id) FROM games")[0][0]
    return query(h.db, "SELECT action, user_id FROM actions WHERE game_id = ? AND NOT taken_back ORDER BY seq", game)


def turns_of(h: Harness, user_id: int, options: engine.GameOptions) -> int:
    """How many turns ``user_id`` has taken in the newest game, as the move list groups them:
    one turn can be several actions (an inpHeXion move and its relocations), and gets one board."""
    played = live_actions(h)
    firsts = itertools.accumulate((len(t) for t in turns(options, [a for a, _ in played])), initial=0)
    return sum(1 for i in firsts if i < len(played) and played[i][1] == user_id)


def newest_game(h: Harness) -> dict:
    """The newest game's row."""
    return query_dicts(h.db, "SELECT * FROM games ORDER BY id DESC LIMIT 1")[0]


async def computer_board(h: Harness, count: int = 1) -> FakeMessage:
    """Wait until the bot has posted ``count`` boards of its own (not interaction replies); return the last."""
    def boards() -> list[FakeMessage]:
        return [m for m in h.fake.messages(h.channel)
                if m.interaction is None and m.webhook_id is None and any(n.endswith(".png") for n in m.files)]

    while len(boards()) < count:
        await h.fake.wait_for(lambda m: len(boards()) >= count, timeout=30, existing=False)
    return boards()[count - 1]


async def test_challenging_the_bot_starts_the_game_at_once_without_an_accept_step(harness):
    w = harness.world
    async with harness.running():
        r = await harness.challenge(w.alice, w.bot, "hex", size=5, seat="first", level="easy")
    assert not r.ephemeral and png_of(r)
    assert "against the computer (easy, unrated)" in r.content or "against the computer (easy, unrated)" in (r.embed or {}).get(
        "description", "")
    assert not any(c.endswith(":accept") for c in r.custom_ids)
    game = newest_game(harness)
    assert game["status"] == "active" and game["ai_level"] == "easy" and not game["rated"]


async def test_the_computer_answers_a_move_with_a_board_and_hands_the_turn_back(harness):
    w = harness.world
    async with harness.running():
        await harness.challenge(w.alice, w.bot, "hex", size=5, seat="first")
        moved = await harness.move(w.alice, "c3")
        reply = await computer_board(harness)
    assert not moved.ephemeral
    assert png_of(reply).startswith(b"\x89PNG")
    assert w.alice.id in mentions(reply.content or reply.embeds[0].get("description"))
    played = live_actions(harness)
    assert [u for _, u in played] == [w.alice.id, w.bot.id]
    assert played[1][0] in engine.new_game("hex", 5).legal_actions() + ["swap"]


async def test_the_computer_moves_first_when_it_has_the_first_seat(harness):
    w = harness.world
    async with harness.running():
        await harness.challenge(w.alice, w.bot, "inphexion", size=5, seat="second", level="hard")
        await computer_board(harness)
    assert [u for _, u in live_actions(harness)] == [w.bot.id]


async def test_level_is_refused_when_challenging_a_person(harness):
    w = harness.world
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex", level="hard")
    assert r.ephemeral and "level" in r.content
    assert harness.fake.messages(harness.channel) == []


async def test_a_game_against_the_computer_shows_in_stats_but_not_on_the_leaderboard(harness):
    w = harness.world
    async with harness.running():
        await harness.challenge(w.alice, w.bot, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        await computer_board(harness)
        resigned = await harness.slash(w.alice, "resign")
        stats = await harness.slash(w.carol, "stats", player=w.alice)
        board = await harness.slash(w.carol, "leaderboard", game="hex")
    assert not resigned.ephemeral
    recent = next(f for f in stats.embed["fields"] if f["name"] == "Recent games")
    assert "lost · the computer (medium) wins: alice resigned" in recent["value"]
    assert "alice" not in (board.embed or {}).get("description", board.content or "")
    assert newest_game(harness)["status"] == "finished"


async def test_a_whole_inphexion_game_against_the_computer_ends_with_a_result(harness):
    w = harness.world
    rng = random.Random(4)
    async with harness.running():
        harness.bot.service._seed = lambda: 5  # a game in which the computer relocates a disc
        await harness.challenge(w.alice, w.bot, "inphexion", size=5, seat="first", level="easy")
        for _ in range(60):
            g = await harness.bot.service.game_in(harness.channel.id)
            if g is None or g.row.status != "active":
                break
            if g.colour_of(w.alice.id) not in g.position.to_move:
                await computer_board(harness, count=turns_of(harness, w.bot.id, g.position.options) or 1)
                await harness.fake.settle()
                continue
            r = await harness.move(w.alice, rng.choice(g.position.legal_actions(g.colour_of(w.alice.id))))
            assert not r.ephemeral, r.content
            await asyncio.sleep(0)
        for _ in range(300):  # the computer's last move may still be on its way
            if newest_game(harness)["status"] == "finished":
                break
            await asyncio.sleep(0.05)
    game = newest_game(harness)
    assert game["status"] == "finished" and game["reason"] in ("connection", "no-legal-move", "cannot-relocate")
    replayed = engine.new_game("inphexion", 5)
    for action, _ in live_actions(harness):
        replayed.play(action)
    assert replayed.outcome is not None


async def test_blind_hex_against_the_computer_keeps_your_choice_from_it_and_reveals_both(harness):
    w = harness.world
    async with harness.running():
        await harness.challenge(w.alice, w.bot, "blindhex", seat="first")
        g = await harness.bot.service.game_in(harness.channel.id)
        mine = g.colour_of(w.alice.id)
        if g.position.phase == "aside":  # whoever lost the cut sets two cards aside first
            if mine in g.position.to_move:
                assert not (await harness.move(w.alice, "aside 4+5")).ephemeral
            else:
                await harness.fake.wait_for(lambda m: "has chosen" in (m.content or "") or bool(m.files),
                                            timeout=30, existing=False)
        for _ in range(200):
            g = await harness.bot.service.game_in(harness.channel.id)
            if g.position.phase == "choose" and mine in g.position.to_move:
                break
            await asyncio.sleep(0.05)
        card_choice = g.position.legal_actions(mine)[0].split(":", 1)[1]
        chose = await harness.move(w.alice, card_choice)
        revealed = await harness.fake.wait_for(
            lambda m: any(n.endswith(".png") for n in m.files) and "1+" in "".join(
                [m.content or ""] + [e.get("description", "") for e in m.embeds]) or False,
            timeout=30, existing=False)
    assert chose.ephemeral
    played = live_actions(harness)
    choices = [a for a, _ in played if ":" in a and not a.startswith("aside")]
    assert len(choices) == 2 and {a.split(":")[0] for a in choices} == {"x", "o"}
    assert revealed is not None


async def test_a_takeback_against_the_computer_undoes_your_turn_and_its_reply(harness):
    w = harness.world
    async with harness.running():
        await harness.challenge(w.alice, w.bot, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        await computer_board(harness)
        taken = await harness.slash(w.alice, "takeback")
        after = live_actions(harness)
        again = await harness.move(w.alice, "b2")
        await computer_board(harness, count=2)
    assert not taken.ephemeral and png_of(taken) and "undone" in (taken.embed or {}).get("description", "")
    assert after == []
    assert live_actions(harness)[0] == ("b2", w.alice.id) and not again.ephemeral
    assert query(harness.db, "SELECT status FROM takebacks") == [("accepted",)]


class StalledAI(BotAI):
    """A brain that never answers: the bot is stopped while the computer is thinking."""

    def __init__(self) -> None:
        super().__init__(warm=False)

    async def choose(self, *args, **kwargs) -> str:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


async def test_the_computer_moves_after_a_restart_that_interrupted_its_thinking(harness):
    w = harness.world
    async with harness.running(ai=StalledAI()):
        await harness.challenge(w.alice, w.bot, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        await harness.fake.settle()
    assert [u for _, u in live_actions(harness)] == [w.alice.id]
    async with harness.running():
        await computer_board(harness)
    assert [u for _, u in live_actions(harness)] == [w.alice.id, w.bot.id]


async def test_the_computer_wins_on_time_at_once_when_your_clock_runs_out(harness, clock):
    w = harness.world
    async with harness.running():
        await harness.challenge(w.alice, w.bot, "hex", size=5, seat="first", clock="1h")
        await harness.move(w.alice, "c3")
        await computer_board(harness)
        clock.advance(3600 + 1)
        ended = await harness.fake.wait_for(lambda m: "on time" in str(m.embeds), timeout=30)
    game = newest_game(harness)
    assert (game["status"], game["reason"]) == ("finished", "timeout")
    assert png_of(ended) and not game["rated"]


@pytest.mark.parametrize("landed", [False, True], ids=["board-lost", "board-out"])
async def test_the_computers_win_on_time_is_announced_once_after_its_process_died_announcing_it(harness, clock, landed):
    w = harness.world
    async with harness.running():
        await harness.challenge(w.alice, w.bot, "hex", size=5, seat="first", clock="1h")
        await harness.move(w.alice, "c3")
        await computer_board(harness)
        # The process dies while it posts the result's board: Discord failed it (discord.py is
        # retrying), or Discord has it and only the answer is late.
        route = r"^POST /channels/\d+/messages$"
        post = harness.fake.delay(route, 30) if landed else harness.fake.fail(route, 500, times=5)
        clock.advance(3600 + 1)
        await eventually(lambda: post.hits)
    game = newest_game(harness)
    assert (game["status"], game["reason"]) == ("finished", "timeout")
    post.times = post.hits  # Discord is well again
    async with harness.running():
        clock.advance(61)  # PostgreSQL: the dead process's claim lapses (SQLite: released at the start)
        ended = await harness.fake.wait_for(lambda m: "on time" in str(m.embeds), timeout=30)
        await eventually(lambda: query(harness.db, "SELECT COUNT(*) FROM timers WHERE ref_id = ?", game["id"]) == [(0,)])
    assert png_of(ended)
    assert [m.id for m in harness.fake.message_index.values() if "on time" in str(m.embeds)] == [ended.id]


async def test_a_game_against_the_computer_can_have_its_own_thread(harness):
    w = harness.world
    async with harness.running():
        r = await harness.challenge(w.alice, w.bot, "hex", size=5, seat="second", thread=True)
        thread = harness.fake.threads(harness.channel)[0]
        board = await harness.fake.wait_for(
            lambda m: m.channel is thread and m.interaction is None and any(n.endswith(".png") for n in m.files)
            and "TestBot" not in (m.content or ""), timeout=30)
    assert not r.ephemeral and f"<#{thread.id}>" in r.content
    assert png_of(board)
    assert newest_game(harness)["channel_id"] == thread.id


async def test_the_bot_starts_its_computer_player_as_it_starts_not_at_the_first_ai_move(harness):
    async with harness.running(ai=BotAI(workers=1, iterations=AI_ITERATIONS)) as bot:
        assert bot.ai.started


async def test_a_bot_with_a_cold_ai_starts_no_worker_before_a_move(harness):
    async with harness.running() as bot:
        assert not bot.ai.started


def _owner(owner: int | None) -> dict[str, int]:
    """``owner`` as a keyword only when the driver gave one (so these brains also run the older driver)."""
    return {} if owner is None else {"owner": owner}


class GatedAI(BotAI):
    """The real brain (its worker process answers), held at a gate before it answers its first
    request, so that a test can change the game while the computer is thinking. Records the
    positions it was asked about."""

    def __init__(self) -> None:
        super().__init__(workers=1, iterations=AI_ITERATIONS, warm=False)
        self.asked: list[list[str]] = []
        self.thinking = asyncio.Event()
        self.gate = asyncio.Event()

    async def choose(self, options, actions, level, seed, player, owner=None) -> str:
        self.asked.append(list(actions))
        line = await super().choose(options, actions, level, seed, player, **_owner(owner))
        if len(self.asked) == 1:
            self.thinking.set()
            await self.gate.wait()
        return line


async def test_a_reply_chosen_before_a_takeback_is_not_played_in_the_position_after_it(harness):
    w = harness.world
    ai = GatedAI()
    async with harness.running(ai=ai):
        await harness.challenge(w.alice, w.bot, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        await asyncio.wait_for(ai.thinking.wait(), 60)
        taken = await harness.slash(w.alice, "takeback")
        corner = await harness.move(w.alice, "a1")  # as many actions as when it began to think
        ai.gate.set()
        await computer_board(harness)
        await harness.fake.settle()
    assert not taken.ephemeral and not corner.ephemeral
    # The reply for c3 was thrown away and the computer thought again about the position with a1.
    assert ai.asked == [["c3"], ["a1"]]
    played = live_actions(harness)
    assert played[0] == ("a1", w.alice.id) and [u for _, u in played] == [w.alice.id, w.bot.id]


class KilledWorkerAI(BotAI):
    """The real brain, whose worker process is killed (SIGKILL, as the OOM killer does) while the
    first search is in it."""

    def __init__(self) -> None:
        super().__init__(workers=1, iterations=AI_ITERATIONS, warm=False)
        self.killed: list[int] = []

    async def choose(self, options, actions, level, seed, player, owner=None) -> str:
        asking = asyncio.create_task(super().choose(options, actions, level, seed, player, **_owner(owner)))
        if not self.killed:
            await eventually(lambda: self.pool is not None and self.pool.running and self.pool.pids())
            assert self.pool is not None
            for pid in self.pool.pids():
                os.kill(pid, signal.SIGKILL)
                self.killed.append(pid)
        return await asking


async def test_the_computer_still_answers_after_its_worker_process_is_killed_mid_search(harness, caplog):
    caplog.set_level(logging.WARNING, logger="engine.ai.pool")
    w = harness.world
    ai = KilledWorkerAI()
    async with harness.running(ai=ai):
        await harness.challenge(w.alice, w.bot, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        await computer_board(harness)
        # And the next move too (every later search works).
        g = await harness.bot.service.game_in(harness.channel.id)
        await harness.move(w.alice, next(a for a in g.position.legal_actions() if a != "swap"))
        await computer_board(harness, count=2)
    assert ai.killed
    assert [u for _, u in live_actions(harness)] == [w.alice.id, w.bot.id, w.alice.id, w.bot.id]
    assert "a worker process died" in caplog.text
