"""``python -m engine``: the JSON contract, exit codes, records (issue #2)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"game", "size", "variants", "to_move", "phase", "board", "hands", "aside", "legal", "winner", "reason"}


def run(capsys, *argv: str) -> tuple[int, dict]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def needs(module: str):
    return pytest.mark.skipif(importlib.util.find_spec(module) is None, reason=f"{module} is not written yet")


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["inphexion"], marks=needs("engine.inphexion")),
        ["hex"],
        ["hex", "--size", "5", "--variant", "swap", "c3"],
        ["blindhex"],
        ["blindhex", "--first", "o", "aside 1+2"],
    ],
)
def test_the_json_has_the_same_keys_for_every_game(capsys, argv):
    code, data = run(capsys, *argv)
    assert code == 0 and set(data) == KEYS and data["game"] == argv[0]


def test_hex_json_shows_board_turn_and_legal_actions(capsys):
    code, data = run(capsys, "hex", "--size", "3", "b2", "a1")
    assert code == 0
    assert data == {
        "game": "hex", "size": 3, "variants": [], "to_move": ["black"], "phase": "place",
        "board": ["W..", ".B.", "..."], "hands": None, "aside": None,
        "legal": ["a2", "a3", "b1", "b3", "c1", "c2", "c3"], "winner": None, "reason": None,
    }


def test_hex_defaults_to_size_11(capsys):
    _, data = run(capsys, "hex")
    assert data["size"] == 11 and len(data["board"]) == 11 and len(data["legal"]) == 121


def test_a_finished_game_shows_winner_and_reason(capsys):
    _, data = run(capsys, "hex", "--size", "3", "a1", "b1", "a2", "b2", "a3")
    assert (data["phase"], data["to_move"], data["legal"], data["winner"], data["reason"]) == (
        "over", [], [], "black", "connection",
    )


def test_options_may_come_after_the_actions(capsys):
    code, data = run(capsys, "hex", "c3", "--size", "5", "d4")
    assert code == 0 and data["size"] == 5 and data["board"][2] == "..B.."


def test_variants_may_be_repeated(capsys):
    _, data = run(capsys, "hex", "--size", "5", "--variant", "swap", "--variant", "swap")
    assert data["variants"] == ["swap"]


def test_blind_hex_json_shows_cards_and_the_cut(capsys):
    _, data = run(capsys, "blindhex", "--first", "o", "aside 1+2")
    assert data["to_move"] == ["o", "x"] and data["phase"] == "choose"
    assert data["hands"] == {"o": [1, 2, 3, 4, 5], "x": [3, 4, 5]} and data["aside"] == {"o": [], "x": [1, 2]}


def test_blind_hex_defaults_the_cut_to_x(capsys):
    _, data = run(capsys, "blindhex")
    assert data["to_move"] == ["o"] and data["phase"] == "aside"


def test_blind_hex_json_does_not_show_a_pending_choice(capsys):
    _, before = run(capsys, "blindhex", "aside 4+5")
    _, after = run(capsys, "blindhex", "aside 4+5", "x:1+2")
    assert after["to_move"] == ["o"]
    assert {k: v for k, v in after.items() if k not in ("to_move", "legal")} == {
        k: v for k, v in before.items() if k not in ("to_move", "legal")
    }


def test_an_illegal_action_exits_2_with_its_index(capsys):
    code, data = run(capsys, "hex", "--size", "5", "c3", "c3")
    assert code == 2 and data["move"] == 1 and "c3 already holds" in data["error"]


def test_an_unparsable_action_exits_2_with_its_index(capsys):
    code, data = run(capsys, "hex", "--size", "5", "c3", "d4", "hello")
    assert code == 2 and set(data) == {"error", "move"} and data["move"] == 2


def test_an_action_after_the_end_exits_2(capsys):
    code, data = run(capsys, "hex", "--size", "3", "a1", "b1", "a2", "b2", "a3", "c3")
    assert code == 2 and data["move"] == 5 and "over" in data["error"]


def test_bad_options_exit_2_with_no_move(capsys):
    code, data = run(capsys, "hex", "--size", "2")
    assert code == 2 and data["move"] is None and "3–19" in data["error"]


def test_a_variant_the_game_does_not_offer_exits_2(capsys):
    code, data = run(capsys, "blindhex", "--variant", "swap")
    assert code == 2 and data["move"] is None


def test_actions_are_read_from_a_record_file(capsys, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("# game: hex\n# size: 5\nc3\n\nd4\n", encoding="utf-8")
    code, data = run(capsys, "hex", "--size", "5", "--record", str(path))
    assert code == 0 and data["board"][2] == "..B.." and data["board"][3] == "...W."


def test_record_actions_follow_the_command_line_actions(capsys, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("d4\n", encoding="utf-8")
    _, data = run(capsys, "hex", "--size", "5", "c3", "--record", str(path))
    assert data["to_move"] == ["black"] and data["board"][3] == "...W."


def test_an_error_in_a_record_file_counts_every_action(capsys, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("d4\nd4\n", encoding="utf-8")
    code, data = run(capsys, "hex", "--size", "5", "c3", "--record", str(path))
    assert code == 2 and data["move"] == 2


def test_a_missing_record_file_exits_2(capsys, tmp_path):
    code, data = run(capsys, "hex", "--record", str(tmp_path / "missing.txt"))
    assert code == 2 and data["move"] is None


def test_python_m_engine_prints_json_and_exits_0():
    done = subprocess.run(
        [sys.executable, "-m", "engine", "blindhex", "aside 5 4", "x:4+1", "o:2+3"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["phase"] == "write" and data["to_move"] == ["x"] and data["hands"] == {"o": [1], "x": [2, 3, 5]}


def test_python_m_engine_exits_2_on_an_illegal_action():
    done = subprocess.run(
        [sys.executable, "-m", "engine", "hex", "--size", "5", "swap"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert done.returncode == 2 and json.loads(done.stdout)["move"] == 0
