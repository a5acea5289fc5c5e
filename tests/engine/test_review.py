"""The review (engine.ai.review), the search's evaluation it rests on, and ``python -m engine … --review``."""

from __future__ import annotations

import json
import random

import pytest

from engine.ai import evaluate
from engine.ai.mcts import Search, watch
from engine.ai.review import TurnReview, mark, move_accuracy, review, summarise, turn_spans
from engine.cli import main
from engine.games import make_options


def _random_inphexion_game(seed: int) -> list[str]:
    rng = random.Random(seed)
    pos = make_options("inphexion", 5, [], None).new_position()
    while pos.outcome is None:
        pos.play(rng.choice(pos.legal_actions()))
    return list(pos.actions)


def test_marks_follow_lichess_thresholds_in_win_probability() -> None:
    assert [mark(d) for d in (0.0, 0.049, 0.05, 0.099, 0.10, 0.149, 0.15, 1.0)] == [
        None, None, "?!", "?!", "?", "?", "??", "??"
    ]


def test_move_accuracy_is_lichess_formula_of_the_drop_in_win_percent() -> None:
    assert move_accuracy(0.0) == 100.0
    assert move_accuracy(-0.2) == 100.0
    # 103.1668100711649·e^(−0.04354415386753951·10) − 3.166924740191411 + 1
    assert move_accuracy(0.10) == pytest.approx(64.5798, abs=1e-3)
    assert move_accuracy(1.0) == 0.0


def test_a_player_who_never_loses_chances_has_accuracy_100_and_the_other_less() -> None:
    turns = [
        TurnReview(0, "a1", "black", 0, 0.5, 0.5, "a1"),
        TurnReview(1, "b1", "white", 1, 0.5, 0.2, "c1", "??"),
        TurnReview(2, "b2", "black", 0, 0.8, 0.85, "b2"),
        TurnReview(3, "c2", "white", 1, 0.15, 0.1, "d2", "?!"),
    ]
    players = summarise(turns, ["black", "white"])
    assert players["black"].accuracy == pytest.approx(100.0)
    assert players["white"].accuracy is not None and players["white"].accuracy < 60
    assert (players["white"].blunders, players["white"].inaccuracies, players["white"].turns) == (1, 1, 2)


def test_the_search_s_own_move_is_never_marked_whatever_the_two_estimates_say() -> None:
    turn = TurnReview(0, "c3", "black", 0, 0.7, 0.4, "c3")
    assert turn.drop == 0.0


def test_an_inphexion_turn_with_relocations_is_one_reviewed_move() -> None:
    actions = _random_inphexion_game(0)
    options = make_options("inphexion", 5, [], None)
    spans = turn_spans(options, actions)
    assert (18, 20) in spans and actions[18:20] == ["e4 e5", "e5>e2"]
    result = review(options, actions, iterations=30, seed=0)
    assert [t.move for t in result.turns] == [" ".join(actions[a:b]) for a, b in spans]
    relocating = next(t for t in result.turns if t.index == 18)
    assert relocating.move == "e4 e5 e5>e2" and relocating.win_before is not None


def test_a_best_inphexion_turn_is_a_whole_legal_turn() -> None:
    actions = _random_inphexion_game(0)[:6]
    options = make_options("inphexion", 5, [], None)
    result = review(options, actions, iterations=30, seed=0)
    pos = options.new_position()
    for turn, action in zip(result.turns, actions):
        assert turn.best is not None
        trial = pos.copy()
        trial.play(turn.best)
        assert trial.to_move != pos.to_move or trial.outcome is not None
        pos.play(action)


def test_blind_hex_reviews_each_letter_and_leaves_card_choices_unmarked() -> None:
    actions = ["aside 3+4", "o:1+5", "x:2+4", "h4", "a2", "e10", "k2"]
    options = make_options("blindhex", None, [], "x")
    result = review(options, actions, iterations=40, seed=0)
    assert [t.move for t in result.turns] == actions
    choices, letters = result.turns[:3], result.turns[3:]
    assert all(not t.reviewed and t.win_before is None and t.mark is None for t in choices)
    assert all(t.reviewed and t.win_before is not None and t.win_after is not None for t in letters)
    pos = options.new_position()
    for action in actions[:3]:
        pos.play(action, action.split(":")[0] if ":" in action else None)
    for turn in letters:
        assert turn.best in pos.legal_actions()
        pos.play(turn.move)
    # 'k2' ends the round: o's value there comes from random games, x's is its complement.
    assert result.turns[-1].player == "o"


def test_a_hex_virtual_win_is_proved_and_worth_exactly_one() -> None:
    pos = make_options("hex", 5, [], None).new_position()
    pos.play("c3")
    pos.play("a1")
    ev = evaluate(pos, iterations=50, seed=0)
    assert (ev.player, ev.win, ev.proven) == ("black", 1.0, True)


def test_before_a_pie_rule_swap_the_first_stone_is_not_claimed_a_proved_win() -> None:
    pos = make_options("hex", 5, ["swap"], None).new_position()
    ev = evaluate(pos, iterations=50, seed=0)
    assert not ev.proven and ev.win is None


def test_watch_collects_the_searches_made_inside_it_only() -> None:
    pos = make_options("inphexion", 5, [], None).new_position()
    with watch() as found:
        evaluate(pos, iterations=20, seed=0)
    evaluate(pos, iterations=20, seed=0)
    assert found and all(isinstance(s, Search) for s in found)
    assert len(found) == len({id(s) for s in found})


def test_the_same_seed_gives_the_same_review() -> None:
    options = make_options("hex", 4, [], None)
    actions = ["b2", "c2", "b3", "a4"]
    first = [t.to_json() for t in review(options, actions, iterations=60, seed=3).turns]
    assert first == [t.to_json() for t in review(options, actions, iterations=60, seed=3).turns]


def test_cli_review_prints_one_json_object_per_move_then_the_summary(capsys) -> None:
    status = main(["hex", "--size", "4", "b2", "c2", "b3", "--review", "--iterations", "40"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0 and len(lines) == 4
    for line, move, player in zip(lines, ["b2", "c2", "b3"], ["black", "white", "black"]):
        assert set(line) == {"move", "player", "win_before", "win_after", "best", "mark", "proved_before", "proved_after"}
        assert (line["move"], line["player"]) == (move, player)
        assert 0.0 <= line["win_before"] <= 1.0 and 0.0 <= line["win_after"] <= 1.0
    assert set(lines[-1]["summary"]) == {"black", "white"} and lines[-1]["iterations"] == 40
    assert set(lines[-1]["summary"]["white"]) == {"accuracy", "turns", "?!", "?", "??"}


def test_cli_review_of_an_illegal_record_is_the_usual_error(capsys) -> None:
    status = main(["hex", "--size", "4", "b2", "b2", "--review"])
    assert status == 2
    assert json.loads(capsys.readouterr().out)["move"] == 1


def test_cli_review_refuses_a_budget_below_one(capsys) -> None:
    status = main(["hex", "--size", "4", "b2", "--review", "--iterations", "0"])
    assert status == 2
    assert "iterations" in json.loads(capsys.readouterr().out)["error"]
