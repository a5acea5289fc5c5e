"""The AI's process pool (engine.ai.pool): it heals when a worker dies, and it shares its workers
fairly between the users who wait for it.

Every search is bounded by an iteration count with a fixed seed (the same answer on any machine);
nothing asserts on time. Workers are killed with SIGKILL, as the OOM killer does.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time

import psutil

from engine import make_options, new_game
from engine.ai import choose
from engine.ai.pool import AIPool

HEX9 = make_options("hex", 9)
OPENING = ["e5", "d6", "f4"]  # out of the book: the worker searches


def _workers(pool: AIPool) -> list[psutil.Process]:
    """The pool's worker processes (not another pool's of the same test process, nor the resource tracker)."""
    out = []
    for pid in pool.pids():
        try:
            out.append(psutil.Process(pid))
        except psutil.NoSuchProcess:  # died and reaped already
            pass
    return out


def _kill_workers(pool: AIPool) -> int:
    """SIGKILL every worker of ``pool`` and wait until each is dead; how many there were.

    Dead, not reaped: the pool's executor reaps its own children, and one reaped here (as
    ``psutil.wait_procs`` would) looks alive to it for ever, so the test process never exits."""
    workers = _workers(pool)
    for p in workers:
        os.kill(p.pid, signal.SIGKILL)
    for p in workers:
        while True:
            try:
                if p.status() == psutil.STATUS_ZOMBIE:
                    break
            except psutil.NoSuchProcess:  # the executor reaped it already
                break
            time.sleep(0.01)
    return len(workers)


def _expected(actions: list[str], seed: int, iterations: int) -> str:
    pos = new_game("hex", 9)
    for a in actions:
        pos.play(a)
    return choose(pos, "medium", seed=seed, iterations=iterations)


async def test_a_search_whose_worker_is_killed_mid_search_is_run_again_and_answers(caplog):
    caplog.set_level(logging.WARNING, logger="engine.ai.pool")
    with AIPool(workers=1, warm=True) as pool:
        await asyncio.wrap_future(pool.warming[0])
        asking = asyncio.create_task(pool.choose(HEX9, OPENING, "medium", seed=3, iterations=4000))
        while pool.running == 0:
            await asyncio.sleep(0)  # submitted to the worker
        assert _kill_workers(pool) == 1
        line = await asking
    assert line == _expected(OPENING, 3, 4000)
    assert "a worker process died" in caplog.text and "re-running a search" in caplog.text


async def test_searches_after_a_worker_died_idle_still_answer():
    with AIPool(workers=2, warm=True) as pool:
        for f in pool.warming:
            await asyncio.wrap_future(f)
        assert _kill_workers(pool) == 2
        lines = await asyncio.gather(*(pool.choose(HEX9, OPENING, "medium", seed=s, iterations=50) for s in (1, 2, 3)))
    assert lines == [_expected(OPENING, s, 50) for s in (1, 2, 3)]


async def test_a_search_that_loses_its_worker_every_time_fails_after_its_retries(caplog):
    caplog.set_level(logging.WARNING, logger="engine.ai.pool")
    with AIPool(workers=1, warm=True) as pool:
        await asyncio.wrap_future(pool.warming[0])
        asking = asyncio.create_task(pool.choose(HEX9, OPENING, "medium", seed=3, iterations=10**9))
        for _ in range(3):  # the first run and both re-runs die
            while pool.running == 0 or not _workers(pool):
                await asyncio.sleep(0.01)
            restarts = pool.restarts
            _kill_workers(pool)
            while pool.restarts == restarts:
                await asyncio.sleep(0.01)
        try:
            await asking
        except Exception as exc:
            failed: BaseException | None = exc
        else:
            failed = None
        # The pool itself still serves the next request.
        after = await pool.choose(HEX9, OPENING, "medium", seed=1, iterations=50)
    assert failed is not None and "giving up" in caplog.text
    assert after == _expected(OPENING, 1, 50)


async def test_one_users_many_waiting_searches_do_not_delay_another_users_search_behind_them():
    finished: list[str] = []

    async def ask(owner: str, seed: int) -> None:
        await pool.choose(HEX9, OPENING, "medium", seed=seed, iterations=300, owner=owner)
        finished.append(owner)

    with AIPool(workers=1) as pool:
        hoarder = [asyncio.create_task(ask("alice", s)) for s in range(4)]
        await asyncio.sleep(0)
        other = asyncio.create_task(ask("bob", 9))
        await asyncio.gather(*hoarder, other)
    # One worker: alice's first search was running; bob's comes next, before her other three.
    assert finished == ["alice", "bob", "alice", "alice", "alice"]
