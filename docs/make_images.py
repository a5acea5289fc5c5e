"""Regenerate the pictures in docs/images from seeded random games (and a seeded tournament).

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
    standings(out)
    review_graph(out)
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


#: the standings picture's players, by seed: long names and several scripts, as a server has them
STANDINGS_NAMES = ["Ярослав Тимошенко", "Alexandria Featherstonehaugh-Wyn", "李小龍", "محمد بن عبد الله", "Zoë",
                   "Αλέξανδρος", "bob", "Ngũgĩ wa Thiong'o", "🐉 Drake"]


def standings(out: Path) -> None:
    """standings.png: the final standings of a 9-player Swiss (the usual ⌈log2 9⌉ + 1 = 5 rounds) played
    with random results from seed 3 by the tests' tournament player, the 4th seed withdrawing in round 3."""
    from bot.tournaments import Settings
    from bot.tournaments import standings as rank
    from render.standings import Row, Table, render_standings
    from tests.bot.tournaments.play import play

    final = play(Settings("swiss"), 9, 3, withdraw=(3, 4)).final
    names = {e.player: STANDINGS_NAMES[e.seed - 1] for e in final.entrants}
    rows = tuple(Row(s.rank, names[s.player], s.points, s.tiebreaks, s.games, s.withdrawn) for s in rank(final))
    (out / "standings.png").write_bytes(render_standings(Table(rows, ("BH", "SB"), "Swiss · final standings")))
    print(out / "standings.png")


def review_graph(out: Path) -> None:
    """review-graph.png: the win-probability graph of a review of a Hex 9×9 game of the computer against
    itself at a small budget (seeded), with a random move played at turns 10 and 23 (the blunders)."""
    from bot.ui.review_message import chances
    from engine.ai import choose
    from engine.ai.review import review
    from render.review_graph import render_review_graph

    pos = engine.new_game("hex", 9, ("swap",))
    rng = random.Random(5)
    actions: list[str] = []
    while pos.outcome is None:
        blunder = len(actions) in (9, 22)
        action = rng.choice(pos.legal_actions()) if blunder else choose(pos, "easy", seed=len(actions), iterations=1500)
        pos.play(action)
        actions.append(action)
    points, marks = chances(review(pos.options, actions, iterations=1000, seed=0))
    (out / "review-graph.png").write_bytes(render_review_graph(points, marks, "Piet", "black"))
    print(out / "review-graph.png")


def _hex_win() -> tuple[Position, dict]:
    return played("hex", 11, 87, 0), {"names": {"black": "Piet", "white": "John"}}


if __name__ == "__main__":
    raise SystemExit(main())
