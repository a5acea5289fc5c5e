"""Animated GIF of a whole game: one frame per turn, the last one held longer, looping.

A *turn* is what a player would call one: in Hex one stone (a swap included);
in inpHeXion a move-and-place together with the relocations it causes (the
frame shows the turn complete, with its arrows); in Blind Hex the setting
aside of two cards, then one round per frame, once its letters are written (a
secret choice alone makes no frame, so a replay never shows a hidden card).
The rule is the same for all three games: a frame
is due after an action that leaves nobody in the middle of a turn. A game
with no actions yet gives one frame of the empty board.

Frames share the look's fixed palette (:mod:`render.palette`), so the GIF
needs one global colour table; each frame after the first stores only the
rectangle that changed, with the pixels that did not change inside it left
transparent, which keeps the longest 11×11 game under a megabyte.

Frames are painted, encoded and dropped one at a time: making a replay holds two
frames (this one and the one before) and the GIF so far, never the whole game's
pictures (which took some 400 MB for a 300-turn 19×19 game).
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping

from PIL import GifImagePlugin, Image, ImageChops

from engine import Position, Record

from .encode import to_palette
from .games import scene_of
from .geometry import check_width
from .paint import paint
from .palette import COLOURS, palette_for
from .scene import Scene
from .theme import theme as _theme
from .words import Say, saying

#: which look replays have: raise it whenever a change to the renderer changes their pictures (the bot
#: keeps finished games' GIFs under this name, and makes them again for a new one)
LOOK = 2
#: how long a whole replay lasts, whatever the game's length (ms), and its bounds
TOTAL_MS = 30_000
MIN_TOTAL_MS, MAX_TOTAL_MS = 20_000, 40_000
#: the final position is held at least this long
FINAL_MS = 4000
#: no frame longer than this (a short game holds its final position longer instead)
#: nor shorter than 20 ms, the shortest delay browsers honour
MAX_FRAME_MS, MIN_FRAME_MS = 2500, 20


def durations(total: int) -> list[int]:
    """Milliseconds each of ``total`` frames is shown: the game in about 30 s, the end held longest.

    >>> sum(durations(89)) / 1000, sum(durations(3)) / 1000, durations(1)
    (30.4, 20.0, [20000])
    """
    if total <= 1:
        return [MIN_TOTAL_MS]
    # GIF delays are whole hundredths of a second
    frame = round((TOTAL_MS - FINAL_MS) / (total - 1), -1)
    frame = int(min(MAX_FRAME_MS, max(MIN_FRAME_MS, frame)))
    final = max(FINAL_MS, MIN_TOTAL_MS - frame * (total - 1))
    return [frame] * (total - 1) + [final]


def turn_complete(pos: Position) -> bool:
    """True when no player is in the middle of a turn (relocating, writing, or holding a secret choice)."""
    if pos.outcome is not None:
        return True
    phase = pos.phase
    if phase in ("relocate", "write"):
        return False
    return not (pos.choosing_in_secret() and len(pos.to_move) < 2)


def turns(record: Record) -> Iterator[Position]:
    """The position after each complete turn of a record (the start position if it has no actions)."""
    pos = record.options.new_position()
    any_frame = False
    for action in record.actions:
        pos.play(action)
        if turn_complete(pos):
            any_frame = True
            yield pos.copy()
    if not any_frame:
        yield pos.copy()


def names_at(pos: Position, names: Mapping[str, str] | None) -> dict[str, str] | None:
    """Names by the colours their players have at ``pos``, from ``names`` by the colours they
    started with: after a swap (Hex's colour swap, inpHeXion's pie rule) they change sides.

    >>> from engine import new_game
    >>> pos = new_game("hex", 5, ["swap"])
    >>> start = {"black": "alice", "white": "bob"}
    >>> names_at(pos, start)
    {'black': 'alice', 'white': 'bob'}
    >>> _ = pos.play("c3"), pos.play("swap")
    >>> names_at(pos, start)
    {'black': 'bob', 'white': 'alice'}
    """
    if names is None:
        return None
    out = {}
    for colour in pos.colours:
        started = pos.colours[pos.seat_of_colour(colour)]  # the colour of this seat before any swap
        if started in names:
            out[colour] = names[started]
    return out


def scenes(record: Record, names: Mapping[str, str] | None = None) -> Iterator[Scene]:
    """The replay's frames as scenes, one per turn, each naming the players by the colours they have then.

    The record is played through twice (first to count the turns for the captions), so that no
    more than one position is held at a time.
    """
    total = sum(1 for _ in turns(record))
    for k, pos in enumerate(turns(record), 1):
        sc = scene_of(pos, names_at(pos, names))
        # the counter keeps two equal-looking turns from merging into one frame
        sc.caption = f"turn {k}/{total}"
        yield sc


def render_replay(
    record: Record,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
    width: int = 720,
    flip: bool = False,
    say: Say | None = None,
) -> bytes:
    """GIF bytes replaying ``record`` turn by turn (see the module docstring).

    ``names`` maps each colour to the player who *starts* with it (see :func:`names_at`).
    ``flip`` turns the board half a turn in every frame, as in :func:`render.render_position`;
    ``say`` says the frames' words in a language, as there.
    """
    with saying(say):
        return _replay(record, names, theme, width, flip)


def _replay(record: Record, names: Mapping[str, str] | None, theme: str, width: int, flip: bool) -> bytes:
    check_width(width)
    look = _theme(theme)
    total = sum(1 for _ in turns(record))
    out = io.BytesIO()
    before: Image.Image | None = None
    for sc, ms in zip(scenes(record, names), durations(total)):
        if before is None:
            cards = any(p.cards is not None for p in sc.panels)
            palette = palette_for(sc.style, sc.size, cards, look, width, flip)
        frame = to_palette(paint(sc, look, width, flip), palette)
        if before is None:
            header, _ = GifImagePlugin.getheader(frame, None, {"loop": 0, "transparency": CLEAR, "optimize": False})
            out.writelines(header)
            _write_frame(out, frame, (0, 0), ms)
        else:
            _write_change(out, before, frame, ms)
        before = frame
    out.write(b";")  # the GIF trailer
    return out.getvalue()


def _write_frame(out: io.BytesIO, image: Image.Image, offset: tuple[int, int], ms: int) -> None:
    """One frame (or the changed rectangle of one, at ``offset``), drawn over the one before (disposal 1)."""
    out.writelines(GifImagePlugin.getdata(image, offset, duration=ms, disposal=1, transparency=CLEAR))


def _write_change(out: io.BytesIO, before: Image.Image, after: Image.Image, ms: int) -> None:
    """A frame after the first: only the rectangle that changed, every pixel in it equal to the frame
    before made transparent, so long runs of the transparent index compress to almost nothing."""
    box = ImageChops.difference(after, before).getbbox()
    if box is None:  # nothing changed: a one-pixel transparent frame keeps the frame and its time
        _write_frame(out, Image.new("P", (1, 1), CLEAR), (0, 0), ms)
        return
    part, was = after.crop(box), before.crop(box)
    same = ImageChops.difference(part, was).point(_ZERO_TO_WHITE, "1")
    part.paste(CLEAR, mask=same)
    _write_frame(out, part, box[:2], ms)


#: the palette index no picture uses (palettes have 255 colours)
CLEAR = COLOURS
_ZERO_TO_WHITE = [255] + [0] * 255
