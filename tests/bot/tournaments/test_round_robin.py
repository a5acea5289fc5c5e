"""Round robin by Berger tables: whole single and double tournaments of 3–9 players."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from bot.tournaments import Settings, TournamentError, next_round, start
from bot.tournaments.roundrobin import berger_round
from tests.bot.tournaments.play import play, signups

FIELDS = range(3, 10)

#: FIDE's published Berger table for six players (Handbook C.05, Annex 1), as (first seat, second seat)
FIDE_SIX = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def test_the_six_player_table_is_fides():
    assert [berger_round(6, r) for r in range(1, 6)] == FIDE_SIX


@pytest.mark.parametrize("n", FIELDS)
def test_everyone_meets_everyone_exactly_once(n):
    final = play(Settings("round-robin"), n, n).final
    met = Counter(frozenset(g.players) for r in final.rounds for g in r.pairings)
    assert set(met) == {frozenset(p) for p in combinations([e.player for e in final.entrants], 2)}
    assert set(met.values()) == {1}


@pytest.mark.parametrize("n", FIELDS)
def test_a_double_round_robin_meets_everyone_twice_with_seats_swapped(n):
    final = play(Settings("round-robin", cycles=2), n, n).final
    seated = Counter(g.players for r in final.rounds for g in r.pairings)
    for a, b in combinations([e.player for e in final.entrants], 2):
        assert seated[(a, b)] == 1 and seated[(b, a)] == 1


@pytest.mark.parametrize("n", FIELDS)
def test_the_second_cycle_repeats_the_first_with_seats_swapped(n):
    final = play(Settings("round-robin", cycles=2), n, 0).final
    half = len(final.rounds) // 2
    for first, second in zip(final.rounds[:half], final.rounds[half:]):
        assert [(g.second, g.first) for g in first.pairings] == [g.players for g in second.pairings]


@pytest.mark.parametrize("n", FIELDS)
def test_a_round_robin_has_n_minus_one_rounds_or_n_in_an_odd_field(n):
    assert len(play(Settings("round-robin"), n, 0).final.rounds) == (n if n % 2 else n - 1)


@pytest.mark.parametrize("n", [k for k in FIELDS if k % 2])
def test_in_an_odd_field_everyone_has_exactly_one_bye_per_cycle(n):
    final = play(Settings("round-robin"), n, 0).final
    byes = Counter(p for r in final.rounds for p in r.byes)
    assert all(len(r.byes) == 1 for r in final.rounds)
    assert byes == Counter({e.player: 1 for e in final.entrants})


@pytest.mark.parametrize("n", [k for k in FIELDS if k % 2 == 0])
def test_in_an_even_field_everyone_has_each_seat_within_one_game_as_often(n):
    final = play(Settings("round-robin"), n, 0).final
    for e in final.entrants:
        seats = [g.seat_of(e.player).value for r in final.rounds for g in r.pairings if e.player in g.players]
        assert abs(seats.count("first") - seats.count("second")) <= 1


@pytest.mark.parametrize("n", FIELDS)
def test_seeds_are_the_berger_numbers(n):
    t = start(Settings("round-robin"), signups(n))
    slots = n + n % 2
    expected = [(a, b) for a, b in berger_round(slots, 1) if a <= n and b <= n]
    assert [(t.seed(g.first), t.seed(g.second)) for g in next_round(t).pairings] == expected


def test_a_round_robin_of_two_is_refused():
    with pytest.raises(TournamentError, match="at least 3"):
        start(Settings("round-robin"), signups(2))


def test_only_a_round_robin_can_be_double():
    with pytest.raises(TournamentError, match="round robin"):
        Settings("swiss", cycles=2)
