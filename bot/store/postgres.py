"""The store on PostgreSQL through an asyncpg connection pool (``DATABASE_URL=postgresql://…``).

The statements both databases share are :mod:`bot.store.sql`'s, with ``:name`` parameters turned
into asyncpg's ``$n`` once per statement (:func:`numbered`); this module holds the pool, its
transactions and migrations, and what PostgreSQL writes its own way (row locks, ``SKIP LOCKED``,
``unnest`` inserts, LISTEN/NOTIFY, advisory locks, identity counters). For several bot processes
on one database:

* :meth:`PostgresStore.transaction` takes a connection from the pool and binds it to the
  calling task; the task's other calls run on it until the block ends (nested blocks join).
  Reads outside a transaction use any pooled connection.
* Migrations (``bot/migrations/postgres/``) are applied under an advisory lock, so N processes
  starting together apply each exactly once; applied versions are rows of ``schema_migrations``.
* A uniqueness violation raises :class:`Conflict` after the rollback.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import asyncpg

from ..migrations import packaged
from ..shards import ShardPlan
from .base import CLOSE_GRACE, COUNTED_TABLES, Conflict, backend, check_table
from .rows import GameRow, TimerRow
from .sql import SQLStore, game_row

log = logging.getLogger(__name__)

#: pg_advisory_lock key of migrations, and the first key of :meth:`PostgresStore.exclusive` locks
#: (fixed numbers of this bot, unlikely to be used by anything else on the server)
MIGRATE_LOCK = 0x6865_7801
LOCK_SPACE = 0x6865_78
#: the LISTEN/NOTIFY channel on which a committed new timer wakes every process's timer driver
TIMER_CHANNEL = "hexcord_timers"


def postgres_migrations() -> list[tuple[int, str, str]]:
    """The packaged PostgreSQL migrations as (version, name, sql), in order."""
    return packaged("postgres")


#: a ``:name`` parameter (not the second colon of a ``::type`` cast)
_NAMED = re.compile(r"(?<!:):([A-Za-z_][A-Za-z0-9_]*)")


def _rowcount(status: str) -> int:
    """Rows touched, from a command tag such as ``UPDATE 1`` or ``INSERT 0 1``."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


@functools.lru_cache(maxsize=1024)
def _numbering(sql: str) -> tuple[str, tuple[str, ...]]:
    """``sql`` with its ``:name`` parameters as asyncpg's ``$1``, ``$2`` … (one number per name, however
    often it appears; ``::type`` casts left alone), and the names in number order."""
    names: dict[str, int] = {}

    def number(m: re.Match[str]) -> str:
        return f"${names.setdefault(m.group(1), len(names) + 1)}"

    return _NAMED.sub(number, sql), tuple(names)


def numbered(sql: str, params: dict[str, Any]) -> tuple[str, list[Any]]:
    """A shared statement and its named parameters as asyncpg takes them.

    >>> numbered("SELECT * FROM t WHERE a = :a AND b = ANY(:b::int[]) AND c > :a", {"a": 1, "b": [2]})
    ('SELECT * FROM t WHERE a = $1 AND b = ANY($2::int[]) AND c > $1', [1, [2]])
    """
    text, names = _numbering(sql)
    return text, [params[n] for n in names]


@backend
class PostgresStore(SQLStore):
    """The bot's database on PostgreSQL: open with :meth:`open`, close with :meth:`close`."""

    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        self._tx: dict[asyncio.Task, asyncpg.Connection] = {}
        self._listener: asyncpg.Connection | None = None

    # -- lifecycle -----------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | Path, *, min_size: int = 1, max_size: int = 10,
                   migrate: bool = True) -> PostgresStore:
        """Connect a pool to the ``postgresql://`` URL ``path`` and (by default) migrate the database."""
        url = str(path)
        pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
        store = cls(pool, url)
        if migrate:
            try:
                await store.migrate()
            except BaseException:
                await pool.close()
                raise
        return store

    async def close(self) -> None:
        """Close every pooled connection (and the one listening for new timers)."""
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        try:
            # close() waits for every connection to come back: one a stuck task never returns
            # would hold the bot's shutdown for ever; past the grace the rest are cut.
            await asyncio.wait_for(self._pool.close(), CLOSE_GRACE)
        except TimeoutError:
            log.error("connections still in use %.0f s into closing the database; cutting them", CLOSE_GRACE)
            self._pool.terminate()

    async def listen_timers(self, callback: Callable[[], None]) -> bool:
        """LISTEN on the channel :meth:`add_timer` notifies at commit, on a connection of its own."""
        if self._listener is None:
            self._listener = await asyncpg.connect(self.url)
            await self._listener.add_listener(TIMER_CHANNEL, lambda *_: callback())
        return True

    async def migrate(self) -> int:
        """Apply every migration newer than the database (once, whoever else is starting); the version."""
        async with self._pool.acquire() as conn:
            async with conn.transaction():
                # Held to the end of this transaction: a second process waits here, then finds
                # the versions applied and does nothing.
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATE_LOCK)
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                    " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
                applied = {r[0] for r in await conn.fetch("SELECT version FROM schema_migrations")}
                version = max(applied, default=0)
                for number, name, sql in postgres_migrations():
                    if number in applied:
                        continue
                    log.info("applying migration postgres/%s", name)
                    await conn.execute(sql)
                    await conn.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", number, name)
                    version = max(version, number)
                return version

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresStore]:
        """Run the block as one transaction on one pooled connection (rolled back on error)."""
        me = asyncio.current_task()
        assert me is not None
        if me in self._tx:
            yield self  # nested: part of the outer transaction
            return
        async with self._pool.acquire() as conn:
            self._tx[me] = conn
            try:
                async with conn.transaction():
                    yield self
            except asyncpg.UniqueViolationError as exc:
                raise Conflict(str(exc)) from exc
            finally:
                del self._tx[me]

    @contextlib.asynccontextmanager
    async def exclusive(self, name: str) -> AsyncIterator[bool]:
        """Try a session advisory lock named ``name`` for the block; yields whether this process got it."""
        async with self._pool.acquire() as conn:
            got = await conn.fetchval("SELECT pg_try_advisory_lock($1, hashtext($2))", LOCK_SPACE, name)
            try:
                yield bool(got)
            finally:
                if got:
                    await conn.execute("SELECT pg_advisory_unlock($1, hashtext($2))", LOCK_SPACE, name)

    def _conn(self) -> asyncpg.Connection | None:
        task = asyncio.current_task()
        return None if task is None else self._tx.get(task)

    # -- driver primitives (see SQLStore): the shared :name parameters become $n ----------------
    def _require_tx(self, what: str = "writes") -> None:
        if self._conn() is None:
            raise RuntimeError(f"{what} must run inside Store.transaction()")

    def _any(self, column: str, name: str, values: Sequence[Any], sql_type: str) -> tuple[str, dict[str, Any]]:
        return f"{column} = ANY(:{name}::{sql_type}[])", {name: list(values)}

    async def _run(self, sql: str, /, **params: Any) -> int:
        conn = self._conn()
        if conn is None:
            raise RuntimeError("writes must run inside Store.transaction()")
        text, args = numbered(sql, params)
        try:
            return _rowcount(await conn.execute(text, *args))
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def _returning(self, sql: str, /, **params: Any) -> asyncpg.Record:
        conn = self._conn()
        if conn is None:
            raise RuntimeError("writes must run inside Store.transaction()")
        text, args = numbered(sql, params)
        try:
            row = await conn.fetchrow(text, *args)
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc
        assert row is not None
        return row

    async def _run_many(self, sql: str, rows: list[dict[str, Any]]) -> None:
        conn = self._conn()
        if conn is None:
            raise RuntimeError("writes must run inside Store.transaction()")
        text, names = _numbering(sql)
        try:
            await conn.executemany(text, [[row[n] for n in names] for row in rows])
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def _write_one(self, sql: str, /, **params: Any) -> None:
        async with self.transaction():
            await self._run(sql, **params)

    async def _val(self, sql: str, /, **params: Any) -> Any:
        text, args = numbered(sql, params)
        conn = self._conn()
        if conn is not None:
            return await conn.fetchval(text, *args)
        return await self._pool.fetchval(text, *args)

    async def _all(self, sql: str, /, **params: Any) -> list[asyncpg.Record]:
        text, args = numbered(sql, params)
        conn = self._conn()
        if conn is not None:
            return await conn.fetch(text, *args)
        return await self._pool.fetch(text, *args)

    async def _one(self, sql: str, /, **params: Any) -> asyncpg.Record | None:
        text, args = numbered(sql, params)
        conn = self._conn()
        if conn is not None:
            return await conn.fetchrow(text, *args)
        return await self._pool.fetchrow(text, *args)

    # -- statements PostgreSQL writes its own way -----------------------------------------
    FOR_UPDATE = " FOR UPDATE"
    #: two index scans (one per seat) merged, instead of an OR that scans the server
    FINISHED_GAMES_OF = (
        "SELECT * FROM ((SELECT * FROM games WHERE guild_id = :guild_id AND status <> 'active' AND seat0_id = :user_id"
        "{seen} ORDER BY finished_at DESC LIMIT :limit)"
        " UNION (SELECT * FROM games WHERE guild_id = :guild_id AND status <> 'active' AND seat1_id = :user_id"
        "{seen} ORDER BY finished_at DESC LIMIT :limit)) g ORDER BY finished_at DESC, id DESC LIMIT :limit"
    )
    #: the same two index scans (a game against oneself counted once)
    PLAYER_RECORD = (
        "SELECT game, COUNT(*),"
        " COUNT(*) FILTER (WHERE (winner_seat = 0 AND seat0_id = :user_id) OR (winner_seat = 1 AND seat1_id = :user_id)),"
        " COUNT(*) FILTER (WHERE winner_seat IS NOT NULL"
        "   AND NOT ((winner_seat = 0 AND seat0_id = :user_id) OR (winner_seat = 1 AND seat1_id = :user_id)))"
        " FROM (SELECT * FROM games WHERE guild_id = :guild_id AND status = 'finished' AND seat0_id = :user_id"
        "       UNION ALL SELECT * FROM games WHERE guild_id = :guild_id AND status = 'finished' AND seat1_id = :user_id"
        "       AND seat0_id <> :user_id) g GROUP BY game"
    )

    async def lock_game_in(self, channel_id: int) -> tuple[GameRow, tuple[int, int]] | None:
        """The game in progress in a channel or thread, held like :meth:`lock_game`, and its version."""
        self._require_tx("lock_game_in")
        row = await self._one(f"SELECT * FROM games WHERE channel_id = :channel_id AND status = 'active'{self.FOR_UPDATE}",
                              channel_id=channel_id)
        if row is None:
            return None
        # The version in a statement of its own, after the row is held: under READ COMMITTED a
        # statement that waited for the lock still reads other tables as of its start, so a count
        # in the same statement could miss actions the previous holder committed.
        return game_row(row), await self.game_version(row["id"])

    async def lock_ratings(self, guild_id: int, game: str, user_ids: Iterable[int], now: float) -> None:
        """Hold some players' rating rows to the end of the transaction, always in user-id order
        (two games finishing at once then never wait on each other in a circle)."""
        which, params = self._any("user_id", "user", sorted(set(user_ids)), "bigint")
        await self._all(
            f"SELECT 1 FROM ratings WHERE guild_id = :guild_id AND game = :game AND {which}"
            f" ORDER BY user_id{self.FOR_UPDATE}",
            guild_id=guild_id, game=game, **params,
        )

    async def claim_timers(self, now: float, owner: str, lease: float, shards: ShardPlan | None = None,
                           limit: int = 50) -> list[TimerRow]:
        """Claim due events for ``owner`` until ``now + lease``; rows another process is claiming
        right now are skipped (SKIP LOCKED), rows it holds a live lease on are not due for us."""
        where, params = self._shard_filter(shards)
        async with self.transaction():
            rows = await self._all(
                "UPDATE timers SET claimed_by = :owner, claimed_until = :now + :lease WHERE id IN ("
                " SELECT id FROM timers WHERE due_at <= :now AND (claimed_until IS NULL OR claimed_until <= :now)"
                f"{where} ORDER BY due_at, id LIMIT :limit FOR UPDATE SKIP LOCKED) RETURNING *",
                owner=owner, now=now, lease=lease, limit=limit, **params,
            )
        return sorted((TimerRow(**dict(r)) for r in rows), key=lambda t: (t.due_at, t.id))

    async def _insert_timers(self, rows: list[dict[str, Any]]) -> None:
        # one statement for every row: the columns as arrays, unnested
        await self._run(
            "INSERT INTO timers (due_at, kind, ref_id, payload, guild_id)"
            " SELECT * FROM unnest(:due_at::float8[], :kind::text[], :ref_id::bigint[], :payload::text[],"
            " :guild_id::bigint[])",
            **{column: [r[column] for r in rows] for column in ("due_at", "kind", "ref_id", "payload", "guild_id")},
        )

    async def _timers_added(self, due_at: float) -> None:
        # Wakes the timer drivers of every process at COMMIT (LISTEN hexcord_timers).
        await self._val("SELECT pg_notify(:channel, :due_at)", channel=TIMER_CHANNEL, due_at=str(due_at))

    # -- whole tables (copy-db) -----------------------------------------------------
    async def _typed_rows(self, table: str, rows: list[dict[str, object]]) -> list[dict[str, object]]:
        """SQLite's 0/1 become booleans where the column is one."""
        types = {r[0]: r[1] for r in await self._all(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = :table",
            table=check_table(table))}
        flags = [c for c in rows[0] if types.get(c) == "boolean"] if rows else []
        return [{**row, **{c: bool(row[c]) for c in flags if row[c] is not None}} for row in rows]

    async def id_high_water(self) -> dict[str, int]:
        """The largest id each identity has handed out (its sequence's last value, or the largest row)."""
        out = {}
        for table in COUNTED_TABLES:
            out[table] = await self._val(
                f"SELECT GREATEST(COALESCE(pg_sequence_last_value(pg_get_serial_sequence('{table}', 'id')::regclass), 0),"
                f" COALESCE((SELECT MAX(id) FROM {table}), 0))"
            )
        return out

    async def after_bulk_insert(self, high_water: dict[str, int] | None = None) -> None:
        """Move every identity counter past the largest id inserted and past ``high_water``."""
        for table in COUNTED_TABLES:
            await self._val(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" GREATEST(COALESCE((SELECT MAX(id) FROM {table}), 0), :top) + 1, false)",
                top=(high_water or {}).get(table, 0),
            )

    # -- maintenance -------------------------------------------------------------------
    async def integrity_check(self) -> str:
        """``ok`` when the server answers (PostgreSQL checks its pages itself)."""
        return "ok" if await self._val("SELECT 1") == 1 else "no answer"

    # -- limits --------------------------------------------------------------------------
    async def hold(self, name: str) -> None:
        """Inside a transaction: a transaction-level advisory lock named ``name`` (released at its end)."""
        self._require_tx("hold")
        await self._val("SELECT pg_advisory_xact_lock(:space, hashtext(:name))", space=LOCK_SPACE, name=name)
