"""How long each game waits for the computer when many games against it think at once.

    PYTHONPATH=$PWD .venv/bin/python -m bench.ai_share [--before DIR] [--games 20] [--sizes 9 19]
        [--levels easy medium] [--rounds 2]

20 Hex games against the computer at once, as one busy server has them: one user
plays 16 of them, four other users one each. Every round each game asks for the
computer's move at the same moment, through the bot's own :class:`bot.ai.BotAI`
(the process pool, two workers, as ``python -m bot`` runs it); when the answer
comes the "human" replies at once with a random move. On 19×19 each game starts
from its own random position with 60 stones, on 9×9 with 10. Printed per size and
level: each move's wait (request to answer) p50 / p99 / max against the level's
time, and the p99 of the four lone users' games (the fair share).

``--before DIR``: also measure the code in DIR (e.g. a worktree of main) in the same
run, each version in its own interpreter (``PYTHONPATH=DIR``), one after the other on
the same machine, and print both rows. Not a test; figures depend on the machine and
its load.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
LONE_USERS = 4


def _position(size: int, seed: int):
    """A random Hex position of ``size`` with 60 stones on 19×19 (10 on smaller boards)."""
    from engine import new_game

    rng = random.Random(seed)
    pos = new_game("hex", size)
    stones = 60 if size >= 19 else 10
    while len(pos.actions) < stones and pos.outcome is None:
        pos.play(rng.choice([a for a in pos.legal_actions() if a != "swap"]))
    return pos


async def _measure(size: int, level: str, games: int, rounds: int) -> dict:
    """Run ``rounds`` rounds of ``games`` games asking at once; every wait, and the lone users' waits."""
    from bot.ai import BotAI

    ai = BotAI()
    fair = "owner" in inspect.signature(ai.choose).parameters
    positions = [_position(size, 100 * size + i) for i in range(games)]
    # Game i's user: the first games are one user's, the last LONE_USERS are one each.
    owners = [0 if i < games - LONE_USERS else i for i in range(games)]
    waits: list[float] = []
    lone: list[float] = []
    try:
        warm = _position(5, 1)
        await asyncio.gather(*(ai.choose(warm.options, [], "easy", 1, warm.to_move[0]) for _ in range(ai.workers)))

        async def one(i: int, r: int) -> None:
            pos = positions[i]
            if pos.outcome is not None:
                return
            kwargs = {"owner": owners[i]} if fair else {}
            t = time.perf_counter()
            line = await ai.choose(pos.options, list(pos.actions), level, 7 * i + r, pos.to_move[0], **kwargs)
            wait = time.perf_counter() - t
            waits.append(wait)
            if owners[i] != 0:
                lone.append(wait)
            pos.play(line)
            if pos.outcome is None:
                pos.play(random.Random(i * 31 + r).choice([a for a in pos.legal_actions() if a != "swap"]))

        for r in range(rounds):
            await asyncio.gather(*(one(i, r) for i in range(games)))
    finally:
        ai.close()
    return {"waits": waits, "lone": lone}


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def _child(args: argparse.Namespace) -> int:
    """Measure the code on this interpreter's path; print JSON rows."""
    out = []
    for size in args.sizes:
        for level in args.levels:
            r = asyncio.run(_measure(size, level, args.games, args.rounds))
            out.append({"size": size, "level": level, **r})
    print(json.dumps(out))
    return 0


def _run(code: Path, args: argparse.Namespace) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    # -P: not the script's folder first on the path (bench/engine.py would shadow the engine package).
    argv = [sys.executable, "-P", str(HERE), "--child", "--games", str(args.games), "--rounds", str(args.rounds),
            "--sizes", *map(str, args.sizes), "--levels", *args.levels]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    """Print the markdown table (before and after when ``--before`` is given)."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--before", type=Path, help="a checkout of the code to compare with (e.g. a worktree of main)")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    p.add_argument("--levels", nargs="+", default=["easy", "medium"])
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        return _child(args)
    from engine.ai import LEVELS

    runs = ([("before", args.before.resolve())] if args.before else []) + [("after", HERE.parents[1])]
    print(f"{args.games} Hex games against the computer at once ({args.games - LONE_USERS} of one user, "
          f"{LONE_USERS} of one user each), {args.rounds} moves each, two workers")
    print("| code | size | level | time | wait p50 | wait p99 | wait max | p99 / time | lone users' p99 |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for name, code in runs:
        for row in _run(code, args):
            budget = LEVELS[row["level"]].budget
            w = row["waits"]
            print(f"| {name} | {row['size']}×{row['size']} | {row['level']} | {budget:.1f} s "
                  f"| {statistics.median(w):.2f} s | {_pct(w, 0.99):.2f} s | {max(w):.2f} s "
                  f"| {_pct(w, 0.99) / budget:.1f}× | {_pct(row['lone'], 0.99):.2f} s |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
