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
class Sight:
    """What one member of a server may see of its games: those in the channels and threads
    ``channels`` (ids) and their own, wherever they are."""

    user_id: int
    channels: frozenset[int]

    def sees(self, row: GameRow) -> bool:
        """Whether this member may see the game (list it, read its record, replay it)."""
        return (self.user_id in row.seats or row.channel_id in self.channels
                or (row.parent_id is not None and row.parent_id in self.channels))


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


# -- tournaments (issue 46) -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament as stored: where, who runs it, what is played, its format and how far it is."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    game: str
    size: int
    variants: tuple[str, ...]
    format: str
    rounds: int | None
    cycles: int
    clock: str
    max_players: int
    rated: bool
    #: open (sign-up) | running | finished | cancelled
    status: str
    message_id: int | None
    created_at: float


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """A player signed up for a tournament, in sign-up order (``seq``), withdrawn or not."""

    tournament_id: int
    user_id: int
    seq: int
    name: str
    rating: float | None
    withdrawn_round: int | None
    withdrawn_reason: str | None


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A paired round: its number, who had a bye, and whether its announcement went out."""

    tournament_id: int
    number: int
    byes: tuple[int, ...]
    paired_at: float
    announced: bool


@dataclass(frozen=True, slots=True)
class TournamentGameRow:
    """One game of a round: the players by seat, the game once started, and its result once over."""

    tournament_id: int
    round: int
    board: int
    first_id: int
    second_id: int
    game_id: int | None
    winner_id: int | None
    ending: str | None


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """A game's review as stored: what it is of (``key``; empty for a background review no process
    has started), how many positions it values, and when it was asked for and finished (None while
    it runs)."""

    game_id: int
    key: str
    total: int
    asked_at: float
    done_at: float | None = None
    #: queued as the game ended (for its puzzles), not asked for by a member: made after the asked ones
    background: bool = False


@dataclass(frozen=True, slots=True)
class ReviewValueRow:
    """One reviewed position: the first player's chance after ``ply`` actions, proven or not, and
    the search's move there."""

    ply: int
    seat0: float
    proven: bool
    best: str | None


@dataclass(frozen=True, slots=True)
class PuzzleRow:
    """A puzzle: the position after ``ply`` actions of a finished game, where ``mover`` had a win the
    search proved (``answer``) and played ``missed`` instead."""

    game_id: int
    ply: int
    mover: str
    answer: str
    missed: str
    found_at: float


@dataclass(frozen=True, slots=True)
class PuzzleChoice:
    """A puzzle one member may be set: the puzzle, its own rating, the game it comes from, and the
    member's history with it (attempts failed, the last one's end; solved ones are not offered)."""

    puzzle: PuzzleRow
    rating: float
    deviation: float
    volatility: float
    game: GameRow
    failed: int = 0
    last_at: float | None = None


@dataclass(frozen=True, slots=True)
class PuzzleAttemptRow:
    """A member's attempt at a puzzle: the moves played in it so far (answers and the defender's
    replies, one action each) and whether it is open, solved, failed or expired."""

    id: int
    guild_id: int
    user_id: int
    game_id: int
    ply: int
    line: tuple[str, ...]
    status: str
    started_at: float
    ended_at: float | None = None


@dataclass(frozen=True, slots=True)
class PuzzlePlayerRow:
    """A member's puzzle rating (Glicko-2) in a server, their counts and their streak of solved puzzles."""

    guild_id: int
    user_id: int
    rating: float
    deviation: float
    volatility: float
    solved: int
    failed: int
    streak: int
    best_streak: int
    updated_at: float
