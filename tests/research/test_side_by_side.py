"""``research/side_by_side.py``: the positions it measures, and each side's speed on them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from research import side_by_side
from tests.research.match_log import game_line, match_log

BENCH = vars(side_by_side)
FAKE = str(Path(__file__).with_name("fake_mohex.py"))

#: a 7×7 game (the opening book holds 9×9 and 11×11 only, so our AI searches every position)
SEVEN = "d4 c5 c4 b5 b4 a5 e3 e2 f2 f1 a4 d3 c3 d2 c2 d1 g1".split()


def _log(tmp_path: Path, games: list[tuple[int, list[str]]]) -> str:
    lines = [game_line(size, i, opening=moves[0], ours="black", moves=moves) for i, (size, moves) in enumerate(games)]
    return str(match_log(tmp_path / "match.err", lines))


def test_positions_are_each_games_first_moves_at_each_ply_asked(tmp_path):
    moves = [f"a{i}" for i in range(1, 12)] + [f"b{i}" for i in range(1, 12)]
    log = _log(tmp_path, [(11, moves)])
    assert BENCH["positions"]([log], 11, [3, 9], 10) == [moves[:3], moves[:9]]


def test_positions_leave_out_other_sizes_and_games_that_end_within_six_plies(tmp_path):
    long_game = [f"a{i}" for i in range(1, 12)] + [f"b{i}" for i in range(1, 12)]
    log = _log(tmp_path, [(9, long_game[:20]), (11, long_game[:12]), (11, long_game)])
    assert BENCH["positions"]([log], 11, [9], 10) == [long_game[:9]]


def test_positions_stop_at_the_count_asked(tmp_path):
    moves = [f"a{i}" for i in range(1, 12)] + [f"b{i}" for i in range(1, 12)]
    log = _log(tmp_path, [(11, moves), (11, moves)])
    assert len(BENCH["positions"]([log], 11, [3, 9], 3)) == 3


def test_mohex_speed_is_the_games_a_second_its_log_gives(monkeypatch):
    monkeypatch.setenv("FAKE_MOHEX_MOVE", "c3")
    monkeypatch.setenv("FAKE_MOHEX_LOG", "Games/s     1234.5")
    assert BENCH["mohex_speeds"](FAKE, 7, [SEVEN[:4], SEVEN[:8]], 0.1) == [1234.5, 1234.5]


def test_a_mohex_search_without_statistics_gives_no_speed(monkeypatch):
    monkeypatch.setenv("FAKE_MOHEX_MOVE", "c3")
    monkeypatch.setenv("FAKE_MOHEX_LOG", "Winning sequence found")
    assert BENCH["mohex_speeds"](FAKE, 7, [SEVEN[:4]], 0.1) == []


def test_our_speed_is_given_for_each_position_our_search_searched():
    speeds = BENCH["our_speeds"](7, [SEVEN[:1], SEVEN[:2]], 0.05)
    assert len(speeds) == 2 and all(s > 0 for s in speeds)


def test_a_position_our_connections_decide_gives_no_speed():
    # After four stones Black's connections already win: the root's knowledge answers, no search runs.
    assert BENCH["our_speeds"](7, [SEVEN[:4]], 0.05) == []


def test_sides_run_at_once_give_their_results_in_order():
    assert BENCH["at_once"]([(sorted, ([3.0, 1.0],)), (list, ((2.0,),))]) == [[1.0, 3.0], [2.0]]


def test_a_position_mohex_crashes_on_gives_no_speed_and_the_next_is_still_measured(monkeypatch, tmp_path):
    # The fake crashes on every genmove unless FAKE_MOHEX_MOVE is set: a one-shot flag file lets the
    # first search crash and the second answer.
    flag = tmp_path / "crashed"
    wrapper = tmp_path / "mohex.sh"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'if [ -e "{flag}" ]; then export FAKE_MOHEX_MOVE=c3; else touch "{flag}"; fi\n'
        f'exec "{sys.executable}" "{FAKE}"\n'
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("FAKE_MOHEX_LOG", "Games/s     99.0")
    assert BENCH["mohex_speeds"](str(wrapper), 7, [SEVEN[:4], SEVEN[:8]], 0.1) == [99.0]


def test_a_side_that_fails_fails_the_run_instead_of_hanging():
    with pytest.raises(ZeroDivisionError):
        BENCH["at_once"]([(divmod, (1, 0))])
