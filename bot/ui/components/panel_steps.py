"""The Play panel as plain data: the taps that lead a player to one legal action.

Nothing here knows Discord. :func:`panel` takes a position, the player's colour
and the *path* of choices made so far (short keys such as ``r4``, ``m12``,
``c30``) and returns either the next :class:`Step` (a line of text and rows of
buttons and select menus) or the finished :class:`Submit` (one action in the
notation ``/move`` takes). Every choice offered comes from the engine's legal
actions, so a panel can only lead to a legal action; a path that does not fit
the position (stale or forged) raises :class:`PanelError`.

Each button carries the whole path it leads to and each menu the path it
extends, so the bot keeps no memory of open panels (they work after a restart).

Limits kept here (Discord's): at most 5 rows, 5 buttons a row, 25 options a menu.
Its words are catalog messages (:func:`bot.i18n.t`), said in the player's language when the
panel is shown; cells and cards stay as they are written in every language.

>>> import engine
>>> pos = engine.new_game("hex", 5, ["swap"])
>>> step = panel(pos, "black", ())
>>> step.rows[0].options[:3]
(('a1', 'c0'), ('a2', 'c5'), ('a3', 'c10'))
>>> panel(pos, "black", ("c7",))
Submit(action='c2')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine import Position
from engine.geometry import HexGrid

from ...i18n import Text, t, tc

MAX_OPTIONS = 25
ROW_BUTTONS = 5
MAX_ROWS = 5
#: the six neighbours as (column step, row step, arrow), laid out as the picture shows them:
#: two above, one each side, two below (row r+1 is drawn half a cell to the right of row r)
DIRECTIONS: tuple[tuple[tuple[int, int, str], ...], ...] = (
    ((0, -1, "↖"), (1, -1, "↗")),
    ((-1, 0, "←"), (1, 0, "→")),
    ((-1, 1, "↙"), (0, 1, "↘")),
)
_KEY = re.compile(r"^([a-z])(\d*)$")


class PanelError(Exception):
    """A path that does not lead anywhere in this position (the panel is out of date)."""


@dataclass(frozen=True)
class Button:
    """A button: pressing it leads to ``path``."""

    label: str  # a catalog message, or notation (a cell, a card)
    path: tuple[str, ...]
    style: str = "secondary"  # primary, secondary, success, danger
    disabled: bool = False


@dataclass(frozen=True)
class Menu:
    """A select menu: choosing the option with key k leads to ``path + (k,)``."""

    placeholder: str
    path: tuple[str, ...]
    #: (label, key) pairs, at most 25
    options: tuple[tuple[str, str], ...]


Row = tuple[Button, ...] | Menu


@dataclass(frozen=True)
class Preview:
    """A picture of the position goes with the step, pointing out cells (indices): the disc
    being moved or relocated (``chosen``) and where it may go (``choices``)."""

    chosen: tuple[int, ...]
    choices: tuple[int, ...] = ()


@dataclass(frozen=True)
class Step:
    """What the panel shows next: a line saying what to choose, its rows of controls, and
    whether a picture of the position goes with it."""

    text: str
    rows: tuple[Row, ...]
    preview: Preview | None = None


@dataclass(frozen=True)
class Submit:
    """The path is complete: play this action (as ``/move`` would)."""

    action: str


def panel(position: Position, colour: str, path: tuple[str, ...]) -> Step | Submit:
    """The next step of ``colour``'s panel after the choices in ``path`` (see the module docstring)."""
    if colour not in position.to_move:
        raise PanelError("not this player's turn")
    legal = position.legal_actions(colour)
    if position.game == "hex":
        return _hex(position, legal, path)
    if position.game == "inphexion":
        return _inphexion(position, legal, path)
    if position.game == "blindhex":
        return _blindhex(position, colour, legal, path)
    raise PanelError(f"no panel for {position.game}")


def _key(part: str, letter: str) -> int | None:
    """The number in a key such as ``c12`` if it starts with ``letter``."""
    m = _KEY.match(part)
    if m is None or m.group(1) != letter or not m.group(2):
        return None
    return int(m.group(2))


def natural_cells(grid: HexGrid, cells: list[int]) -> list[int]:
    """Cells in reading order: by column letter, then row number (a2 before a10).

    >>> from engine.geometry import grid
    >>> [grid(11).name(c) for c in natural_cells(grid(11), [grid(11).parse(n) for n in ("a10", "b1", "a2")])]
    ['a2', 'a10', 'b1']
    """
    return sorted(cells, key=lambda c: grid.coords(c))


# -- picking a cell: one menu when 25 or fewer, else a row then a cell ---------------------
@dataclass(frozen=True)
class _Picked:
    cell: int


def _pick_cell(grid: HexGrid, cells: list[int], prefix: tuple[str, ...], rest: tuple[str, ...],
               letter: str, what: Text) -> _Picked | list[Row]:
    """Choose one of ``cells`` in at most two menus; ``rest`` is the path after ``prefix``.

    Keys: ``{letter}{cell}`` for a cell, ``r{row}`` for a row of the board.
    """
    allowed = set(cells)
    if len(rest) > 2:
        raise PanelError("path too long")
    if rest:
        cell = _key(rest[-1], letter)
        if cell is not None:
            if cell not in allowed or (len(rest) == 2 and _key(rest[0], "r") != grid.coords(cell)[1]):
                raise PanelError("cell not offered")
            return _Picked(cell)
    if len(cells) <= MAX_OPTIONS:
        if rest:
            raise PanelError("no rows on a short list")
        ordered = natural_cells(grid, cells)
        return [Menu(t("Choose {what}", what=what), prefix, tuple((grid.name(c), f"{letter}{c}") for c in ordered))]
    by_row: dict[int, list[int]] = {}
    for c in cells:
        by_row.setdefault(grid.coords(c)[1], []).append(c)
    if not rest:
        options = []
        for line in sorted(by_row):
            cells_there = sorted(by_row[line])
            first, last = grid.name(cells_there[0]), grid.name(cells_there[-1])
            names = first if len(cells_there) == 1 else f"{first} … {last}"
            options.append((t("Row {row}: {cells} ({count})", row=line + 1, cells=names, count=len(cells_there)),
                            f"r{line}"))
        return [Menu(t("Choose the row of {what}", what=what), prefix, tuple(options))]
    r = _key(rest[0], "r")
    if r is None or r not in by_row or len(rest) != 1:
        raise PanelError("row not offered")
    row = sorted(by_row[r])
    menu = Menu(t("Row {row}: choose {what}", row=r + 1, what=what), prefix + (rest[0],),
                tuple((grid.name(c), f"{letter}{c}") for c in row))
    return [menu, (Button(t("◀ Other rows"), prefix),)]


#: what most menus choose
A_CELL = t("a cell")
#: whose disc is being moved, on the button between the arrows
OWNERS = {"white": tc("colour", "white"), "black": tc("colour", "black"), "neutral": tc("colour", "neutral")}


# -- Hex ------------------------------------------------------------------------------------
def _hex(position: Position, legal: list[str], path: tuple[str, ...]) -> Step | Submit:
    grid = position.grid
    swap = "swap" in legal
    if path == ("s",):
        if not swap:
            raise PanelError("swap not legal")
        return Submit("swap")
    cells = [grid.parse(a) for a in legal if a != "swap"]
    picked = _pick_cell(grid, cells, (), path, "c", A_CELL)
    if isinstance(picked, _Picked):
        return Submit(grid.name(picked.cell))
    rows = list(picked)
    text = t("Your move: choose the cell for your stone.")
    if swap:
        rows.append((Button(t("Swap (take over the first stone)"), ("s",), "primary"),))
        text = t("Your move: choose a cell, or **Swap** to take over the first stone as yours.")
    return Step(text, tuple(rows))


# -- inpHeXion -------------------------------------------------------------------------------
def _inphexion(position: Position, legal: list[str], path: tuple[str, ...]) -> Step | Submit:
    grid = position.grid
    phase = position.phase
    if phase == "relocate":
        return _relocation(position, legal, path)
    if phase == "place":
        picked = _pick_cell(grid, [grid.parse(a) for a in legal], (), path, "c", A_CELL)
        if isinstance(picked, _Picked):
            return Submit(grid.name(picked.cell))
        return Step(t("Place your first disc: choose its cell."), tuple(picked))
    moves: dict[int, list[int]] = {}
    places = []
    for action in legal:
        if action == "swap":
            continue
        parts = action.split()
        if len(parts) == 2:
            moves.setdefault(grid.parse(parts[0]), []).append(grid.parse(parts[1]))
        else:
            places.append(grid.parse(action))
    swap = "swap" in legal
    if path == ("s",):
        if not swap:
            raise PanelError("swap not legal")
        return Submit("swap")
    if path[:1] == ("p",):
        if not places:
            raise PanelError("no placement now")
        picked = _pick_cell(grid, places, ("p",), path[1:], "c", A_CELL)
        if isinstance(picked, _Picked):
            return Submit(grid.name(picked.cell))
        rows = list(picked) + [(Button(t("◀ Move a disc instead"), ()),)]
        return Step(t("Place a disc instead of moving one (your free reply): choose its cell."), tuple(rows))
    disc = _key(path[-1], "m") if path else None
    if disc is not None and len(path) <= 2:
        if disc not in moves:
            raise PanelError("disc cannot move")
        return _directions(position, disc, moves[disc], path)
    if len(path) >= 2 and _key(path[-1], "t") is not None and _key(path[-2], "m") is not None:
        a, b = _key(path[-2], "m"), _key(path[-1], "t")
        if a is None or b is None or a not in moves or b not in moves[a]:
            raise PanelError("move not legal")
        return Submit(f"{grid.name(a)} {grid.name(b)}")
    picked = _pick_cell(grid, list(moves), (), path, "m", t("the disc to move"))
    if isinstance(picked, _Picked):
        raise PanelError("unreachable")  # "m" keys are handled above
    extras = []
    if places:
        extras.append(Button(t("Place a disc instead"), ("p",)))
    if swap:
        extras.append(Button(t("Swap (take over White's disc)"), ("s",), "primary"))
    rows = list(picked) + ([tuple(extras)] if extras else [])
    if swap:
        text = t("Your turn: choose the enemy disc to move (then its direction); yours goes where it was. "
                 "Or **Swap**.")
    else:
        text = t("Your turn: choose the enemy disc to move (then its direction); yours goes where it was.")
    return Step(text, tuple(rows))


def _directions(position: Position, disc: int, targets: list[int], path: tuple[str, ...]) -> Step:
    """Six buttons laid out like the disc's neighbours; only its legal moves enabled."""
    grid = position.grid
    col, row = grid.coords(disc)
    base = path  # ends with the disc's key
    rows: list[tuple[Button, ...]] = []
    for line in DIRECTIONS:
        buttons = []
        for dc, dr, arrow in line:
            c, r = col + dc, row + dr
            if 0 <= c < grid.n and 0 <= r < grid.n:
                cell = grid.index(c, r)
                ok = cell in targets
                buttons.append(Button(f"{arrow} {grid.name(cell)}", base + (f"t{cell}",),
                                      "success" if ok else "secondary", disabled=not ok))
            else:
                buttons.append(Button(t("{arrow} edge", arrow=arrow), base + (f"e{dc + 1}{dr + 1}",), disabled=True))
        if len(buttons) == 2 and line[0][1] == 0:  # the middle line: the disc itself between left and right
            owner = OWNERS[position.piece_at(disc) or "neutral"]
            buttons.insert(1, Button(t("● {cell} ({colour})", cell=grid.name(disc), colour=owner),
                                     base + ("x",), "primary", disabled=True))
        rows.append(tuple(buttons))
    rows.append((Button(t("◀ Another disc"), ()),))
    return Step(t("Move the disc on **{cell}** to which neighbour? Yours takes its place.", cell=grid.name(disc)),
                tuple(rows), Preview((disc,), tuple(sorted(targets))))


def _relocation(position: Position, legal: list[str], path: tuple[str, ...]) -> Step | Submit:
    """One surrounded disc at a time (the first waiting one), to any allowed cell."""
    grid = position.grid
    pending = position.pending_relocations()  # type: ignore[attr-defined]
    disc = pending[0]
    name = grid.name(disc)
    targets = [grid.parse(a.split(">")[1]) for a in legal if a.split(">")[0] == name]
    picked = _pick_cell(grid, targets, (), path, "c", t("its new cell"))
    if isinstance(picked, _Picked):
        return Submit(f"{name}>{grid.name(picked.cell)}")
    if len(pending) > 1:
        text = t("The disc on **{cell}** is surrounded: relocate it to an empty cell (not where a relocated disc "
                 "started) ({count} discs wait; one at a time).", cell=name, count=len(pending))
    else:
        text = t("The disc on **{cell}** is surrounded: relocate it to an empty cell (not where a relocated disc "
                 "started).", cell=name)
    return Step(text, tuple(picked), Preview((disc,)))


# -- Blind Hex -------------------------------------------------------------------------------
def _blindhex(position: Position, colour: str, legal: list[str], path: tuple[str, ...]) -> Step | Submit:
    grid = position.grid
    phase = position.phase
    if phase == "write":
        cells = [grid.parse(a) for a in legal]
        k = position.pending_writes()[0][1]  # type: ignore[attr-defined]
        picked = _pick_cell(grid, cells, (), path, "c", t("the cell"))
        if isinstance(picked, _Picked):
            return Submit(grid.name(picked.cell))
        return Step(t("Write your letter for **{number}**: only cells it may go on are offered.", number=k),
                    tuple(picked))
    aside = phase == "aside"
    hand = list(position.hands()[colour])  # type: ignore[index]
    chosen: tuple[int, ...] = ()
    if path:
        sel = _key(path[0], "k")
        if sel is None and path[0] != "k":
            raise PanelError("not a card choice")
        chosen = tuple(int(d) for d in path[0][1:])
        if len(set(chosen)) != len(chosen) or not set(chosen) <= set(hand) or len(chosen) > 2 or \
                list(chosen) != sorted(chosen):
            raise PanelError("cards not in hand")
    action = f"aside {chosen[0]}+{chosen[1]}" if aside and len(chosen) == 2 else \
        f"{colour}:{chosen[0]}+{chosen[1]}" if len(chosen) == 2 else None
    if path[1:] == ("ok",):
        if action is None or action not in legal:
            raise PanelError("not two cards")
        return Submit(action if aside else action.split(":")[1])
    if len(path) > 1:
        raise PanelError("path too long")
    cards = []
    for k in hand:
        on = k in chosen
        after = tuple(sorted(set(chosen) ^ {k}))
        full = len(chosen) == 2 and not on
        cards.append(Button(str(k), ("k" + "".join(map(str, after)),), "primary" if on else "secondary",
                            disabled=full))
    shown = "+".join(map(str, chosen)) if chosen else t("none yet")
    confirm = Button(t("Confirm {cards}", cards=shown) if len(chosen) == 2 else t("Confirm"),
                     (path[0] if path else "k", "ok"), "success", disabled=len(chosen) != 2)
    if aside:
        text = t("Set two cards aside for the first round (you lost the cut). Chosen: **{cards}**.", cards=shown)
    else:
        text = t("Choose two cards in secret (revealed when both have chosen). Chosen: **{cards}**.", cards=shown)
    return Step(text, (tuple(cards[:ROW_BUTTONS]), (confirm,)))
