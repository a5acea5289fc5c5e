"""The bot's data behind one interface.

* :mod:`bot.store.rows`: the frozen rows handed out (``GameRow``, ``TimerRow`` …);
* :mod:`bot.store.base`: :class:`Store`, the interface the service talks to, and
  :class:`Conflict`, what a write breaking a uniqueness rule raises;
* :mod:`bot.store.sqlite`: :class:`SQLiteStore`, every SQL statement, on a SQLite file
  migrated by the numbered files in ``bot/migrations/sqlite/``;
* :mod:`bot.store.postgres`: :class:`PostgresStore`, the same on PostgreSQL (asyncpg pool),
  migrated by ``bot/migrations/postgres/`` under an advisory lock.

``await Store.open(url)`` opens the backend a DATABASE_URL (or a bare file path) names.
"""

from .base import Conflict, Store
from .rows import ChallengeRow, GameRow, GuildSettings, RatingRow, TakebackRow, TimerRow
from .sqlite import SQLiteStore, migrations

__all__ = [
    "ChallengeRow", "Conflict", "GameRow", "GuildSettings", "RatingRow", "SQLiteStore", "Store", "TakebackRow",
    "TimerRow", "migrations",
]
