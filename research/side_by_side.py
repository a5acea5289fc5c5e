"""Do two benchmarks on one machine slow each other? (a script, not a test)

    .venv/bin/python -m research.side_by_side --mohex PATH MATCH.err... [--size 11] [--plies 9 17]
                                          [--positions 20] [--seconds 1]

The MoHex rows of ``bench/ai.py`` take half an hour each, so they are often run two at a
time, one per core. Each row keeps one core busy at a time (our search and MoHex
alternate), but two rows can still compete for the memory and caches the cores share.
This measures whether they do: it takes positions from the games of MoHex match runs (their
stderr; after ``--plies`` stones, in as many games as it takes) and has each side search
every one of them for ``--seconds``: MoHex (one thread, no pondering, set up as
``research/mohex_match.py`` does; its speed is the "Games/s" of its log) and our AI at
``medium`` (its search's iterations over the call's wall time, as the match's game lines
give it). First each alone (the baseline), then two processes at once: MoHex beside MoHex,
ours beside ours, and MoHex beside ours. Prints, per side and condition, the median speed
over the positions and its ratio to the same side alone, measured in the same run.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
import time
from collections.abc import Callable

from engine import make_options
from engine.ai import choose
from engine.ai.hex import ai as hex_ai
from research.mohex_match import MoHex, MoHexCrashed
from research.mohex_review import match_games, replay

#: a side's search over the positions: (what to run, its arguments) → speeds
Side = tuple[Callable[..., list[float]], tuple]


def positions(paths: list[str], size: int, plies: list[int], count: int) -> list[list[str]]:
    """Up to ``count`` positions of the ``size``×``size`` games in the match logs ``paths``: each
    game's first ``k`` moves for each ``k`` in ``plies``, where the game went at least six plies
    further (so the position is still being fought over), in the logs' order."""
    out: list[list[str]] = []
    for path in paths:
        for game in match_games(path):
            if game.size != size:
                continue
            out.extend(game.moves[:k] for k in plies if len(game.moves) > k + 6)
    return out[:count]


def mohex_speeds(path: str, size: int, moves_list: list[list[str]], seconds: float) -> list[float]:
    """MoHex's games a second on each position it searched (a position its knowledge decides
    runs no search and gives none; one it crashes on, as it does once it has found a game
    decided, gives none either, and MoHex is started again for the next)."""
    mohex = MoHex(path, size)
    speeds = []
    try:
        for moves in moves_list:
            try:
                replay(mohex, moves)
                mohex.genmove("bw"[len(moves) % 2], seconds)
            except MoHexCrashed:
                mohex.start()
                continue
            if mohex.last_speed is not None:
                speeds.append(mohex.last_speed)
    finally:
        mohex.close()
    return speeds


def our_speeds(size: int, moves_list: list[list[str]], seconds: float) -> list[float]:
    """Our ``medium`` search's iterations a second on each position it searched (the opening
    book's moves and positions its connections decide run no search and give none)."""
    options = make_options("hex", size, ())
    choose(options.new_position(), "medium", seed=1, budget=0.1)  # the compiled H-search loads once
    speeds = []
    for moves in moves_list:
        pos = options.new_position()
        for move in moves:
            pos.play(move)
        hex_ai.KEPT.clear()  # each position on its own: nothing from the one before
        start = time.perf_counter()
        choose(pos, "medium", seed=1, budget=seconds)
        wall = time.perf_counter() - start
        report = hex_ai.LAST
        if report is not None and report.iterations and not report.book:
            speeds.append(report.iterations / wall)
    return speeds


def _run(side: Side, out: mp.Queue) -> None:
    func, args = side
    try:
        out.put(func(*args))
    except BaseException as error:
        out.put(error)  # the parent waits on the queue: give it the failure, not silence
        raise


def at_once(sides: list[Side]) -> list[list[float]]:
    """Run each side in a process of its own, all at once; their speeds in the same order."""
    ctx = mp.get_context("fork")
    queues = [ctx.Queue() for _ in sides]
    procs = [ctx.Process(target=_run, args=(side, q)) for side, q in zip(sides, queues)]
    for p in procs:
        p.start()
    results = [q.get() for q in queues]
    for p in procs:
        p.join()
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


def main() -> None:
    """Measure both sides alone, then two at once, and print the medians and ratios."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mohex", required=True, help="path to a MoHex 2.0 binary (see /work/shared/notes/mohex.md)")
    p.add_argument("logs", nargs="+", metavar="MATCH.err", help="stderr of bench/ai.py --mohex runs")
    p.add_argument("--size", type=int, default=11)
    p.add_argument("--plies", type=int, nargs="+", default=[9, 17])
    p.add_argument("--positions", type=int, default=20)
    p.add_argument("--seconds", type=float, default=1.0)
    a = p.parse_args()
    moves_list = positions(a.logs, a.size, a.plies, a.positions)
    if not moves_list:
        sys.exit(f"no {a.size}×{a.size} game in those logs goes past {min(a.plies) + 6} plies")
    sides: dict[str, Side] = {
        "MoHex": (mohex_speeds, (a.mohex, a.size, moves_list, a.seconds)),
        "ours": (our_speeds, (a.size, moves_list, a.seconds)),
    }
    conditions = [
        ("MoHex alone (baseline)", ["MoHex"]),
        ("ours alone (baseline)", ["ours"]),
        ("MoHex beside MoHex", ["MoHex", "MoHex"]),
        ("ours beside ours", ["ours", "ours"]),
        ("MoHex beside ours", ["MoHex", "ours"]),
    ]
    print(f"{len(moves_list)} positions, {a.size}×{a.size}, {a.seconds:g} s each\n")
    print("| condition | side | positions searched | median speed | vs alone |")
    print("|---|---|---:|---:|---:|")
    alone: dict[str, float] = {}
    for name, who in conditions:
        for side, speeds in zip(who, at_once([sides[w] for w in who])):
            median = statistics.median(speeds) if speeds else 0.0
            alone.setdefault(side, median)
            ratio = median / alone[side] if alone[side] else 0.0
            unit = "games/s" if side == "MoHex" else "iterations/s"
            print(f"| {name} | {side} | {len(speeds)} | {median:,.0f} {unit} | {ratio:.2f}× |", flush=True)


if __name__ == "__main__":
    main()
