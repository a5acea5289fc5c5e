"""Whole tournaments through the fake Discord, each pairing and standing checked against the rules
computed here from the games as the test played them (not with the bot's tournament code)."""

from __future__ import annotations

import pytest

from tests.bot.harness import PNG, png_of
from tests.bot.tournament_driver import (
    Announced,
    announced,
    final_post,
    members,
    resign,
    sign_up,
    table_rows,
    win_by_moves,
)

HEX3 = dict(game="hex", size=3, swap=False, clock="1d")


@pytest.fixture
def database_url(tmp_path) -> str:
    """SQLite only here: the whole-tournament test that runs on both databases is in test_tournament_swiss.py."""
    return f"sqlite:///{tmp_path / 'bot.sqlite3'}"


def berger(n: int) -> list[list[tuple[int, int]]]:
    """FIDE's Berger table as published (seat numbers, white first) for 3–4 players (3: number 4 is the bye)."""
    assert n in (3, 4)
    return [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


async def play_out(h, rnd: Announced, by_id, winner_of) -> list[tuple[int, int, int]]:
    """Finish every game of a round: the loser resigns (board 1 is won on the board by the first seat
    when it is the winner). Returns (first, second, winner) per game."""
    out = []
    for board, first, second, thread in rnd.games:
        w = winner_of(first, second, board)
        if board == 1 and w == first:
            await win_by_moves(h, by_id[first], by_id[second], thread)
        else:
            await resign(h, by_id[second if w == first else first], thread)
        out.append((first, second, w))
    return out


@pytest.mark.parametrize("n", [3, 4])
async def test_a_round_robin_follows_the_berger_tables_and_ranks_by_sonneborn_berger_then_direct_encounter(harness, n):
    async with harness.running():
        players = members(harness, n)
        seed = {p.id: k for k, p in enumerate(players, start=1)}
        by_id = {p.id: p for p in players}
        of_seed = {k: p.id for k, p in enumerate(players, start=1)}
        await sign_up(harness, players[0], players, format="round-robin", **HEX3)
        games: list[tuple[int, int, int]] = []
        for number, table in enumerate(berger(n), start=1):
            rnd = await announced(harness, 1, number)
            expected = [(of_seed[a], of_seed[b]) for a, b in table if a <= n and b <= n]
            assert [(f, s) for _, f, s, _ in rnd.games] == expected
            assert rnd.byes == [of_seed[a if b > n else b] for a, b in table if max(a, b) > n]
            # the better seed wins, except on board 2, where the upset keeps the table interesting
            games += await play_out(harness, rnd, by_id, lambda f, s, board: (
                min(f, s, key=seed.get) if board != 2 else max(f, s, key=seed.get)))
        post = await final_post(harness, 1)
    pts = {p: sum(1 for *_, w in games if w == p) for p in seed}
    sb = {p: sum(pts[s if f == p else f] for f, s, w in games if w == p) for p in seed}

    def de(p: int) -> int | None:
        level = {q for q in seed if (pts[q], sb[q]) == (pts[p], sb[p])}
        if len(level) == 1:
            return None
        return sum(1 for f, s, w in games if w == p and {f, s} <= level)

    order = sorted(seed, key=lambda p: (-pts[p], -sb[p], -(de(p) or 0), seed[p]))
    names = {p.id: p.name for p in players}
    assert [(r[1], r[2], r[3], r[4]) for r in table_rows(post.content)] == [
        (names[p], pts[p], (sb[p], de(p)), sum(1 for f, s, _ in games if p in (f, s))) for p in order]
    assert f"<@{order[0]}> wins" in post.content


def bracket(slots: int) -> list[int]:
    """Seeds in bracket order (1 v 8, 4 v 5, 2 v 7, 3 v 6 in eight slots)."""
    order = [1]
    while len(order) < slots:
        order = [s for x in order for s in (x, 2 * len(order) + 1 - x)]
    return order


@pytest.mark.parametrize("n", [6, 9])
async def test_a_knockout_gives_every_bye_to_the_top_seeds_in_round_one_and_ends_with_its_winner(harness, n):
    async with harness.running():
        players = members(harness, n)
        seed = {p.id: k for k, p in enumerate(players, start=1)}
        by_id = {p.id: p for p in players}
        await sign_up(harness, players[0], players, format="knockout", **HEX3)
        slots = 1 << (n - 1).bit_length()
        held: list[int | None] = [players[s - 1].id if s <= n else None for s in bracket(slots)]
        reached = {p: 1 for p in seed}
        number = 0
        while len(held) > 1:
            number += 1
            rnd = await announced(harness, 1, number)
            pairs = [(a, b) for a, b in zip(held[0::2], held[1::2]) if a is not None and b is not None]
            assert sorted(frozenset((f, s)) for _, f, s, _ in rnd.games) == sorted(frozenset(p) for p in pairs)
            assert sorted(rnd.byes) == sorted(a or b for a, b in zip(held[0::2], held[1::2]) if (a is None) != (b is None))
            if number == 1:  # every bye to the top seeds
                assert sorted(seed[b] for b in rnd.byes) == list(range(1, slots - n + 1))
            # the better seed wins, except that the worst seed left beats the second-worst in round 1
            results = await play_out(harness, rnd, by_id, lambda f, s, board: (
                max(f, s, key=seed.get) if number == 1 and board == len(pairs) else min(f, s, key=seed.get)))
            won = {w for *_, w in results}
            held = [a if a is not None and (b is None or a in won) else b for a, b in zip(held[0::2], held[1::2])]
            for p in held:
                if p is not None:
                    reached[p] = number + 1
        post = await final_post(harness, 1)
    assert held[0] is not None and f"<@{held[0]}> wins" in post.content
    rows = table_rows(post.content)
    assert [r[0] for r in rows] == list(range(1, n + 1))
    assert rows[0][1] == by_id[held[0]].name
    assert [r[3] for r in rows] == sorted([(r,) for r in reached.values()], reverse=True)


async def test_a_player_who_lets_two_games_in_a_row_lapse_is_withdrawn_announced_and_not_paired_again(harness):
    async with harness.running():
        players = members(harness, 4)
        by_id = {p.id: p for p in players}
        idle = players[3].id
        await sign_up(harness, players[0], players, game="hex", format="swiss", size=3, swap=False, clock="5m",
                      rounds=3)
        for number in (1, 2):
            rnd = await announced(harness, 1, number)
            for _, f, s, thread in rnd.games:
                if idle not in (f, s):
                    await resign(harness, by_id[s], thread)
                    continue
                other = s if f == idle else f
                if other == f:  # the other player moves first; then the idle player's clock runs
                    r = await harness.move(by_id[f], "a1", channel=harness.fake.channels[thread])
                    assert not r.ephemeral, r.content
                harness.clock.advance(301)
                await harness.fake.wait_for(lambda m: m.channel.id == thread and "Time is up" in (m.content or ""))
                r = await harness.slash(by_id[other], "claim", channel=harness.fake.channels[thread])
                assert not r.ephemeral, r.content
        notice = await harness.fake.wait_for(
            lambda m: m.channel is harness.channel and "two games in a row lapse" in (m.content or ""))
        last = await announced(harness, 1, 3)
    assert f"<@{idle}>" in notice.content
    assert idle not in {x for _, f, s, _ in last.games for x in (f, s)} | set(last.byes)
    assert len(last.games) == 1 and len(last.byes) == 1


async def test_a_rated_tournaments_games_move_ratings_as_any_game_does(harness):
    async with harness.running():
        players = members(harness, 2)
        by_id = {p.id: p for p in players}
        await sign_up(harness, players[0], players, format="knockout", rated=True, **HEX3)
        ((_, f, s, thread),) = (await announced(harness, 1, 1)).games
        await win_by_moves(harness, by_id[f], by_id[s], thread)
        await final_post(harness, 1)
        board = await harness.bot.service.store.leaderboard(harness.channel.guild.id, "hex")
    assert [(r.user_id, r.wins, r.losses) for r in board] == [(f, 1, 0), (s, 0, 1)]


async def test_standings_mid_tournament_are_a_labelled_text_table_and_a_picture(harness):
    async with harness.running():
        players = members(harness, 3)
        by_id = {p.id: p for p in players}
        await sign_up(harness, players[0], players, game="hex", format="swiss", size=3, swap=False, rounds=2)
        rnd = await announced(harness, 1, 1)
        ((_, f, s, thread),) = rnd.games
        await resign(harness, by_id[s], thread)
        second = await announced(harness, 1, 2)
        r = await harness.slash(players[2], "tournament standings")
    assert not r.ephemeral
    assert png_of(r).startswith(PNG)
    assert "BH = Buchholz; SB = Sonneborn-Berger" in r.content
    header = next(line for line in r.content.splitlines() if "player" in line)
    assert header.split() == ["#", "player", "pts", "BH", "SB", "games"]
    # round 2's bye counts already (a point in a Swiss); its game, still on, counts nothing yet
    byes = rnd.byes + second.byes
    seed = {p.id: k for k, p in enumerate(players)}
    points = {p: (p == f) + byes.count(p) for p in seed}
    opponent = {f: s, s: f}
    bh = {p: (points[opponent[p]] if p in opponent else 0) + points[p] * byes.count(p) for p in seed}
    sb = {p: (points[s] if p == f else 0) + points[p] * byes.count(p) for p in seed}
    order = sorted(seed, key=lambda p: (-points[p], -bh[p], -sb[p], seed[p]))
    assert [row[1:5] for row in table_rows(r.content)] == [
        (by_id[p].name, points[p], (bh[p], sb[p]), int(p in opponent)) for p in order]
