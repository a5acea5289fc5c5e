"""Each player's tournament so far, round by round: whom they met, in which seat, and whether they won.

Pairing (who may meet, who wants which seat) and scoring (points, tie-breaks)
both read a tournament through this one view, so the rule for what a bye or a
withdrawal counts as lives here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Ending, Seat, Tournament


@dataclass(frozen=True, slots=True)
class Outing:
    """One round of one player: a game (opponent, seat, won or still on) or a bye (no opponent)."""

    round: int
    opponent: str | None
    seat: Seat | None
    #: True/False once the game has a result (a bye: True in a Swiss, where it is worth a point, else False)
    won: bool | None
    ending: Ending | None = None

    @property
    def is_bye(self) -> bool:
        """Whether this round was a bye (no game)."""
        return self.opponent is None

    @property
    def lapsed(self) -> bool:
        """Whether the player lost this game by letting it lapse (on time, or abandoned)."""
        return self.won is False and self.ending is not None and self.ending.lapse


#: what a bye is worth, by format: a point in a Swiss; nothing in a round robin (everyone sits out alike)
#: or a knockout (the player simply goes through)
BYE_POINTS = {"swiss": 1, "round-robin": 0, "knockout": 0}


def histories(t: Tournament) -> dict[str, tuple[Outing, ...]]:
    """Every entrant's outings in round order (withdrawn players keep the rounds they had)."""
    out: dict[str, list[Outing]] = {e.player: [] for e in t.entrants}
    bye_won = BYE_POINTS[t.settings.format] > 0
    for rnd in t.rounds:
        for g in rnd.pairings:
            res = t.result_of(rnd.number, g)
            for p in g.players:
                won = None if res is None else res.winner == p
                out[p].append(Outing(rnd.number, g.opponent_of(p), g.seat_of(p), won, None if res is None else res.ending))
        for p in rnd.byes:
            out[p].append(Outing(rnd.number, None, None, bye_won))
    return {p: tuple(o) for p, o in out.items()}


def points(t: Tournament) -> dict[str, int]:
    """Every entrant's points: 1 a win (however the loser lost), 0 a loss, a bye as :data:`BYE_POINTS` says."""
    return {p: sum(1 for o in hist if o.won) for p, hist in histories(t).items()}


def games_played(hist: tuple[Outing, ...]) -> int:
    """Games with a result (byes are not games)."""
    return sum(1 for o in hist if not o.is_bye and o.won is not None)


def lapsed_twice(hist: tuple[Outing, ...]) -> bool:
    """Whether a player's last two finished games both lapsed: the rule that withdraws them.

    Byes in between are not games and do not break the run; a game still on
    does not count yet.

    >>> from bot.tournaments.model import Ending, Seat
    >>> lost = Outing(1, "b", Seat.FIRST, False, Ending.TIME)
    >>> lapsed_twice((lost, Outing(2, None, None, True), Outing(3, "c", Seat.SECOND, False, Ending.ABANDONED)))
    True
    >>> lapsed_twice((lost, Outing(2, "c", Seat.SECOND, False, Ending.RESIGNED)))
    False
    """
    finished = [o for o in hist if not o.is_bye and o.won is not None]
    return len(finished) >= 2 and finished[-1].lapsed and finished[-2].lapsed


def to_withdraw(t: Tournament) -> tuple[str, ...]:
    """Active players whose last two games lapsed, in seed order: the bot withdraws and announces them."""
    hists = histories(t)
    return tuple(e.player for e in t.active if lapsed_twice(hists[e.player]))
