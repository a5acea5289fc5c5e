"""What a review running in the AI workers does to the computer player's move time, and what the
background reviews of finished games cost.

    .venv/bin/python -m bench.review_beside_play [--moves 6] [--workers 1 2] [--level medium] [--review-size 19]
    .venv/bin/python -m bench.review_beside_play --finished 9 11 13 [--workers 2]

Uses the bot's own :class:`bot.ai.BotAI` as ``bench/ai_latency.py`` does. For each worker count,
``--moves`` computer moves are asked one after another (Hex 11×11 after five stones, out of
the book, at ``--level``), first with nothing else running (the baseline, same run), then while
a 19×19 game is reviewed beside them the way the bot does it (:mod:`bot.service.reviews`: one
position at a time through ``BotAI.when_idle``, behind the moves, at the review's budget).
Printed: each move's latency (request to answer) median and max, the worst against the
level's budget, and how many review positions were valued meanwhile. A move waits at most for
the review position in progress when every worker is busy (one worker), never when one is free.
``--review-size 13``: the review beside the moves is of a 13×13 game, the largest a background
review makes (:data:`bot.service.limits.BACKGROUND_MAX_SIZE`).

``--finished``: the cost of the background review of a finished Hex game at each size (a game of
the ``easy`` computer against itself played to its end, each position valued in a worker as the
bot does, the worker's own CPU time measured around each job): turns, positions, CPU seconds for
the whole game and per position, and the wall time of the review with nothing else running.
Not a test: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from bot.ai import BotAI
from bot.service.reviews import _value_job
from engine import new_game
from engine.ai import LEVELS, choose
from engine.ai.review import ITERATIONS, Value, needed
from engine.games import make_options

MOVE_POSITION = ("hex", 11, ["f6", "e7", "g5", "d8", "h4"])


def review_game(size: int = 19, stones: int | None = 60) -> tuple[Any, list[str]]:
    """A game of the ``easy`` computer against itself (``stones`` stones, None: to its end), to review."""
    pos = new_game("hex", size)
    while pos.outcome is None and (stones is None or len(pos.actions) < stones):
        pos.play(choose(pos, "easy", seed=1, iterations=20))
    return pos.options, list(pos.actions)


def timed_value_job(options: Any, actions: list[str], k: int, iterations: int, seed: int) -> tuple[Value, float]:
    """Worker side: the review's job (:func:`bot.service.reviews._value_job`) and the worker's CPU seconds for it."""
    c = time.process_time()
    value = _value_job(options, actions, k, iterations, seed)
    return value, time.process_time() - c


async def finished(workers: int, sizes: list[int], every: int = 1) -> None:
    """The background review of a finished game at each size: its CPU and wall time (``every`` > 1:
    one position in ``every`` valued, the whole game's figures scaled from them, marked ``≈``)."""
    ai = BotAI(workers=workers)
    try:
        warm = make_options("hex", 5, [], None)
        await asyncio.gather(*(ai.choose(warm, [], "easy", 1, "black") for _ in range(workers)))
        print(f"background review of a finished Hex game, {ITERATIONS['hex']} iterations a position, "
              f"one position at a time (as the bot), {workers} workers idle otherwise")
        print("| size | turns | positions | CPU, whole game | CPU a position (mean / max) | wall, whole game |")
        print("|---:|---:|---:|---:|---:|---:|")
        for size in sizes:
            options, actions = review_game(size, None)
            todo = needed(options, actions)
            cpus: list[float] = []
            t = time.perf_counter()
            for k in todo[::every]:
                _, cpu = await ai.when_idle(timed_value_job, options, actions, k, ITERATIONS["hex"], 1)
                cpus.append(cpu)
            scale = len(todo) / len(cpus)
            wall = (time.perf_counter() - t) * scale
            about = "≈ " if every > 1 else ""
            print(f"| {size} | {len(actions)} | {len(todo)} | {about}{sum(cpus) * scale:.1f} s | "
                  f"{statistics.mean(cpus):.2f} s / {max(cpus):.2f} s | {about}{wall:.1f} s |", flush=True)
    finally:
        ai.close()


async def moves(ai: BotAI, level: str, count: int) -> list[float]:
    """``count`` moves asked one after another: their latencies."""
    game, size, actions = MOVE_POSITION
    pos = new_game(game, size)
    for a in actions:
        pos.play(a)
    out = []
    for i in range(count):
        t = time.perf_counter()
        await ai.choose(pos.options, list(pos.actions), level, 100 + i, pos.to_move[0])
        out.append(time.perf_counter() - t)
    return out


async def reviewing(ai: BotAI, options: object, actions: list[str], valued: list[float], stop: asyncio.Event) -> None:
    """Value the game's positions one at a time behind the moves, as the bot's review does, until ``stop``."""
    for k in needed(options, actions):  # type: ignore[arg-type]
        if stop.is_set():
            return
        t = time.perf_counter()
        await ai.when_idle(_value_job, options, actions, k, ITERATIONS["hex"], 1)
        valued.append(time.perf_counter() - t)


async def run(workers: int, level: str, count: int, options: object, actions: list[str]) -> None:
    """One worker count's two rows."""
    ai = BotAI(workers=workers)
    try:
        warm = new_game("hex", 5)
        await asyncio.gather(*(ai.choose(warm.options, [], "easy", 1, "black") for _ in range(workers)))
        budget = LEVELS[level].budget
        base = await moves(ai, level, count)
        valued: list[float] = []
        stop = asyncio.Event()
        task = asyncio.create_task(reviewing(ai, options, actions, valued, stop))
        await asyncio.sleep(0.5)  # the review is under way
        beside = await moves(ai, level, count)
        stop.set()
        await task
        size = options.size  # type: ignore[attr-defined]
        for name, lat in (("alone", base), (f"beside a {size}×{size} review", beside)):
            print(f"| {workers} | {name} | {statistics.median(lat):.2f} s | {max(lat):.2f} s | "
                  f"{max(lat) - budget:+.2f} s | {len(valued) if name != 'alone' else '–'} |", flush=True)
        if valued:
            print(f"|   | (review positions: {statistics.mean(valued):.2f} s mean wall each) | | | | |")
    finally:
        ai.close()


async def main() -> int:
    """Print the table."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--moves", type=int, default=6)
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    p.add_argument("--level", default="medium")
    p.add_argument("--review-size", type=int, default=19, help="the board of the game reviewed beside the moves")
    p.add_argument("--finished", type=int, nargs="*", help="instead: the background review of a finished game "
                   "at each of these sizes")
    p.add_argument("--every", type=int, default=1, help="with --finished: value one position in this many "
                   "(the whole game's figures scaled), to keep a big board's run short")
    args = p.parse_args()
    if args.finished:
        await finished(max(args.workers), args.finished, args.every)
        return 0
    size = args.review_size
    options, actions = review_game(size, 60 if size > 13 else None)
    print(f"level {args.level} ({LEVELS[args.level].budget:.1f} s a move), Hex 11×11; review: {size}×{size}, "
          f"{len(actions)} stones, {ITERATIONS['hex']} iterations a position")
    print("| workers | moves | latency median | latency max | max − budget | review positions valued meanwhile |")
    print("|---:|---|---:|---:|---:|---:|")
    for workers in args.workers:
        await run(workers, args.level, args.moves, options, actions)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
