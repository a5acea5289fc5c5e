"""The protocol every game's position follows, so render and bot never branch
on game internals they do not need.

A position knows its options, whose turn it is (``to_move``, a list because
Blind Hex players choose at the same time), the ``phase``, the canonical
``actions`` played so far (the record) and, once over, its ``outcome``.
``play(text)`` takes one line of notation (which may hold several actions,
such as a whole inpHeXion turn ``c4 d4 b2>e7``) and is atomic: it applies all
of it or raises an :class:`~engine.errors.ActionError` and changes nothing.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from .action import Action
from .errors import GameOverError, OptionsError, WrongTurnError
from .geometry import HexGrid, grid
from .messages import Colour, Message, colours, sentence
from .notation import normalize
from .outcome import Outcome, Reason


@dataclass(frozen=True, slots=True)
class GameOptions:
    """What fixes a game before the first action: game, board size, variants, cut winner.

    ``variants`` is always sorted; ``first`` is the Blind Hex cut winner (``x`` or ``o``)
    and None for the other games.
    """

    game: str
    size: int
    variants: tuple[str, ...] = ()
    first: str | None = None

    def new_position(self) -> "Position":
        """A fresh position with these options."""
        return _CLASSES[self.game](self)


#: each game's class by name, filled as the classes are defined (``engine.games.GAMES``
#: is the public registry); lets options start a position without importing the games
_CLASSES: dict[str, type["Position"]] = {}


@dataclass(frozen=True, slots=True)
class LastTurn:
    """What the latest turn did, for pictures and captions (cells are indices).

    ``player``: the colour the mover plays after the turn (after a swap of colours
    that is their new colour, so a name looked up by colour is the mover's);
    ``placed``: cells where the mover put a disc, stone or letter (ringed in pictures);
    ``moved``: (from, to) of the enemy disc moved this turn (an arrow);
    ``relocated``: (from, to) of discs relocated this turn (dashed arrows);
    ``pending``: discs still waiting to be relocated (highlighted);
    ``swapped``: the turn was a swap; ``cards``: Blind Hex cards revealed this round.
    """

    player: str
    placed: tuple[int, ...] = ()
    moved: tuple[tuple[int, int], ...] = ()
    relocated: tuple[tuple[int, int], ...] = ()
    pending: tuple[int, ...] = ()
    swapped: bool = False
    cards: dict[str, tuple[int, int]] | None = None
    text: str = ""


class Position(ABC):
    """Base class of inpHeXion, Hex and Blind Hex positions (see the module docstring)."""

    #: the CLI and record name of the game
    game: ClassVar[str]
    #: the game's printed name
    title: ClassVar[str]
    #: colours in seat order at the start: the first player's colour first
    colours: ClassVar[tuple[str, str]]
    #: the colour that connects top and bottom
    vertical: ClassVar[str]
    #: board letters in ``board_rows`` for each colour (and ``neutral``)
    symbols: ClassVar[dict[str, str]]
    sizes: ClassVar[tuple[int, ...]]
    default_size: ClassVar[int]
    #: the size of the worked examples shown to players (``/rules``)
    example_size: ClassVar[int]
    variant_names: ClassVar[tuple[str, ...]] = ()
    #: the phase in which players choose in secret, revealed together (Blind Hex's cards)
    secret_phase: ClassVar[str | None] = None
    #: the variant that is the game's pie rule (the second player may take over the first move)
    pie_rule: ClassVar[str | None] = None
    #: whether a cut for high card decides who starts (``GameOptions.first``)
    has_cut: ClassVar[bool] = False
    #: what an action naming one cell does (``place`` a stone or disc, ``write`` a letter)
    cell_action: ClassVar[str] = "place"

    options: GameOptions
    actions: list[str]
    outcome: Outcome | None
    #: True once the people have exchanged colours (pie rule / swap)
    swapped: bool

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "game" in cls.__dict__:
            _CLASSES[cls.game] = cls

    @abstractmethod
    def __init__(self, options: GameOptions) -> None:
        """The start position of a game with these checked options (``make_options``)."""

    # -- options -------------------------------------------------------------
    @classmethod
    def make_options(
        cls, size: int | None = None, variants: tuple[str, ...] | list[str] = (), first: str | None = None
    ) -> GameOptions:
        """Check and normalise options for this game; OptionsError with a player-facing message."""
        size = cls.default_size if size is None else size
        if size not in cls.sizes:
            if len(cls.sizes) == 1:
                # "sizes 11–11" reads like a typo when only one board is offered.
                only = cls.sizes[0]
                raise OptionsError(sentence("{game} is played only on {only}×{only}, not {size}×{size}",
                                         game=cls.title, only=only, size=size))
            raise OptionsError(sentence("{game} is played on sizes {sizes}, not {size}",
                                     game=cls.title, sizes=_ranges(cls.sizes), size=size))
        vs = tuple(sorted(set(variants)))
        for v in vs:
            if v not in cls.variant_names:
                offered = ", ".join(cls.variant_names) or "none"
                raise OptionsError(f"{cls.title} has no variant '{v}' (offered: {offered})")
        if first is not None:
            raise OptionsError(f"{cls.title} has no cut; leave out --first")
        return GameOptions(cls.game, size, vs, None)

    @property
    def grid(self) -> HexGrid:
        """The board geometry."""
        return grid(self.options.size)

    @property
    def size(self) -> int:
        """The board size n (n×n)."""
        return self.options.size

    # -- the protocol ----------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> list[str]:
        """The colours that may act now, sorted; empty once the game is over."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """One of place, move, relocate, aside, choose, write, over."""

    @abstractmethod
    def legal_actions(self, player: str | None = None) -> list[str]:
        """Every legal action now in canonical notation, sorted (only ``player``'s if given)."""

    @abstractmethod
    def _play_line(self, line: str, player: str | None) -> list[str]:
        """Apply one normalised line in place and return the canonical actions it made.

        Called on a scratch copy by :meth:`play`, so it may leave the copy half-changed
        when it raises.
        """

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy of this position."""

    @abstractmethod
    def piece_at(self, cell: int) -> str | None:
        """The colour on a cell (``neutral`` for the neutral disc), or None if empty."""

    @abstractmethod
    def hands(self) -> dict[str, Any] | None:
        """Discs in hand (counts) or cards in hand (sorted lists) per colour; None for Hex."""

    def aside(self) -> dict[str, list[int]] | None:
        """Blind Hex cards set aside per colour; None for other games."""
        return None

    @abstractmethod
    def last_turn(self) -> LastTurn | None:
        """What the latest turn did, or None before the first action."""

    @abstractmethod
    def _state_key(self) -> tuple:
        """Everything that makes two positions of the same options equal."""

    def random_playout(self, rng: random.Random, log: list[str] | None = None) -> Outcome:
        """The outcome of a random game from here; the position itself is left unchanged.

        ``log``, if given, receives the canonical actions played, which replay through
        :meth:`play` to the same outcome. Games override this with a fast path.
        """
        pos = self.copy()
        while pos.outcome is None:
            player = pos.to_move[0]
            done = pos.play(rng.choice(pos.legal_actions(player)), player)
            if log is not None:
                log.extend(done)
        return pos.outcome

    # -- shared behaviour ---------------------------------------------------------
    def action(self, text: str) -> Action:
        """One canonical action of this game (from :attr:`actions` or :meth:`play`) as a value."""
        return Action.parse(text, self.cell_action)

    def choosing_in_secret(self) -> bool:
        """Whether the players are choosing in secret now (a choice made is not shown yet)."""
        return self.outcome is None and self.secret_phase is not None and self.phase == self.secret_phase

    def public_record(self) -> list[str]:
        """The actions everyone has seen, which replay to the position everyone sees.

        A choice not revealed yet is left out (see :meth:`public_actions`).
        """
        return list(self.actions)

    def public_actions(self) -> list[str]:
        """The actions as everyone sees them: a choice not revealed yet shows as ``x:?``."""
        return self.public_record()

    def play(self, text: str, player: str | None = None) -> list[str]:
        """Apply one line of notation (as ``player`` if given); return the canonical actions.

        Atomic: on any :class:`~engine.errors.ActionError` the position is unchanged.
        """
        trial, done = self.after(text, player)
        self._adopt(trial)
        return done

    def after(self, text: str, player: str | None = None) -> tuple[Self, list[str]]:
        """The position after one line of notation (as ``player`` if given) and its canonical actions.

        This position is left unchanged (one copy is made), so a caller that keeps
        positions as snapshots can adopt the new one only once the actions are stored.
        """
        line = normalize(text)
        if self.outcome is not None:
            raise GameOverError(sentence("the game is over: {outcome}", outcome=self.describe_outcome()))
        if player is not None and player not in self.to_move:
            raise WrongTurnError(self._wrong_turn_message(player))
        trial = self.copy()
        done = trial._play_line(line, player)
        return trial, done

    def _adopt(self, other: Self) -> None:
        """Take over ``other``'s state (the successful scratch copy of :meth:`play`)."""
        for klass in type(self).__mro__:
            for name in getattr(klass, "__slots__", ()):
                if hasattr(other, name):
                    setattr(self, name, getattr(other, name))
        if hasattr(other, "__dict__"):
            self.__dict__.update(other.__dict__)

    def _wrong_turn_message(self, player: str) -> Message:
        if player not in self.colours:
            return sentence("'{player}' does not play in this game", player=player)
        return sentence("it is {colours}'s turn, not {player}'s", colours=colours(self.to_move), player=Colour(player))

    def finish(self, outcome: Outcome) -> None:
        """End the game from outside the rules (resignation, timeout, abandoned)."""
        if self.outcome is not None:
            raise GameOverError(sentence("the game is over: {outcome}", outcome=self.describe_outcome()))
        self.outcome = outcome

    def other(self, colour: str) -> str:
        """The opponent's colour."""
        a, b = self.colours
        return b if colour == a else a

    def colour_of_seat(self, seat: int) -> str:
        """The colour seat 0 (who started as the first colour) or seat 1 plays now."""
        return self.colours[seat ^ int(self.swapped)]

    def seat_of_colour(self, colour: str) -> int:
        """Which seat (0 or 1) plays ``colour`` now."""
        return self.colours.index(colour) ^ int(self.swapped)

    def board_rows(self) -> list[str]:
        """Rows 1..n, columns a.., one letter a cell ('.' empty), as in the JSON CLI."""
        g = self.grid
        out = []
        for r in range(g.n):
            row = []
            for c in range(g.n):
                piece = self.piece_at(r * g.n + c)
                row.append("." if piece is None else self.symbols[piece])
            out.append("".join(row))
        return out

    def winning_chain(self) -> list[int]:
        """Cells of the winner's connecting chain (a shortest one), or [] if the game was not won by connection."""
        o = self.outcome
        if o is None or o.reason is not Reason.CONNECTION or o.winner is None:
            return []
        g = self.grid
        stones = sum(1 << i for i in range(g.cells) if self.piece_at(i) == o.winner)
        return g.shortest_chain(stones, o.winner == self.vertical)

    def describe_outcome(self) -> Message:
        """A short sentence for the result, e.g. ``white won by connection``."""
        o = self.outcome
        if o is None:
            return sentence("the game is in progress")
        if o.winner is None:
            return sentence("no winner (abandoned)") if o.reason is Reason.ABANDONED \
                else sentence("no winner ({reason})", reason=o.reason.value)
        winner = Colour(o.winner)
        # one sentence per way of winning, so that each language can say it its own way
        return {
            Reason.CONNECTION: sentence("{winner} won by connection", winner=winner),
            Reason.NO_LEGAL_MOVE: sentence("{winner} won by no-legal-move", winner=winner),
            Reason.CANNOT_RELOCATE: sentence("{winner} won by cannot-relocate", winner=winner),
            Reason.RESIGNATION: sentence("{winner} won by resignation", winner=winner),
            Reason.TIMEOUT: sentence("{winner} won by timeout", winner=winner),
            Reason.ABANDONED: sentence("{winner} won by abandoned", winner=winner),
        }[o.reason]

    def to_json(self) -> dict[str, Any]:
        """The JSON object printed by ``python -m engine`` (a stable contract)."""
        o = self.outcome
        over = o is not None
        return {
            "game": self.game,
            "size": self.size,
            "variants": list(self.options.variants),
            "to_move": [] if over else list(self.to_move),
            "phase": "over" if over else self.phase,
            "board": self.board_rows(),
            "hands": self.hands(),
            "aside": self.aside(),
            "legal": [] if over else self.legal_actions(),
            "winner": None if o is None else o.winner,
            "reason": None if o is None else o.reason.value,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.options == other.options and self._state_key() == other._state_key()

    def __hash__(self) -> int:
        return hash((self.options, self._state_key()))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.size}×{self.size} {self.phase} after {len(self.actions)} actions>"


def _ranges(sizes: tuple[int, ...]) -> str:
    """``3–19`` for a run, ``5, 7, 9, 11`` otherwise."""
    if list(sizes) == list(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]}–{sizes[-1]}"
    return ", ".join(map(str, sizes))
