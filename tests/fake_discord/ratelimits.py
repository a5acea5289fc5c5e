"""Rate limits that run out, with Discord's headers and 429 bodies.

Tests configure them on the fake (:meth:`FakeDiscord.rate_limit`,
:meth:`FakeDiscord.global_rate_limit`); every other route answers with
plausible, never-exhausted headers so discord.py's bucket code runs as in
production.

As on Discord: a **route bucket** counts requests per rule and per major
parameter (channel, guild, webhook token or interaction), in a fixed window
that starts with its first request; its headers say how many are left and
when the window resets, and discord.py waits when ``Remaining`` is 0. The
**global** limit counts every authenticated request except interaction
callbacks and follow-ups (Discord exempts them); discord.py cannot see it
coming, gets a 429 with ``"global": true`` and ``X-RateLimit-Global``, waits
``retry_after`` and retries. A 429 body is ``{"message", "retry_after",
"global", "code"}`` (the spec's ``RatelimitedResponse``).
"""

from __future__ import annotations

import json
import math
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

#: routes Discord leaves out of the global limit (interaction responses and follow-ups)
_EXEMPT_FROM_GLOBAL = re.compile(r"^(\w+) /(interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+(/.*)?)$")
_MAJOR = re.compile(r"^/(?:channels|guilds)/(\d+)|^/webhooks/\d+/([^/]+)|^/interactions/(\d+)")


@dataclass
class Window:
    """A fixed window of ``limit`` requests per ``per`` seconds."""

    limit: int
    per: float
    remaining: int = 0
    reset_at: float = 0.0

    def take(self, now: float) -> bool:
        """Use one request if any is left in the current window (a new window starts when the old one is over)."""
        if now >= self.reset_at:
            self.remaining, self.reset_at = self.limit, now + self.per
        if self.remaining <= 0:
            return False
        self.remaining -= 1
        return True

    def reset_after(self, now: float) -> float:
        """Seconds until the window resets."""
        return max(0.0, self.reset_at - now)


@dataclass
class RouteLimit:
    """A configured per-route limit: requests whose ``"METHOD /path"`` matches ``pattern``."""

    pattern: re.Pattern[str]
    limit: int
    per: float
    bucket: str
    windows: dict[str, Window] = field(default_factory=dict)
    #: requests answered 429 by this limit
    refused: int = 0
    #: requests answered with ``X-RateLimit-Remaining: 0`` (discord.py must wait before the next)
    exhausted: int = 0


class RateLimiter:
    """The fake's rate limits; :meth:`check` runs for every authenticated request before routing."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.routes: list[RouteLimit] = []
        self.global_window: Window | None = None
        #: requests answered 429 by the global limit
        self.global_refused = 0

    def add_route(self, pattern: str, limit: int, per: float) -> RouteLimit:
        """Limit requests matching ``pattern`` to ``limit`` per ``per`` seconds (per major parameter)."""
        rule = RouteLimit(re.compile(pattern), limit, per, f"{zlib.crc32(pattern.encode()):08x}")
        self.routes.append(rule)
        return rule

    def set_global(self, limit: int | None, per: float = 1.0) -> None:
        """Limit all non-interaction requests to ``limit`` per ``per`` seconds (None: no global limit)."""
        self.global_window = None if limit is None else Window(limit, per)

    def check(self, method: str, path: str, template: str) -> tuple[dict[str, str], web.Response | None]:
        """(headers for the answer, or a 429 to send instead of routing)."""
        now = self.clock()
        key = f"{method} {path}"
        window = self.global_window
        if window is not None and not _EXEMPT_FROM_GLOBAL.match(key) and not window.take(now):
            self.global_refused += 1
            return {}, limited(window.reset_after(now), is_global=True)
        rule = next((r for r in self.routes if r.pattern.search(key)), None)
        if rule is None:
            return default_headers(template), None
        found = _MAJOR.match(path)
        major = next((g for g in found.groups() if g), "") if found else ""
        window = rule.windows.setdefault(major, Window(rule.limit, rule.per))
        ok = window.take(now)
        after = window.reset_after(now)
        headers = {
            "X-RateLimit-Limit": str(rule.limit),
            "X-RateLimit-Remaining": str(window.remaining),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": rule.bucket,
        }
        if not ok:
            rule.refused += 1
            return {}, limited(after, bucket_headers=headers)
        if window.remaining == 0:
            rule.exhausted += 1
        return headers, None


def default_headers(template: str) -> dict[str, str]:
    """Plausible, never-exhausted bucket headers for a route without a configured limit."""
    return {
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "4",
        "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
        "X-RateLimit-Reset-After": "1.000",
        "X-RateLimit-Bucket": f"{zlib.crc32(template.encode()):08x}",
    }


def limited(retry_after: float, *, is_global: bool = False, bucket_headers: dict[str, str] | None = None) -> web.Response:
    """A 429 as Discord sends it (headers and ``RatelimitedResponse`` body)."""
    retry_after = round(max(retry_after, 0.001), 3)
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global, "code": 0}
    headers = {
        "Content-Type": "application/json",
        **(bucket_headers or {}),
        "X-RateLimit-Scope": "global" if is_global else "user",
        "Retry-After": str(max(1, math.ceil(retry_after))),
        # discord.py treats a 429 without "Via" as a Cloudflare ban and does not retry.
        "Via": "1.1 google",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    elif bucket_headers is None:
        headers.update({"X-RateLimit-Limit": "1", "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                        "X-RateLimit-Reset-After": f"{retry_after:.3f}"})
    return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
