"""Timed events of games: which timers still apply, abandoned games, wins on time."""

from __future__ import annotations

import json

from engine import Outcome, Reason

from ..timing.clocks import ABANDON_AFTER, CLOCKS
from .errors import Moment, UserError
from .moves import MovesService
from .values import ActiveGame, PlayResult


class TimedService(MovesService):
    """Timed events of games: which still apply, abandonment, wins on time."""

    async def due_game(self, game_id: int, payload: str) -> ActiveGame | None:
        """The game a reminder or deadline timer is about, if that timer still applies."""
        g = await self.game(game_id)
        if g is None or g.row.status != "active":
            return None
        wanted = json.loads(payload or "{}").get("deadline")
        if wanted is not None and g.row.deadline != wanted:
            return None  # someone moved since: a newer timer replaced this one
        return g

    async def abandon_if_idle(self, game_id: int) -> PlayResult | None:
        """Close a game (unrated) 30 days after its last move, or with a clock 30 days after
        a deadline nobody claimed; None if it is alive."""
        row = await self.store.get_game(game_id)
        if row is None:
            return None
        async with self._game_locks.lock(row.channel_id):
            # Read again inside the lock: a move that just got in keeps the game alive.
            row = await self.store.get_game(game_id)
            if row is None or row.status != "active":
                return None
            clocked = CLOCKS.get(row.clock) is not None and row.deadline is not None
            idle_until = (row.deadline if clocked and row.deadline is not None else row.updated_at) + ABANDON_AFTER
            if self.clock() < idle_until:
                async with self.store.transaction():
                    await self.store.replace_timers(row.id, ("abandon",), [(idle_until, "abandon", "{}")],
                                                    guild_id=row.guild_id)
                await self._wake()
                return None
            pos = await self._position(row)
            trial = pos.copy()
            trial.finish(Outcome(None, Reason.ABANDONED))
            colour = pos.to_move[0] if pos.to_move else pos.colours[0]
            result = PlayResult(ActiveGame(row, trial), pos, 0, colour, [])
            await self._commit(row, result)
            return result

    async def ended_by_timer(self, game_id: int, reason: Reason, winner_id: int | None = None) -> PlayResult | None:
        """The result a timer's handler stored before its process died (an abandoned game, or a
        win on time for ``winner_id``), for the rerun to announce it again; None if the game did
        not end that way. The announcement's nonce keeps Discord from showing it twice."""
        row = await self.store.get_game(game_id)
        if row is None or row.status != "finished" or row.reason != reason.value:
            return None
        if winner_id is not None and (row.winner_seat is None or row.seats[row.winner_seat] != winner_id):
            return None
        ended = await self._position(row)  # with its result
        if row.winner_seat is None:
            user_id, colour = 0, ended.to_move[0] if ended.to_move else ended.colours[0]
        else:
            user_id, colour = row.seats[row.winner_seat], ended.colour_of_seat(row.winner_seat)
        # No actions: the position before them is the one after (only the captions' mover and result are read).
        return PlayResult(ActiveGame(row, ended), ended, user_id, colour, [], outcome=ended.outcome)

    async def claim(self, channel_id: int, user_id: int) -> PlayResult:
        """Win on time: the opponent's deadline has passed and they have not moved."""
        refusal = UserError("You are not playing in this game, so you can't claim it.")
        async with self._players_game(channel_id, user_id, refusal) as held:
            row, pos, colour = held.row, held.pos, held.colour
            if row.deadline is None:
                raise UserError("This game has no clock, so there is nothing to claim.")
            if colour in pos.to_move:
                raise UserError("It's your turn — only the player waiting for a late opponent can claim.")
            left = row.deadline - self.clock()
            if left > 0:
                # a moment, shown relative to when the answer is read: it stays true
                raise UserError("Your opponent's time runs out {deadline}; you can claim then.",
                                deadline=Moment(row.deadline))
            trial = pos.copy()
            trial.finish(Outcome(colour, Reason.TIMEOUT))
            result = PlayResult(ActiveGame(row, trial), pos, user_id, colour, [])
            await self._write_result(held, result)
        return result
