"""Read-only SQL on a test's database (and the odd write that sets a scene), whichever backend holds it.

SQL is written with ``?`` placeholders (SQLite's); for PostgreSQL they become ``$1, $2 …``
and the query runs through asyncpg in a thread of its own (the test's event loop keeps
serving the bot meanwhile). Booleans come back as Python bools on PostgreSQL and 0/1 on
SQLite; both compare equal to 0 and 1.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import sqlite3
from typing import Any

from bot.store.urls import database_target


def _dollars(sql: str) -> str:
    count = 0

    def number(_: re.Match) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


async def _pg(url: str, queries: list[tuple[str, tuple]]) -> list[list[dict[str, Any]]]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return [[dict(r) for r in await conn.fetch(_dollars(sql), *args)] for sql, args in queries]
    finally:
        await conn.close()


def _many(url: str, queries: list[tuple[str, tuple]]) -> list[list[dict[str, Any]]]:
    """Several read-only queries on one connection."""
    dialect, target = database_target(str(url))
    if dialect == "postgres":
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, _pg(target, queries)).result(timeout=60)
    con = sqlite3.connect(f"file:{target}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    try:
        return [[dict(r) for r in con.execute(sql, args)] for sql, args in queries]
    finally:
        con.close()


def query_dicts(url: str, sql: str, *args: Any) -> list[dict[str, Any]]:
    """Rows of a read-only query as dicts (column name → value)."""
    return _many(url, [(sql, args)])[0]


def query(url: str, sql: str, *args: Any) -> list[tuple]:
    """Rows of a read-only query as tuples."""
    return [tuple(r.values()) for r in query_dicts(url, sql, *args)]


def execute(url: str, sql: str, *args: Any) -> None:
    """One write that sets a test's scene (e.g. a timer's due time), committed at once."""
    dialect, target = database_target(str(url))
    if dialect == "postgres":
        _many(url, [(sql, args)])  # asyncpg outside a transaction: committed when it returns
        return
    con = sqlite3.connect(target)
    try:
        with con:
            con.execute(sql, args)
    finally:
        con.close()


def tables(url: str) -> list[str]:
    """The bot's tables, by name (the migration bookkeeping left out)."""
    dialect, _ = database_target(str(url))
    if dialect == "postgres":
        names = query(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    else:
        names = query(url, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    return sorted(n for (n,) in names if n != "schema_migrations")


def snapshot(url: str, leave_out: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """Every row of every table (but ``leave_out``), in a stable order, for before/after comparisons."""
    names = [t for t in tables(url) if t not in leave_out]
    results = _many(url, [(f'SELECT * FROM "{t}"', ()) for t in names])
    return {t: sorted(repr(tuple(r.values())) for r in rows) for t, rows in zip(names, results)}
