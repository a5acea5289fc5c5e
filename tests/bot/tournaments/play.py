"""Whole tournaments played with seeded random results, for the tests to check round by round."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.tournaments import Ending, Result, Round, Settings, Tournament, is_over, next_round, start, to_withdraw

#: endings a random game may have; TIME and ABANDONED are lapses
ENDINGS = (Ending.PLAYED, Ending.RESIGNED, Ending.TIME, Ending.ABANDONED)


@dataclass
class Played:
    """A tournament played to its end, with the state before each round was paired and the round."""

    final: Tournament
    steps: list[tuple[Tournament, Round]] = field(default_factory=list)


def signups(n: int) -> list[tuple[str, str, float | None]]:
    """``n`` players ``p1`` … ``pn`` signed up in that order, rated so that sign-up order is not seed order."""
    return [(f"p{k}", f"Player {k}", float(1500 + (k * 37) % 11 * 10)) for k in range(1, n + 1)]


def play(settings: Settings, n: int, seed: int, *, lapse_rate: float = 0.0,
         withdraw: tuple[int, int] | None = None) -> Played:
    """Play a tournament of ``n`` players to its end with random winners (from ``seed``).

    ``lapse_rate``: the chance a game ends on time or abandoned (lapsed players
    are withdrawn as the bot would); ``withdraw``: (round, seed) of a player
    who withdraws during that round, losing the game they are in.
    """
    rng = random.Random(seed)
    t = start(settings, signups(n))
    out = Played(t)
    while not is_over(t):
        rnd = next_round(t)
        out.steps.append((t, rnd))
        t = t.with_round(rnd)
        quitter = None
        if withdraw is not None and withdraw[0] == rnd.number:
            quitter = next(e.player for e in t.entrants if e.seed == withdraw[1])
            if quitter not in t.withdrawn:
                t = t.with_withdrawal(quitter)
        for g in rnd.pairings:
            if quitter in g.players:
                t = t.with_result(Result(rnd.number, g, g.opponent_of(quitter), Ending.WITHDREW))
                continue
            lapse = rng.random() < lapse_rate
            ending = rng.choice(ENDINGS[2:] if lapse else ENDINGS[:2])
            t = t.with_result(Result(rnd.number, g, rng.choice(g.players), ending))
        for p in to_withdraw(t):
            t = t.with_withdrawal(p, "lapsed")
    out.final = t
    return out
