"""How a game ended: a value, not strings scattered through the code."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Reason(StrEnum):
    """Why a game ended (RULES.md §6)."""

    CONNECTION = "connection"
    NO_LEGAL_MOVE = "no-legal-move"
    CANNOT_RELOCATE = "cannot-relocate"
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    ABANDONED = "abandoned"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winning colour (None when nobody won) and why.

    >>> Outcome("white", Reason.CONNECTION)
    Outcome(winner='white', reason=<Reason.CONNECTION: 'connection'>)
    """

    winner: str | None
    reason: Reason

    def in_words(self, winner: str = "", loser: str = "") -> str:
        """The result as a player reads it, naming the winner and loser as given.

        The one wording of a result, for pictures and messages alike.

        >>> Outcome("white", Reason.NO_LEGAL_MOVE).in_words("alice", "bob")
        'alice wins: bob has no legal move'
        >>> Outcome(None, Reason.ABANDONED).in_words()
        'Game abandoned'
        """
        if self.winner is None:
            return "Game over: no winner" if self.reason is not Reason.ABANDONED else "Game abandoned"
        return {
            Reason.CONNECTION: f"{winner} wins by connection",
            Reason.NO_LEGAL_MOVE: f"{winner} wins: {loser} has no legal move",
            Reason.CANNOT_RELOCATE: f"{winner} wins: {loser} cannot relocate",
            Reason.RESIGNATION: f"{winner} wins: {loser} resigned",
            Reason.TIMEOUT: f"{winner} wins on time",
            Reason.ABANDONED: f"{winner} wins: the game was abandoned",
        }[self.reason]
