"""Errors: the ones the fake *answers* (Discord-style JSON) and the ones it *raises* to tests."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:  # pragma: no cover
    from .interactions import FakeInteraction


class DiscordAPIError(Exception):
    """Raised inside a REST handler; becomes ``{"message", "code"[, "errors"]}`` with ``status``."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        """The JSON body Discord would send."""
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def form_error(problems: list[tuple[str, str, str]]) -> DiscordAPIError:
    """A 400 50035 "Invalid Form Body" from ``(dotted.path, CODE, message)`` problems.

    Discord nests the errors by field path (``{"content": {"_errors": [...]}}``);
    discord.py flattens them back into the exception text, so tests see e.g.
    ``In content: Must be 2000 or fewer in length.``
    """
    tree: dict[str, Any] = {}
    for path, code, message in problems:
        node = tree
        for part in path.split(".") if path else []:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return DiscordAPIError(400, 50035, "Invalid Form Body", tree)


@contextlib.contextmanager
def under(field: str) -> Iterator[None]:
    """Re-raise a 50035 raised inside the block with its errors nested under ``field``.

    An interaction response's message is checked like any message, but Discord
    reports its problems under ``data`` (``data.embeds.0.color``).
    """
    try:
        yield
    except DiscordAPIError as exc:
        if exc.code != 50035 or not exc.errors:
            raise
        raise DiscordAPIError(exc.status, exc.code, exc.message, {field: exc.errors}) from None


def error_paths(errors: dict[str, Any] | None, prefix: str = "") -> list[str]:
    """``["data.embeds.0.color: int value should be …", …]`` from a nested 50035 ``errors`` tree."""
    out: list[str] = []
    for key, node in (errors or {}).items():
        if key == "_errors":
            out += [f"{prefix or '(body)'}: {e.get('message')} ({e.get('code')})" for e in node]
        elif isinstance(node, dict):
            out += error_paths(node, f"{prefix}.{key}" if prefix else key)
    return out


# Frequently used answers.
def unknown(what: str, code: int) -> DiscordAPIError:
    """404 ``Unknown <what>`` with its code (10003 channel, 10008 message, …)."""
    return DiscordAPIError(404, code, f"Unknown {what}")


class FakeDiscordError(Exception):
    """Base of errors the fake raises in *test* code (misuse, timeouts, failed interactions)."""


class CommandNotSynced(FakeDiscordError):
    """The test invoked a command the bot never synced (Discord would not offer it)."""


class CommandUnavailable(FakeDiscordError):
    """The command exists but Discord would not let this user run it here (contexts, permissions)."""


class NotConnected(FakeDiscordError):
    """No bot is connected to the gateway, so an interaction can't be delivered."""


class InteractionFailed(FakeDiscordError):
    """The interaction failed the way a user would see it ("The application did not respond")."""

    def __init__(self, message: str, interaction: "FakeInteraction") -> None:
        super().__init__(message)
        self.interaction = interaction


class InteractionTimeout(FakeDiscordError):
    """The bot acknowledged (or not) but never produced a final answer within the timeout."""

    def __init__(self, message: str, interaction: "FakeInteraction") -> None:
        super().__init__(message)
        self.interaction = interaction
