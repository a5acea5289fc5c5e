"""Load: the real bot against the loopback fake Discord, many games at once.

Run: ``.venv/bin/python -m bench.load`` (not a test: numbers depend on the machine).
``--quick`` runs shorter phases (a few minutes in all); ``--games 1 20 100`` picks the N of the
load runs; ``--parts load scale reads`` picks the parts (all by default).

The bot runs as its own process (``HexBot`` with the system clock and the
production logging set-up, pointed at the fake by the fake's launcher), so
it has a core and an interpreter of its own, as in production; this process
runs the fake Discord and the players. Every move is a real ``/move``
interaction whose answer carries a freshly rendered board (Blind Hex secret
choices excepted: they are answered privately without a picture).

For each N (games at once; two players per game, one channel per game,
a mix of Hex 11×11, inpHeXion 7×7 and Blind Hex, new games started by a real
challenge and Accept click whenever one ends) there are two runs:

* **paced** — each game's player to move answers after a think time drawn
  from 0.5–1.5 s (seeded), so N games offer about N moves per second;
* **flat out** — no think time: every game sends its next move as soon as the
  previous answer arrived (closed loop; shows the capacity).

Measured: moves/s; latency from the interaction's dispatch to the final
answer reaching the fake (p50/p95/p99); **time to acknowledgement** — from the
interaction's creation to its first response (defer or answer) reaching the
fake — p50/p99 over every interaction of the window (moves, challenges,
Accept clicks), and how many missed Discord's 3 s (late, or never answered); event-loop lag in the bot process (a
task that sleeps 5 ms and records how late it wakes: p99, max); the bot's
RSS (now and peak); the CPU of the bot process and of this one (the fake and
the players), also per move; with ``--baseline``, the ratios to the baseline's
bot in the same run (moves/s, bot CPU per move). Then the memory of 1,000 active games (prepared through
the game service, then each one touched by a real ``/move`` so its position
is loaded), and the database size per 1,000 finished games.

**Scale** (``--parts scale``): the same flat-out load (``--scale-games`` N, 20) in
each setup of ``--setups``: one process on SQLite (the baseline, first), one on
PostgreSQL, and two processes running shards 0 and 1 of 2 on one PostgreSQL
(the fake routes each server's interactions to its shard's process; the tables
are split between a server on each shard). ``--rounds`` (3) rounds alternate
the setups, so a change in the machine's other load weighs on each alike.
Moves/s of all processes together (median over the rounds) and its ratio to
the baseline's run of the same round, latency, RSS and CPU per process, and the
CPU a move costs in the bots and in the PostgreSQL server.

**Reads** (``--parts reads``): ``/leaderboard``, ``/stats`` and ``/history`` (of
everyone, and of a player) with ``--stored`` (100,000) finished games on both
stores, through the bot and the database reads alone (see :func:`reads_run`).

The fake shares the machine's cores with the bot: it checks every request the
bot makes against Discord's spec, but not its own answers unless
``--check-fake-answers`` is given (that check is the tests' business and cost
about a third of the fake's CPU).

PostgreSQL is ``--database-url`` / ``DATABASE_URL`` when it names a scratch
PostgreSQL database, else a throwaway server started from the ``pgserver``
wheel as the tests do (``tests/pgcluster.py``), a fresh database per run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[1]

TOKEN = "load-bench-token"
MIX = [("hex", 11), ("inphexion", 7), ("blindhex", None)]


# =========================================================================== the bot process


class LagSampler:
    """How late a task that sleeps ``period`` seconds wakes up: the event loop's lag."""

    def __init__(self, period: float = 0.005) -> None:
        self.period = period
        self.samples: list[float] = []

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(self.period)
            self.samples.append(max(0.0, loop.time() - start - self.period))

    def dump(self, path: str) -> None:
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.samples, f)
        os.replace(tmp, path)


async def serve_bot(url: str, lag_file: str, shard: str = "-") -> None:
    """The bot's side: run the bot (``shard`` "I/COUNT": shard I of COUNT; "-": unsharded); SIGUSR1 starts a
    lag window, SIGUSR2 writes it out, SIGTERM stops."""
    from bot.app import make_bot
    from bot.config import Settings
    from bot.logs import setup_logging
    from bot.shards import ShardPlan

    token = os.environ["DISCORD_TOKEN"]
    setup_logging("INFO", token)
    sampler = LagSampler()
    loop = asyncio.get_running_loop()
    plan = None
    if shard != "-":
        index, count = shard.split("/")
        plan = ShardPlan(int(count), (int(index),))
    bot = make_bot(Settings(token=token, database_url=url, shards=plan))
    loop.add_signal_handler(signal.SIGUSR1, sampler.samples.clear)
    loop.add_signal_handler(signal.SIGUSR2, sampler.dump, lag_file)
    loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    lag_task = asyncio.create_task(sampler.run())
    try:
        async with bot:
            await bot.start(token)
    finally:
        lag_task.cancel()


# =========================================================================== this process: fake + players


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def cpu_seconds(pid: int) -> float:
    """CPU seconds a process used so far (user + system, all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_cpu(postmaster: int) -> float:
    """CPU seconds of a PostgreSQL server: the postmaster and the processes it runs now (its backends)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(stat.parent.name) == postmaster or int(fields[1]) == postmaster:
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError):
            continue  # a process that just ended
    return total


def rss_mb(pid: int) -> tuple[float, float]:
    """(current RSS, peak RSS) of a process in MB, from /proc."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


class BotProcess:
    """One bot process on ``url`` (a database URL, or an SQLite file's path); ``shard``: (index, count) or None."""

    def __init__(self, fake, workdir: Path, url: str | Path, root: Path = ROOT,
                 shard: tuple[int, int] | None = None) -> None:
        self.fake, self.workdir, self.url, self.root, self.shard = fake, workdir, str(url), root, shard
        name = f"shard{shard[0]}" if shard else "bot"
        self.lag_file = workdir / f"{name}-lag.json"
        self.log_file = workdir / f"{name}.log"
        self.proc: asyncio.subprocess.Process | None = None

    def _ready(self) -> bool:
        return any(c.session is not None and c.session.shard == self.shard for c in self.fake.gateway.ready_connections)

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items()
               if k not in ("DATABASE_PATH", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID")}
        env.update(DISCORD_TOKEN=self.fake.token, PYTHONUNBUFFERED="1")
        args = [self.url, str(self.lag_file)] + ([f"{self.shard[0]}/{self.shard[1]}"] if self.shard else [])
        cmd = self.fake.launch_command("bench.load", "--serve-bot", *args)
        env = self.fake.launch_env(env)
        if self.root != ROOT:  # another checkout's bot (a baseline): its packages come first
            env["PYTHONPATH"] = f"{self.root}{os.pathsep}{env['PYTHONPATH']}"
        with open(self.log_file, "ab") as log:
            self.proc = await asyncio.create_subprocess_exec(*cmd, env=env, cwd=self.root, stdout=log, stderr=log)
        if self.shard is not None:
            await self.fake.gateway.wait_until(lambda g: self._ready(), 120)
            return
        before = self.fake.gateway.identifies
        await self.fake.gateway.wait_until(lambda g: g.identifies > before and g.connected, 120)

    def lag_window_start(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGUSR1)

    async def lag_window_end(self) -> list[float]:
        assert self.proc is not None
        self.lag_file.unlink(missing_ok=True)
        self.proc.send_signal(signal.SIGUSR2)
        for _ in range(1000):
            if self.lag_file.exists():
                return json.loads(self.lag_file.read_text())
            await asyncio.sleep(0.01)
        raise RuntimeError("the bot did not write its loop-lag samples")

    def cpu(self) -> float:
        """CPU seconds the bot process used so far (all its threads)."""
        assert self.proc is not None
        return cpu_seconds(self.proc.pid)

    def rss(self) -> tuple[float, float]:
        assert self.proc is not None
        return rss_mb(self.proc.pid)

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), 30)
        except asyncio.TimeoutError:
            self.proc.kill()
            await self.proc.wait()


def read_game(url: str, channel_id: int) -> dict:
    """The game going on in a channel, straight from the database (either store)."""
    from tests.dbquery import query_dicts

    return query_dicts(url, "SELECT * FROM games WHERE channel_id = ? AND status = 'active'", channel_id)[0]


@dataclass
class Table:
    """One channel: two players, one game at a time, a seeded script of what they type."""

    channel: object
    players: tuple
    game: str
    size: int | None
    rng: random.Random
    lines: list[tuple[int, str]] = field(default_factory=list)  # (user id, text)
    next: int = 0


def script(row: dict, rng: random.Random) -> list[tuple[int, str]]:
    options = engine.make_options(row["game"], row["size"], tuple(row["variants"].split()), row["first"])
    log: list[str] = []
    options.new_position().random_playout(rng, log)
    pos = options.new_position()
    seats = (row["seat0_id"], row["seat1_id"])
    out = []
    for action in log:
        colour, _, cards = action.partition(":")
        if not cards:
            colour = pos.to_move[0]
        out.append((seats[pos.seat_of_colour(colour)], cards or action))
        pos.play(action)
    return out


class Load:
    """The players of every table: each plays its game's script, one /move at a time."""

    def __init__(self, fake, url: str, workdir: Path, tables: list[Table], think: float) -> None:
        self.fake, self.url, self.workdir, self.tables, self.think = fake, url, workdir, tables, think
        self.latencies: list[float] = []
        self.images = 0
        self.failures: list[str] = []
        self.measuring = False

    async def new_game(self, t: Table) -> None:
        a, b = t.players
        options = {"opponent": b, "game": t.game, "thread": False}  # the game stays in the table's channel
        if t.size:
            options["size"] = t.size
        r = await self.fake.slash(a, t.channel, "challenge", timeout=60, **options)
        if r.ephemeral:
            raise RuntimeError(f"the bot refused a challenge: {r.content!r} (see its log in {self.workdir})")
        accept = next(c for c in r.custom_ids if c.endswith(":accept"))
        await self.fake.click(b, r, accept, timeout=60)
        # The click is acknowledged first (a silent update) and the game starts after it.
        row = read_game(self.url, t.channel.id)
        for _ in range(6000):
            if row is not None:
                break
            await asyncio.sleep(0.01)
            row = read_game(self.url, t.channel.id)
        if row is None:
            raise RuntimeError(f"no game started after Accept (see its log: {self.workdir})")
        t.lines, t.next = script(row, t.rng), 0

    async def play(self, t: Table, stop_at: float) -> None:
        users = {p.id: p for p in t.players}
        loop = asyncio.get_running_loop()
        while loop.time() < stop_at:
            if t.next >= len(t.lines):
                await self.new_game(t)
            user, text = t.lines[t.next]
            t0 = time.perf_counter()
            inter = await self.fake.start_slash(users[user], t.channel, "move", action=text, timeout=60)
            try:
                r = await inter.wait(60)
            except Exception as exc:  # noqa: BLE001 — count and go on: the report says how many
                self.failures.append(f"{type(exc).__name__}: {exc}"[:200])
                t.next = len(t.lines)  # start a fresh game rather than guess where this one is
                continue
            elapsed = time.perf_counter() - t0
            if r.ephemeral and "You chose" not in (r.content or ""):
                self.failures.append(f"refused: {r.content!r}"[:200])
                t.next = len(t.lines)
                continue
            t.next += 1
            if self.measuring:
                self.latencies.append(elapsed)
                self.images += any(n.endswith(".png") for n in r.attachments)
            if self.think:
                await asyncio.sleep(self.think * t.rng.uniform(0.5, 1.5))


def ack_figures(interactions: list, deadline: float, now: float) -> tuple[list[float], int]:
    """Times to acknowledgement (s) of the answered interactions, and how many missed the deadline."""
    acks = [i.latency for i in interactions if i.latency is not None]
    missed = sum(1 for i in interactions
                 if i.late or (i.latency is not None and i.latency > deadline)
                 or (i.latency is None and now - i.dispatched_at > deadline))
    return acks, missed


@dataclass
class Setup:
    """Where the bot keeps its data and how many processes share it: ``shards`` 1 = one unsharded process."""

    name: str
    store: str  # "sqlite" or "postgres"
    shards: int = 1


SETUPS = {"sqlite": Setup("1 process, SQLite", "sqlite"), "postgres": Setup("1 process, PostgreSQL", "postgres"),
          "postgres-2": Setup("2 processes (shards 0, 1 of 2), PostgreSQL", "postgres", 2)}


def guild_on_shard(fake, shard: int, count: int, name: str):
    """A new server whose events go to ``shard`` of ``count`` (Discord's routing)."""
    from bot.shards import shard_of

    while True:
        guild = fake.add_guild(name)
        if shard_of(guild.id, count) == shard:
            return guild
        time.sleep(0.002)  # the next snowflake's timestamp part moves on


class Databases:
    """A fresh database per run: an SQLite file, or a database on PostgreSQL.

    PostgreSQL is ``DATABASE_URL`` when given (a scratch database: every run adds to it), else a
    throwaway server started from the ``pgserver`` wheel, as the tests do (``tests/pgcluster.py``).
    """

    def __init__(self, postgres_url: str | None) -> None:
        self.postgres_url = postgres_url
        self.cluster = None

    def new(self, store: str, workdir: Path) -> str:
        if store == "sqlite":
            return str(workdir / "bot.sqlite3")  # a bare path: a --baseline checkout from before DATABASE_URL reads it too
        if self.postgres_url:
            return self.postgres_url
        if self.cluster is None:
            from tests.pgcluster import PgCluster

            self.cluster = PgCluster().start()
        return self.cluster.new_database()

    def server_cpu(self) -> float | None:
        """CPU seconds the throwaway PostgreSQL server used so far (None for DATABASE_URL's: not ours to see)."""
        if self.cluster is None:
            return None
        return server_cpu(int((self.cluster.data / "postmaster.pid").read_text().split()[0]))

    def close(self) -> None:
        if self.cluster is not None:
            self.cluster.stop()
            self.cluster = None


async def load_run(n: int, think: float, seconds: float, seed: int, warmup: float, root: Path = ROOT,
                   setup: Setup = SETUPS["sqlite"], databases: Databases | None = None,
                   check_fake_answers: bool = False) -> dict:
    """N games at once against the bot in ``setup``; figures of the measured window."""
    from tests.fake_discord import FakeDiscord
    from tests.fake_discord.patch import block_network

    count = setup.shards
    fake = FakeDiscord(token=TOKEN, shard_count=count)
    # It shares the cores with the bot: it checks every request but not its own answers (the tests do).
    fake.check_own_answers = check_fake_answers
    # Two servers, one per shard when sharded: the tables alternate between them.
    guilds = [guild_on_shard(fake, i % count, count, f"Load Server {i}") for i in range(2)]
    tables = []
    for i in range(n):
        guild = guilds[i % 2]
        channel = fake.add_text_channel(guild, f"game-{i}")
        players = (fake.add_member(guild, f"p{i}a"), fake.add_member(guild, f"p{i}b"))
        game, size = MIX[i % len(MIX)]
        tables.append(Table(channel, players, game, size, random.Random(f"{seed}-{n}-{think}-{i}")))
    workdir = Path(tempfile.mkdtemp(prefix=f"load-{n}-"))
    databases = databases or Databases(None)
    url = databases.new(setup.store, workdir)
    pg_cpu0: float | None = None
    await fake.start()
    bots = [BotProcess(fake, workdir, url, root, (i, count) if count > 1 else None) for i in range(count)]
    load = Load(fake, url, workdir, tables, think)
    try:
        with block_network():
            for bot in bots:
                await bot.start()
            idle_rss = [bot.rss()[0] for bot in bots]
            for t in tables:  # the first games, started one by one
                await load.new_game(t)
            loop = asyncio.get_running_loop()
            end = loop.time() + warmup + seconds
            players = [asyncio.create_task(load.play(t, end)) for t in tables]
            await asyncio.sleep(warmup)
            first = len(fake.interactions)
            load.measuring = True
            for bot in bots:
                bot.lag_window_start()
            t0, own_cpu0 = time.perf_counter(), time.process_time()
            bot_cpu0 = [bot.cpu() for bot in bots]
            pg_cpu0 = databases.server_cpu() if setup.store == "postgres" else None
            await asyncio.gather(*players)
            wall = time.perf_counter() - t0
            bot_cpu = [(bot.cpu() - c0) / wall for bot, c0 in zip(bots, bot_cpu0)]
            own_cpu = (time.process_time() - own_cpu0) / wall
            pg_cpu1 = databases.server_cpu() if pg_cpu0 is not None else None
            load.measuring = False
            acks, missed = ack_figures(fake.interactions[first:], fake.interaction_deadline, fake.now())
            lag = [x for bot in bots for x in await bot.lag_window_end()]
            rss = [bot.rss() for bot in bots]
    finally:
        for bot in bots:
            await bot.stop()
        await fake.stop()
    shutil.rmtree(workdir, ignore_errors=True)
    ms = [x * 1000 for x in load.latencies]
    return {
        "setup": setup.name, "processes": count,
        "N": n, "think": think, "moves": len(ms), "moves/s": len(ms) / wall, "images": load.images,
        "p50": pct(ms, 50), "p95": pct(ms, 95), "p99": pct(ms, 99),
        "ack p50": pct([x * 1000 for x in acks], 50), "ack p99": pct([x * 1000 for x in acks], 99),
        "acks": len(acks), "missed 3 s": missed,
        "lag p99": pct([x * 1000 for x in lag], 99), "lag max": max(lag) * 1000 if lag else float("nan"),
        "rss": sum(r for r, _ in rss), "peak": sum(p for _, p in rss), "rss each": [r for r, _ in rss],
        "idle rss": sum(idle_rss), "failures": load.failures,
        "bot cpu": sum(bot_cpu) * 100, "bot cpu each": [c * 100 for c in bot_cpu], "fake cpu": own_cpu * 100,
        "latencies": ms, "ack latencies": [x * 1000 for x in acks],
        "bot cpu ms/move": sum(bot_cpu) * wall / max(1, len(ms)) * 1000,
        "fake cpu ms/move": own_cpu * wall / max(1, len(ms)) * 1000,
        "db cpu ms/move": (pg_cpu1 - pg_cpu0) / max(1, len(ms)) * 1000 if pg_cpu0 is not None and pg_cpu1 else None,
    }


async def prepare_games(db: Path, guild_id: int, channels: list[int], members: list[int], seed: int,
                        finish: bool) -> dict[int, engine.Position]:
    """Games made through the game service directly (no Discord), ``finish``ed or left running."""
    from bot.service import ChallengeRequest, GameService
    from bot.store import Store

    store = await Store.open(db)
    rng = random.Random(seed)
    service = GameService(store, seed_source=lambda: rng.getrandbits(62))
    positions = {}
    try:
        for i, channel in enumerate(channels):
            game, size = MIX[i % len(MIX)]
            a, b = members[(2 * i) % len(members)], members[(2 * i + 1) % len(members)]
            req = ChallengeRequest(guild_id=guild_id, channel_id=channel, channel_is_thread=False, challenger_id=a,
                                   opponent_id=b, opponent_is_bot=False, game=game, size=size, seat="first",
                                   thread=False)
            ch = await service.create_challenge(req, {a: f"player{a % 1000}", b: f"player{b % 1000}"})
            started = await service.accept(ch.id, b)
            g = started.game
            moves = 10_000 if finish else rng.randint(5, 30)
            for _ in range(moves):
                pos = g.position
                if pos.outcome is not None:
                    break
                colour = pos.to_move[0]
                legal = pos.legal_actions(colour)
                rng.shuffle(legal)
                action = legal[0]
                if not finish:  # keep the game running: not a move that ends it
                    action = next((a for a in legal if _continues(pos, a, colour)), None)
                    if action is None:
                        break
                g = (await service.play(channel, g.user_of(colour), action.split(":", 1)[-1]
                                        if pos.game == "blindhex" and pos.phase == "choose" else action)).game
            positions[channel] = g
    finally:
        await store.close()
    return positions


def _continues(pos: engine.Position, action: str, colour: str) -> bool:
    trial = pos.copy()
    trial.play(action, player=colour)
    return trial.outcome is None and bool(trial.to_move)


def db_bytes(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


async def memory_run(games: int, seed: int) -> dict:
    """RSS of the bot with ``games`` active games, each touched by a real /move (positions loaded)."""
    from tests.fake_discord import FakeDiscord
    from tests.fake_discord.patch import block_network

    fake = FakeDiscord(token=TOKEN)
    guild = fake.add_guild("Memory Server")
    channels = [fake.add_text_channel(guild, f"g{i}") for i in range(games)]
    members = [fake.add_member(guild, f"m{i}") for i in range(200)]
    workdir = Path(tempfile.mkdtemp(prefix="load-memory-"))
    db = workdir / "bot.sqlite3"
    t0 = time.perf_counter()
    games_now = await prepare_games(db, guild.id, [c.id for c in channels], [m.id for m in members], seed, False)
    prepare_s = time.perf_counter() - t0
    size_active = db_bytes(db)
    await fake.start()
    bot = BotProcess(fake, workdir, db)
    by_id = {m.id: m for m in members}
    rng = random.Random(seed)
    touched, failures = 0, []
    try:
        with block_network():
            await bot.start()
            rss_loaded_db, _ = bot.rss()
            queue = list(zip(channels, (games_now[c.id] for c in channels)))

            async def worker() -> None:
                nonlocal touched
                while queue:
                    channel, g = queue.pop()
                    pos = g.position
                    if pos.outcome is not None:
                        continue
                    colour = pos.to_move[0]
                    action = rng.choice(pos.legal_actions(colour))
                    text = action.split(":", 1)[-1] if pos.game == "blindhex" and pos.phase == "choose" else action
                    r = await fake.slash(by_id[g.user_of(colour)], channel, "move", action=text, timeout=120)
                    if r.ephemeral and "You chose" not in (r.content or ""):
                        failures.append(r.content)
                    touched += 1

            await asyncio.gather(*(worker() for _ in range(8)))
            rss, peak = bot.rss()
    finally:
        await bot.stop()
        await fake.stop()
    shutil.rmtree(workdir, ignore_errors=True)
    return {"games": games, "touched": touched, "rss": rss, "peak": peak, "rss before touching": rss_loaded_db,
            "db bytes (active)": size_active, "prepare s": prepare_s, "failures": failures[:5]}


async def db_size_run(games: int, seed: int) -> dict:
    """Database bytes for ``games`` finished games (played to the end through the service)."""
    workdir = Path(tempfile.mkdtemp(prefix="load-dbsize-"))
    db = workdir / "bot.sqlite3"
    empty = workdir / "empty.sqlite3"
    from bot.store import Store

    s = await Store.open(empty)
    await s.close()
    base = db_bytes(empty)
    positions = await prepare_games(db, 1, list(range(10_000, 10_000 + games)), list(range(1, 101)), seed, True)
    actions = sum(len(g.position.actions) for g in positions.values())
    size = db_bytes(db) - base
    shutil.rmtree(workdir, ignore_errors=True)
    return {"games": games, "bytes": size, "actions": actions}


#: untimed calls of each read command after a bot starts (connections, caches, first-query plans)
WARM_UP = 3
READ_GUILDS = 4
READ_PLAYERS = 250
READS = {"/leaderboard": ("leaderboard", False), "/stats": ("stats", True), "/history": ("history", False),
         "/history player": ("history", True)}  # name → (command, whether it names another player)


class ReadWorld:
    """A fake Discord whose servers hold ``stored`` finished games in one store, for the read commands.

    The games are bulk-inserted (COPY on PostgreSQL) into servers the fake knows, the first holding
    half of them, with ratings and display names of every player. :meth:`measure` starts a bot on
    them and sends each command one at a time (latency, not throughput), by random members about
    random members, after :data:`WARM_UP` untimed calls: from the interaction's dispatch to its
    final answer at the fake (acknowledgement, database, answer). The database reads alone (the store called from this
    process, as the command calls it) are measured once, after seeding.
    """

    def __init__(self, store: str) -> None:
        from tests.fake_discord import FakeDiscord

        self.store = store
        self.fake = FakeDiscord(token=TOKEN)
        self.guilds = [self.fake.add_guild(f"Reads {i}") for i in range(READ_GUILDS)]
        self.channels = {g.id: self.fake.add_text_channel(g, "games") for g in self.guilds}
        self.members = {g.id: [self.fake.add_member(g, f"r{i}-{j}") for j in range(READ_PLAYERS)]
                        for i, g in enumerate(self.guilds)}
        self.workdir = Path(tempfile.mkdtemp(prefix=f"load-reads-{store}-"))
        self.times: dict[str, list[float]] = {name: [] for name in READS}
        self.failures: list[str] = []
        self.rss = 0.0

    async def open(self, databases: Databases, stored: int, calls: int, seed: int) -> ReadWorld:
        """Seed the store, time its reads alone, start the fake."""
        from bench.scale import fill, reads, stored_rows

        self.url = databases.new(self.store, self.workdir)
        players = {g: [m.id for m in ms] for g, ms in self.members.items()}
        games, ratings = stored_rows(random.Random(seed), list(players), players, stored)
        names = [(g, m.id, m.name, 0.0) for g, ms in self.members.items() for m in ms]
        t0 = time.perf_counter()
        await fill(self.url, games, ratings, names)
        self.seeded, self.stored = time.perf_counter() - t0, len(games)
        self.db = await reads(self.url, calls, list(players), players)
        await self.fake.start()
        return self

    async def measure(self, calls: int, rng: random.Random) -> None:
        """Start a bot on the store, send each command ``calls`` times, stop it."""
        from tests.fake_discord.patch import block_network

        bot = BotProcess(self.fake, self.workdir, self.url)
        try:
            with block_network():
                await bot.start()
                for i in range(-WARM_UP, calls):  # the first calls of a fresh process are not timed
                    guild = self.guilds[0] if i % 2 == 0 else rng.choice(self.guilds)
                    user, other = rng.sample(self.members[guild.id], 2)
                    for name, (command, about) in READS.items():
                        options = {"player": other} if about else {"game": "hex"} if command == "leaderboard" else {}
                        start = time.perf_counter()
                        r = await self.fake.slash(user, self.channels[guild.id], command, timeout=60, **options)
                        if i >= 0:
                            self.times[name].append((time.perf_counter() - start) * 1000)
                        if r.ephemeral or not r.embeds:
                            self.failures.append(f"{name}: {r.content!r}"[:200])
                self.rss = max(self.rss, bot.rss()[0])
        finally:
            await bot.stop()

    async def close(self) -> None:
        await self.fake.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def result(self) -> dict:
        return {"store": self.store, "stored": self.stored, "seed s": self.seeded, "rss": self.rss,
                "failures": self.failures, "db": self.db,
                "bot": {k: (pct(v, 50), pct(v, 99)) for k, v in self.times.items()}}


async def reads_run(databases: Databases, stored: int, calls: int, rounds: int, seed: int) -> list[dict]:
    """The read commands on both stores, the stores alternating over ``rounds`` (see :class:`ReadWorld`)."""
    worlds = [ReadWorld(store) for store in ("sqlite", "postgres")]
    try:
        for w in worlds:
            await w.open(databases, stored, calls, seed)
        rng = random.Random(seed)
        for k in range(rounds):
            for w in worlds:
                await w.measure(calls // rounds + (1 if k < calls % rounds else 0), rng)
    finally:
        for w in worlds:
            await w.close()
    return [w.result() for w in worlds]


def combined(rounds: list[list[dict]]) -> list[dict]:
    """Each setup's runs over the rounds as one row: medians of rates, percentiles of all latencies together.

    The rounds alternate the setups, so a machine whose load changes meanwhile (other work) weighs on
    each setup alike; "vs baseline" is the median over the rounds of the ratio to the baseline's run
    in the same round.
    """
    out = []
    for i in range(len(rounds[0])):
        runs = [r[i] for r in rounds]
        row = dict(runs[0])
        ms = [x for r in runs for x in r["latencies"]]
        acks = [x for r in runs for x in r["ack latencies"]]
        row.update({
            "rounds": len(runs), "moves/s each": [r["moves/s"] for r in runs],
            "moves/s": statistics.median(r["moves/s"] for r in runs),
            "vs base": statistics.median(r["moves/s"] / rnd[0]["moves/s"] for r, rnd in zip(runs, rounds)),
            "p50": pct(ms, 50), "p99": pct(ms, 99), "ack p99": pct(acks, 99),
            "missed 3 s": sum(r["missed 3 s"] for r in runs), "acks": sum(r["acks"] for r in runs),
            "rss each": [max(x) for x in zip(*(r["rss each"] for r in runs))],
            "bot cpu each": [statistics.median(x) for x in zip(*(r["bot cpu each"] for r in runs))],
            "bot cpu ms/move": statistics.median(r["bot cpu ms/move"] for r in runs),
            "fake cpu ms/move": statistics.median(r["fake cpu ms/move"] for r in runs),
            "db cpu ms/move": None if runs[0]["db cpu ms/move"] is None else
            statistics.median(r["db cpu ms/move"] for r in runs),
            "failures": [f for r in runs for f in r["failures"]],
        })
        out.append(row)
    return out


def scale_table(results: list[dict]) -> str:
    """Moves through the whole bot per setup, against the first setup (the baseline) of the same run."""
    base = results[0]
    out = [f"| setup | N games | moves/s | vs {base['setup']} | p50 ms | p99 ms | ack p99 ms | missed 3 s "
           "| RSS MB per process | bot CPU per process | bot CPU ms/move | PostgreSQL CPU ms/move | fake CPU ms/move "
           "| failures |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---:|"]
    for r in results:
        db = "—" if r["db cpu ms/move"] is None else f"{r['db cpu ms/move']:.1f}"
        out.append(f"| {r['setup']} | {r['N']} | {r['moves/s']:.1f} | {r['vs base']:.2f}× "
                   f"| {r['p50']:.0f} | {r['p99']:.0f} | {r['ack p99']:.0f} | {r['missed 3 s']} of {r['acks']} "
                   f"| {', '.join(f'{x:.0f}' for x in r['rss each'])} "
                   f"| {', '.join(f'{x:.0f}%' for x in r['bot cpu each'])} | {r['bot cpu ms/move']:.1f} | {db} "
                   f"| {r['fake cpu ms/move']:.1f} | {len(r['failures'])} |")
    return "\n".join(out)


def reads_table(results: list[dict]) -> str:
    """p50/p99 of each read command on each store: through the bot, and its database reads alone."""
    head = " | ".join(f"{r['store']} bot p50 | {r['store']} bot p99 | {r['store']} DB p99" for r in results)
    out = [f"| command | {head} |", "|---|" + "---:|" * (3 * len(results))]
    for name in READS:
        cells = " | ".join(f"{r['bot'][name][0]:.1f} ms | {r['bot'][name][1]:.1f} ms | {r['db'][name][1]:.2f} ms"
                           for r in results)
        out.append(f"| {name} | {cells} |")
    return "\n".join(out)


def ratios(results: list[dict]) -> str:
    """This bot against the baseline's, per load run of the same N and pacing: moves/s and the bot's CPU per move."""
    lines = []
    for r in results:
        base = next((b for b in results if b["bot"] == "baseline" and (b["N"], b["think"]) == (r["N"], r["think"])),
                    None)
        if r["bot"] == "this" and base is not None and base["moves/s"] and base["bot cpu ms/move"]:
            pacing = "flat out" if not r["think"] else f"~{r['think']:g} s think"
            lines.append(f"N={r['N']} {pacing}: moves/s ×{r['moves/s'] / base['moves/s']:.2f} of the baseline's, "
                         f"bot CPU per move ×{r['bot cpu ms/move'] / base['bot cpu ms/move']:.2f}")
    return "\n".join(lines)


def table(results: list[dict], memory: dict | None, size: dict | None) -> str:
    out = ["| bot | N games | pacing | moves/s | ack p50 ms | ack p99 ms | missed 3 s | p50 ms | p95 ms | p99 ms "
           "| loop lag p99 ms | loop lag max ms | RSS MB (peak) | bot CPU | fake CPU | bot CPU ms/move "
           "| fake CPU ms/move | failures |",
           "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        pacing = "flat out" if not r["think"] else f"~{r['think']:g} s think"
        out.append(f"| {r['bot']} | {r['N']} | {pacing} | {r['moves/s']:.1f} | {r['ack p50']:.0f} | {r['ack p99']:.0f} "
                   f"| {r['missed 3 s']} of {r['acks']} | {r['p50']:.0f} | {r['p95']:.0f} | {r['p99']:.0f} "
                   f"| {r['lag p99']:.1f} | {r['lag max']:.0f} | {r['rss']:.0f} ({r['peak']:.0f}) "
                   f"| {r['bot cpu']:.0f}% | {r['fake cpu']:.0f}% | {r['bot cpu ms/move']:.2f} "
                   f"| {r['fake cpu ms/move']:.2f} | {len(r['failures'])} |")
    lines = "\n".join(out)
    if any(r["bot"] == "baseline" for r in results):
        lines += "\n\n" + ratios(results)
    if memory:
        lines += (f"\n\n{memory['games']} active games, each touched by a /move: RSS {memory['rss']:.0f} MB "
                  f"(peak {memory['peak']:.0f} MB; {memory['rss before touching']:.0f} MB before touching them); "
                  f"database {memory['db bytes (active)'] / 1e6:.1f} MB for them.")
    if size:
        per = size["bytes"] / size["games"] * 1000
        lines += (f"\nDatabase per 1,000 finished games: {per / 1e6:.1f} MB "
                  f"(measured on {size['games']} complete games, {size['actions'] / size['games']:.0f} actions each "
                  f"on average).")
    return lines


def print_run(label: str, r: dict) -> None:
    print(f"{label} N={r['N']} think={r['think']}: {r['moves']} moves, {r['moves/s']:.1f}/s, "
          f"ack p50 {r['ack p50']:.0f} p99 {r['ack p99']:.0f} ms, missed 3 s {r['missed 3 s']}, "
          f"p50 {r['p50']:.0f} p95 {r['p95']:.0f} p99 {r['p99']:.0f} ms, "
          f"lag p99 {r['lag p99']:.1f} max {r['lag max']:.0f} ms, RSS {r['rss']:.0f} MB, "
          f"CPU bot {r['bot cpu']:.0f}% fake {r['fake cpu']:.0f}% ({r['bot cpu ms/move']:.2f} / "
          f"{r['fake cpu ms/move']:.2f} ms a move), {len(r['failures'])} failures {r['failures'][:2]}",
          flush=True)


async def main_async(args: argparse.Namespace) -> None:
    databases = Databases(args.database_url)
    tables: list[str] = []
    try:
        if "load" in args.parts:
            results = []
            bots = [("this", ROOT)] + ([("baseline", Path(args.baseline).resolve())] if args.baseline else [])
            for n in args.games:
                for think in args.pacing:
                    for label, root in bots:
                        r = await load_run(n, think, args.seconds, args.seed, args.warmup, root,
                                           check_fake_answers=args.check_fake_answers)
                        r["bot"] = label
                        results.append(r)
                        print_run(label, r)
            memory = await memory_run(args.memory_games, args.seed) if args.memory_games else None
            if memory:
                print(f"memory: {memory}", flush=True)
            size = await db_size_run(args.db_games, args.seed) if args.db_games else None
            if size:
                print(f"db size: {size}", flush=True)
            tables.append(table(results, memory, size))
        if "scale" in args.parts:
            rounds = []
            for k in range(args.rounds):
                rounds.append([])
                for name in args.setups:
                    r = await load_run(args.scale_games, 0.0, args.seconds, args.seed + k, args.warmup,
                                       setup=SETUPS[name], databases=databases,
                                       check_fake_answers=args.check_fake_answers)
                    rounds[-1].append(r)
                    print_run(f"round {k + 1}: {r['setup']}", r)
            tables.append(scale_table(combined(rounds)))
        if "reads" in args.parts:
            stores = await reads_run(databases, args.stored, args.read_calls, args.rounds, args.seed)
            for r in stores:
                print(f"reads on {r['store']}: {r['stored']:,} games seeded in {r['seed s']:.1f} s; bot {r['bot']}; "
                      f"database {r['db']}; RSS {r['rss']:.0f} MB; {len(r['failures'])} failures "
                      f"{r['failures'][:2]}", flush=True)
            tables.append(reads_table(stores))
    finally:
        databases.close()
    print()
    print("\n\n".join(tables))


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--serve-bot":
        asyncio.run(serve_bot(*argv[1:4]))
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, nargs="+", default=[1, 20, 100], help="N of the load runs")
    p.add_argument("--seconds", type=float, help="measured seconds per run (20; quick: 5)")
    p.add_argument("--warmup", type=float, help="seconds before measuring (3; quick: 1)")
    p.add_argument("--memory-games", type=int, help="active games for the memory figure (1000; quick: 200; 0 skips)")
    p.add_argument("--db-games", type=int, help="finished games for the database size (200; quick: 50; 0 skips)")
    p.add_argument("--pacing", type=float, nargs="+", default=[1.0, 0.0],
                   help="think times of the load runs (0 = flat out)")
    p.add_argument("--baseline", help="another checkout whose bot runs the same load, row by row (e.g. the last release)")
    p.add_argument("--check-fake-answers", action="store_true",
                   help="let the fake check its own answers against the spec too (as in the tests; costs CPU)")
    p.add_argument("--parts", nargs="+", choices=("load", "scale", "reads"), default=["load", "scale", "reads"],
                   help="load: N games on SQLite (+ memory, database size); scale: the setups flat out; "
                        "reads: /leaderboard, /stats, /history with --stored games on both stores")
    p.add_argument("--setups", nargs="+", choices=tuple(SETUPS), default=list(SETUPS),
                   help="setups of the scale runs; the first is the baseline")
    p.add_argument("--scale-games", type=int, default=20, help="N of the scale runs (flat out)")
    p.add_argument("--rounds", type=int,
                   help="rounds of the scale and read runs, the setups / stores alternating (3; quick: 1)")
    p.add_argument("--stored", type=int, default=100_000, help="finished games stored for the reads")
    p.add_argument("--read-calls", type=int, help="calls of each read command (200; quick: 50)")
    p.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "") or None,
                   help="a scratch PostgreSQL database (default: DATABASE_URL; without it a throwaway PostgreSQL "
                        "server is started from the pgserver wheel, as the tests do)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="short runs")
    args = p.parse_args(argv)
    if args.database_url and not args.database_url.startswith(("postgres://", "postgresql://")):
        args.database_url = None  # an SQLite DATABASE_URL: PostgreSQL runs start their own server
    defaults = (5.0, 1.0, 200, 50, 50, 1) if args.quick else (20.0, 3.0, 1000, 200, 200, 3)
    for name, value in zip(("seconds", "warmup", "memory_games", "db_games", "read_calls", "rounds"), defaults):
        if getattr(args, name) is None:
            setattr(args, name, value)
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
