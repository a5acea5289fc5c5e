"""Helpers for the crash-safety test: the bot as a real process, scripted games, and the
database read straight from the database (a SQLite file or PostgreSQL).

Each game is a seeded script of ``/move`` lines (a line may apply several actions,
e.g. an inpHeXion move with its relocation, and must apply all or none) and
maybe a ``/resign``. The database is the truth: after every SIGKILL it must hold
a whole number of lines of each script — at least every line whose reply
reached the fake, at most every line that was sent.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from bot.store.urls import database_target
from tests.dbquery import query, query_dicts
from tests.fake_discord import FakeDiscord, FakeInteraction, FakeMember

GAME_TIMERS = ("reminder", "deadline", "abandon")


# --------------------------------------------------------------------------- the bot process


class BotProcess:
    """``python -m bot`` pointed at the fake, on one database file, restartable and killable."""

    def __init__(self, fake: FakeDiscord, workdir: Path, database_url: str | None = None) -> None:
        self.fake = fake
        self.workdir = workdir
        #: the DATABASE_URL (a SQLite file in the work folder unless given)
        self.db = database_url or f"sqlite:///{workdir / 'bot.sqlite3'}"
        self.proc: asyncio.subprocess.Process | None = None
        self.generation = 0
        self.logs: list[Path] = []

    async def start(self, timeout: float = 60.0) -> None:
        """Start a new process and wait until it is connected to the fake gateway."""
        assert self.proc is None
        self.generation += 1
        env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID")}
        env.update(DISCORD_TOKEN=self.fake.token, DATABASE_URL=self.db, LOG_LEVEL="INFO", PYTHONUNBUFFERED="1")
        log = self.workdir / f"bot-{self.generation:03d}.log"
        self.logs.append(log)
        with open(log, "wb") as err:
            self.proc = await asyncio.create_subprocess_exec(
                *self.fake.launch_command("bot"), env=self.fake.launch_env(env), cwd=self.workdir,
                stdout=asyncio.subprocess.DEVNULL, stderr=err)
        before = self.fake.gateway.identifies
        await self.fake.gateway.wait_until(lambda g: g.identifies > before and g.connected, timeout)

    def kill_now(self) -> None:
        """SIGKILL, synchronously (call :meth:`reap` next)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)

    async def reap(self) -> None:
        """Wait for the killed process and for the fake to notice the dropped connection."""
        assert self.proc is not None
        await self.proc.wait()
        self.proc = None
        await self.fake.gateway.wait_until(lambda g: not g.connected, 30)
        await self.fake.settle()

    async def stop(self) -> None:
        """A clean stop (SIGTERM), or a kill if it does not stop in time."""
        if self.proc is None:
            return
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 30)
            except asyncio.TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        self.proc = None

    def problems(self) -> list[str]:
        """ERROR lines and tracebacks the bot wrote to stderr in any run."""
        out = []
        for log in self.logs:
            for line in log.read_text(errors="replace").splitlines():
                if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback"):
                    out.append(f"{log.name}: {line}")
        return out


# --------------------------------------------------------------------------- the database, read-only


def integrity(db: str) -> str:
    """SQLite's ``PRAGMA integrity_check``; on PostgreSQL (which checks its own pages) ``ok`` if it answers."""
    if database_target(db)[0] == "postgres":
        return "ok" if query(db, "SELECT 1") == [(1,)] else "no answer"
    return " ".join(str(r[0]) for r in query(db, "PRAGMA integrity_check"))


def rows(db: str, sql: str, *args: Any) -> list[dict[str, Any]]:
    """Rows of a read-only query (``?`` placeholders) as dicts, on either store."""
    return query_dicts(db, sql, *args)


# --------------------------------------------------------------------------- scripts


@dataclass
class Line:
    """One interaction of a script: ``/move text`` (applying ``actions``) or ``/resign``."""

    user_id: int
    text: str
    actions: list[str]
    resign: bool = False


def make_script(row: dict[str, Any], rng: random.Random) -> list[Line]:
    """A seeded random game for a stored game row, as lines typed by its players.

    inpHeXion games are drawn until one has a relocation, and a move with one
    relocation is sometimes typed as one line (two actions, all or nothing).
    Some games end in a resignation instead.
    """
    options = engine.make_options(row["game"], row["size"], tuple(row["variants"].split()), row["first"])
    seats = (row["seat0_id"], row["seat1_id"])
    for _ in range(300):
        log: list[str] = []
        options.new_position().random_playout(rng, log)
        if row["game"] != "inphexion" or any(">" in a for a in log):
            break
    pos = options.new_position()
    lines: list[Line] = []
    i = 0
    while i < len(log):
        action = log[i]
        colour, _, cards = action.partition(":")
        if not cards:
            colour = pos.to_move[0]
        user = seats[pos.seat_of_colour(colour)]
        line = Line(user, cards or action, [action])
        if (row["game"] == "inphexion" and i + 1 < len(log) and ">" in log[i + 1] and " " in action
                and (i + 2 == len(log) or ">" not in log[i + 2]) and rng.random() < 0.7):
            joined = f"{action} {log[i + 1].split('>')[1]}"
            trial = pos.copy()
            if trial.play(joined, player=colour) == [action, log[i + 1]]:
                line = Line(user, joined, [action, log[i + 1]])
        for a in line.actions:
            pos.play(a)
        lines.append(line)
        i += len(line.actions)
    if rng.random() < 0.3:
        cut = rng.randrange(1, max(2, len(lines) * 4 // 5))
        lines = lines[:cut] + [Line(rng.choice(seats), "", [], resign=True)]
    return lines


def position_after(row: dict[str, Any], lines: list[Line], k: int) -> engine.Position:
    options = engine.make_options(row["game"], row["size"], tuple(row["variants"].split()), row["first"])
    pos = options.new_position()
    for line in lines[:k]:
        for a in line.actions:
            pos.play(a)
    return pos


# --------------------------------------------------------------------------- one channel's games


@dataclass
class Slot:
    """A channel where two players play game after game."""

    channel: Any
    players: tuple[FakeMember, FakeMember]
    game: str
    size: int | None
    game_id: int | None = None
    row: dict[str, Any] | None = None
    lines: list[Line] = field(default_factory=list)
    #: lines stored (known from the database after each restart, counted up while running)
    done: int = 0
    #: the line in flight: (index, interaction)
    inflight: tuple[int, FakeInteraction] | None = None
    #: lines whose reply reached the fake (all of them must be stored)
    confirmed: int = 0
    #: the open challenge message for the next game: (message id, accept custom_id, generation posted in)
    challenge: tuple[int, str, int] | None = None
    games_played: int = 0

    def user(self, user_id: int) -> FakeMember:
        return next(p for p in self.players if p.id == user_id)

    @property
    def over(self) -> bool:
        return self.row is None or self.done >= len(self.lines)


def stored_lines(db: str, slot: Slot) -> int:
    """How many whole lines of the slot's script the database holds; fails on anything else."""
    assert slot.row is not None
    game_id = slot.row["id"]
    stored = rows(db, "SELECT seq, action, taken_back FROM actions WHERE game_id = ? ORDER BY seq", game_id)
    assert [r["seq"] for r in stored] == list(range(len(stored))), f"game {game_id}: gap or duplicate in {stored}"
    actions = [r["action"] for r in stored]
    (game,) = rows(db, "SELECT * FROM games WHERE id = ?", game_id)
    boundaries = [0]
    for line in slot.lines:
        boundaries.append(boundaries[-1] + len(line.actions))
    candidates = [k for k, b in enumerate(boundaries) if b == len(actions)]
    assert candidates, f"game {game_id}: half a line stored: {actions[-3:]} (lines end at {boundaries[-5:]})"
    expected = [a for line in slot.lines for a in line.actions]
    assert actions == expected[:len(actions)], f"game {game_id}: record {actions} is not the script's"
    finished = game["status"] != "active"
    k = len(slot.lines) if finished and slot.lines[-1].resign else candidates[0]
    pos = position_after(slot.row, slot.lines, k)
    if slot.lines[-1].resign and k == len(slot.lines):
        loser = slot.lines[-1].user_id
        assert (game["status"], game["reason"]) == ("finished", "resignation"), dict(game)
        assert game["winner_seat"] == (1 if game["seat0_id"] == loser else 0), dict(game)
    elif pos.outcome is not None:
        assert game["status"] == "finished" and game["reason"] == pos.outcome.reason.value, dict(game)
        assert game["winner_seat"] == pos.seat_of_colour(pos.outcome.winner), dict(game)
    else:
        assert game["status"] == "active", f"game {game_id} ended without its last line: {dict(game)}"
    timers = rows(db, "SELECT kind, payload, claimed_by FROM timers WHERE ref_id = ? AND kind IN (?, ?, ?)", game_id,
                  *GAME_TIMERS)
    if game["status"] == "active":
        kinds = sorted(t["kind"] for t in timers)
        # A clocked game: reminder, deadline and the abandonment check after it; else that check only.
        assert kinds in (["abandon", "deadline", "reminder"], ["abandon"]), f"game {game_id}: timers {kinds}"
        if "deadline" in kinds:
            assert {json.loads(t["payload"])["deadline"] for t in timers if t["kind"] != "abandon"} == {game["deadline"]}, \
                f"game {game_id}: timers for another deadline than {game['deadline']}"
    else:
        # Only a timer a driver was running when the game ended stays (its driver deletes it).
        left = [dict(t) for t in timers if t["claimed_by"] is None]
        assert not left, f"game {game_id} is over but still has timers {left}"
        movers = {r["user_id"] for r in rows(db, "SELECT user_id FROM actions WHERE game_id = ?", game_id)}
        changes = rows(db, "SELECT user_id FROM rating_changes WHERE game_id = ?", game_id)
        rated = (bool(game["rated"]) and game["winner_seat"] is not None
                 and {game["seat0_id"], game["seat1_id"]} <= movers)
        assert len(changes) == (2 if rated else 0), f"game {game_id}: {len(changes)} rating changes"
    return k


def check_everything_else(db: str) -> None:
    """Invariants across tables: ratings agree with their changes, challenges with games and timers."""
    for r in rows(db, "SELECT * FROM ratings"):
        (counted,) = rows(db, "SELECT COUNT(*) AS n FROM rating_changes c JOIN games g ON g.id = c.game_id"
                              " WHERE c.user_id = ? AND g.game = ? AND g.guild_id = ?",
                          r["user_id"], r["game"], r["guild_id"])
        assert r["games"] == counted["n"], f"rating of {r['user_id']} in {r['game']}: {r['games']} games, " \
                                           f"{counted['n']} rating changes"
    for ch in rows(db, "SELECT * FROM challenges"):
        games = rows(db, "SELECT id FROM games WHERE challenge_id = ?", ch["id"])
        expiry = rows(db, "SELECT id FROM timers WHERE kind = 'challenge-expiry' AND ref_id = ?", ch["id"])
        if ch["status"] == "accepted":
            assert len(games) == 1 and ch["game_id"] == games[0]["id"] and not expiry, dict(ch)
        else:
            assert not games, dict(ch)
            # An expired challenge keeps its timer until the expiry is announced (a crash in between runs it again).
            allowed = {1} if ch["status"] == "open" else {0, 1} if ch["status"] == "expired" else {0}
            assert len(expiry) in allowed, dict(ch)
    active = rows(db, "SELECT channel_id, COUNT(*) AS n FROM games WHERE status = 'active' GROUP BY channel_id")
    assert all(r["n"] == 1 for r in active)


def public_count(pos: engine.Position) -> int:
    return len(pos.public_record())
