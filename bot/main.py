"""Starting the bot and its maintenance commands, with one-line errors for the operator."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import discord

from .config import ConfigError, Settings, load_settings
from .logs import setup_logging
from .store.files import private_file, private_folder
from .store.urls import DatabaseURLError, database_target, libpq_environment

log = logging.getLogger("bot")

#: errors that mean "the database can't be reached or opened", on either backend
DATABASE_ERRORS = (sqlite3.Error, OSError, asyncpg.PostgresError, asyncpg.InterfaceError)


def fail(message: str) -> int:
    """Print one clear line to stderr and return exit status 2."""
    print(f"error: {message}", file=sys.stderr)
    return 2


def _database_failure(settings: Settings, exc: BaseException) -> int:
    setting = "DATABASE_URL" if os.environ.get("DATABASE_URL") else "DATABASE_PATH"
    return fail(f"can't open the database at {settings.database_redacted()} ({exc}); check {setting}.")


async def _run(settings: Settings) -> None:
    from .app import make_bot

    async with make_bot(settings) as bot:
        await bot.start(settings.token)


async def _sync(settings: Settings) -> None:
    from .app import make_bot

    async with make_bot(settings, sync_only=True) as bot:
        await bot.login(settings.token)  # runs setup_hook, which syncs the command tree


def run_sync() -> int:
    """Sync the command tree with Discord now, once, without connecting to the gateway."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        return fail(str(exc))
    setup_logging(settings.log_level, *settings.secrets())
    try:
        asyncio.run(_sync(settings))
    except discord.LoginFailure:
        return fail("Discord rejected the token in DISCORD_TOKEN. Copy it again from the Developer Portal (Bot → Reset Token).")
    except discord.HTTPException as exc:
        return fail(f"Discord answered {exc.status} to the command sync ({exc.text or 'no details'}); try again shortly.")
    except DATABASE_ERRORS as exc:
        return _database_failure(settings, exc)
    print("commands synced")
    return 0


def run_bot() -> int:
    """Run until stopped; 2 for a missing or rejected token or an unusable database."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        return fail(str(exc))
    setup_logging(settings.log_level, *settings.secrets())
    log.info("starting with %r", settings)
    if settings.database_dialect == "sqlite":
        path = database_target(settings.database_url)[1]
        try:
            # Fail here, in one line, rather than inside the running client.
            private_file(path)
            sqlite3.connect(path).close()
        except (sqlite3.Error, OSError) as exc:
            return _database_failure(settings, exc)
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
    except DATABASE_ERRORS as exc:
        return _database_failure(settings, exc)
    except KeyboardInterrupt:
        pass
    return 0


def _configured_database() -> str:
    """DATABASE_URL (or DATABASE_PATH) from the environment or .env, without needing a token."""
    from dotenv import load_dotenv

    load_dotenv(".env", override=False)
    from .config import _database_url

    return _database_url()


def run_migrate(url: str | None = None) -> int:
    """Bring the database's schema up to date (what start-up does too) and print its version."""
    from .store import Store

    url = url or _configured_database()

    async def go() -> int:
        store = await Store.open(url)
        try:
            return await store.migrate()
        finally:
            await store.close()

    try:
        database_target(url)
        version = asyncio.run(go())
    except DatabaseURLError as exc:
        return fail(str(exc))
    except DATABASE_ERRORS as exc:
        return fail(f"can't migrate the database ({exc}); check DATABASE_URL.")
    print(f"schema at version {version}")
    return 0


def run_backup(path: str) -> int:
    """Copy the configured database to ``path``: SQLite's online backup API, or pg_dump (custom format)."""
    url = _configured_database()
    try:
        dialect, source = database_target(url)
    except DatabaseURLError as exc:
        return fail(str(exc))
    try:
        if dialect == "postgres":
            private_folder(Path(path).parent)
            return _pg_dump(source, path)
        if not Path(source).is_file():
            return fail(f"no database at {source} (set DATABASE_URL or DATABASE_PATH)")
        _sqlite_backup(source, path)
    except (sqlite3.Error, OSError) as exc:
        return fail(f"the backup to {path} failed ({exc})")
    print(f"backed up {source} to {path}")
    return 0


def _sqlite_backup(source: str, path: str) -> None:
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        private_file(path)
        dest = sqlite3.connect(path)
        try:
            src.backup(dest)
        finally:
            dest.close()
    finally:
        src.close()


def bundled_postgres_bin() -> Path | None:
    """The PostgreSQL programs shipped in the ``pgserver`` wheel (a dev extra), if installed.

    Found without importing it (its import has side effects)."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(list(spec.submodule_search_locations)[0]) / "pginstall" / "bin"
    return folder if folder.is_dir() else None


def pg_dump_program() -> str | None:
    """pg_dump to use: PG_DUMP from the environment, the pgserver wheel's (same major version as
    the test server), else the one on PATH."""
    if os.environ.get("PG_DUMP"):
        return os.environ["PG_DUMP"]
    bundled = bundled_postgres_bin()
    if bundled is not None and (bundled / "pg_dump").is_file():
        return str(bundled / "pg_dump")
    return shutil.which("pg_dump")


def _pg_dump(url: str, path: str) -> int:
    program = pg_dump_program()
    if program is None:
        return fail("pg_dump is not installed: install PostgreSQL's client tools (or set PG_DUMP).")
    try:
        # The connection goes in the environment: a command line (and its password) is
        # visible to every user in ps.
        env = os.environ | libpq_environment(url)
    except DatabaseURLError as exc:
        return fail(str(exc))
    # Custom format: compressed, one consistent snapshot, restored with pg_restore.
    # umask: the dump holds every row, so only its owner may read it (as the SQLite backups).
    done = subprocess.run([program, "--format=custom", f"--file={path}"], env=env, capture_output=True, text=True,
                          umask=0o077)
    if done.returncode != 0:
        return fail(f"pg_dump failed: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}")
    print(f"backed up the PostgreSQL database to {path} (restore with pg_restore --clean --dbname=URL {path})")
    return 0


def run_copy_db(source: str, target: str) -> int:
    """Copy every row from one database to another (empty) one, verify it, print the counts."""
    from .copydb import CopyError, copy_database

    try:
        database_target(source)
        database_target(target)
        report = asyncio.run(copy_database(source, target))
    except (DatabaseURLError, CopyError) as exc:
        return fail(str(exc))
    except DATABASE_ERRORS as exc:
        return fail(f"can't copy the database ({exc}); check both URLs.")
    print(report.summary())
    print("copied and verified; point DATABASE_URL at the new database and start the bot")
    return 0
