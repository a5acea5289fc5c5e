"""Tap-to-play latency: the real bot (its own process) against the fake Discord, N games at once.

Run: ``.venv/bin/python -m bench.taps`` (``--games 1 20``, ``--seconds 20``, ``--baseline DIR``:
another checkout whose bot runs the same load right after, e.g. the code before a change). Not a test.

Each game (a mix of Hex 11×11, inpHeXion 7×7 and Blind Hex, two players, one
channel each, new games by a real challenge and Accept) plays a seeded random
game. Each action is played, at random, either by **taps** (press Play under
the newest board, then the panel's buttons and menus, with 0.3–0.8 s of
thinking between taps) or by typing **/move** (the baseline, same run, same
load). Measured from the press's dispatch by the fake:

* **panel** — Play → the private panel is shown;
* **tap** — a choice that only leads to the next step (a row, a card) → the updated panel;
* **disc** — an inpHeXion disc chosen → its direction step, or a relocation → the next one (the
  steps that carry a picture of the position);
* **board** — the last choice → the new board (picture) in the channel;
* **/move** — the baseline: ``/move`` → its board.

Blind Hex secret choices and letters followed by another letter of the same turn post no board
and are left out of the board figures.
Discord's limit for a first answer is 3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import engine
from bench.load import MIX, TOKEN, BotProcess, pct, read_game

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Table:
    """One channel with two players and their current game."""

    channel: object
    players: tuple
    game: str
    size: int | None
    rng: random.Random
    position: engine.Position | None = None
    seats: tuple[int, int] = (0, 0)
    actions: list[str] = field(default_factory=list)


class TapLoad:
    """Plays every table until the time is up and keeps the timings."""

    def __init__(self, fake, bot: BotProcess) -> None:
        from tests.bot.taps import Tapper

        self.fake, self.bot = fake, bot
        self.tapper_class = Tapper
        self.times: dict[str, list[float]] = {"panel": [], "tap": [], "disc": [], "board": [], "/move": []}
        #: how many of the "disc" steps came with a picture (none with a bot from before previews)
        self.pictured = 0
        self.failures: list[str] = []
        self.measuring = False

    def keep(self, what: str, seconds: float) -> None:
        if self.measuring:
            self.times[what].append(seconds * 1000)

    async def new_game(self, t: Table) -> None:
        a, b = t.players
        # thread:false — the game stays in its channel, where the bench watches for boards
        options = {"opponent": b, "game": t.game, "thread": False, **({"size": t.size} if t.size else {})}
        r = await self.fake.slash(a, t.channel, "challenge", timeout=60, **options)
        await self.fake.click(b, r, next(c for c in r.custom_ids if c.endswith(":accept")), timeout=60)
        await self.fake.wait_for(lambda m: m.channel is t.channel and bool(m.files), 60)
        row = read_game(self.bot.url, t.channel.id)
        opts = engine.make_options(row["game"], row["size"], tuple(row["variants"].split()), row["first"])
        log: list[str] = []
        opts.new_position().random_playout(t.rng, log)
        t.position, t.seats, t.actions = opts.new_position(), (row["seat0_id"], row["seat1_id"]), log

    async def play(self, t: Table, stop_at: float) -> None:
        loop = asyncio.get_running_loop()
        users = {p.id: p for p in t.players}
        tap = self.tapper_class(self.fake, t.channel)
        while loop.time() < stop_at:
            if t.position is None or not t.actions:
                await self.new_game(t)
            pos = t.position
            assert pos is not None
            action = t.actions[0]
            colour = action.split(":")[0] if ":" in action else pos.to_move[0]
            user = users[t.seats[pos.seat_of_colour(colour)]]
            secret = ":" in action and len(pos.to_move) == 2
            await asyncio.sleep(t.rng.uniform(0.5, 1.5))
            try:
                if t.rng.random() < 0.5:
                    await self.by_taps(tap, user, pos, action, secret, t)
                else:
                    await self.by_move(user, action, secret, t)
            except Exception as exc:  # noqa: BLE001 — counted; the report says how many
                self.failures.append(f"{type(exc).__name__}: {exc}"[:200])
                t.position = None  # start afresh rather than guess where this game is
                continue
            pos.play(action)
            t.actions.pop(0)
            if pos.outcome is not None:
                t.position = None

    async def by_move(self, user, action: str, secret: bool, t: Table) -> None:
        t0 = time.perf_counter()
        r = await self.fake.slash(user, t.channel, "move", action=action.split(":")[-1], timeout=60)
        if not secret and r.ephemeral:
            raise RuntimeError(f"/move {action} refused: {r.content}")
        if not secret and r.attachments:  # a board (not a letter answered in words)
            self.keep("/move", time.perf_counter() - t0)

    async def by_taps(self, tap, user, pos: engine.Position, action: str, secret: bool, t: Table) -> None:
        from tests.bot.taps import taps_for

        count = len(self.fake.messages(t.channel))
        t0 = time.perf_counter()
        opened = await tap.open_panel(user)
        self.keep("panel", time.perf_counter() - t0)
        panel = opened.message
        wanted = taps_for(pos, action)
        while wanted:
            await asyncio.sleep(t.rng.uniform(0.3, 0.8))
            final = len(wanted) == 1
            t0 = time.perf_counter()
            if await tap.tap(user, panel, wanted[0]):
                wanted.pop(0)
            else:
                final = False
            if not final:
                elapsed = time.perf_counter() - t0
                pointed = any(w in (panel.content or "") for w in ("to which neighbour", "is surrounded"))
                self.keep("disc" if pointed else "tap", elapsed)
                if pointed and self.measuring and panel.files:
                    self.pictured += 1
        if secret:
            return
        posted = await tap.new_message(count, 60)
        if posted.files:  # not a Blind Hex letter with another to write (words only)
            self.keep("board", time.perf_counter() - t0)


async def run(n: int, seconds: float, warmup: float, seed: int, root: Path = ROOT) -> dict:
    from tests.fake_discord import FakeDiscord
    from tests.fake_discord.patch import block_network

    fake = FakeDiscord(token=TOKEN)
    guild = fake.add_guild("Taps Server")
    tables = []
    for i in range(n):
        game, size = MIX[i % len(MIX)]
        tables.append(Table(fake.add_text_channel(guild, f"game-{i}"),
                            (fake.add_member(guild, f"p{i}a"), fake.add_member(guild, f"p{i}b")),
                            game, size, random.Random(f"{seed}-{n}-{i}")))
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix=f"taps-{n}-"))
    bot = BotProcess(fake, workdir, workdir / "bot.sqlite3", root)
    load = TapLoad(fake, bot)
    try:
        with block_network():
            await bot.start()
            for t in tables:
                await load.new_game(t)
            end = asyncio.get_running_loop().time() + warmup + seconds
            players = [asyncio.create_task(load.play(t, end)) for t in tables]
            await asyncio.sleep(warmup)
            load.measuring = True
            await asyncio.gather(*players)
    finally:
        await bot.stop()
        await fake.stop()
    shutil.rmtree(workdir, ignore_errors=True)
    return {"N": n, "failures": load.failures, "pictured": load.pictured, "times": load.times}


def pooled(runs: list[dict]) -> dict:
    """Several runs of one bot as one row: their timings together, percentiles of the lot."""
    out: dict = {"N": runs[0]["N"], "failures": [f for r in runs for f in r["failures"]],
                 "pictured": sum(r["pictured"] for r in runs)}
    for what in runs[0]["times"]:
        ms = [t for r in runs for t in r["times"][what]]
        out[what] = (len(ms), pct(ms, 50), pct(ms, 99))
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, nargs="+", default=[1, 20])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--baseline", help="another checkout whose bot runs the same load after this one's, row by row")
    p.add_argument("--rounds", type=int, default=1,
                   help="runs per bot, this and the baseline taking turns (a shared machine's load then falls "
                        "on both alike); each row pools its bot's runs")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    bots = [("this", ROOT)] + ([("baseline", Path(args.baseline).resolve())] if args.baseline else [])
    kinds = ("panel", "tap", "disc", "board", "/move")
    rows = []
    for n in args.games:
        runs: dict[str, list[dict]] = {label: [] for label, _ in bots}
        for i in range(args.rounds):
            for label, root in bots:
                runs[label].append(asyncio.run(run(n, args.seconds, args.warmup, args.seed + i, root)))
        for label, _ in bots:
            r = pooled(runs[label])
            r["bot"] = label
            rows.append(r)
            print(f"{label} N={n}: " + ", ".join(f"{w} n={c} p50 {a:.0f} p99 {b:.0f} ms" for w, (c, a, b) in
                                                 ((w, r[w]) for w in kinds)) +
                  f", {r['pictured']} disc steps pictured, {len(r['failures'])} failures {r['failures'][:2]}",
                  flush=True)
    print("\n| bot | N | Play → panel p50 / p99 | tap → next step p50 / p99 | disc → step with picture p50 / p99 "
          "| last choice → board p50 / p99 | /move → board p50 / p99 | board ÷ /move (p50) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        cells = [f"{r[w][1]:.0f} / {r[w][2]:.0f} ms (n={r[w][0]})" for w in kinds]
        print(f"| {r['bot']} | {r['N']} | " + " | ".join(cells) + f" | {r['board'][1] / r['/move'][1]:.2f} |")


if __name__ == "__main__":
    main()
