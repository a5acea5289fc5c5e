"""Starting the bot and the backup command, with one-line errors for the operator."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import sys
from pathlib import Path

import discord

from .config import ConfigError, Settings, load_settings
from .logs import setup_logging

log = logging.getLogger("bot")


def fail(message: str) -> int:
    """Print one clear line to stderr and return exit status 2."""
    print(f"error: {message}", file=sys.stderr)
    return 2


async def _run(settings: Settings) -> None:
    from .app import HexBot

    async with HexBot(settings) as bot:
        await bot.start(settings.token)


def run_bot() -> int:
    """Run until stopped; 2 for a missing or rejected token."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        return fail(str(exc))
    setup_logging(settings.log_level, settings.token)
    log.info("starting with %r", settings)
    try:
        # Fail here, in one line, rather than inside the running client.
        Path(settings.database_path).parent.mkdir(parents=True, exist_ok=True)
        sqlite3.connect(settings.database_path).close()
    except (sqlite3.Error, OSError) as exc:
        return fail(f"can't open the database at {settings.database_path} ({exc}); check DATABASE_PATH.")
    try:
        asyncio.run(_run(settings))
    except discord.LoginFailure:
        return fail("Discord rejected the token in DISCORD_TOKEN. Copy it again from the Developer Portal (Bot → Reset Token).")
    except discord.PrivilegedIntentsRequired:
        return fail("Discord refused the gateway intents; this bot needs none of the privileged ones — check the application.")
    except discord.Forbidden as exc:
        where = f"the server in DEV_GUILD_ID ({settings.dev_guild_id})" if settings.dev_guild_id else "Discord"
        return fail(f"{where} refused the bot at start-up ({exc.status}: {exc.text or 'forbidden'}). "
                    "Is the bot invited there with the applications.commands scope?")
    except discord.HTTPException as exc:
        return fail(f"Discord answered {exc.status} at start-up ({exc.text or 'no details'}); try again shortly.")
    except (sqlite3.Error, OSError) as exc:
        return fail(f"can't open the database at {settings.database_path} ({exc}); check DATABASE_PATH.")
    except KeyboardInterrupt:
        pass
    return 0


def run_backup(path: str) -> int:
    """Copy the database at DATABASE_PATH to ``path`` with SQLite's online backup API."""
    import os

    from dotenv import load_dotenv

    load_dotenv(".env", override=False)
    source = os.environ.get("DATABASE_PATH", "").strip() or "data/bot.sqlite3"
    if not Path(source).is_file():
        return fail(f"no database at {source} (set DATABASE_PATH)")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dest = sqlite3.connect(path)
    try:
        src.backup(dest)
    finally:
        dest.close()
        src.close()
    print(f"backed up {source} to {path}")
    return 0
