"""Cancelling a running tournament: only its organiser, only by the command, announced to all; no
further round is paired and the games in progress still count in its standings."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.errors import UserError
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401
from tests.bot.tournament_driver import announced, members, resign, sign_up, table_rows

SWISS = dict(game="hex", format="swiss", size=3, swap=False, clock="1d", rounds=2)


async def status(h) -> str:
    row = await h.bot.service.store.get_tournament(1)
    return row.status


async def tournament_timers_run(h) -> None:
    """Wait until no tournament timer is left to run (the game's end asked for one)."""
    store = h.bot.service.store
    for _ in range(500):
        if not await store.due_timers(h.clock.now() + 1):
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the tournament's timer never ran")


async def test_the_organiser_cancels_a_running_tournament_and_everyone_is_told_publicly(harness):
    async with harness.running():
        players = members(harness, 3)
        await sign_up(harness, players[0], players, **SWISS)
        await announced(harness, 1, 1)
        r = await harness.slash(players[0], "tournament cancel")
        told = harness.fake.messages(harness.channel)[-1]
        after = await status(harness)
    assert r.ephemeral and "Tournament #1 is cancelled." in r.content
    assert told.content == (f"Tournament #1 is cancelled by its organiser <@{players[0].id}> in round 1 of 2: no further "
                            "round will be paired. Games in progress play on and still count in its standings.")
    assert after == "cancelled"


async def test_a_cancelled_tournament_pairs_no_further_round_and_its_last_games_still_count(harness):
    async with harness.running():
        players = members(harness, 3)
        by_id = {p.id: p for p in players}
        await sign_up(harness, players[0], players, **SWISS)
        ((_, first, second, thread),) = (await announced(harness, 1, 1)).games
        await harness.slash(players[0], "tournament cancel")
        await resign(harness, by_id[second], thread)
        await tournament_timers_run(harness)
        rounds = [m for m in harness.fake.messages(harness.channel) if (m.content or "").startswith("**Tournament #1 — round")]
        standings = await harness.slash(players[1], "tournament standings", tournament=1)
    assert [m.content.splitlines()[0] for m in rounds] == ["**Tournament #1 — round 1 of 2**"]
    assert not standings.ephemeral
    rows = {name: (points, games) for _, name, points, _, games, _ in table_rows(standings.content)}
    assert rows[by_id[first].name] == (1, 1) and rows[by_id[second].name] == (0, 1)


async def test_only_the_organiser_can_cancel_a_running_tournament_and_nothing_changes_otherwise(harness):
    async with harness.running():
        players = members(harness, 3)
        await sign_up(harness, players[0], players, **SWISS)
        await announced(harness, 1, 1)
        posted = len(harness.fake.messages(harness.channel))
        r = await harness.slash(players[1], "tournament cancel")
        after = await status(harness)
    assert r.ephemeral and r.content == "Only the organiser of tournament #1 can cancel it."
    assert after == "running" and len(harness.fake.messages(harness.channel)) == posted


async def test_a_sign_up_messages_cancel_button_never_stops_a_tournament_that_has_started(harness):
    async with harness.running():
        players = members(harness, 3)
        await sign_up(harness, players[0], players, **SWISS)
        await announced(harness, 1, 1)
        service = harness.bot.get_cog("Tournaments").service
        with pytest.raises(UserError) as refused:
            await service.cancel(1, players[0].id)  # what a stale Cancel button would ask
        after = await status(harness)
    assert "to stop it, use" in str(refused.value) and after == "running"
