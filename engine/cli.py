"""``python -m engine``: replay actions and print the position as one JSON object.

A stable contract (issue #2): exit 0 with the position, or exit 2 with
``{"error": message, "move": index}`` for an action that is not legal or not
notation (``move`` is null when the options themselves are wrong, including
arguments the parser cannot read). With ``--ai LEVEL`` (and optionally
``--seed N``, ``--iterations N``, ``--player P``) the object also holds
``"ai"``: the AI's action line for the position, unless the game is over.

A ``--record FILE`` may carry the header lines :meth:`Record.to_text` writes
(``# game:``, ``# size:``, ``# variants:``, ``# first:``); they supply any option
the command line leaves out, and must agree with any it gives.

With ``--review`` it prints the game's review instead (:mod:`engine.ai.review`), as JSON
lines: one object per turn, ``{"move", "player", "win_before", "win_after", "best",
"mark", "proved_before", "proved_after"}`` (win probabilities for the player who moved),
then one last line ``{"summary": {colour: {"accuracy", "turns", "?!", "?", "??"}},
"iterations": n}``. ``--iterations`` is then the search's budget per position (default:
the game's) and ``--seed`` its seed (default 0: the same review every time).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn, Sequence

from .errors import ActionError, OptionsError
from .games import GAME_NAMES, make_options
from .notation import shorten
from .record import Record


class JsonArgumentParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors keep the CLI's JSON contract.

    argparse would print usage to stderr and leave stdout empty; callers of
    ``python -m engine`` read stdout only, so they get ``{"error", "move": null}``
    there instead (still exit status 2). ``--help`` is unaffected.
    """

    def error(self, message: str) -> NoReturn:
        """Print argparse's message as the JSON error object and exit with status 2."""
        print(json.dumps({"error": message, "move": None}))
        self.exit(2)


def build_parser(parser_class: type[argparse.ArgumentParser] = argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The argument parser shared with ``python -m render``.

    ``parser_class`` lets the engine CLI use :class:`JsonArgumentParser` while
    ``python -m render`` keeps argparse's usual usage errors on stderr.
    """
    p = parser_class(prog="python -m engine", description="Replay actions and print the position as JSON.")
    p.add_argument("game", choices=GAME_NAMES)
    p.add_argument("--size", type=int, default=None, help="board size (inpHeXion 5–11 odd, Hex 3–19, Blind Hex 11)")
    p.add_argument("--variant", action="append", default=[], help="a variant; repeat for several")
    p.add_argument("--first", choices=("x", "o"), default=None, help="Blind Hex: who won the cut (default x)")
    p.add_argument(
        "--record", metavar="FILE",
        help="read actions from FILE, one per line; its '# size:', '# variants:', '# first:' headers "
        "fill in options not given here",
    )
    p.add_argument("actions", nargs="*", metavar="ACTION")
    return p


def _read_record(path: str) -> tuple[dict[str, str], list[str]]:
    """The headers and action lines of a record file (raises OptionsError, OSError).

    Read as ``utf-8-sig`` because editors on Windows save a byte-order mark,
    which would otherwise stick to the first line and spoil its header or action.
    """
    try:
        with open(path, encoding="utf-8-sig") as fh:
            text = fh.read()
    except UnicodeDecodeError as exc:
        raise OptionsError(
            f"the record file {path} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at position {exc.start})"
        ) from None
    return Record.read_lines(text)


def _conflict(path: str, recorded: str, option: str, given: str) -> OptionsError:
    """The error for a record header (``recorded``) that disagrees with a command-line option."""
    return OptionsError(
        f"the record file {path} says {recorded} but the command line says {given}; "
        f"leave out {option} or make them agree"
    )


def _merge_headers(args: argparse.Namespace, headers: dict[str, str]) -> tuple[int | None, list[str], str | None]:
    """Size, variants and first from the command line, filled in from record headers.

    A header fills in an option the command line left out; one that disagrees with an
    option given raises OptionsError. A file with a ``# game:`` header is a whole record
    (as :meth:`Record.to_text` writes it), so there a missing ``# variants:`` line means
    "no variants" rather than "not said".
    """
    path = args.record
    game = headers.get("game")
    if game is not None and game.lower() != args.game:
        hint = f"; run it as python -m engine {game.lower()}" if game.lower() in GAME_NAMES else ""
        raise OptionsError(f"the record file {path} is a game of '{shorten(game)}', not {args.game}{hint}")
    size = args.size
    if "size" in headers:
        try:
            recorded = int(headers["size"])
        except ValueError:
            raise OptionsError(
                f"the record file {path} says '# size: {shorten(headers['size'])}'; the size is a number, such as 11"
            ) from None
        if size is None:
            size = recorded
        elif size != recorded:
            raise _conflict(path, f"'# size: {recorded}'", "--size", f"--size {size}")
    variants = list(args.variant)
    recorded_variants = headers.get("variants", "" if game is not None else None)
    if recorded_variants is not None:
        named = recorded_variants.split()
        if not variants:
            variants = named
        elif sorted(set(variants)) != sorted(set(named)):
            said = f"'# variants: {shorten(' '.join(named))}'" if named else "no variants"
            raise _conflict(path, said, "--variant", " ".join(f"--variant {v}" for v in variants))
    first = args.first
    if "first" in headers:
        if first is None:
            first = headers["first"]
        elif first != headers["first"]:
            raise _conflict(path, f"'# first: {shorten(headers['first'])}'", "--first", f"--first {first}")
    return size, variants, first


def load(args: argparse.Namespace):
    """Options and action list from parsed arguments (raises OptionsError, OSError).

    The actions are the command line's, then the record file's; the options are the
    command line's, filled in from the record file's headers (see :func:`_merge_headers`).
    """
    size, variants, first = args.size, list(args.variant), args.first
    recorded: list[str] = []
    if args.record:
        headers, recorded = _read_record(args.record)
        size, variants, first = _merge_headers(args, headers)
    options = make_options(args.game, size, variants, first)
    return options, list(args.actions) + recorded


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
    p.add_argument(
        "--review", action="store_true",
        help="print the game's review as JSON lines: one object per turn, then the players' summary",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit status."""
    parser = build_parser(JsonArgumentParser)
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
        index, error = failure
        print(json.dumps({"error": str(error), "move": index}))
        return 2
    if args.review:
        return _print_review(options, actions, args.iterations, args.seed)
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


def _print_review(options, actions: list[str], iterations: int | None, seed: int | None) -> int:
    """Print the review of a game already replayed without error (see the module docstring)."""
    from .ai.review import review

    if iterations is not None and iterations < 1:
        print(json.dumps({"error": "--iterations must be at least 1", "move": None}))
        return 2
    result = review(options, actions, iterations=iterations, seed=0 if seed is None else seed)
    for turn in result.turns:
        print(json.dumps(turn.to_json()))
    summary = {colour: s.to_json() for colour, s in result.players.items()}
    print(json.dumps({"summary": summary, "iterations": result.iterations}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
