"""Button labels in the catalogs: a view is built with English labels, then said in a language.

A persistent button is rebuilt from its custom id on every press (its label does not matter
then), so the labels stay plain English where the buttons are made, each registered with
:func:`label`; :func:`localized` says a view's labels in the language of the message it goes on.
"""

from __future__ import annotations

import discord

from ...i18n import SOURCE, Text, render

#: each registered label's English → its catalog message
_LABELS: dict[str, Text] = {}


def label(text: Text) -> Text:
    """Register a button label (a catalog message) and return it."""
    _LABELS[str(text)] = text
    return text


def localized(view: discord.ui.View, language: str) -> discord.ui.View:
    """``view`` with its registered labels said in ``language`` (changed in place; English: as is)."""
    if language == SOURCE:
        return view
    for child in view.children:
        button = getattr(child, "item", child)  # a DynamicItem wraps its button
        if isinstance(button, discord.ui.Button) and button.label in _LABELS:
            button.label = render(_LABELS[button.label], language)
    return view
