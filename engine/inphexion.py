"""inpHeXion (Masahiro Nakajima, 2014), RULES.md §2.

White moves first and connects top and bottom; Black connects left and right.
After White's opening placement every turn moves one *enemy* disc to an empty
neighbouring cell and puts one of the mover's discs where it was. A lone enemy
disc that this leaves surrounded by the mover's discs (or the edge) is
relocated by the mover to any empty cell. Variants: ``pie``, ``free-reply``
and ``neutral`` (a neutral disc that is everybody's enemy starts on the centre).

>>> pos = InpHexion(InpHexion.make_options(5))
>>> pos.play("c3")
['c3']
>>> pos.play("c3 d3")
['c3 d3']
>>> pos.board_rows()[2], pos.hands()
('..BW.', {'white': 12, 'black': 12})

A turn that surrounds a disc waits for its relocation, by the same player:

>>> pos = InpHexion.from_board(["WW...", "B....", ".....", ".....", "....."], to_move="black")
>>> pos.play("b1 c1")
['b1 c1']
>>> pos.phase, pos.to_move, [pos.grid.name(i) for i in pos.pending_relocations()]
('relocate', ['black'], ['a1'])
>>> pos.play("e5")
['a1>e5']

Internal integer API (for search code: no strings, no parsing)
--------------------------------------------------------------
A *step* is one int: a move ``from << 7 | to`` (``from != to``), a placement
``cell << 7 | cell``, a relocation ``RELOCATE | from << 7 | to`` or ``SWAP``.
:meth:`InpHexion._legal_moves` lists the steps of the current phase (a turn
that surrounds discs is one move step followed by one relocation step per
disc, all by the same player), :meth:`InpHexion._push` applies one unchecked,
and :meth:`InpHexion._move_text` names one in canonical notation.
"""

from __future__ import annotations

import random
import re
from typing import Callable, ClassVar, Iterable, Self, Sequence

from .errors import GameOverError, IllegalActionError, NotationError
from .geometry import HexGrid, bits
from .messages import Message, sentence
from .notation import shorten
from .outcome import Outcome, Reason
from .position import GameOptions, LastTurn, Position

SWAP = "swap"
#: step flag of a relocation (see the module docstring)
RELOCATE = 1 << 14
#: the swap step
SWAP_STEP = 1 << 15
_CELL_BITS = 7
_CELL_MASK = (1 << _CELL_BITS) - 1

_COLOURS = ("white", "black")
_ARROW = re.compile(r"\s*>\s*")
#: how many discs wait to be relocated, in words (a turn surrounds at most six); they start a sentence
_COUNTS = {2: sentence("two"), 3: sentence("three"), 4: sentence("four"), 5: sentence("five"), 6: sentence("six"),
           7: sentence("seven")}


def full_hand(size: int, neutral: bool) -> int:
    """Discs each player starts with: ⌈n²/2⌉, one fewer with the neutral disc.

    >>> full_hand(7, False), full_hand(7, True)
    (25, 24)
    """
    return (size * size + 1) // 2 - int(neutral)


class InpHexion(Position):
    """An inpHeXion position: bitboards of the discs, hands, whose turn and phase, the record.

    Sides are numbered 0 (white) and 1 (black) internally; ``_stones[side]`` and
    ``_hand[side]`` are that side's discs (a bitboard) and discs in hand.
    """

    game: ClassVar[str] = "inphexion"
    title: ClassVar[str] = "inpHeXion"
    colours: ClassVar[tuple[str, str]] = _COLOURS
    vertical: ClassVar[str] = "white"
    symbols: ClassVar[dict[str, str]] = {"white": "W", "black": "B", "neutral": "N"}
    sizes: ClassVar[tuple[int, ...]] = (5, 7, 9, 11)
    default_size: ClassVar[int] = 7
    example_size: ClassVar[int] = 7
    pie_rule: ClassVar[str | None] = "pie"
    variant_names: ClassVar[tuple[str, ...]] = ("free-reply", "neutral", "pie")

    __slots__ = (
        "options", "actions", "outcome", "swapped",
        "_stones", "_neutral", "_hand", "_side", "_phase", "_black_first",
        "_pending", "_forbidden", "_turn",
    )

    def __init__(self, options: GameOptions) -> None:
        self.options = options
        self.actions = []
        self.outcome = None
        self.swapped = False
        n = options.size
        neutral = "neutral" in options.variants
        self._stones = [0, 0]
        # The neutral disc starts on the centre; White's first turn then moves it.
        self._neutral = 1 << (n * n // 2) if neutral else 0
        self._hand = [full_hand(n, neutral)] * 2
        self._side = 0
        self._phase = "move" if neutral else "place"
        # Black's first turn may be a swap (pie) or a placement (free-reply).
        self._black_first = True
        self._pending: tuple[int, ...] = ()
        # The starting cells of this turn's relocated discs: no relocation may land there.
        self._forbidden = 0
        # The latest turn: (side, placed cell or -1, (from, to) or None, relocations, swap, first action index).
        self._turn: tuple | None = None

    @classmethod
    def from_board(
        cls,
        rows: Sequence[str],
        to_move: str = "white",
        hands: dict[str, int] | None = None,
        variants: Iterable[str] = (),
        swapped: bool = False,
        black_first: bool | None = None,
    ) -> "InpHexion":
        """A position with the given discs, for tests, pictures and rule examples.

        ``rows`` are the n rows top to bottom, one letter a cell: ``W``, ``B``, ``N``
        (the neutral disc, needs the ``neutral`` variant) or ``.``; spaces are ignored.
        Hands default to a full hand less the discs on the board. The phase is
        ``place`` for an empty board with White to move (no neutral disc), otherwise
        ``move``. ``black_first`` (Black has not had a turn yet, so free-reply and pie
        still apply) defaults to there being no black disc on the board. The position
        is settled as play would leave it: a connection on the board ends the game,
        and so does a player to move without a legal turn. The record (``actions``)
        starts empty, so it does not replay from a new game.

        >>> pos = InpHexion.from_board(["..W..", ".....", "..B..", ".....", "....."], to_move="black")
        >>> pos.hands(), pos.phase
        ({'white': 12, 'black': 12}, 'move')
        """
        grid_rows = ["".join(r.split()).upper() for r in rows]
        n = len(grid_rows)
        options = cls.make_options(n, tuple(variants))
        if any(len(r) != n for r in grid_rows):
            raise ValueError(f"every row must have {n} cells")
        if to_move not in _COLOURS:
            raise ValueError(f"to_move must be white or black, not {to_move!r}")
        pos = cls(options)
        stones = [0, 0]
        neutral = 0
        for i, ch in enumerate("".join(grid_rows)):
            if ch == "W":
                stones[0] |= 1 << i
            elif ch == "B":
                stones[1] |= 1 << i
            elif ch == "N":
                neutral |= 1 << i
            elif ch != ".":
                raise ValueError(f"unknown board letter {ch!r}: use W, B, N or .")
        has_neutral = "neutral" in options.variants
        if has_neutral != (neutral.bit_count() == 1) or neutral.bit_count() > 1:
            raise ValueError("the neutral variant has exactly one N on the board; other games none")
        side = _COLOURS.index(to_move)
        full = full_hand(n, has_neutral)
        hand = [full - stones[0].bit_count(), full - stones[1].bit_count()]
        for colour, count in (hands or {}).items():
            if colour not in _COLOURS:
                raise ValueError(f"hands are given per colour (white, black), not {colour!r}")
            hand[_COLOURS.index(colour)] = count
        if min(hand) < 0:
            raise ValueError(f"more discs than a hand holds ({full})")
        pos._stones = stones
        pos._neutral = neutral
        pos._hand = hand
        pos._side = side
        pos.swapped = swapped
        empty_board = not (stones[0] | stones[1] | neutral)
        pos._phase = "place" if empty_board and side == 0 else "move"
        pos._black_first = not stones[1] if black_first is None else black_first
        pos._settle()
        return pos

    def _settle(self) -> None:
        """End a built position the way play would have: a connection, or no legal turn."""
        g = self.grid
        for side in (0, 1):
            if g.connects(self._stones[side], side == 0):
                self.outcome = Outcome(_COLOURS[side], Reason.CONNECTION)
                return
        if not self._has_legal_turn():
            self.outcome = Outcome(_COLOURS[self._side ^ 1], Reason.NO_LEGAL_MOVE)

    # -- the protocol ----------------------------------------------------------
    @property
    def to_move(self) -> list[str]:
        """``['white']`` or ``['black']`` (the same player through a relocation); empty once over."""
        if self.outcome is not None:
            return []
        return [_COLOURS[self._side]]

    @property
    def phase(self) -> str:
        """``place`` (White's opening), ``move``, ``relocate`` or ``over``."""
        return "over" if self.outcome is not None else self._phase

    def legal_actions(self, player: str | None = None) -> list[str]:
        """Every legal action of the current phase in canonical notation, sorted.

        ``move``: every ``c4 d4`` (plus ``d4`` placements with free-reply and ``swap``
        with the pie rule on Black's first turn); ``place``: every empty cell;
        ``relocate``: ``b2>e7`` for each waiting disc and each allowed cell.
        """
        if self.outcome is not None or (player is not None and player not in self.to_move):
            return []
        return sorted(self._move_text(m) for m in self._legal_moves())

    def _play_line(self, line: str, player: str | None) -> list[str]:
        steps = self._tokens(line)
        done: list[str] = []
        i = 0
        while i < len(steps):
            if i and self.outcome is not None:
                rest = " ".join(_token_text(self.grid, s) for s in steps[i:])
                raise GameOverError(sentence("the game ended after {action} ({outcome}): leave out {rest}",
                                          action=done[-1], outcome=self.describe_outcome(), rest=rest))
            if i and self._phase != "relocate":
                rest = " ".join(_token_text(self.grid, s) for s in steps[i:])
                done_text = " ".join(done)
                if done[-1] == SWAP or ">" in done[-1]:
                    raise IllegalActionError(sentence("the turn ended after {actions}: leave out {rest}",
                                                   actions=done_text, rest=rest))
                raise IllegalActionError(sentence("the turn ended after {actions} (no disc was surrounded): leave out {rest}",
                                               actions=done_text, rest=rest))
            step, used = self._read_step(steps, i)
            text = self._move_text(step)
            self._push(step)
            done.append(text)
            i += used
        return done

    def copy(self) -> Self:
        """An independent copy (bitboards are ints; only small lists are copied)."""
        new = object.__new__(type(self))
        new.options = self.options
        new.actions = list(self.actions)
        new.outcome = self.outcome
        new.swapped = self.swapped
        new._stones = [*self._stones]
        new._neutral = self._neutral
        new._hand = [*self._hand]
        new._side = self._side
        new._phase = self._phase
        new._black_first = self._black_first
        new._pending = self._pending
        new._forbidden = self._forbidden
        new._turn = self._turn
        return new

    def piece_at(self, cell: int) -> str | None:
        """``white``, ``black``, ``neutral`` or None."""
        if self._stones[0] >> cell & 1:
            return "white"
        if self._stones[1] >> cell & 1:
            return "black"
        if self._neutral >> cell & 1:
            return "neutral"
        return None

    def hands(self) -> dict[str, int]:
        """Discs in hand per colour."""
        return {"white": self._hand[0], "black": self._hand[1]}

    def last_turn(self) -> LastTurn | None:
        """The latest turn, possibly still waiting for relocations (``pending``).

        ``placed`` is the mover's new disc, ``moved`` the enemy disc's (from, to),
        ``relocated`` the relocations made so far; a swap turn has ``swapped=True``.
        """
        if self._turn is None:
            return None
        side, placed, moved, relocated, swap, start = self._turn
        return LastTurn(
            # after a pie swap the mover plays the other colour
            _COLOURS[side ^ int(swap)],
            placed=() if placed < 0 else (placed,),
            moved=() if moved is None else (moved,),
            relocated=relocated,
            pending=() if self.outcome is not None else self._pending,
            swapped=swap,
            text=" ".join(self.actions[start:]),
        )

    def _state_key(self) -> tuple:
        return (
            self._stones[0], self._stones[1], self._neutral, self._hand[0], self._hand[1], self._side,
            self._phase, self._pending, self._forbidden, self.swapped, self._black_first, self.outcome,
        )

    # -- helpers for pictures and the bot ---------------------------------------------
    def pending_relocations(self) -> list[int]:
        """The cells of the discs waiting to be relocated (empty outside the relocate phase)."""
        if self.outcome is not None:
            return []
        return list(self._pending)

    def relocation_targets(self) -> list[int]:
        """The cells a waiting disc may be relocated to (empty outside the relocate phase)."""
        if self.outcome is not None or not self._pending:
            return []
        return bits(self._empty() & ~self._forbidden)

    def discs(self, colour: str) -> list[int]:
        """The cells holding ``colour``'s discs (``neutral`` for the neutral disc)."""
        if colour == "neutral":
            return bits(self._neutral)
        return bits(self._stones[_COLOURS.index(colour)])

    # -- rule predicates ------------------------------------------------------------------
    def _empty(self) -> int:
        """The empty cells as a bitboard."""
        return self.grid.full & ~(self._stones[0] | self._stones[1] | self._neutral)

    def _enemy(self, side: int) -> int:
        """The discs ``side`` may move: the opponent's and the neutral disc."""
        return self._stones[side ^ 1] | self._neutral

    def _free_reply_allowed(self) -> bool:
        """Whether Black may place a disc instead of moving (free-reply, Black's first turn)."""
        return self._black_first and self._side == 1 and self._phase == "move" and "free-reply" in self.options.variants

    def _swap_allowed(self) -> bool:
        """Whether Black may swap now (pie rule, Black's first turn, no swap yet)."""
        return (
            self._black_first and self._side == 1 and self._phase == "move"
            and "pie" in self.options.variants and not self.swapped
        )

    def _has_legal_turn(self) -> bool:
        """Whether the side to move has a legal turn (checked when a turn ends)."""
        if self._phase == "place" or self._free_reply_allowed() or self._swap_allowed():
            return True
        side = self._side
        if not self._hand[side]:
            return False
        return bool(self._enemy(side) & self.grid.expand(self._empty()))

    def _surrounded(self, around: int) -> tuple[int, ...]:
        """Enemy discs next to ``around`` that the mover's discs now surround.

        Only these can be newly surrounded: the mover's only new disc is on
        ``around``, which held an enemy disc (or was empty) before, so no enemy disc
        next to it was surrounded before, and nothing else changed for the others.
        The disc just moved sits next to ``around`` too.
        """
        g = self.grid
        mine = self._stones[self._side]
        out = []
        for x in bits(g.nmask[around] & self._enemy(self._side)):
            m = g.nmask[x]
            if m & mine == m:
                out.append(x)
        return tuple(out)

    # -- the internal integer API ----------------------------------------------------------
    def _legal_moves(self) -> list[int]:
        """Every legal step of the current phase as ints (see the module docstring)."""
        if self.outcome is not None:
            return []
        g = self.grid
        empty = self._empty()
        if self._phase == "place":
            return [c << _CELL_BITS | c for c in bits(empty)]
        if self._phase == "relocate":
            targets = bits(empty & ~self._forbidden)
            return [RELOCATE | x << _CELL_BITS | t for x in self._pending for t in targets]
        out = []
        if self._hand[self._side]:
            for a in bits(self._enemy(self._side) & g.expand(empty)):
                for b in bits(g.nmask[a] & empty):
                    out.append(a << _CELL_BITS | b)
        if self._free_reply_allowed():
            out.extend(c << _CELL_BITS | c for c in bits(empty))
        if self._swap_allowed():
            out.append(SWAP_STEP)
        return out

    def _move_text(self, step: int) -> str:
        """The canonical notation of a step: ``c4 d4``, ``d4``, ``b2>e7`` or ``swap``."""
        if step == SWAP_STEP:
            return SWAP
        names = self.grid._names
        a, b = step >> _CELL_BITS & _CELL_MASK, step & _CELL_MASK
        if step & RELOCATE:
            return f"{names[a]}>{names[b]}"
        if a == b:
            return names[a]
        return f"{names[a]} {names[b]}"

    def _push(self, step: int, record: bool = True) -> None:
        """Apply one legal step (unchecked) with all its consequences.

        With ``record=False`` the canonical text is not appended to ``actions``
        (search code that throws the position away saves the string work).
        """
        if step == SWAP_STEP:
            self._do_swap()
        else:
            a, b = step >> _CELL_BITS & _CELL_MASK, step & _CELL_MASK
            if step & RELOCATE:
                self._do_relocate(a, b)
            elif a == b:
                self._do_place(a)
            else:
                self._do_move(a, b)
        if record:
            self.actions.append(self._move_text(step))

    def _start_turn(self, placed: int, moved: tuple[int, int] | None, swap: bool) -> None:
        """Begin the record of a new turn; its first action will be ``actions[len(actions)]``."""
        self._turn = (self._side, placed, moved, (), swap, len(self.actions))

    def _do_swap(self) -> None:
        """Pie rule: the people exchange colours; board, hands and the colour to move stay."""
        self._start_turn(-1, None, True)
        self.swapped = not self.swapped

    def _do_place(self, cell: int) -> None:
        """Put a disc of the mover on empty ``cell`` (White's opening or a free reply)."""
        self._start_turn(cell, None, False)
        side = self._side
        self._stones[side] |= 1 << cell
        self._hand[side] -= 1
        if side == 1:
            self._black_first = False
        if self.grid.connects_through(self._stones[side], cell, side == 0):
            self.outcome = Outcome(_COLOURS[side], Reason.CONNECTION)
            return
        self._after_main(self._surrounded(cell))

    def _do_move(self, a: int, b: int) -> None:
        """Move the enemy disc on ``a`` to empty ``b`` and put a disc of the mover on ``a``."""
        self._start_turn(a, (a, b), False)
        side = self._side
        g = self.grid
        abit, bbit = 1 << a, 1 << b
        moved_opponent = not self._neutral & abit
        if moved_opponent:
            self._stones[side ^ 1] ^= abit | bbit
        else:
            self._neutral = bbit
        self._stones[side] |= abit
        self._hand[side] -= 1
        if side == 1:
            self._black_first = False
        # Whoever connects now wins: the mover through a, or the opponent through b
        # ("you lose if you complete your opponent's connection"). Never both.
        if g.connects_through(self._stones[side], a, side == 0):
            self.outcome = Outcome(_COLOURS[side], Reason.CONNECTION)
            return
        if moved_opponent and g.connects_through(self._stones[side ^ 1], b, side == 1):
            self.outcome = Outcome(_COLOURS[side ^ 1], Reason.CONNECTION)
            return
        self._after_main(self._surrounded(a))

    def _after_main(self, surrounded: tuple[int, ...]) -> None:
        """After a move or placement: relocate what it surrounded, or end the turn."""
        if not surrounded:
            self._end_turn()
            return
        # The surrounded discs still stand on their starting cells, so every empty cell
        # is an allowed destination now.
        if self._empty().bit_count() < len(surrounded):
            self.outcome = Outcome(_COLOURS[self._side ^ 1], Reason.CANNOT_RELOCATE)
            return
        self._phase = "relocate"
        self._pending = surrounded
        self._forbidden = sum(1 << x for x in surrounded)

    def _do_relocate(self, x: int, t: int) -> None:
        """Relocate the waiting disc on ``x`` to the allowed empty cell ``t``."""
        side = self._side
        xbit, tbit = 1 << x, 1 << t
        turn = self._turn
        assert turn is not None  # a relocation always follows the move that started the turn
        self._turn = turn[:3] + (turn[3] + ((x, t),),) + turn[4:]
        self._pending = tuple(p for p in self._pending if p != x)
        if self._neutral & xbit:
            self._neutral = tbit
        else:
            opp = self._stones[side ^ 1] ^ (xbit | tbit)
            self._stones[side ^ 1] = opp
            if self.grid.connects_through(opp, t, side == 1):
                self.outcome = Outcome(_COLOURS[side ^ 1], Reason.CONNECTION)
                return
        if not self._pending:
            self._end_turn()

    def _end_turn(self) -> None:
        """Hand the turn over; the next player loses at once without a legal turn."""
        self._side ^= 1
        self._phase = "move"
        self._pending = ()
        self._forbidden = 0
        if not self._has_legal_turn():
            self.outcome = Outcome(_COLOURS[self._side ^ 1], Reason.NO_LEGAL_MOVE)

    # -- reading notation ----------------------------------------------------------------------
    def _tokens(self, line: str) -> list[tuple]:
        """Split a normalised line into ``('cell', i)``, ``('relocate', x, t)`` and ``('swap',)``.

        Raises NotationError for anything that is not inpHeXion notation.
        """
        g = self.grid
        out: list[tuple] = []
        for tok in _ARROW.sub(">", line).split(" "):
            if tok == SWAP:
                out.append((SWAP,))
            elif ">" in tok:
                parts = tok.split(">")
                if len(parts) != 2 or not all(g.is_cell(p) for p in parts):
                    raise NotationError(sentence(
                        "'{typed}' is not a relocation: write the disc's cell, >, and an empty cell, such as b2>e7",
                        typed=shorten(tok)))
                out.append(("relocate", g.parse(parts[0]), g.parse(parts[1])))
            elif g.is_cell(tok):
                out.append(("cell", g.parse(tok)))
            else:
                raise NotationError(sentence("'{typed}' is not an inpHeXion action: write a move such as c4 d4, "
                                          "a cell such as d4, a relocation such as b2>e7, or swap", typed=shorten(tok)))
        return out

    def _read_step(self, steps: list[tuple], i: int) -> tuple[int, int]:
        """The checked step that ``steps[i:]`` starts with, and how many tokens it used."""
        tok = steps[i]
        nxt = steps[i + 1] if i + 1 < len(steps) else None
        two_cells = tok[0] == "cell" and nxt is not None and nxt[0] == "cell"
        if self._phase == "relocate":
            return self._read_relocation(tok, nxt), 1
        if tok[0] == SWAP:
            return self._check_swap(steps), 1
        if tok[0] == "relocate":
            raise IllegalActionError(sentence("there is no disc to relocate: first move an enemy disc, such as {example}",
                                           example=self._example_move()))
        if self._phase == "place":
            if two_cells:
                raise IllegalActionError(sentence("White's first turn places one disc: write one cell, such as d4"))
            return self._check_place(tok[1]), 1
        if two_cells:
            assert nxt is not None
            return self._check_move(tok[1], nxt[1]), 2
        if self._free_reply_allowed():
            return self._check_place(tok[1]), 1
        if "free-reply" in self.options.variants:
            raise IllegalActionError(sentence(
                "a turn moves an enemy disc to an empty neighbouring cell: write both cells, such as {example} "
                "(free-reply placements are only for Black's first turn)", example=self._example_move()))
        raise IllegalActionError(sentence(
            "a turn moves an enemy disc to an empty neighbouring cell: write both cells, such as {example}",
            example=self._example_move()))

    def _check_swap(self, steps: list[tuple]) -> int:
        """The swap step, or IllegalActionError saying why not."""
        if not self._swap_allowed():
            if self.swapped and "pie" in self.options.variants:
                raise IllegalActionError(sentence(
                    "swap is only allowed on Black's first turn with the pie rule (there is no second swap)"))
            raise IllegalActionError(sentence("swap is only allowed on Black's first turn with the pie rule"))
        if len(steps) > 1:
            raise IllegalActionError(sentence("swap is a turn of its own: send swap alone, then Black moves"))
        return SWAP_STEP

    def _check_place(self, cell: int) -> int:
        """The placement step on ``cell``, or IllegalActionError if it is taken."""
        g = self.grid
        if not self._empty() >> cell & 1:
            raise IllegalActionError(sentence("{cell} is taken", cell=g.name(cell)))
        return cell << _CELL_BITS | cell

    def _check_move(self, a: int, b: int) -> int:
        """The move step ``a`` → ``b``, or IllegalActionError naming what is wrong."""
        g = self.grid
        side = self._side
        abit = 1 << a
        if self._stones[side] & abit:
            raise IllegalActionError(sentence("{cell} holds your own disc — you move one of your opponent's discs",
                                           cell=g.name(a)))
        if not self._enemy(side) & abit:
            raise IllegalActionError(sentence("{cell} is empty — pick an enemy disc to move", cell=g.name(a)))
        if a == b:
            raise IllegalActionError(sentence("the disc must move to an empty cell next to {cell}", cell=g.name(a)))
        if not g.nmask[a] >> b & 1:
            raise IllegalActionError(sentence("{cell} is not next to {origin}", cell=g.name(b), origin=g.name(a)))
        if not self._empty() >> b & 1:
            raise IllegalActionError(sentence("{cell} is taken", cell=g.name(b)))
        if not self._hand[side]:
            raise IllegalActionError(sentence("you have no discs left in hand"))
        return a << _CELL_BITS | b

    def _read_relocation(self, tok: tuple, nxt: tuple | None) -> int:
        """The relocation step a token means in the relocate phase (``b2>e7`` or a bare ``e7``).

        ``nxt`` is the token after it, if any: two cells in a row are a move (refused
        until the relocation is made) unless the first is empty, when they are bare
        destinations (``a5 e5``) and the message says how to write the relocations.
        """
        g = self.grid
        pending = self._pending
        first = g.name(pending[0])
        two_cells = tok[0] == "cell" and nxt is not None and nxt[0] == "cell"
        if two_cells and self._empty() >> tok[1] & 1:
            assert nxt is not None
            raise IllegalActionError(self._bare_destinations_message(tok[1], nxt[1]))
        if tok[0] == SWAP or two_cells:
            raise IllegalActionError(sentence("the turn is not finished: relocate {cell} first (e.g. {example})",
                                           cell=first, example=f"{first}>{self._example_targets(1)[0]}"))
        if tok[0] == "cell":
            if len(pending) > 1:
                raise IllegalActionError(self._say_where_each())
            x, t = pending[0], tok[1]
        else:
            x, t = tok[1], tok[2]
            if x not in pending:
                raise IllegalActionError(sentence("{cell} is not waiting to be relocated (relocate {cells})",
                                               cell=g.name(x), cells=", ".join(g.name(p) for p in pending)))
        if self._forbidden >> t & 1:
            raise IllegalActionError(sentence("{cell} was a starting cell of a relocated disc this turn", cell=g.name(t)))
        if not self._empty() >> t & 1:
            raise IllegalActionError(sentence("{cell} is taken", cell=g.name(t)))
        return RELOCATE | x << _CELL_BITS | t

    def _bare_destinations_message(self, cell: int, extra: int) -> Message:
        """The message for two bare cells (``a5 b5``) while discs wait to be relocated.

        With several discs waiting, bare cells cannot say which disc goes where; with
        one, the first cell is its destination and the second has nothing to do.
        """
        if len(self._pending) > 1:
            return self._say_where_each()
        g = self.grid
        disc = g.name(self._pending[0])
        # Show the player's own destination when it is allowed, so the fix is one edit.
        allowed = self._empty() & ~self._forbidden
        target = g.name(cell) if allowed >> cell & 1 else self._example_targets(1)[0]
        return sentence("one disc is surrounded ({disc}): relocate it with {example} and leave out {rest}",
                     disc=disc, example=f"{disc}>{target}", rest=g.name(extra))

    def _say_where_each(self) -> Message:
        """The message for a bare destination when several discs wait."""
        g = self.grid
        cells = [g.name(p) for p in self._pending]
        k = len(cells)
        example = " ".join(f"{c}>{t}" for c, t in zip(cells, self._example_targets(k)))
        return sentence("{count} discs are surrounded ({cells}): say where each goes, e.g. {example}",
                     count=_COUNTS.get(k, str(k)), cells=", ".join(cells), example=example)

    def _example_targets(self, k: int) -> list[str]:
        """``k`` different allowed relocation cells for messages (spread over the board)."""
        targets = self.relocation_targets()
        targets = targets[::-1] if targets else [0]
        return [self.grid.name(targets[j % len(targets)]) for j in range(k)]

    def _example_move(self) -> str:
        """A legal move for messages (``c4 d4`` if there is none)."""
        moves = [m for m in self._legal_moves() if m != SWAP_STEP and m >> _CELL_BITS != m & _CELL_MASK]
        return self._move_text(moves[0]) if moves else "c4 d4"

    # -- fast random games -----------------------------------------------------------------------
    def random_playout(self, rng: random.Random, log: list[str] | None = None) -> Outcome:
        """The outcome of a random game from here; the position itself is not changed.

        Every step is uniform over the legal steps of its phase (as random play
        through :meth:`legal_actions` would be), except that relocations are made
        in ascending order of their cells, each to a uniformly random allowed cell.
        The opening (White's placement, Black's first turn with free-reply or pie)
        and an unfinished relocation go through :meth:`_push`; ordinary turns run
        in a tight loop on local bitboards. Pass a list as ``log`` to receive the
        canonical actions, which replay through :meth:`play` to the same outcome.
        """
        if self.outcome is not None:
            return self.outcome
        t = self.copy()
        t.actions = []
        rand = rng.random
        while t.outcome is None:
            if t._phase == "move":
                step = t._random_opening_step(rand)
                if step is None:
                    break
            else:
                moves = t._legal_moves()
                step = moves[int(rand() * len(moves))]
            if log is not None:
                log.append(t._move_text(step))
            t._push(step, record=False)
        if t.outcome is not None:
            return t.outcome
        return t._fast_playout(rand, log)

    def _random_opening_step(self, rand: Callable[[], float]) -> int | None:
        """On Black's first turn, a uniform choice among moves, placements and swap.

        Returns None when the choice is an ordinary move (or there is no such first
        turn): the fast loop then picks a uniform move itself.
        """
        free = self._free_reply_allowed()
        swap = self._swap_allowed()
        if not free and not swap:
            return None
        g = self.grid
        empty = self._empty()
        moves = sum((g.nmask[a] & empty).bit_count() for a in bits(self._enemy(1) & g.expand(empty)))
        places = empty.bit_count() if free else 0
        r = int(rand() * (moves + places + swap))
        if r < moves:
            return None
        r -= moves
        if r == places:
            return SWAP_STEP
        cell = bits(empty)[r]
        return cell << _CELL_BITS | cell

    def _fast_playout(self, rand: Callable[[], float], log: list[str] | None) -> Outcome:
        """Random ordinary turns to the end (called on a scratch copy): see :func:`fast_playout`."""
        winner, reason, _, _ = fast_playout(
            self.grid, self._side, self._stones, self._hand, self._neutral, rand, log
        )
        return Outcome(_COLOURS[winner], reason)

def fast_playout(
    g: HexGrid,
    side: int,
    stones: Sequence[int],
    hands: Sequence[int],
    neutral: int,
    rand: Callable[[], float],
    log: list[str] | None = None,
) -> tuple[int, Reason, int, int]:
    """Random ordinary turns to the end on local ints: the one playout kernel.

    From a position in the move phase with ``side`` to move (0 white, 1 black),
    ``stones`` and ``hands`` indexed by side and the ``neutral`` disc's bit, play
    uniform (disc, direction) moves, relocating surrounded discs in ascending order
    to uniformly random allowed cells, until the game ends. Returns (winning side,
    reason, white's discs, black's discs at the end). The engine's
    :meth:`InpHexion.random_playout` and the AI's playouts both run it.

    Same rules as :meth:`InpHexion._do_move`, :meth:`~InpHexion._after_main`,
    :meth:`~InpHexion._do_relocate` and :meth:`~InpHexion._end_turn`, inlined: the
    mover's discs are ``mine``, the opponent's ``opp``; the sides swap roles after
    every turn. ``log``, if given, receives the canonical actions.
    """
    n, n1 = g.n, g.n - 1
    nl, nf = g._not_last_col, g._not_first_col
    nmask = g.nmask
    names = g._names
    mine, opp = stones[side], stones[side ^ 1]
    hm, ho = hands[side], hands[side ^ 1]
    neu = neutral
    # Mover's sides (m1, m2) and the opponent's (o1, o2).
    m1, m2, o1, o2 = (g.top, g.bottom, g.left, g.right)
    if side:
        m1, m2, o1, o2 = o1, o2, m1, m2
    empty = g.full ^ (mine | opp | neu)

    def joins(stones: int, f: int, e1: int, e2: int) -> bool:
        """Whether the chain of ``stones`` through bitboard ``f`` touches ``e1`` and ``e2``."""
        while True:
            if f & e1 and f & e2:
                return True
            h = (f | f >> 1 & nl | f << 1 & nf | f >> n | f >> n1 & nf | f << n1 & nl | f << n) & stones
            if h == f:
                return False
            f = h

    while True:
        enemy = opp | neu
        # From-cells whose neighbour in each of the six directions is empty.
        f1 = enemy & empty >> 1 & nl
        f2 = enemy & empty << 1 & nf
        f3 = enemy & empty >> n
        f4 = enemy & empty << n
        f5 = enemy & empty >> n1 & nf
        f6 = enemy & empty << n1 & nl
        c1, c2, c3 = f1.bit_count(), f2.bit_count(), f3.bit_count()
        c4, c5, c6 = f4.bit_count(), f5.bit_count(), f6.bit_count()
        total = c1 + c2 + c3 + c4 + c5 + c6
        if not total or not hm:
            return _ended(side ^ 1, Reason.NO_LEGAL_MOVE, side, mine, opp)
        # A uniform (disc, direction) pair: pick a direction by its weight, then a disc.
        r = int(rand() * total)
        if r < c1:
            f, off = f1, 1
        elif (r := r - c1) < c2:
            f, off = f2, -1
        elif (r := r - c2) < c3:
            f, off = f3, n
        elif (r := r - c3) < c4:
            f, off = f4, -n
        elif (r := r - c4) < c5:
            f, off = f5, n1
        else:
            r -= c5
            f, off = f6, -n1
        while r:
            f &= f - 1
            r -= 1
        abit = f & -f
        a = abit.bit_length() - 1
        b = a + off
        bbit = 1 << b
        if log is not None:
            log.append(f"{names[a]} {names[b]}")
        mine |= abit
        hm -= 1
        empty ^= bbit
        if neu & abit:
            neu = bbit
            moved_opponent = False
        else:
            opp ^= abit | bbit
            moved_opponent = True
        if mine & m1 and mine & m2 and joins(mine, abit, m1, m2):
            return _ended(side, Reason.CONNECTION, side, mine, opp)
        if moved_opponent and opp & o1 and opp & o2 and joins(opp, bbit, o1, o2):
            return _ended(side ^ 1, Reason.CONNECTION, side, mine, opp)
        cand = nmask[a] & (opp | neu)
        pending = None
        while cand:
            low = cand & -cand
            cand ^= low
            x = low.bit_length() - 1
            m = nmask[x]
            if m & mine == m:
                if pending is None:
                    pending = [x]
                else:
                    pending.append(x)
        if pending is not None:
            allowed = empty
            free = allowed.bit_count()
            if free < len(pending):
                return _ended(side ^ 1, Reason.CANNOT_RELOCATE, side, mine, opp)
            for x in pending:
                r = int(rand() * free)
                free -= 1
                t = allowed
                while r:
                    t &= t - 1
                    r -= 1
                tbit = t & -t
                allowed ^= tbit
                xbit = 1 << x
                empty ^= xbit | tbit
                if log is not None:
                    log.append(f"{names[x]}>{names[tbit.bit_length() - 1]}")
                if neu & xbit:
                    neu = tbit
                else:
                    opp ^= xbit | tbit
                    if opp & o1 and opp & o2 and joins(opp, tbit, o1, o2):
                        return _ended(side ^ 1, Reason.CONNECTION, side, mine, opp)
        side ^= 1
        mine, opp = opp, mine
        hm, ho = ho, hm
        m1, m2, o1, o2 = o1, o2, m1, m2


def _ended(winner: int, reason: Reason, side: int, mine: int, opp: int) -> tuple[int, Reason, int, int]:
    """The kernel's answer: (winning side, reason, white's discs, black's discs)."""
    return (winner, reason, mine, opp) if side == 0 else (winner, reason, opp, mine)


def _token_text(g, tok: tuple) -> str:
    """A parsed token back in notation (for messages)."""
    if tok[0] == SWAP:
        return SWAP
    if tok[0] == "cell":
        return g.name(tok[1])
    return f"{g.name(tok[1])}>{g.name(tok[2])}"

