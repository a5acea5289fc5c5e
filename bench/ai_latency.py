"""How long a bot move takes when several games against the computer think at once.

    .venv/bin/python -m bench.ai_latency [--games 1 2 4 8] [--levels easy medium hard]

Uses the bot's own :class:`bot.ai.BotAI` (the engine's process pool, two
workers, as ``python -m bot`` runs it) from an asyncio event loop: K games ask
for a move at the same moment (Hex 11×11 after five stones, out of the opening
book so that the search runs; inpHeXion 7×7 after two turns; Blind Hex
choosing; in turn), and the time from the request to the
answer is measured for each. While they think, a task that sleeps 5 ms records
how late it wakes (the event loop's lag): the search never runs on the loop.
The issue's target: every move within its level's budget + 1 s. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from bot.ai import BotAI
from engine import new_game
from engine.ai import LEVELS

POSITIONS = [("hex", 11, ["f6", "e7", "g5", "d8", "h4"]), ("inphexion", 7, ["d4", "d4 d5"]), ("blindhex", None, ["aside 4+5"])]


async def lag_sampler(samples: list[float], stop: asyncio.Event, period: float = 0.005) -> None:
    """Record how much later than asked a short sleep ends, until ``stop``."""
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(period)
        samples.append(time.perf_counter() - t - period)


async def one_round(ai: BotAI, level: str, games: int) -> tuple[list[float], list[float]]:
    """``games`` requests at once: their latencies and the loop lag meanwhile."""
    async def ask(i: int) -> float:
        game, size, actions = POSITIONS[i % len(POSITIONS)]
        pos = new_game(game, size, (), "x" if game == "blindhex" else None)
        for a in actions:
            pos.play(a)
        t = time.perf_counter()
        await ai.choose(pos.options, list(pos.actions), level, 1000 + i, pos.to_move[0])
        return time.perf_counter() - t

    lags: list[float] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(lag_sampler(lags, stop))
    latencies = await asyncio.gather(*(ask(i) for i in range(games)))
    stop.set()
    await sampler
    return list(latencies), lags


async def main() -> int:
    """Print a markdown table: level, games at once, budget, latency median / max, loop lag."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, nargs="+", default=[1, 2, 4, 8])
    p.add_argument("--levels", nargs="+", default=list(LEVELS))
    args = p.parse_args()
    ai = BotAI()
    try:
        await ai.choose(*_warm())  # start the workers before measuring
        await asyncio.gather(*(ai.choose(*_warm()) for _ in range(ai.workers)))
        print("| level | budget | games thinking at once | latency median | latency max | max − budget "
              "| loop lag p99 | loop lag max |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for level in args.levels:
            budget = LEVELS[level].budget
            for k in args.games:
                lat, lags = await one_round(ai, level, k)
                lags.sort()
                p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))] if lags else 0.0
                print(f"| {level} | {budget:.1f} s | {k} | {statistics.median(lat):.2f} s | {max(lat):.2f} s "
                      f"| {max(lat) - budget:+.2f} s | {p99 * 1000:.1f} ms | {max(lags, default=0) * 1000:.1f} ms |",
                      flush=True)
    finally:
        ai.close()
    return 0


def _warm() -> tuple:
    pos = new_game("hex", 5)
    return pos.options, [], "easy", 1, pos.to_move[0]


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
