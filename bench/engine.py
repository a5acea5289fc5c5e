"""Random games per second of each engine, as a markdown table (a script, not a test).

    .venv/bin/python -m bench.engine [--seconds 2] [--seed 1]

Rows: inpHeXion 7×7 for each variant combination, Blind Hex, and Hex 11×11 for
our engine and for OpenSpiel's (its Python API playing random legal actions to
the end) measured in the same run, with the ratio. Targets: inpHeXion ≥ 2,500
games/s; Hex ≥ 5× OpenSpiel.

``--baseline REF`` adds the one inpHeXion playout kernel against the code it
replaced, read from git at REF (default ``95bcfb7``, before the kernel): the
engine's random games and the AI's playouts (``engine.ai.inphexion_ai``), old and
new in the same run, with the ratio (≥ 1.0 means today's speed or better).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path

import engine
import engine.position
from engine.ai.inphexion_ai import InpState

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "95bcfb7"

INPHEXION_TARGET = 2500
HEX_RATIO_TARGET = 5.0
INPHEXION_VARIANTS: list[tuple[str, ...]] = [
    (), ("pie",), ("neutral",), ("free-reply",), ("free-reply", "neutral", "pie"),
]


def rate(game: Callable[[], object], seconds: float) -> float:
    """Games per second of ``game()`` over a time box of about ``seconds``."""
    game()  # warm up caches (grids, imports)
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game()
        count += 1
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def ours(name: str, size: int | None, variants: tuple[str, ...], rng: random.Random, **kw) -> Callable[[], object]:
    """One random game of our engine from a fresh position."""
    return lambda: engine.new_game(name, size, variants, **kw).random_playout(rng)


def openspiel_hex(size: int, rng: random.Random) -> Callable[[], object] | None:
    """One random game of OpenSpiel's Hex through its Python API, or None without pyspiel."""
    if importlib.util.find_spec("pyspiel") is None:
        return None
    import pyspiel

    game = pyspiel.load_game("hex", {"board_size": size})

    def play() -> object:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        return state.returns()

    return play


def old_module(ref: str, path: str, name: str) -> types.ModuleType:
    """The module at ``path`` as it was at git ``ref``, loaded beside today's code as ``name``."""
    source = subprocess.run(["git", "show", f"{ref}:{path}"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout
    module = types.ModuleType(name)
    module.__package__ = name.rpartition(".")[0]
    sys.modules[name] = module
    registry = dict(engine.position._CLASSES)
    exec(compile(source, f"{ref}:{path}", "exec"), module.__dict__)
    # The old class registers itself under the game's name; today's stays the one in use.
    engine.position._CLASSES.clear()
    engine.position._CLASSES.update(registry)
    return module


def kernel_rows(ref: str, seconds: float, seed: int) -> list[tuple[str, str, str, str]]:
    """inpHeXion 7×7 random games (engine) and AI playouts: the one kernel against the old copies."""
    old_engine = old_module(ref, "engine/inphexion.py", "engine._old_inphexion")
    old_ai = old_module(ref, "engine/ai/inphexion_ai.py", "engine.ai._old_inphexion_ai")
    options = engine.make_options("inphexion", 7)
    rows = []
    for label, new, old in (
        ("engine random games", lambda r: options.new_position().random_playout(r),
         lambda r: old_engine.InpHexion(options).random_playout(r)),
        ("AI playouts", lambda r: InpState(options.new_position()).playout(r),
         lambda r: old_ai.InpState(options.new_position()).playout(r)),
    ):
        new_rng, old_rng = random.Random(seed), random.Random(seed)
        # Alternate short runs so both see the same machine load.
        a = b = 0.0
        for _ in range(4):
            a += rate(lambda new=new, rng=new_rng: new(rng), seconds / 4)
            b += rate(lambda old=old, rng=old_rng: old(rng), seconds / 4)
        rows.append((f"inpHeXion 7×7 {label}: kernel / {ref}", f"{a / 4:,.0f} / {b / 4:,.0f}", "≥ 1.0×",
                     f"{'yes' if a >= b * 0.97 else 'NO'} ({a / b:.2f}×)"))
    return rows


def main(argv: list[str] | None = None) -> int:
    """Measure every row and print the table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=2.0, help="time box per row (default 2)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--baseline", nargs="?", const=BASELINE, default=None, metavar="REF",
                   help=f"also compare the inpHeXion kernel with the code at git REF (default {BASELINE})")
    p.add_argument("--only-kernel", action="store_true", help="measure only the --baseline rows")
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    rows: list[tuple[str, str, str, str]] = []
    notes: list[str] = []

    if args.baseline:
        rows.extend(kernel_rows(args.baseline, args.seconds, args.seed))
    if not args.only_kernel:
        measure(rows, notes, rng, args.seconds)
    print(f"Random games per second (Python {sys.version.split()[0]}, {args.seconds:g} s per row)\n")
    print("| game | games/s | target | met |")
    print("|---|---:|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    for note in notes:
        print(f"\n{note}")
    return 0


def measure(rows: list[tuple[str, str, str, str]], notes: list[str], rng: random.Random, seconds: float) -> None:
    """The rows of every engine, against their targets."""
    if importlib.util.find_spec("engine.inphexion") is None:
        notes.append("inpHeXion skipped: engine/inphexion.py does not exist yet.")
    else:
        for variants in INPHEXION_VARIANTS:
            r = rate(ours("inphexion", 7, variants, rng), seconds)
            label = " + ".join(variants) or "none"
            ok = "yes" if r >= INPHEXION_TARGET else "NO"
            rows.append((f"inpHeXion 7×7, {label}", f"{r:,.0f}", f"≥ {INPHEXION_TARGET:,}", ok))

    r = rate(ours("blindhex", 11, (), rng, first="x"), seconds)
    rows.append(("Blind Hex 11×11", f"{r:,.0f}", "—", "—"))

    ours_hex = rate(ours("hex", 11, (), rng), seconds)
    theirs = openspiel_hex(11, rng)
    if theirs is None:
        rows.append(("Hex 11×11 (ours)", f"{ours_hex:,.0f}", f"≥ {HEX_RATIO_TARGET:g}× OpenSpiel", "?"))
        notes.append("OpenSpiel skipped: pyspiel is not installed (pip install open-spiel).")
    else:
        spiel = rate(theirs, seconds)
        ratio = ours_hex / spiel
        ok = "yes" if ratio >= HEX_RATIO_TARGET else "NO"
        target = f"≥ {HEX_RATIO_TARGET:g}× OpenSpiel"
        rows.append(("Hex 11×11 (ours)", f"{ours_hex:,.0f}", target, f"{ok} ({ratio:.1f}×)"))
        rows.append(("Hex 11×11 (OpenSpiel, Python API)", f"{spiel:,.0f}", "reference", "—"))


if __name__ == "__main__":
    sys.exit(main())
