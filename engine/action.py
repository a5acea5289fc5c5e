"""One canonical action as a value, so callers never pick notation apart themselves.

Positions record actions as canonical text (``c4 d4``, ``b2>e7``, ``swap``,
``aside 4+5``, ``x:1+4``); :meth:`engine.Position.action` turns one into an
:class:`Action` that says what kind it is and what it names.

>>> from engine import new_game
>>> a = new_game("blindhex", first="x").action("x:1+4")
>>> a.kind, a.player, a.cards, a.public, a.typed
('choose', 'x', (1, 4), 'x:?', '1+4')
>>> new_game("inphexion").action("c4 d4").cells
('c4', 'd4')
"""

from __future__ import annotations

from dataclasses import dataclass

#: kinds of action: put a piece on a cell (Hex, inpHeXion), move an enemy disc and place
#: on the cell it left, relocate a disc, exchange colours (pie rule), set cards aside,
#: choose cards in secret, write a letter (Blind Hex)
KINDS = ("place", "move", "relocate", "swap", "aside", "choose", "write")


@dataclass(frozen=True, slots=True)
class Action:
    """A canonical action: its notation, its kind, and the cells or cards it names."""

    text: str
    kind: str
    #: cell names in order: (cell,) for place/write, (from, to) for move/relocate
    cells: tuple[str, ...] = ()
    #: the cards of an aside or a choice, lower first
    cards: tuple[int, ...] = ()
    #: the colour the notation names (a Blind Hex choice), else None
    player: str | None = None

    def __str__(self) -> str:
        return self.text

    @property
    def secret(self) -> bool:
        """Whether the action is hidden from the opponent until revealed (a card choice)."""
        return self.kind == "choose"

    @property
    def public(self) -> str:
        """What everyone may see of it before a reveal (``x:?`` for a choice)."""
        return f"{self.player}:?" if self.secret else self.text

    @property
    def typed(self) -> str:
        """How the player types it (a choice without the colour the bot adds: ``1+4``)."""
        return "+".join(map(str, self.cards)) if self.secret else self.text

    @classmethod
    def parse(cls, text: str, cell_kind: str = "place") -> Action:
        """The action a canonical notation stands for; ``cell_kind`` is what a lone cell does.

        Raises ValueError for text that is not canonical notation.
        """
        if text == "swap":
            return cls(text, "swap")
        if text.startswith("aside "):
            return cls(text, "aside", cards=_cards(text[6:], text))
        if ":" in text:
            player, cards = text.split(":", 1)
            return cls(text, "choose", cards=_cards(cards, text), player=player)
        if ">" in text:
            a, b = text.split(">", 1)
            return cls(text, "relocate", cells=(a, b))
        parts = text.split(" ")
        if len(parts) == 2:
            return cls(text, "move", cells=(parts[0], parts[1]))
        if len(parts) == 1 and text:
            return cls(text, cell_kind, cells=(text,))
        raise ValueError(f"not a canonical action: {text!r}")


def _cards(pair: str, text: str) -> tuple[int, ...]:
    try:
        return tuple(int(c) for c in pair.split("+"))
    except ValueError:
        raise ValueError(f"not a canonical action: {text!r}") from None
