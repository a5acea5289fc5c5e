"""Game records: options plus one canonical action per line (RULES.md §6).

The text form is what ``/record`` hands out and what ``python -m engine
--record FILE`` reads: ``# key: value`` header lines, then actions.

>>> r = Record.from_text("# game: hex\\n# size: 5\\nc3\\nswap\\n")
>>> r.actions
['c3', 'swap']
>>> Record.from_text(r.to_text()) == r
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import OptionsError
from .games import make_options
from .position import GameOptions, Position


@dataclass
class Record:
    """A game's options and its actions; replaying them gives the position."""

    options: GameOptions
    actions: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, position: Position, headers: dict[str, str] | None = None) -> "Record":
        """The record of a position so far."""
        return cls(position.options, list(position.actions), dict(headers or {}))

    def replay(self) -> Position:
        """The position after every action (raises the engine's ActionError on a bad one)."""
        pos = self.options.new_position()
        for action in self.actions:
            pos.play(action)
        return pos

    def to_text(self) -> str:
        """Header lines then one action per line."""
        o = self.options
        lines = [f"# game: {o.game}", f"# size: {o.size}"]
        if o.variants:
            lines.append(f"# variants: {' '.join(o.variants)}")
        if o.first:
            lines.append(f"# first: {o.first}")
        for key, value in self.headers.items():
            lines.append(f"# {key}: {' '.join(str(value).split())}")
        lines.extend(self.actions)
        return "\n".join(lines) + "\n"

    @staticmethod
    def read_lines(text: str) -> tuple[dict[str, str], list[str]]:
        """Split record text into its ``# key: value`` headers and its action lines."""
        headers: dict[str, str] = {}
        actions: list[str] = []
        for raw in text.splitlines():
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                key, sep, value = line[1:].partition(":")
                if sep:
                    headers[key.strip().lower()] = value.strip()
                continue
            actions.append(line)
        return headers, actions

    @classmethod
    def from_text(cls, text: str, options: GameOptions | None = None) -> "Record":
        """Read a record; options come from ``options`` or else from the headers."""
        headers, actions = cls.read_lines(text)
        if options is None:
            try:
                game = headers.pop("game")
                size = int(headers.pop("size"))
            except (KeyError, ValueError):
                raise OptionsError("a record needs '# game:' and '# size:' header lines") from None
            variants = tuple(headers.pop("variants", "").split())
            first = headers.pop("first", None)
            options = make_options(game, size, variants, first)
        else:
            for key in ("game", "size", "variants", "first"):
                headers.pop(key, None)
        return cls(options, actions, headers)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return self.options == other.options and self.actions == other.actions
