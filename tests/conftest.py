"""Fixtures and hooks for every test package: a real PostgreSQL server, started once per test
session; and every test fails if a fake Discord refused an invalid request during it (or
answered something the spec forbids): real Discord would have refused it too. See
``tests/fake_discord/README.md`` ("The spec is the oracle")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.fake_discord.fixtures import collect_violations
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


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[Any]:
    """Fail the test itself, naming each refused field path, if any fake recorded violations."""
    try:
        result = yield
    except BaseException:
        found = collect_violations()
        if found:  # the test failed anyway; say what Discord would have refused, it is often why
            item.add_report_section("call", "Discord spec violations", found)
        raise
    found = collect_violations()
    if found:
        pytest.fail(found, pytrace=False)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[Any]:
    """Requests refused while fixtures shut down fail the test too (as a teardown error)."""
    result = yield
    found = collect_violations()
    if found:
        pytest.fail(found, pytrace=False)
    return result
