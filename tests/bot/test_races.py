"""Races: many interactions for one game delivered at once, through the real bot and the fake.

Turns can't be stolen or doubled: of 50 simultaneous ``/move`` interactions
exactly one is applied, every other one gets a clear private answer, and the
stored record has no gap and no duplicate. The same holds for Accept clicks
racing each other (and ``/accept``), and for ``/resign`` racing moves.
"""

from __future__ import annotations

import asyncio
import logging
import random

import engine
from bot.app import SORRY
from tests import dbquery
from tests.bot.harness import Harness, png_of
from tests.fake_discord import FakeInteraction, InteractionResult

N = 50


def record(h: Harness, game_id: int | None = None) -> list[tuple[int, str, int]]:
    """(seq, action, user id) of a game as stored (the newest game when no id is given)."""
    if game_id is None:
        game_id = query(h, "SELECT MAX(id) FROM games")[0][0]
    return query(h, "SELECT seq, action, user_id FROM actions WHERE game_id = ? ORDER BY seq", game_id)


def query(h: Harness, sql: str, *args) -> list[tuple]:
    return dbquery.query(h.db, sql, *args)


async def all_at_once(h: Harness, starts) -> list[InteractionResult]:
    """Dispatch every interaction before awaiting any answer; return the answers in the same order."""
    inters: list[FakeInteraction] = await asyncio.gather(*starts)
    results = await asyncio.gather(*(i.wait(30) for i in inters))
    await h.fake.settle()
    return list(results)


def option(r: InteractionResult, name: str) -> object:
    return next(o["value"] for o in r.interaction.data.get("options", []) if o["name"] == name)


def assert_clear_refusal(r: InteractionResult) -> None:
    """A private answer in words, not the internal-error fallback."""
    assert r.ephemeral, f"a losing interaction was answered publicly: {r!r}"
    assert r.content and SORRY not in r.content and "Traceback" not in r.content, r.content


def assert_gapless(rows: list[tuple[int, str, int]]) -> None:
    assert [seq for seq, *_ in rows] == list(range(len(rows))), f"gap or duplicate in the record: {rows}"


async def test_fifty_copies_of_one_move_apply_exactly_once(harness, caplog):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        results = await all_at_once(harness, [harness.fake.start_slash(w.alice, harness.channel, "move", action="c3")
                                              for _ in range(N)])
        after = await harness.move(w.bob, "b2")
    public = [r for r in results if not r.ephemeral]
    assert len(public) == 1, [r.content for r in results]
    assert png_of(public[0])
    for r in results:
        if r is not public[0]:
            assert_clear_refusal(r)
            assert "not your turn" in r.content
    assert not after.ephemeral
    rows = record(harness)
    assert rows == [(0, "c3", w.alice.id), (1, "b2", w.bob.id)]
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]


async def test_fifty_different_moves_apply_exactly_one_per_turn(harness, caplog):
    w = harness.world
    rng = random.Random(20261122)
    seats = [w.alice, w.bob]
    winners = []
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=9, seat="first")
        position = engine.new_game("hex", 9, ("swap",))
        for turn in range(6):
            mover = seats[position.seat_of_colour(position.to_move[0])]
            choices = rng.sample(position.legal_actions(), N)
            results = await all_at_once(harness, [
                harness.fake.start_slash(mover, harness.channel, "move", action=a) for a in choices])
            public = [r for r in results if not r.ephemeral]
            assert len(public) == 1, (turn, [r.content for r in results])
            for r in results:
                if r is not public[0]:
                    assert_clear_refusal(r)
            won = str(option(public[0], "action"))
            winners.append((won, mover.id))
            position.play(won)
    rows = record(harness)
    assert_gapless(rows)
    assert [(a, u) for _, a, u in rows] == winners
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]


async def test_both_players_racing_in_a_blind_hex_choice_round_each_choose_once(harness):
    """Blind Hex: both players choose at the same time; each applies exactly one choice."""
    w = harness.world
    rng = random.Random(7)
    async with harness.running():
        harness.bot.service._seed = lambda: 7  # a seeded cut
        await harness.start_game(w.alice, w.bob, "blindhex", seat="first")
        g = await harness.bot.service.game_in(harness.channel.id)
        aside_by = g.user_of(g.position.to_move[0])
        loser = w.alice if aside_by == w.alice.id else w.bob
        await harness.move(loser, g.position.legal_actions()[0])
        g = await harness.bot.service.game_in(harness.channel.id)
        starts = []
        for colour in g.position.to_move:
            user = w.alice if g.user_of(colour) == w.alice.id else w.bob
            cards = [a.split(":")[1] for a in g.position.legal_actions(colour)]
            starts += [harness.fake.start_slash(user, harness.channel, "move", action=rng.choice(cards))
                       for _ in range(N // 2)]
        rng.shuffle(starts)
        results = await all_at_once(harness, starts)
        g = await harness.bot.service.game_in(harness.channel.id)
    # The first choice is confirmed privately; the second completes the pair and reveals both publicly.
    chosen = [r for r in results if not r.ephemeral or "You chose" in r.content]
    assert len(chosen) == 2 and {r.interaction.user.id for r in chosen} == {w.alice.id, w.bob.id}, \
        [r.content for r in results]
    for r in results:
        if r not in chosen:
            assert_clear_refusal(r)
    rows = record(harness)
    assert_gapless(rows)
    assert len(rows) == 3 and g.position.phase != "choose"


async def test_racing_accept_clicks_and_the_accept_command_start_one_game(harness, caplog):
    w = harness.world
    fake = harness.fake
    channels = [harness.channel] + [fake.add_text_channel(w.guild, f"race-{i}") for i in range(3)]
    async with harness.running():
        for i, channel in enumerate(channels):
            if i:
                await fake.dispatch("CHANNEL_CREATE", channel.payload())
            r = await harness.challenge(w.alice, w.bob, "hex", size=5, channel=channel)
            assert not r.ephemeral, r.content
            accept = next(c for c in r.custom_ids if c.endswith(":accept"))
            starts = [fake.start_component(w.bob, r, accept), fake.start_component(w.bob, r, accept)]
            if i % 2:
                starts.append(fake.start_slash(w.bob, channel, "accept"))
            results = await all_at_once(harness, starts)
            await fake.wait_for(lambda m, ch=channel: m.channel is ch and "begins" in str(m.embeds))
            await fake.settle()
            boards = [m for m in fake.messages(channel) if "begins" in str(m.embeds)]
            assert len(boards) == 1, [m.content for m in fake.messages(channel)]
            # The winner is a click (the challenge message becomes the game's) or /accept
            # (confirmed privately); everyone else is refused privately.
            winners = [res for res in results if not res.ephemeral or res.content.startswith("Accepted")]
            assert len(winners) == 1, [res.content for res in results]
            losers = [res for res in results if res not in winners]
            for res in losers:
                assert_clear_refusal(res)
                # A command that reads after the winner's commit finds no open challenge at all.
                assert "accepted" in res.content or "challenge has ended" in res.content, res.content
            assert "accepted by" in (r.message.content or "")
    games = query(harness, "SELECT challenge_id, COUNT(*) FROM games GROUP BY challenge_id")
    assert [n for _, n in games] == [1] * len(channels)
    assert query(harness, "SELECT DISTINCT status FROM challenges") == [("accepted",)]
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]


async def test_resign_racing_moves_applies_one_resignation_and_at_most_one_move(harness, caplog):
    w = harness.world
    fake = harness.fake
    rng = random.Random(99)
    async with harness.running():
        for trial in range(4):
            await harness.start_game(w.alice, w.bob, "hex", size=7, seat="first")
            game_id = query(harness, "SELECT MAX(id) FROM games")[0][0]
            cells = rng.sample(engine.new_game("hex", 7, ("swap",)).legal_actions(), N // 2)
            starts = [fake.start_slash(w.alice, harness.channel, "move", action=c) for c in cells]
            starts += [fake.start_slash(rng.choice([w.alice, w.bob]), harness.channel, "resign") for _ in range(N // 2)]
            rng.shuffle(starts)
            results = await all_at_once(harness, starts)
            public = [r for r in results if not r.ephemeral]
            resigns = [r for r in public if r.interaction.name == "resign"]
            moves = [r for r in public if r.interaction.name == "move"]
            assert len(resigns) == 1 and len(moves) <= 1, (trial, [r.content for r in results])
            for r in results:
                if r not in public:
                    assert_clear_refusal(r)
            rows = record(harness, game_id)
            assert_gapless(rows)
            assert [a for _, a, _ in rows] == [str(option(m, "action")) for m in moves]
            resigner = resigns[0].interaction.user.id
            (status, reason, winner_seat), = query(
                harness, "SELECT status, reason, winner_seat FROM games WHERE id = ?", game_id)
            assert (status, reason) == ("finished", "resignation")
            assert winner_seat == (1 if resigner == w.alice.id else 0)  # alice has seat 0
            assert "resigned" in resigns[0].embed["description"]
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]


async def test_two_challenges_accepted_at_once_in_one_channel_start_one_game(harness, caplog):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        first = await harness.challenge(w.alice, w.bob, "hex", size=5)
        second = await harness.challenge(w.carol, w.admin, "hex", size=5)
        results = await all_at_once(harness, [
            fake.start_component(w.bob, first, next(c for c in first.custom_ids if c.endswith(":accept"))),
            fake.start_component(w.admin, second, next(c for c in second.custom_ids if c.endswith(":accept"))),
        ])
        await fake.wait_for(lambda m: "begins" in str(m.embeds))
        await fake.settle()
    assert query(harness, "SELECT COUNT(*) FROM games") == [(1,)]
    losers = [r for r in results if r.ephemeral]
    assert len(losers) == 1, [r.content for r in results]
    assert_clear_refusal(losers[0])
    assert "thread:true" in losers[0].content
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
