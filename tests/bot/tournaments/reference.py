"""Independent computations the tournament tests compare the package against.

Written from the rules as stated, from raw games, without the package's
helpers: points, seat histories, and (for fields of up to nine players) every
possible Swiss pairing, enumerated by brute force.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.tournaments import Tournament


def raw_games(t: Tournament) -> list[tuple[int, str, str, str | None]]:
    """Every game as (round, first seat, second seat, winner or None while on)."""
    out = []
    for rnd in t.rounds:
        for g in rnd.pairings:
            res = t.result_of(rnd.number, g)
            out.append((rnd.number, g.first, g.second, None if res is None else res.winner))
    return out


def byes_of(t: Tournament) -> dict[str, int]:
    """How many byes each entrant has had."""
    count = {e.player: 0 for e in t.entrants}
    for rnd in t.rounds:
        for p in rnd.byes:
            count[p] += 1
    return count


def swiss_points(t: Tournament) -> dict[str, int]:
    """Points: 1 a win, 1 a Swiss bye."""
    pts = byes_of(t)
    for _, _, _, w in raw_games(t):
        if w is not None:
            pts[w] += 1
    return pts


def met(t: Tournament) -> set[frozenset[str]]:
    """Every pair of players who have played each other."""
    return {frozenset((a, b)) for _, a, b, _ in raw_games(t)}


def seat_wish(t: Tournament, player: str) -> str | None:
    """The seat ("first"/"second") the player should prefer: fewer had, else the one not had last; None without games."""
    seats = [("first" if a == player else "second") for _, a, b, _ in raw_games(t) if player in (a, b)]
    if not seats:
        return None
    firsts, seconds = seats.count("first"), seats.count("second")
    if firsts != seconds:
        return "first" if firsts < seconds else "second"
    return "second" if seats[-1] == "first" else "first"


def arrangements(players: list[str]) -> Iterator[tuple[list[tuple[str, str]], str | None]]:
    """Every way to pair ``players`` (and, in an odd field, to give one of them the bye)."""
    if len(players) % 2:
        for k, bye in enumerate(players):
            for games in _matchings(players[:k] + players[k + 1:]):
                yield games, bye
    else:
        for games in _matchings(players):
            yield games, None


def _matchings(players: list[str]) -> Iterator[list[tuple[str, str]]]:
    """Every perfect matching of an even list of players."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, other in enumerate(rest):
        for more in _matchings(rest[:k] + rest[k + 1:]):
            yield [(first, other), *more]
