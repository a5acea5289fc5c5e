"""The AI's first move in a fresh process: importing the engine, then the first ``engine.ai.choose``.

    .venv/bin/python -m bench.first_move [--baseline PATH] [--runs 15]

What a player waits for when the bot's AI worker is new: the import of ``engine.ai`` and the
first Hex move at level ``medium``, which reads the opening book (and, out of the book, the
learned priors' weights) on first use. Cases: 9×9 and 11×11 after one stone (the book
answers), and 9×9 after six stones out of the book (the book is looked up, then the search
runs on the learned priors, 300 iterations so that the work is the same every run).

Each run is a new Python process (``-c``), its tree's root as working directory and on
``PYTHONPATH``, bytecode written (``PYTHONDONTWRITEBYTECODE`` dropped); one warm-up run per tree
first writes the bytecode and the compiled kernels' caches, as an installed bot has them.
``--baseline PATH``: another checkout (e.g. ``git archive main | tar -x -C /tmp/base``), run
alternately with this one in the same run; printed: the median milliseconds of the import and
of the first move per tree, and this tree's ratio to the baseline. Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (label, board size, moves before the AI's)
CASES = [
    ("Hex 9×9, after e5 (book)", 9, ["e5"]),
    ("Hex 11×11, after f6 (book)", 11, ["f6"]),
    ("Hex 9×9, after a1…a6 (search)", 9, ["a1", "a2", "a3", "a4", "a5", "a6"]),
]

#: one run in a fresh process: argv = root, size, moves (JSON); prints the two times as JSON
CHILD = """
import json, sys, time
t0 = time.perf_counter()
import engine
from engine.ai import choose
t1 = time.perf_counter()
assert engine.__file__.startswith(sys.argv[1]), engine.__file__
pos = engine.new_game("hex", int(sys.argv[2]), ())
for m in json.loads(sys.argv[3]):
    pos.play(m)
move = choose(pos, "medium", seed=1, iterations=300)
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first": t2 - t1, "move": move}))
"""


def run_once(root: Path, size: int, moves: list[str]) -> dict:
    """One fresh process of ``root``'s tree: the import's and the first move's seconds, and the move."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])]))
    # An installed bot has its modules' bytecode (pip compiles it); without it, each fresh process
    # would compile every module from source, the generated ones too, and measure that instead.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(root), str(size), json.dumps(moves)],
        cwd=root, env=env, check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def ms(xs: list[float]) -> float:
    """The median of seconds, in milliseconds."""
    return 1000 * statistics.median(xs)


def main() -> None:
    """Command line: see the module docstring."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--baseline", help="another checkout's root, measured alternately in the same run")
    p.add_argument("--runs", type=int, default=15, help="fresh processes per tree and case")
    a = p.parse_args()
    trees = [("this", ROOT)] + ([("baseline", Path(a.baseline).resolve())] if a.baseline else [])
    print(f"{a.runs} fresh processes per tree and case, alternating; medians in ms\n")
    print("| case | tree | import | first move | total | total vs baseline |")
    print("|---|---|---:|---:|---:|---:|")
    for label, size, moves in CASES:
        times: dict[str, dict[str, list[float]]] = {}
        played: dict[str, set[str]] = {}
        for name, root in trees:
            run_once(root, size, moves)  # warm-up: bytecode and kernel caches
            times[name] = {"import": [], "first": [], "total": []}
            played[name] = set()
        for i in range(a.runs):
            # alternate which tree goes first, so neither always runs right after the other
            for name, root in trees if i % 2 == 0 else trees[::-1]:
                r = run_once(root, size, moves)
                times[name]["import"].append(r["import"])
                times[name]["first"].append(r["first"])
                times[name]["total"].append(r["import"] + r["first"])
                played[name].add(r["move"])
        base = ms(times["baseline"]["total"]) if a.baseline else None
        for name, _ in trees:
            t = times[name]
            ratio = f"{ms(t['total']) / base:.3f}×" if base else "—"
            print(f"| {label} | {name} | {ms(t['import']):.0f} | {ms(t['first']):.0f} | {ms(t['total']):.0f} | "
                  f"{ratio} |", flush=True)
        if a.baseline and played["this"] != played["baseline"]:
            print(f"  (the trees played different moves: {played})")


if __name__ == "__main__":
    main()
