"""Event-loop lag while a 200-player Swiss round is paired in a thread and in the bot's pairing worker
process, against a no-pairing baseline run in the same process.

Run from the repository root: ``python -m bench.tournament_lag`` (``--pairings N``: rounds paired
per state, default 3). Not a test: the figures depend on the machine.

:meth:`bot.service.tournaments.TournamentService.advance` paired a round with
``asyncio.to_thread(next_round, t)``; it now pairs it in a worker process
(:func:`bot.service.tournament_pairing.paired`). A thread keeps the loop free only as far as the pairing
lets go of the GIL (networkx's matching is pure Python: it holds it, and Python hands it over
every ``sys.getswitchinterval()``, 5 ms by default). What a member feels is the loop's lag: how
late a task that wanted to run is. A ticker sleeps 1 ms again and again and records how late
each wake-up is:

- **baseline**: the ticker alone, for as long as the pairings take (the machine's own noise);
- **thread**: the ticker while :func:`bot.tournaments.next_round` runs in a thread, as the bot did
  (rounds 1, 5 and 9 of a 200-player Swiss played with seeded random results);
- **process**: the same pairings in the bot's pairing worker, as the bot does now (the worker
  started before, as after the bot's first pairing).

It prints each one's lag p50, p99 and max in milliseconds, and each one's ratio to the baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from bench.tournament_pairing import ROUNDS, states
from bot.service.tournament_pairing import paired
from bot.tournaments import Settings, Tournament, next_round

#: how long the ticker sleeps between wake-ups (seconds)
TICK = 0.001


async def ticker(stop: asyncio.Event, lags: list[float]) -> None:
    """Sleep :data:`TICK` again and again until ``stop``; each wake-up's lateness in ms into ``lags``."""
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(TICK)
        lags.append(max(0.0, (time.perf_counter() - t0 - TICK) * 1000))


async def during(work: float | list[Tournament], process: bool = False) -> tuple[list[float], float]:
    """Wake-up lags while ``work`` runs: seconds of nothing (the baseline), or these states each
    paired one after the other in a thread (or the pairing worker, with ``process``). Also how long it took (s)."""
    stop = asyncio.Event()
    lags: list[float] = []
    tick = asyncio.create_task(ticker(stop, lags))
    await asyncio.sleep(0.05)  # the ticker settles
    lags.clear()
    t0 = time.perf_counter()
    if isinstance(work, float):
        await asyncio.sleep(work)
    else:
        for t in work:
            await (paired(t) if process else asyncio.to_thread(next_round, t))
    took = time.perf_counter() - t0
    stop.set()
    await tick
    return lags, took


def figures(lags: list[float]) -> tuple[float, float, float]:
    """p50, p99 and max of some lags (ms)."""
    ranked = sorted(lags)
    return statistics.median(ranked), ranked[min(len(ranked) - 1, int(0.99 * len(ranked)))], ranked[-1]


async def run(pairings: int) -> None:
    """Measure and print."""
    swiss = states(Settings("swiss"), ROUNDS)
    work = [swiss[n] for n in ROUNDS for _ in range(pairings)]
    await paired(work[0])  # the worker started, as after the bot's first pairing
    thread, took = await during(work)
    process, took_process = await during(work, process=True)
    base, _ = await during(max(took, took_process))
    b50, b99, bmax = figures(base)
    t50, t99, tmax = figures(thread)
    p50, p99, pmax = figures(process)
    print(f"Event-loop lag, a 200-player Swiss paired {len(work)} times (rounds {ROUNDS}): {took:.1f} s in a thread,"
          f" {took_process:.1f} s in the worker;"
          f" switch interval {1000 * __import__('sys').getswitchinterval():.0f} ms")
    print(f"{'':>10} {'wake-ups':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}")
    print(f"{'baseline':>10} {len(base):>8} {b50:>7.1f} {b99:>7.1f} {bmax:>7.1f}")
    print(f"{'thread':>10} {len(thread):>8} {t50:>7.1f} {t99:>7.1f} {tmax:>7.1f}")
    print(f"{'process':>10} {len(process):>8} {p50:>7.1f} {p99:>7.1f} {pmax:>7.1f}")
    print(f"thread / baseline: p99 ×{t99 / max(b99, 0.01):.1f}, max ×{tmax / max(bmax, 0.01):.1f}; "
          f"process / baseline: p99 ×{p99 / max(b99, 0.01):.1f}, max ×{pmax / max(bmax, 0.01):.1f}")


def main() -> None:
    """Parse the options and run the bench."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairings", type=int, default=3, help="times each state is paired")
    asyncio.run(run(parser.parse_args().pairings))


if __name__ == "__main__":
    main()
