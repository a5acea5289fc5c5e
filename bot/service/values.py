"""The plain values the service takes and returns: requests, games with their position, results."""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from engine import Outcome, Position

from ..store import ChallengeRow, GameRow

#: where a challenger may sit: first to move, second, or drawn at random
SEATS: tuple[str, ...] = ("first", "second", "random")


@dataclass(frozen=True, slots=True)
class ChallengeRequest:
    """What ``/challenge`` asked for; None means the option was left out."""

    guild_id: int
    channel_id: int
    channel_is_thread: bool
    challenger_id: int
    opponent_id: int
    opponent_is_bot: bool
    game: str
    size: int | None = None
    pie: bool | None = None
    neutral: bool | None = None
    free_reply: bool | None = None
    swap: bool | None = None
    seat: str = "random"
    rated: bool = True
    #: None: the server's default (``/settings``)
    thread: bool | None = None
    #: time per move; None: the server's default
    clock: str | None = None
    #: threads can be made here (a text channel); a server's "always thread" default then applies
    channel_can_thread: bool = True
    #: whether the bot may make a thread there and post in it (a default thread needs it; an explicit
    #: ``thread:true`` is tried anyway and a refusal names the missing permission)
    bot_can_thread: bool = True
    #: the opponent is this bot: a game against its AI at ``level``
    opponent_is_me: bool = False
    level: str = "medium"
    #: the game this challenge asks to play again (the Rematch button): it may have one rematch at a time
    rematch_of: int | None = None


@dataclass(slots=True)
class ActiveGame:
    """A game's stored row with its current position."""

    row: GameRow
    position: Position

    def colour_of(self, user_id: int) -> str | None:
        """The colour a user plays now (None for a non-player)."""
        if user_id == self.row.seat0_id:
            return self.position.colour_of_seat(0)
        if user_id == self.row.seat1_id:
            return self.position.colour_of_seat(1)
        return None

    def user_of(self, colour: str) -> int:
        """The user who plays a colour now."""
        return self.row.seats[self.position.seat_of_colour(colour)]

    def users_to_move(self) -> list[int]:
        """Users who may act now."""
        return [self.user_of(c) for c in self.position.to_move]

    def may_abort(self) -> bool:
        """The abort rule, for ``/abort``, the Abort button and whether a board shows it: a game may be
        called off until either player has made a second action (a secret card choice and each
        relocation count; the seat that made an action is the one playing its colour then)."""
        pos = self.position.options.new_position()
        made = [0, 0]
        for text in self.position.actions:
            seat = pos.seat_of_colour(pos.action(text).player or pos.to_move[0])
            made[seat] += 1
            if made[seat] >= 2:
                return False
            pos.play(text)
        return True


@dataclass(slots=True)
class PlayResult:
    """What an accepted action (or a resignation) did."""

    game: ActiveGame
    before: Position
    user_id: int
    colour: str
    actions: list[str]
    #: Blind Hex: a secret choice that is not revealed yet (say only "x has chosen")
    secret: bool = False
    #: Blind Hex: this choice completed the pair, so both are revealed now
    revealed: bool = False
    outcome: Outcome | None = None
    #: user id → (rating before, rating after) when a rated game ended
    rating_changes: dict[int, tuple[float, float]] = field(default_factory=dict)


@dataclass(slots=True)
class StartedGame:
    """A game just created from an accepted challenge."""

    challenge: ChallengeRow
    game: ActiveGame
    #: Blind Hex: the cards drawn in the cut, by colour (e.g. {"x": "Q♠", "o": "7♥"})
    cut: dict[str, str] | None = None


def position_version(game_id: int, position: Position) -> str:
    """A short token naming a game's public position, e.g. ``5-1a2b``: the count of public actions and a
    checksum of them. A panel made for one version is stale once the game has another (a move, a takeback).

    Only public actions go in, so a hidden Blind Hex choice neither changes nor reveals anything.

    >>> import engine
    >>> position_version(7, engine.new_game("hex", 5))
    '0-qod8'
    """
    acts = position.public_record()
    crc = zlib.crc32(f"{game_id}|{'|'.join(acts)}".encode()) % 36 ** 4
    digits = ""
    for _ in range(4):
        crc, d = divmod(crc, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[d] + digits
    return f"{len(acts)}-{digits}"
