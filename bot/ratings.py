"""Glicko-2 ratings, per server and per game, using the ``glicko2`` library.

Each finished rated game is its own rating period for both players (the way
most game servers apply Glicko-2 to correspondence games).
"""

from __future__ import annotations

from dataclasses import dataclass

import glicko2

DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
#: above this deviation a rating is shown as provisional ("?"), as lichess does
PROVISIONAL_DEVIATION = 110.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating: value, deviation (±) and volatility."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        """True while the rating is still too uncertain to rank seriously."""
        return self.deviation > PROVISIONAL_DEVIATION


def rate_game(winner: Rating, loser: Rating) -> tuple[Rating, Rating]:
    """New ratings of the winner and the loser of one game.

    >>> w, l = rate_game(Rating(), Rating())
    >>> round(w.rating), round(l.rating)
    (1662, 1338)
    """
    a = glicko2.Player(rating=winner.rating, rd=winner.deviation, vol=winner.volatility)
    b = glicko2.Player(rating=loser.rating, rd=loser.deviation, vol=loser.volatility)
    a.update_player([loser.rating], [loser.deviation], [1])
    b.update_player([winner.rating], [winner.deviation], [0])
    return Rating(a.rating, a.rd, a.vol), Rating(b.rating, b.rd, b.vol)


def rate_puzzle(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """New ratings of a member and a puzzle after one attempt, lichess-style: the attempt is a
    rating period for both, the puzzle "winning" when it was not solved.

    >>> p, z = rate_puzzle(Rating(), Rating(), solved=True)
    >>> round(p.rating) > 1500 > round(z.rating)
    True
    """
    if solved:
        return rate_game(player, puzzle)
    new_puzzle, new_player = rate_game(puzzle, player)
    return new_player, new_puzzle
