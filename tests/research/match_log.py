"""A MoHex match's stderr for tests, its game lines written by ``research/mohex_match.py`` itself."""

from __future__ import annotations

from pathlib import Path

from research import mohex_match

ROOT = Path(__file__).resolve().parents[2]
MATCH = vars(mohex_match)

#: a line of a match's stderr that is not a game's
CRASH_LINE = "<!-- MoHex crashed (genmove w: exit -11) at ply 36; restarting and replaying -->"


def game_line(size: int, number: int, **game) -> str:
    """The line of game ``number`` (from 0) of the 1 s row of an n×n board; ``game``: its ``Game`` fields."""
    row = next(r for r in MATCH["ROWS"] if r.size == size and r.seconds == 1.0)
    return MATCH["_game_line"](row, number, MATCH["Game"](**game))


def match_log(path: Path, lines: list[str]) -> Path:
    """Write a match's stderr: a crash line, then ``lines``."""
    path.write_text("\n".join([CRASH_LINE, *lines]) + "\n")
    return path
