"""``python -m bot`` runs the bot; ``python -m bot backup PATH`` copies its database."""

from __future__ import annotations

import argparse
import asyncio
import sys

from .main import run_bot, run_backup


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="The hex-games Discord bot.")
    sub = parser.add_subparsers(dest="command")
    backup = sub.add_parser("backup", help="copy the database consistently, even while the bot runs")
    backup.add_argument("path", help="where to write the copy")
    args = parser.parse_args(argv)
    if args.command == "backup":
        return run_backup(args.path)
    return run_bot()


if __name__ == "__main__":
    sys.exit(main())
