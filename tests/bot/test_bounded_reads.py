"""A command in a channel without a game reads only that channel's games, never every game of
every server, and never while it holds the write transaction (issue 45).

The store is watched as the service uses it: every call is recorded with the rows it handed
back and whether a write transaction was open; on SQLite the query's plan shows it is an index
search, not a scan of the games table.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from dataclasses import dataclass

import pytest

from bot.service import GameService, UserError
from bot.store import Store
from bot.store.postgres import numbered
from tests.dbquery import _many

GUILD, OTHER_GUILD, CHANNEL, ALICE, BOB, CAROL = 1, 2, 10, 100, 200, 300
#: games in progress elsewhere (other channels and another server) that a lookup must not read
ELSEWHERE = 120


@dataclass
class Call:
    """One store call: its name, whether a write transaction was open, how many rows came back."""

    name: str
    in_transaction: bool
    rows: int


def watch(store: Store) -> list[Call]:
    """Record every call the service makes to ``store`` (the instance's methods are wrapped)."""
    calls: list[Call] = []
    depth = 0
    real_transaction = store.transaction

    @contextlib.asynccontextmanager
    async def transaction():  # type: ignore[no-untyped-def]
        nonlocal depth
        depth += 1
        try:
            async with real_transaction() as s:
                yield s
        finally:
            depth -= 1

    def wrap(name, method):  # type: ignore[no-untyped-def]
        @functools.wraps(method)
        async def recorded(*args, **kwargs):  # type: ignore[no-untyped-def]
            result = await method(*args, **kwargs)
            rows = len(result) if isinstance(result, list) else int(result is not None)
            calls.append(Call(name, depth > 0, rows))
            return result
        return recorded

    for name, method in inspect.getmembers(store, inspect.iscoroutinefunction):
        if not name.startswith("_"):
            setattr(store, name, wrap(name, method))
    store.transaction = transaction  # type: ignore[method-assign]
    return calls


@pytest.fixture
async def crowded(database_url):
    """A store with many games in progress elsewhere, and in threads of CHANNEL: alice's two and
    one of bob and carol."""
    store = await Store.open(database_url)
    async with store.transaction():
        for i in range(ELSEWHERE):
            await store.insert_game(guild_id=GUILD if i % 2 else OTHER_GUILD, channel_id=1000 + i,
                                    parent_id=5000 + i % 7, game="hex", size=5, variants=(), first=None, seed=i,
                                    seat0_id=ALICE, seat1_id=BOB, rated=True, challenge_id=None, now=1.0)
        for thread, seats in ((11, (ALICE, BOB)), (12, (CAROL, ALICE)), (13, (BOB, CAROL))):
            await store.insert_game(guild_id=GUILD, channel_id=thread, parent_id=CHANNEL, game="hex", size=5,
                                    variants=(), first=None, seed=thread, seat0_id=seats[0], seat1_id=seats[1],
                                    rated=True, challenge_id=None, now=1.0)
    yield store
    await store.close()


@pytest.mark.parametrize("command", ["play", "resign", "claim", "abort", "takeback"])
async def test_a_command_where_no_game_is_reads_only_its_channels_games_outside_the_write_transaction(
        crowded, command):
    service = GameService(crowded, clock=lambda: 10.0)
    calls = watch(crowded)
    act = {"play": lambda: service.play(CHANNEL, ALICE, "a1"), "resign": lambda: service.resign(CHANNEL, ALICE),
           "claim": lambda: service.claim(CHANNEL, ALICE), "abort": lambda: service.abort(CHANNEL, ALICE),
           "takeback": lambda: service.request_takeback(CHANNEL, ALICE)}[command]
    with pytest.raises(UserError) as refused:
        await act()
    assert len(refused.value.facts.get("threads", [])) == 2, refused.value
    inside = [c for c in calls if c.in_transaction]
    assert all(c.rows <= 1 for c in inside), f"read under the write lock: {inside}"
    assert sum(c.rows for c in calls) <= 3, f"read more than this channel's games: {calls}"


async def test_the_lookup_of_a_players_threads_searches_an_index_not_the_games_table(crowded, database_url):
    statements: list[tuple[str, dict]] = []
    real_all = crowded._all

    async def capture(sql, /, **params):  # type: ignore[no-untyped-def]
        statements.append((sql, params))
        return await real_all(sql, **params)

    crowded._all = capture  # type: ignore[method-assign]
    assert len(await crowded.player_threads(CHANNEL, ALICE)) == 2
    assert len(statements) == 1, statements
    sql, params = statements[0]
    if database_url.startswith("sqlite"):
        rows = _many(database_url, [("EXPLAIN QUERY PLAN " + sql, params)])[0]  # type: ignore[list-item]
        plan = " ".join(str(list(row.values())[-1]) for row in rows)
        assert "USING INDEX games_active_parent" in plan and "SCAN games" not in plan, plan
    else:
        # A table this small is cheaper to scan: forbid that, and see an index serve the query.
        text, args = numbered("EXPLAIN " + sql, params)
        answers = _many(database_url, [("SET enable_seqscan = off", ()), (text, tuple(args))])
        plan = " ".join(str(value) for row in answers[1] for value in row.values())
        assert "games_active_parent" in plan and "Seq Scan" not in plan, plan
