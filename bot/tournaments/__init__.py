"""Tournaments (Swiss, round robin, knockout) as plain values and pure functions: no Discord, no database.

A tournament is a frozen :class:`Tournament`; :func:`start` makes one from
the sign-ups, :func:`next_round` pairs the next round, results and
withdrawals are added with its ``with_*`` methods, :func:`standings` ranks
the players and :func:`is_over` / :func:`winner` say when it ends and who
won. :func:`to_withdraw` names the players whose last two games lapsed.

>>> t = start(Settings("knockout"), [("a", "Ann", 1600.0), ("b", "Bob", 1500.0), ("c", "Cy", 1400.0)])
>>> r1 = next_round(t)
>>> r1.pairings, r1.byes
((Pairing(first='b', second='c'),), ('a',))
>>> t = t.with_round(r1).with_result(Result(1, r1.pairings[0], "c", Ending.TIME))
>>> next_round(t).pairings
(Pairing(first='c', second='a'),)
"""

from __future__ import annotations

from .history import lapsed_twice, to_withdraw
from .model import (
    FORMATS,
    MINIMUM_ENTRANTS,
    MOST_PLAYERS,
    MOST_ROUNDS,
    Ending,
    Entrant,
    Format,
    Pairing,
    Result,
    Round,
    Seat,
    Settings,
    Tournament,
    TournamentError,
    Withdrawal,
    default_swiss_rounds,
    most_swiss_rounds,
    planned_rounds,
    seeded,
)
from .progress import is_over, next_round, start, winner
from .standings import COLUMN_NAMES, COLUMNS, Standing, standings

__all__ = [
    "COLUMN_NAMES", "COLUMNS", "FORMATS", "MINIMUM_ENTRANTS", "MOST_PLAYERS", "MOST_ROUNDS", "Ending", "Entrant", "Format", "Pairing", "Result", "Round", "Seat",
    "Settings", "Standing", "Tournament", "TournamentError", "Withdrawal", "default_swiss_rounds", "is_over",
    "lapsed_twice", "most_swiss_rounds", "next_round", "planned_rounds", "seeded", "standings", "start", "to_withdraw", "winner",
]
