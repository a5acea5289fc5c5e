"""Running the bot on a server: no secret in its log or on a command line, one line for a bad
DATABASE_URL, database files only their owner can read."""

from __future__ import annotations

import asyncio
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.test_postgres import ROOT, run_bot_command
from tests.bot.test_startup import env_without_token, run
from tests.pgcluster import PgCluster

PASSWORD = "s3cret-pw"


async def test_a_password_in_the_urls_query_is_not_in_the_start_up_log(fake_discord, tmp_path):
    env = fake_discord.launch_env(env_without_token(tmp_path))
    env["DISCORD_TOKEN"] = fake_discord.token
    # No server listens in tmp_path: the bot logs its settings, then can't open the database.
    env["DATABASE_URL"] = f"postgresql://bot@/hexcord?host={tmp_path}&password={PASSWORD}"
    code, out, err = await run(fake_discord.launch_command("bot"), env, tmp_path)
    assert code == 2
    assert "starting with Settings(" in err
    assert PASSWORD not in err + out


def spying_pg_dump(tmp_path: Path, real: Path) -> tuple[Path, Path]:
    """A pg_dump that writes its command line and its PGPASSWORD to files, then runs the real one."""
    argv, password = tmp_path / "argv", tmp_path / "pgpassword"
    script = tmp_path / "pg_dump"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$0" "$@" > {shlex.quote(str(argv))}\n'
                      f'printf "%s" "$PGPASSWORD" > {shlex.quote(str(password))}\n'
                      f'exec {shlex.quote(str(real))} "$@"\n')
    script.chmod(0o700)
    return script, argv


@pytest.mark.parametrize("where", ["user info", "query"])
def test_backup_gives_pg_dump_neither_the_url_nor_the_password_on_its_command_line(pg_url, pg_cluster: PgCluster,
                                                                                  tmp_path, where):
    database, host = pg_url.split("?host=")[0].rsplit("/", 1)[1], pg_url.split("?host=")[1]
    url = (f"postgresql://postgres:{PASSWORD}@/{database}?host={host}" if where == "user info"
           else f"postgresql://postgres@/{database}?host={host}&password={PASSWORD}")
    run_bot_command("migrate", url)
    program, argv = spying_pg_dump(tmp_path, pg_cluster.bin / "pg_dump")
    done = run_bot_command("backup", str(tmp_path / "bot.dump"), env={"DATABASE_URL": url, "PG_DUMP": str(program)})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "bot.dump").stat().st_size > 0
    command_line = argv.read_text()
    assert PASSWORD not in command_line and "postgresql://" not in command_line and database not in command_line
    assert (tmp_path / "pgpassword").read_text() == PASSWORD  # it went through the environment


MALFORMED_PORTS = ["postgresql://u:p@host:notaport/db", "postgresql://u:p@127.0.0.1:99999/db",
                   "postgresql://u@/db?host=/tmp&port=x"]


def one_error_line(code: int, err: str) -> bool:
    """Exit status 2 and a single ``error:`` line about the port, no traceback."""
    return code == 2 and err.startswith("error: ") and err.count("\n") == 1 and "port" in err and "Traceback" not in err


@pytest.mark.parametrize("url", MALFORMED_PORTS)
async def test_a_malformed_port_in_database_url_stops_the_bot_with_one_line(fake_discord, tmp_path, url):
    env = fake_discord.launch_env(env_without_token(tmp_path))
    env["DISCORD_TOKEN"] = fake_discord.token
    env["DATABASE_URL"] = url
    code, out, err = await run(fake_discord.launch_command("bot"), env, tmp_path)
    assert one_error_line(code, err), err


@pytest.mark.parametrize("url", MALFORMED_PORTS)
@pytest.mark.parametrize("command", ["migrate", "backup"])
def test_a_malformed_port_in_database_url_stops_a_maintenance_command_with_one_line(tmp_path, url, command):
    args = ["backup", str(tmp_path / "copy.dump")] if command == "backup" else [command]
    done = run_bot_command(*args, env={"DATABASE_URL": url})
    assert one_error_line(done.returncode, done.stderr), done.stderr


def modes(*paths: Path) -> dict[str, str]:
    """Each path's permission bits, in octal, by name."""
    return {path.name: oct(path.stat().st_mode & 0o777) for path in paths}


async def test_a_new_sqlite_database_its_folders_and_wal_files_are_private_to_their_owner(fake_discord, tmp_path):
    database = tmp_path / "var" / "hexcord" / "bot.sqlite3"
    env = fake_discord.launch_env(env_without_token(tmp_path))
    env["DISCORD_TOKEN"] = fake_discord.token
    env["DATABASE_PATH"] = str(database)
    # umask 022, the usual one, would make every new file readable by every user
    proc = await asyncio.create_subprocess_exec(*fake_discord.launch_command("bot"), env=env, cwd=tmp_path,
                                                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
                                                umask=0o022)
    try:
        await fake_discord.wait_until_connected(timeout=30)
        w = fake_discord.world
        await fake_discord.slash(w.alice, w.channel, "rules", game="hex")  # the store is open and written
        wal, shm = database.with_name("bot.sqlite3-wal"), database.with_name("bot.sqlite3-shm")
        seen = modes(database.parent.parent, database.parent, database, wal, shm)
    finally:
        proc.terminate()
        await asyncio.wait_for(proc.wait(), 30)
    assert seen == {"var": "0o700", "hexcord": "0o700", "bot.sqlite3": "0o600", "bot.sqlite3-wal": "0o600",
                    "bot.sqlite3-shm": "0o600"}


def test_a_sqlite_backup_and_the_folders_it_makes_are_private_to_their_owner(tmp_path):
    source = tmp_path / "bot.sqlite3"
    assert run_bot_command("migrate", f"sqlite:///{source}").returncode == 0
    target = tmp_path / "backups" / "nightly" / "bot.sqlite3"
    done = subprocess.run([sys.executable, "-m", "bot", "backup", str(target)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, umask=0o022, env=os.environ | {"DATABASE_URL": f"sqlite:///{source}"})
    assert done.returncode == 0, done.stderr
    assert modes(target.parent.parent, target.parent, target) == {"backups": "0o700", "nightly": "0o700",
                                                                  "bot.sqlite3": "0o600"}


def test_a_postgres_backup_is_private_to_its_owner(pg_url, tmp_path):
    run_bot_command("migrate", pg_url)
    target = tmp_path / "bot.dump"
    done = subprocess.run([sys.executable, "-m", "bot", "backup", str(target)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, umask=0o022, env=os.environ | {"DATABASE_URL": pg_url})
    assert done.returncode == 0, done.stderr
    assert modes(target) == {"bot.dump": "0o600"}
