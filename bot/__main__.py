"""``python -m bot`` runs the bot; its subcommands keep the database (see ``--help``)."""

from __future__ import annotations

import argparse
import sys

from .main import run_backup, run_bot, run_copy_db, run_migrate, run_sync


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="The hex-games Discord bot.")
    sub = parser.add_subparsers(dest="command")
    backup = sub.add_parser("backup", help="copy the database consistently, even while the bot runs")
    backup.add_argument("path", help="where to write the copy")
    migrate = sub.add_parser("migrate", help="bring the database schema up to date (start-up does it too)")
    migrate.add_argument("url", nargs="?", help="the database (default: DATABASE_URL)")
    sub.add_parser("sync", help="sync the slash commands with Discord now (the shard-0 process does it at start-up)")
    copy = sub.add_parser("copy-db", help="copy every row to another, empty database (e.g. SQLite to PostgreSQL)")
    copy.add_argument("source", help="the database to copy, e.g. sqlite:///data/bot.sqlite3")
    copy.add_argument("target", help="the empty database to fill, e.g. postgresql://hexcord@localhost/hexcord")
    args = parser.parse_args(argv)
    if args.command == "backup":
        return run_backup(args.path)
    if args.command == "migrate":
        return run_migrate(args.url)
    if args.command == "copy-db":
        return run_copy_db(args.source, args.target)
    if args.command == "sync":
        return run_sync()
    return run_bot()


if __name__ == "__main__":
    sys.exit(main())
