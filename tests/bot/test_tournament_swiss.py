"""A whole Swiss through the fake Discord on both databases: moves, resignations and a withdrawal,
every round checked against the Swiss rules brute-forced here, the standings recomputed here."""

from __future__ import annotations

from tests.bot.tournament_driver import announced, final_post, members, resign, sign_up, table_rows, win_by_moves
from tests.bot.tournaments.reference import arrangements


def legal(games, bye, met, had_bye) -> bool:
    """No rematch and no second bye."""
    return bye not in had_bye and not any(frozenset(g) in met for g in games)


def check_round(games, bye, ranked, points, met, had_bye, look_ahead: bool) -> None:
    """The round is legal, keeps the next round pairable (when one follows), gives the bye to the
    lowest-ranked player without one, and floats as little as any such pairing could."""
    assert legal(games, bye, met, had_bye)

    def fresh_after(gs, b) -> bool:
        met2, had2 = met | {frozenset(g) for g in gs}, had_bye | ({b} if b is not None else set())
        return any(legal(g2, b2, met2, had2) for g2, b2 in arrangements(ranked))

    options = [(g, b) for g, b in arrangements(ranked) if legal(g, b, met, had_bye)]
    if look_ahead and any(fresh_after(g, b) for g, b in options):
        assert fresh_after(games, bye)
        options = [(g, b) for g, b in options if fresh_after(g, b)]

    def cost(gs, b):
        bye_rank = 0 if b is None else -ranked.index(b)
        return bye_rank, sum((points[x] - points[y]) ** 2 for x, y in gs)

    assert cost(games, bye) == min(cost(g, b) for g, b in options)


async def test_a_swiss_of_five_with_a_withdrawal_pairs_by_the_rules_and_ranks_by_buchholz_then_sb_on_both_databases(
        harness):
    async with harness.running():
        players = members(harness, 5)
        seed = {p.id: k for k, p in enumerate(players, start=1)}
        by_id = {p.id: p for p in players}
        leaver = players[1].id  # withdraws during round 2
        await sign_up(harness, players[0], players, game="hex", format="swiss", size=3, swap=False, rounds=3)
        points = {p: 0 for p in seed}
        met: set[frozenset[int]] = set()
        had_bye: set[int] = set()
        games: list[tuple[int, int, int]] = []
        byes: list[int] = []
        gone: set[int] = set()
        for number in (1, 2, 3):
            rnd = await announced(harness, 1, number)
            ranked = sorted((p for p in seed if p not in gone), key=lambda p: (-points[p], seed[p]))
            pairs = [(f, s) for _, f, s, _ in rnd.games]
            check_round(pairs, rnd.byes[0] if rnd.byes else None, ranked, points, met, had_bye, number < 3)
            for b in rnd.byes:
                byes.append(b)
                had_bye.add(b)
            for board, f, s, thread in rnd.games:
                met.add(frozenset((f, s)))
                if number == 2 and leaver in (f, s):
                    r = await harness.slash(by_id[leaver], "tournament withdraw")
                    assert r.ephemeral and "withdrawn" in r.content
                    gone.add(leaver)
                    w = s if f == leaver else f
                elif board == 1:
                    await win_by_moves(harness, by_id[f], by_id[s], thread)
                    w = f
                else:
                    await resign(harness, by_id[f], thread)
                    w = s
                games.append((f, s, w))
            if number == 2 and leaver not in gone:  # had the bye: withdraws all the same
                await harness.slash(by_id[leaver], "tournament withdraw")
                gone.add(leaver)
            points = {p: sum(1 for *_, w in games if w == p) + byes.count(p) for p in seed}
        post = await final_post(harness, 1)
    assert leaver not in {x for f, s, _ in games[-2:] for x in (f, s)}  # not paired after withdrawing
    bh = {p: sum(points[s if f == p else f] for f, s, _ in games if p in (f, s)) + points[p] * byes.count(p)
          for p in seed}
    sb = {p: sum(points[s if f == p else f] for f, s, w in games if w == p) + points[p] * byes.count(p) for p in seed}
    order = sorted(seed, key=lambda p: (-points[p], -bh[p], -sb[p], seed[p]))
    assert [(r[1], r[2], r[3], r[4], r[5]) for r in table_rows(post.content)] == [
        (by_id[p].name, points[p], (bh[p], sb[p]), sum(1 for f, s, _ in games if p in (f, s)), p in gone)
        for p in order]
    winner = next(p for p in order if p not in gone)
    assert f"<@{winner}> wins" in post.content
