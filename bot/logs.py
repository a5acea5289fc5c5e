"""Logging set-up: one line per event, and the token scrubbed from every record."""

from __future__ import annotations

import logging
import sys


class RedactFilter(logging.Filter):
    """Replaces secrets (the bot token) in log messages and tracebacks with ``[redacted]``."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        """Scrub the record in place; always keep it (a filter that raises would break the caller)."""
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            # A log call whose arguments don't fit its format: keep both, readable, rather
            # than raise inside the code that logged.
            message = f"{record.msg} {record.args!r}"
            record.msg, record.args = message, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        dirty = any(s in message or (record.exc_text and s in record.exc_text) for s in self.secrets)
        if dirty:
            for s in self.secrets:
                message = message.replace(s, "[redacted]")
                if record.exc_text:
                    record.exc_text = record.exc_text.replace(s, "[redacted]")
            record.msg, record.args = message, ()
        return True


def setup_logging(level: str, *secrets: str) -> None:
    """Log to stderr at ``level`` with the secrets scrubbed everywhere."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.addFilter(RedactFilter(*secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.py's own INFO lines are chatty; keep them at WARNING unless debugging.
    logging.getLogger("discord").setLevel(level if level == "DEBUG" else "WARNING")
