"""The AI (engine.ai): legal answers in every phase, tactics, determinism, CLI and pool.

Every search here is bounded by an iteration count with a fixed seed, so the
answers are the same on any machine; nothing asserts on time.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import psutil
import pytest

from engine import make_options, new_game
from engine.ai import LEVELS, choose
from engine.ai.levels import level
from engine.ai.pool import AIPool
from engine.cli import main as cli_main
from engine.inphexion import InpHexion

ITER = 120


def _replay(game: str, actions: list[str], size: int | None = None, variants=(), first=None):
    pos = new_game(game, size, variants, first)
    for a in actions:
        pos.play(a)
    return pos


def _check_line(pos, line: str, player: str | None = None) -> None:
    """The line is accepted as a whole and, for sequential games, completes the turn."""
    mover = player or pos.to_move[0]
    after = pos.copy()
    after.play(line, mover)
    if after.outcome is None and pos.game == "inphexion":
        assert after.to_move != [mover] or after.phase != "relocate", line


# -- levels and arguments ---------------------------------------------------------------
def test_levels_have_increasing_budgets():
    assert list(LEVELS) == ["easy", "medium", "hard"]
    budgets = [lv.budget for lv in LEVELS.values()]
    assert budgets == sorted(budgets) and budgets[0] == pytest.approx(0.2) and budgets[-1] == pytest.approx(3.0)
    assert LEVELS["easy"].temperature > 0 and LEVELS["hard"].temperature == 0


def test_bad_requests_raise_value_error():
    with pytest.raises(ValueError):
        level("impossible")
    pos = new_game("hex", 3)
    with pytest.raises(ValueError):
        choose(pos, "easy", player="white", iterations=10)
    won = _replay("hex", ["a1", "b1", "a2", "b2", "a3"], 3)
    with pytest.raises(ValueError):
        choose(won, "easy", iterations=10)


def test_same_seed_same_answer():
    pos = _replay("hex", ["e5"], 9)
    a = choose(pos, "medium", seed=11, iterations=ITER)
    assert a == choose(pos, "medium", seed=11, iterations=ITER)
    pos = _replay("inphexion", ["d4", "d4 d5"], 7)
    b = choose(pos, "hard", seed=5, iterations=ITER)
    assert b == choose(pos, "hard", seed=5, iterations=ITER)


# -- Hex ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [3, 5, 9, 11])
def test_hex_first_moves_are_legal(size):
    pos = new_game("hex", size)
    for lvl in LEVELS:
        _check_line(pos, choose(pos, lvl, seed=1, iterations=60))


@pytest.mark.parametrize("variant", ["swap", "swap-pieces"])
def test_hex_swap_decision_is_legal(variant):
    for opening in ("c3", "a1"):
        pos = _replay("hex", [opening], 5, (variant,))
        line = choose(pos, "medium", seed=2, iterations=ITER)
        assert line in pos.legal_actions()
        _check_line(pos, line)


def test_hex_swaps_a_centre_opening_and_not_a_corner():
    centre = _replay("hex", ["c3"], 5, ("swap",))
    assert choose(centre, "hard", seed=3, iterations=600) == "swap"
    corner = _replay("hex", ["a1"], 5, ("swap",))
    assert choose(corner, "hard", seed=3, iterations=600) != "swap"


def test_hex_after_a_swap_the_ai_plays_on():
    pos = _replay("hex", ["c3", "swap"], 5, ("swap",))
    _check_line(pos, choose(pos, "easy", seed=4, iterations=60))


def test_hex_takes_an_immediate_win():
    # Black: c1 c2 c3 c4; b5 and c5 both connect.
    pos = _replay("hex", ["c1", "a1", "c2", "a2", "c3", "a3", "c4", "e1"], 5)
    for seed in range(3):
        assert choose(pos, "easy", seed=seed, iterations=30) in {"b5", "c5"}


def test_hex_blocks_an_immediate_loss():
    # Black threatens c5 only (b5 is White's); White has no win of its own.
    pos = _replay("hex", ["c1", "a1", "c2", "a2", "c3", "b5", "c4"], 5)
    for seed in range(3):
        assert choose(pos, "medium", seed=seed, iterations=60) == "c5"


# -- inpHeXion ------------------------------------------------------------------------------------
INP_VARIANTS = [(), ("pie",), ("free-reply",), ("neutral",), ("free-reply", "neutral", "pie")]


@pytest.mark.parametrize("variants", INP_VARIANTS)
def test_inphexion_opening_turns_are_legal(variants):
    pos = new_game("inphexion", 5, variants)
    for _ in range(3):  # White's first turn, Black's first turn (pie / free-reply), then a move
        line = choose(pos, "medium", seed=len(pos.actions), iterations=60)
        _check_line(pos, line)
        pos.play(line)
        if pos.outcome is not None:
            break


def test_inphexion_pie_decision_is_legal_and_the_game_goes_on():
    pos = _replay("inphexion", ["c3"], 5, ("pie",))
    line = choose(pos, "hard", seed=1, iterations=ITER)
    assert line == "swap" or " " in line
    pos.play(line)
    _check_line(pos, choose(pos, "easy", seed=1, iterations=40))


def test_inphexion_relocates_one_disc():
    pos = _replay("inphexion", ["d5", "d5 e4", "d5 e5"], 5)
    assert pos.phase == "relocate" and len(pos.pending_relocations()) == 1
    line = choose(pos, "medium", seed=1, iterations=80)
    assert line.count(">") == 1
    _check_line(pos, line)


TWO_PENDING = [
    "e2", "e2 d2", "e2 e1", "d2 d3", "d2 c2", "d3 e3", "c2 d1", "c2 b2", "d1 c1", "e1>a5",
    "b2 a3", "d3 d4", "a3 a4", "a5 b5", "d2 e1", "d2 c3", "a4 b4", "d4 e4", "b4 b3",
]


def test_inphexion_relocates_two_discs_in_one_line():
    pos = _replay("inphexion", TWO_PENDING, 5)
    assert pos.phase == "relocate" and len(pos.pending_relocations()) == 2
    line = choose(pos, "medium", seed=1, iterations=80)
    _check_line(pos, line)
    # Unless the first relocation already ended the game, both discs are placed.
    after = pos.copy()
    after.play(line)
    assert after.outcome is not None or line.count(">") == 2


def test_inphexion_whole_turns_are_complete_along_a_game():
    pos = new_game("inphexion", 5)
    turns = 0
    while pos.outcome is None and turns < 40:
        line = choose(pos, "easy", seed=turns, iterations=40)
        _check_line(pos, line)
        pos.play(line)
        turns += 1
    assert pos.outcome is not None


def test_inphexion_takes_an_immediate_win():
    pos = InpHexion.from_board(["..W..", "..W..", "..B..", "..W..", "..W.."], to_move="white")
    for seed in range(3):
        line = choose(pos, "easy", seed=seed, iterations=30)
        after = pos.copy()
        after.play(line)
        assert after.outcome is not None and after.outcome.winner == "white", line


# -- Blind Hex ---------------------------------------------------------------------------------------
def test_blindhex_aside_choose_and_write_are_legal():
    pos = new_game("blindhex", first="x")
    line = choose(pos, "medium", seed=1, iterations=40)
    assert line.startswith("aside ") and line in pos.legal_actions()
    pos.play(line)
    for colour in ("o", "x"):
        card_line = choose(pos, "medium", seed=2, iterations=60, player=colour)
        assert card_line in pos.legal_actions(colour)
    # Play choices that make both write (the AI's may match, and then nobody writes).
    o_pair = pos.hands()["o"][:2]
    x_pair = [k for k in pos.hands()["x"] if k not in o_pair][:2]
    pos.play(f"o:{o_pair[0]}+{o_pair[1]}")
    pos.play(f"x:{x_pair[0]}+{x_pair[1]}")
    assert pos.phase == "write"
    writer = pos.to_move[0]
    letters = choose(pos, "medium", seed=3, iterations=60)
    pos.play(letters, writer)
    # All of the writer's consecutive letters were written in the one line.
    assert pos.outcome is not None or pos.phase != "write" or pos.to_move != [writer]


def test_blindhex_choice_ignores_the_opponents_secret_choice():
    pos = new_game("blindhex", first="x")
    pos.play("aside 4+5")
    alone = choose(pos, "hard", seed=9, iterations=150, player="x")
    for secret in ("o:1+2", "o:2+3", "o:1+3"):
        waiting = pos.copy()
        waiting.play(secret, "o")
        assert waiting.to_move == ["x"]
        assert choose(waiting, "hard", seed=9, iterations=150, player="x") == alone


def test_blindhex_takes_an_immediate_win():
    pos = new_game("blindhex", first="x")
    for a in ("aside 4+5", "x:1+4", "o:2+3"):
        pos.play(a)
    assert pos.pending_writes()[0] == ("x", 1)
    # Test set-up through the internals: x holds all of row 1 but c1 (a cell marked 1).
    g = pos.grid
    pos._marks["x"] = sum(1 << g.parse(f"{c}1") for c in "abdefghijk")
    for seed in range(2):
        assert choose(pos, "easy", seed=seed, iterations=30) == "c1"


def test_blindhex_plays_a_whole_game_against_random():
    rng = random.Random(3)
    pos = new_game("blindhex", first="o")
    while pos.outcome is None:
        for colour in list(pos.to_move):
            if colour == "x":
                line = choose(pos, "easy", seed=len(pos.actions), iterations=15, player=colour)
            else:
                line = rng.choice(pos.legal_actions(colour))
            pos.play(line, colour)
            if pos.outcome is not None:
                break
    assert pos.outcome.winner in ("x", "o")


# -- CLI and pool --------------------------------------------------------------------------------------
def _cli(*argv: str) -> tuple[int, dict]:
    out = io.StringIO()
    with redirect_stdout(out):
        status = cli_main(list(argv))
    return status, json.loads(out.getvalue())


def test_cli_prints_the_ai_choice():
    status, data = _cli("hex", "--size", "5", "c3", "--ai", "easy", "--seed", "1", "--iterations", "40")
    assert status == 0 and data["ai"] in data["legal"]
    status, again = _cli("hex", "--size", "5", "c3", "--ai", "easy", "--seed", "1", "--iterations", "40")
    assert again["ai"] == data["ai"]
    status, data = _cli("inphexion", "--size", "5", "c3", "--ai", "medium", "--seed", "2", "--iterations", "40")
    assert status == 0
    _check_line(_replay("inphexion", ["c3"], 5), data["ai"])
    status, data = _cli("blindhex", "aside 4+5", "--ai", "easy", "--player", "x", "--iterations", "20", "--seed", "1")
    assert status == 0 and data["ai"].startswith("x:")


def test_cli_without_ai_or_when_over_has_no_ai_key():
    status, data = _cli("hex", "--size", "3", "a1")
    assert status == 0 and "ai" not in data
    status, data = _cli("hex", "--size", "3", "a1", "b1", "a2", "b2", "a3", "--ai", "easy")
    assert status == 0 and data["phase"] == "over" and "ai" not in data


def test_cli_rejects_an_unknown_level():
    status, data = _cli("hex", "--size", "3", "--ai", "grandmaster", "--iterations", "5")
    assert status == 2 and "grandmaster" in data["error"]


def _spawned_children() -> set[int]:
    """The pids of this process's spawned interpreters (pool workers; not the resource tracker)."""
    return {p.pid for p in psutil.Process().children() if "spawn_main" in " ".join(p.cmdline())}


def test_a_warm_pool_starts_every_worker_before_any_request():
    before = _spawned_children()
    with AIPool(workers=2, warm=True) as pool:
        for f in pool.warming:
            f.result(timeout=300)
        assert len(_spawned_children() - before) == 2


def test_a_pool_worker_exits_when_the_process_that_started_it_is_killed():
    """A killed bot cannot shut its pool down: its workers must not live on as orphans."""
    code = (
        "import os, sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})\n"
        "from engine.ai.pool import AIPool\n"
        "pool = AIPool(workers=1, warm=True)\n"
        "print(pool.warming[0].result(timeout=300), flush=True)\n"
        "os.kill(os.getpid(), 9)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    try:
        worker = psutil.Process(int(out.stdout.split()[0]))
    except psutil.NoSuchProcess:
        return  # already gone
    # It notices within a second or so; the bound is generous for a loaded machine.
    _, alive = psutil.wait_procs([worker], timeout=60)
    for p in alive:
        p.kill()
    assert not alive


def test_a_pool_is_not_warmed_unless_asked():
    with AIPool(workers=1) as pool:
        assert pool.warming == []


def test_pool_returns_a_legal_move():
    options = make_options("inphexion", 5)

    async def ask() -> tuple[str, str]:
        with AIPool(workers=1) as pool:
            fixed = await pool.choose(options, ["c3"], "easy", seed=1, iterations=30)
            # A time-bounded request (production's kind): only its legality is checked.
            timed = await pool.choose(options, ["c3", fixed], "easy", seed=2, budget=0.05)
            return fixed, timed

    fixed, timed = asyncio.run(ask())
    pos = _replay("inphexion", ["c3"], 5)
    assert fixed == choose(pos, "easy", seed=1, iterations=30)
    _check_line(pos, fixed)
    pos.play(fixed)
    _check_line(pos, timed)
