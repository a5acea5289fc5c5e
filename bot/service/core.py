"""What every part of the service shares: the store, the clock, per-key locks, positions of games."""

from __future__ import annotations

import secrets
import time
from typing import Awaitable, Callable, Iterable

import engine
from engine import Outcome, Position, Reason

from ..store import GameRow, Store
from .errors import Channel, Command, UserError
from .locks import KeyLocks
from .values import ActiveGame


def crossed() -> UserError:
    """The answer when another action got into a game first (in this process or another one, maybe the
    same interaction delivered twice): this one changed nothing, and the game may show either."""
    return UserError("The game changed while your action was being checked (another one got in first). "
                     "{board} shows it as it is now; play again if yours is not there.", board=Command("board"))

#: how each game is called in messages (its printed title)
GAME_TITLES = {name: cls.title for name, cls in engine.GAMES.items()}


class ServiceCore:
    """The service's state and the reads every part needs; the parts are mixed into :class:`GameService`."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        schedule: Callable[[float, str, int], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self._seed = seed_source
        self._schedule = schedule
        #: positions of games in progress, each with the game version it was replayed at
        #: (another process may have changed the game since: the version says so)
        self._positions: dict[int, Position] = {}
        self._versions: dict[int, tuple[int, int]] = {}
        #: one lock per game, keyed by its channel (a game never changes channel), so /move
        #: takes it before reading anything; one per challenge (answers) and per channel
        #: (starting a game)
        self._game_locks = KeyLocks()
        self._challenge_locks = KeyLocks()
        self._channel_locks = KeyLocks()
        #: one lock per game for its live board message (see :mod:`.boards`)
        self._board_locks = KeyLocks()
        #: one lock per finished game for asking its rematch (see :mod:`.challenges`)
        self._rematch_locks = KeyLocks()

    async def _wake(self) -> None:
        """Tell the timer driver that the earliest timer may have changed."""
        if self._schedule:
            await self._schedule(0.0, "", 0)

    async def _position(self, row: GameRow) -> Position:
        """The current position of a game: kept while the stored game's version is the one it was
        replayed at, replayed again when anyone (this process or another) changed the game.

        A kept position is never changed in place (moves make a new one with
        ``Position.after``), so it may be handed out as a snapshot without a copy.
        """
        return await self._position_at(row, await self.store.game_version(row.id))

    async def _position_at(self, row: GameRow, version: tuple[int, int]) -> Position:
        """:meth:`_position` when the game's version was read already (with its row, as a move does)."""
        pos = self._positions.get(row.id)
        if pos is None or self._versions.get(row.id) != version:
            # The version is read first: a change landing in between makes it stale, never wrong.
            options = engine.make_options(row.game, row.size, row.variants, row.first)
            pos = engine.Record(options, await self.store.actions(row.id)).replay()
            if row.status != "active" and pos.outcome is None and row.reason:
                winner = pos.colour_of_seat(row.winner_seat) if row.winner_seat is not None else None
                pos.finish(Outcome(winner, Reason(row.reason)))
            if row.status == "active":
                self._positions[row.id] = pos
                self._versions[row.id] = version
        return pos

    def _forget(self, game_id: int) -> None:
        """Drop a game's kept position (it ended, or the store has a newer one)."""
        self._positions.pop(game_id, None)
        self._versions.pop(game_id, None)

    async def _hold_game(self, game_id: int, version: tuple[int, int] | None) -> GameRow:
        """Inside a transaction: lock the game's row; UserError unless it is still in progress at
        ``version`` (what the caller validated against). What makes a move safe across processes."""
        locked = await self.store.lock_game(game_id)
        if locked is None or locked[0].status != "active":
            self._forget(game_id)
            raise UserError("That game has just ended. See {history}.", history=Command("history"))
        if version is not None and locked[1] != version:
            self._forget(game_id)
            raise crossed()
        return locked[0]

    async def game_in(self, channel_id: int) -> ActiveGame | None:
        """The game in progress in a channel or thread (a snapshot), if any."""
        row = await self.store.active_game_in(channel_id)
        if row is None:
            return None
        return ActiveGame(row, (await self._position(row)).copy())

    async def game(self, game_id: int) -> ActiveGame | None:
        """Any game by id, in progress or ended (a snapshot)."""
        row = await self.store.get_game(game_id)
        if row is None:
            return None
        return ActiveGame(row, (await self._position(row)).copy())

    async def _require_game(self, channel_id: int, user_id: int | None = None) -> GameRow:
        row = await self.store.active_game_in(channel_id)
        if row is None:
            raise await self.no_game_here(channel_id, user_id)
        return row

    async def no_game_here(self, channel_id: int, user_id: int | None) -> UserError:
        """What to tell someone who acts in a channel without a game: where their game is,
        when it lives in a thread of this channel."""
        if user_id is not None:
            # The player's games in this channel's threads only (an index read), never every game.
            threads = await self.store.player_threads(channel_id, user_id)
            if threads:
                return UserError("Your game is in {threads} — play there.", threads=[Channel(t) for t in threads])
        return UserError("There is no game in progress in this channel. Start one with {challenge}.",
                         challenge=Command("challenge"))

    async def names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """Display names last seen for users (falls back to a mention-free id)."""
        ids = list(user_ids)
        known = await self.store.names(guild_id, ids)
        return {u: known.get(u, f"player {u}") for u in ids}

    async def remember_names(self, guild_id: int, names: dict[int, str]) -> None:
        """Keep display names seen in an interaction."""
        await self.store.remember_names(guild_id, names, self.clock())
