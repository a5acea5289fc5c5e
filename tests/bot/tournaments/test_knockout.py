"""Knockout: the bracket's shape, byes to the top seeds, winners advancing; whole tournaments of 2–9 players."""

from __future__ import annotations

import pytest

from bot.tournaments import Settings, next_round, start, winner
from bot.tournaments.knockout import bracket_size, seeding_order
from tests.bot.tournaments.play import play, signups

FIELDS = range(2, 10)


#: the standard seeded brackets, as published draw sheets print them (top to bottom)
BRACKETS = {
    2: [1, 2],
    4: [1, 4, 2, 3],
    8: [1, 8, 4, 5, 2, 7, 3, 6],
    16: [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11],
}


def standard_order(slots: int) -> list[int]:
    """The bracket order of a power-of-two bracket from :data:`BRACKETS`."""
    return BRACKETS[slots]


@pytest.mark.parametrize("slots", sorted(BRACKETS))
def test_the_bracket_is_the_standard_seeded_draw(slots):
    assert seeding_order(slots) == BRACKETS[slots]


@pytest.mark.parametrize("slots", sorted(BRACKETS))
def test_the_top_two_seeds_can_only_meet_in_the_final(slots):
    order = seeding_order(slots)
    assert (order.index(1) < slots // 2) != (order.index(2) < slots // 2)


@pytest.mark.parametrize("n", FIELDS)
def test_the_bracket_has_the_least_power_of_two_at_least_n_slots(n):
    size = bracket_size(n)
    assert size >= n and size & (size - 1) == 0 and size // 2 < n


@pytest.mark.parametrize("n", FIELDS)
def test_every_bye_is_in_round_one_and_goes_to_the_top_seeds(n):
    final = play(Settings("knockout"), n, n).final
    first = final.rounds[0]
    size = bracket_size(n)
    assert sorted(final.seed(p) for p in first.byes) == list(range(1, size - n + 1))
    assert all(not r.byes for r in final.rounds[1:])


@pytest.mark.parametrize("n", FIELDS)
def test_round_one_pairs_seed_s_with_the_seed_the_bracket_puts_beside_it(n):
    t = start(Settings("knockout"), signups(n))
    size = bracket_size(n)
    pairs = {frozenset((t.seed(g.first), t.seed(g.second))) for g in next_round(t).pairings}
    assert pairs == {frozenset((s, size + 1 - s)) for s in range(1, size // 2 + 1) if size + 1 - s <= n}


@pytest.mark.parametrize("n", FIELDS)
def test_winners_of_neighbouring_matches_meet_next(n):
    for seed in range(5):
        final = play(Settings("knockout"), n, seed).final
        # walk the bracket independently: the slots of each round are the winners of the last, in order
        by_seed = {e.seed: e.player for e in final.entrants}
        held = [by_seed.get(s) for s in standard_order(bracket_size(n))]
        for rnd in final.rounds:
            games = {frozenset(g.players): g for g in rnd.pairings}
            nxt = []
            for a, b in zip(held[0::2], held[1::2]):
                if a and b:
                    g = games.pop(frozenset((a, b)))
                    nxt.append(final.result_of(rnd.number, g).winner)
                else:
                    assert (a or b) in rnd.byes
                    nxt.append(a or b)
            assert not games
            held = nxt
        assert held == [winner(final)]


@pytest.mark.parametrize("n", FIELDS)
def test_a_knockout_has_log2_of_its_bracket_rounds_and_the_winner_won_every_game(n):
    final = play(Settings("knockout"), n, 1).final
    assert len(final.rounds) == bracket_size(n).bit_length() - 1
    champion = winner(final)
    games = [final.result_of(r.number, g) for r in final.rounds for g in r.pairings if champion in g.players]
    assert games and all(res.winner == champion for res in games)


@pytest.mark.parametrize("n", FIELDS)
def test_a_player_who_loses_never_plays_again(n):
    final = play(Settings("knockout"), n, 2).final
    out: set[str] = set()
    for rnd in final.rounds:
        assert not out & {*rnd.players, *rnd.byes}
        out |= {final.result_of(rnd.number, g).loser for g in rnd.pairings}
