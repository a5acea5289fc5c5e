"""Who takes the first seat: each player's wish from their seats so far, and how a pairing settles two wishes.

The rule is FIDE's colour preference, with "first seat" for white: a player
who has had one seat more often wants the other; one who has had both as
often wants the seat they did not have last time; a player with no game yet
wishes nothing. The wish is stronger the more lopsided their seats are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .history import Outing
from .model import Pairing, Seat


@dataclass(frozen=True, slots=True)
class Wish:
    """A seat a player would like and how much: 0 none, 1 to alternate, 2 one seat short, 3 two short or twice running."""

    seat: Seat | None
    strength: int


NO_WISH = Wish(None, 0)


def wish(hist: Sequence[Outing]) -> Wish:
    """The seat ``hist`` (a player's outings) makes them want next.

    >>> from bot.tournaments.history import Outing
    >>> wish([Outing(1, "b", Seat.FIRST, True)])
    Wish(seat=<Seat.SECOND: 'second'>, strength=2)
    >>> wish([Outing(1, "b", Seat.FIRST, True), Outing(2, "c", Seat.SECOND, True)])
    Wish(seat=<Seat.FIRST: 'first'>, strength=1)
    """
    seats = [o.seat for o in hist if o.seat is not None]
    if not seats:
        return NO_WISH
    balance = seats.count(Seat.FIRST) - seats.count(Seat.SECOND)
    twice = len(seats) >= 2 and seats[-1] == seats[-2]
    if balance == 0:
        return Wish(seats[-1].other, 3 if twice else 1)
    want = Seat.SECOND if balance > 0 else Seat.FIRST
    return Wish(want, 3 if abs(balance) >= 2 or (twice and seats[-1] != want) else 2)


def clash(a: Wish, b: Wish) -> int:
    """How much a pairing of these two wishes disappoints: the weaker wish when both want the same seat, else 0."""
    if a.seat is None or a.seat != b.seat:
        return 0
    return min(a.strength, b.strength)


def seat(a: str, b: str, wa: Wish, wb: Wish, board: int) -> Pairing:
    """The game between ``a`` (ranked above ``b``) and ``b``, seats given by their wishes.

    Different wishes are both granted; the same wish goes to the stronger one,
    and at equal strength to the higher-ranked ``a``. When neither wishes
    anything (round 1) the higher-ranked player has the first seat on odd
    boards (1, 3, ...) and the second on even ones, as FIDE alternates colours
    down the boards.
    """
    if wa.seat is None and wb.seat is None:
        first_a = board % 2 == 1
    elif wa.seat is None:
        first_a = wb.seat is Seat.SECOND
    elif wb.seat is None or wa.seat != wb.seat:
        first_a = wa.seat is Seat.FIRST
    else:
        a_wins = wa.strength >= wb.strength
        first_a = (wa.seat is Seat.FIRST) == a_wins
    return Pairing(a, b) if first_a else Pairing(b, a)
