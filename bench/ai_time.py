"""Does every level keep its time? One search per game, board size and level, timed against the level's budget.

    .venv/bin/python -m bench.ai_time [--sizes 9 11 13 19] [--levels easy medium hard] [--rounds 2]

Each game is set up mid-game, out of the opening book (Hex: a random but fixed line of
stones, a quarter of the board; inpHeXion: a few random turns; Blind Hex: after the cut), and
``engine.ai.choose`` runs in this process (the search the bot's workers run). The figure is the
wall time of the call over the level's budget: 1.00 is on time; the target is within ±20%.
The baseline is the level's own budget, named in each row. A first untimed search per game and
size loads the compiled kernels, so no row pays for a compile. Not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import Position, new_game
from engine.ai import LEVELS, choose


def midgame(game: str, size: int | None, seed: int) -> Position:
    """A position some way into a game, reached by random legal actions (out of the book)."""
    rng = random.Random(seed)
    position = new_game(game, size)
    cells = (size or 11) ** 2
    plies = {"hex": cells // 4, "inphexion": max(2, cells // 12), "blindhex": 3}[game]
    for _ in range(plies):
        if position.outcome is not None:
            break
        actions = position.legal_actions()
        position = position.after(rng.choice(list(actions)))[0]
    return position


def main() -> None:
    """Print one row per game, size and level: budget, median and max seconds, and their ratio to the budget."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[9, 11, 13, 19], help="Hex sizes")
    p.add_argument("--levels", nargs="+", default=list(LEVELS))
    p.add_argument("--rounds", type=int, default=2, help="searches per row (different positions)")
    args = p.parse_args()
    setups = [("hex", n) for n in args.sizes] + [("inphexion", n) for n in (5, 7, 9, 11)] + [("blindhex", None)]
    print("| game | size | level | budget (baseline) | median | max | median / budget | max / budget |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for game, size in setups:
        choose(midgame(game, size, 0), "easy", seed=0)  # compile and load once, untimed
        for level in args.levels:
            budget = LEVELS[level].budget
            times = []
            for r in range(args.rounds):
                position = midgame(game, size, 1 + r)
                t = time.perf_counter()
                choose(position, level, seed=r)
                times.append(time.perf_counter() - t)
            med, top = statistics.median(times), max(times)
            print(f"| {game} | {size or 11} | {level} | {budget:.1f} s | {med:.2f} s | {top:.2f} s "
                  f"| {med / budget:.2f} | {top / budget:.2f} |", flush=True)


if __name__ == "__main__":
    main()
