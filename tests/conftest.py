"""Fixtures and hooks for every test package: a real PostgreSQL server, started once per test
session; and every test fails if a fake Discord refused an invalid request during it (or
answered something the spec forbids): real Discord would have refused it too. See
``tests/fake_discord/README.md`` ("The spec is the oracle")."""

from __future__ import annotations

import asyncio
import faulthandler
import io
import multiprocessing
import os
import sys
import threading
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


# pytest-timeout prints every thread's stack when a test hangs, but an async test that hangs
# usually waits with its event loop idle: the stacks show the loop in select() and not what it
# awaits. This many seconds before the limit, every unfinished asyncio task's stack is printed too.
TASKS_DUMP_BEFORE_TIMEOUT = 15.0


def _timeout_of(item: pytest.Item) -> float | None:
    """The test's pytest-timeout limit (its marker, else the command line, else the ini file)."""
    marker = item.get_closest_marker("timeout")
    value = marker.args[0] if marker is not None and marker.args else item.config.getoption("timeout", None)
    if value is None:
        value = item.config.getini("timeout") or None
    return float(value) if value else None


def _dump_tasks(name: str) -> None:
    """Print the stack of every asyncio task not done (read from another thread: a diagnosis only)."""
    out = io.StringIO()
    # asyncio keeps every task in this set; all_tasks() would need the (other thread's) loop.
    everyone = list(getattr(asyncio.tasks, "_all_tasks", ()))
    print(f"\n[tests/conftest.py] {name} is close to its time limit; its asyncio tasks:", file=out)
    for task in everyone:
        if not task.done():
            try:
                task.print_stack(file=out)
            except Exception as exc:  # a frame that changed under us: the diagnosis goes on
                print(f"  ({task.get_name()}: {exc!r})", file=out)
    print(out.getvalue(), flush=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[Any]:
    """Fail the test itself, naming each refused field path, if any fake recorded violations."""
    limit = _timeout_of(item)
    watch = None
    if limit is not None and limit > 2 * TASKS_DUMP_BEFORE_TIMEOUT:
        watch = threading.Timer(limit - TASKS_DUMP_BEFORE_TIMEOUT, _dump_tasks, (item.nodeid,))
        watch.daemon = True
        watch.start()
    try:
        result = yield
    except BaseException:
        found = collect_violations()
        if found:  # the test failed anyway; say what Discord would have refused, it is often why
            item.add_report_section("call", "Discord spec violations", found)
        raise
    finally:
        if watch is not None:
            watch.cancel()
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


# After the last test the interpreter must exit: a worker thread or process left running by
# some test would keep it alive (Python joins them at exit) until CI's own limit, with nothing
# said. Past this many seconds the run ends as a failure with every thread's stack and the
# children named, so the culprit can be found from the log.
EXIT_GRACE_SECONDS = 120


def _exit_watchdog() -> None:
    threading.Event().wait(EXIT_GRACE_SECONDS)
    print(f"\n[tests/conftest.py] the test process is still alive {EXIT_GRACE_SECONDS} s after the last "
          "test: something a test started did not stop. Threads:", file=sys.stderr, flush=True)
    for thread in threading.enumerate():
        print(f"  {thread.name} (daemon={thread.daemon})", file=sys.stderr)
    print(f"Child processes: {[p.pid for p in multiprocessing.active_children()]}", file=sys.stderr)
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    sys.stderr.flush()
    os._exit(3)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Arm the exit watchdog (see :data:`EXIT_GRACE_SECONDS`) in the process that runs pytest: an
    xdist worker whose tests are done waits for the others, and the controller ends it."""
    if not hasattr(config, "workerinput"):
        threading.Thread(target=_exit_watchdog, name="exit-watchdog", daemon=True).start()
