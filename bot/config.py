"""Settings from the environment or a ``.env`` file (python-dotenv)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

DEFAULT_DATABASE_PATH = "data/bot.sqlite3"


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one clear line for the operator."""


@dataclass(frozen=True)
class Settings:
    """What the bot needs to run. ``token`` is never printed (see ``__repr__``)."""

    token: str
    database_path: str = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: str = "INFO"

    def __repr__(self) -> str:
        return (f"Settings(token=<hidden>, database_path={self.database_path!r}, "
                f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r})")


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read settings; values already in the environment win over the ``.env`` file."""
    if env_file is not None and Path(env_file).is_file():
        load_dotenv(env_file, override=False)
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError("DISCORD_TOKEN is not set: put your bot token in .env (see .env.example) or the environment.")
    guild = os.environ.get("DEV_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise ConfigError("DEV_GUILD_ID must be a server id (digits only), or left empty.")
    level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {level!r}.")
    return Settings(
        token=token,
        database_path=os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH,
        dev_guild_id=int(guild) if guild else None,
        log_level=level,
    )
