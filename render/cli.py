"""``python -m render``: a picture of a position, or a GIF of the whole game.

Takes the same game, option and action arguments as ``python -m engine``
(its parser is reused), plus where to write and how it should look::

    python -m render inphexion --size 7 d4 "d4 d5" -o board.png
    python -m render hex --size 11 f6 e7 --gif replay.gif --theme light

Exit 0 after writing; exit 2 with a message on stderr for a bad option or action.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engine import ActionError, OptionsError, Record
from engine.cli import build_parser as engine_parser
from engine.cli import load, replay

from . import THEMES, WIDTH, render_position, render_replay
from .replay import names_at


def build_parser() -> argparse.ArgumentParser:
    """The engine's parser with the picture options added."""
    p = engine_parser()
    p.prog = "python -m render"
    p.description = "Draw a position as PNG (-o) and/or the whole game as an animated GIF (--gif)."
    p.add_argument("-o", "--output", metavar="PNG", help="write the final position here (default board.png)")
    p.add_argument("--gif", metavar="GIF", help="write a replay of every turn here")
    p.add_argument("--theme", choices=sorted(THEMES), default="dark")
    p.add_argument("--width", type=int, default=None, help="picture width in pixels (default 720); pictures are 4:3 up to square, as tall as the board needs")
    p.add_argument("--flip", action="store_true", help="turn the board half a turn")
    p.add_argument("--name", action="append", default=[], metavar="COLOUR=NAME", help="a player's name by the colour they start with (a swap moves it); repeat")
    p.add_argument("--caption", default=None, help="text at the bottom right")
    return p


def _names(pairs: list[str]) -> dict[str, str]:
    """``white=Alice`` pairs as a dict (ValueError on a pair without ``=``)."""
    out = {}
    for pair in pairs:
        colour, sep, name = pair.partition("=")
        if not sep:
            raise ValueError(f"--name takes COLOUR=NAME, not '{pair}'")
        out[colour.strip().lower()] = name.strip()
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit status."""
    # intermixed: options may come between the game and the actions, as in the usage line
    args = build_parser().parse_intermixed_args(argv)
    try:
        names = _names(args.name)
        options, actions = load(args)
    except (OptionsError, OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    pos, failure = replay(options, actions)
    if failure is not None:
        index, error = failure
        print(f"error: action {index + 1} ({actions[index]!r}): {error}", file=sys.stderr)
        return 2
    try:
        output = args.output or (None if args.gif else "board.png")
        if output:
            png = render_position(
                pos, names=names_at(pos, names), theme=args.theme, width=args.width or WIDTH, flip=args.flip, caption=args.caption
            )
            with open(output, "wb") as fh:
                fh.write(png)
        if args.gif:
            gif = render_replay(Record.of(pos), names=names, theme=args.theme, width=args.width or 720, flip=args.flip)
            with open(args.gif, "wb") as fh:
                fh.write(gif)
    except (OSError, ValueError, ActionError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
