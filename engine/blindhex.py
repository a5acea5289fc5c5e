"""Blind Hex (Don Kirkby, 2012, CC-BY-SA), RULES.md §4.

Hex with secret, simultaneous card play on a numbered 11×11 board. ``x``
connects left and right, ``o`` top and bottom. Each holds the cards 1–5; the
player who lost the cut sets two aside. Each round both choose two cards in
secret; once both have chosen the cards are revealed and decide who writes
letters with which numbers. A letter for number k goes on an empty cell that
matches k (see :mod:`engine.blindhex_board`).

>>> pos = BlindHex(BlindHex.make_options(first="x"))
>>> pos.phase, pos.to_move
('aside', ['o'])
>>> pos.play("aside 5+4")
['aside 4+5']
>>> pos.play("x:4 1"), pos.to_move, pos.hands()["x"]
(['x:1+4'], ['o'], [1, 2, 3, 4, 5])
>>> pos.public_actions()
['aside 4+5', 'x:?']
>>> pos.play("o:2+1")
['o:1+2']
>>> pos.revealed(), pos.pending_writes()
({'o': (1, 2), 'x': (1, 4)}, [('o', 2), ('o', 2), ('x', 4), ('x', 4)])
"""

from __future__ import annotations

import random
import re
from itertools import combinations
from typing import ClassVar, Self

from .blindhex_board import MATCH_CELLS, MATCH_MASK, MATCHES, NUMBERS, SIZE
from .errors import IllegalActionError, NotationError, OptionsError, WrongTurnError
from .geometry import bits, grid
from .messages import Colour, Message, colours, sentence
from .notation import shorten
from .outcome import Outcome, Reason
from .position import GameOptions, LastTurn, Position

CARDS: tuple[int, ...] = (1, 2, 3, 4, 5)

# A card is a digit (or 'a' for the ace); two cards are joined by '+', ',' or a space.
_CARD = r"(\d+|a)"
_PAIR = rf"{_CARD}\s*(?:[+,]\s*|\s)\s*{_CARD}"
_ASIDE = re.compile(rf"^aside\s*:?\s*{_PAIR}$")
_CHOICE = re.compile(rf"^(?:([a-z]+)\s*:\s*)?{_PAIR}$")
_HIDDEN = re.compile(r"^([a-z]+)\s*:\s*\?$")


def _card(token: str) -> int:
    """The number of one card token (``a`` is the ace, 1)."""
    k = 1 if token == "a" else int(token)
    if k not in CARDS:
        raise NotationError(sentence("{typed} is not a card: each player holds A (1), 2, 3, 4 and 5", typed=shorten(token)))
    return k


def _pair(a: str, b: str) -> tuple[int, int]:
    """Two different cards, lower first."""
    x, y = _card(a), _card(b)
    if x == y:
        raise IllegalActionError(sentence("choose two different cards, not {card} twice", card=x))
    return (x, y) if x < y else (y, x)


def _pairs(hand: tuple[int, ...]) -> list[tuple[int, int]]:
    return list(combinations(hand, 2))


def _show(cards: tuple[int, ...] | list[int]) -> str:
    return ", ".join(map(str, cards)) if cards else sentence("no cards")


class BlindHex(Position):
    """A Blind Hex position: letters, cards in hand / aside / on the table, secret choices, pending writes."""

    game: ClassVar[str] = "blindhex"
    title: ClassVar[str] = "Blind Hex"
    colours: ClassVar[tuple[str, str]] = ("x", "o")
    vertical: ClassVar[str] = "o"
    symbols: ClassVar[dict[str, str]] = {"x": "X", "o": "O"}
    sizes: ClassVar[tuple[int, ...]] = (SIZE,)
    default_size: ClassVar[int] = SIZE
    example_size: ClassVar[int] = SIZE
    variant_names: ClassVar[tuple[str, ...]] = ()
    secret_phase: ClassVar[str | None] = "choose"
    has_cut: ClassVar[bool] = True
    cell_action: ClassVar[str] = "write"

    def __init__(self, options: GameOptions) -> None:
        self.options = options
        self.actions = []
        self.outcome = None
        self.swapped = False
        first = options.first or "x"
        #: the player who lost the cut and sets two cards aside
        self._loser = "o" if first == "x" else "x"
        self._marks: dict[str, int] = {"x": 0, "o": 0}
        self._hand: dict[str, tuple[int, ...]] = {"x": CARDS, "o": CARDS}
        self._aside: dict[str, tuple[int, ...]] = {"x": (), "o": ()}
        #: cards revealed this round and still on the table (write phase)
        self._played: dict[str, tuple[int, ...]] = {"x": (), "o": ()}
        #: secret choices not yet revealed (never shown by the public methods)
        self._chosen: dict[str, tuple[int, int]] = {}
        #: (writer, number) still to write this round, in order
        self._writes: tuple[tuple[str, int], ...] = ()
        self._phase = "aside"
        self._revealed: dict[str, tuple[int, int]] | None = None
        self._placed: tuple[int, ...] = ()
        self._last_player: str | None = None

    @classmethod
    def make_options(
        cls, size: int | None = None, variants: tuple[str, ...] | list[str] = (), first: str | None = None
    ) -> GameOptions:
        """Check options; ``first`` is who won the cut (``x`` or ``o``, default ``x``)."""
        first = "x" if first is None else first
        if first not in cls.colours:
            raise OptionsError(f"the cut is won by x or o, not '{first}'")
        base = super().make_options(size, variants, None)
        return GameOptions(cls.game, base.size, base.variants, first)

    # -- the protocol ----------------------------------------------------------
    @property
    def to_move(self) -> list[str]:
        """aside: the cut loser; choose: whoever has not chosen yet (sorted); write: the writer."""
        if self.outcome is not None:
            return []
        if self._phase == "aside":
            return [self._loser]
        if self._phase == "choose":
            return [c for c in ("o", "x") if c not in self._chosen]
        return [self._writes[0][0]]

    @property
    def phase(self) -> str:
        """``aside``, ``choose``, ``write`` or ``over``."""
        return "over" if self.outcome is not None else self._phase

    def legal_actions(self, player: str | None = None) -> list[str]:
        """Every legal action now, sorted; a pending secret choice changes nothing here but ``to_move``."""
        movers = self.to_move
        if player is not None:
            movers = [player] if player in movers else []
        if not movers:
            return []
        if self._phase == "aside":
            return sorted(f"aside {a}+{b}" for a, b in _pairs(self._hand[self._loser]))
        if self._phase == "choose":
            return sorted(f"{c}:{a}+{b}" for c in movers for a, b in _pairs(self._hand[c]))
        g = self.grid
        return sorted(g.name(i) for i in bits(self._allowed(self._writes[0][1])))

    def _play_line(self, line: str, player: str | None) -> list[str]:
        m = _ASIDE.match(line)
        if m:
            return [self._parse_aside(m.group(1), m.group(2))]
        m = _CHOICE.match(line)
        if m:
            who, a, b = m.groups()
            if who is None and self._phase == "aside":
                return [self._parse_aside(a, b)]
            return [self._parse_choice(who, a, b, player)]
        m = _HIDDEN.match(line)
        if m:
            raise NotationError(sentence("'{typed}' hides the cards; write the two cards, such as {example}",
                                      typed=shorten(line), example=f"{shorten(m.group(1))}:1+4"))
        tokens = line.replace(",", " ").split()
        g = self.grid
        if tokens and all(g.is_cell(t) for t in tokens):
            return self._parse_writes([g.parse(t) for t in tokens])
        raise NotationError(sentence(
            "'{typed}' is not a Blind Hex action: write aside 4+5, x:1+4 (your two cards) or a cell such as e5",
            typed=shorten(line)))

    def copy(self) -> Self:
        """An independent copy (every container is immutable or copied)."""
        new = object.__new__(type(self))
        new.options = self.options
        new.actions = list(self.actions)
        new.outcome = self.outcome
        new.swapped = self.swapped
        new._loser = self._loser
        new._marks = dict(self._marks)
        new._hand = dict(self._hand)
        new._aside = dict(self._aside)
        new._played = dict(self._played)
        new._chosen = dict(self._chosen)
        new._writes = self._writes
        new._phase = self._phase
        new._revealed = self._revealed
        new._placed = self._placed
        new._last_player = self._last_player
        return new

    def piece_at(self, cell: int) -> str | None:
        """``x``, ``o`` or None."""
        if self._marks["x"] >> cell & 1:
            return "x"
        if self._marks["o"] >> cell & 1:
            return "o"
        return None

    def hands(self) -> dict[str, list[int]]:
        """Cards in hand per colour, sorted; a secret choice stays in hand until revealed."""
        return {"o": list(self._hand["o"]), "x": list(self._hand["x"])}

    def aside(self) -> dict[str, list[int]]:
        """Cards set aside per colour, sorted."""
        return {"o": list(self._aside["o"]), "x": list(self._aside["x"])}

    def played(self) -> dict[str, list[int]]:
        """Cards revealed this round and still on the table (empty outside the write phase)."""
        return {"o": list(self._played["o"]), "x": list(self._played["x"])}

    def last_turn(self) -> LastTurn | None:
        """The latest public turn: the aside, or the latest revealed round (its cards and letters).

        ``player`` is the last writer of that round, or the player whose choice revealed
        it when nobody has written yet. A choice still secret is never reported.
        """
        if not self.actions:
            return None
        if self._revealed is None:
            aside = self._aside[self._loser]
            return LastTurn(self._loser, text=sentence("set {cards} aside", cards=f"{aside[0]}+{aside[1]}"))
        rev = self._revealed
        player = self._last_player or self._loser
        # The text follows the player's name in captions: "o wrote g5 c5 (cards x 1+4, o 2+3)".
        cards = f"x {rev['x'][0]}+{rev['x'][1]}, o {rev['o'][0]}+{rev['o'][1]}"
        mine = [self.grid.name(i) for i in self._placed if self.piece_at(i) == player]
        if mine:
            text = sentence("wrote {cells} (cards {cards})", cells=" ".join(mine), cards=cards)
        elif rev["x"] == rev["o"]:
            text = sentence("revealed cards {cards}: the same two numbers, nobody writes", cards=cards)
        else:
            text = sentence("revealed cards {cards}", cards=cards)
        return LastTurn(player, placed=self._placed, cards=dict(rev), text=text)

    def _state_key(self) -> tuple:
        return (
            self._marks["x"], self._marks["o"],
            self._hand["x"], self._hand["o"], self._aside["x"], self._aside["o"],
            self._played["x"], self._played["o"], tuple(sorted(self._chosen.items())),
            self._writes, self._phase, self.outcome,
        )

    # -- extras for the bot and the renderer ----------------------------------------
    def public_record(self) -> list[str]:
        """The actions everyone has seen: a choice not revealed yet is left out, and one never
        revealed (the game ended while it was pending) stays out for good (docs/rules-decisions.md)."""
        out = list(self.actions)
        if self._chosen:
            out.pop()
        return out

    def public_actions(self) -> list[str]:
        """The actions anyone may see: a choice not yet (or never) revealed shows as ``x:?``."""
        out = self.public_record()
        if self._chosen:
            out.append(self.action(self.actions[-1]).public)
        return out

    def secret_choice(self, colour: str) -> tuple[int, int] | None:
        """``colour``'s own choice this round while it is still secret (show it only to them)."""
        return self._chosen.get(colour)

    def cell_number(self, cell: int) -> int:
        """The number printed on a cell, 0 for a plain cell."""
        return NUMBERS[cell]

    def cell_matches(self, cell: int) -> tuple[int, ...]:
        """The numbers a cell matches (its own number, or its numbered neighbours'), sorted."""
        return MATCHES[cell]

    def matching_cells(self, k: int) -> list[int]:
        """The empty cells where a letter for ``k`` may go now: those matching k, else every empty cell."""
        return bits(self._allowed(k))

    def pending_writes(self) -> list[tuple[str, int]]:
        """Who still writes this round with which number, in order (empty outside the write phase)."""
        return [] if self.outcome is not None else list(self._writes)

    def revealed(self) -> dict[str, tuple[int, int]] | None:
        """The cards of the latest reveal by colour, or None before the first one."""
        return None if self._revealed is None else dict(self._revealed)

    # -- parsing ---------------------------------------------------------------------
    def _parse_aside(self, a: str, b: str) -> str:
        pair = _pair(a, b)
        if self._phase != "aside":
            raise IllegalActionError(sentence("cards are set aside only at the start, by the player who lost the cut; {now}",
                                           now=self._now()))
        self._check_hand(self._loser, pair)
        self._do_aside(pair)
        return self.actions[-1]

    def _parse_choice(self, who: str | None, a: str, b: str, player: str | None) -> str:
        if who is not None and who not in self.colours:
            raise NotationError(sentence("'{typed}' is not a player: cards are chosen by x or o, as in x:1+4",
                                      typed=shorten(who)))
        pair = _pair(a, b)
        if self._phase != "choose":
            raise IllegalActionError(sentence("cards are chosen at the start of a round; {now}", now=self._now()))
        if who is not None and player is not None and who != player:
            raise WrongTurnError(sentence("you play {player}, not {other}; choose your own two cards, such as {example}",
                                       player=Colour(player), other=Colour(who), example=f"{player}:1+4"))
        colour = who or player
        if colour is None:
            if len(self.to_move) != 1:
                raise NotationError(sentence("say whose cards these are: {first} or {second}",
                                          first=f"x:{pair[0]}+{pair[1]}", second=f"o:{pair[0]}+{pair[1]}"))
            colour = self.to_move[0]
        if colour in self._chosen:
            raise WrongTurnError(sentence("{colour} has already chosen this round; waiting for {other}",
                                       colour=Colour(colour), other=Colour(self.other(colour))))
        self._check_hand(colour, pair)
        self._do_choose(colour, pair)
        return f"{colour}:{pair[0]}+{pair[1]}"

    def _check_hand(self, colour: str, pair: tuple[int, int]) -> None:
        hand = self._hand[colour]
        for k in pair:
            if k not in hand:
                raise IllegalActionError(sentence("{colour} does not hold {card}: {colour}'s hand is {hand}",
                                               colour=Colour(colour), card=k, hand=_show(hand)))

    def _parse_writes(self, cells: list[int]) -> list[str]:
        g = self.grid
        if self._phase != "write":
            raise IllegalActionError(sentence("letters are written once the cards are revealed; {now}", now=self._now()))
        writer = self._writes[0][0]
        done: list[str] = []
        for cell in cells:
            rest = " ".join(g.name(c) for c in cells[len(done):])
            if self.outcome is not None:
                raise IllegalActionError(sentence("{cell} already wins the game for {colour}; leave out {rest}",
                                               cell=done[-1], colour=Colour(writer), rest=rest))
            if self._phase != "write" or self._writes[0][0] != writer:
                if len(done) == 1:
                    raise IllegalActionError(sentence("{colour} has only 1 letter to write now; leave out {rest}",
                                                   colour=Colour(writer), rest=rest))
                raise IllegalActionError(sentence("{colour} has only {n} letters to write now; leave out {rest}",
                                               colour=Colour(writer), n=len(done), rest=rest))
            k = self._writes[0][1]
            owner = self.piece_at(cell)
            if owner is not None:
                raise IllegalActionError(sentence("{cell} already holds {letter}; choose an empty cell",
                                               cell=g.name(cell), letter=self.symbols[owner]))
            allowed = self._allowed(k)
            if not allowed >> cell & 1:
                examples = ", ".join(g.name(i) for i in bits(allowed)[:3])
                raise IllegalActionError(sentence(
                    "{cell} does not match {number} — write in a cell marked {number} or next to a {number} "
                    "(e.g. {examples})", cell=g.name(cell), number=k, examples=examples))
            self._do_write(cell)
            done.append(g.name(cell))
        return done

    def _now(self) -> Message:
        """What is expected now, for error messages."""
        example = self.legal_actions(self.to_move[0])[0]
        if self._phase == "aside":
            return sentence("now {colour} sets two cards aside, such as {example}", colour=Colour(self._loser),
                         example=example)
        if self._phase == "choose":
            if len(self.to_move) == 1:
                return sentence("now {colour} chooses two cards, such as {example}", colour=Colour(self.to_move[0]),
                             example=example)
            return sentence("now {colours} choose two cards, such as {example}", colours=colours(self.to_move),
                         example=example)
        writer, k = self._writes[0]
        return sentence("now {colour} writes a letter for {number}, on a cell such as {example}", colour=Colour(writer),
                     number=k, example=example)

    # -- the rules (unchecked; parsing and random play both go through these) -----------
    def _allowed(self, k: int) -> int:
        """Empty cells matching k, or every empty cell when none matches (a bitboard)."""
        empty = grid(SIZE).full & ~(self._marks["x"] | self._marks["o"])
        return MATCH_MASK[k] & empty or empty

    def _do_aside(self, pair: tuple[int, int]) -> None:
        loser = self._loser
        self._hand[loser] = tuple(k for k in self._hand[loser] if k not in pair)
        self._aside[loser] = pair
        self._phase = "choose"
        self.actions.append(f"aside {pair[0]}+{pair[1]}")

    def _do_choose(self, colour: str, pair: tuple[int, int]) -> None:
        self._chosen[colour] = pair
        self.actions.append(f"{colour}:{pair[0]}+{pair[1]}")
        if len(self._chosen) == 2:
            self._reveal(colour)

    def _reveal(self, last_chooser: str) -> None:
        """Both have chosen: show the cards, put them on the table, list who writes what."""
        chosen = self._chosen
        self._chosen = {}
        self._revealed = {"o": chosen["o"], "x": chosen["x"]}
        for c, pair in chosen.items():
            self._hand[c] = tuple(k for k in self._hand[c] if k not in pair)
            self._played[c] = pair
        self._placed = ()
        self._last_player = last_chooser
        self._writes = _writes(chosen["x"], chosen["o"])
        if self._writes:
            self._phase = "write"
        else:
            self._end_round()

    def _do_write(self, cell: int) -> None:
        writer, _ = self._writes[0]
        self._writes = self._writes[1:]
        marks = self._marks[writer] | 1 << cell
        self._marks[writer] = marks
        self._placed += (cell,)
        self._last_player = writer
        self.actions.append(grid(SIZE).name(cell))
        if grid(SIZE).connects_through(marks, cell, writer == "o"):
            self.outcome = Outcome(writer, Reason.CONNECTION)
        elif not self._writes:
            self._end_round()

    def _end_round(self) -> None:
        """Step 3: four cards on the table go back to hand; two played cards go aside."""
        for c in ("x", "o"):
            if self._aside[c]:
                self._hand[c] = tuple(sorted(self._hand[c] + self._aside[c] + self._played[c]))
                self._aside[c] = ()
            else:
                self._aside[c] = self._played[c]
            self._played[c] = ()
        self._phase = "choose"

    # -- fast random games ----------------------------------------------------------------
    def random_playout(self, rng: random.Random, log: list[str] | None = None) -> Outcome:
        """The outcome of a uniformly random game from here; the position itself is not changed.

        Plays on a copy through the same rule methods as :meth:`play`, without parsing:
        random aside, random choices, random matching cells. Pass a list as ``log`` to
        receive the actions, which replay through :meth:`play` to the same outcome.
        """
        if self.outcome is not None:
            return self.outcome
        t = self.copy()
        start = len(t.actions)
        sample = rng.sample
        while t.outcome is None:
            phase = t._phase
            if phase == "write":
                t._do_write(t._random_cell(rng, t._writes[0][1]))
            elif phase == "choose":
                for c in t.to_move:
                    x, y = sorted(sample(t._hand[c], 2))
                    t._do_choose(c, (x, y))
            else:
                x, y = sorted(sample(t._hand[t._loser], 2))
                t._do_aside((x, y))
        if log is not None:
            log.extend(t.actions[start:])
        return t.outcome

    def _random_cell(self, rng: random.Random, k: int) -> int:
        """A uniformly random cell among those where a letter for k may go now."""
        empty = grid(SIZE).full & ~(self._marks["x"] | self._marks["o"])
        cells = MATCH_CELLS[k]
        # A few blind picks among the matching cells usually land on an empty one; each
        # success is uniform over the empty matching cells, and so is the fallback.
        for _ in range(6):
            cell = cells[rng.randrange(len(cells))]
            if empty >> cell & 1:
                return cell
        return rng.choice(bits(MATCH_MASK[k] & empty or empty))


def _writes(x: tuple[int, int], o: tuple[int, int]) -> tuple[tuple[str, int], ...]:
    """Who writes with which number after a reveal (RULES.md §4, step 2).

    >>> _writes((1, 2), (1, 2))
    ()
    >>> _writes((1, 4), (2, 3))
    (('x', 1), ('o', 2), ('o', 3), ('x', 4))
    >>> _writes((1, 4), (1, 2))
    (('o', 2), ('o', 2), ('x', 4), ('x', 4))
    """
    common = set(x) & set(o)
    if len(common) == 2:
        return ()
    if not common:
        return tuple(sorted([("x", k) for k in x] + [("o", k) for k in o], key=lambda w: w[1]))
    (c,) = common
    mine = [k for k in x if k != c][0]
    theirs = [k for k in o if k != c][0]
    first, second = (("x", mine), ("o", theirs)) if mine < theirs else (("o", theirs), ("x", mine))
    return (first, first, second, second)
