"""Replay GIFs made once per finished game and posted again from the database.

A finished game never changes, so its GIF is kept (table ``replay_gifs``, the
:data:`.limits.CACHED_REPLAYS` used most recently) under a key naming what went into
it: the public moves, the names and the look. A name changed since, or a new look of the
renderer, makes a new key and so a new GIF. Kept in the database, it survives a restart
and serves every process; in one process, two asks for the same game at once make it once.
A game in progress is made afresh each time (its moves change).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .core import ServiceCore
from .limits import CACHED_REPLAYS
from .locks import KeyLocks
from .values import ActiveGame


def replay_key(game: ActiveGame, names: Mapping[str, str], look: str) -> str:
    """What a game's replay GIF is made from, as a short hash: its public moves, the names by colour
    and ``look`` (the renderer's name for how it draws a replay).

    >>> import engine
    >>> from bot.store import GameRow
    >>> row = GameRow(1, 1, 1, None, "hex", 5, (), None, 0, 1, 2, False, "finished", 0, "resign", None, 0.0, 0.0, 0.0)
    >>> key = replay_key(ActiveGame(row, engine.new_game("hex", 5)), {"black": "a"}, "v1")
    >>> len(key), key == replay_key(ActiveGame(row, engine.new_game("hex", 5)), {"black": "b"}, "v1")
    (32, False)
    """
    made_of = {"game": game.row.id, "moves": game.position.public_record(), "names": dict(sorted(names.items())),
               "look": look}
    return hashlib.sha256(json.dumps(made_of, ensure_ascii=False).encode()).hexdigest()[:32]


class ReplaysService(ServiceCore):
    """The replay GIF of a game: from the database when a finished game's was made before."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: one lock per game whose replay is being made (a second ask waits, then finds it kept)
        self._replay_locks = KeyLocks()

    async def replay_gif(self, game: ActiveGame, names: Mapping[str, str], look: str,
                         make: Callable[[], Awaitable[bytes]]) -> bytes:
        """A game's replay GIF: the kept one if a finished game's was made from the same moves, names and
        ``look``, else ``make()``'s (kept when the game is finished)."""
        if game.row.status == "active":
            return await make()
        key = replay_key(game, names, look)
        async with self._replay_locks.lock(game.row.id):
            gif = await self.store.replay_gif(game.row.id, key, self.clock())
            if gif is None:
                gif = await make()
                await self.store.put_replay_gif(game.row.id, key, gif, self.clock(), CACHED_REPLAYS)
        return gif
