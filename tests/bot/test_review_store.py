"""The reviews' tables on both databases: each position kept once, a review of other moves or
budget starting afresh, the unfinished ones listed for a restart."""

from __future__ import annotations

from bot.store import PuzzleRow, ReviewValueRow


async def test_a_reviews_positions_are_kept_once_each_and_it_is_unfinished_until_finished(store):
    row = await store.start_review(7, "k1", 3, 100.0)
    assert (row.game_id, row.key, row.total, row.done_at) == (7, "k1", 3, None)
    await store.put_review_value(7, ReviewValueRow(0, 0.5, False, "c3"))
    await store.put_review_value(7, ReviewValueRow(0, 0.9, True, "d4"))  # a second process's copy: ignored
    await store.put_review_value(7, ReviewValueRow(1, 1.0, True, None))
    assert await store.review_values(7) == [ReviewValueRow(0, 0.5, False, "c3"), ReviewValueRow(1, 1.0, True, None)]
    assert [r.game_id for r in await store.unfinished_reviews(10)] == [7]
    await store.finish_review(7, 200.0)
    assert (await store.review(7)).done_at == 200.0 and await store.unfinished_reviews(10) == []


async def test_asking_again_for_the_same_review_keeps_it_and_another_key_starts_afresh(store):
    await store.start_review(7, "k1", 3, 100.0)
    await store.put_review_value(7, ReviewValueRow(0, 0.5, False, "c3"))
    await store.finish_review(7, 150.0)
    same = await store.start_review(7, "k1", 3, 300.0)
    assert same.done_at == 150.0 and len(await store.review_values(7)) == 1
    other = await store.start_review(7, "k2", 4, 400.0)
    assert (other.key, other.total, other.done_at) == ("k2", 4, None) and await store.review_values(7) == []


async def test_a_games_puzzles_are_kept_once_per_position(store):
    found = [PuzzleRow(7, 4, "black", "c3", "a1", 10.0), PuzzleRow(7, 2, "white", "b2", "e5", 10.0)]
    await store.put_puzzles(found)
    await store.put_puzzles([PuzzleRow(7, 4, "black", "d4", "a1", 20.0)])  # found again: the first stays
    assert await store.puzzles_of(7) == [found[1], found[0]] and await store.puzzles_of(8) == []


async def test_a_background_review_is_queued_until_as_many_wait_as_allowed_and_listed_after_the_asked_ones(store):
    async with store.transaction():
        assert await store.want_background_review(1, 10.0, most=2)
        assert not await store.want_background_review(1, 11.0, most=2)  # queued already
        assert await store.want_background_review(2, 12.0, most=2)
        assert not await store.want_background_review(3, 13.0, most=2)  # two wait: the newest is skipped
    await store.start_review(4, "k4", 3, 20.0)  # asked by a member later than both
    assert [(r.game_id, r.background) for r in await store.unfinished_reviews(10)] == [(4, False), (1, True), (2, True)]
    assert await store.review(3) is None
    await store.finish_review(1, 30.0)
    async with store.transaction():
        assert await store.want_background_review(3, 31.0, most=2)  # one finished: room again


async def test_a_background_review_asked_for_by_a_member_becomes_an_asked_one(store):
    async with store.transaction():
        await store.want_background_review(1, 10.0, most=5)
    made = await store.start_review(1, "k1", 3, 11.0, background=True)  # the maker gives it its key
    assert (made.key, made.total, made.background) == ("k1", 3, True)
    asked = await store.start_review(1, "k1", 3, 12.0)
    assert asked.background is False and asked.asked_at == 11.0


async def test_one_process_at_a_time_holds_a_review_until_it_releases_it_or_its_lease_lapses(store):
    await store.start_review(7, "k1", 3, 100.0)
    assert await store.claim_review(7, "a", 100.0, lease=60.0)
    assert not await store.claim_review(7, "b", 110.0, lease=60.0)
    assert await store.claim_review(7, "a", 150.0, lease=60.0)  # renewed: now held to 210
    assert not await store.claim_review(7, "b", 200.0, lease=60.0)
    assert await store.claim_review(7, "b", 211.0, lease=60.0)  # lapsed: taken over
    await store.release_review(7, "a")  # not a's any more: nothing changes
    assert not await store.claim_review(7, "a", 212.0, lease=60.0)
    await store.release_review(7, "b")
    assert await store.claim_review(7, "a", 213.0, lease=60.0)
    assert await store.release_review_claims() == 1  # a lone process starting: a's run is gone
    assert await store.claim_review(7, "c", 214.0, lease=60.0)
    await store.finish_review(7, 220.0)
    assert not await store.claim_review(7, "b", 300.0, lease=60.0)  # a finished review is nobody's to make


async def test_background_reviews_are_on_until_a_server_switches_them_off(store):
    assert await store.review_background(5)
    await store.set_review_background(5, False)
    assert not await store.review_background(5) and await store.review_background(6)
    await store.set_review_background(5, True)
    assert await store.review_background(5)
