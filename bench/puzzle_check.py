"""What checking a puzzle answer costs: time and CPU per check, per game and board size.

    .venv/bin/python -m bench.puzzle_check [--games hex inphexion] [--sizes 5 11 13] [--positions 5]

For each game and size, a seeded game of the ``easy`` computer (:func:`bench.review.play_game`)
gives ``--positions`` positions spread over it; in each, an answer is checked as ``/puzzle``
checks it (:func:`engine.ai.puzzle_check.check`: the position after the answer searched for
the defender with the review's budget, :data:`engine.ai.review.ITERATIONS`), the answer being
the move the game played there. The baseline, in the same run and on the same machine, is the
review's value of the same positions (:mod:`engine.ai.review`'s valuer, the unit of work a
review runs between moves). Printed per row: wall and CPU seconds per check (mean and max) and
the ratio of the mean CPU to the baseline's. Not a test: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.ai.puzzle_check import check
from engine.ai.review import ITERATIONS, _Valuer

from .review import play_game

SIZES = {"hex": (5, 11, 13), "inphexion": (7, 9)}


def measure(game: str, size: int, count: int, seed: int) -> dict[str, float]:
    """Wall and CPU seconds of ``count`` checks in one game, and of the review's values there."""
    positions = play_game(game, size, seed, {"hex": size * size, "inphexion": 4 * size * size}[game])
    # Each position with the whole turn the game played next (the checked answer).
    pairs = []
    for before, after in zip(positions, positions[1:]):
        if after.outcome is None and before.to_move:
            pairs.append((before, list(after.actions[len(before.actions):])))
    step = max(1, len(pairs) // count)
    sample = pairs[::step][:count]
    walls, cpus = [], []
    for before, answer in sample:
        w, c = time.perf_counter(), time.process_time()
        check(before.options, list(before.actions), answer, iterations=ITERATIONS[game], seed=seed)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    valuer = _Valuer(ITERATIONS[game], seed)
    base = []
    for k, (before, _) in enumerate(sample):
        c = time.process_time()
        valuer.value(k, before)
        base.append(time.process_time() - c)
    return {"wall": statistics.mean(walls), "wall_max": max(walls), "cpu": statistics.mean(cpus),
            "cpu_max": max(cpus), "base_cpu": statistics.mean(base), "n": len(sample)}


def main() -> None:
    """Print one row per game and size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(SIZES))
    parser.add_argument("--sizes", nargs="+", type=int)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':10} {'size':>4} {'n':>3} {'wall s':>7} {'max':>6} {'CPU s':>7} {'max':>6}"
          f" {'review value CPU s (baseline)':>30} {'ratio':>6}")
    for game in args.games:
        for size in args.sizes or SIZES[game]:
            m = measure(game, size, args.positions, args.seed)
            print(f"{game:10} {size:>4} {m['n']:>3} {m['wall']:>7.3f} {m['wall_max']:>6.3f} {m['cpu']:>7.3f}"
                  f" {m['cpu_max']:>6.3f} {m['base_cpu']:>30.3f} {m['cpu'] / max(m['base_cpu'], 1e-9):>6.2f}")


if __name__ == "__main__":
    main()
