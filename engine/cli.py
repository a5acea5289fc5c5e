"""``python -m engine``: replay actions and print the position as one JSON object.

A stable contract (issue #2): exit 0 with the position, or exit 2 with
``{"error": message, "move": index}`` for an action that is not legal or not
notation (``move`` is null when the options themselves are wrong). With
``--ai LEVEL`` (and optionally ``--seed N``, ``--iterations N``, ``--player P``)
the object also holds ``"ai"``: the AI's action line for the position, unless
the game is over.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from .errors import ActionError, OptionsError
from .games import GAME_NAMES, make_options
from .record import Record


def build_parser() -> argparse.ArgumentParser:
    """The argument parser shared with ``python -m render``."""
    p = argparse.ArgumentParser(prog="python -m engine", description="Replay actions and print the position as JSON.")
    p.add_argument("game", choices=GAME_NAMES)
    p.add_argument("--size", type=int, default=None, help="board size (inpHeXion 5–11 odd, Hex 3–19, Blind Hex 11)")
    p.add_argument("--variant", action="append", default=[], help="a variant; repeat for several")
    p.add_argument("--first", choices=("x", "o"), default=None, help="Blind Hex: who won the cut (default x)")
    p.add_argument("--record", metavar="FILE", help="read actions from FILE, one per line ('#' lines are headers)")
    p.add_argument("actions", nargs="*", metavar="ACTION")
    return p


def load(args: argparse.Namespace):
    """Options and action list from parsed arguments (raises OptionsError, OSError)."""
    options = make_options(args.game, args.size, args.variant, args.first)
    actions = list(args.actions)
    if args.record:
        with open(args.record, encoding="utf-8") as fh:
            actions += Record.read_lines(fh.read())[1]
    return options, actions


def replay(options, actions):
    """Replay ``actions``; return (position, None) or (position so far, (index, error))."""
    pos = options.new_position()
    for i, action in enumerate(actions):
        try:
            pos.play(action)
        except ActionError as exc:
            return pos, (i, exc)
    return pos, None


def add_ai_arguments(p: argparse.ArgumentParser) -> None:
    """``--ai LEVEL`` and its knobs (engine CLI only; the render CLI has no AI)."""
    p.add_argument("--ai", metavar="LEVEL", default=None, help="also print the AI's action line (easy, medium, hard)")
    p.add_argument("--seed", type=int, default=None, help="with --ai: random seed (deterministic with --iterations)")
    p.add_argument("--iterations", type=int, default=None, help="with --ai: search this many iterations, not the level's time")
    p.add_argument("--player", default=None, help="with --ai: the colour to choose for (Blind Hex, both choosing)")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit status."""
    parser = build_parser()
    add_ai_arguments(parser)
    # Intermixed: options may come between or after the actions (`hex c3 --size 5 d4`).
    args = parser.parse_intermixed_args(argv)
    try:
        options, actions = load(args)
    except (OptionsError, OSError) as exc:
        print(json.dumps({"error": str(exc), "move": None}))
        return 2
    pos, failure = replay(options, actions)
    if failure is not None:
        index, exc = failure
        print(json.dumps({"error": str(exc), "move": index}))
        return 2
    out = pos.to_json()
    if args.ai is not None and pos.outcome is None:
        from .ai import choose

        try:
            out["ai"] = choose(pos, args.ai, seed=args.seed, iterations=args.iterations, player=args.player)
        except ValueError as exc:
            print(json.dumps({"error": str(exc), "move": None}))
            return 2
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
