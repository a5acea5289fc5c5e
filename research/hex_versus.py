"""Head to head: this tree's Hex AI against the AI of another git ref (a script, not a test).

    .venv/bin/python -m research.hex_versus [--base main] [--this REF] [--size 9] [--seconds 0.5]
                                         [--games 40] [--level medium] [--jobs 2] [--seed 1]
                                         [--base-seconds S]

The baseline is ``git archive REF`` unpacked into a temporary folder; so is the measured
side when ``--this`` names a ref (by default it is this working tree, which must then not
change while the match runs). Each side runs in a
process of its own (the same Python, its own source tree first on ``sys.path``) and
answers positions with ``engine.ai.choose`` at the same level and time per move, so
neither side pays the other's imports or caches. No swap; Black's first stone comes from
the fixed opening list of ``research/mohex_match.py``, and each opening is played twice,
this tree Black in the first game and White in the second, with the same seeds, so a
colour advantage cancels out. ``--jobs`` games run at once (each game keeps one core busy
at a time: the sides alternate).

Prints one line per game, then the score with colours split and, per opening, which side
won both of its games (the openings that are not a split are the informative ones), and
per side the iterations a searched move ran (a speed figure under the same load) and the
visits it started with from its previous search.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from engine import make_options
from research.mohex_match import OPENINGS

ROOT = Path(__file__).resolve().parents[1]

#: the player loop each side runs: one JSON request a line in, one move a line out (run in its
#: tree's root with that root on PYTHONPATH, so that its engine is the one imported)
PLAYER = """
import json, sys
from engine import make_options
from engine.ai import choose
from engine.ai.hex import ai as hex_ai
import engine
assert engine.__file__.startswith(sys.argv[1]), engine.__file__
print("ready", flush=True)
for line in sys.stdin:
    q = json.loads(line)
    pos = make_options("hex", q["size"], ()).new_position()
    for a in q["moves"]:
        pos.play(a)
    move = choose(pos, q["level"], seed=q["seed"], budget=q["seconds"], iterations=q.get("iterations"))
    r = hex_ai.LAST
    searched = r is not None and r.iterations > 0
    print(move, r.iterations if searched else 0, getattr(r, "reused", 0) if searched else 0, flush=True)
"""


class Player:
    """One side: a Python process with ``root``'s engine, answering positions with its AI."""

    def __init__(self, root: Path) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])]))
        self.proc = subprocess.Popen(
            [sys.executable, "-c", PLAYER, str(root)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            cwd=root, env=env,
        )
        assert self.proc.stdout is not None and self.proc.stdout.readline().strip() == "ready"

    def move(
        self, size: int, moves: list[str], level: str, seconds: float, seed: int, iterations: int | None = None,
    ) -> tuple[str, float, int, int]:
        """The side's move, the wall time it took, and its search's iterations and reused visits
        (0 and 0 when it did not search: an opening move or a proven win). With ``iterations``
        the search stops after that many instead of ``seconds`` (the same move for the same seed)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        t = time.perf_counter()
        q = {"size": size, "moves": moves, "level": level, "seconds": seconds, "seed": seed, "iterations": iterations}
        self.proc.stdin.write(json.dumps(q) + "\n")
        self.proc.stdin.flush()
        move, ran, reused = self.proc.stdout.readline().split()
        return move, time.perf_counter() - t, int(ran), int(reused)

    def close(self) -> None:
        """End the process."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@dataclass
class Result:
    """One game: the opening, this tree's colour, whether it won, length and mean seconds a move."""

    index: int
    opening: str
    this_colour: str
    this_won: bool
    plies: int
    seconds_this: float
    seconds_base: float
    #: per side, (iterations, reused visits) of each move it searched
    searched: dict[str, list[tuple[int, int]]]


def play(players: dict[str, Player], args: argparse.Namespace, index: int) -> Result:
    """Game ``index``: opening ``index // 2``, this tree Black when ``index`` is even."""
    opening = OPENINGS[args.size][(index // 2) % len(OPENINGS[args.size])]
    this_colour = "black" if index % 2 == 0 else "white"
    pos = make_options("hex", args.size, ()).new_position()
    pos.play(opening)
    spent: dict[str, list[float]] = {"this": [], "base": []}
    searched: dict[str, list[tuple[int, int]]] = {"this": [], "base": []}
    while pos.outcome is None:
        side = "this" if pos.to_move[0] == this_colour else "base"
        seed = args.seed * 100_003 + (index // 2) * 1_000 + len(pos.actions)
        budget = args.seconds if side == "this" or args.base_seconds is None else args.base_seconds
        move, seconds, iterations, reused = players[side].move(args.size, list(pos.actions), args.level, budget, seed)
        spent[side].append(seconds)
        if iterations:
            searched[side].append((iterations, reused))
        pos.play(move)
    assert pos.outcome is not None
    mean = lambda xs: sum(xs) / len(xs) if xs else 0.0  # noqa: E731
    return Result(index, opening, this_colour, pos.outcome.winner == this_colour, len(pos.actions),
                  mean(spent["this"]), mean(spent["base"]), searched)


def unpack(ref: str, into: Path) -> Path:
    """``git archive ref`` of this repository, unpacked into ``into``."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def main() -> None:
    """Play the match and print the games and the score."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main", help="git ref of the baseline AI")
    ap.add_argument("--this", default=None, help="git ref of the measured AI (default: this working tree)")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--seconds", type=float, default=0.5, help="time per move, both sides")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--base-seconds", type=float, default=None,
                    help="time per move of the baseline (default: --seconds); with --base = this tree's commit, "
                         "a time-odds match: what a faster search would be worth")
    ap.add_argument("--level", default="medium", help="level both sides play (its temperature; time from --seconds)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="hex-versus-") as tmp:
        base_root = unpack(args.base, Path(tmp) / "base")
        this_root = unpack(args.this, Path(tmp) / "this") if args.this else ROOT

        def job(indices: list[int]) -> list[Result]:
            players = {"this": Player(this_root), "base": Player(base_root)}
            out = []
            try:
                for i in indices:
                    r = play(players, args, i)
                    print(f"game {i + 1}: opening {r.opening}, this tree {r.this_colour}, "
                          f"{'won' if r.this_won else 'lost'} in {r.plies} plies "
                          f"(s/move this {r.seconds_this:.2f}, base {r.seconds_base:.2f})", flush=True)
                    out.append(r)
            finally:
                for p in players.values():
                    p.close()
            return out

        # Game pairs stay in one job, so both colours of an opening see the same load.
        pairs = [list(range(i, min(i + 2, args.games))) for i in range(0, args.games, 2)]
        chunks = [sum(pairs[j::args.jobs], []) for j in range(args.jobs)]
        with ThreadPoolExecutor(args.jobs) as ex:
            results = sorted((r for rs in ex.map(job, chunks) for r in rs), key=lambda r: r.index)
    wins = sum(r.this_won for r in results)
    as_b = [r for r in results if r.this_colour == "black"]
    as_w = [r for r in results if r.this_colour == "white"]
    both_this = both_base = 0
    for i in range(0, len(results) - 1, 2):
        a, b = results[i], results[i + 1]
        both_this += a.this_won and b.this_won
        both_base += not a.this_won and not b.this_won
    odds = f"(base {args.base_seconds} s) " if args.base_seconds is not None else ""
    print(f"\n{args.this or 'this tree'} vs {args.base}, {args.size}×{args.size}, {args.seconds} s a move {odds}({args.level}): "
          f"{wins}/{len(results)} = {wins / len(results):.0%} "
          f"(as Black {sum(r.this_won for r in as_b)}/{len(as_b)}, as White {sum(r.this_won for r in as_w)}/{len(as_w)}); "
          f"openings won with both colours: this tree {both_this}, base {both_base}")
    for side in ("this", "base"):
        moves = [m for r in results for m in r.searched[side]]
        if moves:
            its = sorted(i for i, _ in moves)
            reused = sum(u for _, u in moves) / len(moves)
            print(f"{side}: {len(moves)} searched moves, iterations a move median {its[len(its) // 2]:,}, "
                  f"mean {sum(its) / len(its):,.0f}; visits reused from the previous search, mean {reused:,.0f}")


if __name__ == "__main__":
    main()
