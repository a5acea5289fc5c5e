"""The timer driver: due rows reach their handler once, and a handler may re-arm its own timer."""

from __future__ import annotations

import sqlite3

from bot.store import Store, TimerRow, migrations
from bot.timing.timers import LEASE, POLL, Timers
from tests.bot.harness import ManualClock
from tests.fake_discord.rest import NONCE_WINDOW


async def test_a_handler_that_re_arms_its_own_timer_keeps_the_new_one(store):
    clock = ManualClock(1000.0)
    timers = Timers(store, clock)

    async def rearm(row: TimerRow) -> None:
        # What abandon_if_idle does for a game that is still alive: replace its timer by a later one.
        async with store.transaction():
            await store.delete_timers(row.kind, row.ref_id)
            await store.add_timer(clock.now() + 60.0, row.kind, row.ref_id)

    timers.on("abandon", rearm)
    async with store.transaction():
        await store.add_timer(999.0, "abandon", 7)
    assert await timers.run_due() == 1
    left = await store.next_timer()
    assert left is not None and (left.kind, left.ref_id, left.due_at) == ("abandon", 7, 1060.0)


async def test_timer_ids_are_never_reused_after_the_newest_is_deleted(store):
    async with store.transaction():
        first = await store.add_timer(10.0, "a", 1)
        await store.delete_timer(first)
        second = await store.add_timer(10.0, "a", 1)
    assert second > first


async def test_due_rows_run_once_and_are_deleted(store):
    clock = ManualClock(100.0)
    timers = Timers(store, clock)
    seen: list[int] = []

    async def note(row: TimerRow) -> None:
        seen.append(row.ref_id)

    timers.on("k", note)
    async with store.transaction():
        await store.add_timer(50.0, "k", 1)
        await store.add_timer(150.0, "k", 2)
    assert await timers.run_due() == 1
    assert await timers.run_due() == 0
    assert seen == [1]
    assert (await store.next_timer()).ref_id == 2


async def test_upgrading_a_database_keeps_its_waiting_timers(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    for number, _, sql in migrations():
        if number <= 3:  # the schema before timer ids were made never-reused
            db.executescript(f"{sql}\nPRAGMA user_version = {number};")
    db.execute("INSERT INTO timers (due_at, kind, ref_id) VALUES (5.0, 'abandon', 9)")
    db.commit()
    db.close()
    s = await Store.open(path)
    try:
        kept = await s.next_timer()
        assert kept is not None and (kept.id, kept.kind, kept.ref_id) == (1, "abandon", 9)
        async with s.transaction():
            assert await s.add_timer(6.0, "abandon", 9) == 2
    finally:
        await s.close()


def test_a_lapsed_claim_is_looked_at_again_well_inside_discords_nonce_memory():
    # A rerun after a crash re-posts with the first run's nonces; Discord must still know them.
    assert LEASE + POLL < NONCE_WINDOW.total_seconds()


async def test_a_batch_that_outlived_its_lease_skips_the_rows_another_process_took_over(store):
    clock = ManualClock(1000.0)
    timers = Timers(store, clock)
    ran: list[int] = []

    async def slow(row: TimerRow) -> None:
        ran.append(row.ref_id)
        # This handler outlives the batch's lease, and another process claims what is due.
        clock.advance(LEASE + 1)
        await store.claim_timers(clock.now(), "another-process", LEASE)

    timers.on("reminder", slow)
    async with store.transaction():
        await store.add_timer(990.0, "reminder", 1)
        await store.add_timer(995.0, "reminder", 2)
    await timers.run_due()
    assert ran == [1]  # the second row is the other process's now
    assert [(t.ref_id, t.claimed_by) for t in await store.due_timers(clock.now())] == \
        [(1, "another-process"), (2, "another-process")]
