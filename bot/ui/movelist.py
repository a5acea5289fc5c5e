"""A game's moves as players read them: grouped into turns, numbered and paired like a
score sheet, cut into pages that fit a message.

>>> import engine
>>> opts = engine.make_options("hex", 5, ["swap"])
>>> turns(opts, ["c3", "swap", "b2", "d4", "a1"])
[['c3'], ['swap'], ['b2'], ['d4'], ['a1']]
>>> print(score_sheet(opts, ["c3", "swap", "b2", "d4", "a1"]))
1. c3   swap
2. b2   d4
3. a1
"""

from __future__ import annotations

from collections.abc import Callable

from engine import GameOptions
from render.replay import turn_complete

#: score-sheet lines on one page of the move list (keeps a page well inside an embed)
LINES_PER_PAGE = 20


def turns(options: GameOptions, actions: list[str]) -> list[list[str]]:
    """The actions grouped into turns: a turn ends when nobody is left in the middle of one
    (an inpHeXion move with its relocations; a Blind Hex round with its letters)."""
    pos = options.new_position()
    out: list[list[str]] = []
    current: list[str] = []
    for action in actions:
        pos.play(action)
        current.append(action)
        if turn_complete(pos):
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def turn_text(options: GameOptions, turn: list[str], note: Callable[[int], str] = lambda i: "") -> str:
    """One turn as the score sheet writes it; ``note(i)`` is written after the turn's ``i``-th action
    where it is judged on its own (a Blind Hex letter), else ``note(0)`` after the whole turn (a
    review's marks)."""
    if options.game == "blindhex":
        # a round: both secret choices, then the letters written
        cards = [a.replace(":", " ") for a in turn if ":" in a]
        rest = [a + note(i) for i, a in enumerate(turn) if ":" not in a]
        return " · ".join([", ".join(cards), *rest] if cards else rest)
    return " ".join(turn) + note(0)


def numbered(game: str, texts: list[str]) -> list[str]:
    """Turns' texts as numbered lines: two turns a line (first player's, second player's) for Hex
    and inpHeXion; one round a line for Blind Hex, whose players act together."""
    if game == "blindhex":
        width = len(str(len(texts)))
        return [f"{i:>{width}}. {t}" for i, t in enumerate(texts, 1)]
    pairs = [texts[i:i + 2] for i in range(0, len(texts), 2)]
    width = len(str(len(pairs)))
    col = max((len(p[0]) for p in pairs), default=0) + 3
    return [f"{i:>{width}}. {p[0]:<{col}}{p[1] if len(p) > 1 else ''}".rstrip() for i, p in enumerate(pairs, 1)]


def score_sheet_lines(options: GameOptions, actions: list[str]) -> list[str]:
    """Numbered lines: two turns a line (first player's, second player's) for Hex and
    inpHeXion; one round a line for Blind Hex, whose players act together."""
    return numbered(options.game, [turn_text(options, t) for t in turns(options, actions)])


def score_sheet(options: GameOptions, actions: list[str]) -> str:
    """The whole score sheet as text."""
    return "\n".join(score_sheet_lines(options, actions))


def pages(options: GameOptions, actions: list[str], per_page: int = LINES_PER_PAGE) -> list[str]:
    """The score sheet cut into pages of ``per_page`` lines (one empty page for no moves)."""
    lines = score_sheet_lines(options, actions)
    return ["\n".join(lines[i:i + per_page]) for i in range(0, len(lines), per_page)] or [""]
