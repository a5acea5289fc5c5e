"""Scale: moves through the game service alone on SQLite and PostgreSQL (one and two processes):
what the database decides, without Discord or pictures (``bench/load.py --parts scale`` measures
the whole bot in the same setups). Also the store of 100,000 finished games that
``bench/load.py --parts reads`` seeds and reads: :func:`stored_rows`, :func:`fill`, :func:`reads`.

Run: ``.venv/bin/python -m bench.scale`` (``--quick`` for a short run). Not a test.

A throwaway PostgreSQL 16 is started from the ``pgserver`` wheel (as in the tests).

**Moves.** Each bot process is a real OS process running the real game service and store
(no Discord, no pictures: this measures what the database decides — a move read,
validated by the engine and appended in one transaction holding the game row). ``GAMES``
Hex 11×11 games per process are played flat out, one task per game, each move a
``GameService.play`` call; a finished game is replaced by a new one in its channel.
Reported: moves/s (all processes together), latency p50/p99 of one ``play``, RSS per
process. The baseline is one process on SQLite, in the same run.

**Reads** (used by ``bench/load.py``). 100,000 finished games in 20 servers (one server
holds half of them), 2,000 players with ratings; each read is the one the command makes
(``leaderboard``; ``player_ratings`` + ``player_record`` + ``finished_games(user)`` for
/stats; ``finished_games`` for /history), with random servers and players: p50/p99.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

GAMES = 8
GUILDS = 20
PLAYERS = 2000
STORED = 100_000


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# =========================================================================== one worker process


async def worker(url: str, index: int, games: int, seconds: float) -> dict:
    """Play ``games`` Hex games flat out for ``seconds``; moves, latencies, RSS."""
    import engine  # noqa: F401  (loaded before timing)
    from bot.service import GameService
    from bot.store import Store

    store = await Store.open(url)
    service = GameService(store)
    rng = random.Random(index)
    latencies: list[float] = []
    base = 10_000_000 * (index + 1)
    guild = (index + 1) << 22  # the worker's own server (its shard, in a sharded deployment)

    async def new_game(channel: int) -> None:
        async with store.transaction():
            await store.insert_game(guild_id=guild, channel_id=channel, parent_id=None, game="hex", size=11,
                                    variants=("swap",), first=None, seed=rng.randrange(1 << 30), seat0_id=base + 1,
                                    seat1_id=base + 2, rated=True, challenge_id=None, now=time.time())

    async def play(channel: int, stop_at: float) -> None:
        await new_game(channel)
        while time.monotonic() < stop_at:
            g = await service.game_in(channel)
            if g is None:
                await new_game(channel)
                continue
            user = g.users_to_move()[0]
            colour = g.colour_of(user)
            action = rng.choice(g.position.legal_actions(colour))
            start = time.perf_counter()
            await service.play(channel, user, action)
            latencies.append(time.perf_counter() - start)

    stop_at = time.monotonic() + seconds
    began = time.perf_counter()
    await asyncio.gather(*(play(base + 100 + i, stop_at) for i in range(games)))
    elapsed = time.perf_counter() - began
    await store.close()
    return {"moves": len(latencies), "seconds": elapsed, "latencies": latencies, "rss": rss_mb()}


def run_workers(url: str, processes: int, games: int, seconds: float) -> dict:
    """Start ``processes`` workers at once on one database; their results together."""
    procs = [subprocess.Popen([sys.executable, "-m", "bench.scale", "--worker", url, str(i), str(games), str(seconds)],
                              stdout=subprocess.PIPE, text=True, cwd=ROOT) for i in range(processes)]
    outs = [json.loads(p.communicate(timeout=seconds * 10 + 120)[0]) for p in procs]
    latencies = [x for o in outs for x in o["latencies"]]
    return {
        "moves_per_s": sum(o["moves"] / o["seconds"] for o in outs),
        "p50_ms": pct(latencies, 50) * 1000,
        "p99_ms": pct(latencies, 99) * 1000,
        "rss_mb": [round(o["rss"]) for o in outs],
    }


# =========================================================================== 100,000 stored games


def stored_rows(rng: random.Random, guilds: list[int] | None = None, players: dict[int, list[int]] | None = None,
                stored: int = STORED) -> tuple[list[tuple], list[tuple]]:
    """(games, ratings) rows: finished Hex games in skewed servers (the first holds half of them), ratings
    of every player there. ``players``: each server's user ids (default: the same 2,000 in every server)."""
    guilds = guilds or [(i + 1) << 22 for i in range(GUILDS)]
    players = players or {g: list(range(1, PLAYERS + 1)) for g in guilds}
    games = []
    for gid in range(1, stored + 1):
        guild = guilds[0] if rng.random() < 0.5 else rng.choice(guilds[1:])
        a, b = rng.sample(players[guild], 2)
        t = 1_700_000_000.0 + gid * 60
        games.append((gid, guild, 1000 + gid, "hex", 11, "swap", rng.randrange(1 << 30), a, b, rng.random() < 0.7,
                      "finished", rng.randrange(2), "connection", t - 600, t, t))
    ratings = [(guild, "hex", user, 1500 + rng.gauss(0, 200), 80.0, 0.06, 10, 5, 5, 0.0)
               for guild in guilds for user in players[guild]]
    return games, ratings


GAME_COLUMNS = ("id", "guild_id", "channel_id", "game", "size", "variants", "seed", "seat0_id", "seat1_id", "rated",
                "status", "winner_seat", "reason", "created_at", "updated_at", "finished_at")
NAME_COLUMNS = ("guild_id", "user_id", "name", "updated_at")
RATING_COLUMNS = ("guild_id", "game", "user_id", "rating", "deviation", "volatility", "games", "wins", "losses",
                  "updated_at")


async def fill(url: str, games: list[tuple], ratings: list[tuple], names: list[tuple] = ()) -> None:
    """Bulk-load the rows (COPY on PostgreSQL, executemany on SQLite), after the bot's migrations.

    ``names``: (guild_id, user_id, name, updated_at) rows of the players table (display names)."""
    from bot.store import Store
    from bot.store.urls import database_target

    store = await Store.open(url)
    await store.close()
    dialect, target = database_target(url)
    if dialect == "postgres":
        import asyncpg

        conn = await asyncpg.connect(target)
        try:
            await conn.copy_records_to_table("games", records=games, columns=GAME_COLUMNS)
            await conn.copy_records_to_table("ratings", records=ratings, columns=RATING_COLUMNS)
            await conn.copy_records_to_table("players", records=list(names), columns=NAME_COLUMNS)
            await conn.execute("ANALYZE")
        finally:
            await conn.close()
        return
    con = sqlite3.connect(target)
    with con:
        con.executemany(f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) VALUES ({', '.join('?' * len(GAME_COLUMNS))})",
                        games)
        con.executemany(f"INSERT INTO ratings ({', '.join(RATING_COLUMNS)}) VALUES "
                        f"({', '.join('?' * len(RATING_COLUMNS))})", ratings)
        con.executemany(f"INSERT INTO players ({', '.join(NAME_COLUMNS)}) VALUES (?, ?, ?, ?)", names)
    con.execute("ANALYZE")
    con.close()


async def stats(store, guild: int, user: int) -> None:
    """The reads of /stats."""
    await store.player_ratings(guild, user)
    await store.player_record(guild, user)
    await store.finished_games(guild, user, 5)


async def reads(url: str, calls: int, guilds: list[int] | None = None,
                players: dict[int, list[int]] | None = None) -> dict[str, tuple[float, float]]:
    """Command → (p50 ms, p99 ms) of the reads it makes (servers and players as given to :func:`stored_rows`)."""
    from bot.store import Store

    store = await Store.open(url)
    rng = random.Random(5)
    guilds = guilds or [(i + 1) << 22 for i in range(GUILDS)]
    players = players or {g: list(range(1, PLAYERS + 1)) for g in guilds}
    times: dict[str, list[float]] = {"/leaderboard": [], "/stats": [], "/history": [], "/history player": []}

    async def timed(name: str, coro) -> None:
        start = time.perf_counter()
        await coro
        times[name].append(time.perf_counter() - start)

    try:
        for i in range(calls):
            guild = guilds[0] if i % 2 == 0 else rng.choice(guilds)
            user = rng.choice(players[guild])
            await timed("/leaderboard", store.leaderboard(guild, "hex", 20))

            await timed("/stats", stats(store, guild, user))
            await timed("/history", store.finished_games(guild, None, 15))
            await timed("/history player", store.finished_games(guild, user, 15))
    finally:
        await store.close()
    return {k: (pct(v, 50) * 1000, pct(v, 99) * 1000) for k, v in times.items()}


# =========================================================================== main


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--worker", nargs=4, metavar=("URL", "INDEX", "GAMES", "SECONDS"))
    args = parser.parse_args()
    if args.worker:
        url, index, games, seconds = args.worker
        print(json.dumps(asyncio.run(worker(url, int(index), int(games), float(seconds)))))
        return

    from tests.pgcluster import PgCluster

    seconds = 8.0 if args.quick else 20.0
    cluster = PgCluster().start()
    tmp = Path(tempfile.mkdtemp(prefix="hexscale-"))
    try:
        print(f"moves: {GAMES} Hex 11x11 games per process, flat out, {seconds:.0f} s; {os.cpu_count()} cores\n")
        print("| setup | moves/s | vs 1×SQLite | p50 | p99 | RSS per process |")
        print("|---|---:|---:|---:|---:|---|")
        base = None
        for name, url, n in (("1 process, SQLite", f"sqlite:///{tmp / 'moves.sqlite3'}", 1),
                             ("1 process, PostgreSQL", cluster.new_database(), 1),
                             ("2 processes, PostgreSQL", cluster.new_database(), 2)):
            asyncio.run(fill(url, [], []))  # migrate once, before the workers race to
            r = run_workers(url, n, GAMES, seconds)
            base = base or r["moves_per_s"]
            print(f"| {name} | {r['moves_per_s']:.0f} | {r['moves_per_s'] / base:.2f}× | {r['p50_ms']:.1f} ms "
                  f"| {r['p99_ms']:.1f} ms | {', '.join(f'{m} MB' for m in r['rss_mb'])} |", flush=True)
    finally:
        cluster.stop()
        for f in tmp.iterdir():
            f.unlink()
        tmp.rmdir()


if __name__ == "__main__":
    main()
