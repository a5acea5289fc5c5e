"""Two bot processes (shards 0 and 1 of 2) on one PostgreSQL, SIGKILLed at seeded random moments.

Servers on both shards, two games in each, all played at once; at seeded random moments
one of the two processes (seeded too) is killed with SIGKILL and started again, 6 times.
After every kill, straight from the database: every game's record is gapless, holds every
move whose answer reached the fake and nothing that was not sent (no duplicate, no loss).
After every restart, in every game going on: ``/board`` shows the stored position (the same
picture as rendering it here), and the Board button of the newest board posted before the
kill shows it too. At the end the ratings equal a single-process replay of the finished
games, in the order they finished. Meanwhile in each server a reminder and a challenge expiry
fall due at seeded moments among the kills: in the end each reminder was posted exactly once
(a rerun after a kill meets its nonce) and each challenge expired with its message saying so.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections import Counter
from contextlib import suppress
from pathlib import Path

import engine
import render
from bot.ratings import Rating, rate_game
from tests.bot.test_shards import guild_on_shard
from tests.dbquery import execute, query, query_dicts
from tests.fake_discord import FakeDiscord, FakeInteraction, FakeMessage, InteractionResult

SEED = 16_2026
KILLS = 6


class ShardProcess:
    """``python -m bot`` with SHARD_COUNT=2 and one SHARD_IDS, on the shared database."""

    def __init__(self, fake: FakeDiscord, workdir: Path, url: str, shard: int) -> None:
        self.fake, self.workdir, self.url, self.shard = fake, workdir, url, shard
        self.proc: asyncio.subprocess.Process | None = None
        self.runs = 0

    def _sessions(self) -> int:
        return sum(1 for c in self.fake.gateway.ready_connections
                   if c.session is not None and c.session.shard == (self.shard, 2))

    async def start(self) -> None:
        self.runs += 1
        env = {k: v for k, v in os.environ.items()
               if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS",
                            "DEV_GUILD_ID")}
        env.update(DISCORD_TOKEN=self.fake.token, DATABASE_URL=self.url, SHARD_COUNT="2", SHARD_IDS=str(self.shard),
                   LOG_LEVEL="INFO", PYTHONUNBUFFERED="1")
        with open(self.workdir / f"shard{self.shard}-{self.runs:02d}.log", "wb") as log:
            self.proc = await asyncio.create_subprocess_exec(
                *self.fake.launch_command("bot"), env=self.fake.launch_env(env), cwd=self.workdir,
                stdout=asyncio.subprocess.DEVNULL, stderr=log)
        await self.fake.gateway.wait_until(lambda g: self._sessions() == 1, 90)

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self.proc = None
        await self.fake.gateway.wait_until(lambda g: self._sessions() == 0, 30)

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 30)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        self.proc = None


class Table:
    """One channel: a Hex 5×5 game between two players; what was sent and what was confirmed."""

    def __init__(self, fake: FakeDiscord, guild, name: str) -> None:
        self.channel = fake.add_text_channel(guild, name)
        self.players = (fake.add_member(guild, f"{name}-a"), fake.add_member(guild, f"{name}-b"))
        self.game_id: int | None = None
        self.sent: list[str] = []        # moves sent, in order (each at most once)
        self.confirmed = 0               # how many of them got their public answer


def stored(url: str, game_id: int) -> list[tuple[int, str]]:
    return query(url, "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", game_id)


def check(url: str, tables: list[Table], stats: Counter[str]) -> None:
    """No acknowledged move lost, nothing applied that was not sent, no gap or duplicate."""
    for t in tables:
        if t.game_id is None:
            continue
        rows = stored(url, t.game_id)
        assert [s for s, _ in rows] == list(range(len(rows))), f"gap or duplicate: {rows}"
        actions = [a for _, a in rows]
        assert actions == t.sent[:len(actions)], (actions, t.sent)
        assert len(actions) >= t.confirmed, f"a confirmed move is lost: {actions} < {t.sent[:t.confirmed]}"
        stats["moves stored"] += len(actions) - stats[f"seen {t.game_id}"]
        stats[f"seen {t.game_id}"] = len(actions)
        stats["sent but lost with the process (never answered)"] += len(t.sent) - len(actions)
        stats["stored but the answer was lost"] += len(actions) - t.confirmed
        t.sent = actions  # the in-flight move that did not land is forgotten (it may be sent again)
        t.confirmed = len(actions)


def last_board(t: Table) -> FakeMessage | None:
    """The newest board of the table's game that still has its controls (posted before the kill)."""
    for m in reversed(t.channel.messages):
        if not m.deleted and any(c.startswith(f"hx:board:{t.game_id}:") and c.endswith(":board") for c in m.custom_ids):
            return m
    return None


def shows_stored_position(url: str, t: Table, r: InteractionResult, what: str) -> None:
    """The answer is public and its picture is the stored position's, drawn here."""
    assert not r.ephemeral, f"{what}: {r.content!r}"
    row = query_dicts(url, "SELECT seat0_id, seat1_id FROM games WHERE id = ?", t.game_id)[0]
    pos = engine.make_options("hex", 5, ("swap",), None).new_position()
    for _, action in stored(url, t.game_id or 0):
        pos.play(action)
    seats = (row["seat0_id"], row["seat1_id"])
    names = {c: next(p.name for p in t.players if p.id == seats[pos.seat_of_colour(c)]) for c in pos.colours}
    n = len(pos.public_record())
    assert f"after {n} action{'s' if n != 1 else ''}." in r.embed["description"], (what, n, r.embed["description"])
    png = next(data for name, data in r.attachments.items() if name.endswith(".png"))
    assert png == render.render_position(pos, names=names), f"{what} of game {t.game_id} shows another position"


async def check_after_restart(fake: FakeDiscord, url: str, tables: list[Table], stats: Counter[str]) -> None:
    """In every game going on: /board, and the Board button of a board from before the kill."""
    for t in tables:
        if t.game_id is None or query(url, "SELECT status FROM games WHERE id = ?", t.game_id) != [("active",)]:
            continue
        old = last_board(t)  # pressed first: a new board takes the controls off the ones before it
        if old is not None:
            button = next(c for c in old.custom_ids if c.endswith(":board"))
            r = await fake.click(t.players[1], old, button, timeout=20)
            shows_stored_position(url, t, r, "an old board's Board button")
            stats["old Board buttons after a restart"] += 1
        shows_stored_position(url, t, await fake.slash(t.players[0], t.channel, "board", timeout=20), "/board")
        stats["/board after a restart"] += 1


async def step(fake: FakeDiscord, url: str, t: Table, rng: random.Random) -> None:
    """One move (or a new game) at this table; returns when it was answered or its process died."""
    if t.game_id is None or query(url, "SELECT status FROM games WHERE id = ?", t.game_id) != [("active",)]:
        a, b = t.players
        r = await fake.slash(a, t.channel, "challenge", opponent=b, game="hex", size=5, seat="first", rated=True,
                             thread=False)
        accept = next(c for c in r.custom_ids if c.endswith(":accept"))
        await fake.click(b, r, accept)
        t.game_id = query(url, "SELECT id FROM games WHERE channel_id = ? AND status = 'active'", t.channel.id)[0][0]
        t.sent, t.confirmed = [], 0
        return
    pos = engine.make_options("hex", 5, ("swap",), None).new_position()
    for a in t.sent:
        pos.play(a)
    row = query_dicts(url, "SELECT seat0_id, seat1_id FROM games WHERE id = ?", t.game_id)[0]
    user_id = (row["seat0_id"], row["seat1_id"])[pos.seat_of_colour(pos.to_move[0])]
    user = next(p for p in t.players if p.id == user_id)
    action = rng.choice([a for a in pos.legal_actions() if a != "swap"])
    t.sent.append(action)
    inter: FakeInteraction = await fake.start_slash(user, t.channel, "move", action=action)
    r = await inter.wait(20)
    if not r.ephemeral:
        t.confirmed = len(t.sent)


class Timed:
    """Channels whose timers fire while the processes are being killed: a clocked game nobody moves
    in (its reminder) and an open challenge (its expiry), each due at a seeded moment."""

    def __init__(self, fake: FakeDiscord, guild, name: str) -> None:
        self.game_channel = fake.add_text_channel(guild, f"{name}-clock")
        self.challenge_channel = fake.add_text_channel(guild, f"{name}-open")
        self.players = (fake.add_member(guild, f"{name}-x"), fake.add_member(guild, f"{name}-y"))
        self.game_id = 0
        self.challenge_id = 0

    async def arm(self, fake: FakeDiscord, url: str, rng: random.Random) -> None:
        a, b = self.players
        r = await fake.slash(a, self.game_channel, "challenge", opponent=b, game="hex", size=5, seat="first",
                             clock="5m", thread=False)
        await fake.click(b, r, next(c for c in r.custom_ids if c.endswith(":accept")))
        self.game_id = query(url, "SELECT id FROM games WHERE channel_id = ?", self.game_channel.id)[0][0]
        r = await fake.slash(a, self.challenge_channel, "challenge", opponent=b, game="hex", size=5, thread=False)
        assert not r.ephemeral, r.content
        self.challenge_id = query(url, "SELECT id FROM challenges WHERE channel_id = ?", self.challenge_channel.id)[0][0]
        # Due in the middle of the kills (the processes poll for timers every 2 s).
        execute(url, "UPDATE timers SET due_at = ? WHERE kind = 'reminder' AND ref_id = ?",
                time.time() + rng.uniform(5, 40), self.game_id)
        execute(url, "UPDATE timers SET due_at = ? WHERE kind = 'challenge-expiry' AND ref_id = ?",
                time.time() + rng.uniform(5, 40), self.challenge_id)

    def pending(self, url: str) -> int:
        return query(url, "SELECT COUNT(*) FROM timers WHERE (kind = 'reminder' AND ref_id = ?)"
                          " OR (kind = 'challenge-expiry' AND ref_id = ?)", self.game_id, self.challenge_id)[0][0]

    def check(self, fake: FakeDiscord, url: str, stats: Counter[str]) -> None:
        """The reminder was posted once; the challenge expired and its message says so."""
        tries = [q for q in fake.requests_to(rf"^POST /channels/{self.game_channel.id}/messages$")
                 if "your move in game" in str(q.json)]
        stats["reminders sent (a rerun after a kill sends again)"] += len(tries)
        stats["expiry edits sent"] += len(fake.requests_to(rf"^PATCH /channels/{self.challenge_channel.id}/messages/"))
        reminders = [m for m in fake.messages(self.game_channel) if f"your move in game #{self.game_id}" in m.content]
        assert len(reminders) == 1, [m.content for m in reminders]
        assert query(url, "SELECT status FROM challenges WHERE id = ?", self.challenge_id) == [("expired",)]
        message = fake.messages(self.challenge_channel)[0]
        assert "expired" in message.content and not message.components, message.content


async def test_two_shard_processes_killed_at_random_lose_and_duplicate_nothing(pg_url, tmp_path):
    rng = random.Random(SEED)
    fake = FakeDiscord(token="crash-shards", shard_count=2)
    guilds = [guild_on_shard(fake, 0), guild_on_shard(fake, 1)]
    tables = [Table(fake, g, f"g{i}-{j}") for i, g in enumerate(guilds) for j in range(2)]
    timed = [Timed(fake, g, f"t{i}") for i, g in enumerate(guilds)]
    await fake.start()
    stats: Counter[str] = Counter()
    procs = [ShardProcess(fake, tmp_path, pg_url, 0), ShardProcess(fake, tmp_path, pg_url, 1)]
    try:
        await asyncio.gather(*(p.start() for p in procs))
        # Each check after a restart presses an old Board button and then types /board: two re-posts
        # in a row, which the board cooldown (a limit against floods) would answer privately.
        for g in guilds:
            execute(pg_url, "INSERT INTO guild_limits (guild_id, name, value) VALUES (?, 'board_cooldown', 0)", g.id)
        for t in timed:
            await t.arm(fake, pg_url, rng)
        for _ in range(KILLS):
            victim = rng.choice(procs)
            stats[f"kills of shard {victim.shard}"] += 1
            budget = rng.randrange(4, 12)

            async def play(t: Table, budget: int = budget) -> None:
                for _ in range(budget):
                    with suppress(Exception):  # answers lost with the killed process
                        await step(fake, pg_url, t, rng)

            players = asyncio.gather(*(play(t) for t in tables))
            await asyncio.sleep(rng.uniform(0.2, 2.0))
            await victim.kill()
            with suppress(Exception):
                await asyncio.wait_for(players, 60)
            check(pg_url, tables, stats)
            await victim.start()
            await check_after_restart(fake, pg_url, tables, stats)
        for t in tables:  # end every game with a resignation, so all count for ratings
            if t.game_id is not None and query(pg_url, "SELECT status FROM games WHERE id = ?", t.game_id) == [("active",)]:
                await fake.slash(t.players[0], t.channel, "resign")
        check(pg_url, tables, stats)
        # A timer whose process died mid-way runs again when its claim's lease (60 s) lapses.
        for _ in range(150):
            if not sum(t.pending(pg_url) for t in timed):
                break
            await asyncio.sleep(0.5)
        await fake.settle()
        for t in timed:
            t.check(fake, pg_url, stats)
    finally:
        await asyncio.gather(*(p.stop() for p in procs))
        await fake.stop()

    print({k: v for k, v in stats.items() if not k.startswith("seen")})
    assert stats["moves stored"] >= 60 and stats["kills of shard 0"] and stats["kills of shard 1"], stats
    assert stats["/board after a restart"] >= KILLS and stats["old Board buttons after a restart"] >= KILLS, stats

    # Ratings as one process would have computed them: the finished rated games in the order they ended.
    ratings: dict[tuple[int, int], Rating] = {}
    games = query_dicts(pg_url, "SELECT g.* FROM games g WHERE status = 'finished' AND rated"
                                " AND EXISTS (SELECT 1 FROM rating_changes c WHERE c.game_id = g.id)"
                                " ORDER BY finished_at, id")
    assert games, "no rated game finished"
    for g in games:
        winner = g["seat0_id"] if g["winner_seat"] == 0 else g["seat1_id"]
        loser = g["seat1_id"] if g["winner_seat"] == 0 else g["seat0_id"]
        w = ratings.get((g["guild_id"], winner), Rating(1500.0, 350.0, 0.06))
        lo = ratings.get((g["guild_id"], loser), Rating(1500.0, 350.0, 0.06))
        ratings[(g["guild_id"], winner)], ratings[(g["guild_id"], loser)] = rate_game(w, lo)
    stored_ratings = {(r["guild_id"], r["user_id"]): r["rating"] for r in query_dicts(pg_url, "SELECT * FROM ratings")}
    assert stored_ratings.keys() == ratings.keys()
    for key, r in ratings.items():
        assert abs(stored_ratings[key] - r.rating) < 1e-9, key
