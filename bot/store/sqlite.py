"""The store on SQLite: every SQL statement of the bot (aiosqlite).

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
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import aiosqlite

from ..migrations import packaged
from ..shards import ShardPlan
from .base import COUNTED_TABLES, Conflict, Store, check_table, storable_name
from .rows import ChallengeRow, GameRow, GuildSettings, RatingRow, TakebackRow, TimerRow

log = logging.getLogger(__name__)


def _variants(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _challenge(row: sqlite3.Row) -> ChallengeRow:
    d = dict(row)
    d["variants"] = _variants(d["variants"])
    d["rated"], d["thread"] = bool(d["rated"]), bool(d["thread"])
    return ChallengeRow(**d)


def _game(row: sqlite3.Row | dict[str, Any]) -> GameRow:
    d = dict(row)
    d["variants"] = _variants(d["variants"])
    d["rated"] = bool(d["rated"])
    return GameRow(**d)


def _new_id(cur: aiosqlite.Cursor) -> int:
    """The id SQLite gave the row an INSERT just added."""
    assert cur.lastrowid is not None
    return cur.lastrowid


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


class SQLiteStore(Store):
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
            Path(path).parent.mkdir(parents=True, exist_ok=True)
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
        """Close the connection."""
        async with self._lock:
            await self._db.close()

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

    async def _run(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Cursor:
        """Execute a write; it must be inside :meth:`transaction`."""
        if self._owner is not asyncio.current_task():
            raise RuntimeError("writes must run inside Store.transaction()")
        try:
            return await self._db.execute(sql, tuple(params))
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc

    async def _write_one(self, sql: str, params: Iterable[Any] = ()) -> None:
        """Execute one write: inside :meth:`transaction` as part of it, else on its own. One statement
        is atomic by itself (SQLite's autocommit), so it needs no BEGIN and COMMIT of its own."""
        if self._owner is asyncio.current_task():
            await self._run(sql, params)
            return
        async with self._lock:
            try:
                await self._db.execute(sql, tuple(params))
            except sqlite3.IntegrityError as exc:
                raise Conflict(str(exc)) from exc

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        # execute_fetchall: one trip to aiosqlite's thread, not two (execute, then fetchall)
        if self._owner is asyncio.current_task():
            return list(await self._db.execute_fetchall(sql, tuple(params)))
        async with self._lock:
            return list(await self._db.execute_fetchall(sql, tuple(params)))

    async def _one(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _scalar(self, sql: str, params: Iterable[Any] = ()) -> Any:
        """The one value of a query that always returns one row (an aggregate, a PRAGMA)."""
        row = await self._one(sql, params)
        assert row is not None
        return row[0]

    # -- whole tables (copy-db) -----------------------------------------------------
    async def count_rows(self, table: str) -> int:
        row = await self._one(f'SELECT COUNT(*) FROM "{check_table(table)}"')
        return int(row[0]) if row else 0

    async def table_rows(self, table: str) -> list[dict[str, object]]:
        return [dict(r) for r in await self._all(f'SELECT * FROM "{check_table(table)}" ORDER BY 1, 2')]

    async def insert_rows(self, table: str, rows: list[dict[str, object]]) -> None:
        for row in rows:
            names = ", ".join(f'"{c}"' for c in row)
            marks = ", ".join("?" * len(row))
            await self._run(f'INSERT INTO "{check_table(table)}" ({names}) VALUES ({marks})', tuple(row.values()))

    async def id_high_water(self) -> dict[str, int]:
        # AUTOINCREMENT tables remember their largest id; the others reuse only a deleted top rowid.
        counted: dict[str, int] = {r[0]: r[1] for r in await self._all("SELECT name, seq FROM sqlite_sequence")}
        out = {}
        for table in COUNTED_TABLES:
            rows = await self._all(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
            out[table] = max(int(rows[0][0]), counted.get(table, 0))
        return out

    async def after_bulk_insert(self, high_water: dict[str, int] | None = None) -> None:
        # AUTOINCREMENT's counter already moved past every id inserted; a higher mark is raised to.
        # (Only timers count with AUTOINCREMENT: the other tables never delete rows.)
        top = (high_water or {}).get("timers", 0)
        await self._run("UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'timers'", (top,))
        await self._run("INSERT INTO sqlite_sequence (name, seq) SELECT 'timers', ?"
                        " WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'timers')", (top,))

    # -- meta ----------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else row[0]

    async def delete_meta(self, key: str) -> None:
        """Forget a setting of the bot itself."""
        await self._write_one("DELETE FROM meta WHERE key = ?", (key,))

    async def set_meta(self, key: str, value: str) -> None:
        await self._write_one(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # -- challenges ------------------------------------------------------------------
    async def insert_challenge(
        self, *, guild_id: int, channel_id: int, challenger_id: int, opponent_id: int, game: str, size: int,
        variants: tuple[str, ...], seat: str, rated: bool, thread: bool, created_at: float, expires_at: float,
        clock: str = "3d", rematch_of: int | None = None,
    ) -> ChallengeRow:
        cur = await self._run(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, game, size, variants,"
            " seat, rated, thread, created_at, expires_at, clock, rematch_of) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (guild_id, channel_id, challenger_id, opponent_id, game, size, " ".join(variants), seat,
             int(rated), int(thread), created_at, expires_at, clock, rematch_of),
        )
        row = await self.get_challenge(_new_id(cur))
        assert row is not None
        return row

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return None if row is None else _challenge(row)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        async with self.transaction():
            await self._run("UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id))

    async def rematch_of(self, game_id: int) -> ChallengeRow | None:
        row = await self._one(
            "SELECT * FROM challenges WHERE rematch_of = ? AND status IN ('open', 'accepted')", (game_id,))
        return None if row is None else _challenge(row)

    async def open_challenge_to(self, channel_id: int, opponent_id: int) -> ChallengeRow | None:
        row = await self._one(
            "SELECT * FROM challenges WHERE channel_id = ? AND opponent_id = ? AND status = 'open'"
            " ORDER BY id DESC LIMIT 1",
            (channel_id, opponent_id),
        )
        return None if row is None else _challenge(row)

    async def close_challenge(self, challenge_id: int, status: str, game_id: int | None = None) -> bool:
        cur = await self._run(
            "UPDATE challenges SET status = ?, game_id = ? WHERE id = ? AND status = 'open'",
            (status, game_id, challenge_id),
        )
        return cur.rowcount == 1

    # -- games -----------------------------------------------------------------------
    async def insert_game(
        self, *, guild_id: int, channel_id: int, parent_id: int | None, game: str, size: int,
        variants: tuple[str, ...], first: str | None, seed: int, seat0_id: int, seat1_id: int, rated: bool,
        challenge_id: int | None, now: float, clock: str = "none", deadline: float | None = None,
        ai_level: str | None = None,
    ) -> GameRow:
        cur = await self._run(
            "INSERT INTO games (guild_id, channel_id, parent_id, game, size, variants, first, seed, seat0_id,"
            " seat1_id, rated, challenge_id, created_at, updated_at, clock, deadline, ai_level)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (guild_id, channel_id, parent_id, game, size, " ".join(variants), first, seed, seat0_id, seat1_id,
             int(rated), challenge_id, now, now, clock, deadline, ai_level),
        )
        row = await self.get_game(_new_id(cur))
        assert row is not None
        return row

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def lock_game(self, game_id: int) -> tuple[GameRow, tuple[int, int]] | None:
        # BEGIN IMMEDIATE already holds the whole file's write lock; reading inside it is enough.
        if self._owner is not asyncio.current_task():
            raise RuntimeError("lock_game must run inside Store.transaction()")
        row = await self.get_game(game_id)
        return None if row is None else (row, await self.game_version(game_id))

    async def lock_game_in(self, channel_id: int) -> tuple[GameRow, tuple[int, int]] | None:
        if self._owner is not asyncio.current_task():
            raise RuntimeError("lock_game_in must run inside Store.transaction()")
        # The row and its version in one statement (see game_version).
        row = await self._one(
            "SELECT g.*, (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id) AS version_actions,"
            " (SELECT COALESCE(SUM(a.taken_back), 0) FROM actions a WHERE a.game_id = g.id) AS version_taken_back"
            " FROM games g WHERE g.channel_id = ? AND g.status = 'active'",
            (channel_id,),
        )
        if row is None:
            return None
        d = dict(row)
        version = (d.pop("version_actions"), d.pop("version_taken_back"))
        return _game(d), version

    async def game_version(self, game_id: int) -> tuple[int, int]:
        row = await self._one(
            "SELECT COUNT(*), COALESCE(SUM(taken_back), 0) FROM actions WHERE game_id = ?", (game_id,)
        )
        assert row is not None
        return (row[0], row[1])

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,))
        return None if row is None else _game(row)

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        if guild_id is None:
            rows = await self._all("SELECT * FROM games WHERE status = 'active' ORDER BY id")
        else:
            rows = await self._all("SELECT * FROM games WHERE guild_id = ? AND status = 'active' ORDER BY id", (guild_id,))
        return [_game(r) for r in rows]

    async def finished_games(self, guild_id: int, user_id: int | None = None, limit: int = 10) -> list[GameRow]:
        if user_id is None:
            rows = await self._all(
                "SELECT * FROM games WHERE guild_id = ? AND status != 'active' ORDER BY finished_at DESC, id DESC LIMIT ?",
                (guild_id, limit),
            )
        else:
            rows = await self._all(
                "SELECT * FROM games WHERE guild_id = ? AND status != 'active' AND (seat0_id = ? OR seat1_id = ?)"
                " ORDER BY finished_at DESC, id DESC LIMIT ?",
                (guild_id, user_id, user_id, limit),
            )
        return [_game(r) for r in rows]

    async def actions(self, game_id: int) -> list[str]:
        rows = await self._all(
            "SELECT action FROM actions WHERE game_id = ? AND taken_back = 0 ORDER BY seq", (game_id,)
        )
        return [r[0] for r in rows]

    async def action_users(self, game_id: int) -> list[tuple[str, int]]:
        rows = await self._all(
            "SELECT action, user_id FROM actions WHERE game_id = ? AND taken_back = 0 ORDER BY seq", (game_id,)
        )
        return [(r[0], r[1]) for r in rows]

    async def action_rows(self, game_id: int) -> list[tuple[int, str, int, bool]]:
        rows = await self._all(
            "SELECT seq, action, user_id, taken_back FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [(r[0], r[1], r[2], bool(r[3])) for r in rows]

    async def next_seq(self, game_id: int) -> int:
        return await self._scalar("SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id = ?", (game_id,))

    async def mark_taken_back(self, game_id: int, seqs: list[int]) -> None:
        for seq in seqs:
            await self._run("UPDATE actions SET taken_back = 1 WHERE game_id = ? AND seq = ?", (game_id, seq))

    async def set_deadline(self, game_id: int, deadline: float | None) -> None:
        await self._run("UPDATE games SET deadline = ? WHERE id = ?", (deadline, game_id))

    async def append_actions(self, game_id: int, first_seq: int, actions: list[str], user_id: int, now: float) -> None:
        for offset, action in enumerate(actions):
            await self._run(
                "INSERT INTO actions (game_id, seq, action, user_id, created_at) VALUES (?,?,?,?,?)",
                (game_id, first_seq + offset, action, user_id, now),
            )
        await self._run("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))

    async def finish_game(
        self, game_id: int, *, status: str, winner_seat: int | None, reason: str | None, now: float
    ) -> bool:
        cur = await self._run(
            "UPDATE games SET status = ?, winner_seat = ?, reason = ?, finished_at = ?, updated_at = ?"
            " WHERE id = ? AND status = 'active'",
            (status, winner_seat, reason, now, now, game_id),
        )
        return cur.rowcount == 1

    # -- takebacks -------------------------------------------------------------------
    async def insert_takeback(self, game_id: int, requester_id: int, last_seq: int, now: float) -> TakebackRow:
        cur = await self._run(
            "INSERT INTO takebacks (game_id, requester_id, last_seq, created_at) VALUES (?,?,?,?)",
            (game_id, requester_id, last_seq, now),
        )
        row = await self.get_takeback(_new_id(cur))
        assert row is not None
        return row

    async def get_takeback(self, takeback_id: int) -> TakebackRow | None:
        row = await self._one("SELECT * FROM takebacks WHERE id = ?", (takeback_id,))
        return None if row is None else TakebackRow(**dict(row))

    async def close_takeback(self, takeback_id: int, status: str, undone: str = "") -> bool:
        cur = await self._run(
            "UPDATE takebacks SET status = ?, undone = ? WHERE id = ? AND status = 'open'", (status, undone, takeback_id)
        )
        return cur.rowcount == 1

    async def open_takeback(self, game_id: int, requester_id: int, last_seq: int) -> TakebackRow | None:
        row = await self._one(
            "SELECT * FROM takebacks WHERE game_id = ? AND requester_id = ? AND last_seq = ? AND status = 'open'",
            (game_id, requester_id, last_seq),
        )
        return None if row is None else TakebackRow(**dict(row))

    async def takebacks_of(self, game_id: int) -> list[TakebackRow]:
        rows = await self._all("SELECT * FROM takebacks WHERE game_id = ? AND status = 'accepted' ORDER BY id", (game_id,))
        return [TakebackRow(**dict(r)) for r in rows]

    # -- settings ----------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if row is None:
            return GuildSettings(guild_id)
        d = dict(row)
        d["always_thread"] = bool(d["always_thread"])
        return GuildSettings(**d)

    async def put_guild_settings(self, s: GuildSettings) -> None:
        async with self.transaction():
            await self._run(
                "INSERT OR REPLACE INTO guild_settings (guild_id, default_clock, challenge_minutes, always_thread)"
                " VALUES (?,?,?,?)",
                (s.guild_id, s.default_clock, s.challenge_minutes, int(s.always_thread)),
            )

    async def wants_dm(self, user_id: int) -> bool:
        row = await self._one("SELECT dm FROM notify WHERE user_id = ?", (user_id,))
        return bool(row and row[0])

    async def set_dm(self, user_id: int, dm: bool) -> None:
        async with self.transaction():
            await self._run("INSERT OR REPLACE INTO notify (user_id, dm) VALUES (?, ?)", (user_id, int(dm)))

    # -- ratings ---------------------------------------------------------------------
    async def get_rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        row = await self._one(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?", (guild_id, game, user_id)
        )
        return None if row is None else RatingRow(**dict(row))

    async def lock_ratings(self, guild_id: int, game: str, user_ids: Iterable[int], now: float) -> None:
        pass  # BEGIN IMMEDIATE holds the whole file: nothing else writes until COMMIT

    async def put_rating(self, r: RatingRow) -> None:
        await self._run(
            "INSERT OR REPLACE INTO ratings (guild_id, game, user_id, rating, deviation, volatility, games, wins,"
            " losses, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (r.guild_id, r.game, r.user_id, r.rating, r.deviation, r.volatility, r.games, r.wins, r.losses,
             r.updated_at),
        )

    async def add_rating_change(self, game_id: int, user_id: int, before: float, after: float) -> None:
        await self._run(
            "INSERT INTO rating_changes (game_id, user_id, before, after) VALUES (?,?,?,?)",
            (game_id, user_id, before, after),
        )

    async def rating_changes(self, game_id: int) -> dict[int, tuple[float, float]]:
        rows = await self._all("SELECT user_id, before, after FROM rating_changes WHERE game_id = ?", (game_id,))
        return {r[0]: (r[1], r[2]) for r in rows}

    async def leaderboard(self, guild_id: int, game: str, limit: int = 20) -> list[RatingRow]:
        rows = await self._all(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND games > 0"
            " ORDER BY rating DESC, games DESC, user_id LIMIT ?",
            (guild_id, game, limit),
        )
        return [RatingRow(**dict(r)) for r in rows]

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._all(
            "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY game", (guild_id, user_id)
        )
        return [RatingRow(**dict(r)) for r in rows]

    async def player_record(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int, int]]:
        rows = await self._all(
            "SELECT game, COUNT(*),"
            " SUM(CASE WHEN (winner_seat = 0 AND seat0_id = ?) OR (winner_seat = 1 AND seat1_id = ?) THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN winner_seat IS NOT NULL AND NOT ((winner_seat = 0 AND seat0_id = ?) OR (winner_seat = 1 AND seat1_id = ?)) THEN 1 ELSE 0 END)"
            " FROM games WHERE guild_id = ? AND status = 'finished' AND (seat0_id = ? OR seat1_id = ?) GROUP BY game",
            (user_id, user_id, user_id, user_id, guild_id, user_id, user_id),
        )
        return {r[0]: (r[1], r[2] or 0, r[3] or 0) for r in rows}

    # -- timers ------------------------------------------------------------------------
    async def add_timer(self, due_at: float, kind: str, ref_id: int, payload: str = "{}", *,
                        guild_id: int | None = None) -> int:
        cur = await self._run(
            "INSERT INTO timers (due_at, kind, ref_id, payload, guild_id) VALUES (?,?,?,?,?)",
            (due_at, kind, ref_id, payload, guild_id),
        )
        return _new_id(cur)

    @staticmethod
    def _shard_filter(shards: ShardPlan | None) -> str:
        if shards is None:
            return ""
        return (f" AND ((COALESCE(guild_id, 0) >> 22) % {int(shards.count)})"
                f" IN ({','.join(str(int(i)) for i in shards.ids)})")

    async def next_timer(self, shards: ShardPlan | None = None, now: float | None = None) -> TimerRow | None:
        unclaimed = "" if now is None else f" AND (claimed_until IS NULL OR claimed_until <= {float(now)!r})"
        row = await self._one(
            f"SELECT * FROM timers WHERE 1 = 1{unclaimed}{self._shard_filter(shards)} ORDER BY due_at, id LIMIT 1"
        )
        return None if row is None else TimerRow(**dict(row))

    async def due_timers(self, now: float) -> list[TimerRow]:
        rows = await self._all("SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id", (now,))
        return [TimerRow(**dict(r)) for r in rows]

    async def claim_timers(self, now: float, owner: str, lease: float, shards: ShardPlan | None = None,
                           limit: int = 50) -> list[TimerRow]:
        # BEGIN IMMEDIATE: the select and the update are one step for every process on the file.
        async with self.transaction():
            rows = await self._all(
                "SELECT id FROM timers WHERE due_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)"
                f"{self._shard_filter(shards)} ORDER BY due_at, id LIMIT ?",
                (now, now, limit),
            )
            ids = [r[0] for r in rows]
            for timer_id in ids:
                await self._run("UPDATE timers SET claimed_by = ?, claimed_until = ? WHERE id = ?",
                                (owner, now + lease, timer_id))
            if not ids:
                return []
            marks = ",".join("?" * len(ids))
            claimed = await self._all(f"SELECT * FROM timers WHERE id IN ({marks}) ORDER BY due_at, id", ids)
        return [TimerRow(**dict(r)) for r in claimed]

    async def release_timer_claims(self) -> int:
        async with self.transaction():
            cur = await self._run("UPDATE timers SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by IS NOT NULL")
            return cur.rowcount

    async def delete_timer(self, timer_id: int, owner: str | None = None) -> bool:
        if owner is None:
            cur = await self._run("DELETE FROM timers WHERE id = ?", (timer_id,))
        else:
            cur = await self._run("DELETE FROM timers WHERE id = ? AND claimed_by = ?", (timer_id, owner))
        return cur.rowcount == 1

    async def timer_exists(self, timer_id: int, owner: str | None = None) -> bool:
        if owner is None:
            return await self._one("SELECT 1 FROM timers WHERE id = ?", (timer_id,)) is not None
        return await self._one("SELECT 1 FROM timers WHERE id = ? AND claimed_by = ?", (timer_id, owner)) is not None

    async def delete_timers(self, kind: str, ref_id: int) -> None:
        await self._run("DELETE FROM timers WHERE kind = ? AND ref_id = ?", (kind, ref_id))

    async def end_timers(self, ref_id: int, kinds: Iterable[str]) -> None:
        kinds = tuple(kinds)
        await self._run(f"DELETE FROM timers WHERE ref_id = ? AND kind IN ({','.join('?' * len(kinds))})"
                        " AND claimed_by IS NULL", (ref_id, *kinds))

    async def replace_timers(self, ref_id: int, kinds: Iterable[str], timers: Iterable[tuple[float, str, str]], *,
                             guild_id: int | None = None) -> None:
        kinds = tuple(kinds)
        await self._run(f"DELETE FROM timers WHERE ref_id = ? AND kind IN ({','.join('?' * len(kinds))})",
                        (ref_id, *kinds))
        # one trip to aiosqlite's thread for every row (_run above checked the transaction)
        await self._db.executemany(
            "INSERT INTO timers (due_at, kind, ref_id, payload, guild_id) VALUES (?,?,?,?,?)",
            [(due_at, kind, ref_id, payload, guild_id) for due_at, kind, payload in timers],
        )

    # -- players -----------------------------------------------------------------------
    async def remember_names(self, guild_id: int, names: dict[int, str], now: float) -> None:
        async with self.transaction():
            for user_id, name in names.items():
                await self._run(
                    "INSERT INTO players (guild_id, user_id, name, updated_at) VALUES (?,?,?,?)"
                    " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at",
                    (guild_id, user_id, storable_name(name), now),
                )

    async def names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = await self._all(
            f"SELECT user_id, name FROM players WHERE guild_id = ? AND user_id IN ({marks})", (guild_id, *ids)
        )
        return {r[0]: r[1] for r in rows}

    # -- maintenance -------------------------------------------------------------------
    async def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` answer (``ok`` when sound)."""
        row = await self._one("PRAGMA integrity_check")
        return row[0] if row else "no answer"

    async def backup(self, target: str | Path) -> None:
        """Copy the database to ``target`` with SQLite's online backup API."""
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        async with self._lock:
            dest = await aiosqlite.connect(str(target))
            try:
                await self._db.backup(dest)
            finally:
                await dest.close()
