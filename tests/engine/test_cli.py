"""``python -m engine``: the JSON contract, exit codes, records (issue #2)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Record, new_game
from engine.cli import build_parser, main

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


# -- record headers ---------------------------------------------------------------------------
def _record_file(tmp_path, game: str, size: int | None = None, variants=(), first=None, *actions: str) -> str:
    """A record file written by Record.to_text for a game with these options and actions."""
    pos = new_game(game, size, variants, first)
    for action in actions:
        pos.play(action)
    path = tmp_path / "game.txt"
    path.write_text(Record.of(pos).to_text(), encoding="utf-8")
    return str(path)


def test_record_headers_supply_the_size_and_variants_not_given(capsys, tmp_path):
    path = _record_file(tmp_path, "hex", 5, ("swap",), None, "c3", "swap")
    code, data = run(capsys, "hex", "--record", path)
    assert code == 0 and (data["size"], data["variants"], data["to_move"]) == (5, ["swap"], ["white"])


def test_a_record_header_supplies_the_blind_hex_cut_winner(capsys, tmp_path):
    path = _record_file(tmp_path, "blindhex", None, (), "o", "aside 1+2")
    code, data = run(capsys, "blindhex", "--record", path)
    assert code == 0 and data["phase"] == "choose" and data["aside"] == {"o": [], "x": [1, 2]}


def test_record_headers_that_agree_with_the_options_given_are_accepted(capsys, tmp_path):
    path = _record_file(tmp_path, "hex", 5, ("swap",), None, "c3")
    code, data = run(capsys, "hex", "--size", "5", "--variant", "swap", "--record", path)
    assert code == 0 and data["size"] == 5 and "swap" in data["legal"]


def test_a_record_of_another_game_exits_2_with_no_move(capsys, tmp_path):
    path = _record_file(tmp_path, "hex", 5)
    code, data = run(capsys, "blindhex", "--record", path)
    assert code == 2 and data["move"] is None
    assert "game of 'hex', not blindhex" in data["error"] and "python -m engine hex" in data["error"]


@pytest.mark.parametrize(
    ("record", "argv", "said"),
    [
        (("hex", 5, ()), ["--size", "7"], "'# size: 5' but the command line says --size 7"),
        (("hex", 5, ("swap",)), ["--variant", "swap-pieces"], "'# variants: swap' but the command line says --variant"),
        (("hex", 5, ()), ["--variant", "swap"], "no variants but the command line says --variant swap"),
        (("blindhex", 11, (), "o"), ["--first", "x"], "'# first: o' but the command line says --first x"),
    ],
)
def test_a_record_header_that_conflicts_with_an_option_exits_2_with_no_move(capsys, tmp_path, record, argv, said):
    path = _record_file(tmp_path, *record)
    code, data = run(capsys, record[0], *argv, "--record", path)
    assert code == 2 and data["move"] is None and said in data["error"] and "make them agree" in data["error"]


def test_a_record_size_header_that_is_not_a_number_exits_2(capsys, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("# size: big\nc3\n", encoding="utf-8")
    code, data = run(capsys, "hex", "--record", str(path))
    assert code == 2 and data["move"] is None and "the size is a number" in data["error"]


def test_a_byte_order_mark_does_not_spoil_the_first_line_of_a_record(capsys, tmp_path):
    path = tmp_path / "game.txt"
    path.write_bytes("c3\nd4\n".encode("utf-8-sig"))
    code, data = run(capsys, "hex", "--size", "5", "--record", str(path))
    assert code == 0 and data["board"][2] == "..B.."


def test_a_byte_order_mark_does_not_hide_the_first_header(capsys, tmp_path):
    path = tmp_path / "game.txt"
    path.write_bytes("# size: 5\nc3\n".encode("utf-8-sig"))
    code, data = run(capsys, "hex", "--record", str(path))
    assert code == 0 and data["size"] == 5


def test_a_record_file_that_is_not_utf8_exits_2_with_no_move(capsys, tmp_path):
    path = tmp_path / "game.txt"
    path.write_bytes(b"c3\n\xff\xfed4\n")
    code, data = run(capsys, "hex", "--size", "5", "--record", str(path))
    assert code == 2 and data["move"] is None and "not UTF-8" in data["error"]


# -- usage errors -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["chess"], "invalid choice: 'chess'"),
        (["hex", "--size", "x"], "invalid int value: 'x'"),
        (["blindhex", "--first", "z"], "invalid choice: 'z'"),
        ([], "required: game"),
    ],
)
def test_a_usage_error_prints_the_json_error_and_exits_2(capsys, argv, said):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and err == ""
    data = json.loads(out)
    assert set(data) == {"error", "move"} and data["move"] is None and said in data["error"]


def test_help_still_prints_usage_and_exits_0(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0 and capsys.readouterr().out.startswith("usage: python -m engine")


def test_the_shared_parser_keeps_argparse_usage_errors_by_default(capsys):
    # python -m render builds on build_parser() and reports its errors on stderr.
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_intermixed_args(["chess"])
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and out == "" and "invalid choice: 'chess'" in err


def test_python_m_engine_prints_a_usage_error_as_json():
    done = subprocess.run(
        [sys.executable, "-m", "engine", "hex", "--size", "x"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert done.returncode == 2 and json.loads(done.stdout) == {
        "error": "argument --size: invalid int value: 'x'", "move": None,
    }
