"""A 200-player Swiss round through the store: pairing, recording it, starting its 100 games and
composing its announcement; time and database statements per round, against the pure pairing
alone run in the same process.

Run from the repository root: ``python -m bench.tournament_round`` (``--rounds N``: how many
rounds, default 3; ``--postgres``: also on a throwaway PostgreSQL from the ``pgserver`` wheel).
Not a test: the figures depend on the machine.

Each round is what the bot does once the last game of the previous round ends
(:mod:`bot.service.tournaments`, :mod:`bot.cogs.tournaments`), without Discord:

- **advance**: :meth:`TournamentService.advance`: reading the tournament, pairing it off the
  event loop, inserting the round and its games under the tournament's row lock;
- **start games**: :meth:`TournamentService.start_game` for each pairing (a game row, its timers,
  the link to the pairing: what each game's thread gets);
- **announce**: the announcement's messages (:func:`bot.cogs.tournaments.chunks`, 2000 characters
  each) and marking the round announced;
- **finish**: every game resigned through the game service (the game-end hook records the
  tournament result and schedules the advance), so the next round has results to pair by.

The **baseline** is :func:`bot.tournaments.next_round` on the same state, alone (wall time, as
every figure here): what the pairing itself costs. Statements are counted at the store's driver calls (a batch of rows sent in one
``executemany`` counts as one).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from bot.cogs.tournaments import chunks
from bot.service import GameService
from bot.service.tournaments import Advance, TournamentRequest, TournamentService
from bot.store import Store
from bot.tournaments import next_round
from bot.ui import tournament_texts as say

PLAYERS = 200
GUILD, CHANNEL = 1, 10
T = TypeVar("T")
PRIMITIVES = ("_all", "_one", "_val", "_run", "_returning", "_write_one", "_run_many")


class Counter:
    """Counts the statements a store sends, by wrapping its driver primitives."""

    def __init__(self, store: Store) -> None:
        self.count = 0
        for name in PRIMITIVES:
            real = getattr(store, name)
            setattr(store, name, self._wrap(real))

    def _wrap(self, real: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await real(*args, **kwargs)
        return counted


async def measured(counter: Counter, work: Awaitable[T]) -> tuple[float, int, T]:
    """Wall milliseconds and statements of ``work``, and its result."""
    before, t0 = counter.count, time.perf_counter()
    out = await work
    return (time.perf_counter() - t0) * 1000, counter.count - before, out


async def start_all(service: TournamentService, adv: Advance, thread: int) -> list[int]:
    """Start every game of the round (threads numbered from ``thread + 1``); their channels."""
    started = []
    for k, g in enumerate(adv.to_start, start=1):
        game = await service.start_game(adv.state, g, thread + k, CHANNEL)
        assert game is not None
        started.append(game.row.channel_id)
    return started


async def announce(service: TournamentService, tournament_id: int, number: int, channels: list[int]) -> int:
    """Compose the round's announcement as the cog does and mark it made; how many messages it takes."""
    st = await service.state(tournament_id)
    lines = [say.round_head(tournament_id, number, 9)]
    lines += [say.pairing_line(g.board, g.first_id, g.second_id, c) for g, c in zip(st.games_of(number), channels)]
    lines += say.bye_lines(st.rounds[-1].byes)
    messages = chunks(lines)
    await service.announced(tournament_id, number)
    return len(messages)


async def finish(games: GameService, channels: list[int], rng: random.Random) -> None:
    """Every game of the round resigned by a player drawn at random."""
    for c in channels:
        g = await games.game_in(c)
        assert g is not None
        await games.resign(c, g.row.seats[rng.randrange(2)])


async def run(url: str, rounds: int, label: str) -> None:
    """One 200-player Swiss on the store at ``url``, ``rounds`` rounds measured."""
    store = await Store.open(url)
    clock = [1_800_000_000.0]
    games = GameService(store, clock=lambda: clock[0])
    service = TournamentService(games)
    counter = Counter(store)
    rng = random.Random(46)
    row = await service.create(TournamentRequest(GUILD, CHANNEL, 1, "hex", 11, ("swap",), "swiss", None, 1, "1d",
                                                 PLAYERS, True), staff=True)
    for user in range(1, PLAYERS + 1):
        await service.join(row.id, 1000 + user, f"player {user}")
    await service.start(row.id, 1)
    thread = 10_000
    print(f"\n{label}: a {PLAYERS}-player Swiss")
    print(f"{'round':>5} {'baseline ms':>11} {'advance ms':>10} {'stmts':>5} {'start ms':>8} {'stmts':>5}"
          f" {'announce':>8} {'msgs':>4} {'finish ms':>9} {'stmts':>5}")
    for number in range(1, rounds + 1):
        st = await service.state(row.id)
        assert st.tournament is not None
        t0 = time.perf_counter()
        next_round(st.tournament)
        baseline = (time.perf_counter() - t0) * 1000
        adv_ms, adv_n, adv = await measured(counter, service.advance(row.id))
        assert adv.round is not None and adv.round.number == number
        start_ms, start_n, channels = await measured(counter, start_all(service, adv, thread))
        thread += len(channels)
        ann_ms, ann_n, msgs = await measured(counter, announce(service, row.id, number, channels))
        fin_ms, fin_n, _ = await measured(counter, finish(games, channels, rng))
        print(f"{number:>5} {baseline:>11.0f} {adv_ms:>10.0f} {adv_n:>5} {start_ms:>8.0f} {start_n:>5}"
              f" {ann_ms:>5.0f} ms {msgs:>4} {fin_ms:>9.0f} {fin_n:>5}")
    await store.close()


def main() -> None:
    """Parse the options and run the bench."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", action="store_true", help="also on a throwaway PostgreSQL (pgserver)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}", args.rounds, "SQLite"))
    if args.postgres:
        from tests.pgcluster import PgCluster

        cluster = PgCluster().start()
        try:
            asyncio.run(run(cluster.new_database(), args.rounds, "PostgreSQL"))
        finally:
            cluster.stop()


if __name__ == "__main__":
    main()
