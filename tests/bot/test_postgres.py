"""PostgreSQL as the bot's database: migrations under a lock, the commands that keep it, copy-db."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from bot.store import Store, TimerRow
from bot.store.postgres import postgres_migrations
from bot.timing.timers import Timers
from tests.bot.harness import Harness, ManualClock
from tests.dbquery import query

ROOT = Path(__file__).resolve().parents[2]


def run_bot_command(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``python -m bot ARGS`` in a clean environment (no token needed for maintenance commands)."""
    base = {k: v for k, v in os.environ.items()
            if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS")}
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, env=base | (env or {}),
                          capture_output=True, text=True, timeout=120)


async def test_processes_starting_together_apply_each_migration_once(pg_url):
    stores = await asyncio.gather(*(Store.open(pg_url) for _ in range(6)))
    try:
        versions = {await s.migrate() for s in stores}
    finally:
        await asyncio.gather(*(s.close() for s in stores))
    newest = postgres_migrations()[-1][0]
    assert versions == {newest}
    counts = query(pg_url, "SELECT version, COUNT(*) FROM schema_migrations GROUP BY version ORDER BY version")
    assert counts == [(version, 1) for version, _, _ in postgres_migrations()]


async def test_booleans_are_booleans_and_ids_are_identities(pg_url):
    store = await Store.open(pg_url)
    await store.close()
    types = dict(query(pg_url, "SELECT column_name, data_type FROM information_schema.columns"
                               " WHERE table_name = 'games'"))
    assert types["rated"] == "boolean"
    assert types["guild_id"] == types["seat0_id"] == types["id"] == "bigint"
    identity = query(pg_url, "SELECT is_identity FROM information_schema.columns"
                             " WHERE table_name = 'timers' AND column_name = 'id'")
    assert identity == [("YES",)]


def test_the_migrate_command_brings_a_database_up_to_date(pg_url):
    done = run_bot_command("migrate", pg_url)
    assert done.returncode == 0, done.stderr
    assert f"schema at version {postgres_migrations()[-1][0]}" in done.stdout
    assert query(pg_url, "SELECT COUNT(*) FROM games") == [(0,)]


def test_the_migrate_command_reads_database_url_from_the_environment(tmp_path):
    done = run_bot_command("migrate", env={"DATABASE_URL": f"sqlite:///{tmp_path / 'new.sqlite3'}"})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "new.sqlite3").is_file()


def test_an_unreachable_database_is_one_line_for_the_operator(tmp_path):
    done = run_bot_command("migrate", f"postgresql://nobody@/hexcord?host={tmp_path}")
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr


async def test_backup_of_a_postgres_database_is_a_pg_dump_that_restores(pg_url, pg_cluster, tmp_path):
    store = await Store.open(pg_url)
    await store.set_meta("k", "kept")
    await store.close()
    target = tmp_path / "bot.dump"
    done = run_bot_command("backup", str(target), env={"DATABASE_URL": pg_url})
    assert done.returncode == 0, done.stderr
    restored = pg_cluster.new_database()
    subprocess.run([str(pg_cluster.bin / "pg_restore"), "--no-owner", f"--dbname={restored.split('?')[0]}",
                    "-h", str(pg_cluster.root), "-U", "postgres", str(target)], check=True, capture_output=True)
    assert query(restored, "SELECT value FROM meta WHERE key = 'k'") == [("kept",)]


async def test_copy_db_moves_a_sqlite_server_to_postgres_and_the_games_go_on(fake_discord, clock, tmp_path, pg_url):
    sqlite_url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    h = Harness(fake_discord, sqlite_url, clock)
    w = h.world
    async with h.running():
        await h.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        for user, move in ((w.alice, "c3"), (w.bob, "b2")):
            assert not (await h.move(user, move)).ephemeral
        assert not (await h.slash(w.alice, "resign")).ephemeral
        await h.start_game(w.alice, w.carol, "hex", size=5, seat="first", clock="1d")
        assert not (await h.move(w.alice, "c3")).ephemeral
    counts = {t: query(sqlite_url, f"SELECT COUNT(*) FROM {t}")[0][0] for t in ("games", "actions", "ratings", "timers")}
    assert counts["games"] == 2 and counts["ratings"] == 2 and counts["timers"] > 0

    done = run_bot_command("copy-db", sqlite_url, pg_url)
    assert done.returncode == 0, done.stderr
    assert "replayed" in done.stdout and "2 game records" in done.stdout
    for table, n in counts.items():
        assert query(pg_url, f"SELECT COUNT(*) FROM {table}") == [(n,)]
    assert query(pg_url, "SELECT user_id, rating FROM ratings ORDER BY user_id") == \
        query(sqlite_url, "SELECT user_id, rating FROM ratings ORDER BY user_id")

    h2 = Harness(fake_discord, pg_url, clock)
    async with h2.running():
        r = await h2.move(w.carol, "b2")  # the game in progress continues on PostgreSQL
        assert not r.ephemeral, r.content
        assert not (await h2.slash(w.alice, "resign")).ephemeral
        await h2.start_game(w.bob, w.carol, "hex", size=5)
    ids = [i for (i,) in query(pg_url, "SELECT id FROM games ORDER BY id")]
    assert len(ids) == len(set(ids)) == 3  # the new game got a fresh id, past the copied ones


async def test_copy_db_never_hands_out_a_timer_id_the_source_had_already_used(tmp_path, pg_url):
    sqlite_url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    source = await Store.open(sqlite_url)
    async with source.transaction():
        kept = await source.add_timer(10.0, "reminder", 1)
        top = await source.add_timer(10.0, "reminder", 2)
        await source.delete_timer(top)  # its id named nonces that Discord may still remember
    await source.close()
    done = run_bot_command("copy-db", sqlite_url, pg_url)
    assert done.returncode == 0, done.stderr
    target = await Store.open(pg_url)
    try:
        async with target.transaction():
            new = await target.add_timer(20.0, "reminder", 3)
    finally:
        await target.close()
    assert kept < top < new


async def test_copy_db_refuses_a_target_that_has_data(tmp_path, pg_url):
    sqlite_url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    assert run_bot_command("migrate", sqlite_url).returncode == 0
    store = await Store.open(pg_url)
    await store.set_meta("already", "here")
    await store.close()
    done = run_bot_command("copy-db", sqlite_url, pg_url)
    assert done.returncode == 2
    assert "empty database" in done.stderr and "Traceback" not in done.stderr
    assert query(pg_url, "SELECT key FROM meta") == [("already",)]


async def test_a_timer_added_by_another_process_wakes_this_ones_driver_at_once(pg_url):
    clock = ManualClock(1000.0)
    mine, other = await Store.open(pg_url), await Store.open(pg_url)
    fired: list[int] = []
    timers = Timers(mine, clock, shared=True)

    async def handler(row: TimerRow) -> None:
        fired.append(row.ref_id)

    timers.on("ping", handler)
    timers.start()
    try:
        await asyncio.sleep(0.3)  # the driver sleeps: nothing is due, and its clock does not move
        async with other.transaction():
            await other.add_timer(1000.0, "ping", 7)
        for _ in range(100):
            if fired:
                break
            await asyncio.sleep(0.05)
        assert fired == [7]
    finally:
        await timers.stop()
        await mine.close()
        await other.close()


async def test_the_sync_command_syncs_the_slash_commands_once_and_exits(fake_discord, pg_url, tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID")}
    env.update(DISCORD_TOKEN=fake_discord.token, DATABASE_URL=pg_url)
    before = len(fake_discord.command_syncs)
    proc = await asyncio.create_subprocess_exec(
        *fake_discord.launch_command("bot", "sync"), env=fake_discord.launch_env(env), cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    assert "commands synced" in out.decode()
    assert len(fake_discord.command_syncs) == before + 1
    assert fake_discord.gateway.identifies == 0  # no gateway connection: a sync only
    assert "move" in fake_discord.command_syncs[-1].names
