"""The store interface: every read and write of the bot's data, whatever database holds it.

The service talks only to :class:`Store`; :mod:`bot.store.sql` writes the statements both
databases share, and :mod:`bot.store.sqlite` (a SQLite file) and :mod:`bot.store.postgres`
(PostgreSQL through asyncpg) add their connections and what each writes its own way.
All methods are coroutines, and :meth:`Store.transaction` is an async context
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
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TypeVar

from ..shards import ShardPlan
from .rows import (
    ChallengeRow,
    EntrantRow,
    GameRow,
    GuildSettings,
    PuzzleAttemptRow,
    PuzzleChoice,
    PuzzlePlayerRow,
    PuzzleRow,
    RatingRow,
    ReviewRow,
    ReviewValueRow,
    RoundRow,
    Sight,
    TakebackRow,
    TimerRow,
    TournamentGameRow,
    TournamentRow,
)
from .urls import database_target

#: every table of the bot, parents before the rows that refer to them
TABLES = ("challenges", "games", "actions", "takebacks", "ratings", "rating_changes", "timers", "meta",
          "players", "guild_settings", "notify", "guild_limits", "languages",
          "tournaments", "tournament_entrants", "tournament_rounds", "tournament_games", "tournament_settings",
          "review_settings", "puzzle_attempts", "puzzle_players")
#: (``replay_gifs`` is a cache, left out of copies: a copy makes its replays again when asked; so are
#: ``reviews``, ``review_values`` and the ``puzzles`` found from them: a copy reviews a game again when asked)
#: the tables whose ids come from a counter (identity / rowid), which a copy must carry on past
COUNTED_TABLES = ("challenges", "games", "takebacks", "timers", "tournaments", "puzzle_attempts")


StoreT = TypeVar("StoreT", bound="Store")


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


#: seconds closing a store waits for a transaction or connection still in use before it cuts it
#: (a task stuck inside one must not hold the bot's shutdown for ever)
CLOSE_GRACE = 15.0

#: dialect → the Store class that opens it, filled by :func:`backend` as each backend module loads
#: (so this module never imports the backends, which import it)
_BACKENDS: dict[str, type[Store]] = {}


def backend(cls: type[StoreT]) -> type[StoreT]:
    """Class decorator: register a backend as the one :meth:`Store.open` uses for its ``dialect``."""
    if not cls.dialect:
        raise ValueError(f"{cls.__name__} names no dialect")
    _BACKENDS[cls.dialect] = cls
    return cls


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
        PostgreSQL, a ``sqlite:///`` URL or a file path opens SQLite (whichever backend registered
        itself for that dialect with :func:`backend`; importing :mod:`bot.store` registers both)."""
        dialect, target = database_target(str(path))
        try:
            chosen = _BACKENDS[dialect]
        except KeyError:
            raise RuntimeError(f"no store backend for {dialect} is loaded (import bot.store)") from None
        return await chosen.open(target)

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

    @abc.abstractmethod
    async def hold(self, name: str) -> None:
        """Inside a transaction: hold a lock named ``name``, shared by every process on this database,
        to the end of the transaction (what makes "count, then insert" race-free)."""

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
    async def open_challenges_around(self, guild_id: int, challenger_id: int, opponent_id: int,
                                     now: float) -> list[ChallengeRow]:
        """The open challenges of a server, not expired at ``now``, sent by ``challenger_id`` or addressed
        to ``opponent_id`` (what the limits on challenges count), soonest to expire first."""

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
    async def active_ai_games_of(self, guild_id: int, user_id: int) -> list[GameRow]:
        """A member's games against the computer in progress in a server, oldest first."""

    @abc.abstractmethod
    async def active_games_under(self, channel_id: int) -> list[GameRow]:
        """The games in progress in a channel and in its threads (what its deletion takes away)."""

    @abc.abstractmethod
    async def player_threads(self, parent_id: int, user_id: int) -> list[int]:
        """The threads of a channel holding a game in progress of this player (an index read of that
        channel's games only: what a command in a channel without a game looks up)."""

    @abc.abstractmethod
    async def finished_games(self, guild_id: int, user_id: int | None = None, limit: int = 10,
                             sight: Sight | None = None) -> list[GameRow]:
        """Recently ended games in a server (optionally of one player; only those ``sight`` sees), newest first."""

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
    async def guild_limits(self, guild_id: int) -> dict[str, int]:
        """The limits a server's admins have set (name → value); the others are at their defaults."""

    @abc.abstractmethod
    async def put_guild_limits(self, guild_id: int, values: Mapping[str, int]) -> None:
        """Set some limits of a server (others keep theirs)."""

    # -- replay cache --------------------------------------------------------------------
    @abc.abstractmethod
    async def replay_gif(self, game_id: int, key: str, now: float) -> bytes | None:
        """The kept replay GIF of a game if it was made from ``key`` (what went into it); marks it used at ``now``."""

    @abc.abstractmethod
    async def put_replay_gif(self, game_id: int, key: str, gif: bytes, now: float, keep: int) -> None:
        """Keep a game's replay GIF (replacing one made from another key), then only the ``keep`` used
        most recently."""

    # -- reviews -------------------------------------------------------------------------
    @abc.abstractmethod
    async def review(self, game_id: int) -> ReviewRow | None:
        """A game's stored review (finished or running), if one was asked for."""

    @abc.abstractmethod
    async def start_review(self, game_id: int, key: str, total: int, now: float, *, background: bool = False) -> ReviewRow:
        """Record that a game's review of ``key`` is wanted; a stored one of another ``key`` is
        dropped with its values. Returns the review as stored (one of the same key as it was).
        Asked for by a member (not ``background``), a background review becomes an asked one."""

    @abc.abstractmethod
    async def want_background_review(self, game_id: int, now: float, most: int) -> bool:
        """Inside the transaction that ends a game: queue its review in the background unless
        ``most`` background reviews wait already (the newest is skipped); whether it was queued."""

    @abc.abstractmethod
    async def claim_review(self, game_id: int, owner: str, now: float, lease: float) -> bool:
        """Take (or renew) the making of an unfinished review for ``lease`` seconds: False while
        another process holds it (a claim whose lease lapsed is anyone's)."""

    @abc.abstractmethod
    async def release_review(self, game_id: int, owner: str) -> None:
        """Give up the making of a review (another process may take it at once)."""

    @abc.abstractmethod
    async def release_review_claims(self) -> int:
        """Drop every review's claim (a lone process starting: whoever held them is gone); how many."""

    @abc.abstractmethod
    async def review_background(self, guild_id: int) -> bool:
        """Whether a server's finished games are reviewed in the background (on unless switched off)."""

    @abc.abstractmethod
    async def set_review_background(self, guild_id: int, on: bool) -> None:
        """Switch a server's background reviews on or off."""

    @abc.abstractmethod
    async def review_values(self, game_id: int) -> list[ReviewValueRow]:
        """The positions of a game's review valued so far, by ply."""

    @abc.abstractmethod
    async def put_review_value(self, game_id: int, value: ReviewValueRow) -> None:
        """Keep one position's value of a game's review (a second one of the same ply is ignored)."""

    @abc.abstractmethod
    async def finish_review(self, game_id: int, now: float) -> None:
        """Mark a game's review finished."""

    @abc.abstractmethod
    async def unfinished_reviews(self, limit: int) -> list[ReviewRow]:
        """Reviews wanted and not finished (a restart resumes them): the asked ones, then the
        background ones, each oldest first."""

    @abc.abstractmethod
    async def put_puzzles(self, puzzles: Iterable[PuzzleRow]) -> None:
        """Keep puzzles found in a game (one already kept for the same position is left as it is)."""

    @abc.abstractmethod
    async def puzzles_of(self, game_id: int) -> list[PuzzleRow]:
        """The puzzles found in a game, by ply."""

    # -- playing puzzles (bot/store/sql_puzzles.py) ---------------------------------------
    @abc.abstractmethod
    async def puzzle_choices(self, guild_id: int, user_id: int, sight: Sight | None, *, own: bool,
                             limit: int) -> list[PuzzleChoice]:
        """Puzzles of a server's finished games (only those ``sight`` sees) that a member has not
        solved, newest first; ``own``: only from games the member played."""

    @abc.abstractmethod
    async def puzzle_choice(self, user_id: int, game_id: int, ply: int) -> PuzzleChoice | None:
        """One puzzle with its rating, its game and a member's history with it."""

    @abc.abstractmethod
    async def start_puzzle_attempt(self, guild_id: int, user_id: int, game_id: int, ply: int,
                                   now: float) -> PuzzleAttemptRow:
        """Open a member's attempt at a puzzle. Raises :class:`Conflict` when they have one open."""

    @abc.abstractmethod
    async def puzzle_attempt(self, attempt_id: int) -> PuzzleAttemptRow | None:
        """An attempt by its id."""

    @abc.abstractmethod
    async def open_puzzle_attempt(self, guild_id: int, user_id: int) -> PuzzleAttemptRow | None:
        """A member's open attempt in a server, if any."""

    @abc.abstractmethod
    async def advance_puzzle_attempt(self, attempt_id: int, was: tuple[str, ...], line: tuple[str, ...]) -> bool:
        """Set an open attempt's moves to ``line`` if they are still ``was`` (False: another answer came first)."""

    @abc.abstractmethod
    async def lock_puzzle_rating(self, game_id: int, ply: int) -> tuple[float, float, float] | None:
        """Inside a transaction: a puzzle's own rating (rating, deviation, volatility), held until it ends
        (None: no such puzzle)."""

    @abc.abstractmethod
    async def end_puzzle_attempt(self, attempt: PuzzleAttemptRow, line: tuple[str, ...], status: str, now: float,
                                 player: PuzzlePlayerRow | None, puzzle: tuple[float, float, float] | None) -> bool:
        """Close an open attempt whose moves are still ``attempt.line`` (False: another answer came
        first, nothing written), in one transaction with the member's new puzzle rating and streak
        (``player``) and the puzzle's new rating (rating, deviation, volatility); None: unchanged."""

    @abc.abstractmethod
    async def puzzle_player(self, guild_id: int, user_id: int) -> PuzzlePlayerRow | None:
        """A member's puzzle rating and streak in a server (None before their first puzzle)."""

    @abc.abstractmethod
    async def wants_dm(self, user_id: int) -> bool:
        """Whether a player asked for reminders by direct message."""

    @abc.abstractmethod
    async def set_dm(self, user_id: int, dm: bool) -> None:
        """Remember how a player wants reminders."""

    @abc.abstractmethod
    async def languages(self) -> dict[tuple[str, int], str]:
        """Every language chosen: (scope, id) → language."""

    @abc.abstractmethod
    async def set_language(self, scope: str, id: int, language: str | None) -> None:
        """Remember a member's or a server's language (None: back to Discord's locale)."""

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

    # -- tournaments (issue 46) ------------------------------------------------------------
    @abc.abstractmethod
    async def insert_tournament(
        self, *, guild_id: int, channel_id: int, organiser_id: int, game: str, size: int, variants: tuple[str, ...],
        format: str, rounds: int | None, cycles: int, clock: str, max_players: int, rated: bool, now: float,
    ) -> TournamentRow:
        """Record a new tournament open for sign-up (inside a transaction)."""

    @abc.abstractmethod
    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        """A tournament by id."""

    @abc.abstractmethod
    async def lock_tournament(self, tournament_id: int) -> TournamentRow | None:
        """Hold a tournament's row to the end of the transaction (inside one): sign-ups, the start and
        each round's pairing of one tournament happen one at a time, whichever process asks."""

    @abc.abstractmethod
    async def newest_tournament_in(self, channel_id: int, statuses: Sequence[str]) -> TournamentRow | None:
        """The newest tournament created in a channel whose status is one of ``statuses``."""

    @abc.abstractmethod
    async def tournaments_of(self, guild_id: int, statuses: Sequence[str],
                             organiser_id: int | None = None) -> list[TournamentRow]:
        """A server's tournaments whose status is one of ``statuses`` (only ``organiser_id``'s, if given), oldest first."""

    @abc.abstractmethod
    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        """Remember a tournament's sign-up message (to edit it as people join)."""

    @abc.abstractmethod
    async def move_tournament(self, tournament_id: int, before: str, after: str) -> bool:
        """Move a tournament from status ``before`` to ``after`` (inside a transaction); False if it
        was no longer ``before`` (someone else got there first)."""

    @abc.abstractmethod
    async def add_entrant(self, tournament_id: int, user_id: int, name: str) -> None:
        """Sign a player up, after everyone so far (inside a transaction holding the tournament's row);
        :class:`Conflict` when they are signed up already."""

    @abc.abstractmethod
    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        """Take a player off a tournament's sign-up (inside a transaction); False if they were not on it."""

    @abc.abstractmethod
    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """A tournament's entrants in sign-up order."""

    @abc.abstractmethod
    async def set_entrant_rating(self, tournament_id: int, user_id: int, rating: float | None) -> None:
        """Keep the rating a player was seeded by (inside a transaction)."""

    @abc.abstractmethod
    async def withdraw_entrant(self, tournament_id: int, user_id: int, round: int, reason: str) -> bool:
        """Withdraw a player during round ``round`` (inside a transaction); False if they had withdrawn already."""

    @abc.abstractmethod
    async def insert_round(self, tournament_id: int, number: int, byes: Sequence[int],
                           games: Sequence[tuple[int, int]], now: float) -> None:
        """Record a paired round: its byes and its games (first seat, second seat) in board order
        (inside a transaction). :class:`Conflict` when the round was paired already: the guard
        that pairs each round once, whichever process or rerun tries."""

    @abc.abstractmethod
    async def tournament_rounds(self, tournament_id: int) -> list[RoundRow]:
        """A tournament's paired rounds in order."""

    @abc.abstractmethod
    async def tournament_games(self, tournament_id: int) -> list[TournamentGameRow]:
        """A tournament's games, round by round in board order."""

    @abc.abstractmethod
    async def set_tournament_game(self, tournament_id: int, round: int, board: int, game_id: int) -> bool:
        """Link a round's game to the game started for it (inside a transaction); False if it had one."""

    @abc.abstractmethod
    async def tournament_game_of(self, game_id: int) -> TournamentGameRow | None:
        """The tournament game a game was started for, if any."""

    @abc.abstractmethod
    async def record_tournament_result(self, game_id: int, winner_id: int, ending: str) -> bool:
        """Record a tournament game's result (inside the transaction that ends the game); False if the
        game is no tournament's or already has a result."""

    @abc.abstractmethod
    async def mark_round_announced(self, tournament_id: int, number: int) -> bool:
        """Note that a round's announcement went out; False if it was noted already."""

    @abc.abstractmethod
    async def tournament_staff_only(self, guild_id: int) -> bool:
        """Whether only members with Manage Server may create tournaments in a server."""

    @abc.abstractmethod
    async def set_tournament_staff_only(self, guild_id: int, staff_only: bool) -> None:
        """Set whether only members with Manage Server may create tournaments in a server."""
