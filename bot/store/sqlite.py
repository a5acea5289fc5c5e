"""The store on SQLite (aiosqlite): the connection, its transactions and migrations, and the few
statements SQLite writes its own way; every other statement is :mod:`bot.store.sql`'s.

The database is a real SQLite file in WAL mode. Its schema is created and
upgraded by the numbered files in ``bot/migrations/sqlite/`` at start-up; the applied
version is kept in ``PRAGMA user_version``.

One connection serves the whole bot. aiosqlite runs statements one at a time,
but two coroutines could still interleave the statements of two transactions,
so a single lock guards every transaction and every read; a task inside
:meth:`SQLiteStore.transaction` may call the other methods freely.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from ..migrations import packaged
from ..shards import ShardPlan
from .base import CLOSE_GRACE, COUNTED_TABLES, Conflict, backend
from .files import private_file
from .rows import GameRow, TimerRow
from .sql import SQLStore, game_row

log = logging.getLogger(__name__)


def sql_statements(script: str) -> list[str]:
    r"""A script's statements one by one (comments and blank lines left out), as SQLite splits them.

    >>> sql_statements("-- a table\nCREATE TABLE t (x TEXT DEFAULT ';');\nDROP TABLE t;")
    ["CREATE TABLE t (x TEXT DEFAULT ';');", 'DROP TABLE t;']
    """
    out, buffer = [], ""
    for line in script.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            out.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        out.append(buffer.strip())
    return out


def migrations() -> list[tuple[int, str, str]]:
    """The packaged SQLite migrations as (version, name, sql), in order."""
    return packaged("sqlite")


async def _switch_to_wal(db: aiosqlite.Connection, *, attempts: int = 100) -> None:
    """Put the database file in WAL mode, waiting for other processes opening it at the same moment.

    Changing the journal mode needs the file to itself and SQLite answers "database is
    locked" at once instead of calling the busy handler, so the wait is done here.
    """
    for attempt in range(attempts):
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            await asyncio.sleep(0.05)


@backend
class SQLiteStore(SQLStore):
    """The store on one SQLite file: open with :meth:`open`, close with :meth:`close`."""

    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task | None = None

    # -- lifecycle -----------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | Path) -> SQLiteStore:
        """Open (creating the file and its folder) and migrate the database at ``path``."""
        path = str(path)
        if path != ":memory:":
            private_file(path)
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            await db.execute("PRAGMA busy_timeout = 5000")
            await _switch_to_wal(db)
            # NORMAL is durable across application crashes in WAL mode (only an OS crash
            # can lose the last commits); the bot replies only after COMMIT returns.
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            store = cls(db, path)
            await store.migrate()
        except BaseException:
            # The connection's worker thread is not a daemon: left open, it would keep
            # the process from exiting.
            await db.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection (after the transaction running, if any; past the grace, without waiting:
        an open transaction is then rolled back by the close)."""
        try:
            await asyncio.wait_for(self._lock.acquire(), CLOSE_GRACE)
        except TimeoutError:
            log.error("a transaction still runs %.0f s into closing the database; closing anyway", CLOSE_GRACE)
            await self._db.close()
            return
        try:
            await self._db.close()
        finally:
            self._lock.release()

    async def migrate(self) -> int:
        """Apply every migration newer than the database; return the schema version.

        Each migration runs in its own BEGIN IMMEDIATE transaction that first reads the
        version again, so processes opening one file together apply each migration once.
        """
        async with self._lock:
            while True:
                try:
                    await self._to_the_end("BEGIN IMMEDIATE")
                    row = await (await self._db.execute("PRAGMA user_version")).fetchone()
                    assert row is not None
                    version = row[0]
                    pending = [m for m in migrations() if m[0] > version]
                    if pending:
                        number, name, sql = pending[0]
                        log.info("applying migration sqlite/%s", name)
                        for statement in sql_statements(sql):
                            await self._db.execute(statement)
                        await self._db.execute(f"PRAGMA user_version = {int(number)}")
                    await self._to_the_end("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        await self._to_the_end("ROLLBACK")
                    raise
                if not pending:
                    return version

    async def _to_the_end(self, sql: str) -> None:
        """Execute BEGIN, COMMIT or ROLLBACK and wait for it to finish even if the task is cancelled meanwhile.

        The statement runs on aiosqlite's thread whatever happens to the task, so a
        cancellation that did not wait would leave the transaction's state unknown: a
        ROLLBACK after a COMMIT that went through fails, and that error would replace the
        cancellation (the timer driver then never stopped).
        """
        done = asyncio.ensure_future(self._db.execute(sql))
        try:
            await asyncio.shield(done)
        except asyncio.CancelledError:
            # The cancellation goes on whatever the statement's fate; the caller's
            # ROLLBACK (in_transaction is accurate again) settles a failed one.
            with contextlib.suppress(Exception):
                await done
            raise

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[SQLiteStore]:
        """Run the block as one write transaction (BEGIN IMMEDIATE … COMMIT, ROLLBACK on error)."""
        me = asyncio.current_task()
        if self._owner is me:
            yield self  # nested: part of the outer transaction
            return
        async with self._lock:
            self._owner = me
            try:
                try:
                    await self._to_the_end("BEGIN IMMEDIATE")
                    yield self
                    await self._to_the_end("COMMIT")
                except BaseException as exc:
                    if self._db.in_transaction:  # a failed COMMIT may have ended it already
                        await self._to_the_end("ROLLBACK")
                    if isinstance(exc, sqlite3.IntegrityError):
                        raise Conflict(str(exc)) from exc
                    raise
            finally:
                self._owner = None

    # -- driver primitives (see SQLStore): sqlite3 reads the shared :name parameters itself ------
    def _require_tx(self, what: str = "writes") -> None:
        if self._owner is not asyncio.current_task():
            raise RuntimeError(f"{what} must run inside Store.transaction()")

    def _any(self, column: str, name: str, values: Sequence[Any], sql_type: str) -> tuple[str, dict[str, Any]]:
        params = {f"{name}_{i}": v for i, v in enumerate(values)}
        return f"{column} IN ({', '.join(':' + k for k in params)})", params

    async def _run(self, sql: str, /, **params: Any) -> int:
        self._require_tx()
        try:
            cur = await self._db.execute(sql, params)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc
        return cur.rowcount

    async def _returning(self, sql: str, /, **params: Any) -> sqlite3.Row:
        self._require_tx()
        try:
            rows = await self._db.execute_fetchall(sql, params)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc
        return next(iter(rows))

    async def _write_one(self, sql: str, /, **params: Any) -> None:
        """One statement is atomic by itself (SQLite's autocommit): outside a transaction it needs
        no BEGIN and COMMIT of its own."""
        if self._owner is asyncio.current_task():
            await self._run(sql, **params)
            return
        async with self._lock:
            try:
                await self._db.execute(sql, params)
            except sqlite3.IntegrityError as exc:
                raise Conflict(str(exc)) from exc

    async def _all(self, sql: str, /, **params: Any) -> list[sqlite3.Row]:
        # execute_fetchall: one trip to aiosqlite's thread, not two (execute, then fetchall)
        if self._owner is asyncio.current_task():
            return list(await self._db.execute_fetchall(sql, params))
        async with self._lock:
            return list(await self._db.execute_fetchall(sql, params))

    async def _one(self, sql: str, /, **params: Any) -> sqlite3.Row | None:
        rows = await self._all(sql, **params)
        return rows[0] if rows else None

    async def _val(self, sql: str, /, **params: Any) -> Any:
        row = await self._one(sql, **params)
        return None if row is None else row[0]

    async def _run_many(self, sql: str, rows: list[dict[str, Any]]) -> None:
        self._require_tx()
        try:
            await self._db.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc

    # -- statements SQLite writes its own way ---------------------------------------------
    #: an OR over both seats: SQLite reads it with its two seat indexes
    FINISHED_GAMES_OF = (
        "SELECT * FROM games WHERE guild_id = :guild_id AND status != 'active'"
        " AND (seat0_id = :user_id OR seat1_id = :user_id){seen} ORDER BY finished_at DESC, id DESC LIMIT :limit"
    )
    PLAYER_RECORD = (
        "SELECT game, COUNT(*),"
        " SUM(CASE WHEN (winner_seat = 0 AND seat0_id = :user_id) OR (winner_seat = 1 AND seat1_id = :user_id)"
        " THEN 1 ELSE 0 END),"
        " SUM(CASE WHEN winner_seat IS NOT NULL AND NOT ((winner_seat = 0 AND seat0_id = :user_id)"
        " OR (winner_seat = 1 AND seat1_id = :user_id)) THEN 1 ELSE 0 END)"
        " FROM games WHERE guild_id = :guild_id AND status = 'finished' AND (seat0_id = :user_id OR seat1_id = :user_id)"
        " GROUP BY game"
    )

    async def lock_game_in(self, channel_id: int) -> tuple[GameRow, tuple[int, int]] | None:
        """The game in progress in a channel and its version in one statement (BEGIN IMMEDIATE already
        holds the whole file's write lock, so nothing can change between the two)."""
        self._require_tx("lock_game_in")
        row = await self._one(
            "SELECT g.*, (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id) AS version_actions,"
            " (SELECT COALESCE(SUM(a.taken_back), 0) FROM actions a WHERE a.game_id = g.id) AS version_taken_back"
            " FROM games g WHERE g.channel_id = :channel_id AND g.status = 'active'",
            channel_id=channel_id,
        )
        if row is None:
            return None
        d = dict(row)
        version = (d.pop("version_actions"), d.pop("version_taken_back"))
        return game_row(d), version

    async def lock_ratings(self, guild_id: int, game: str, user_ids: Iterable[int], now: float) -> None:
        """Nothing to do: BEGIN IMMEDIATE holds the whole file, nothing else writes until COMMIT."""

    async def claim_timers(self, now: float, owner: str, lease: float, shards: ShardPlan | None = None,
                           limit: int = 50) -> list[TimerRow]:
        """Claim due events for ``owner`` until ``now + lease``, earliest first. BEGIN IMMEDIATE makes
        the select and the update one step for every process on the file."""
        where, params = self._shard_filter(shards)
        async with self.transaction():
            rows = await self._all(
                "SELECT id FROM timers WHERE due_at <= :now AND (claimed_until IS NULL OR claimed_until <= :now)"
                f"{where} ORDER BY due_at, id LIMIT :limit",
                now=now, limit=limit, **params,
            )
            ids = [r[0] for r in rows]
            if not ids:
                return []
            which, params = self._any("id", "id", ids, "bigint")
            await self._run(f"UPDATE timers SET claimed_by = :owner, claimed_until = :until WHERE {which}",
                            owner=owner, until=now + lease, **params)
            claimed = await self._all(f"SELECT * FROM timers WHERE {which} ORDER BY due_at, id", **params)
        return [TimerRow(**dict(r)) for r in claimed]

    # -- whole tables (copy-db) -----------------------------------------------------
    async def id_high_water(self) -> dict[str, int]:
        """The largest id each counted table has handed out: AUTOINCREMENT tables remember theirs;
        the others reuse only a deleted top rowid."""
        counted: dict[str, int] = {r[0]: r[1] for r in await self._all("SELECT name, seq FROM sqlite_sequence")}
        out = {}
        for table in COUNTED_TABLES:
            top = await self._val(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
            out[table] = max(int(top), counted.get(table, 0))
        return out

    async def after_bulk_insert(self, high_water: dict[str, int] | None = None) -> None:
        """AUTOINCREMENT's counter already moved past every id inserted; a higher mark is raised to.
        (Only timers count with AUTOINCREMENT: the other tables never delete rows.)"""
        top = (high_water or {}).get("timers", 0)
        await self._run("UPDATE sqlite_sequence SET seq = MAX(seq, :top) WHERE name = 'timers'", top=top)
        await self._run("INSERT INTO sqlite_sequence (name, seq) SELECT 'timers', :top"
                        " WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'timers')", top=top)

    # -- maintenance -------------------------------------------------------------------
    async def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` answer (``ok`` when sound)."""
        answer = await self._val("PRAGMA integrity_check")
        return "no answer" if answer is None else str(answer)

    async def backup(self, target: str | Path) -> None:
        """Copy the database to ``target`` with SQLite's online backup API."""
        private_file(target)
        async with self._lock:
            dest = await aiosqlite.connect(str(target))
            try:
                await self._db.backup(dest)
            finally:
                await dest.close()

    # -- limits --------------------------------------------------------------------------
    async def hold(self, name: str) -> None:
        """Nothing to take: BEGIN IMMEDIATE holds the whole file, nothing else writes until COMMIT."""
        self._require_tx("hold")
