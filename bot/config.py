"""Settings from the environment or a ``.env`` file (python-dotenv)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from .shards import ShardPlan, parse_shards
from .store.urls import DEFAULT_DATABASE_URL, DatabaseURLError, database_password, database_target, redacted_url


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one clear line for the operator."""


@dataclass(frozen=True)
class Settings:
    """What the bot needs to run. ``token`` is never printed (see ``__repr__``).

    ``database_url``: ``sqlite:///PATH`` (or a bare file path) or ``postgresql://…``.
    ``shards``: which shards this process runs (None: one process, discord.py decides).
    """

    token: str
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    shards: ShardPlan | None = None

    def __repr__(self) -> str:
        return (f"Settings(token=<hidden>, database={self.database_redacted()!r}, "
                f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, shards={self.shards!r})")

    @property
    def database_dialect(self) -> str:
        """``sqlite`` or ``postgres``."""
        return database_target(self.database_url)[0]

    def database_redacted(self) -> str:
        """The database URL without its secrets (for logs and messages)."""
        return redacted_url(database_target(self.database_url)[1])

    def secrets(self) -> tuple[str, ...]:
        """What no log line may show: the token, the database password.

        A password of fewer than 4 characters is left out: scrubbing it from every line would
        garble the log (it is kept out of the lines the bot writes about its settings anyway)."""
        password = database_password(self.database_url)
        return (self.token, password) if len(password) >= 4 else (self.token,)


def _database_url() -> str:
    url = os.environ.get("DATABASE_URL", "").strip()
    if url:
        return url
    # DATABASE_PATH, the older setting, names a SQLite file.
    path = os.environ.get("DATABASE_PATH", "").strip()
    return path or DEFAULT_DATABASE_URL


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
    url = _database_url()
    try:
        database_target(url)
        shards = parse_shards(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", ""))
    except (DatabaseURLError, ValueError) as exc:
        raise ConfigError(str(exc)) from None
    return Settings(token=token, database_url=url, dev_guild_id=int(guild) if guild else None, log_level=level,
                    shards=shards)
