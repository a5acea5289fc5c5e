"""The command tree's translator: the Japanese and French names and descriptions Discord shows.

discord.py asks it for every command name, description, option name and description and
choice name, in every locale Discord has, when the tree is synced. The catalogs hold them
under the contexts :mod:`bot.i18n.extract` gives them (``command``, ``option``,
``option /<command>`` for a renamed option, ``choice``, none for descriptions); a game's
title is its name in every language (no entry: Discord shows the English one).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from .catalogs import load

#: Discord's locale → the catalog that speaks it
LOCALES = {discord.Locale.japanese: "ja", discord.Locale.french: "fr"}
#: where a text is → its catalog context (descriptions have none)
CONTEXTS = {Where.command_name: "command", Where.group_name: "command",
            Where.parameter_name: "option", Where.choice_name: "choice"}


class CommandTranslator(app_commands.Translator):
    """Names and descriptions of the command list from the catalogs (None: Discord shows the English)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """The text in ``locale``, or None when the bot does not speak it or the catalog has no translation."""
        language = LOCALES.get(locale)
        if language is None:
            return None
        return lookup(language, string.message, context)


def lookup(language: str, message: str, context: app_commands.TranslationContextTypes) -> str | None:
    """A command-list text's translation: a renamed option's own entry first, then its kind's."""
    catalog = load(language)
    kind = CONTEXTS.get(context.location)
    if context.location is Where.parameter_name:
        command = getattr(context.data, "command", None)
        own = catalog.get(message, f"option /{command.name}") if command is not None else None
        if own is not None:
            return own
    return catalog.get(message, kind)
