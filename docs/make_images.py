"""Regenerate the README pictures in docs/images from seeded random games.

    .venv/bin/python docs/make_images.py [OUT_DIR]   (default: docs/images)

Each picture is the position after a fixed number of actions of a random game
with a fixed seed, drawn by the project's own renderer.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
import render  # noqa: E402
from engine import Position, Record  # noqa: E402

ALICE_BOB = {"white": "Alice", "black": "Bob"}


def played(game: str, size: int | None, actions: int, seed: int, variants: tuple[str, ...] = ()) -> Position:
    """The position after ``actions`` uniformly random legal actions (seeded)."""
    pos = engine.new_game(game, size, variants)
    rng = random.Random(seed)
    for _ in range(actions):
        if pos.outcome is not None:
            break
        pos.play(rng.choice(pos.legal_actions()))
    return pos


def main() -> int:
    """Write every picture; print their names."""
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "images")
    out.mkdir(parents=True, exist_ok=True)
    shots = {
        "hex-win.png": _hex_win(),
        "blindhex-write.png": (played("blindhex", None, 46, 0), {"names": {"x": "Xia", "o": "Oto"}}),
        "inphexion-turn.png": (played("inphexion", 7, 22, 2), {"names": ALICE_BOB, "caption": "inpHeXion 7x7"}),
        "inphexion-relocate.png": (played("inphexion", 7, 38, 0), {"names": ALICE_BOB}),
        "inphexion-neutral-light.png": (played("inphexion", 7, 16, 0, ("neutral",)),
                                        {"names": ALICE_BOB, "theme": "light"}),
    }
    for name, (pos, options) in shots.items():
        (out / name).write_bytes(render.render_position(pos, **options))
        print(out / name)
    gif = render.render_replay(Record.of(played("inphexion", 7, 24, 2)), names=ALICE_BOB, width=560)
    (out / "inphexion-replay.gif").write_bytes(gif)
    print(out / "inphexion-replay.gif")
    side_by_side(out)
    return 0


def side_by_side(out: Path) -> None:
    """display-size.png: the old and the new Hex picture each at the size Discord's desktop shows them.

    ``hex-win-before.png`` is the picture the renderer drew before it was made
    for that size (900×752, kept as a file: that renderer is gone).
    """
    from PIL import Image, ImageDraw

    from render import display
    from render.fonts import MEDIUM, text

    before = Image.open(Path(__file__).parent / "images" / "hex-win-before.png").convert("RGB")
    pos, options = _hex_win()
    now = render.render_image(pos, **options, palette=False)
    shown = []
    for im in (before, now):
        k = display.scale(*im.size)
        shown.append(im.resize((round(im.width * k), round(im.height * k)), Image.Resampling.LANCZOS))
    gap, top = 16, 28
    sheet = Image.new("RGB", (sum(im.width for im in shown) + 3 * gap, top + max(im.height for im in shown) + gap),
                      (49, 51, 56))
    draw = ImageDraw.Draw(sheet)
    x = gap
    for im, words in zip(shown, (f"before: {before.width}×{before.height}, shown at {shown[0].width}×{shown[0].height}",
                                 f"now: {now.width}×{now.height}, shown at {shown[1].width}×{shown[1].height}")):
        text(words, 15, MEDIUM).draw(draw, (x, top / 2), (242, 243, 245), "lm")
        sheet.paste(im, (x, top))
        x += im.width + gap
    sheet.save(out / "display-size.png")
    print(out / "display-size.png")


def _hex_win() -> tuple[Position, dict]:
    return played("hex", 11, 87, 0), {"names": {"black": "Piet", "white": "John"}}


if __name__ == "__main__":
    raise SystemExit(main())
