"""Which database a bot test runs on.

The store's contract (``test_store.py``), the game service (``test_service.py``), timers, races,
crashes, limits, lifecycle, bounded reads and the several-process tests run on both SQLite and
PostgreSQL (the ``database_url`` fixture of ``tests/conftest.py``). Tests whose subject is the
Discord side (what a reply says, which buttons a message has, how bad input is refused) reach the
database only through the same store calls those tests already prove on both backends, so they
run on SQLite alone by importing :func:`sqlite_database_url` under the fixture's name::

    from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401

Running them twice would double the suite's time and prove nothing more about PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def sqlite_database_url(tmp_path: Path) -> str:
    """The test's database: a SQLite file of its own (the same file the two-backend fixture makes)."""
    return f"sqlite:///{tmp_path / 'bot.sqlite3'}"
