"""The bot's data behind one interface.

* :mod:`bot.store.rows`: the frozen rows handed out (``GameRow``, ``TimerRow`` …);
* :mod:`bot.store.base`: :class:`Store`, the interface the service talks to; :class:`Conflict`,
  what a write breaking a uniqueness rule raises; and :meth:`Store.open`, which opens the backend
  a DATABASE_URL (or a bare file path) names among those registered with :func:`base.backend`;
* :mod:`bot.store.sql`: :class:`SQLStore`, every statement both databases share, written once
  with named ``:name`` parameters;
* :mod:`bot.store.sqlite`: :class:`SQLiteStore`, a SQLite file migrated by the numbered files in
  ``bot/migrations/sqlite/``, and the statements SQLite writes its own way;
* :mod:`bot.store.postgres`: :class:`PostgresStore`, the same on PostgreSQL (asyncpg pool),
  migrated by ``bot/migrations/postgres/`` under an advisory lock.

Importing this package registers both backends, so ``await Store.open(url)`` finds them.
"""

from . import postgres as postgres  # registers PostgresStore with Store.open
from .base import Conflict, Store
from .rows import (
    ChallengeRow,
    GameRow,
    GuildSettings,
    PuzzleAttemptRow,
    PuzzleChoice,
    PuzzlePlayerRow,
    PuzzleRow,
    RatingRow,
    ReviewRow,
    ReviewValueRow,
    Sight,
    TakebackRow,
    TimerRow,
)
from .sqlite import SQLiteStore, migrations

__all__ = [
    "ChallengeRow", "Conflict", "GameRow", "GuildSettings", "PuzzleAttemptRow", "PuzzleChoice", "PuzzlePlayerRow",
    "PuzzleRow", "RatingRow", "ReviewRow", "ReviewValueRow", "SQLiteStore", "Sight", "Store", "TakebackRow",
    "TimerRow", "migrations",
]
