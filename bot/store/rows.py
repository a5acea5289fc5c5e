"""The rows the store hands out: frozen values, the same whichever database holds them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    """A challenge as stored."""

    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    opponent_id: int
    game: str
    size: int
    variants: tuple[str, ...]
    seat: str
    rated: bool
    thread: bool
    message_id: int | None
    status: str
    game_id: int | None
    created_at: float
    expires_at: float
    clock: str = "3d"
    #: the game this challenge asks to play again (the Rematch button), else None
    rematch_of: int | None = None


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game's fixed facts and result as stored (its actions are a separate list)."""

    id: int
    guild_id: int
    channel_id: int
    parent_id: int | None
    game: str
    size: int
    variants: tuple[str, ...]
    first: str | None
    seed: int
    seat0_id: int
    seat1_id: int
    rated: bool
    status: str
    winner_seat: int | None
    reason: str | None
    challenge_id: int | None
    created_at: float
    updated_at: float
    finished_at: float | None
    clock: str = "none"
    deadline: float | None = None
    ai_level: str | None = None

    @property
    def seats(self) -> tuple[int, int]:
        """User ids of seat 0 and seat 1."""
        return (self.seat0_id, self.seat1_id)


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's Glicko-2 rating and record for one game in one server."""

    guild_id: int
    game: str
    user_id: int
    rating: float
    deviation: float
    volatility: float
    games: int
    wins: int
    losses: int
    updated_at: float


@dataclass(frozen=True, slots=True)
class TakebackRow:
    """A request to undo the requester's last turn."""

    id: int
    game_id: int
    requester_id: int
    last_seq: int
    status: str
    undone: str
    created_at: float


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's defaults: clock for new challenges, challenge expiry, threads for every game."""

    guild_id: int
    default_clock: str = "3d"
    challenge_minutes: int = 15
    always_thread: bool = True  # a game gets its own thread where one can be made (issue 14)


@dataclass(frozen=True, slots=True)
class TimerRow:
    """A timed event: what (kind), about what (ref_id), when (due_at)."""

    id: int
    due_at: float
    kind: str
    ref_id: int
    payload: str
    guild_id: int | None = None
    claimed_by: str | None = None
    claimed_until: float | None = None
