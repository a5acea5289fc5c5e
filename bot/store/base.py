"""The store interface: every read and write of the bot's data, whatever database holds it.

The service talks only to :class:`Store`; :mod:`bot.store.sqlite` implements it on a
SQLite file. A second backend (PostgreSQL through asyncpg) implements the same
methods: all are coroutines, and :meth:`Store.transaction` is an async context
manager, so a pool-based backend can bind one connection to the block.

Rules every backend keeps:

* A write runs inside :meth:`Store.transaction`; methods called by the task that
  holds the transaction join it (nested ``transaction()`` blocks are part of the
  outer one). Methods that say "inside a transaction" must be called within one;
  the others open their own when they write.
* A write that breaks a uniqueness rule (one active game per channel, one action
  per sequence number) raises :class:`Conflict`, and the transaction is rolled back.
* Timer ids are never reused, so deleting a handled timer can never delete a newer one.
"""

from __future__ import annotations

import abc
import contextlib
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from ..shards import ShardPlan
from .rows import ChallengeRow, GameRow, GuildSettings, RatingRow, TakebackRow, TimerRow

#: every table of the bot, parents before the rows that refer to them
TABLES = ("challenges", "games", "actions", "takebacks", "ratings", "rating_changes", "timers", "meta",
          "players", "guild_settings", "notify")
#: the tables whose ids come from a counter (identity / rowid), which a copy must carry on past
COUNTED_TABLES = ("challenges", "games", "takebacks", "timers")


def storable_name(name: str) -> str:
    """A display name as every store keeps it: NUL, which PostgreSQL text cannot hold, becomes U+FFFD.

    Both stores apply it, so a name reads back the same whichever database holds it.
    """
    return name.replace("\x00", "\ufffd")


def check_table(table: str) -> str:
    """``table`` if it is one of the bot's (names are put into SQL text, so only known ones pass)."""
    if table not in TABLES:
        raise ValueError(f"not a table of the bot: {table!r}")
    return table


class Conflict(Exception):
    """A write refused by a uniqueness rule of the database (the transaction was rolled back)."""


class Store(abc.ABC):
    """The bot's data: challenges, games and their actions, ratings, settings, timers, names."""

    # -- lifecycle -----------------------------------------------------------------
    #: which SQL the backend speaks: ``sqlite`` or ``postgres``
    dialect: str = ""

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating and migrating it) the database ``path`` names: a ``postgresql://`` URL opens
        PostgreSQL, a ``sqlite:///`` URL or a file path opens SQLite."""
        from .urls import database_target

        dialect, target = database_target(str(path))
        if dialect == "postgres":
            from .postgres import PostgresStore

            return await PostgresStore.open(target)
        from .sqlite import SQLiteStore

        return await SQLiteStore.open(target)

    @abc.abstractmethod
    async def close(self) -> None:
        """Close the connection(s)."""

    @abc.abstractmethod
    async def migrate(self) -> int:
        """Apply every migration newer than the database; return the schema version."""

    async def listen_timers(self, callback: Callable[[], None]) -> bool:
        """Call ``callback`` whenever any process commits a new timer; False where no other
        process can add one (one SQLite file has one bot process)."""
        return False

    @contextlib.asynccontextmanager
    async def exclusive(self, name: str) -> AsyncIterator[bool]:
        """Hold a named lock shared by every process on this database for the block, if free;
        yields whether this process got it. (One SQLite file has one bot process: always True.)"""
        yield True

    @abc.abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Store]:
        """Run the block as one write transaction (committed at the end, rolled back on error)."""

    # -- whole tables (copy-db) -----------------------------------------------------
    @abc.abstractmethod
    async def count_rows(self, table: str) -> int:
        """How many rows a table of the bot (:data:`TABLES`) holds."""

    @abc.abstractmethod
    async def table_rows(self, table: str) -> list[dict[str, object]]:
        """Every row of a table of the bot as column → value, in primary-key order."""

    @abc.abstractmethod
    async def insert_rows(self, table: str, rows: list[dict[str, object]]) -> None:
        """Insert rows as they are, ids included (inside a transaction)."""

    @abc.abstractmethod
    async def id_high_water(self) -> dict[str, int]:
        """The largest id each counted table has ever handed out (deleted rows included), by table."""

    @abc.abstractmethod
    async def after_bulk_insert(self, high_water: dict[str, int] | None = None) -> None:
        """Move id counters past the ids inserted by :meth:`insert_rows`, and past ``high_water``
        (the source's :meth:`id_high_water`: ids are never reused, e.g. a timer's, which names
        its messages' nonces) (inside a transaction)."""

    # -- meta ----------------------------------------------------------------------
    @abc.abstractmethod
    async def get_meta(self, key: str) -> str | None:
        """A stored setting of the bot itself (e.g. the command-definition hash)."""

    @abc.abstractmethod
    async def set_meta(self, key: str, value: str) -> None:
        """Store a setting of the bot itself."""

    @abc.abstractmethod
    async def delete_meta(self, key: str) -> None:
        """Forget a setting of the bot itself."""

    # -- challenges ------------------------------------------------------------------
    @abc.abstractmethod
    async def insert_challenge(
        self, *, guild_id: int, channel_id: int, challenger_id: int, opponent_id: int, game: str, size: int,
        variants: tuple[str, ...], seat: str, rated: bool, thread: bool, created_at: float, expires_at: float,
        clock: str = "3d", rematch_of: int | None = None,
    ) -> ChallengeRow:
        """Record a new open challenge (inside a transaction); :class:`Conflict` when it is a rematch of
        a game that already has one open or accepted."""

    @abc.abstractmethod
    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        """A challenge by id."""

    @abc.abstractmethod
    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember which message shows the challenge (to edit it later)."""

    @abc.abstractmethod
    async def rematch_of(self, game_id: int) -> ChallengeRow | None:
        """The rematch challenge of a game that is open or was accepted, if any."""

    @abc.abstractmethod
    async def open_challenge_to(self, channel_id: int, opponent_id: int) -> ChallengeRow | None:
        """The newest open challenge addressed to ``opponent_id`` in a channel."""

    @abc.abstractmethod
    async def close_challenge(self, challenge_id: int, status: str, game_id: int | None = None) -> bool:
        """Move an open challenge to ``status``; False if it was no longer open (a race lost)."""

    # -- games -----------------------------------------------------------------------
    @abc.abstractmethod
    async def insert_game(
        self, *, guild_id: int, channel_id: int, parent_id: int | None, game: str, size: int,
        variants: tuple[str, ...], first: str | None, seed: int, seat0_id: int, seat1_id: int, rated: bool,
        challenge_id: int | None, now: float, clock: str = "none", deadline: float | None = None,
        ai_level: str | None = None,
    ) -> GameRow:
        """Record a new game in progress (inside a transaction)."""

    @abc.abstractmethod
    async def get_game(self, game_id: int) -> GameRow | None:
        """A game by id."""

    @abc.abstractmethod
    async def lock_game(self, game_id: int) -> tuple[GameRow, tuple[int, int]] | None:
        """Hold a game's row to the end of the transaction (inside one): no other process can change
        the game meanwhile. The row and its version (see :meth:`game_version`), or None."""

    @abc.abstractmethod
    async def lock_game_in(self, channel_id: int) -> tuple[GameRow, tuple[int, int]] | None:
        """Like :meth:`lock_game` for the game in progress in a channel or thread: the one read a
        move needs (inside a transaction). None when no game is in progress there."""

    @abc.abstractmethod
    async def game_version(self, game_id: int) -> tuple[int, int]:
        """(stored actions, taken-back actions) of a game: both only grow, so any change of its record
        changes the pair; a cached position is current only while its version is."""

    @abc.abstractmethod
    async def active_game_in(self, channel_id: int) -> GameRow | None:
        """The game in progress in a channel or thread, if any."""

    @abc.abstractmethod
    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        """Games in progress (in one server, or everywhere), oldest first."""

    @abc.abstractmethod
    async def finished_games(self, guild_id: int, user_id: int | None = None, limit: int = 10) -> list[GameRow]:
        """Recently ended games in a server (optionally of one player), newest first."""

    @abc.abstractmethod
    async def actions(self, game_id: int) -> list[str]:
        """A game's actions in order (its engine record), without taken-back ones."""

    @abc.abstractmethod
    async def action_users(self, game_id: int) -> list[tuple[str, int]]:
        """A game's actions with the user who made each, in order (without taken-back ones)."""

    @abc.abstractmethod
    async def action_rows(self, game_id: int) -> list[tuple[int, str, int, bool]]:
        """Every stored action of a game as (seq, action, user id, taken back), in order."""

    @abc.abstractmethod
    async def next_seq(self, game_id: int) -> int:
        """The sequence number the next action of a game gets."""

    @abc.abstractmethod
    async def mark_taken_back(self, game_id: int, seqs: list[int]) -> None:
        """Mark actions as undone by a takeback (inside a transaction); they stay in the table."""

    @abc.abstractmethod
    async def set_deadline(self, game_id: int, deadline: float | None) -> None:
        """When the players to move run out of time (inside a transaction)."""

    @abc.abstractmethod
    async def append_actions(self, game_id: int, first_seq: int, actions: list[str], user_id: int, now: float) -> None:
        """Append actions at ``first_seq``…; the primary key refuses a sequence number twice."""

    @abc.abstractmethod
    async def finish_game(
        self, game_id: int, *, status: str, winner_seat: int | None, reason: str | None, now: float
    ) -> bool:
        """Record how a game ended (status finished or aborted); False if it had already ended."""

    # -- takebacks -------------------------------------------------------------------
    @abc.abstractmethod
    async def insert_takeback(self, game_id: int, requester_id: int, last_seq: int, now: float) -> TakebackRow:
        """Record an open takeback request (inside a transaction)."""

    @abc.abstractmethod
    async def get_takeback(self, takeback_id: int) -> TakebackRow | None:
        """A takeback request by id."""

    @abc.abstractmethod
    async def close_takeback(self, takeback_id: int, status: str, undone: str = "") -> bool:
        """Close an open takeback request; False if it was no longer open."""

    @abc.abstractmethod
    async def open_takeback(self, game_id: int, requester_id: int, last_seq: int) -> TakebackRow | None:
        """An open request of this player for the same turn, if they already asked."""

    @abc.abstractmethod
    async def takebacks_of(self, game_id: int) -> list[TakebackRow]:
        """Accepted takebacks of a game, oldest first (for its record)."""

    # -- settings ----------------------------------------------------------------------
    @abc.abstractmethod
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults when never set)."""

    @abc.abstractmethod
    async def put_guild_settings(self, s: GuildSettings) -> None:
        """Store a server's settings."""

    @abc.abstractmethod
    async def wants_dm(self, user_id: int) -> bool:
        """Whether a player asked for reminders by direct message."""

    @abc.abstractmethod
    async def set_dm(self, user_id: int, dm: bool) -> None:
        """Remember how a player wants reminders."""

    # -- ratings ---------------------------------------------------------------------
    @abc.abstractmethod
    async def get_rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        """A player's rating for a game in a server, if they have played it rated."""

    @abc.abstractmethod
    async def lock_ratings(self, guild_id: int, game: str, user_ids: Iterable[int], now: float) -> None:
        """Hold players' rating rows to the end of the transaction, in user-id order (inside one)."""

    @abc.abstractmethod
    async def put_rating(self, r: RatingRow) -> None:
        """Insert or replace a rating (inside a transaction)."""

    @abc.abstractmethod
    async def add_rating_change(self, game_id: int, user_id: int, before: float, after: float) -> None:
        """Remember how a game moved a player's rating (inside a transaction)."""

    @abc.abstractmethod
    async def rating_changes(self, game_id: int) -> dict[int, tuple[float, float]]:
        """user id → (before, after) for a rated game."""

    @abc.abstractmethod
    async def leaderboard(self, guild_id: int, game: str, limit: int = 20) -> list[RatingRow]:
        """A server's rated players of a game, best rating first."""

    @abc.abstractmethod
    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """A player's ratings in a server, one per game."""

    @abc.abstractmethod
    async def player_record(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int, int]]:
        """game → (finished games, wins, losses) of a player in a server, rated or not."""

    # -- timers ------------------------------------------------------------------------
    @abc.abstractmethod
    async def add_timer(self, due_at: float, kind: str, ref_id: int, payload: str = "{}", *,
                        guild_id: int | None = None) -> int:
        """Schedule a timed event about something in a server (inside a transaction); returns its id,
        never one used before. ``guild_id`` decides which shard's process fires it."""

    @abc.abstractmethod
    async def next_timer(self, shards: ShardPlan | None = None, now: float | None = None) -> TimerRow | None:
        """The earliest scheduled event (of these shards' servers; not claimed by anyone at ``now``)."""

    @abc.abstractmethod
    async def due_timers(self, now: float) -> list[TimerRow]:
        """Every event due at or before ``now``, earliest first."""

    @abc.abstractmethod
    async def claim_timers(self, now: float, owner: str, lease: float, shards: ShardPlan | None = None,
                           limit: int = 50) -> list[TimerRow]:
        """Claim up to ``limit`` due events of these shards' servers for ``owner`` until ``now + lease``,
        earliest first. Events claimed by someone else are skipped until their lease lapses (a
        crashed claimant), so two processes never both get one."""

    @abc.abstractmethod
    async def release_timer_claims(self) -> int:
        """Drop every claim (a lone process starting: whoever held them is gone); how many."""

    @abc.abstractmethod
    async def delete_timer(self, timer_id: int, owner: str | None = None) -> bool:
        """Remove one event (inside a transaction); with ``owner``, only while it holds the claim.
        False if it was already gone (or claimed by another)."""

    @abc.abstractmethod
    async def timer_exists(self, timer_id: int, owner: str | None = None) -> bool:
        """Whether an event is still waiting (not handled, not cancelled); with ``owner``, and still
        claimed by it (not taken over by another process after its lease lapsed)."""

    @abc.abstractmethod
    async def delete_timers(self, kind: str, ref_id: int) -> None:
        """Remove every event of a kind about one thing (inside a transaction)."""

    @abc.abstractmethod
    async def replace_timers(self, ref_id: int, kinds: Iterable[str], timers: Iterable[tuple[float, str, str]], *,
                             guild_id: int | None = None) -> None:
        """Remove every event of these kinds about one thing and schedule ``timers`` (due_at, kind,
        payload) about it instead, as :meth:`delete_timers` and :meth:`add_timer` would (inside a
        transaction): what every move does, in as few statements as the database allows."""

    @abc.abstractmethod
    async def end_timers(self, ref_id: int, kinds: Iterable[str]) -> None:
        """Remove the events of these kinds about one thing that ends (inside a transaction), except
        one a timer driver is running right now: its claimant deletes it once handled, and if the
        claimant dies first, the rerun must find it (to announce what the handler did)."""

    # -- players -----------------------------------------------------------------------
    @abc.abstractmethod
    async def remember_names(self, guild_id: int, names: dict[int, str], now: float) -> None:
        """Store display names as last seen (inside or outside a transaction)."""

    @abc.abstractmethod
    async def names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """Display names last seen for some users (missing ones are left out)."""
