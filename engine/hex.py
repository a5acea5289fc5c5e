"""Hex (Piet Hein 1942, John Nash 1948), RULES.md §3.

Black moves first and connects top and bottom; White connects left and right.
A turn places one stone on an empty cell; the first player to connect their
sides wins. Two forms of the pie rule are offered as variants: ``swap`` (the
people exchange colours, the stone stays) and ``swap-pieces`` (the first stone
is mirrored across the long diagonal and turns white).

>>> pos = Hex(Hex.make_options(5, ["swap"]))
>>> pos.play("c2")
['c2']
>>> pos.play("swap")
['swap']
>>> pos.swapped, pos.to_move, pos.piece_at(pos.grid.parse("c2"))
(True, ['white'], 'black')
"""

from __future__ import annotations

import random
from typing import ClassVar, Self

from .errors import IllegalActionError, NotationError, OptionsError
from .geometry import bits
from .messages import Colour, sentence
from .notation import shorten
from .outcome import Outcome, Reason
from .position import GameOptions, LastTurn, Position

SWAP = "swap"


class Hex(Position):
    """A Hex position: two bitboards of stones, who swapped, the record and the outcome."""

    game: ClassVar[str] = "hex"
    title: ClassVar[str] = "Hex"
    colours: ClassVar[tuple[str, str]] = ("black", "white")
    vertical: ClassVar[str] = "black"
    symbols: ClassVar[dict[str, str]] = {"black": "B", "white": "W"}
    sizes: ClassVar[tuple[int, ...]] = tuple(range(3, 20))
    default_size: ClassVar[int] = 11
    example_size: ClassVar[int] = 9
    pie_rule: ClassVar[str | None] = "swap"
    variant_names: ClassVar[tuple[str, ...]] = ("swap", "swap-pieces")

    def __init__(self, options: GameOptions) -> None:
        self.options = options
        self.actions = []
        self.outcome = None
        self.swapped = False
        self._black = 0
        self._white = 0
        # Kept explicitly: stone counts cannot tell, since after a piece swap White has
        # one stone more with Black to move.
        self._white_to_move = False
        self._last: LastTurn | None = None

    @classmethod
    def make_options(
        cls, size: int | None = None, variants: tuple[str, ...] | list[str] = (), first: str | None = None
    ) -> GameOptions:
        """Check options; ``swap`` and ``swap-pieces`` are two forms of one rule, so not both."""
        options = super().make_options(size, variants, first)
        if len(options.variants) == 2:
            raise OptionsError("choose one pie rule for Hex: swap or swap-pieces, not both")
        return options

    # -- the protocol ----------------------------------------------------------
    @property
    def to_move(self) -> list[str]:
        """``['black']`` or ``['white']``; empty once the game is over."""
        if self.outcome is not None:
            return []
        return ["white"] if self._white_to_move else ["black"]

    @property
    def phase(self) -> str:
        """``place`` until the game ends, then ``over``."""
        return "over" if self.outcome is not None else "place"

    def legal_actions(self, player: str | None = None) -> list[str]:
        """Every empty cell, plus ``swap`` when the pie rule allows it, sorted."""
        if self.outcome is not None or (player is not None and player not in self.to_move):
            return []
        g = self.grid
        out = [g.name(i) for i in bits(self._empty_mask())]
        if self._swap_allowed():
            out.append(SWAP)
        return sorted(out)

    def _play_line(self, line: str, player: str | None) -> list[str]:
        if line == SWAP:
            self._check_swap()
            self._push_swap()
            return [SWAP]
        if " " in line:
            raise NotationError(sentence("'{typed}' is more than one action: a Hex turn is one cell, such as e5",
                                      typed=shorten(line)))
        g = self.grid
        if not g.is_cell(line):
            raise NotationError(sentence("'{typed}' is not a Hex action: write a cell such as e5, or swap",
                                      typed=shorten(line)))
        cell = g.parse(line)
        owner = self.piece_at(cell)
        if owner is not None:
            raise IllegalActionError(sentence("{cell} already holds a {colour} stone; choose an empty cell",
                                           cell=g.name(cell), colour=Colour(owner)))
        self._push_cell(cell)
        return [g.name(cell)]

    def copy(self) -> Self:
        """An independent copy (the stones are ints, so only the action list is copied)."""
        new = object.__new__(type(self))
        new.options = self.options
        new.actions = list(self.actions)
        new.outcome = self.outcome
        new.swapped = self.swapped
        new._black = self._black
        new._white = self._white
        new._white_to_move = self._white_to_move
        new._last = self._last
        return new

    def piece_at(self, cell: int) -> str | None:
        """``black``, ``white`` or None."""
        if self._black >> cell & 1:
            return "black"
        if self._white >> cell & 1:
            return "white"
        return None

    def hands(self) -> None:
        """Hex has no hands: stones are unlimited."""
        return None

    def last_turn(self) -> LastTurn | None:
        """The latest placement or swap.

        A swap is reported with ``player='white'`` (the colour whose turn it was) and
        ``swapped=True``; with ``swap-pieces`` it also names the mirrored white stone.
        """
        return self._last

    def _state_key(self) -> tuple:
        return (self._black, self._white, self._white_to_move, self.swapped, self.outcome)

    # -- swap ----------------------------------------------------------------------
    def _swap_allowed(self) -> bool:
        """White's first turn in a game with a pie rule (exactly one action so far)."""
        return bool(self.options.variants) and self.outcome is None and len(self.actions) == 1

    def _check_swap(self) -> None:
        if not self.options.variants:
            raise IllegalActionError(sentence("this game is played without the swap rule; place a stone on an empty cell"))
        if not self.actions:
            raise IllegalActionError(sentence(
                "swap is only allowed on White's first turn (Black has not placed the first stone yet)"))
        if len(self.actions) != 1:
            raise IllegalActionError(sentence("swap is only allowed on White's first turn (that chance has passed)"))

    # -- internal integer API (for search code: no parsing, no copies) ---------------
    def _empty_mask(self) -> int:
        """The empty cells as a bitboard."""
        return self.grid.full & ~(self._black | self._white)

    def _stones(self, colour: str) -> int:
        """The stones of ``colour`` as a bitboard."""
        return self._black if colour == "black" else self._white

    def _push_cell(self, cell: int) -> None:
        """Place the mover's stone on empty ``cell`` (unchecked) and end the game if it connects."""
        g = self.grid
        bit = 1 << cell
        if self._white_to_move:
            colour = "white"
            self._white |= bit
            won = g.connects_through(self._white, cell, False)
        else:
            colour = "black"
            self._black |= bit
            won = g.connects_through(self._black, cell, True)
        self._white_to_move = not self._white_to_move
        name = g.name(cell)
        self.actions.append(name)
        self._last = LastTurn(colour, placed=(cell,), text=name)
        if won:
            self.outcome = Outcome(colour, Reason.CONNECTION)

    def _push_swap(self) -> None:
        """Apply the pie rule of this game's variant (unchecked: call only when allowed)."""
        if "swap-pieces" in self.options.variants:
            g = self.grid
            first = self._black.bit_length() - 1
            col, row = g.coords(first)
            mirrored = g.index(row, col)
            self._black = 0
            self._white = 1 << mirrored
            self._white_to_move = False
            self._last = LastTurn("white", placed=(mirrored,), swapped=True, text=SWAP)
        else:
            self.swapped = not self.swapped
            # The person who swapped now plays Black (the first stone is theirs).
            self._last = LastTurn("black", swapped=True, text=SWAP)
        self.actions.append(SWAP)

    # -- fast random games ---------------------------------------------------------------
    def random_playout(self, rng: random.Random, log: list[str] | None = None) -> Outcome:
        """The outcome of a uniformly random game from here; the position itself is not changed.

        Fast path: in Hex the winner of random play is the winner of the random fill
        of the board (a full board has exactly one connection, and the first chain to
        connect is still there at the end), so one fill and one flood fill decide it.
        ``swap`` is chosen with the probability random play would give it. Pass a list
        as ``log`` to receive the actions of one such game, which replay through
        :meth:`play` to the same outcome.
        """
        if self.outcome is not None:
            return self.outcome
        g = self.grid
        black, white = self._black, self._white
        black_to_move = not self._white_to_move
        swapped = False
        empty = g.full & ~(black | white)
        free = empty.bit_count()
        # Random play picks swap with probability 1 / (empty cells + 1).
        if self._swap_allowed() and rng.randrange(free + 1) == free:
            swapped = True
            if "swap-pieces" in self.options.variants:
                col, row = g.coords(black.bit_length() - 1)
                black, white = 0, 1 << g.index(row, col)
                empty = g.full & ~white
                black_to_move = True
        # The side to move gets the extra stone when the free cells are odd.
        mine = (free + 1) // 2
        n = g.cells
        getrandbits = rng.getrandbits
        while True:
            fill = getrandbits(n) & empty
            if fill.bit_count() == mine:
                break
        if black_to_move:
            black_wins = g.connects(black | fill, True)
        else:
            black_wins = g.connects(black | (empty & ~fill), True)
        winner = "black" if black_wins else "white"
        if log is not None:
            log.extend(self._random_order(rng, fill, empty & ~fill, swapped))
        return Outcome(winner, Reason.CONNECTION)

    def _random_order(self, rng: random.Random, mover: int, other: int, swapped: bool) -> list[str]:
        """Actions of a random game that fills ``mover``/``other`` alternately, cut at its end."""
        first, second = bits(mover), bits(other)
        rng.shuffle(first)
        rng.shuffle(second)
        order = [c for pair in zip(first, second) for c in pair]
        if len(first) > len(second):
            order.append(first[-1])
        trial = self.copy()
        out = []
        if swapped:
            trial._push_swap()
            out.append(SWAP)
        for cell in order:
            trial._push_cell(cell)
            out.append(trial.grid.name(cell))
            if trial.outcome is not None:
                break
        return out
