"""Every SQL statement the two databases share, written once with named ``:name`` parameters.

:class:`SQLStore` implements the :class:`~bot.store.base.Store` methods whose SQL is the same on
SQLite and PostgreSQL. A backend (:mod:`bot.store.sqlite`, :mod:`bot.store.postgres`) adds only
what truly differs: its connection and transaction handling, how a statement's ``:name``
parameters reach its driver, and the few statements one database writes its own way (row locks,
claiming timers with ``SKIP LOCKED``, inserting many rows, id counters, plans that need another
query shape). Those are class attributes or methods of the backend, next to the rest of it.

Both databases read the same text: ``TRUE``/``NOT flag`` (SQLite ≥ 3.23 reads them as 1/0),
``INSERT … ON CONFLICT … DO UPDATE`` (≥ 3.24), ``COUNT(*) FILTER (…)`` (≥ 3.30), ``RETURNING``
(≥ 3.35). A list compared with a column is the one construct written per database, by
:meth:`SQLStore._any` (``IN (:a_0, :a_1, …)`` on SQLite, ``= ANY(:a::type[])`` on PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..shards import ShardPlan
from .base import check_table, storable_name
from .rows import (
    ChallengeRow,
    GameRow,
    GuildSettings,
    PuzzleRow,
    RatingRow,
    ReviewRow,
    ReviewValueRow,
    Sight,
    TakebackRow,
    TimerRow,
)
from .sql_driver import Row
from .sql_puzzles import PuzzleSQL
from .sql_tournaments import TournamentSQL


def challenge_row(row: Row) -> ChallengeRow:
    """A stored challenge as handed out (variants split, yes/no as bool whichever database)."""
    d = dict(row)
    d["variants"] = tuple(d["variants"].split())
    d["rated"], d["thread"] = bool(d["rated"]), bool(d["thread"])
    return ChallengeRow(**d)


def game_row(row: Row | dict[str, Any]) -> GameRow:
    """A stored game as handed out (variants split, ``rated`` as bool whichever database)."""
    d = dict(row)
    d["variants"] = tuple(d["variants"].split())
    d["rated"] = bool(d["rated"])
    return GameRow(**d)


#: a new timer (also the row shape of many inserted at once where the database takes a VALUES list)
INSERT_TIMER = "INSERT INTO timers (due_at, kind, ref_id, payload, guild_id) VALUES (:due_at, :kind, :ref_id, :payload, :guild_id)"


class SQLStore(PuzzleSQL, TournamentSQL):
    """The store methods whose SQL both databases share; a backend supplies the driver primitives
    (``_all``, ``_one``, ``_val``, ``_run``, ``_returning``, ``_write_one``, ``_require_tx``,
    ``_any``) and the statements it writes its own way."""

    #: a player's recently ended games in a server, newest first (:name parameters guild_id,
    #: user_id, limit; ``{seen}`` where :meth:`_seen_by`'s condition goes): each database needs
    #: its own query shape to use its indexes
    FINISHED_GAMES_OF: str = ""
    #: game → (finished games, wins, losses) of a player in a server (guild_id, user_id)
    PLAYER_RECORD: str = ""

    # -- statements a backend may write its own way ------------------------------------
    async def _insert_timers(self, rows: list[dict[str, Any]]) -> None:
        """Insert several timers (rows of :data:`INSERT_TIMER`'s parameters) in as few trips as the
        database allows (inside a transaction)."""
        await self._run_many(INSERT_TIMER, rows)

    async def _typed_rows(self, table: str, rows: list[dict[str, object]]) -> list[dict[str, object]]:
        """Rows of another database's ``table`` with values as this one's columns take them."""
        return rows

    async def _timers_added(self, due_at: float) -> None:
        """Tell other processes a timer due at ``due_at`` was added (at commit); nothing by default."""

    def _shard_filter(self, shards: ShardPlan | None) -> tuple[str, dict[str, Any]]:
        """An extra WHERE condition keeping these shards' servers, and its parameters."""
        if shards is None:
            return "", {}
        ids, params = self._any("((COALESCE(guild_id, 0) >> 22) % :shard_count)", "shard", list(shards.ids), "int")
        return f" AND {ids}", {"shard_count": int(shards.count), **params}

    # -- whole tables (copy-db) -----------------------------------------------------
    async def count_rows(self, table: str) -> int:
        """How many rows a table of the bot holds."""
        return int(await self._val(f'SELECT COUNT(*) FROM "{check_table(table)}"'))

    async def table_rows(self, table: str) -> list[dict[str, object]]:
        """Every row of a table of the bot as column → value, in primary-key order."""
        return [dict(r) for r in await self._all(f'SELECT * FROM "{check_table(table)}" ORDER BY 1, 2')]

    async def insert_rows(self, table: str, rows: list[dict[str, object]]) -> None:
        """Insert rows as they are, ids included (inside a transaction)."""
        self._require_tx()
        if not rows:
            return
        columns = list(rows[0])
        names = ", ".join(f'"{c}"' for c in columns)
        marks = ", ".join(f":c{i}" for i in range(len(columns)))
        await self._run_many(f'INSERT INTO "{check_table(table)}" ({names}) VALUES ({marks})',
                             [{f"c{i}": row[c] for i, c in enumerate(columns)}
                              for row in await self._typed_rows(table, rows)])

    # -- meta ----------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        """A stored setting of the bot itself (e.g. the command-definition hash)."""
        return await self._val("SELECT value FROM meta WHERE key = :key", key=key)

    async def set_meta(self, key: str, value: str) -> None:
        """Store a setting of the bot itself."""
        await self._write_one(
            "INSERT INTO meta (key, value) VALUES (:key, :value) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key=key, value=value,
        )

    async def delete_meta(self, key: str) -> None:
        """Forget a setting of the bot itself."""
        await self._write_one("DELETE FROM meta WHERE key = :key", key=key)

    # -- challenges ------------------------------------------------------------------
    async def insert_challenge(
        self, *, guild_id: int, channel_id: int, challenger_id: int, opponent_id: int, game: str, size: int,
        variants: tuple[str, ...], seat: str, rated: bool, thread: bool, created_at: float, expires_at: float,
        clock: str = "3d", rematch_of: int | None = None,
    ) -> ChallengeRow:
        """Record a new open challenge (inside a transaction)."""
        self._require_tx()
        return challenge_row(await self._returning(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, game, size, variants,"
            " seat, rated, thread, created_at, expires_at, clock, rematch_of) VALUES (:guild_id, :channel_id,"
            " :challenger_id, :opponent_id, :game, :size, :variants, :seat, :rated, :thread, :created_at,"
            " :expires_at, :clock, :rematch_of) RETURNING *",
            guild_id=guild_id, channel_id=channel_id, challenger_id=challenger_id, opponent_id=opponent_id,
            game=game, size=size, variants=" ".join(variants), seat=seat, rated=rated, thread=thread,
            created_at=created_at, expires_at=expires_at, clock=clock, rematch_of=rematch_of,
        ))

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        """A challenge by id."""
        row = await self._one("SELECT * FROM challenges WHERE id = :id", id=challenge_id)
        return None if row is None else challenge_row(row)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember which message shows the challenge (to edit it later)."""
        async with self.transaction():
            await self._run("UPDATE challenges SET message_id = :message_id WHERE id = :id",
                            message_id=message_id, id=challenge_id)

    async def rematch_of(self, game_id: int) -> ChallengeRow | None:
        """The rematch challenge of a game that is open or was accepted, if any."""
        row = await self._one(
            "SELECT * FROM challenges WHERE rematch_of = :game_id AND status IN ('open', 'accepted')", game_id=game_id)
        return None if row is None else challenge_row(row)

    async def open_challenge_to(self, channel_id: int, opponent_id: int) -> ChallengeRow | None:
        """The newest open challenge addressed to ``opponent_id`` in a channel."""
        row = await self._one(
            "SELECT * FROM challenges WHERE channel_id = :channel_id AND opponent_id = :opponent_id"
            " AND status = 'open' ORDER BY id DESC LIMIT 1",
            channel_id=channel_id, opponent_id=opponent_id,
        )
        return None if row is None else challenge_row(row)

    async def close_challenge(self, challenge_id: int, status: str, game_id: int | None = None) -> bool:
        """Move an open challenge to ``status``; False if it was no longer open (a race lost)."""
        return await self._run(
            "UPDATE challenges SET status = :status, game_id = :game_id WHERE id = :id AND status = 'open'",
            status=status, game_id=game_id, id=challenge_id,
        ) == 1

    async def open_challenges_around(self, guild_id: int, challenger_id: int, opponent_id: int,
                                     now: float) -> list[ChallengeRow]:
        """Open challenges of a server, not expired at ``now``, sent by one member or addressed to
        another (what the limits on challenges count), soonest to expire first."""
        rows = await self._all(
            "SELECT * FROM challenges WHERE guild_id = :guild_id AND status = 'open' AND expires_at > :now"
            " AND (challenger_id = :challenger_id OR opponent_id = :opponent_id) ORDER BY expires_at, id",
            guild_id=guild_id, now=now, challenger_id=challenger_id, opponent_id=opponent_id,
        )
        return [challenge_row(r) for r in rows]

    # -- games -----------------------------------------------------------------------
    async def insert_game(
        self, *, guild_id: int, channel_id: int, parent_id: int | None, game: str, size: int,
        variants: tuple[str, ...], first: str | None, seed: int, seat0_id: int, seat1_id: int, rated: bool,
        challenge_id: int | None, now: float, clock: str = "none", deadline: float | None = None,
        ai_level: str | None = None,
    ) -> GameRow:
        """Record a new game in progress (inside a transaction)."""
        self._require_tx()
        return game_row(await self._returning(
            "INSERT INTO games (guild_id, channel_id, parent_id, game, size, variants, first, seed, seat0_id,"
            " seat1_id, rated, challenge_id, created_at, updated_at, clock, deadline, ai_level) VALUES (:guild_id,"
            " :channel_id, :parent_id, :game, :size, :variants, :first, :seed, :seat0_id, :seat1_id, :rated,"
            " :challenge_id, :now, :now, :clock, :deadline, :ai_level) RETURNING *",
            guild_id=guild_id, channel_id=channel_id, parent_id=parent_id, game=game, size=size,
            variants=" ".join(variants), first=first, seed=seed, seat0_id=seat0_id, seat1_id=seat1_id, rated=rated,
            challenge_id=challenge_id, now=now, clock=clock, deadline=deadline, ai_level=ai_level,
        ))

    async def get_game(self, game_id: int) -> GameRow | None:
        """A game by id."""
        row = await self._one("SELECT * FROM games WHERE id = :id", id=game_id)
        return None if row is None else game_row(row)

    async def lock_game(self, game_id: int) -> tuple[GameRow, tuple[int, int]] | None:
        """Hold a game's row to the end of the transaction; the row and its version: (stored actions,
        taken-back actions), which every change of the record raises."""
        self._require_tx("lock_game")
        row = await self._one(f"SELECT * FROM games WHERE id = :id{self.FOR_UPDATE}", id=game_id)
        return None if row is None else (game_row(row), await self.game_version(game_id))

    async def game_version(self, game_id: int) -> tuple[int, int]:
        """(stored actions, taken-back actions) of a game: changes whenever its record does."""
        row = await self._one(
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE taken_back) FROM actions WHERE game_id = :game_id", game_id=game_id
        )
        assert row is not None
        return (row[0], row[1])

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        """The game in progress in a channel or thread, if any."""
        row = await self._one("SELECT * FROM games WHERE channel_id = :channel_id AND status = 'active'",
                              channel_id=channel_id)
        return None if row is None else game_row(row)

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        """Games in progress (in one server, or everywhere), oldest first."""
        if guild_id is None:
            rows = await self._all("SELECT * FROM games WHERE status = 'active' ORDER BY id")
        else:
            rows = await self._all("SELECT * FROM games WHERE guild_id = :guild_id AND status = 'active' ORDER BY id",
                                   guild_id=guild_id)
        return [game_row(r) for r in rows]

    async def active_games_under(self, channel_id: int) -> list[GameRow]:
        """The games in progress in a channel and in its threads."""
        rows = await self._all("SELECT * FROM games WHERE status = 'active' AND (channel_id = :channel_id"
                               " OR parent_id = :channel_id) ORDER BY id", channel_id=channel_id)
        return [game_row(r) for r in rows]

    async def player_threads(self, parent_id: int, user_id: int) -> list[int]:
        """The threads of a channel holding a game in progress of this player (index games_active_parent)."""
        rows = await self._all(
            "SELECT channel_id FROM games WHERE parent_id = :parent_id AND status = 'active'"
            " AND (seat0_id = :user_id OR seat1_id = :user_id) ORDER BY id", parent_id=parent_id, user_id=user_id)
        return [r[0] for r in rows]

    def _seen_by(self, sight: Sight | None) -> tuple[str, dict[str, Any]]:
        """The condition (`` AND (…)``) keeping only the games ``sight`` sees, and its parameters;
        nothing without a sight."""
        if sight is None:
            return "", {}
        ids = sorted(sight.channels)
        in_channel, by_channel = self._any("channel_id", "seen_channel", ids, "bigint")
        in_parent, by_parent = self._any("parent_id", "seen_parent", ids, "bigint")
        return (f" AND (seat0_id = :viewer OR seat1_id = :viewer OR {in_channel} OR {in_parent})",
                {"viewer": sight.user_id, **by_channel, **by_parent})

    async def finished_games(self, guild_id: int, user_id: int | None = None, limit: int = 10,
                             sight: Sight | None = None) -> list[GameRow]:
        """Recently ended games in a server (optionally of one player; only those ``sight`` sees), newest first."""
        seen, seen_params = self._seen_by(sight)
        if user_id is None:
            rows = await self._all(
                f"SELECT * FROM games WHERE guild_id = :guild_id AND status <> 'active'{seen}"
                " ORDER BY finished_at DESC, id DESC LIMIT :limit",
                guild_id=guild_id, limit=limit, **seen_params,
            )
        else:
            rows = await self._all(self.FINISHED_GAMES_OF.format(seen=seen), guild_id=guild_id, user_id=user_id,
                                   limit=limit, **seen_params)
        return [game_row(r) for r in rows]

    async def actions(self, game_id: int) -> list[str]:
        """A game's actions in order (its engine record), without taken-back ones."""
        rows = await self._all(
            "SELECT action FROM actions WHERE game_id = :game_id AND NOT taken_back ORDER BY seq", game_id=game_id
        )
        return [r[0] for r in rows]

    async def action_users(self, game_id: int) -> list[tuple[str, int]]:
        """A game's actions with the user who made each, in order (without taken-back ones)."""
        rows = await self._all(
            "SELECT action, user_id FROM actions WHERE game_id = :game_id AND NOT taken_back ORDER BY seq",
            game_id=game_id,
        )
        return [(r[0], r[1]) for r in rows]

    async def action_rows(self, game_id: int) -> list[tuple[int, str, int, bool]]:
        """Every stored action of a game as (seq, action, user id, taken back), in order."""
        rows = await self._all(
            "SELECT seq, action, user_id, taken_back FROM actions WHERE game_id = :game_id ORDER BY seq", game_id=game_id
        )
        return [(r[0], r[1], r[2], bool(r[3])) for r in rows]

    async def next_seq(self, game_id: int) -> int:
        """The sequence number the next action of a game gets."""
        return int(await self._val("SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id = :game_id",
                                   game_id=game_id))

    async def mark_taken_back(self, game_id: int, seqs: list[int]) -> None:
        """Mark actions as undone by a takeback (inside a transaction); they stay in the table."""
        if not seqs:
            return
        which, params = self._any("seq", "seq", seqs, "int")
        await self._run(f"UPDATE actions SET taken_back = TRUE WHERE game_id = :game_id AND {which}",
                        game_id=game_id, **params)

    async def set_deadline(self, game_id: int, deadline: float | None) -> None:
        """When the players to move run out of time (inside a transaction)."""
        await self._run("UPDATE games SET deadline = :deadline WHERE id = :id", deadline=deadline, id=game_id)

    async def append_actions(self, game_id: int, first_seq: int, actions: list[str], user_id: int, now: float) -> None:
        """Append actions at ``first_seq``…; the primary key refuses a sequence number twice."""
        for offset, action in enumerate(actions):
            await self._run(
                "INSERT INTO actions (game_id, seq, action, user_id, created_at)"
                " VALUES (:game_id, :seq, :action, :user_id, :now)",
                game_id=game_id, seq=first_seq + offset, action=action, user_id=user_id, now=now,
            )
        await self._run("UPDATE games SET updated_at = :now WHERE id = :id", now=now, id=game_id)

    async def finish_game(
        self, game_id: int, *, status: str, winner_seat: int | None, reason: str | None, now: float
    ) -> bool:
        """Record how a game ended (status finished or aborted); False if it had already ended."""
        return await self._run(
            "UPDATE games SET status = :status, winner_seat = :winner_seat, reason = :reason, finished_at = :now,"
            " updated_at = :now WHERE id = :id AND status = 'active'",
            status=status, winner_seat=winner_seat, reason=reason, now=now, id=game_id,
        ) == 1

    async def active_ai_games_of(self, guild_id: int, user_id: int) -> list[GameRow]:
        """A member's games against the computer in progress in a server, oldest first."""
        rows = await self._all(
            "SELECT * FROM games WHERE guild_id = :guild_id AND status = 'active' AND ai_level IS NOT NULL"
            " AND (seat0_id = :user_id OR seat1_id = :user_id) ORDER BY id",
            guild_id=guild_id, user_id=user_id,
        )
        return [game_row(r) for r in rows]

    # -- takebacks -------------------------------------------------------------------
    async def insert_takeback(self, game_id: int, requester_id: int, last_seq: int, now: float) -> TakebackRow:
        """Record an open takeback request (inside a transaction)."""
        self._require_tx()
        return TakebackRow(**dict(await self._returning(
            "INSERT INTO takebacks (game_id, requester_id, last_seq, created_at)"
            " VALUES (:game_id, :requester_id, :last_seq, :now) RETURNING *",
            game_id=game_id, requester_id=requester_id, last_seq=last_seq, now=now,
        )))

    async def get_takeback(self, takeback_id: int) -> TakebackRow | None:
        """A takeback request by id."""
        row = await self._one("SELECT * FROM takebacks WHERE id = :id", id=takeback_id)
        return None if row is None else TakebackRow(**dict(row))

    async def close_takeback(self, takeback_id: int, status: str, undone: str = "") -> bool:
        """Close an open takeback request; False if it was no longer open."""
        return await self._run(
            "UPDATE takebacks SET status = :status, undone = :undone WHERE id = :id AND status = 'open'",
            status=status, undone=undone, id=takeback_id,
        ) == 1

    async def open_takeback(self, game_id: int, requester_id: int, last_seq: int) -> TakebackRow | None:
        """An open request of this player for the same turn, if they already asked."""
        row = await self._one(
            "SELECT * FROM takebacks WHERE game_id = :game_id AND requester_id = :requester_id"
            " AND last_seq = :last_seq AND status = 'open'",
            game_id=game_id, requester_id=requester_id, last_seq=last_seq,
        )
        return None if row is None else TakebackRow(**dict(row))

    async def takebacks_of(self, game_id: int) -> list[TakebackRow]:
        """Accepted takebacks of a game, oldest first (for its record)."""
        rows = await self._all(
            "SELECT * FROM takebacks WHERE game_id = :game_id AND status = 'accepted' ORDER BY id", game_id=game_id
        )
        return [TakebackRow(**dict(r)) for r in rows]

    # -- settings ----------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults when never set)."""
        row = await self._one("SELECT * FROM guild_settings WHERE guild_id = :guild_id", guild_id=guild_id)
        if row is None:
            return GuildSettings(guild_id)
        d = dict(row)
        d["always_thread"] = bool(d["always_thread"])
        return GuildSettings(**d)

    async def put_guild_settings(self, s: GuildSettings) -> None:
        """Store a server's settings."""
        async with self.transaction():
            await self._run(
                "INSERT INTO guild_settings (guild_id, default_clock, challenge_minutes, always_thread)"
                " VALUES (:guild_id, :default_clock, :challenge_minutes, :always_thread) ON CONFLICT (guild_id)"
                " DO UPDATE SET default_clock = excluded.default_clock,"
                " challenge_minutes = excluded.challenge_minutes, always_thread = excluded.always_thread",
                guild_id=s.guild_id, default_clock=s.default_clock, challenge_minutes=s.challenge_minutes,
                always_thread=bool(s.always_thread),
            )

    async def wants_dm(self, user_id: int) -> bool:
        """Whether a player asked for reminders by direct message."""
        return bool(await self._val("SELECT dm FROM notify WHERE user_id = :user_id", user_id=user_id))

    async def set_dm(self, user_id: int, dm: bool) -> None:
        """Remember how a player wants reminders."""
        async with self.transaction():
            await self._run(
                "INSERT INTO notify (user_id, dm) VALUES (:user_id, :dm) ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm",
                user_id=user_id, dm=bool(dm),
            )

    async def languages(self) -> dict[tuple[str, int], str]:
        """Every language chosen: (scope, id) → language."""
        rows = await self._all("SELECT scope, id, language FROM languages")
        return {(str(r[0]), int(r[1])): str(r[2]) for r in rows}

    async def set_language(self, scope: str, id: int, language: str | None) -> None:
        """Remember a member's or a server's language (None: back to Discord's locale)."""
        async with self.transaction():
            if language is None:
                await self._run("DELETE FROM languages WHERE scope = :scope AND id = :id", scope=scope, id=id)
            else:
                await self._run("INSERT INTO languages (scope, id, language) VALUES (:scope, :id, :language)"
                                " ON CONFLICT (scope, id) DO UPDATE SET language = excluded.language",
                                scope=scope, id=id, language=language)

    async def guild_limits(self, guild_id: int) -> dict[str, int]:
        """The limits a server's admins have set (name → value); the others are at their defaults."""
        rows = await self._all("SELECT name, value FROM guild_limits WHERE guild_id = :guild_id", guild_id=guild_id)
        return {r[0]: int(r[1]) for r in rows}

    async def put_guild_limits(self, guild_id: int, values: Mapping[str, int]) -> None:
        """Set some limits of a server (others keep theirs)."""
        async with self.transaction():
            for name, value in values.items():
                await self._run("INSERT INTO guild_limits (guild_id, name, value) VALUES (:guild_id, :name, :value)"
                                " ON CONFLICT (guild_id, name) DO UPDATE SET value = excluded.value",
                                guild_id=guild_id, name=name, value=value)

    # -- replay cache --------------------------------------------------------------------
    async def replay_gif(self, game_id: int, key: str, now: float) -> bytes | None:
        """The kept replay GIF of a game if it was made from ``key``; marks it used at ``now``."""
        async with self.transaction():
            row = await self._one("SELECT gif FROM replay_gifs WHERE game_id = :game_id AND key = :key",
                                  game_id=game_id, key=key)
            if row is not None:
                await self._run("UPDATE replay_gifs SET used_at = :now WHERE game_id = :game_id",
                                now=now, game_id=game_id)
        return None if row is None else bytes(row[0])

    async def put_replay_gif(self, game_id: int, key: str, gif: bytes, now: float, keep: int) -> None:
        """Keep a game's replay GIF (replacing one made from another key), then only the ``keep`` used
        most recently."""
        async with self.transaction():
            await self._run(
                "INSERT INTO replay_gifs (game_id, key, gif, made_at, used_at) VALUES (:game_id, :key, :gif, :now, :now)"
                " ON CONFLICT (game_id) DO UPDATE SET key = excluded.key, gif = excluded.gif,"
                " made_at = excluded.made_at, used_at = excluded.used_at",
                game_id=game_id, key=key, gif=gif, now=now,
            )
            await self._run("DELETE FROM replay_gifs WHERE game_id NOT IN"
                            " (SELECT game_id FROM replay_gifs ORDER BY used_at DESC, game_id DESC LIMIT :keep)",
                            keep=keep)

    # -- reviews -------------------------------------------------------------------------
    REVIEW_COLUMNS = "game_id, key, total, asked_at, done_at, background"

    @staticmethod
    def _review_row(r: Any) -> ReviewRow:
        return ReviewRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]))

    async def review(self, game_id: int) -> ReviewRow | None:
        """A game's stored review (finished or running), if one was asked for."""
        row = await self._one(f"SELECT {self.REVIEW_COLUMNS} FROM reviews WHERE game_id = :game_id", game_id=game_id)
        return None if row is None else self._review_row(row)

    async def start_review(self, game_id: int, key: str, total: int, now: float, *, background: bool = False) -> ReviewRow:
        """Record that a game's review of ``key`` is wanted; a stored one of another ``key`` is
        dropped with its values. Returns the review as stored (one of the same key as it was).
        Asked for by a member (not ``background``), a background review becomes an asked one."""
        async with self.transaction():
            old = await self._one("SELECT key FROM reviews WHERE game_id = :game_id" + self.FOR_UPDATE,
                                  game_id=game_id)
            if old is not None and old[0] != key:
                await self._run("DELETE FROM review_values WHERE game_id = :game_id", game_id=game_id)
            await self._run(
                "INSERT INTO reviews (game_id, key, total, asked_at, background)"
                " VALUES (:game_id, :key, :total, :now, :background)"
                " ON CONFLICT (game_id) DO UPDATE SET key = excluded.key, total = excluded.total,"
                " asked_at = excluded.asked_at, done_at = NULL, background = excluded.background"
                " WHERE reviews.key <> excluded.key",
                game_id=game_id, key=key, total=total, now=now, background=background,
            )
            if not background:
                await self._run("UPDATE reviews SET background = FALSE WHERE game_id = :game_id AND background",
                                game_id=game_id)
        found = await self.review(game_id)
        assert found is not None
        return found

    async def want_background_review(self, game_id: int, now: float, most: int) -> bool:
        """Inside the transaction that ends a game: queue its review in the background unless
        ``most`` background reviews wait already (the newest is skipped); whether it was queued.
        Its key is left empty: the process that makes it sets it (its budget)."""
        self._require_tx()
        waiting = await self._val("SELECT COUNT(*) FROM reviews WHERE done_at IS NULL AND background")
        if int(waiting or 0) >= most:
            return False
        return await self._run(
            "INSERT INTO reviews (game_id, key, total, asked_at, background) VALUES (:game_id, '', 0, :now, TRUE)"
            " ON CONFLICT (game_id) DO NOTHING", game_id=game_id, now=now) == 1

    async def claim_review(self, game_id: int, owner: str, now: float, lease: float) -> bool:
        """Take (or renew) the making of an unfinished review for ``lease`` seconds: False while
        another process holds it (a claim whose lease lapsed is anyone's)."""
        async with self.transaction():
            return await self._run(
                "UPDATE reviews SET claimed_by = :owner, claimed_until = :until WHERE game_id = :game_id"
                " AND done_at IS NULL AND (claimed_by IS NULL OR claimed_by = :owner OR claimed_until <= :now)",
                game_id=game_id, owner=owner, until=now + lease, now=now) == 1

    async def release_review(self, game_id: int, owner: str) -> None:
        """Give up the making of a review (another process may take it at once)."""
        async with self.transaction():
            await self._run("UPDATE reviews SET claimed_by = NULL, claimed_until = NULL"
                            " WHERE game_id = :game_id AND claimed_by = :owner", game_id=game_id, owner=owner)

    async def release_review_claims(self) -> int:
        """Drop every review's claim (a lone process starting: whoever held them is gone); how many."""
        async with self.transaction():
            return await self._run("UPDATE reviews SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by IS NOT NULL")

    async def review_background(self, guild_id: int) -> bool:
        """Whether a server's finished games are reviewed in the background (on unless switched off)."""
        value = await self._val("SELECT background FROM review_settings WHERE guild_id = :guild_id", guild_id=guild_id)
        return True if value is None else bool(value)

    async def set_review_background(self, guild_id: int, on: bool) -> None:
        """Switch a server's background reviews on or off."""
        await self._write_one(
            "INSERT INTO review_settings (guild_id, background) VALUES (:guild_id, :on)"
            " ON CONFLICT (guild_id) DO UPDATE SET background = excluded.background", guild_id=guild_id, on=on)

    async def review_values(self, game_id: int) -> list[ReviewValueRow]:
        """The positions of a game's review valued so far, by ply."""
        rows = await self._all("SELECT ply, seat0, proven, best FROM review_values WHERE game_id = :game_id"
                               " ORDER BY ply", game_id=game_id)
        return [ReviewValueRow(r[0], r[1], bool(r[2]), r[3]) for r in rows]

    async def put_review_value(self, game_id: int, value: ReviewValueRow) -> None:
        """Keep one position's value of a game's review (a second one of the same ply is ignored)."""
        async with self.transaction():
            await self._run(
                "INSERT INTO review_values (game_id, ply, seat0, proven, best)"
                " VALUES (:game_id, :ply, :seat0, :proven, :best) ON CONFLICT (game_id, ply) DO NOTHING",
                game_id=game_id, ply=value.ply, seat0=value.seat0, proven=value.proven, best=value.best,
            )

    async def finish_review(self, game_id: int, now: float) -> None:
        """Mark a game's review finished."""
        async with self.transaction():
            await self._run("UPDATE reviews SET done_at = :now, claimed_by = NULL, claimed_until = NULL"
                            " WHERE game_id = :game_id", now=now, game_id=game_id)

    async def unfinished_reviews(self, limit: int) -> list[ReviewRow]:
        """Reviews wanted and not finished (a restart resumes them): the asked ones, then the
        background ones, each oldest first."""
        rows = await self._all(f"SELECT {self.REVIEW_COLUMNS} FROM reviews WHERE done_at IS NULL"
                               " ORDER BY background, asked_at, game_id LIMIT :limit", limit=limit)
        return [self._review_row(r) for r in rows]

    async def put_puzzles(self, puzzles: Iterable[PuzzleRow]) -> None:
        """Keep puzzles found in a game (one already kept for the same position is left as it is)."""
        async with self.transaction():
            for p in puzzles:
                await self._run(
                    "INSERT INTO puzzles (game_id, ply, mover, answer, missed, found_at)"
                    " VALUES (:game_id, :ply, :mover, :answer, :missed, :found_at) ON CONFLICT (game_id, ply) DO NOTHING",
                    game_id=p.game_id, ply=p.ply, mover=p.mover, answer=p.answer, missed=p.missed, found_at=p.found_at,
                )

    async def puzzles_of(self, game_id: int) -> list[PuzzleRow]:
        """The puzzles found in a game, by ply."""
        rows = await self._all("SELECT game_id, ply, mover, answer, missed, found_at FROM puzzles"
                               " WHERE game_id = :game_id ORDER BY ply", game_id=game_id)
        return [PuzzleRow(**dict(r)) for r in rows]

    # -- ratings ---------------------------------------------------------------------
    async def get_rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        """A player's rating for a game in a server, if they have played it rated."""
        row = await self._one(
            "SELECT * FROM ratings WHERE guild_id = :guild_id AND game = :game AND user_id = :user_id",
            guild_id=guild_id, game=game, user_id=user_id,
        )
        return None if row is None else RatingRow(**dict(row))

    async def put_rating(self, r: RatingRow) -> None:
        """Insert or replace a rating (inside a transaction)."""
        await self._run(
            "INSERT INTO ratings (guild_id, game, user_id, rating, deviation, volatility, games, wins, losses,"
            " updated_at) VALUES (:guild_id, :game, :user_id, :rating, :deviation, :volatility, :games, :wins,"
            " :losses, :updated_at) ON CONFLICT (guild_id, game, user_id) DO UPDATE"
            " SET rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility,"
            " games = excluded.games, wins = excluded.wins, losses = excluded.losses, updated_at = excluded.updated_at",
            guild_id=r.guild_id, game=r.game, user_id=r.user_id, rating=r.rating, deviation=r.deviation,
            volatility=r.volatility, games=r.games, wins=r.wins, losses=r.losses, updated_at=r.updated_at,
        )

    async def add_rating_change(self, game_id: int, user_id: int, before: float, after: float) -> None:
        """Remember how a game moved a player's rating (inside a transaction)."""
        await self._run(
            "INSERT INTO rating_changes (game_id, user_id, before, after) VALUES (:game_id, :user_id, :before, :after)",
            game_id=game_id, user_id=user_id, before=before, after=after,
        )

    async def rating_changes(self, game_id: int) -> dict[int, tuple[float, float]]:
        """user id → (before, after) for a rated game."""
        rows = await self._all("SELECT user_id, before, after FROM rating_changes WHERE game_id = :game_id",
                               game_id=game_id)
        return {r[0]: (r[1], r[2]) for r in rows}

    async def leaderboard(self, guild_id: int, game: str, limit: int = 20) -> list[RatingRow]:
        """A server's rated players of a game, best rating first."""
        rows = await self._all(
            "SELECT * FROM ratings WHERE guild_id = :guild_id AND game = :game AND games > 0"
            " ORDER BY rating DESC, games DESC, user_id LIMIT :limit",
            guild_id=guild_id, game=game, limit=limit,
        )
        return [RatingRow(**dict(r)) for r in rows]

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """A player's ratings in a server, one per game."""
        rows = await self._all(
            "SELECT * FROM ratings WHERE guild_id = :guild_id AND user_id = :user_id ORDER BY game",
            guild_id=guild_id, user_id=user_id,
        )
        return [RatingRow(**dict(r)) for r in rows]

    async def player_record(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int, int]]:
        """game → (finished games, wins, losses) of a player in a server, rated or not."""
        rows = await self._all(self.PLAYER_RECORD, guild_id=guild_id, user_id=user_id)
        return {r[0]: (r[1], r[2] or 0, r[3] or 0) for r in rows}

    # -- timers ------------------------------------------------------------------------
    async def add_timer(self, due_at: float, kind: str, ref_id: int, payload: str = "{}", *,
                        guild_id: int | None = None) -> int:
        """Schedule a timed event (inside a transaction); returns its id, never one used before."""
        self._require_tx()
        row = await self._returning(f"{INSERT_TIMER} RETURNING id", due_at=due_at, kind=kind, ref_id=ref_id,
                                    payload=payload, guild_id=guild_id)
        await self._timers_added(due_at)
        return int(row[0])

    async def next_timer(self, shards: ShardPlan | None = None, now: float | None = None) -> TimerRow | None:
        """The earliest scheduled event (of these shards' servers; not claimed by anyone at ``now``)."""
        where, params = self._shard_filter(shards)
        row = await self._one(
            "SELECT * FROM timers WHERE (CAST(:now AS DOUBLE PRECISION) IS NULL OR claimed_until IS NULL"
            f" OR claimed_until <= :now){where} ORDER BY due_at, id LIMIT 1",
            now=now, **params,
        )
        return None if row is None else TimerRow(**dict(row))

    async def due_timers(self, now: float) -> list[TimerRow]:
        """Every event due at or before ``now``, earliest first."""
        rows = await self._all("SELECT * FROM timers WHERE due_at <= :now ORDER BY due_at, id", now=now)
        return [TimerRow(**dict(r)) for r in rows]

    async def release_timer_claims(self) -> int:
        """Drop every claim (a lone process starting: whoever held them is gone); how many."""
        async with self.transaction():
            return await self._run(
                "UPDATE timers SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by IS NOT NULL"
            )

    async def delete_timer(self, timer_id: int, owner: str | None = None) -> bool:
        """Remove one event (inside a transaction); with ``owner``, only while it holds the claim."""
        if owner is None:
            return await self._run("DELETE FROM timers WHERE id = :id", id=timer_id) == 1
        return await self._run("DELETE FROM timers WHERE id = :id AND claimed_by = :owner", id=timer_id, owner=owner) == 1

    async def timer_exists(self, timer_id: int, owner: str | None = None) -> bool:
        """Whether an event is still waiting (with ``owner``: and still claimed by it)."""
        if owner is None:
            return await self._one("SELECT 1 FROM timers WHERE id = :id", id=timer_id) is not None
        return await self._one("SELECT 1 FROM timers WHERE id = :id AND claimed_by = :owner",
                               id=timer_id, owner=owner) is not None

    async def delete_timers(self, kind: str, ref_id: int) -> None:
        """Remove every event of a kind about one thing (inside a transaction)."""
        await self._run("DELETE FROM timers WHERE kind = :kind AND ref_id = :ref_id", kind=kind, ref_id=ref_id)

    async def end_timers(self, ref_id: int, kinds: Iterable[str]) -> None:
        """Remove the unclaimed events of these kinds about one thing that ends (inside a transaction)."""
        which, params = self._any("kind", "kind", list(kinds), "text")
        await self._run(f"DELETE FROM timers WHERE ref_id = :ref_id AND {which} AND claimed_by IS NULL",
                        ref_id=ref_id, **params)

    async def replace_timers(self, ref_id: int, kinds: Iterable[str], timers: Iterable[tuple[float, str, str]], *,
                             guild_id: int | None = None) -> None:
        """Remove every event of these kinds about one thing and schedule ``timers`` instead (inside a transaction)."""
        which, params = self._any("kind", "kind", list(kinds), "text")
        await self._run(f"DELETE FROM timers WHERE ref_id = :ref_id AND {which}", ref_id=ref_id, **params)
        timers = list(timers)
        if timers:
            await self._insert_timers([{"due_at": due_at, "kind": kind, "ref_id": ref_id, "payload": payload,
                                        "guild_id": guild_id} for due_at, kind, payload in timers])
            await self._timers_added(min(due_at for due_at, _, _ in timers))

    # -- players -----------------------------------------------------------------------
    async def remember_names(self, guild_id: int, names: dict[int, str], now: float) -> None:
        """Store display names as last seen (inside or outside a transaction); rows in user-id order, so
        two writers never wait on each other in a circle."""
        async with self.transaction():
            for user_id, name in sorted(names.items()):
                await self._run(
                    "INSERT INTO players (guild_id, user_id, name, updated_at) VALUES (:guild_id, :user_id, :name, :now)"
                    " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name,"
                    " updated_at = excluded.updated_at",
                    guild_id=guild_id, user_id=user_id, name=storable_name(name), now=now,
                )

    async def names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """Display names last seen for some users (missing ones are left out)."""
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        which, params = self._any("user_id", "user", ids, "bigint")
        rows = await self._all(f"SELECT user_id, name FROM players WHERE guild_id = :guild_id AND {which}",
                               guild_id=guild_id, **params)
        return {r[0]: r[1] for r in rows}
