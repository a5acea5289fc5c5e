"""Memory and time of the largest replay, and what replays do to another game's board (issue 45).

Run: ``.venv/bin/python -m bench.replay`` (not a test: the numbers depend on the machine).

Three measurements, each against a named baseline in the same run:

1. **The largest replay** (a 313-turn Hex game on 19×19): peak memory (the process's peak RSS
   above what it held before, each variant in a fresh process) and time (wall and CPU) of
   ``render.render_replay``, which now streams its frames, against *held frames*: the previous
   renderer, kept below, which painted every frame, then made every delta frame, then saved.
2. **A replay asked again**: reading the kept GIF from the database (what the bot does for a
   finished game's replay after the first) against making it.
3. **Another game's board while four replays are asked at once**: the time to make a board
   picture while four replays are in the making, with replays in their own one-thread pool
   (the bot now) against the shared two-thread picture pool (the baseline: the bot before).
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageChops

import engine
import render
from engine import Record
from render.encode import to_palette
from render.geometry import check_width
from render.paint import paint
from render.palette import palette_for
from render.replay import CLEAR, durations, scenes
from render.theme import theme as _theme

#: the repository root, where ``python -m bench.replay`` runs from
ROOT = Path(__file__).resolve().parents[1]
#: the largest replay of issue 45: a 313-turn Hex game on 19×19
SIZE, TURNS = 19, 313
NAMES = {"black": "alice", "white": "bob"}


def longest_game(size: int = SIZE, turns: int = TURNS, seed: int = 45) -> engine.Position:
    """A Hex game of ``turns`` random actions in which nobody connects before the last (a long game)."""
    pos = engine.new_game("hex", size, ["swap"])
    rng = random.Random(seed)
    while len(pos.actions) < turns:
        moves = pos.legal_actions()
        rng.shuffle(moves)
        for move in moves:
            after = pos.copy()
            after.play(move)
            if after.outcome is None or len(pos.actions) == turns - 1:
                pos = after
                break
        else:
            break
    return pos


def held_frames_replay(record: Record, *, names=None, theme: str = "dark", width: int = 720,
                       flip: bool = False) -> bytes:
    """The baseline: the replay renderer before issue 45, every frame held until Pillow saves them all."""
    check_width(width)
    look = _theme(theme)
    frames = []
    palette = None
    for sc in scenes(record, names):
        if palette is None:
            cards = any(p.cards is not None for p in sc.panels)
            palette = palette_for(sc.style, sc.size, cards, look, width, flip)
        frames.append(to_palette(paint(sc, look, width, flip), palette))
    deltas = []
    for before, after in zip(frames, frames[1:]):
        same = ImageChops.difference(after, before).point([255] + [0] * 255, "1")
        delta = after.copy()
        delta.paste(CLEAR, mask=same)
        deltas.append(delta)
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=deltas, duration=durations(len(frames)), loop=0,
                   optimize=False, disposal=1, transparency=CLEAR)
    return out.getvalue()


def _rss_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one(variant: str) -> dict[str, float]:
    """Make the largest replay with one variant in this (fresh) process: its peak memory and times."""
    record = Record.of(longest_game())
    make = held_frames_replay if variant == "held frames" else render.render_replay
    make(Record.of(longest_game(7, 12)), names=NAMES)  # fonts, palettes and layouts loaded first
    before = _rss_mb()
    wall, cpu = time.perf_counter(), time.process_time()
    gif = make(record, names=NAMES)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    frames = Image.open(io.BytesIO(gif)).n_frames
    return {"peak_mb": _rss_mb() - before, "wall_s": wall, "cpu_s": cpu, "gif_mb": len(gif) / 2**20,
            "frames": frames, "actions": len(record.actions)}


def measured(variant: str) -> dict[str, float]:
    """:func:`one` in a fresh Python process (peak RSS only ever grows within one)."""
    done = subprocess.run([sys.executable, "-m", "bench.replay", "--one", variant], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


async def cached_read(gif: bytes) -> float:
    """Seconds to read a kept replay GIF back from a SQLite store (median of 20)."""
    from bot.store import Store

    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        try:
            await store.put_replay_gif(1, "key", gif, 0.0, keep=10)
            times = []
            for k in range(20):
                t = time.perf_counter()
                assert await store.replay_gif(1, "key", float(k)) == gif
                times.append(time.perf_counter() - t)
        finally:
            await store.close()
    return sorted(times)[len(times) // 2]


async def board_while_replaying(shared: bool, replays: int = 4) -> float:
    """Seconds to make one board picture while ``replays`` replays are being made: in the bot's own
    replay pool, or (``shared``, the baseline) in the pool the board pictures use."""
    from bot.ui import pictures as images

    record = Record.of(longest_game(SIZE, 150))
    board = longest_game(11, 30)
    loop = asyncio.get_running_loop()
    pool = images._POOL if shared else images._REPLAY_POOL
    making = [loop.run_in_executor(pool, lambda: render.render_replay(record, names=NAMES)) for _ in range(replays)]
    await asyncio.sleep(0.2)  # the replays have started
    t = time.perf_counter()
    await images.board_file(board, {"black": "carol", "white": "dave"})
    waited = time.perf_counter() - t
    await asyncio.gather(*making)
    return waited


def main() -> None:
    print(f"# Replays (issue 45): the largest replay, {SIZE}×{SIZE} Hex, {TURNS} turns\n")
    base, now = measured("held frames"), measured("streamed")
    print("| renderer | actions | frames | GIF MB | peak memory MB | wall s | CPU s |")
    print("|---|---|---|---|---|---|---|")
    for name, r in (("held frames (baseline)", base), ("streamed (now)", now)):
        print(f"| {name} | {r['actions']:.0f} | {r['frames']:.0f} | {r['gif_mb']:.2f} | {r['peak_mb']:.0f} |"
              f" {r['wall_s']:.2f} | {r['cpu_s']:.2f} |")
    print(f"\npeak memory: {now['peak_mb']:.0f} MB against {base['peak_mb']:.0f} MB "
          f"({now['peak_mb'] / base['peak_mb']:.2f}× the baseline); CPU {now['cpu_s'] / base['cpu_s']:.2f}×")

    gif = render.render_replay(Record.of(longest_game()), names=NAMES)
    read = asyncio.run(cached_read(gif))
    print(f"\nasked again: the kept GIF read from SQLite in {read * 1000:.1f} ms against {now['wall_s']:.2f} s "
          f"to make it ({now['wall_s'] / read:.0f}× faster)")

    shared = asyncio.run(board_while_replaying(shared=True))
    own = asyncio.run(board_while_replaying(shared=False))
    print(f"\nanother game's board while 4 replays (150 turns, 19×19) are made: {own:.2f} s with replays in their "
          f"own pool against {shared:.2f} s in the shared picture pool (baseline), {shared / own:.0f}× sooner")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(one(sys.argv[2])))
    else:
        main()
