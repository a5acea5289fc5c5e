"""Pytest fixtures and helpers for running a bot against :class:`FakeDiscord`.

Import what you need into a test module (or a conftest)::

    from tests.fake_discord.fixtures import fake_discord, run_client  # noqa: F401

``fake_discord`` is a started fake with a standard world (``fake.world``):
guild "Test Server", channel #games, members alice, bob, carol, admin (with
manage_guild) and the bot; discord.py is patched to reach it and nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import AsyncIterator, TypeVar

import discord
import pytest

from .errors import FakeDiscordError
from .models import FakeChannel, FakeGuild, FakeMember
from .patch import patch_discord
from .server import LIVE, FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)


@dataclass
class World:
    """The standard test world built by :func:`standard_world`."""

    guild: FakeGuild
    channel: FakeChannel
    alice: FakeMember
    bob: FakeMember
    carol: FakeMember
    admin: FakeMember
    bot: FakeMember


def standard_world(fake: FakeDiscord) -> World:
    """Guild "Test Server" with #games, alice/bob/carol, an admin (manage_guild) and the bot."""
    guild = fake.add_guild("Test Server")
    world = World(
        guild=guild,
        channel=fake.add_text_channel(guild, "games"),
        alice=fake.add_member(guild, "alice"),
        bob=fake.add_member(guild, "bob"),
        carol=fake.add_member(guild, "carol"),
        admin=fake.add_member(guild, "admin", permissions=["manage_guild"]),
        bot=fake.bot_member(guild),
    )
    fake.world = world
    return world


def collect_violations() -> str:
    """Take the violations of every live :class:`FakeDiscord`: "" if none, else one line per violation."""
    found = [v for fake in list(LIVE) for v in fake.take_violations()]
    if not found:
        return ""
    return (f"{len(found)} request(s) real Discord would refuse (or answers the spec forbids):\n"
            + "\n".join(f"  - {v}" for v in found))


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started :class:`FakeDiscord` with :func:`standard_world`, discord.py patched to it.

    Also refuses any non-loopback connection for the test's duration.
    """
    fake = FakeDiscord(token="test-token")
    standard_world(fake)
    await fake.start()
    try:
        with patch_discord(fake):
            yield fake
    finally:
        await fake.stop()


@contextlib.asynccontextmanager
async def run_client(client: ClientT, fake: FakeDiscord, *, token: str | None = None, timeout: float = 10.0,
                     guild_ready_timeout: float = 0.05) -> AsyncIterator[ClientT]:
    """Start ``client`` against ``fake`` in a task, wait for ``on_ready``, and close it cleanly on exit.

    ``guild_ready_timeout`` shortens discord.py's wait for GUILD_CREATEs
    (2 s by default) — the fake sends them all right after READY. If the
    client dies while starting (bad token, …), its exception is raised here.

    For example::

        async with run_client(bot, fake) as bot:
            r = await fake.slash(fake.world.alice, fake.world.channel, "ping")
    """
    # discord.py reads this private setting only in _delay_ready; it is the
    # documented Client(guild_ready_timeout=…) option, settable after construction.
    client._connection.guild_ready_timeout = guild_ready_timeout
    task = asyncio.create_task(client.start(token or fake.token), name=f"fake-discord-client-{id(client)}")
    ready = asyncio.create_task(client.wait_until_ready())
    try:
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()  # raises the start-up error (LoginFailure, …)
            raise FakeDiscordError("the client stopped before it was ready")
        if ready not in done:
            raise FakeDiscordError(f"the client was not ready within {timeout}s")
        yield client
    except BaseException:
        await _stop(client, task, ready, timeout)
        raise
    else:
        error = await _stop(client, task, ready, timeout)
        if error is not None:
            raise error  # the client crashed while the test ran


async def _stop(client: discord.Client, task: "asyncio.Task[None]", ready: "asyncio.Task[None]",
                timeout: float) -> BaseException | None:
    """Close the client, wait for its task; return the exception it died of, if any."""
    ready.cancel()
    if not client.is_closed():
        await client.close()
    if not task.done():
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        except asyncio.TimeoutError:
            task.cancel()
            return None
        except BaseException:
            pass
    if task.cancelled():
        return None
    return task.exception()


@pytest.fixture
def discord_runner(fake_discord: FakeDiscord):  # type: ignore[no-untyped-def]
    """``runner(client)`` → async context manager running ``client`` against ``fake_discord``.

    For example::

        async with discord_runner(MyBot()) as bot:
            ...
    """
    def runner(client: ClientT, **kwargs: object) -> contextlib.AbstractAsyncContextManager[ClientT]:
        return run_client(client, fake_discord, **kwargs)  # type: ignore[arg-type]

    return runner
