"""The bot's data behind one interface.

* :mod:`bot.store.rows`: the frozen rows handed out (``GameRow``, ``TimerRow`` …);
* :mod:`bot.store.base`: :class:`Store`, the interface the service talks to, and
  :class:`Conflict`, what a write breaking a uniqueness rule raises;
* :mod:`bot.store.sqlite`: :class:`SQLiteStore`, every SQL statement, on a SQLite file
  migrated by the numbered files in ``bot/migrations/``.

``await Store.open(path)`` opens the backend the target names.
"""

from .base import Conflict, Store
from .rows import ChallengeRow, GameRow, GuildSettings, RatingRow, TakebackRow, TimerRow
from .sqlite import SQLiteStore, migrations

__all__ = [
    "ChallengeRow", "Conflict", "GameRow", "GuildSettings", "RatingRow", "SQLiteStore", "Store", "TakebackRow",
    "TimerRow", "migrations",
]
