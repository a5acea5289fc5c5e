"""Starting ``python -m bot``: configuration errors, rejected tokens, a real run in a subprocess."""

from __future__ import annotations

import asyncio
import os
import sys

import pytest

from bot.config import ConfigError, load_settings
from bot.logs import RedactFilter


def env_without_token(tmp_path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID")}
    env["DATABASE_PATH"] = str(tmp_path / "bot.sqlite3")
    return env


async def run(argv: list[str], env: dict[str, str], cwd, timeout: float = 30.0) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        *argv, env=env, cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    return proc.returncode, out.decode(), err.decode()


async def test_a_missing_token_prints_one_line_and_exits_2(tmp_path):
    code, out, err = await run([sys.executable, "-m", "bot"], env_without_token(tmp_path), tmp_path)
    assert code == 2
    assert err.strip().count("\n") == 0 and "DISCORD_TOKEN" in err
    assert "Traceback" not in err + out


async def test_a_rejected_token_prints_one_line_and_exits_2(fake_discord, tmp_path):
    env = fake_discord.launch_env(env_without_token(tmp_path))
    env["DISCORD_TOKEN"] = "not-the-right-token"
    code, out, err = await run(fake_discord.launch_command("bot"), env, tmp_path)
    assert code == 2
    assert "rejected the token" in err
    assert "Traceback" not in err + out
    assert "not-the-right-token" not in err + out


async def test_the_bot_runs_as_a_process_and_answers_a_command(fake_discord, tmp_path):
    env = fake_discord.launch_env(env_without_token(tmp_path))
    env["DISCORD_TOKEN"] = fake_discord.token
    proc = await asyncio.create_subprocess_exec(
        *fake_discord.launch_command("bot"), env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake_discord.wait_until_connected(timeout=30)
        await fake_discord.wait_for_request(lambda r: "/commands" in r.path and r.method == "PUT", timeout=30)
        w = fake_discord.world
        r = await fake_discord.slash(w.alice, w.channel, "rules", game="hex")
    finally:
        proc.terminate()
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert "How to play Hex" in r.embed["title"]
    assert (tmp_path / "bot.sqlite3").is_file()
    assert fake_discord.token not in err.decode()


def test_settings_come_from_a_dotenv_file_without_overriding_the_environment(tmp_path, monkeypatch):
    for key in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL"):
        # set, then delete: monkeypatch then restores the key's absence too, after
        # load_dotenv has written the file's values into this process's environment
        monkeypatch.setenv(key, "")
        monkeypatch.delenv(key)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nDEV_GUILD_ID=123\nLOG_LEVEL=debug\n")
    monkeypatch.setenv("DATABASE_PATH", "elsewhere.sqlite3")
    s = load_settings(tmp_path / ".env")
    assert (s.token, s.dev_guild_id, s.log_level, s.database_url) == ("from-file", 123, "DEBUG", "elsewhere.sqlite3")


def test_the_database_has_a_default(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    assert load_settings(None).database_url == "sqlite:///data/bot.sqlite3"


def test_database_url_wins_over_database_path(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DATABASE_PATH", "old.sqlite3")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:pw@localhost/hexcord")
    s = load_settings(None)
    assert s.database_dialect == "postgres"
    assert "pw" not in repr(s)


def test_an_unknown_database_scheme_is_a_config_error(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DATABASE_URL", "mysql://localhost/hexcord")
    with pytest.raises(ConfigError, match="sqlite:///PATH or postgresql://"):
        load_settings(None)


def test_shard_ids_outside_the_shard_count_are_a_config_error(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "0-2")
    with pytest.raises(ConfigError, match="SHARD_IDS"):
        load_settings(None)


def test_a_malformed_dev_guild_id_is_a_config_error(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DEV_GUILD_ID", "my server")
    with pytest.raises(ConfigError, match="DEV_GUILD_ID"):
        load_settings(None)


def test_settings_never_show_the_token():
    from bot.config import Settings

    assert "sekrit" not in repr(Settings(token="sekrit"))


def test_log_records_have_the_token_scrubbed():
    import logging

    record = logging.LogRecord("x", logging.INFO, __file__, 1, "connecting with %s", ("sekrit-token",), None)
    RedactFilter("sekrit-token").filter(record)
    assert "sekrit-token" not in record.getMessage()


async def test_a_dev_guild_the_bot_is_not_in_prints_one_line_and_exits_2(fake_discord, tmp_path):
    env = fake_discord.launch_env(env_without_token(tmp_path))
    env["DISCORD_TOKEN"] = fake_discord.token
    env["DEV_GUILD_ID"] = "123456789012345678"
    code, out, err = await run(fake_discord.launch_command("bot"), env, tmp_path)
    assert code == 2
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "DEV_GUILD_ID" in errors[0]
    assert "Traceback" not in err + out


async def test_an_unusable_database_path_prints_one_line_and_exits_2(fake_discord, tmp_path):
    env = fake_discord.launch_env(env_without_token(tmp_path))
    env["DISCORD_TOKEN"] = fake_discord.token
    env["DATABASE_PATH"] = str(tmp_path)  # a folder, not a file
    code, out, err = await run(fake_discord.launch_command("bot"), env, tmp_path)
    assert code == 2
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "DATABASE_PATH" in errors[0]
    assert "Traceback" not in err + out
