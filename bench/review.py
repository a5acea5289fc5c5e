"""What a review costs: time and CPU per reviewed position, per game and board size.

    .venv/bin/python -m bench.review [--games hex inphexion blindhex] [--sizes 5 9 19] [--positions 6]

For each game and size, a game is played by the ``easy`` computer (seeded, a few
iterations a move, so the game is quick and has mistakes to find) and ``--positions``
positions spread over it are valued as the review values them (:class:`engine.ai.review`'s
valuer: one search of the review's budget, :data:`engine.ai.review.ITERATIONS`, or random
games between Blind Hex rounds). The baseline, in the same run and on the same machine, is
a ``medium`` move's search (its level's 1 s budget) in the same positions (mean; Hex moves
answered by the book or a virtual win, without a search, left out). Printed per
row: wall and CPU seconds per position (mean and max), the ratio of the mean CPU to the
baseline's CPU, and the estimated CPU for a whole game of that length (a review values
every position once: turns + 1). The 19×19 row also gives the figure for 300 moves.
Not a test: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.ai import choose
from engine.ai.hex import ai as hex_ai
from engine.ai.review import ITERATIONS, _Valuer
from engine.games import make_options
from engine.position import Position

SIZES = {"hex": (5, 9, 11, 13, 19), "inphexion": (5, 7, 9, 11), "blindhex": (11,)}


def play_game(game: str, size: int | None, seed: int, max_plies: int) -> list[Position]:
    """The positions of a seeded game of the ``easy`` computer against itself (at most ``max_plies`` actions)."""
    pos = make_options(game, size, [], None).new_position()
    positions = [pos.copy()]
    while pos.outcome is None and len(pos.actions) < max_plies:
        for player in list(pos.to_move):
            if pos.outcome is None:
                pos.play(choose(pos, "easy", seed=seed, iterations=20, player=player), player)
        positions.append(pos.copy())
    return positions


def measure(game: str, size: int | None, count: int, seed: int) -> dict[str, float]:
    """Wall and CPU seconds of the review's value of ``count`` positions of one game, and the baseline's."""
    max_plies = {"hex": (size or 11) ** 2, "inphexion": 4 * (size or 7) ** 2, "blindhex": 200}[game]
    positions = [p for p in play_game(game, size, seed, max_plies) if p.outcome is None]
    step = max(1, len(positions) // count)
    sample = positions[::step][:count]
    valuer = _Valuer(ITERATIONS[game], seed)
    walls, cpus = [], []
    for k, pos in enumerate(sample):
        w, c = time.perf_counter(), time.process_time()
        valuer.value(k, pos)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    base_walls, base_cpus = [], []
    for pos in sample:
        if game == "blindhex" and pos.phase != "write":
            continue  # a card choice is not a search
        w, c = time.perf_counter(), time.process_time()
        choose(pos, "medium", seed=seed, player=pos.to_move[0])
        if game == "hex" and (hex_ai.LAST is None or hex_ai.LAST.book or hex_ai.LAST.by == "vc"):
            continue  # answered without a search: not the baseline
        base_walls.append(time.perf_counter() - w)
        base_cpus.append(time.process_time() - c)
    base_wall, base_cpu = statistics.mean(base_walls or [float("nan")]), statistics.mean(base_cpus or [float("nan")])
    return {
        "turns": len(positions) - 1,
        "wall": statistics.mean(walls), "wall_max": max(walls),
        "cpu": statistics.mean(cpus), "cpu_max": max(cpus),
        "base_wall": base_wall, "base_cpu": base_cpu,
    }


def main() -> None:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=list(SIZES))
    ap.add_argument("--sizes", nargs="*", type=int, default=None, help="only these sizes (default: every supported one)")
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    # Compile the numba kernels first, so that no row pays for it.
    choose(make_options("hex", 5, [], None).new_position(), "hard", seed=0, iterations=30)
    print(f"review budget (iterations per position): {ITERATIONS}; baseline: one 'medium' move (1 s budget)")
    print(f"{'game':10} {'size':>4} {'turns':>5} {'wall/pos':>9} {'max':>7} {'cpu/pos':>8} {'max':>7} "
          f"{'base cpu':>8} {'ratio':>6} {'game cpu':>9}")
    for game in args.games:
        for size in SIZES[game]:
            if args.sizes and size not in args.sizes:
                continue
            r = measure(game, None if game == "blindhex" else size, args.positions, args.seed)
            whole = r["cpu"] * (r["turns"] + 1)
            print(f"{game:10} {size:>4} {r['turns']:>5.0f} {r['wall']:>8.2f}s {r['wall_max']:>6.2f}s "
                  f"{r['cpu']:>7.2f}s {r['cpu_max']:>6.2f}s {r['base_cpu']:>7.2f}s {r['cpu'] / r['base_cpu']:>6.2f} "
                  f"{whole:>8.0f}s", flush=True)
            if game == "hex" and size == 19:
                print(f"{'':10} 19×19, 300 moves: about {r['cpu'] * 301 / 60:.0f} CPU minutes "
                      f"({r['cpu'] * 301 / r['base_cpu']:.0f} medium moves)")


if __name__ == "__main__":
    main()
