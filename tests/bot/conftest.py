"""Fixtures for the bot's end-to-end tests: the fake Discord and a harness around the real bot."""

from __future__ import annotations

import pytest

from bot.store import Store
from tests.bot.harness import Harness, ManualClock
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (a fixture)


@pytest.fixture
def clock() -> ManualClock:
    """Time under the test's control."""
    return ManualClock()


@pytest.fixture
def harness(fake_discord, database_url, clock) -> Harness:  # noqa: F811
    """A harness on a fresh database (once on SQLite, once on PostgreSQL); start the bot with
    ``async with harness.running():``."""
    return Harness(fake_discord, database_url, clock)


@pytest.fixture
async def store(database_url):
    """The test's database opened as the bot's store (migrated), closed at the end."""
    s = await Store.open(database_url)
    try:
        yield s
    finally:
        await s.close()
