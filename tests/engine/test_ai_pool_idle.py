"""Background jobs in the AI's process pool (``AIPool.when_idle``, a review's positions): they
run behind every search, one at a time. Searches are iteration-bounded; nothing asserts on time."""

from __future__ import annotations

import asyncio
import os

from engine import make_options
from engine.ai.pool import AIPool

HEX9 = make_options("hex", 9)
OPENING = ["e5", "d6", "f4"]  # out of the book: the worker searches


async def test_a_background_job_waits_for_every_search_asked_before_it_starts():
    finished: list[str] = []

    async def move(name: str, seed: int) -> None:
        await pool.choose(HEX9, OPENING, "medium", seed=seed, iterations=60, owner=name)
        finished.append(name)

    async def job(name: str) -> None:
        await pool.when_idle(os.getpid)
        finished.append(name)

    with AIPool(workers=1) as pool:
        first = asyncio.create_task(move("move 1", 1))
        await asyncio.sleep(0)
        background = asyncio.create_task(job("review"))
        await asyncio.sleep(0)
        second = asyncio.create_task(move("move 2", 2))
        await asyncio.gather(first, background, second)
    # The review was asked for before move 2, yet move 2 got the worker first.
    assert finished == ["move 1", "move 2", "review"]


async def test_background_jobs_run_one_at_a_time_in_order_when_nothing_else_waits():
    with AIPool(workers=2) as pool:
        answers = await asyncio.gather(*(pool.when_idle(abs, -i) for i in range(4)))
        assert pool.running == 0
    assert answers == [0, 1, 2, 3]
