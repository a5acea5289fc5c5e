"""``tools/hex_priors.py``: the script that made the search's learned priors (training data, fit)."""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
from pathlib import Path

from engine.ai.hex.patterns import parse_weights, weights
from engine.geometry import grid
from tests.research.match_log import game_line, match_log
from tools import hex_priors

ROOT = Path(__file__).resolve().parents[2]
PRIORS = vars(hex_priors)
#: two games of one run (two rows, two board sizes), and the run's summary line, which is not a game
MATCH_LINES = [
    game_line(9, 0, opening="e5", ours="black", winner="white", plies=7, our_proof=7, mohex_proof=6,
              moves="e5 f3 d4 e6 d6 c8 b8".split(), book_plies=[3]),
    game_line(11, 1, opening="f6", ours="white", winner="white", plies=5, resigned=True, our_proof=3,
              moves="f6 c3 e7 c4 g5".split()),
    "| MoHex 9×9, 1 s a move (medium) | 2 | 1 | 50% | 0/1 | 1/1 | 0.6 / 0.8 | 0.6 / 0.8 | 3 / 6 | 0 |",
]


def _games_answering_in_contact(path: Path, games: int = 40) -> None:
    """Self-play records whose learned moves always touch the opponent's last stone."""
    rng = random.Random(3)
    g = grid(9)
    with path.open("w") as f:
        for _ in range(games):
            taken: set[int] = set()
            moves, searched = [], []
            for ply in range(16):
                if ply % 2 == 0:
                    cell = rng.choice([c for c in range(81) if c not in taken])
                else:
                    free = [c for c in g.neighbours[g.parse(moves[-1])] if c not in taken]
                    if not free:
                        break
                    cell = rng.choice(free)
                taken.add(cell)
                moves.append(g.name(cell))
                searched.append(ply % 2 == 1)
            f.write(json.dumps({"size": 9, "moves": moves, "searched": searched}) + "\n")


def test_training_learns_what_the_teacher_does_and_writes_a_data_file_like_the_engines(tmp_path):
    data, out = tmp_path / "games.jsonl", tmp_path / "weights.json.gz"
    _games_answering_in_contact(data)
    subprocess.run([sys.executable, "-m", "tools.hex_priors", "train", str(data), "--out", str(out)],
                   check=True, capture_output=True, cwd=ROOT)
    learned = parse_weights(json.loads(gzip.decompress(out.read_bytes())))
    shipped = weights()
    adjacent, far = learned.last[1], learned.last[0]
    assert adjacent > far + 1.0
    for name in shipped._fields:
        assert type(getattr(learned, name)) is type(getattr(shipped, name))
    assert len(learned.rows) == len(shipped.rows) and len(learned.last) == len(shipped.last)


def test_match_games_teach_mohex_moves_before_its_first_proof_and_nothing_else(tmp_path):
    err = match_log(tmp_path / "match.err", MATCH_LINES)
    (size9, moves9, taught9), (size11, moves11, taught11) = PRIORS["from_matches"]([str(err)])
    # Ours Black: MoHex (White) moves at even plies; its move at ply 6 came with its proof.
    assert (size9, moves9) == (9, "e5 f3 d4 e6 d6 c8 b8".split())
    assert taught9 == [False, True, False, True, False, False, False]
    # Ours White: MoHex (Black) moves at odd plies, never proved; the first stone is the opening.
    assert (size11, moves11) == (11, "f6 c3 e7 c4 g5".split())
    assert taught11 == [False, False, True, False, True]


def test_a_match_game_played_twice_move_for_move_teaches_once(tmp_path):
    err = match_log(tmp_path / "match.err", MATCH_LINES * 2)
    assert len(PRIORS["from_matches"]([str(err), str(err)])) == 2


def test_training_games_read_back_the_same_from_a_gzipped_file(tmp_path):
    plain, packed = tmp_path / "games.jsonl", tmp_path / "games.jsonl.gz"
    _games_answering_in_contact(plain, games=3)
    with PRIORS["open_text"](packed, "w") as f:
        f.write(plain.read_text())
    assert PRIORS["load"]([str(packed)]) == PRIORS["load"]([str(plain)])


def _book_record(moves: list[str], best: str, value: float | str) -> str:
    """One line of an opening-book cache (``tools/hex_book.py``): MoHex's 2 s choice and its value."""
    return json.dumps({"key": " ".join(moves), "moves": moves, "mohex": best, "values": {best: value},
                       "seconds": 2.0}) + "\n"


def test_book_positions_teach_only_mohex_undecided_choices_from_enough_stones(tmp_path):
    cache = tmp_path / "9.jsonl"
    five = "e5 d6 f4 c7 g3".split()
    cache.write_text(
        _book_record(five, "e6", 0.58)  # teaches
        + _book_record(five[:4], "f3", 0.55)  # four stones: the book's own ground
        + _book_record([*five, "e6"], "d7", 0.99)  # decided
        + _book_record([*five, "h2"], "d7", "unvisited")  # chosen without a value
        + _book_record([*five, "h3"], "resign", 0.5)  # not a cell
    )
    assert PRIORS["from_book"]([str(cache)]) == [(9, [*five, "e6"], [False] * 5 + [True])]
    assert len(PRIORS["from_book"]([str(cache)], min_stones=4)) == 2
