"""The store on PostgreSQL through an asyncpg connection pool (``DATABASE_URL=postgresql://…``).

Same methods and rules as the SQLite store, for several bot processes on one database:

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
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

import asyncpg

from ..migrations import packaged
from ..shards import ShardPlan
from .base import COUNTED_TABLES, Conflict, Store, check_table, storable_name
from .rows import ChallengeRow, GameRow, GuildSettings, RatingRow, TakebackRow, TimerRow

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


def _rowcount(status: str) -> int:
    """Rows touched, from a command tag such as ``UPDATE 1`` or ``INSERT 0 1``."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _variants(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _challenge(row: asyncpg.Record) -> ChallengeRow:
    d = dict(row)
    d["variants"] = _variants(d["variants"])
    return ChallengeRow(**d)


def _game(row: asyncpg.Record) -> GameRow:
    d = dict(row)
    d["variants"] = _variants(d["variants"])
    return GameRow(**d)


class PostgresStore(Store):
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
        await self._pool.close()

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

    async def _run(self, sql: str, *args: Any) -> int:
        """Execute a write inside :meth:`transaction`; the number of rows it touched."""
        conn = self._conn()
        if conn is None:
            raise RuntimeError("writes must run inside Store.transaction()")
        try:
            return _rowcount(await conn.execute(sql, *args))
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def _val(self, sql: str, *args: Any) -> Any:
        conn = self._conn()
        if conn is not None:
            return await conn.fetchval(sql, *args)
        return await self._pool.fetchval(sql, *args)

    async def _all(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        conn = self._conn()
        if conn is not None:
            return await conn.fetch(sql, *args)
        return await self._pool.fetch(sql, *args)

    async def _one(self, sql: str, *args: Any) -> asyncpg.Record | None:
        conn = self._conn()
        if conn is not None:
            return await conn.fetchrow(sql, *args)
        return await self._pool.fetchrow(sql, *args)

    # -- whole tables (copy-db) -----------------------------------------------------
    async def count_rows(self, table: str) -> int:
        """How many rows a table of the bot holds."""
        return int(await self._val(f'SELECT COUNT(*) FROM "{check_table(table)}"'))

    async def table_rows(self, table: str) -> list[dict[str, object]]:
        """Every row of a table of the bot as column → value, in primary-key order."""
        return [dict(r) for r in await self._all(f'SELECT * FROM "{check_table(table)}" ORDER BY 1, 2')]

    async def insert_rows(self, table: str, rows: list[dict[str, object]]) -> None:
        """Insert rows as they are, ids included; SQLite's 0/1 become booleans where the column is one."""
        if not rows:
            return
        types = {r[0]: r[1] for r in await self._all(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1", check_table(table))}
        columns = list(rows[0])
        names = ", ".join(f'"{c}"' for c in columns)
        marks = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
        conn = self._conn()
        if conn is None:
            raise RuntimeError("writes must run inside Store.transaction()")
        records = [tuple(bool(row[c]) if types.get(c) == "boolean" and row[c] is not None else row[c]
                         for c in columns) for row in rows]
        await conn.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', records)

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
                f" GREATEST(COALESCE((SELECT MAX(id) FROM {table}), 0), $1) + 1, false)",
                (high_water or {}).get(table, 0),
            )

    # -- meta ----------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        """A stored setting of the bot itself (e.g. the command-definition hash)."""
        return await self._val("SELECT value FROM meta WHERE key = $1", key)

    async def set_meta(self, key: str, value: str) -> None:
        """Store a setting of the bot itself."""
        async with self.transaction():
            await self._run(
                "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key, value,
            )

    async def delete_meta(self, key: str) -> None:
        """Forget a setting of the bot itself."""
        async with self.transaction():
            await self._run("DELETE FROM meta WHERE key = $1", key)

    # -- challenges ------------------------------------------------------------------
    async def insert_challenge(
        self, *, guild_id: int, channel_id: int, challenger_id: int, opponent_id: int, game: str, size: int,
        variants: tuple[str, ...], seat: str, rated: bool, thread: bool, created_at: float, expires_at: float,
        clock: str = "3d", rematch_of: int | None = None,
    ) -> ChallengeRow:
        """Record a new open challenge (inside a transaction)."""
        self._require_tx()
        row = await self._one(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, game, size, variants,"
            " seat, rated, thread, created_at, expires_at, clock, rematch_of)"
            " VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14) RETURNING *",
            guild_id, channel_id, challenger_id, opponent_id, game, size, " ".join(variants), seat,
            rated, thread, created_at, expires_at, clock, rematch_of,
        )
        assert row is not None
        return _challenge(row)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        """A challenge by id."""
        row = await self._one("SELECT * FROM challenges WHERE id = $1", challenge_id)
        return None if row is None else _challenge(row)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember which message shows the challenge (to edit it later)."""
        async with self.transaction():
            await self._run("UPDATE challenges SET message_id = $1 WHERE id = $2", message_id, challenge_id)

    async def rematch_of(self, game_id: int) -> ChallengeRow | None:
        """The rematch challenge of a game that is open or was accepted, if any."""
        row = await self._one(
            "SELECT * FROM challenges WHERE rematch_of = $1 AND status IN ('open', 'accepted')", game_id)
        return None if row is None else _challenge(row)

    async def open_challenge_to(self, channel_id: int, opponent_id: int) -> ChallengeRow | None:
        """The newest open challenge addressed to ``opponent_id`` in a channel."""
        row = await self._one(
            "SELECT * FROM challenges WHERE channel_id = $1 AND opponent_id = $2 AND status = 'open'"
            " ORDER BY id DESC LIMIT 1",
            channel_id, opponent_id,
        )
        return None if row is None else _challenge(row)

    async def close_challenge(self, challenge_id: int, status: str, game_id: int | None = None) -> bool:
        """Move an open challenge to ``status``; False if it was no longer open (a race lost)."""
        return await self._run(
            "UPDATE challenges SET status = $1, game_id = $2 WHERE id = $3 AND status = 'open'",
            status, game_id, challenge_id,
        ) == 1

    # -- games -----------------------------------------------------------------------
    async def insert_game(
        self, *, guild_id: int, channel_id: int, parent_id: int | None, game: str, size: int,
        variants: tuple[str, ...], first: str | None, seed: int, seat0_id: int, seat1_id: int, rated: bool,
        challenge_id: int | None, now: float, clock: str = "none", deadline: float | None = None,
        ai_level: str | None = None,
    ) -> GameRow:
        """Record a new game in progress (inside a transaction)."""
        self._require_tx()
        try:
            row = await self._one(
                "INSERT INTO games (guild_id, channel_id, parent_id, game, size, variants, first, seed, seat0_id,"
                " seat1_id, rated, challenge_id, created_at, updated_at, clock, deadline, ai_level)"
                " VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$13,$14,$15,$16) RETURNING *",
                guild_id, channel_id, parent_id, game, size, " ".join(variants), first, seed, seat0_id, seat1_id,
                rated, challenge_id, now, clock, deadline, ai_level,
            )
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc
        assert row is not None
        return _game(row)

    async def get_game(self, game_id: int) -> GameRow | None:
        """A game by id."""
        row = await self._one("SELECT * FROM games WHERE id = $1", game_id)
        return None if row is None else _game(row)

    async def lock_game(self, game_id: int) -> tuple[GameRow, tuple[int, int]] | None:
        """Hold a game's row to the end of the transaction (SELECT … FOR UPDATE); the row and its
        version: (stored actions, taken-back actions), which every change of the record raises."""
        self._require_tx()
        row = await self._one("SELECT * FROM games WHERE id = $1 FOR UPDATE", game_id)
        if row is None:
            return None
        return _game(row), await self.game_version(game_id)

    async def lock_game_in(self, channel_id: int) -> tuple[GameRow, tuple[int, int]] | None:
        """The game in progress in a channel or thread, held like :meth:`lock_game`, and its version."""
        self._require_tx()
        row = await self._one("SELECT * FROM games WHERE channel_id = $1 AND status = 'active' FOR UPDATE", channel_id)
        if row is None:
            return None
        # The version in a statement of its own, after the row is held: under READ COMMITTED a
        # statement that waited for the lock still reads other tables as of its start, so a count
        # in the same statement could miss actions the previous holder committed.
        return _game(row), await self.game_version(row["id"])

    async def game_version(self, game_id: int) -> tuple[int, int]:
        """(stored actions, taken-back actions) of a game: changes whenever its record does."""
        row = await self._one(
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE taken_back) FROM actions WHERE game_id = $1", game_id
        )
        assert row is not None
        return (row[0], row[1])

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        """The game in progress in a channel or thread, if any."""
        row = await self._one("SELECT * FROM games WHERE channel_id = $1 AND status = 'active'", channel_id)
        return None if row is None else _game(row)

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        """Games in progress (in one server, or everywhere), oldest first."""
        if guild_id is None:
            rows = await self._all("SELECT * FROM games WHERE status = 'active' ORDER BY id")
        else:
            rows = await self._all("SELECT * FROM games WHERE guild_id = $1 AND status = 'active' ORDER BY id", guild_id)
        return [_game(r) for r in rows]

    async def finished_games(self, guild_id: int, user_id: int | None = None, limit: int = 10) -> list[GameRow]:
        """Recently ended games in a server (optionally of one player), newest first."""
        if user_id is None:
            rows = await self._all(
                "SELECT * FROM games WHERE guild_id = $1 AND status <> 'active'"
                " ORDER BY finished_at DESC, id DESC LIMIT $2",
                guild_id, limit,
            )
        else:
            # Two index scans (one per seat) merged, instead of an OR that scans the server.
            rows = await self._all(
                "SELECT * FROM ((SELECT * FROM games WHERE guild_id = $1 AND status <> 'active' AND seat0_id = $2"
                "   ORDER BY finished_at DESC LIMIT $3)"
                " UNION (SELECT * FROM games WHERE guild_id = $1 AND status <> 'active' AND seat1_id = $2"
                "   ORDER BY finished_at DESC LIMIT $3)) g ORDER BY finished_at DESC, id DESC LIMIT $3",
                guild_id, user_id, limit,
            )
        return [_game(r) for r in rows]

    async def actions(self, game_id: int) -> list[str]:
        """A game's actions in order (its engine record), without taken-back ones."""
        rows = await self._all(
            "SELECT action FROM actions WHERE game_id = $1 AND NOT taken_back ORDER BY seq", game_id
        )
        return [r[0] for r in rows]

    async def action_users(self, game_id: int) -> list[tuple[str, int]]:
        """A game's actions with the user who made each, in order (without taken-back ones)."""
        rows = await self._all(
            "SELECT action, user_id FROM actions WHERE game_id = $1 AND NOT taken_back ORDER BY seq", game_id
        )
        return [(r[0], r[1]) for r in rows]

    async def action_rows(self, game_id: int) -> list[tuple[int, str, int, bool]]:
        """Every stored action of a game as (seq, action, user id, taken back), in order."""
        rows = await self._all(
            "SELECT seq, action, user_id, taken_back FROM actions WHERE game_id = $1 ORDER BY seq", game_id
        )
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    async def next_seq(self, game_id: int) -> int:
        """The sequence number the next action of a game gets."""
        return await self._val("SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id = $1", game_id)

    async def mark_taken_back(self, game_id: int, seqs: list[int]) -> None:
        """Mark actions as undone by a takeback (inside a transaction); they stay in the table."""
        await self._run("UPDATE actions SET taken_back = TRUE WHERE game_id = $1 AND seq = ANY($2::int[])",
                        game_id, seqs)

    async def set_deadline(self, game_id: int, deadline: float | None) -> None:
        """When the players to move run out of time (inside a transaction)."""
        await self._run("UPDATE games SET deadline = $1 WHERE id = $2", deadline, game_id)

    async def append_actions(self, game_id: int, first_seq: int, actions: list[str], user_id: int, now: float) -> None:
        """Append actions at ``first_seq``…; the primary key refuses a sequence number twice."""
        for offset, action in enumerate(actions):
            await self._run(
                "INSERT INTO actions (game_id, seq, action, user_id, created_at) VALUES ($1,$2,$3,$4,$5)",
                game_id, first_seq + offset, action, user_id, now,
            )
        await self._run("UPDATE games SET updated_at = $1 WHERE id = $2", now, game_id)

    async def finish_game(
        self, game_id: int, *, status: str, winner_seat: int | None, reason: str | None, now: float
    ) -> bool:
        """Record how a game ended (status finished or aborted); False if it had already ended."""
        return await self._run(
            "UPDATE games SET status = $1, winner_seat = $2, reason = $3, finished_at = $4, updated_at = $4"
            " WHERE id = $5 AND status = 'active'",
            status, winner_seat, reason, now, game_id,
        ) == 1

    # -- takebacks -------------------------------------------------------------------
    async def insert_takeback(self, game_id: int, requester_id: int, last_seq: int, now: float) -> TakebackRow:
        """Record an open takeback request (inside a transaction)."""
        self._require_tx()
        row = await self._one(
            "INSERT INTO takebacks (game_id, requester_id, last_seq, created_at) VALUES ($1,$2,$3,$4) RETURNING *",
            game_id, requester_id, last_seq, now,
        )
        assert row is not None
        return TakebackRow(**dict(row))

    async def get_takeback(self, takeback_id: int) -> TakebackRow | None:
        """A takeback request by id."""
        row = await self._one("SELECT * FROM takebacks WHERE id = $1", takeback_id)
        return None if row is None else TakebackRow(**dict(row))

    async def close_takeback(self, takeback_id: int, status: str, undone: str = "") -> bool:
        """Close an open takeback request; False if it was no longer open."""
        return await self._run(
            "UPDATE takebacks SET status = $1, undone = $2 WHERE id = $3 AND status = 'open'",
            status, undone, takeback_id,
        ) == 1

    async def open_takeback(self, game_id: int, requester_id: int, last_seq: int) -> TakebackRow | None:
        """An open request of this player for the same turn, if they already asked."""
        row = await self._one(
            "SELECT * FROM takebacks WHERE game_id = $1 AND requester_id = $2 AND last_seq = $3 AND status = 'open'",
            game_id, requester_id, last_seq,
        )
        return None if row is None else TakebackRow(**dict(row))

    async def takebacks_of(self, game_id: int) -> list[TakebackRow]:
        """Accepted takebacks of a game, oldest first (for its record)."""
        rows = await self._all(
            "SELECT * FROM takebacks WHERE game_id = $1 AND status = 'accepted' ORDER BY id", game_id
        )
        return [TakebackRow(**dict(r)) for r in rows]

    # -- settings ----------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults when never set)."""
        row = await self._one("SELECT * FROM guild_settings WHERE guild_id = $1", guild_id)
        return GuildSettings(guild_id) if row is None else GuildSettings(**dict(row))

    async def put_guild_settings(self, s: GuildSettings) -> None:
        """Store a server's settings."""
        async with self.transaction():
            await self._run(
                "INSERT INTO guild_settings (guild_id, default_clock, challenge_minutes, always_thread)"
                " VALUES ($1,$2,$3,$4) ON CONFLICT (guild_id) DO UPDATE SET default_clock = excluded.default_clock,"
                " challenge_minutes = excluded.challenge_minutes, always_thread = excluded.always_thread",
                s.guild_id, s.default_clock, s.challenge_minutes, s.always_thread,
            )

    async def wants_dm(self, user_id: int) -> bool:
        """Whether a player asked for reminders by direct message."""
        return bool(await self._val("SELECT dm FROM notify WHERE user_id = $1", user_id))

    async def set_dm(self, user_id: int, dm: bool) -> None:
        """Remember how a player wants reminders."""
        async with self.transaction():
            await self._run(
                "INSERT INTO notify (user_id, dm) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm",
                user_id, dm,
            )

    # -- ratings ---------------------------------------------------------------------
    async def get_rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        """A player's rating for a game in a server, if they have played it rated."""
        row = await self._one(
            "SELECT * FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = $3", guild_id, game, user_id
        )
        return None if row is None else RatingRow(**dict(row))

    async def lock_ratings(self, guild_id: int, game: str, user_ids: Iterable[int], now: float) -> None:
        """Hold some players' rating rows to the end of the transaction, always in user-id order
        (two games finishing at once then never wait on each other in a circle)."""
        ids = sorted(set(user_ids))
        await self._all(
            "SELECT 1 FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = ANY($3::bigint[])"
            " ORDER BY user_id FOR UPDATE",
            guild_id, game, ids,
        )

    async def put_rating(self, r: RatingRow) -> None:
        """Insert or replace a rating (inside a transaction)."""
        await self._run(
            "INSERT INTO ratings (guild_id, game, user_id, rating, deviation, volatility, games, wins, losses,"
            " updated_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON CONFLICT (guild_id, game, user_id) DO UPDATE"
            " SET rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility,"
            " games = excluded.games, wins = excluded.wins, losses = excluded.losses, updated_at = excluded.updated_at",
            r.guild_id, r.game, r.user_id, r.rating, r.deviation, r.volatility, r.games, r.wins, r.losses,
            r.updated_at,
        )

    async def add_rating_change(self, game_id: int, user_id: int, before: float, after: float) -> None:
        """Remember how a game moved a player's rating (inside a transaction)."""
        await self._run(
            "INSERT INTO rating_changes (game_id, user_id, before, after) VALUES ($1,$2,$3,$4)",
            game_id, user_id, before, after,
        )

    async def rating_changes(self, game_id: int) -> dict[int, tuple[float, float]]:
        """user id → (before, after) for a rated game."""
        rows = await self._all("SELECT user_id, before, after FROM rating_changes WHERE game_id = $1", game_id)
        return {r[0]: (r[1], r[2]) for r in rows}

    async def leaderboard(self, guild_id: int, game: str, limit: int = 20) -> list[RatingRow]:
        """A server's rated players of a game, best rating first."""
        rows = await self._all(
            "SELECT * FROM ratings WHERE guild_id = $1 AND game = $2 AND games > 0"
            " ORDER BY rating DESC, games DESC, user_id LIMIT $3",
            guild_id, game, limit,
        )
        return [RatingRow(**dict(r)) for r in rows]

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """A player's ratings in a server, one per game."""
        rows = await self._all(
            "SELECT * FROM ratings WHERE guild_id = $1 AND user_id = $2 ORDER BY game", guild_id, user_id
        )
        return [RatingRow(**dict(r)) for r in rows]

    async def player_record(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int, int]]:
        """game → (finished games, wins, losses) of a player in a server, rated or not."""
        rows = await self._all(
            "SELECT game, COUNT(*),"
            " COUNT(*) FILTER (WHERE (winner_seat = 0 AND seat0_id = $2) OR (winner_seat = 1 AND seat1_id = $2)),"
            " COUNT(*) FILTER (WHERE winner_seat IS NOT NULL"
            "   AND NOT ((winner_seat = 0 AND seat0_id = $2) OR (winner_seat = 1 AND seat1_id = $2)))"
            " FROM (SELECT * FROM games WHERE guild_id = $1 AND status = 'finished' AND seat0_id = $2"
            "       UNION ALL SELECT * FROM games WHERE guild_id = $1 AND status = 'finished' AND seat1_id = $2"
            "       AND seat0_id <> $2) g GROUP BY game",
            guild_id, user_id,
        )
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    # -- timers ------------------------------------------------------------------------
    async def add_timer(self, due_at: float, kind: str, ref_id: int, payload: str = "{}", *,
                        guild_id: int | None = None) -> int:
        """Schedule a timed event (inside a transaction); returns its id, never one used before."""
        self._require_tx()
        timer_id = await self._val(
            "INSERT INTO timers (due_at, kind, ref_id, payload, guild_id) VALUES ($1,$2,$3,$4,$5) RETURNING id",
            due_at, kind, ref_id, payload, guild_id,
        )
        # Wakes the timer drivers of every process at COMMIT (LISTEN hexcord_timers).
        await self._val("SELECT pg_notify($1, $2)", TIMER_CHANNEL, str(due_at))
        return timer_id

    @staticmethod
    def _shard_filter(shards: ShardPlan | None, first: int) -> tuple[str, list[Any]]:
        """An extra WHERE condition (parameters from ``$first``) keeping these shards' servers."""
        if shards is None:
            return "", []
        return (f" AND ((COALESCE(guild_id, 0) >> 22) % ${first}) = ANY(${first + 1}::int[])",
                [shards.count, list(shards.ids)])

    async def next_timer(self, shards: ShardPlan | None = None, now: float | None = None) -> TimerRow | None:
        """The earliest scheduled event (of these shards' servers; not claimed by anyone at ``now``)."""
        where, args = self._shard_filter(shards, 2)
        row = await self._one(
            "SELECT * FROM timers WHERE ($1::float8 IS NULL OR claimed_until IS NULL OR claimed_until <= $1)"
            f"{where} ORDER BY due_at, id LIMIT 1",
            now, *args,
        )
        return None if row is None else TimerRow(**dict(row))

    async def due_timers(self, now: float) -> list[TimerRow]:
        """Every event due at or before ``now``, earliest first."""
        rows = await self._all("SELECT * FROM timers WHERE due_at <= $1 ORDER BY due_at, id", now)
        return [TimerRow(**dict(r)) for r in rows]

    async def claim_timers(self, now: float, owner: str, lease: float, shards: ShardPlan | None = None,
                           limit: int = 50) -> list[TimerRow]:
        """Claim due events for ``owner`` until ``now + lease``; rows another process is claiming
        right now are skipped (SKIP LOCKED), rows it holds a live lease on are not due for us."""
        where, args = self._shard_filter(shards, 5)
        async with self.transaction():
            rows = await self._all(
                "UPDATE timers SET claimed_by = $1, claimed_until = $2 + $3 WHERE id IN ("
                " SELECT id FROM timers WHERE due_at <= $2 AND (claimed_until IS NULL OR claimed_until <= $2)"
                f"{where} ORDER BY due_at, id LIMIT $4 FOR UPDATE SKIP LOCKED) RETURNING *",
                owner, now, lease, limit, *args,
            )
        return sorted((TimerRow(**dict(r)) for r in rows), key=lambda t: (t.due_at, t.id))

    async def release_timer_claims(self) -> int:
        """Drop every claim (a lone process starting: whoever held them is gone); how many."""
        async with self.transaction():
            return await self._run(
                "UPDATE timers SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by IS NOT NULL"
            )

    async def delete_timer(self, timer_id: int, owner: str | None = None) -> bool:
        """Remove one event (inside a transaction); with ``owner``, only while it holds the claim."""
        if owner is None:
            return await self._run("DELETE FROM timers WHERE id = $1", timer_id) == 1
        return await self._run("DELETE FROM timers WHERE id = $1 AND claimed_by = $2", timer_id, owner) == 1

    async def timer_exists(self, timer_id: int, owner: str | None = None) -> bool:
        """Whether an event is still waiting (with ``owner``: and still claimed by it)."""
        if owner is None:
            return await self._one("SELECT 1 FROM timers WHERE id = $1", timer_id) is not None
        return await self._one("SELECT 1 FROM timers WHERE id = $1 AND claimed_by = $2", timer_id, owner) is not None

    async def delete_timers(self, kind: str, ref_id: int) -> None:
        """Remove every event of a kind about one thing (inside a transaction)."""
        await self._run("DELETE FROM timers WHERE kind = $1 AND ref_id = $2", kind, ref_id)

    async def end_timers(self, ref_id: int, kinds: Iterable[str]) -> None:
        """Remove the unclaimed events of these kinds about one thing that ends (inside a transaction)."""
        await self._run("DELETE FROM timers WHERE ref_id = $1 AND kind = ANY($2::text[]) AND claimed_by IS NULL",
                        ref_id, list(kinds))

    async def replace_timers(self, ref_id: int, kinds: Iterable[str], timers: Iterable[tuple[float, str, str]], *,
                             guild_id: int | None = None) -> None:
        """Remove every event of these kinds about one thing and schedule ``timers`` instead (inside a transaction)."""
        await self._run("DELETE FROM timers WHERE ref_id = $1 AND kind = ANY($2::text[])", ref_id, list(kinds))
        rows = [(due_at, kind, ref_id, payload, guild_id) for due_at, kind, payload in timers]
        if rows:
            await self._run(
                "INSERT INTO timers (due_at, kind, ref_id, payload, guild_id)"
                " SELECT * FROM unnest($1::float8[], $2::text[], $3::bigint[], $4::text[], $5::bigint[])",
                *(list(column) for column in zip(*rows)),
            )
            # Wakes the timer drivers of every process at COMMIT (LISTEN hexcord_timers).
            await self._val("SELECT pg_notify($1, $2)", TIMER_CHANNEL, str(min(r[0] for r in rows)))

    # -- players -----------------------------------------------------------------------
    async def remember_names(self, guild_id: int, names: dict[int, str], now: float) -> None:
        """Store display names as last seen (inside or outside a transaction)."""
        async with self.transaction():
            for user_id, name in sorted(names.items()):
                await self._run(
                    "INSERT INTO players (guild_id, user_id, name, updated_at) VALUES ($1,$2,$3,$4)"
                    " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name,"
                    " updated_at = excluded.updated_at",
                    guild_id, user_id, storable_name(name), now,
                )

    async def names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """Display names last seen for some users (missing ones are left out)."""
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        rows = await self._all(
            "SELECT user_id, name FROM players WHERE guild_id = $1 AND user_id = ANY($2::bigint[])", guild_id, ids
        )
        return {r[0]: r[1] for r in rows}

    # -- maintenance -------------------------------------------------------------------
    async def integrity_check(self) -> str:
        """``ok`` when the server answers (PostgreSQL checks its pages itself)."""
        return "ok" if await self._val("SELECT 1") == 1 else "no answer"

    def _require_tx(self) -> None:
        if self._conn() is None:
            raise RuntimeError("writes must run inside Store.transaction()")
