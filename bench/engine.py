"""Random games per second of each engine, as a markdown table (a script, not a test).

    .venv/bin/python bench/engine.py [--seconds 2] [--seed 1]

Rows: inpHeXion 7×7 for each variant combination, Blind Hex, and Hex 11×11 for
our engine and for OpenSpiel's (its Python API playing random legal actions to
the end) measured in the same run, with the ratio. Targets: inpHeXion ≥ 2,500
games/s; Hex ≥ 5× OpenSpiel.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402

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


def main(argv: list[str] | None = None) -> int:
    """Measure every row and print the table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=2.0, help="time box per row (default 2)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    rows: list[tuple[str, str, str, str]] = []
    notes: list[str] = []

    if importlib.util.find_spec("engine.inphexion") is None:
        notes.append("inpHeXion skipped: engine/inphexion.py does not exist yet.")
    else:
        for variants in INPHEXION_VARIANTS:
            r = rate(ours("inphexion", 7, variants, rng), args.seconds)
            label = " + ".join(variants) or "none"
            ok = "yes" if r >= INPHEXION_TARGET else "NO"
            rows.append((f"inpHeXion 7×7, {label}", f"{r:,.0f}", f"≥ {INPHEXION_TARGET:,}", ok))

    r = rate(ours("blindhex", 11, (), rng, first="x"), args.seconds)
    rows.append(("Blind Hex 11×11", f"{r:,.0f}", "—", "—"))

    ours_hex = rate(ours("hex", 11, (), rng), args.seconds)
    theirs = openspiel_hex(11, rng)
    if theirs is None:
        rows.append(("Hex 11×11 (ours)", f"{ours_hex:,.0f}", f"≥ {HEX_RATIO_TARGET:g}× OpenSpiel", "?"))
        notes.append("OpenSpiel skipped: pyspiel is not installed (pip install open-spiel).")
    else:
        spiel = rate(theirs, args.seconds)
        ratio = ours_hex / spiel
        ok = "yes" if ratio >= HEX_RATIO_TARGET else "NO"
        target = f"≥ {HEX_RATIO_TARGET:g}× OpenSpiel"
        rows.append(("Hex 11×11 (ours)", f"{ours_hex:,.0f}", target, f"{ok} ({ratio:.1f}×)"))
        rows.append(("Hex 11×11 (OpenSpiel, Python API)", f"{spiel:,.0f}", "reference", "—"))

    print(f"Random games per second (Python {sys.version.split()[0]}, {args.seconds:g} s per row)\n")
    print("| game | games/s | target | met |")
    print("|---|---:|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    for note in notes:
        print(f"\n{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
