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
