"""Time to pair a round of a 200-player Swiss, against two baselines run in the same process.

Run from the repository root: ``python -m bench.tournament_pairing`` (``--quick``: one run per
figure instead of three). Not a test: the figures depend on the machine.

A 200-player Swiss (9 rounds, the usual ⌈log2 200⌉ + 1) is played with seeded
random results; the rounds 1, 5 and 9 are each paired again from the same
state, and the median wall and CPU time of :func:`bot.tournaments.next_round`
is printed with the baselines':

- **Berger**: pairing the same round of a 200-player round robin (a table
  look-up: the floor of what pairing can cost);
- **greedy**: the naive Swiss a hand-written bot might do: down the ranking,
  each player meets the next one they have not met (seats by the same wishes).

Beside the times it prints what the pairing achieves against the greedy one:
rematches, the float cost (sum over games of the squared points difference)
and seat clashes (games where both wanted the same seat). CPU time is shown
because on a shared machine wall time also counts other processes' turns.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from bot.tournaments import Pairing, Result, Round, Settings, Tournament, next_round, start
from bot.tournaments.history import histories, points
from bot.tournaments.seats import clash, seat, wish

PLAYERS = 200
ROUNDS = (1, 5, 9)
T = TypeVar("T")


def timed(fn: Callable[[], T], runs: int) -> tuple[float, float, T]:
    """Median wall and CPU milliseconds of ``fn()`` over ``runs`` runs, and its last result."""
    wall: list[float] = []
    cpu: list[float] = []
    out = None
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    assert out is not None
    return statistics.median(wall), statistics.median(cpu), out


def greedy(t: Tournament) -> Round:
    """The naive Swiss: in rank order, each unpaired player meets the next unpaired one they have not met.

    The bye (odd fields) goes to the lowest-ranked player without one. When
    nobody unmet is left, the player meets the next unpaired one regardless.
    """
    hists = histories(t)
    score = points(t)
    ranked = sorted((e.player for e in t.active), key=lambda p: (-score[p], t.seed(p)))
    bye = None
    if len(ranked) % 2:
        bye = next((p for p in reversed(ranked) if not any(o.is_bye for o in hists[p])), ranked[-1])
        ranked.remove(bye)
    met = {p: {o.opponent for o in hists[p]} for p in ranked}
    free = list(ranked)
    games: list[Pairing] = []
    while free:
        a = free.pop(0)
        b = next((q for q in free if q not in met[a]), free[0])
        free.remove(b)
        games.append(seat(a, b, wish(hists[a]), wish(hists[b]), len(games) + 1))
    return Round(len(t.rounds) + 1, tuple(games), () if bye is None else (bye,))


def quality(t: Tournament, rnd: Round) -> tuple[int, int, int]:
    """(rematches, float cost, seat clashes) of ``rnd`` paired from ``t``."""
    hists = histories(t)
    score = points(t)
    met = {frozenset((p, o.opponent)) for p, h in hists.items() for o in h if o.opponent}
    rematches = sum(frozenset(g.players) in met for g in rnd.pairings)
    floats = sum((score[g.first] - score[g.second]) ** 2 for g in rnd.pairings)
    clashes = sum(clash(wish(hists[g.first]), wish(hists[g.second])) > 0 for g in rnd.pairings)
    return rematches, floats, clashes


def states(settings: Settings, wanted: tuple[int, ...], seed: int = 1) -> dict[int, Tournament]:
    """The tournament just before each of the ``wanted`` rounds is paired (random results, seeded)."""
    rng = random.Random(seed)
    t = start(settings, [(f"p{k}", f"Player {k}", 1000.0 + rng.random() * 1000) for k in range(PLAYERS)])
    out = {}
    for number in range(1, max(wanted) + 1):
        if number in wanted:
            out[number] = t
        rnd = next_round(t)
        t = t.with_round(rnd)
        for g in rnd.pairings:
            t = t.with_result(Result(number, g, rng.choice(g.players)))
    return out


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run per figure instead of three")
    runs = 1 if parser.parse_args().quick else 3
    swiss = states(Settings("swiss"), ROUNDS)
    berger = states(Settings("round-robin"), ROUNDS)
    print(f"Pairing one round of a {PLAYERS}-player Swiss ({swiss[1].total_rounds} rounds), median of {runs}")
    print(f"{'round':>5}  {'Swiss wall/CPU ms':>18}  {'Berger ms':>9}  {'greedy ms':>9}  {'x Berger':>9}  "
          f"{'x greedy':>8}  {'rematches':>9}  {'floats':>9}  {'seat clashes':>12}")
    for number in ROUNDS:
        s, rr = swiss[number], berger[number]
        wall, cpu, ours = timed(partial(next_round, s), runs)
        _, b_cpu, _ = timed(partial(next_round, rr), max(runs, 20))
        _, g_cpu, naive = timed(partial(greedy, s), max(runs, 5))
        q, g = quality(s, ours), quality(s, naive)
        print(f"{number:>5}  {wall:>8.0f} / {cpu:>7.0f}  {b_cpu:>9.2f}  {g_cpu:>9.2f}  {cpu / b_cpu:>9.0f}  "
              f"{cpu / g_cpu:>8.0f}  {q[0]:>4} v {g[0]:<2}  {q[1]:>4} v {g[1]:<3} {q[2]:>6} v {g[2]:<3}")
    print("(rematches, floats and seat clashes: the matching's v the greedy pairing's, for the same round)")


if __name__ == "__main__":
    main()
