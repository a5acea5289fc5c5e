"""Per-key locks: one lock per key while in use, gone once nobody uses it."""

from __future__ import annotations

import asyncio
import gc

from bot.service.locks import KeyLocks


async def test_a_key_gets_the_same_lock_while_someone_holds_it():
    locks = KeyLocks()
    async with locks.lock(1):
        assert locks.lock(1).locked()
        assert not locks.lock(2).locked()


async def test_locks_nobody_uses_are_forgotten():
    locks = KeyLocks()
    for key in range(100):
        async with locks.lock(key):
            pass
    gc.collect()
    assert len(locks) == 0


async def test_a_waiter_keeps_the_lock_alive_for_the_next_holder():
    locks = KeyLocks()
    order: list[str] = []

    async def hold(name: str) -> None:
        async with locks.lock(7):
            order.append(f"{name} in")
            await asyncio.sleep(0)
            gc.collect()
            order.append(f"{name} out")

    await asyncio.gather(hold("a"), hold("b"))
    assert order == ["a in", "a out", "b in", "b out"]
