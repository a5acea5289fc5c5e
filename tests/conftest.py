"""Fixtures for every test package: a real PostgreSQL server, started once per test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pgcluster import PgCluster


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """A throwaway PostgreSQL 16 (from the pgserver wheel) for the whole session; stopped at the end."""
    cluster = PgCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: PgCluster) -> str:
    """An empty PostgreSQL database of this test's own."""
    return pg_cluster.new_database()


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """The test's database, once on each backend: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    return request.getfixturevalue("pg_url")
