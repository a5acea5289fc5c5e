"""Clocks: time per move, the timers a game in progress has, and time left in words."""

from __future__ import annotations

import json

from ..store import GameRow, Store

#: time per move for each clock option (None: no clock)
CLOCKS: dict[str, float | None] = {"5m": 300.0, "1h": 3600.0, "1d": 86400.0, "3d": 3 * 86400.0, "7d": 7 * 86400.0,
                                   "none": None}
#: a game nobody moves in for this long is closed (unrated)
ABANDON_AFTER = 30 * 86400.0
#: the timer kinds a game in progress has
GAME_TIMERS = ("reminder", "deadline", "abandon")


def format_duration(seconds: float) -> str:
    """``2d 3h``, ``4h 10m``, ``5m``, ``40s``: time left in words a player reads at a glance.

    >>> format_duration(2 * 86400 + 3 * 3600 + 59), format_duration(250)
    ('2d 3h', '4m 10s')
    """
    s = max(0, int(seconds))
    d, s = divmod(s, 86400)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    if d:
        return f"{d}d {h}h" if h else f"{d}d"
    if h:
        return f"{h}h {m}m" if m else f"{h}h"
    if m:
        return f"{m}m {s}s" if s else f"{m}m"
    return f"{s}s"


async def arm_timers(store: Store, row: GameRow, now: float) -> None:
    """Replace a game's timers: reminder at a quarter left, the deadline, or the abandonment check (inside a transaction)."""
    per_move = CLOCKS.get(row.clock)
    if per_move is None or row.deadline is None:
        timers = [(now + ABANDON_AFTER, "abandon", "{}")]
    else:
        payload = json.dumps({"deadline": row.deadline})
        timers = [(row.deadline - per_move / 4, "reminder", payload), (row.deadline, "deadline", payload),
                  # A win on time nobody claims must not hold the channel for ever.
                  (row.deadline + ABANDON_AFTER, "abandon", "{}")]
    await store.replace_timers(row.id, GAME_TIMERS, timers, guild_id=row.guild_id)
