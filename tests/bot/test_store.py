"""The store: migrations, transactions, the append-only action list, timers, backups."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.store import Conflict, Store, migrations


@pytest.fixture
async def sqlite_store(tmp_path):
    s = await Store.open(tmp_path / "sub" / "bot.sqlite3")
    yield s
    await s.close()


async def _game(store: Store, channel_id: int = 10) -> int:
    async with store.transaction():
        row = await store.insert_game(
            guild_id=1, channel_id=channel_id, parent_id=None, game="hex", size=5, variants=("swap",), first=None,
            seed=42, seat0_id=100, seat1_id=200, rated=True, challenge_id=None, now=1000.0,
        )
    return row.id


async def test_open_creates_the_folder_and_applies_every_migration(tmp_path):
    path = tmp_path / "deep" / "folder" / "bot.sqlite3"
    s = await Store.open(path)
    try:
        assert path.is_file()
        assert await s.migrate() == migrations()[-1][0]
    finally:
        await s.close()


async def test_database_is_in_wal_mode(sqlite_store):
    row = await sqlite_store._one("PRAGMA journal_mode")
    assert row[0] == "wal"


async def test_reopening_keeps_data_and_does_not_reapply_migrations(tmp_path):
    path = tmp_path / "bot.sqlite3"
    s = await Store.open(path)
    await s.set_meta("k", "v")
    await s.close()
    s = await Store.open(path)
    try:
        assert await s.get_meta("k") == "v"
    finally:
        await s.close()


async def test_actions_are_kept_in_order(store):
    gid = await _game(store)
    async with store.transaction():
        await store.append_actions(gid, 0, ["c3", "swap"], 100, 1001.0)
        await store.append_actions(gid, 2, ["b2"], 200, 1002.0)
    assert await store.actions(gid) == ["c3", "swap", "b2"]


async def test_the_same_sequence_number_cannot_be_written_twice(store):
    gid = await _game(store)
    async with store.transaction():
        await store.append_actions(gid, 0, ["c3"], 100, 1001.0)
    with pytest.raises(Conflict):
        async with store.transaction():
            await store.append_actions(gid, 0, ["d4"], 200, 1002.0)
    assert await store.actions(gid) == ["c3"]


async def test_a_failed_transaction_leaves_nothing_behind(store):
    gid = await _game(store)
    with pytest.raises(RuntimeError):
        async with store.transaction():
            await store.append_actions(gid, 0, ["c3"], 100, 1001.0)
            raise RuntimeError("boom")
    assert await store.actions(gid) == []


async def test_writes_outside_a_transaction_are_refused(store):
    with pytest.raises(RuntimeError):
        await store.append_actions(1, 0, ["c3"], 100, 1.0)


async def test_only_one_active_game_per_channel(store):
    await _game(store, channel_id=7)
    with pytest.raises(Conflict):
        await _game(store, channel_id=7)


async def test_a_finished_game_frees_its_channel(store):
    gid = await _game(store, channel_id=7)
    async with store.transaction():
        await store.finish_game(gid, status="finished", winner_seat=0, reason="connection", now=1005.0)
    assert await store.active_game_in(7) is None
    await _game(store, channel_id=7)


async def test_transactions_holding_the_same_game_do_not_interleave(store):
    gid = await _game(store)

    async def append(seq: int) -> None:
        async with store.transaction():
            await store.lock_game(gid)
            current = len(await store.actions(gid))
            await asyncio.sleep(0)  # let the other task try to run in between
            await store.append_actions(gid, current, [f"a{seq}"], 100, 1.0)

    await asyncio.gather(*(append(i) for i in range(20)))
    assert len(await store.actions(gid)) == 20


async def test_holding_a_channels_game_gives_the_same_row_and_version_as_reading_them(store):
    gid = await _game(store, channel_id=7)
    async with store.transaction():
        await store.append_actions(gid, 0, ["c3", "swap", "b2"], 100, 1001.0)
        await store.mark_taken_back(gid, [2])
    async with store.transaction():
        held = await store.lock_game_in(7)
    assert held == (await store.get_game(gid), await store.game_version(gid)) == (await store.get_game(gid), (3, 1))


async def test_holding_a_channel_without_a_game_in_progress_gives_nothing(store):
    gid = await _game(store, channel_id=7)
    async with store.transaction():
        await store.finish_game(gid, status="finished", winner_seat=0, reason="connection", now=1005.0)
    async with store.transaction():
        assert await store.lock_game_in(7) is None
        assert await store.lock_game_in(8) is None


async def test_holding_a_channels_game_outside_a_transaction_is_refused(store):
    await _game(store, channel_id=7)
    with pytest.raises(RuntimeError):
        await store.lock_game_in(7)


async def test_a_challenge_closes_only_once(store):
    async with store.transaction():
        ch = await store.insert_challenge(
            guild_id=1, channel_id=2, challenger_id=3, opponent_id=4, game="hex", size=11, variants=("swap",),
            seat="random", rated=True, thread=False, created_at=0.0, expires_at=900.0,
        )
    async with store.transaction():
        first = await store.close_challenge(ch.id, "accepted")
        second = await store.close_challenge(ch.id, "declined")
    assert (first, second) == (True, False)
    assert (await store.get_challenge(ch.id)).status == "accepted"


async def test_a_game_has_at_most_one_open_or_accepted_rematch_challenge(store):
    async def rematch(opponent_id: int):
        async with store.transaction():
            return await store.insert_challenge(
                guild_id=1, channel_id=2, challenger_id=3, opponent_id=opponent_id, game="hex", size=11,
                variants=("swap",), seat="first", rated=True, thread=False, created_at=0.0, expires_at=900.0,
                rematch_of=7)

    first = await rematch(4)
    with pytest.raises(Conflict):
        await rematch(3)
    async with store.transaction():
        await store.close_challenge(first.id, "accepted", 8)
    with pytest.raises(Conflict):
        await rematch(3)
    assert (await store.rematch_of(7)).id == first.id


async def test_a_declined_rematch_leaves_room_for_a_new_one(store):
    async def rematch():
        async with store.transaction():
            return await store.insert_challenge(
                guild_id=1, channel_id=2, challenger_id=3, opponent_id=4, game="hex", size=11, variants=(),
                seat="first", rated=True, thread=False, created_at=0.0, expires_at=900.0, rematch_of=7)

    first = await rematch()
    async with store.transaction():
        await store.close_challenge(first.id, "declined")
    second = await rematch()
    assert (await store.rematch_of(7)).id == second.id


async def test_timers_come_back_earliest_first_and_only_when_due(store):
    async with store.transaction():
        await store.add_timer(50.0, "b", 2)
        await store.add_timer(10.0, "a", 1)
    assert [t.kind for t in await store.due_timers(20.0)] == ["a"]
    assert (await store.next_timer()).due_at == 10.0


async def test_replacing_a_things_timers_replaces_only_those_kinds_of_that_thing(store):
    async with store.transaction():
        await store.add_timer(5.0, "reminder", 1)
        await store.add_timer(6.0, "deadline", 1)
        await store.add_timer(7.0, "deadline", 2)  # another thing
        await store.add_timer(8.0, "takeback", 1)  # another kind
        await store.replace_timers(1, ("reminder", "deadline", "abandon"),
                                   [(15.0, "reminder", '{"deadline": 20.0}'), (20.0, "deadline", "{}")], guild_id=3)
    due = [(t.due_at, t.kind, t.ref_id, t.payload, t.guild_id) for t in await store.due_timers(100.0)]
    assert due == [(7.0, "deadline", 2, "{}", None), (8.0, "takeback", 1, "{}", None),
                   (15.0, "reminder", 1, '{"deadline": 20.0}', 3), (20.0, "deadline", 1, "{}", 3)]


async def test_ending_a_things_timers_keeps_the_one_a_driver_is_running(store):
    async with store.transaction():
        await store.add_timer(5.0, "reminder", 1)
        await store.add_timer(6.0, "deadline", 1)
        await store.add_timer(7.0, "abandon", 1)
    [claimed] = await store.claim_timers(6.0, "driver-a", 60.0, limit=1)  # the reminder, earliest
    async with store.transaction():
        await store.end_timers(1, ("reminder", "deadline", "abandon"))
    left = await store.due_timers(100.0)
    assert [(t.id, t.kind, t.claimed_by) for t in left] == [(claimed.id, "reminder", "driver-a")]


async def test_the_id_high_water_mark_counts_deleted_ids(store):
    async with store.transaction():
        first = await store.add_timer(5.0, "a", 1)
        top = await store.add_timer(6.0, "a", 2)
        await store.delete_timer(top)
    assert (await store.id_high_water())["timers"] == top > first


async def test_after_a_bulk_insert_new_ids_start_past_the_given_high_water_mark(store):
    async with store.transaction():
        await store.insert_rows("timers", [{"id": 3, "due_at": 1.0, "kind": "a", "ref_id": 1, "payload": "{}"}])
        await store.after_bulk_insert({"timers": 40})
        new = await store.add_timer(2.0, "a", 2)
    assert new == 41


async def test_a_high_water_mark_counts_even_when_no_row_was_copied(store):
    async with store.transaction():
        await store.after_bulk_insert({"timers": 40})
        new = await store.add_timer(2.0, "a", 2)
    assert new == 41


async def test_replacing_timers_outside_a_transaction_is_refused(store):
    with pytest.raises(RuntimeError):
        await store.replace_timers(1, ("abandon",), [(1.0, "abandon", "{}")])


async def test_backup_makes_a_consistent_copy(sqlite_store, tmp_path):
    await sqlite_store.set_meta("k", "v")
    target = tmp_path / "copy.sqlite3"
    await sqlite_store.backup(target)
    copy = await Store.open(target)
    try:
        assert await copy.get_meta("k") == "v"
        assert await copy.integrity_check() == "ok"
    finally:
        await copy.close()


async def test_a_game_finishes_only_once(store):
    gid = await _game(store)
    async with store.transaction():
        first = await store.finish_game(gid, status="finished", winner_seat=0, reason="resignation", now=1.0)
        second = await store.finish_game(gid, status="finished", winner_seat=1, reason="resignation", now=2.0)
    assert (first, second) == (True, False)
    assert (await store.get_game(gid)).winner_seat == 0


async def test_the_game_version_changes_with_every_change_of_the_record(store):
    gid = await _game(store)
    seen = [await store.game_version(gid)]
    async with store.transaction():
        await store.append_actions(gid, 0, ["c3", "swap"], 100, 1.0)
    seen.append(await store.game_version(gid))
    async with store.transaction():
        await store.mark_taken_back(gid, [1])
    seen.append(await store.game_version(gid))
    assert len(set(seen)) == 3


async def test_timer_ids_are_never_handed_out_twice(store):
    async with store.transaction():
        first = await store.add_timer(1.0, "a", 1)
        await store.delete_timer(first)
        second = await store.add_timer(1.0, "a", 1)
    assert second != first


async def test_snowflakes_and_seeds_keep_all_their_bits(store):
    snowflake, seed = 1_234_567_890_123_456_789, (1 << 62) - 1
    async with store.transaction():
        row = await store.insert_game(
            guild_id=snowflake, channel_id=snowflake + 1, parent_id=None, game="hex", size=5, variants=(),
            first=None, seed=seed, seat0_id=snowflake + 2, seat1_id=snowflake + 3, rated=False,
            challenge_id=None, now=1.0,
        )
    got = await store.get_game(row.id)
    assert (got.guild_id, got.channel_id, got.seed, got.rated) == (snowflake, snowflake + 1, seed, False)


async def test_a_display_name_with_nul_is_kept_with_a_replacement_character(store):
    # PostgreSQL text cannot hold NUL; both stores keep the same visible stand-in.
    await store.remember_names(1, {100: "c3\x00", 200: "\x00"}, 1.0)
    assert await store.names(1, [100, 200]) == {100: "c3\ufffd", 200: "\ufffd"}


async def test_processes_opening_one_sqlite_file_together_apply_each_migration_once(tmp_path):
    path = tmp_path / "bot.sqlite3"
    stores = await asyncio.gather(*(Store.open(path) for _ in range(4)))
    try:
        assert {await s.migrate() for s in stores} == {migrations()[-1][0]}
        await stores[0].set_meta("k", "v")
        assert await stores[3].get_meta("k") == "v"
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_a_transaction_cancelled_while_it_commits_raises_cancelled_and_leaves_the_store_usable(store):
    # The timer driver is cancelled when the bot stops, often right in a COMMIT; the
    # cancellation must reach it (a masking database error kept it running for ever).
    leaving = asyncio.Event()

    async def write() -> None:
        async with store.transaction():
            await store.set_meta("k", "v")
            leaving.set()  # the next suspension is the COMMIT

    task = asyncio.create_task(write())
    await leaving.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await store.set_meta("k", "w")
    assert await store.get_meta("k") == "w"


async def test_closing_does_not_wait_for_ever_on_a_transaction_that_never_ends(store, monkeypatch):
    module = __import__(type(store).__module__, fromlist=["CLOSE_GRACE"])
    monkeypatch.setattr(module, "CLOSE_GRACE", 0.3)
    inside = asyncio.Event()

    async def stuck() -> None:
        async with store.transaction():
            inside.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(stuck())
    await inside.wait()
    await asyncio.wait_for(store.close(), 10)
    task.cancel()
    with contextlib.suppress(BaseException):  # its ROLLBACK meets a closed database
        await task
