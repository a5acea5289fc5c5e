"""What a ``DATABASE_URL`` names: which backend, and the file path or server URL it opens."""

from __future__ import annotations

DEFAULT_DATABASE_URL = "sqlite:///data/bot.sqlite3"


class DatabaseURLError(ValueError):
    """A DATABASE_URL the bot can't use; the message says what would be right."""


def database_target(url: str) -> tuple[str, str]:
    """("sqlite", file path) or ("postgres", postgresql URL) for a DATABASE_URL or a bare file path.

    >>> database_target("sqlite:///data/bot.sqlite3")
    ('sqlite', 'data/bot.sqlite3')
    >>> database_target("sqlite:////var/lib/hexcord/bot.sqlite3")
    ('sqlite', '/var/lib/hexcord/bot.sqlite3')
    >>> database_target("postgres://bot@localhost/hexcord")
    ('postgres', 'postgresql://bot@localhost/hexcord')
    >>> database_target("data/bot.sqlite3")
    ('sqlite', 'data/bot.sqlite3')
    """
    if url.startswith(("postgresql://", "postgres://")):
        return "postgres", "postgresql://" + url.split("://", 1)[1]
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        if not path:
            raise DatabaseURLError("DATABASE_URL sqlite:/// needs a file path, e.g. sqlite:///data/bot.sqlite3")
        return "sqlite", path
    if "://" in url or url.startswith("sqlite:"):
        raise DatabaseURLError(
            f"DATABASE_URL {url.split(':', 1)[0]}: is not supported: use sqlite:///PATH or postgresql://USER@HOST/DB"
        )
    return "sqlite", url
