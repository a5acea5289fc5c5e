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
    """display-size.png: the old and the new Hex picture at the sizes Discord shows them.

    Top row: each fitted into the desktop client's 400×300 embed box; bottom
    row: each at the width of an embed image on a 360 px phone (about 248 px,
    our estimate; see :mod:`render.display`). ``hex-win-before.png`` is the
    picture the renderer drew before it was made for those sizes (900×722, kept
    as a file: that renderer is gone).
    """
    from PIL import Image, ImageDraw

    from render import display
    from render.fonts import MEDIUM, text

    before = Image.open(Path(__file__).parent / "images" / "hex-win-before.png").convert("RGB")
    pos, options = _hex_win()
    now = render.render_image(pos, **options, palette=False)
    rows = []
    for where, scale in (("Discord desktop: fitted into the 400×300 embed box", display.desktop_scale),
                         (f"a 360 px phone: {display.PHONE} px wide (our estimate)", display.phone_scale)):
        shown = []
        for im in (before, now):
            k = scale(*im.size)
            shown.append(im.resize((round(im.width * k), round(im.height * k)), Image.Resampling.LANCZOS))
        rows.append((where, shown))
    gap, title, top = 16, 26, 22
    width = max(sum(im.width for im in shown) for _, shown in rows) + 3 * gap
    height = sum(title + top + max(im.height for im in shown) + gap for _, shown in rows)
    sheet = Image.new("RGB", (width, height), (49, 51, 56))
    draw = ImageDraw.Draw(sheet)
    y = 0
    for where, shown in rows:
        text(where, 15, MEDIUM).draw(draw, (gap, y + title / 2 + 2), (242, 243, 245), "lm")
        y += title
        x = gap
        for im, label, src in zip(shown, ("before", "now"), (before, now)):
            words = f"{label}: {src.width}×{src.height} → {im.width}×{im.height}"
            text(words, 13, MEDIUM).draw(draw, (x, y + top / 2), (181, 186, 193), "lm")
            sheet.paste(im, (x, y + top))
            x += im.width + gap
        y += top + max(im.height for im in shown) + gap
    # an adaptive palette: a tenth of the size, no visible difference at these sizes
    sheet.quantize(256, dither=Image.Dither.NONE).save(out / "display-size.png", optimize=True)
    print(out / "display-size.png")


def _hex_win() -> tuple[Position, dict]:
    return played("hex", 11, 87, 0), {"names": {"black": "Piet", "white": "John"}}


if __name__ == "__main__":
    raise SystemExit(main())
