"""Stopping the bot's background tasks (timers, reviews) when it shuts down."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot import tasks


async def test_stopping_a_task_cancels_it_and_waits_until_it_has_ended():
    ended = asyncio.Event()

    async def work() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            ended.set()

    task = asyncio.create_task(work())
    await asyncio.sleep(0)
    await tasks.stop(task)
    assert task.cancelled() and ended.is_set()


async def test_a_task_that_ignores_its_cancellation_is_left_behind_after_the_grace_with_where_it_waits(caplog):
    release = asyncio.Event()

    async def stubborn() -> None:
        while not release.is_set():
            try:
                await asyncio.wait_for(release.wait(), 1)
            except (asyncio.CancelledError, TimeoutError):
                continue

    task = asyncio.create_task(stubborn(), name="stubborn")
    await asyncio.sleep(0)
    with caplog.at_level(logging.ERROR, logger="bot.tasks"):
        await tasks.stop(task, grace=0.2)
    assert not task.done()
    assert "stubborn did not end" in caplog.text and "in stubborn" in caplog.text
    release.set()
    await task


async def test_an_error_a_task_ended_with_while_stopping_is_raised_to_the_one_stopping_it():
    async def fails() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            raise RuntimeError("lost")

    task = asyncio.create_task(fails())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="lost"):
        await tasks.stop(task)
