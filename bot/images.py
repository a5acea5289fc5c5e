"""Board pictures for messages, rendered off the event loop.

Rendering is CPU work, so it runs in a small thread pool: the loop only
awaits the finished PNG/GIF bytes and keeps answering other interactions.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor

import discord

import render
from engine import Position, Record

_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")


async def board_file(position: Position, names: dict[str, str], filename: str = "board.png", *,
                     chosen: Collection[int] = (), choices: Collection[int] = ()) -> discord.File:
    """The position as a PNG attachment (``names`` maps colour → display name; ``chosen`` and
    ``choices``: cells a Play panel points out, see :func:`render.render_position`).

    The position is drawn in another thread as it is: positions the service hands
    out are snapshots nobody changes in place (moves make new ones).
    """
    loop = asyncio.get_running_loop()
    png = await loop.run_in_executor(
        _POOL, lambda: render.render_position(position, names=names, chosen=chosen, choices=choices))
    return discord.File(io.BytesIO(png), filename=filename)


async def replay_file(record: Record, names: dict[str, str], filename: str = "replay.gif") -> discord.File:
    """The whole game as a looping GIF attachment (``names``: colour → who started with it)."""
    loop = asyncio.get_running_loop()
    gif = await loop.run_in_executor(_POOL, lambda: render.render_replay(record, names=names))
    return discord.File(io.BytesIO(gif), filename=filename)
