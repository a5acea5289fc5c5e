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
from render.replay import LOOK as REPLAY_VERSION
from render.words import Say

from ..i18n import SOURCE, Text
from ..i18n import render as render_text
from ..service.limits import REPLAYS_AT_ONCE

_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")
#: replays get threads of their own: a board never waits behind a long replay, and at most
#: REPLAYS_AT_ONCE are made at once (the others wait their turn here)
_REPLAY_POOL = ThreadPoolExecutor(max_workers=REPLAYS_AT_ONCE, thread_name_prefix="replay")
#: how replays are drawn (the renderer's look, theme and width): part of a kept GIF's key
REPLAY_LOOK = f"replay-v{REPLAY_VERSION}-dark-{render.WIDTH}"


def sayer(language: str) -> Say | None:
    """How a picture's words are said in ``language`` (the catalogs'; None: English)."""
    if language == SOURCE:
        return None
    return lambda words, facts: render_text(Text(words, dict(facts)), language)


async def board_file(position: Position, names: dict[str, str], filename: str = "board.png", *,
                     chosen: Collection[int] = (), choices: Collection[int] = (),
                     language: str = SOURCE) -> discord.File:
    """The position as a PNG attachment (``names`` maps colour → display name; ``chosen`` and
    ``choices``: cells a Play panel points out, see :func:`render.render_position`), its words in ``language``.

    The position is drawn in another thread as it is: positions the service hands
    out are snapshots nobody changes in place (moves make new ones).
    """
    loop = asyncio.get_running_loop()
    say = sayer(language)
    png = await loop.run_in_executor(
        _POOL, lambda: render.render_position(position, names=names, chosen=chosen, choices=choices, say=say))
    return discord.File(io.BytesIO(png), filename=filename)


async def replay_gif(record: Record, names: dict[str, str], language: str = SOURCE) -> bytes:
    """The whole game as looping GIF bytes (``names``: colour → who started with it), its words in
    ``language``, made in a replay thread (its memory is two frames and the GIF, see :mod:`render.replay`)."""
    loop = asyncio.get_running_loop()
    say = sayer(language)
    return await loop.run_in_executor(_REPLAY_POOL, lambda: render.render_replay(record, names=names, say=say))


def replay_look(language: str) -> str:
    """The name a finished game's replay GIF is kept under: the look, and the language of its words."""
    return REPLAY_LOOK if language == SOURCE else f"{REPLAY_LOOK}-{language}"


def gif_file(gif: bytes, filename: str) -> discord.File:
    """GIF bytes as an attachment."""
    return discord.File(io.BytesIO(gif), filename=filename)
