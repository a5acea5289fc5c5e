"""Takebacks: asking to undo your last turn, the opponent's answer, and the computer's at once."""

from __future__ import annotations

import logging
from dataclasses import replace

from ..i18n import t
from ..store import GameRow, TakebackRow
from ..timing.clocks import CLOCKS, arm_timers
from .core import ServiceCore
from .errors import ClosedRequest, UserError
from .values import ActiveGame

log = logging.getLogger(__name__)
#: a takeback request that is no longer open, by how it ended
TAKEBACK_CLOSED = {"accepted": t("That takeback request was already accepted."),
                   "declined": t("That takeback request was already declined."),
                   "stale": t("That takeback request was already stale.")}


class TakebacksService(ServiceCore):
    """Undoing a player's last turn, by agreement (or at once against the computer)."""

    async def request_takeback(self, channel_id: int, user_id: int) -> tuple[TakebackRow, ActiveGame]:
        """Ask to undo your last turn before the opponent has moved."""
        async with self._game_locks.lock(channel_id):
            row = await self._require_game(channel_id, user_id)
            pos = await self._position(row)
            if pos.secret_phase is not None:
                raise UserError("{game} has no takebacks: choices are made in secret and revealed together.",
                                game=pos.title)
            if user_id not in row.seats:
                raise UserError("You are not playing in this game; only its players can take a turn back.")
            version = await self.store.game_version(row.id)
            rows = [r for r in await self.store.action_rows(row.id) if not r[3]]
            if row.ai_level is not None:
                return await self._computer_takeback(row, user_id, rows, version)
            if not rows or rows[-1][2] != user_id:
                raise UserError("You can only take back your own last turn, before your opponent has moved.")
            if await self.store.open_takeback(row.id, user_id, rows[-1][0]) is not None:
                raise UserError("You have already asked to take this turn back; your opponent's answer is pending.")
            async with self.store.transaction():
                tb = await self.store.insert_takeback(row.id, user_id, rows[-1][0], self.clock())
            log.info("game %d: takeback %d asked by %d", row.id, tb.id, user_id)
            return tb, ActiveGame(row, pos.copy())

    async def _computer_takeback(self, row: GameRow, user_id: int, rows: list[tuple[int, str, int, bool]],
                                 version: tuple[int, int]) -> tuple[TakebackRow, ActiveGame]:
        """Against the computer a takeback is granted at once: it undoes the player's last
        turn and the computer's reply to it, if it had replied (inside the game's lock)."""
        turn = list(rows)
        while turn and turn[-1][2] != user_id:
            turn.pop()  # the computer's reply
        if not turn:
            raise UserError("You have no turn to take back yet.")
        first = len(turn)
        while first > 0 and turn[first - 1][2] == user_id:
            first -= 1
        async with self.store.transaction():
            tb = await self.store.insert_takeback(row.id, user_id, rows[-1][0], self.clock())
        return await self._undo(row, tb, [(seq, action) for seq, action, _, _ in rows[first:]], version)

    async def _undo(self, row: GameRow, tb: TakebackRow, turn: list[tuple[int, str]],
                    version: tuple[int, int]) -> tuple[TakebackRow, ActiveGame]:
        """Mark ``turn`` (seq, action) taken back, close the request as accepted, restart the clock;
        only if the game is still at ``version`` (the record the turn was read from)."""
        now = self.clock()
        async with self.store.transaction():
            await self._hold_game(row.id, version)
            if not await self.store.close_takeback(tb.id, "accepted", " | ".join(a for _, a in turn)):
                raise ClosedRequest("That takeback request was already answered.")
            await self.store.mark_taken_back(row.id, [seq for seq, _ in turn])
            per_move = CLOCKS.get(row.clock)
            await self.store.set_deadline(row.id, None if per_move is None else now + per_move)
            fresh = await self.store.get_game(row.id)
            assert fresh is not None
            await arm_timers(self.store, fresh, now)
        self._forget(row.id)
        await self._wake()
        log.info("game %d: takeback %d accepted, undid %s", row.id, tb.id, [a for _, a in turn])
        closed = await self.store.get_takeback(tb.id)
        g = await self.game(row.id)
        assert closed is not None and g is not None
        return closed, g

    async def answer_takeback(self, takeback_id: int, user_id: int, accept: bool) -> tuple[TakebackRow, ActiveGame]:
        """The opponent accepts (the turn is undone) or declines a takeback request."""
        tb = await self.store.get_takeback(takeback_id)
        if tb is None:
            raise UserError("That takeback request does not exist.")
        row = await self.store.get_game(tb.game_id)
        assert row is not None
        async with self._game_locks.lock(row.channel_id):
            # Read again inside the lock: a move or another answer may just have got in.
            tb = await self.store.get_takeback(takeback_id)
            row = await self.store.get_game(row.id)
            assert tb is not None and row is not None
            if tb.status != "open":
                raise ClosedRequest(TAKEBACK_CLOSED.get(tb.status, t("That takeback request has already been answered.")))
            if user_id not in row.seats or user_id == tb.requester_id:
                raise UserError("Only the opponent of the player who asked can answer a takeback request.")
            version = await self.store.game_version(row.id)
            live = [r for r in await self.store.action_rows(row.id) if not r[3]]
            if row.status != "active" or not live or live[-1][0] != tb.last_seq:
                async with self.store.transaction():
                    await self.store.close_takeback(tb.id, "stale")
                raise ClosedRequest("Too late: the game has moved on since the takeback was asked.")
            if not accept:
                async with self.store.transaction():
                    await self.store.close_takeback(tb.id, "declined")
                return replace(tb, status="declined"), ActiveGame(row, (await self._position(row)).copy())
            turn = []
            for seq, action, uid, _ in reversed(live):
                if uid != tb.requester_id:
                    break
                turn.append((seq, action))
            turn.reverse()
            return await self._undo(row, tb, turn, version)
