"""A command in a channel with no game (``/move``, ``/resign``, ``/claim``) among many games in
progress: how long the refusal takes, and how long it holds the database's write lock.

Run: ``.venv/bin/python -m bench.no_game_here [--games 20000]`` (SQLite, a temporary file). Not a test.

The store holds ``--games`` games in progress in 200 servers. Measured, in the same process:

* **baseline** — what the service did before issue 45: inside the move's write transaction,
  read every game in progress of every server and keep the player's threads of this channel;
* **now** — ``GameService.play`` in a channel without a game, as ``/move`` calls it (the
  transaction reads one row; the player's threads of this channel come from an index after it).

Reported: p50 and p99 of each over ``--rounds`` calls, and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.service import GameService, UserError
from bot.store import Store

CHANNEL, ALICE, BOB = 10, 100, 200


async def fill(store: Store, games: int) -> None:
    """``games`` games in progress, spread over 200 servers and their channels' threads."""
    async with store.transaction():
        for i in range(games):
            await store.insert_game(guild_id=1 + i % 200, channel_id=100_000 + i, parent_id=50_000 + i % 2_000,
                                    game="hex", size=11, variants=(), first=None, seed=i, seat0_id=ALICE + i % 97,
                                    seat1_id=BOB + i % 89, rated=True, challenge_id=None, now=1.0)


async def baseline(store: Store) -> None:
    """The old refusal: every game in progress read inside the write transaction."""
    async with store.transaction():
        await store.lock_game_in(CHANNEL)
        [r.channel_id for r in await store.active_games() if r.parent_id == CHANNEL and ALICE in r.seats]


async def now(service: GameService) -> None:
    """The refusal as ``/move`` meets it today."""
    try:
        await service.play(CHANNEL, ALICE, "a1")
    except UserError:
        return
    raise AssertionError("a move in a channel without a game was accepted")


async def timed(call, rounds: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        await call()
        out.append((time.perf_counter() - start) * 1000)
    return out


def line(name: str, ms: list[float]) -> str:
    ordered = sorted(ms)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{name:<9} p50 {statistics.median(ms):8.2f} ms   p99 {p99:8.2f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.sqlite3"))
        try:
            await fill(store, args.games)
            service = GameService(store)
            before = await timed(lambda: baseline(store), args.rounds)
            after = await timed(lambda: now(service), args.rounds)
        finally:
            await store.close()
    print(f"{args.games} games in progress, SQLite, {args.rounds} calls each")
    print(line("baseline", before))
    print(line("now", after))
    print(f"ratio (baseline p50 / now p50): {statistics.median(before) / statistics.median(after):.0f}×")


if __name__ == "__main__":
    asyncio.run(main())
