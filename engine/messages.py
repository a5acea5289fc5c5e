"""Sentences for players as English words with named facts, so that a caller can say them in another language.

The engine knows no languages: it writes each of its sentences once, in English, as a template with
``{placeholders}`` and the facts that fill them (:func:`sentence`). A :class:`Message` *is* its English
sentence (a ``str``): the command line, the logs and the tests read it as they always have. A caller that
speaks other languages (the bot) looks the template up in its catalogs and says the facts its own way:
cells, cards and notation stay as they are, a :class:`Colour` is a player's colour, a nested
:class:`Message` is said in the same language.

``sentence`` is also the marker the catalogs' extraction knows (``pybabel extract -k sentence``,
docs/translating.md), so every template the engine can show a player lands in the bot's catalogs.

>>> m = sentence("{cell} is taken", cell="c4")
>>> m, m.template, m.facts
('c4 is taken', '{cell} is taken', {'cell': 'c4'})
"""

from __future__ import annotations

from collections.abc import Mapping


class Colour(str):
    """A player's colour named in a sentence (``white``, ``black``; Blind Hex's ``x`` and ``o``)."""

    __slots__ = ()


class Message(str):
    """A sentence for a player: its English words, with the ``template`` and ``facts`` they were made of."""

    template: str
    facts: Mapping[str, object]

    def __new__(cls, template: str, facts: Mapping[str, object] | None = None) -> Message:
        given = dict(facts or {})
        self = super().__new__(cls, template.format_map({k: str(v) for k, v in given.items()}) if given else template)
        self.template, self.facts = template, given
        return self


def sentence(template: str, /, **facts: object) -> Message:
    """A sentence for a player: ``template`` in English, its ``{placeholders}`` filled by ``facts``."""
    return Message(template, facts)


def colours(names: list[str] | tuple[str, ...]) -> Colour | Message:
    """One or two colours named together (``white``; ``x and o``)."""
    if len(names) == 1:
        return Colour(names[0])
    return sentence("{first} and {second}", first=Colour(names[0]), second=Colour(names[1]))
