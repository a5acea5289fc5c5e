"""Colours of the pictures: one :class:`Theme` per look, and the piece colours of each game.

The dark theme is made for Discord's dark mode (the image sits on #313338), the
light theme for light mode and printing. Pieces keep the same colours in both
themes so a player never has to relearn which is which; only the surroundings
(background, text, coordinates) change.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


def hex_rgb(code: str) -> RGB:
    """``"#rrggbb"`` as an (r, g, b) tuple.

    >>> hex_rgb("#ff8000")
    (255, 128, 0)
    """
    code = code.lstrip("#")
    return int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16)


@dataclass(frozen=True, slots=True)
class Theme:
    """Colours of everything around the pieces."""

    name: str
    background: RGB
    text: RGB
    muted: RGB
    #: coordinates around the board
    label: RGB
    #: header panel of a player, and of the player who acts now
    panel: RGB
    panel_active: RGB
    #: hex cells: fill, outline, and the tint of Blind Hex numbered cells
    cell: RGB
    cell_line: RGB
    cell_numbered: RGB
    #: Blind Hex's numbers
    ink: RGB
    #: last-turn marks (arrows, rings) and their dark outline
    accent: RGB
    accent_edge: RGB
    #: discs waiting to be relocated, and cells a Blind Hex letter may go to
    alert: RGB
    hint: RGB
    #: the winning chain
    win: RGB
    #: dark outlines that keep the alert, hint and win marks 3:1 against what is under them
    alert_edge: RGB = (255, 255, 255)
    hint_edge: RGB = (38, 74, 16)
    win_edge: RGB = (74, 52, 0)


THEMES: dict[str, Theme] = {
    "dark": Theme(
        name="dark",
        background=hex_rgb("#2b2d31"),
        text=hex_rgb("#f2f3f5"),
        muted=hex_rgb("#b5bac1"),
        label=hex_rgb("#c9ccd1"),
        panel=hex_rgb("#383a40"),
        panel_active=hex_rgb("#4a4d55"),
        cell=hex_rgb("#e2c08f"),
        cell_line=hex_rgb("#8d6a3f"),
        cell_numbered=hex_rgb("#ecd3a8"),
        ink=hex_rgb("#4a3418"),
        accent=hex_rgb("#ff7b2e"),
        accent_edge=hex_rgb("#3b1d06"),
        alert=hex_rgb("#ff3b5c"),
        hint=hex_rgb("#b8e07a"),
        win=hex_rgb("#ffd23f"),
    ),
    "light": Theme(
        name="light",
        # a soft grey, not white: the white player's bands must stand out from it
        background=hex_rgb("#e3e0d8"),
        text=hex_rgb("#1e1f22"),
        muted=hex_rgb("#55575f"),
        label=hex_rgb("#45474f"),
        panel=hex_rgb("#efece6"),
        panel_active=hex_rgb("#fbfaf7"),
        cell=hex_rgb("#e6c694"),
        cell_line=hex_rgb("#8d6a3f"),
        cell_numbered=hex_rgb("#f0dab2"),
        ink=hex_rgb("#4a3418"),
        accent=hex_rgb("#f26a1b"),
        accent_edge=hex_rgb("#3b1d06"),
        alert=hex_rgb("#e8153f"),
        hint=hex_rgb("#9fd45a"),
        win=hex_rgb("#f5b700"),
    ),
}


@dataclass(frozen=True, slots=True)
class PieceColours:
    """How one colour of one game looks: the piece, and the band on its two sides."""

    #: disc/stone fill (centre and rim) or letter ink
    fill: RGB
    rim: RGB
    #: outline that separates the piece from the board
    edge: RGB
    #: band along the player's sides, and the band's broad outline: it must stand out from a
    #: background as dark (or light) as the band itself, since pieces keep their colours in both themes
    band: RGB
    band_edge: RGB
    #: text drawn on the piece (e.g. a last-move dot)
    contrast: RGB


WHITE = PieceColours(
    fill=hex_rgb("#fbf9f4"),
    rim=hex_rgb("#d3cdc0"),
    edge=hex_rgb("#6f6a60"),
    band=hex_rgb("#f4f1ea"),
    # dark enough to frame the band on the light theme's #e3e0d8
    band_edge=hex_rgb("#7a756b"),
    contrast=hex_rgb("#1b1b1f"),
)
BLACK = PieceColours(
    fill=hex_rgb("#4a4b52"),
    rim=hex_rgb("#151518"),
    edge=hex_rgb("#050506"),
    band=hex_rgb("#1b1c20"),
    # light enough to frame the band on the dark theme's #2b2d31
    band_edge=hex_rgb("#b8bbc2"),
    contrast=hex_rgb("#f4f1ea"),
)
#: Blind Hex letters: pencil colours that read on the warm board and are told apart by
#: colour-blind players too (red-orange against blue)
X_INK = PieceColours(
    fill=hex_rgb("#d7372b"),
    rim=hex_rgb("#a3231a"),
    edge=hex_rgb("#5e120c"),
    band=hex_rgb("#d7372b"),
    band_edge=hex_rgb("#7d1a13"),
    contrast=hex_rgb("#ffffff"),
)
O_INK = PieceColours(
    fill=hex_rgb("#1f63d6"),
    rim=hex_rgb("#164a9f"),
    edge=hex_rgb("#0b2657"),
    band=hex_rgb("#1f63d6"),
    band_edge=hex_rgb("#0f3275"),
    contrast=hex_rgb("#ffffff"),
)

PIECES: dict[str, PieceColours] = {"white": WHITE, "black": BLACK, "x": X_INK, "o": O_INK}


def theme(name: str) -> Theme:
    """The theme called ``name``; ValueError listing the choices otherwise."""
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme '{name}': choose one of {', '.join(THEMES)}") from None


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b``.

    >>> mix((0, 0, 0), (255, 255, 255), 0.5)
    (128, 128, 128)
    """
    r, g, b_ = (round(x + (y - x) * t) for x, y in zip(a, b))
    return (r, g, b_)
