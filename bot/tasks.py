"""The bot's background tasks (timers, reviews): stopping one, and naming this process in the rows they claim."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import secrets
import socket
from typing import Any

log = logging.getLogger(__name__)


#: seconds a cancelled background task may take to end before shutting down goes on without it
STOP_GRACE = 15.0


async def stop(task: asyncio.Task[Any] | None, grace: float = STOP_GRACE) -> None:
    """Cancel ``task`` (if any is running) and wait until it has ended; its cancellation is not an error.

    A task still running ``grace`` seconds after its cancellation (one that waits on something that
    ignores it) is logged with where it waits, and left behind: a bot that never finishes shutting
    down is worse for its operator than one task cut short when the process ends."""
    if task is None:
        return
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=grace)
    if not done:
        stack = io.StringIO()
        task.print_stack(file=stack)
        log.error("task %s did not end %.0f s after it was cancelled; going on without it:\n%s",
                  task.get_name(), grace, stack.getvalue())
        return
    error = None if task.cancelled() else task.exception()
    if error is not None:
        raise error


def claimant() -> str:
    """This process's name in the rows its background tasks claim (timers, reviews): host, pid and a
    random part, so that a restarted process with the same pid is not taken for the old one."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
