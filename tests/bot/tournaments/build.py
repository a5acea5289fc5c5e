"""Tournaments written out game by game, for tests whose expected values are worked out by hand."""

from __future__ import annotations

from bot.tournaments import Ending, Pairing, Result, Round, Settings, Tournament, seeded


def build(settings: Settings, names: str, rounds: list[list[str]]) -> Tournament:
    """A tournament of players named by the letters of ``names`` (seeded in that order) and the given rounds.

    Each round is a list of games ``"AB>A"`` (A has the first seat against B, A
    won; ``"AB>A!"``: won because B lost on time, ``"AB>A?"``: because B abandoned it) and byes ``"-C"``.
    """
    t = Tournament(settings, seeded((c, c, None) for c in names))
    for number, games in enumerate(rounds, start=1):
        pairings = tuple(Pairing(g[0], g[1]) for g in games if not g.startswith("-"))
        t = t.with_round(Round(number, pairings, tuple(g[1] for g in games if g.startswith("-"))))
        for g in games:
            if not g.startswith("-"):
                ending = {"!": Ending.TIME, "?": Ending.ABANDONED}.get(g[-1], Ending.PLAYED)
                t = t.with_result(Result(number, Pairing(g[0], g[1]), g[3], ending))
    return t
