"""Hex games as SGF files that HexGui (and the tools that read its files) open.

The form follows HexGui's own writer and reader (github.com/ryanbhayward/hexgui,
``src/hexgui/sgf/SgfWriter.java`` and ``SgfReader.java``): a root node
``FF[4]GM[11]SZ[n]``, then one node per move, ``;B[c4]`` / ``;W[d3]``, cells as
column letter and row number (``HexPoint.toString``), Black moving first and joining
top and bottom, as here. HexGui plays the pie rule only one way: its Swap command
(``HexGui.java``, ``game_swap``) plays ``swap-pieces``, which turns the first stone
White and mirrors it across the long diagonal, and Black moves next. Our ``swap-pieces``
variant is exactly that. Our ``swap`` variant (the people exchange colours, the stone
stays) is the same game seen in a mirror: so the swap is written as HexGui writes it,
``W[swap-pieces]``, and every later stone with its colour exchanged and its cell
mirrored (column ↔ row). Each person then keeps one colour in the file: the first
player is Black throughout.

>>> from engine import make_options
>>> opts = make_options("hex", 5, ["swap"])
>>> to_sgf(opts, ["c2", "swap", "a1"], {"black": "alice", "white": "bob"})
'(;FF[4]GM[11]SZ[5]AP[hexcord]PB[alice]PW[bob];B[c2];W[swap-pieces];B[a1])\\n'
"""

from __future__ import annotations

from .outcome import Outcome, Reason
from .position import GameOptions

__all__ = ["to_sgf"]

_RESULT = {Reason.RESIGNATION: "R", Reason.TIMEOUT: "T", Reason.CONNECTION: ""}


def _escape(text: str) -> str:
    """An SGF text value: ``]`` and ``\\`` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _mirror(cell: str) -> str:
    """The cell across the long diagonal (column ↔ row): ``c2`` → ``b3``."""
    col, row = ord(cell[0]) - 97, int(cell[1:]) - 1
    return f"{chr(97 + row)}{col + 1}"


def to_sgf(options: GameOptions, actions: list[str], players: dict[str, str] | None = None,
           outcome: Outcome | None = None) -> str:
    """The SGF text of a Hex game.

    ``players``: who sat down as Black (first) and White (second), by colour at the start;
    ``outcome``: the result, if the game is over (winner by colour as the engine names it).
    """
    if options.game != "hex":
        raise ValueError("SGF export is for Hex games only")
    root = f"FF[4]GM[11]SZ[{options.size}]AP[hexcord]"
    for colour, prop in (("black", "PB"), ("white", "PW")):
        if players and players.get(colour):
            root += f"{prop}[{_escape(players[colour])}]"
    mirrored = False  # after a swap of colours: write the mirror image
    nodes = []
    colour = "B"
    for action in actions:
        if action == "swap":
            nodes.append("W[swap-pieces]")
            mirrored = "swap-pieces" not in options.variants
            colour = "B"
            continue
        nodes.append(f"{colour}[{_mirror(action) if mirrored else action}]")
        colour = "W" if colour == "B" else "B"
    if outcome is not None and outcome.winner is not None and outcome.reason in _RESULT:
        winner = outcome.winner
        if mirrored:
            winner = "white" if winner == "black" else "black"
        root += f"RE[{'B' if winner == 'black' else 'W'}+{_RESULT[outcome.reason]}]"
    return "(;" + root + "".join(";" + n for n in nodes) + ")\n"
