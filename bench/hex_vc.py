"""H-search cost: ``analyse`` on middle-game Hex positions, this tree's ``hex_vc`` against a
baseline ``engine/ai/hex/vc.py`` and its compiled rules ``vc_kernel.py`` (by default ``main``'s, read with
``git show``) run in the same process.

Run: ``.venv/bin/python -m bench.hex_vc [--base main] [--positions 30]``. Not a test.

``--filled``: the baseline is this tree's plain ``analyse`` and the measured side is what the
AI runs, ``hex_ai.knowledge``: dead cells and captured pairs filled first, the H-search on the
filled board (at the root work limit, the plain board too when the filled one proves nothing).

Positions: 9×9 and 11×11 boards after 12–30 moves of a game drawn from the AI's learned
move policy (see Games below; a fixed seed). Each position is analysed for the side to move with the root work limit, the
smaller limit the tree uses at often-visited nodes (``REFINE_WORK``), and that limit in the narrow mode the
tree runs (``narrow``). Reported per size and limit: mean and p90 milliseconds for each version (each position's best of three
alternating runs), their ratio, and how many positions each
version proves (a win for the mover, or a loss: the opponent's virtual win leaves no mustplay).

Games (``--games``): 9×9 and 11×11 games whose moves are drawn from the AI's learned move
policy (``HexState.policy``, no search: cheap, and shaped like real play rather than random
stones). At every ply both versions analyse the position with the root work limit; reported:
the mean first ply at which each proves the result, and in how many games this version
proves it earlier (later) than the baseline.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from engine.ai.hex import vc as hex_vc
from engine.ai.hex.ai import REFINE_WORK, HexState, knowledge, tables
from engine.geometry import HexGrid, grid

ROOT = Path(__file__).resolve().parents[1]


class Filled:
    """``hex_ai.knowledge`` behind ``analyse``'s signature, so the bench can time it like a ``hex_vc``."""

    @staticmethod
    def analyse(
        g: HexGrid, mine: int, theirs: int, vertical: bool, max_work: int = 400_000, narrow: bool = False,
    ) -> hex_vc.RootAnalysis:
        """The virtual connections ``knowledge`` finds (the root's way at the root work limit)."""
        black, white = (mine, theirs) if vertical else (theirs, mine)
        return knowledge(g, black, white, vertical, max_work, both_boards=max_work >= 400_000, narrow=narrow).vc


def baseline(ref: str) -> ModuleType:
    """``engine/ai/hex/vc.py`` as of git ref ``ref``, imported as a package sibling of this one, with
    its compiled rules (``vc_kernel.py``) of that ref too (compiled afresh: tens of seconds). The ref must
    have the sub-package ``engine/ai/hex/``."""
    folder = Path(tempfile.mkdtemp())
    _load(ref, "vc_kernel", folder, lambda text: text)
    return _load(ref, "vc", folder, lambda text: text.replace("from .vc_kernel import", "from .vc_kernel_base import"))


def _load(ref: str, name: str, folder: Path, edit: Callable[[str], str]) -> ModuleType:
    """``engine/ai/hex/<name>.py`` as of ``ref`` (after ``edit`` on its text), as ``engine.ai.hex.<name>_base``."""
    text = subprocess.run(
        ["git", "show", f"{ref}:engine/ai/hex/{name}.py"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    path = folder / f"{name}_base.py"
    path.write_text(edit(text))
    spec = importlib.util.spec_from_file_location(f"engine.ai.hex.{name}_base", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


def positions(n: int, count: int, rng: random.Random) -> list[tuple[int, int, bool]]:
    """Middle-game positions: one from each of ``count`` policy games (see :func:`policy_game`),
    after 12 to 30 moves (fewer if the game ended sooner), the side to move's view."""
    out = []
    for _ in range(count):
        game = policy_game(n, rng)
        out.append(game[min(rng.randint(12, 30), len(game) - 1)])
    return out


def measure(
    mod: ModuleType | type[Filled], n: int, cases: list[tuple[int, int, bool]], work: int, narrow: bool = False,
) -> tuple[list[float], int]:
    """Milliseconds per ``analyse`` call, and how many positions it proves."""
    g = grid(n)
    times, proven = [], 0
    for mine, theirs, vertical in cases:
        t = time.perf_counter()
        a = mod.analyse(g, mine, theirs, vertical, work, narrow)
        times.append((time.perf_counter() - t) * 1000)
        proven += a.mover_wins or a.mover_loses
    return times, proven


def policy_game(n: int, rng: random.Random) -> list[tuple[int, int, bool]]:
    """One game drawn from the learned move policy: each position before a move, as
    (mover's stones, opponent's stones, mover is Black), until someone is connected."""
    state = HexState(tables(n))
    g = grid(n)
    out = []
    while not (g.connects(state.black, True) or g.connects(state.white, False)):
        vertical = state.black_to_move
        mine, theirs = (state.black, state.white) if vertical else (state.white, state.black)
        out.append((mine, theirs, vertical))
        moves = [c for c in range(g.cells) if not (state.black | state.white) >> c & 1]
        state.play(rng.choices(moves, weights=state.policy(moves))[0])
    return out


def first_proof(mod: ModuleType | type[Filled], n: int, game: list[tuple[int, int, bool]]) -> int:
    """The first ply at which ``mod.analyse`` proves the game's result (its length if never)."""
    g = grid(n)
    for ply, (mine, theirs, vertical) in enumerate(game):
        a = mod.analyse(g, mine, theirs, vertical)
        if a.mover_wins or a.mover_loses:
            return ply
    return len(game)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", default="main", help="git ref of the baseline engine/ai/hex/vc.py")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--games", type=int, default=0, help="policy games per size for the first-proof count")
    ap.add_argument("--filled", action="store_true", help="this tree's plain analyse against knowledge()")
    args = ap.parse_args()
    base: ModuleType | type[Filled] = baseline(args.base)
    this: ModuleType | type[Filled] = hex_vc
    if args.filled:
        base, this = hex_vc, Filled
    rng = random.Random(17)
    print(f"{'board':6} {'work':>14} | {'base ms mean/p90':>17} | {'this ms mean/p90':>17} | ratio | proven base/this")
    for n in (9, 11):
        cases = positions(n, args.positions, rng)
        for work, narrow in ((400_000, False), (REFINE_WORK, False), (REFINE_WORK, True)):
            measure(this, n, cases[:3], work, narrow)  # warm the template tables
            # alternate the two versions, keep each position's best of three (less noise)
            runs = [(measure(base, n, cases, work, narrow), measure(this, n, cases, work, narrow)) for _ in range(3)]
            tb = [min(r[0][0][i] for r in runs) for i in range(len(cases))]
            tn = [min(r[1][0][i] for r in runs) for i in range(len(cases))]
            pb, pn = runs[0][0][1], runs[0][1][1]

            def p90(xs: list[float]) -> float:
                return sorted(xs)[int(0.9 * (len(xs) - 1))]

            mb, mn = statistics.mean(tb), statistics.mean(tn)
            print(
                f"{n}x{n:<4} {work:>7}{' narrow' if narrow else '':7} | {mb:8.1f} / {p90(tb):6.1f} | {mn:8.1f} / {p90(tn):6.1f} |"
                f" {mn / mb:5.2f} | {pb}/{pn} of {len(cases)}"
            )
    for n in (9, 11) if args.games else ():
        games = [policy_game(n, rng) for _ in range(args.games)]
        fb = [first_proof(base, n, gm) for gm in games]
        fn = [first_proof(this, n, gm) for gm in games]
        print(
            f"{n}x{n}: {len(games)} policy games, mean {statistics.mean(len(gm) for gm in games):.1f} plies;"
            f" first proof at ply {statistics.mean(fb):.1f} (base) / {statistics.mean(fn):.1f} (this);"
            f" earlier in {sum(a < b for a, b in zip(fn, fb))}, later in {sum(a > b for a, b in zip(fn, fb))}"
        )


if __name__ == "__main__":
    main()
