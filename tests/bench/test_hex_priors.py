"""``bench/hex_priors.py train``: the script that made the search's learned priors."""

from __future__ import annotations

import json
import random
import runpy
import subprocess
import sys
from pathlib import Path

from engine.ai import hex_prior_weights
from engine.geometry import grid

ROOT = Path(__file__).resolve().parents[2]


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


def test_training_learns_what_the_teacher_does_and_writes_a_module_like_the_engines(tmp_path):
    data, out = tmp_path / "games.jsonl", tmp_path / "weights.py"
    _games_answering_in_contact(data)
    subprocess.run([sys.executable, str(ROOT / "bench/hex_priors.py"), "train", str(data), "--out", str(out)],
                   check=True, capture_output=True)
    learned = runpy.run_path(str(out))
    adjacent, far = learned["LAST"][1], learned["LAST"][0]
    assert adjacent > far + 1.0
    for name in ("SHAPE", "NEAR", "ROWS", "LAST", "SAVE"):
        assert type(learned[name]) is type(getattr(hex_prior_weights, name))
    assert len(learned["ROWS"]) == len(hex_prior_weights.ROWS) and len(learned["LAST"]) == len(hex_prior_weights.LAST)
