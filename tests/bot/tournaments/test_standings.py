"""Points, Buchholz, Sonneborn-Berger, direct encounter and the order of the table, on small tournaments worked by hand."""

from __future__ import annotations

import pytest

from bot.tournaments import COLUMN_NAMES, COLUMNS, Settings, is_over, standings, winner
from tests.bot.tournaments.build import build
from tests.bot.tournaments.play import play
from tests.bot.tournaments.reference import byes_of, raw_games, swiss_points

# A beats C and D and loses to B; D beats B and C: A 2, D 2, B 1, C 1
SWISS_FOUR = [["AC>A", "BD>D"], ["AD>A", "CB>C"], ["AB>B", "DC>D"]]
# C: bye, beats A, beats B (3); A: beats B, bye (2); B: bye (1)
SWISS_BYES = [["AB>A", "-C"], ["CA>C", "-B"], ["CB>C", "-A"]]
# A beats B, C, D; B beats C, E; C beats E; D beats B, C; E beats A, D (points A 3, B 2, C 1, D 2, E 2)
ROUND_ROBIN_FIVE = [["AB>A", "CE>C"], ["AC>A", "DB>D"], ["AD>A", "BC>B"], ["EA>E", "DC>D"], ["BE>B", "ED>E"]]


def table(t):
    """The standings as {player: (rank, points, tie-breaks, games)}."""
    return {s.player: (s.rank, s.points, s.tiebreaks, s.games) for s in standings(t)}


def test_swiss_buchholz_is_the_sum_of_the_opponents_points():
    got = table(build(Settings("swiss", rounds=3), "ABCD", SWISS_FOUR))
    assert {p: v[2][0] for p, v in got.items()} == {"A": 4, "B": 5, "C": 5, "D": 4}


def test_swiss_sonneborn_berger_is_the_sum_of_the_points_of_the_opponents_beaten():
    got = table(build(Settings("swiss", rounds=3), "ABCD", SWISS_FOUR))
    assert {p: v[2][1] for p, v in got.items()} == {"A": 3, "B": 2, "C": 1, "D": 2}


def test_swiss_ranks_by_points_then_buchholz_then_sonneborn_berger():
    got = table(build(Settings("swiss", rounds=3), "ABCD", SWISS_FOUR))
    # A and D: 2 points, Buchholz 4 each, SB 3 v 2; B and C: 1 point, Buchholz 5 each, SB 2 v 1
    assert sorted(got, key=lambda p: got[p][0]) == ["A", "D", "B", "C"]


def test_a_swiss_bye_is_a_point_and_counts_the_players_own_points_in_both_tie_breaks():
    got = table(build(Settings("swiss", rounds=3), "ABC", SWISS_BYES))
    assert {p: v[1] for p, v in got.items()} == {"A": 2, "B": 1, "C": 3}
    # Buchholz: A: B 1 + C 3 + own 2; B: A 2 + own 1 + C 3; C: own 3 + A 2 + B 1
    assert {p: v[2] for p, v in got.items()} == {"A": (6, 3), "B": (6, 1), "C": (6, 6)}


def test_games_played_do_not_count_byes():
    got = table(build(Settings("swiss", rounds=3), "ABC", SWISS_BYES))
    assert {p: v[3] for p, v in got.items()} == {"A": 2, "B": 2, "C": 2}


def test_round_robin_sonneborn_berger_and_direct_encounter():
    got = table(build(Settings("round-robin"), "ABCDE", ROUND_ROBIN_FIVE))
    # SB: A: B2 + C1 + D2; B: C1 + E2; C: E2; D: B2 + C1; E: A3 + D2. Only B and D are level (2 points, SB 3).
    assert {p: v[2] for p, v in got.items()} == {"A": (5, None), "B": (3, 0), "C": (2, None), "D": (3, 1), "E": (5, None)}


def test_round_robin_direct_encounter_ranks_the_winner_of_their_game_above_a_better_seed():
    got = table(build(Settings("round-robin"), "ABCDE", ROUND_ROBIN_FIVE))
    assert sorted(got, key=lambda p: got[p][0]) == ["A", "E", "D", "B", "C"]


def test_a_game_lost_on_time_counts_as_a_loss_and_a_win():
    t = build(Settings("swiss", rounds=1), "AB", [["AB>B!"]])
    assert table(t) == {"B": (1, 1, (0, 0), 1), "A": (2, 0, (1, 0), 1)}


def test_every_format_labels_its_tie_break_columns_in_the_issues_order():
    assert COLUMNS == {"swiss": ("BH", "SB"), "round-robin": ("SB", "DE"), "knockout": ("Rd",)}
    assert [COLUMN_NAMES[c] for c in COLUMNS["swiss"]] == ["Buchholz", "Sonneborn-Berger"]
    assert [COLUMN_NAMES[c] for c in COLUMNS["round-robin"]] == ["Sonneborn-Berger", "direct encounter"]


def test_knockout_ranks_by_the_round_reached_with_the_winner_first():
    t = build(Settings("knockout"), "ABCD", [["AD>A", "BC>C"], ["AC>C"]])
    got = table(t)
    assert sorted(got, key=lambda p: got[p][0]) == ["C", "A", "B", "D"]
    assert {p: v[2] for p, v in got.items()} == {"C": (3,), "A": (2,), "B": (1,), "D": (1,)}
    assert winner(t) == "C"


def independent_tiebreaks(t):
    """Buchholz and SB from raw games: a Swiss bye counts own points in both."""
    pts = swiss_points(t)
    bh = {p: k * pts[p] for p, k in byes_of(t).items()}
    sb = dict(bh)
    for _, a, b, w in raw_games(t):
        bh[a] += pts[b]
        bh[b] += pts[a]
        sb[w] += pts[b if w == a else a]
    return bh, sb


@pytest.mark.parametrize("n", range(2, 10))
def test_swiss_standings_of_whole_tournaments_match_an_independent_count(n):
    for seed in range(3):
        t = play(Settings("swiss"), n, seed, lapse_rate=0.2).final
        pts = swiss_points(t)
        bh, sb = independent_tiebreaks(t)
        rows = standings(t)
        assert [(s.player, s.points, s.tiebreaks) for s in rows] == \
            sorted(((p, pts[p], (bh[p], sb[p])) for p in pts), key=lambda r: (-r[1], -r[2][0], -r[2][1], t.seed(r[0])))
        assert [s.rank for s in rows] == list(range(1, n + 1))


@pytest.mark.parametrize("fmt", ["swiss", "round-robin"])
def test_the_winner_is_first_in_the_final_standings(fmt):
    t = play(Settings(fmt), 7, 3).final
    assert is_over(t) and winner(t) == standings(t)[0].player
