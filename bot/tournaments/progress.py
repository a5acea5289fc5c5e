"""A tournament's course: starting it, pairing each next round, and telling when it is over and who won.

This is what the bot calls; it picks the format's pairing and keeps the
rules about when a round may be paired in one place.
"""

from __future__ import annotations

from collections.abc import Iterable

from .knockout import alive, pair_knockout
from .model import Round, Settings, Tournament, TournamentError, seeded
from .roundrobin import pair_round_robin
from .standings import standings
from .swiss import pair_swiss


def start(settings: Settings, signups: Iterable[tuple[str, str, float | None]]) -> Tournament:
    """A tournament of ``signups`` (``(player, name, rating)`` in sign-up order), seeded, before round 1.

    Raises :class:`TournamentError` with a message for the organiser when the
    field is too small for the format or the Swiss rounds too many for it.
    """
    return Tournament(settings, seeded(signups))


def is_over(t: Tournament) -> bool:
    """Whether the tournament has ended: its last round is complete, or too few players are left to pair.

    A knockout ends when one player is left in the bracket; a Swiss or round
    robin when its planned rounds are all played or fewer than two players
    remain (everyone else withdrew).
    """
    if not t.round_complete:
        return False
    if t.settings.format == "knockout":
        return len(alive(t)) <= 1
    return len(t.rounds) >= t.total_rounds or len(t.active) < 2


def winner(t: Tournament) -> str | None:
    """The winner once the tournament is over: None before, or when everyone withdrew.

    In a Swiss or round robin it is the best-placed player who did not
    withdraw: a withdrawn player keeps their place in the table, but does not
    win a tournament they left.
    """
    if not is_over(t):
        return None
    if t.settings.format == "knockout":
        left = alive(t)
        return left[0] if left else None
    return next((s.player for s in standings(t) if not s.withdrawn), None)


def next_round(t: Tournament) -> Round:
    """The next round's pairings (add it with :meth:`Tournament.with_round`).

    A round may come out with no games, only byes, when withdrawals left
    someone's scheduled opponents empty (a round robin); it is complete at once.
    """
    if not t.round_complete:
        raise TournamentError("The current round still has games in progress.")
    if is_over(t):
        raise TournamentError("The tournament is over.")
    fmt = t.settings.format
    if fmt == "swiss":
        return pair_swiss(t)
    if fmt == "round-robin":
        return pair_round_robin(t)
    return pair_knockout(t)
