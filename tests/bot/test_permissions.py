"""Permissions: who may act on a game or a challenge, through the real bot and the fake.

Non-players can't move, resign, take back (ask or answer), claim (command or
button) or abort; only the challenged person can accept (button or command) or
decline, only the challenger can withdraw; ``/settings`` is hidden by Discord
from members without Manage Server, and the bot refuses it too when a server's
overrides let such a member see it. Each refusal is a private answer and
changes nothing in the database; each test ends with a positive control (the
rightful person succeeds), so a refusal of everyone would fail too.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
from typing import Iterator

import discord
import pytest

from bot.app import SORRY
from tests import dbquery
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import Harness
from tests.fake_discord import CommandUnavailable, FakeDiscord, InteractionResult


def snapshot(h: Harness) -> dict[str, list]:
    """Every row of every table (players' display names aside)."""
    return dbquery.snapshot(h.db, leave_out=("players",))


def refused(r: InteractionResult, *words: str) -> None:
    assert r.ephemeral, f"not a private answer: {r!r}"
    assert r.content and SORRY not in r.content, r.content
    for word in words:
        assert word.lower() in r.content.lower(), r.content


async def eventually(condition, timeout: float = 5.0) -> None:
    """Wait until ``await condition()`` holds (the bot finishes some writes after its reply)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not await condition():
        assert loop.time() < end, "condition never held"
        await asyncio.sleep(0.005)


async def unchanged(h: Harness, attempt) -> InteractionResult:
    """Run ``attempt()`` and check the database did not change."""
    before = snapshot(h)
    r = await attempt()
    await h.fake.settle()
    assert snapshot(h) == before, f"{r!r} changed the database"
    return r


async def _deadline_handled(h: Harness) -> bool:
    return not any("'deadline'" in row for row in snapshot(h)["timers"])


async def _has_message(store) -> bool:
    ch = await store.get_challenge(1)
    return ch is not None and ch.message_id is not None


@contextlib.contextmanager
def visible_to_everyone(fake: FakeDiscord, name: str) -> Iterator[None]:
    """A server's Integrations override that shows /name to every member (Discord then skips its check)."""
    commands = [c for scope in fake.commands.values() for c in scope.values() if c.name == name]
    saved = [(c, copy.deepcopy(c.payload)) for c in commands]
    for c in commands:
        c.payload["default_member_permissions"] = None
    try:
        yield
    finally:
        for c, payload in saved:
            c.payload = payload


async def test_non_players_cannot_move_resign_take_back_or_abort(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        refused(await unchanged(harness, lambda: harness.move(w.carol, "c3")), "not playing")
        refused(await unchanged(harness, lambda: harness.slash(w.carol, "resign")), "not playing")
        refused(await unchanged(harness, lambda: harness.slash(w.carol, "abort")), "not playing")
        refused(await unchanged(harness, lambda: harness.slash(w.admin, "abort")), "not playing")
        await harness.move(w.alice, "c3")
        refused(await unchanged(harness, lambda: harness.slash(w.carol, "takeback")), "not playing")
        refused(await unchanged(harness, lambda: harness.slash(w.carol, "claim")), "not playing")
        # The opponent may not take back the mover's turn either.
        refused(await unchanged(harness, lambda: harness.slash(w.bob, "takeback")), "own last turn")
        choices = await harness.fake.autocomplete(w.carol, harness.channel, "move", focused="action", action="")
        assert choices == []
        # Positive controls: the players can.
        aborted = await harness.slash(w.bob, "abort")
    assert not aborted.ephemeral and "aborted" in aborted.content


async def test_only_the_opponent_answers_a_takeback_request(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        request = await harness.slash(w.alice, "takeback")
        assert not request.ephemeral, request.content
        accept = next(c for c in request.custom_ids if c.endswith(":accept"))
        decline = next(c for c in request.custom_ids if c.endswith(":decline"))
        for user in (w.carol, w.alice):  # a non-player, and the one who asked
            for button in (accept, decline):
                refused(await unchanged(harness, lambda u=user, b=button: harness.fake.click(u, request, b)),
                        "only the opponent")
        answered = await harness.fake.click(w.bob, request, accept)
        g = await harness.bot.service.game_in(harness.channel.id)
    assert not answered.ephemeral and "accepted" in (answered.content or "")
    assert g.position.actions == []


async def test_only_the_waiting_player_can_claim_a_win_on_time(harness, clock):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", clock="5m")
        await harness.move(w.alice, "c3")
        clock.advance(301)  # bob's five minutes are over
        notice = await harness.fake.wait_for(lambda m: bool(m.custom_ids) and "Time is up" in (m.content or ""))
        # The deadline's timer row goes once its notice is out; wait for that before comparing snapshots.
        await eventually(lambda: _deadline_handled(harness))
        claim = notice.custom_ids[0]
        refused(await unchanged(harness, lambda: harness.fake.click(w.carol, notice, claim)), "not playing")
        refused(await unchanged(harness, lambda: harness.slash(w.carol, "claim")), "not playing")
        refused(await unchanged(harness, lambda: harness.fake.click(w.bob, notice, claim)), "your turn")
        await harness.fake.click(w.alice, notice, claim)
        won = await harness.fake.wait_for(
            lambda m: m.id > notice.id and bool(m.embeds) and "on time" in m.embeds[0]["description"])
    assert not won.ephemeral


async def test_only_the_challenged_person_accepts_or_declines_and_only_the_challenger_withdraws(harness):
    w = harness.world
    fake = harness.fake
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex", size=5)
        ids = {c.rsplit(":", 1)[1]: c for c in r.custom_ids}
        store = harness.bot.service.store
        await eventually(lambda: _has_message(store))  # remembered just after the reply
        for user in (w.carol, w.alice, w.admin):
            refused(await unchanged(harness, lambda u=user: fake.click(u, r, ids["accept"])), "only the challenged")
        for user in (w.carol, w.alice):
            refused(await unchanged(harness, lambda u=user: fake.click(u, r, ids["decline"])), "only the challenged")
        for user in (w.carol, w.bob):
            refused(await unchanged(harness, lambda u=user: fake.click(u, r, ids["withdraw"])), "only the challenger")
        for user in (w.carol, w.alice):  # the commands look for a challenge addressed to the caller
            refused(await unchanged(harness, lambda u=user: harness.slash(u, "accept")), "nobody has challenged you")
            refused(await unchanged(harness, lambda u=user: harness.slash(u, "decline")), "nobody has challenged you")
        assert r.message.components, "the challenge must still be open"
        await fake.click(w.bob, r, ids["accept"])
    assert "accepted" in r.message.content


async def test_settings_need_manage_server(harness):
    w = harness.world
    fake = harness.fake
    manage_guild = discord.Permissions(manage_guild=True).value
    async with harness.running():
        definition = fake.synced_commands()["settings"].payload
        assert int(definition.get("default_member_permissions") or 0) == manage_guild
        with pytest.raises(CommandUnavailable):  # Discord does not even offer it to alice
            await harness.slash(w.alice, "settings", clock="1h")
        with visible_to_everyone(fake, "settings"):
            for user in (w.alice, w.carol):
                r = await unchanged(harness, lambda u=user: harness.slash(u, "settings", clock="1h", threads=False))
                refused(r, "manage server")
        changed = await harness.slash(w.admin, "settings", clock="1h")
        stored = await harness.bot.service.store.guild_settings(w.guild.id)
    assert changed.ephemeral and "updated" in changed.content.lower()
    assert stored.default_clock == "1h" and stored.always_thread  # threads stayed on (the default)
