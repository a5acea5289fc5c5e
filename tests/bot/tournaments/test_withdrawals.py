"""Withdrawals: on request or after two lapsed games in a row; later rounds pair without the player, results stand."""

from __future__ import annotations

import pytest

from bot.tournaments import Ending, Settings, TournamentError, is_over, next_round, standings, to_withdraw, winner
from tests.bot.tournaments.build import build
from tests.bot.tournaments.play import play

FORMATS = [Settings("swiss"), Settings("round-robin"), Settings("knockout")]


@pytest.mark.parametrize("settings", FORMATS, ids=lambda s: s.format)
@pytest.mark.parametrize("n", [4, 5, 8, 9])
def test_a_withdrawn_player_is_never_paired_again(settings, n):
    played = play(settings, n, n, withdraw=(1, 2))
    quitter = next(e.player for e in played.final.entrants if e.seed == 2)
    for _, rnd in played.steps[1:]:
        assert quitter not in rnd.players and quitter not in rnd.byes


@pytest.mark.parametrize("settings", FORMATS, ids=lambda s: s.format)
def test_a_withdrawn_players_results_stand(settings):
    t = play(settings, 6, 1, withdraw=(2, 1)).final
    quitter = next(e.player for e in t.entrants if e.seed == 1)
    wins = sum(1 for r in t.results if r.winner == quitter)
    row = next(s for s in standings(t) if s.player == quitter)
    assert row.withdrawn and row.points == wins + (1 if t.settings.format == "swiss" and t.rounds[0].byes == (quitter,) else 0)


def test_the_game_a_player_withdraws_from_is_lost():
    played = play(Settings("swiss"), 4, 0, withdraw=(2, 3))
    t = played.final
    quitter = next(e.player for e in t.entrants if e.seed == 3)
    (res,) = [r for r in t.results if r.round == 2 and quitter in r.pairing.players]
    assert res.loser == quitter and res.ending is Ending.WITHDREW


def test_in_a_round_robin_the_withdrawn_players_scheduled_opponents_sit_out():
    t = build(Settings("round-robin"), "ABCD", [["AD>A", "BC>B"]]).with_withdrawal("A")
    rnd = next_round(t)  # Berger round 2 of four: 1–2 (A–B) and 4–3 (D–C)
    assert [g.players for g in rnd.pairings] == [("D", "C")] and rnd.byes == ("B",)


def test_in_a_knockout_the_withdrawn_players_next_opponent_goes_through():
    # eight seeds A..H: round 1 is 1–8, 4–5, 2–7, 3–6; A (1) then withdraws before meeting the 4–5 winner
    t = build(Settings("knockout"), "ABCDEFGH", [["AH>A", "DE>E", "BG>B", "CF>C"]]).with_withdrawal("A")
    rnd = next_round(t)
    assert [g.players for g in rnd.pairings] == [("C", "B")] and rnd.byes == ("E",)


def test_a_knockout_whose_finalist_withdraws_is_won_by_the_other():
    t = build(Settings("knockout"), "ABCD", [["AD>A", "BC>C"]]).with_withdrawal("A")
    assert is_over(t) and winner(t) == "C"


def test_two_games_lost_on_time_in_a_row_withdraw_a_player():
    t = build(Settings("swiss", rounds=3), "ABCD", [["AB>B!", "CD>C"], ["AC>C!", "BD>B"]])
    assert to_withdraw(t) == ("A",)


def test_a_lapse_then_a_resignation_withdraws_nobody():
    t = build(Settings("swiss", rounds=3), "ABCD", [["AB>B!", "CD>C"], ["AC>C", "BD>B"]])
    assert to_withdraw(t) == ()


def test_a_win_between_two_lapses_breaks_the_run():
    t = build(Settings("swiss", rounds=3), "ABCD", [["AB>B!", "CD>C"], ["AD>A", "BC>B"], ["AC>C!", "BD>B"]])
    assert to_withdraw(t) == ()


def test_a_bye_between_two_lapses_does_not_break_the_run():
    t = build(Settings("swiss", rounds=3), "ABC", [["AB>B!", "-C"], ["-A", "BC>B"], ["CA>C!", "-B"]])
    assert to_withdraw(t) == ("A",)


def test_an_abandoned_game_is_a_lapse():
    t = build(Settings("swiss", rounds=3), "ABCD", [["AB>B!", "CD>C"], ["AC>C?", "BD>B"]])
    assert to_withdraw(t) == ("A",)


@pytest.mark.parametrize("settings", FORMATS, ids=lambda s: s.format)
def test_players_withdrawn_for_lapsing_had_their_last_two_games_lapse(settings):
    for seed in range(6):
        t = play(settings, 8, seed, lapse_rate=0.35).final
        for w in t.withdrawals:
            games = [r for r in t.results if w.player in r.pairing.players and r.round <= w.round]
            assert w.reason == "lapsed"
            assert [r.loser == w.player and r.ending.lapse for r in games[-2:]] == [True, True]


def test_withdrawing_twice_is_refused():
    t = build(Settings("swiss", rounds=3), "ABCD", []).with_withdrawal("A")
    with pytest.raises(TournamentError, match="already withdrawn"):
        t.with_withdrawal("A")
