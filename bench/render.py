"""Speed and size of the board pictures, against python-chess + cairosvg.

Run: ``.venv/bin/python -m bench.render`` (not a test: numbers depend on the machine).

For each board it prints the median time (wall and CPU) to make one PNG at the
bot's width (``render.WIDTH``, 720 wide, 4:3 up to square; the position is fixed; the static
layer, palette and header caches are warm, as in a running bot, and the cold
first picture is shown apart), the PNG size, and whether it meets the targets
(≤ 5 ms CPU for inpHeXion and Hex 7×7 and 11×11, ≤ 7 ms for Blind Hex, ≤ 60 KB).
The baseline renders a chess board as wide with ``chess.svg`` and converts it
with ``cairosvg`` in the same run. Last, the time, length and size of replay
GIFs (target: 20–40 s a game, ≤ 8 MB).
"""

from __future__ import annotations

import io
import random
import statistics
import time

from PIL import Image, ImageSequence

import engine
import render
from engine import Record
from render.replay import turns as replay_turns

RUNS = 40


def median_ms(fn, runs: int = RUNS) -> tuple[float, float, object]:
    """Median wall and CPU time of ``fn()`` in milliseconds, and its last result.

    CPU time is shown too because on a shared machine the wall time also counts
    the moments other processes held the core.
    """
    wall, cpu = [], []
    out = None
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return statistics.median(wall), statistics.median(cpu), out


def played(game: str, size: int | None, turns: int, seed: int = 1, **kw) -> engine.Position:
    """A position after ``turns`` random legal actions (fewer if the game ends)."""
    pos = engine.new_game(game, size, **kw)
    rng = random.Random(seed)
    for _ in range(turns):
        if pos.outcome is not None:
            break
        pos.play(rng.choice(pos.legal_actions()))
    return pos


def until_end(game: str, size: int | None, seed: int = 1, **kw) -> engine.Position:
    """A random game played to its end."""
    return played(game, size, 10_000, seed, **kw)


def chess_baseline() -> tuple[float, float, int]:
    """Median wall ms, CPU ms and bytes of a chess board as wide as ours through chess.svg and cairosvg."""
    import cairosvg
    import chess
    import chess.svg

    board = chess.Board()
    for uci in ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"):
        board.push_uci(uci)

    def draw() -> bytes:
        svg = chess.svg.board(board, size=render.WIDTH, lastmove=board.peek())
        return cairosvg.svg2png(bytestring=svg.encode())

    ms, cpu, png = median_ms(draw, 20)
    return ms, cpu, len(png)  # type: ignore[arg-type]


def main() -> None:
    """Print the table: chess baseline, each board picture, then the GIFs."""
    names = {"white": "Alice", "black": "Bob", "x": "Xavier", "o": "Olga"}
    chess_ms, chess_cpu, chess_bytes = chess_baseline()
    print(f"{'picture':34} {'cold ms':>8} {'median ms':>10} {'CPU ms':>7} {'PNG KB':>7} {'vs chess':>9} target")
    print(
        f"{f'chess {render.WIDTH} px (python-chess+cairosvg)':34} {'':>8} {chess_ms:10.1f} {chess_cpu:7.1f} "
        f"{chess_bytes / 1024:7.1f} {1.0:9.2f}"
    )
    cases = [
        ("hex 7x7, 24 stones", played("hex", 7, 24)),
        ("hex 11x11, 60 stones", played("hex", 11, 60)),
        ("hex 19x19, 180 stones", played("hex", 19, 180)),
    ]
    for game, size, turns in (("inphexion", 7, 30), ("inphexion", 11, 60), ("blindhex", 11, 60)):
        try:
            cases.append((f"{game} {size}x{size}, {turns} actions", played(game, size, turns)))
        except Exception as exc:  # an engine not written yet must not stop the bench
            print(f"({game}: {exc})")
    for label, pos in cases:
        t = time.perf_counter()
        render.render_position(pos, names=names)
        cold = (time.perf_counter() - t) * 1000
        ms, cpu, png = median_ms(lambda pos=pos: render.render_position(pos, names=names))
        size = len(png) / 1024  # type: ignore[arg-type]
        limit = 7.0 if label.startswith("blindhex") else 5.0 if "19x19" not in label else None
        met = "" if limit is None else ("met" if cpu <= limit and size <= 60 else "MISSED") + f" (≤ {limit:g} ms)"
        print(f"{label:34} {cold:8.1f} {ms:10.1f} {cpu:7.1f} {size:7.1f} {ms / chess_ms:9.2f} {met}")

    print()
    for label, pos in (
        ("GIF hex 11x11, 60 turns", played("hex", 11, 60)),
        ("GIF hex 11x11, full game", until_end("hex", 11, seed=7)),
        ("GIF inphexion 11x11, full game", until_end("inphexion", 11, seed=3)),
        ("GIF blindhex, full game", until_end("blindhex", None, seed=3)),
    ):
        record = Record.of(pos)
        t = time.perf_counter()
        gif = render.render_replay(record, names=names)
        ms = (time.perf_counter() - t) * 1000
        frames = sum(1 for _ in replay_turns(record))
        seconds = sum(f.info["duration"] for f in ImageSequence.Iterator(Image.open(io.BytesIO(gif)))) / 1000
        print(
            f"{label:34} {len(record.actions):4} actions {frames:4} frames {ms:6.0f} ms "
            f"{len(gif) / 1024 / 1024:6.2f} MB, plays {seconds:4.1f} s"
        )


if __name__ == "__main__":
    main()
