"""The bot's background tasks (timers, reviews): stopping one, and naming this process in the rows they claim."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from typing import Any


async def stop(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` (if any is running) and wait until it has ended; its cancellation is not an error."""
    if task is None:
        return
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass


def claimant() -> str:
    """This process's name in the rows its background tasks claim (timers, reviews): host, pid and a
    random part, so that a restarted process with the same pid is not taken for the old one."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
