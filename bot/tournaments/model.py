"""A tournament as values: who plays, the rounds paired so far, the results and the withdrawals.

Everything here is a frozen dataclass, so a tournament is changed by making a
new one (:meth:`Tournament.with_round` and friends); the pairing and scoring
modules read these values and nothing else. Players are known by an opaque
string id (the bot will use the Discord user id); seeds run from 1 (the top
seed) in the order :func:`seeded` gives.

These games have no draws: every game has a winner, so a result is the winner
and how the game ended.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

Format = Literal["swiss", "round-robin", "knockout"]
#: the formats, as the ``/tournament create`` option names them
FORMATS: tuple[Format, ...] = ("swiss", "round-robin", "knockout")
#: fewest entrants a tournament starts with, by format (a round robin of two is one game, not a tournament)
MINIMUM_ENTRANTS: dict[Format, int] = {"swiss": 2, "round-robin": 3, "knockout": 2}
#: most entrants a tournament may take, and most rounds a Swiss may have
MOST_PLAYERS = 256
MOST_ROUNDS = 30


class TournamentError(ValueError):
    """A request the rules refuse (too few entrants, too many rounds, a result for no pairing...).

    The message is short and meant for the person who asked.
    """


class Seat(enum.Enum):
    """Which seat a player has in a game: the first mover's (in games with a swap rule, "first seat") or the other."""

    FIRST = "first"
    SECOND = "second"

    @property
    def other(self) -> Seat:
        """The opposite seat."""
        return Seat.SECOND if self is Seat.FIRST else Seat.FIRST


class Ending(enum.Enum):
    """How a game was decided; every ending is a win for one player and a loss for the other."""

    #: played to the end on the board
    PLAYED = "played"
    #: the loser resigned
    RESIGNED = "resigned"
    #: the loser's clock ran out (a claim): a lapse
    TIME = "time"
    #: the loser stopped playing and the game was ended for them: a lapse
    ABANDONED = "abandoned"
    #: the loser withdrew from the tournament while the game was on (their game is resigned for them)
    WITHDREW = "withdrew"

    @property
    def lapse(self) -> bool:
        """Whether the loser let the game lapse (lost on time or abandoned it): two in a row withdraw a player."""
        return self in (Ending.TIME, Ending.ABANDONED)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in a tournament: id, display name, seed (1 = top) and the rating the seed came from."""

    player: str
    name: str
    seed: int
    rating: float | None = None


def seeded(signups: Iterable[tuple[str, str, float | None]]) -> tuple[Entrant, ...]:
    """Entrants seeded from ``(player, name, rating)`` in sign-up order: highest rating first, unrated last.

    Equal ratings (and the unrated) keep their sign-up order, so seeding is deterministic.

    >>> [e.name for e in seeded([("1", "ann", 1500.0), ("2", "bob", None), ("3", "cy", 1700.0)])]
    ['cy', 'ann', 'bob']
    """
    rows = list(signups)
    players = [p for p, _, _ in rows]
    if len(set(players)) != len(players):
        raise TournamentError("A player can only join once.")
    order = sorted(range(len(rows)), key=lambda k: (rows[k][2] is None, -(rows[k][2] or 0.0), k))
    return tuple(Entrant(rows[k][0], rows[k][1], seed, rows[k][2]) for seed, k in enumerate(order, start=1))


@dataclass(frozen=True, slots=True)
class Pairing:
    """A game of a round: ``first`` has the first seat, ``second`` the other."""

    first: str
    second: str

    @property
    def players(self) -> tuple[str, str]:
        """Both players, first seat first."""
        return self.first, self.second

    def seat_of(self, player: str) -> Seat:
        """The seat ``player`` has in this game."""
        if player == self.first:
            return Seat.FIRST
        if player == self.second:
            return Seat.SECOND
        raise KeyError(player)

    def opponent_of(self, player: str) -> str:
        """The other player of this game."""
        return self.second if player == self.first else self.first


@dataclass(frozen=True, slots=True)
class Round:
    """A paired round: its number (from 1), its games, and who has a bye (Swiss: one point; otherwise none).

    A knockout's first round may have several byes (the top seeds go through);
    elsewhere there is at most one, plus a round robin's players whose scheduled
    opponent has withdrawn.
    """

    number: int
    pairings: tuple[Pairing, ...]
    byes: tuple[str, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone with a game in this round."""
        return tuple(p for g in self.pairings for p in g.players)

    def pairing_of(self, player: str) -> Pairing | None:
        """``player``'s game this round, if they have one."""
        for g in self.pairings:
            if player in g.players:
                return g
        return None


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of one game of a round: who won, and how the game ended."""

    round: int
    pairing: Pairing
    winner: str
    ending: Ending = Ending.PLAYED

    @property
    def loser(self) -> str:
        """The player who lost."""
        return self.pairing.opponent_of(self.winner)


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """``player`` left the tournament during round ``round`` (0: before the first round was paired)."""

    player: str
    round: int
    #: why, for the announcement: ``"asked"`` (``/tournament withdraw``) or ``"lapsed"`` (two games lapsed in a row)
    reason: Literal["asked", "lapsed"] = "asked"


@dataclass(frozen=True, slots=True)
class Settings:
    """What the organiser chose: the format, Swiss rounds (None: the usual number), round-robin cycles."""

    format: Format
    rounds: int | None = None
    cycles: int = 1

    def __post_init__(self) -> None:
        """Refuse a format, cycle count or round count the rules do not have."""
        if self.format not in FORMATS:
            raise TournamentError(f"Unknown format {self.format!r}: choose swiss, round-robin or knockout.")
        if self.cycles not in (1, 2) or (self.cycles == 2 and self.format != "round-robin"):
            raise TournamentError("Only a round robin can be double (two cycles).")
        if self.rounds is not None and (self.format != "swiss" or self.rounds < 1):
            raise TournamentError("Rounds are chosen for a Swiss only, and at least 1.")


def most_swiss_rounds(n: int) -> int:
    """The most rounds a Swiss of ``n`` players has: as many as a round robin, so nobody need meet twice."""
    return n - 1 if n % 2 == 0 else n


def default_swiss_rounds(n: int) -> int:
    """The usual Swiss length, ⌈log2 n⌉ + 1, kept within :func:`most_swiss_rounds`.

    >>> [default_swiss_rounds(n) for n in (2, 3, 4, 8, 9, 200)]
    [1, 3, 3, 4, 5, 9]
    """
    return min(math.ceil(math.log2(n)) + 1, most_swiss_rounds(n))


def planned_rounds(settings: Settings, n: int) -> int:
    """How many rounds a tournament of ``n`` entrants has (a knockout's bracket: ⌈log2 n⌉)."""
    if settings.format == "swiss":
        if settings.rounds is None:
            return default_swiss_rounds(n)
        if settings.rounds > most_swiss_rounds(n):
            raise TournamentError(f"A Swiss of {n} players can have at most {most_swiss_rounds(n)} rounds.")
        return settings.rounds
    if settings.format == "round-robin":
        return settings.cycles * (n - 1 if n % 2 == 0 else n)
    return math.ceil(math.log2(n))


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament from its start: settings, seeded entrants, rounds paired, results and withdrawals."""

    settings: Settings
    entrants: tuple[Entrant, ...]
    rounds: tuple[Round, ...] = ()
    results: tuple[Result, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    _by_player: dict[str, Entrant] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        """Refuse a field too small, a player twice, broken seeds or too many Swiss rounds; index the entrants."""
        need = MINIMUM_ENTRANTS[self.settings.format]
        if len(self.entrants) < need:
            raise TournamentError(f"A {self.settings.format} needs at least {need} players.")
        by_player = {e.player: e for e in self.entrants}
        if len(by_player) != len(self.entrants):
            raise TournamentError("A player can only join once.")
        if sorted(e.seed for e in self.entrants) != list(range(1, len(self.entrants) + 1)):
            raise TournamentError("Seeds must run from 1 to the number of entrants.")
        planned_rounds(self.settings, len(self.entrants))  # refuses a Swiss longer than its field allows
        object.__setattr__(self, "_by_player", by_player)

    @property
    def total_rounds(self) -> int:
        """How many rounds this tournament is planned to have."""
        return planned_rounds(self.settings, len(self.entrants))

    def entrant(self, player: str) -> Entrant:
        """The entrant with id ``player``."""
        return self._by_player[player]

    def seed(self, player: str) -> int:
        """``player``'s seed."""
        return self._by_player[player].seed

    @property
    def withdrawn(self) -> frozenset[str]:
        """Players who have withdrawn (or been withdrawn)."""
        return frozenset(w.player for w in self.withdrawals)

    @property
    def active(self) -> tuple[Entrant, ...]:
        """Entrants still in, in seed order."""
        gone = self.withdrawn
        return tuple(sorted((e for e in self.entrants if e.player not in gone), key=lambda e: e.seed))

    def result_of(self, number: int, pairing: Pairing) -> Result | None:
        """The result of ``pairing`` in round ``number``, if it has one."""
        for r in self.results:
            if r.round == number and r.pairing == pairing:
                return r
        return None

    @property
    def round_complete(self) -> bool:
        """Whether every game of the newest round has a result (true before the first round)."""
        if not self.rounds:
            return True
        last = self.rounds[-1]
        return all(self.result_of(last.number, g) is not None for g in last.pairings)

    def with_round(self, rnd: Round) -> Tournament:
        """This tournament with ``rnd`` paired after the last round, which must be complete."""
        if rnd.number != len(self.rounds) + 1:
            raise TournamentError(f"The next round is round {len(self.rounds) + 1}.")
        if not self.round_complete:
            raise TournamentError("The current round still has games in progress.")
        return replace(self, rounds=(*self.rounds, rnd))

    def with_result(self, result: Result) -> Tournament:
        """This tournament with ``result`` recorded; a game has one result, for a pairing of that round."""
        if not 1 <= result.round <= len(self.rounds) or result.pairing not in self.rounds[result.round - 1].pairings:
            raise TournamentError("That game is not part of this tournament.")
        if result.winner not in result.pairing.players:
            raise TournamentError("The winner must be one of the game's players.")
        if self.result_of(result.round, result.pairing) is not None:
            raise TournamentError("That game already has a result.")
        return replace(self, results=(*self.results, result))

    def with_withdrawal(self, player: str, reason: Literal["asked", "lapsed"] = "asked") -> Tournament:
        """This tournament with ``player`` withdrawn now (during the newest round); their results stand."""
        if player not in self._by_player:
            raise TournamentError("You are not in this tournament.")
        if player in self.withdrawn:
            raise TournamentError("You have already withdrawn.")
        return replace(self, withdrawals=(*self.withdrawals, Withdrawal(player, len(self.rounds), reason)))
