"""The game-end hook of tournaments: a tournament game's result is recorded with the game's own.

Called by :meth:`bot.service.moves.MovesService._finish` inside the transaction that ends
the game, so the result and the game's end commit together (a kill -9 loses neither or
both). It also schedules the tournament's ``tournament`` timer, due at once: the timer
driver then advances the tournament in the process that runs its server's shard, and a
crash mid-way leaves the timer to run again (see :mod:`bot.service.tournaments`).
"""

from __future__ import annotations

from engine import Position, Reason

from ..store import GameRow, Store
from ..tournaments import Ending

#: the timer kind that advances a tournament (its ref_id is the tournament's id)
TOURNAMENT_TIMER = "tournament"

#: how a game's end reads as a tournament result (the rest: played to the end on the board)
ENDINGS = {Reason.RESIGNATION: Ending.RESIGNED, Reason.TIMEOUT: Ending.TIME, Reason.ABANDONED: Ending.ABANDONED}


def loser_of_abandoned(row: GameRow, pos: Position) -> int:
    """Who lost an abandoned game (it has no winner on the board): the player it was waiting for.

    When both were to act (a secret Blind Hex choice neither made), the first seat's player is the
    one charged with it, so that every tournament game has exactly one winner.
    """
    waiting = [pos.seat_of_colour(c) for c in pos.to_move]
    return row.seats[min(waiting) if waiting else 0]


async def record_game_end(store: Store, row: GameRow, pos: Position, winner_seat: int | None, reason: Reason,
                          now: float) -> bool:
    """Inside the transaction ending game ``row``: record its tournament result, if it is a tournament
    game, and schedule the tournament's advance. Whether it was one.

    A resignation by a player who has withdrawn is recorded as the withdrawal it is.
    """
    tgame = await store.tournament_game_of(row.id)
    if tgame is None:
        return False
    if winner_seat is None:
        loser = loser_of_abandoned(row, pos)
        winner = row.seats[1] if loser == row.seats[0] else row.seats[0]
    else:
        winner = row.seats[winner_seat]
        loser = row.seats[1 - winner_seat]
    ending = ENDINGS.get(reason, Ending.PLAYED)
    if ending is Ending.RESIGNED:
        gone = {e.user_id for e in await store.entrants(tgame.tournament_id) if e.withdrawn_round is not None}
        if loser in gone:
            ending = Ending.WITHDREW
    if await store.record_tournament_result(row.id, winner, ending.value):
        await store.add_timer(now, TOURNAMENT_TIMER, tgame.tournament_id, guild_id=row.guild_id)
    return True
