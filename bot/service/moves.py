"""Moves and results: playing, resigning, aborting, and recording a result with its ratings."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace

from engine import Outcome, Position, Reason

from ..ratings import DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY, Rating, rate_game
from ..store import Conflict, GameRow, RatingRow
from ..timing.clocks import CLOCKS, GAME_TIMERS, arm_timers
from ..ui import tournament_texts
from .core import ServiceCore, crossed
from .errors import Command, NotYourTurn, StaleChoice, UserError
from .review_wanted import want_review
from .tournament_results import record_game_end
from .values import ActiveGame, PlayResult, position_version

log = logging.getLogger(__name__)


class _NoGameHere(Exception):
    """Raised inside :meth:`MovesService._players_game`'s transaction when the channel has no game."""


@dataclass(slots=True)
class HeldGame:
    """A game held for a change by :meth:`MovesService._players_game`: its row and version as read
    (held to COMMIT), its kept position, the acting user's colour, and the result written."""

    row: GameRow
    #: None when the game's position was not kept at a known version
    version: tuple[int, int] | None
    pos: Position
    colour: str
    written: PlayResult | None = None


class MovesService(ServiceCore):
    """Actions in a game: legal ones, playing one, resigning, aborting; the result and ratings."""

    #: called after a game's end is committed (the app: the reviews' maker looks for a background review)
    on_game_end: Callable[[], None] | None = None

    async def legal_for(self, channel_id: int, user_id: int) -> list[str]:
        """The legal actions of a user in this channel's game, as they would type them."""
        row = await self.store.active_game_in(channel_id)
        if row is None:
            return []
        g = ActiveGame(row, await self._position(row))
        colour = g.colour_of(user_id)
        if colour is None or colour not in g.position.to_move:
            return []
        actions = g.position.legal_actions(colour)
        # A secret choice is typed without the colour (the bot adds it): ``1+4``.
        return [g.position.action(a).typed for a in actions]

    async def play(self, channel_id: int, user_id: int, text: str, *, seen: int | None = None,
                   version: str | None = None, names: dict[int, str] | None = None) -> PlayResult:
        """Apply one line of notation for a user; raises UserError or the engine's ActionError.

        ``seen``: the number of public actions the line was chosen for (the computer's
        moves); ``version``: the :func:`position_version` it was chosen for (a Play panel).
        If the game has changed since, nothing is applied (:class:`StaleChoice` for a panel).
        ``names``: display names seen with the move, stored in the same write transaction.
        """
        refusal = UserError("You are not playing in this game; start your own with {challenge}.",
                            challenge=Command("challenge"))
        async with self._players_game(channel_id, user_id, refusal) as held:
            row, pos, colour = held.row, held.pos, held.colour
            if seen is not None and len(pos.public_record()) != seen:
                raise UserError("The game changed while that move was being chosen.")
            if version is not None and position_version(row.id, pos) != version:
                raise StaleChoice("The game has changed since that panel was opened; nothing was played.")
            g = ActiveGame(row, pos)
            if colour not in pos.to_move:
                if pos.choosing_in_secret():
                    raise UserError("You have already chosen your cards; waiting for your opponent to choose.")
                raise NotYourTurn(g.users_to_move(), list(pos.to_move))
            trial, applied = pos.after(text, player=colour)
            result = PlayResult(ActiveGame(row, trial), pos, user_id, colour, applied)
            if pos.choosing_in_secret():
                result.revealed = not trial.choosing_in_secret() or trial.to_move == sorted(trial.colours)
                result.secret = not result.revealed
            await self._write_result(held, result, names)
        return result

    async def resign(self, channel_id: int, user_id: int) -> PlayResult:
        """End this channel's game: the other player wins by resignation."""
        refusal = UserError("You are not playing in this game, so you can't resign it.")
        async with self._players_game(channel_id, user_id, refusal) as held:
            trial = held.pos.copy()
            trial.finish(Outcome(trial.other(held.colour), Reason.RESIGNATION))
            result = PlayResult(ActiveGame(held.row, trial), held.pos, user_id, held.colour, [])
            await self._write_result(held, result)
        return result

    async def abort(self, channel_id: int, user_id: int) -> ActiveGame:
        """End a game that has barely started: no result, no rating change."""
        async with self._game_locks.lock(channel_id):
            row = await self._require_game(channel_id, user_id)
            if user_id not in row.seats:
                raise UserError("You are not playing in this game, so you can't abort it.")
            if await self.store.tournament_game_of(row.id) is not None:
                raise UserError(tournament_texts.NO_ABORT, resign=Command("resign"))
            if not ActiveGame(row, await self._position(row)).may_abort():
                raise UserError("Too late to abort: a player has made a second action. You can {resign}.",
                                resign=Command("resign"))
            now = self.clock()
            async with self.store.transaction():
                await self._hold_game(row.id, None)
                await self.store.finish_game(row.id, status="aborted", winner_seat=None, reason=None, now=now)
                await self.store.end_timers(row.id, GAME_TIMERS)
            self._forget(row.id)
            log.info("game %d: aborted by %d", row.id, user_id)
            aborted = await self.store.get_game(row.id)
            assert aborted is not None
            return ActiveGame(aborted, (await self._position(aborted)).copy())

    @contextlib.asynccontextmanager
    async def _players_game(self, channel_id: int, user_id: int, refusal: UserError) -> AsyncIterator[HeldGame]:
        """Hold this channel's game lock and, in one write transaction, the game's row; yield it
        (:class:`HeldGame`) or refuse non-players with ``refusal``. The block writes a result with
        :meth:`_write_result`, adopted once the transaction has committed; nothing is written if
        the block raises.

        The row and its version are read once and held to COMMIT, so no other process can
        change the game in between; the position is the kept one (replayed only if the version
        moved), not a copy: callers never change it in place.
        """
        async with self._game_locks.lock(channel_id):
            held: HeldGame | None = None
            try:
                async with self.store.transaction():
                    locked = await self.store.lock_game_in(channel_id)
                    if locked is None:
                        raise _NoGameHere
                    row, version = locked
                    pos = await self._position_at(row, version)
                    colour = ActiveGame(row, pos).colour_of(user_id)
                    if colour is None:
                        raise refusal
                    held = HeldGame(row, version, pos, colour)
                    yield held
            except _NoGameHere:
                # Where the player's game is, looked up after the write transaction ended: the
                # write lock is never held for more than the one game's row.
                raise await self.no_game_here(channel_id, user_id) from None
            except Conflict:
                # The unique keys are the last line of defence: the transaction was rolled back.
                if held is not None:
                    self._forget(held.row.id)
                raise crossed() from None
            if held is not None and held.written is not None:
                await self._adopt(held.written, held.version)

    async def _commit(self, row: GameRow, result: PlayResult) -> None:
        """Hold the game's row at the version its kept position was replayed at, store ``result``
        and adopt it: for a change decided without :meth:`_players_game` (a timer's)."""
        version = self._versions.get(row.id)
        try:
            async with self.store.transaction():
                # The game's row must still be the version the position was replayed at: a
                # change checked against an older position is refused, whichever process (or
                # task) got there first.
                held = await self._hold_game(row.id, version)
                await self._write_result(HeldGame(held, version, result.before, result.colour), result)
        except Conflict:
            self._forget(row.id)
            raise crossed() from None
        await self._adopt(result, version)

    async def _write_result(self, held: HeldGame, result: PlayResult, names: dict[int, str] | None = None) -> None:
        """Store a result's new actions (and the game's result, ratings and display names) in the
        transaction holding the game's row; ``result.game`` gets the game's new row.

        The new row is worked out here from what was written (``updated_at``, ``deadline``,
        the result) rather than read back: the game's row is held, so this is the only writer.
        """
        row, pos, trial, applied = held.row, held.pos, result.game.position, result.actions
        now = self.clock()
        new = replace(row, updated_at=now) if applied else row
        if names:
            await self.store.remember_names(row.guild_id, names, now)
        if applied:
            await self.store.append_actions(row.id, await self.store.next_seq(row.id), applied, result.user_id, now)
        if trial.outcome is not None:
            result.outcome = trial.outcome
            new, result.rating_changes = await self._finish(new, trial, now)
        elif not set(trial.to_move) <= set(pos.to_move) or row.deadline is None:
            # A new player has to act: their time starts now. (Relocations, a second
            # letter, or the second Blind Hex choice keep the running deadline.)
            per_move = CLOCKS.get(row.clock)
            new = replace(new, deadline=None if per_move is None else now + per_move)
            await self.store.set_deadline(row.id, new.deadline)
            await arm_timers(self.store, new, now)
        result.game.row = new
        held.written = result

    async def _adopt(self, result: PlayResult, version: tuple[int, int] | None) -> None:
        """After COMMIT: keep the new position as the game's (at ``version`` plus the actions
        written) or forget an ended game's, wake the timers, and log the change."""
        row, trial, applied = result.game.row, result.game.position, result.actions
        if trial.outcome is not None or version is None:
            self._forget(row.id)
        else:
            self._positions[row.id] = trial
            self._versions[row.id] = (version[0] + len(applied), version[1])
        await self._wake()
        if trial.outcome is not None and self.on_game_end is not None:
            self.on_game_end()  # the reviews' maker looks for a review queued in the background
        # A Blind Hex choice stays secret in the logs too until both are revealed.
        shown = "a secret choice" if result.secret else " | ".join(applied) or "-"
        log.info("game %d: %s by %d (%s)%s", row.id, shown, result.user_id, result.colour,
                 f" → {trial.describe_outcome()}" if trial.outcome else "")

    async def _finish(
        self, row: GameRow, pos: Position, now: float
    ) -> tuple[GameRow, dict[int, tuple[float, float]]]:
        """Record the result and, for a rated game both players took part in, the new ratings.

        Returns the finished game's row and user id → (rating before, after).
        """
        outcome = pos.outcome
        assert outcome is not None
        winner_seat = pos.seat_of_colour(outcome.winner) if outcome.winner else None
        if not await self.store.finish_game(row.id, status="finished", winner_seat=winner_seat,
                                            reason=outcome.reason.value, now=now):
            raise Conflict(f"game {row.id} had already ended")  # two resignations: only one counts
        row = replace(row, status="finished", winner_seat=winner_seat, reason=outcome.reason.value, finished_at=now,
                      updated_at=now)
        # A timer being handled now stays for its driver: if this result is the handler's own
        # (a win on time, an abandoned game), a rerun after a crash announces it again.
        await self.store.end_timers(row.id, GAME_TIMERS)
        # A tournament game's result is the tournament's too, committed with the game's end.
        await record_game_end(self.store, row, pos, winner_seat, outcome.reason, now)
        # Its review for puzzles, queued in the background with the game's end (committed together).
        await want_review(self.store, row, pos, now)
        if not row.rated or winner_seat is None or outcome.reason is Reason.ABANDONED:
            return row, {}
        movers = {u for _, u in await self.store.action_users(row.id)}
        if not set(row.seats) <= movers:
            return row, {}  # a game one side never played in does not count (e.g. resigned at once)
        winner_id, loser_id = row.seats[winner_seat], row.seats[1 - winner_seat]
        # Rating rows are read-modify-written: hold both (in user-id order, so two games
        # finishing at once cannot wait on each other in a circle).
        await self.store.lock_ratings(row.guild_id, row.game, (winner_id, loser_id), now)
        before = {}
        for uid in (winner_id, loser_id):
            r = await self.store.get_rating(row.guild_id, row.game, uid)
            before[uid] = r or RatingRow(row.guild_id, row.game, uid, DEFAULT_RATING, DEFAULT_DEVIATION,
                                         DEFAULT_VOLATILITY, 0, 0, 0, now)
        w, lo = before[winner_id], before[loser_id]
        new_w, new_l = rate_game(Rating(w.rating, w.deviation, w.volatility), Rating(lo.rating, lo.deviation, lo.volatility))
        await self.store.put_rating(RatingRow(row.guild_id, row.game, winner_id, new_w.rating, new_w.deviation,
                                              new_w.volatility, w.games + 1, w.wins + 1, w.losses, now))
        await self.store.put_rating(RatingRow(row.guild_id, row.game, loser_id, new_l.rating, new_l.deviation,
                                              new_l.volatility, lo.games + 1, lo.wins, lo.losses + 1, now))
        changes = {winner_id: (w.rating, new_w.rating), loser_id: (lo.rating, new_l.rating)}
        for uid, (b, a) in changes.items():
            await self.store.add_rating_change(row.id, uid, b, a)
        return row, changes
