"""The bot's languages: messages written in English, said in English, Japanese or French.

- :mod:`.text`: a message (:class:`Text`, made with :func:`t` / :func:`tn`) and its :func:`render`
  in a language, with plurals and numbers as the language writes them (Babel);
- :mod:`.catalogs`: the gettext catalogs (``locales/<lang>/LC_MESSAGES/hexcord.po``), read at start;
- :mod:`.pseudo`: the pseudo-locale ``xx`` the tests use to find words left in English;
- :mod:`.commands`: the command tree's translator (names and descriptions Discord shows);
- :mod:`.extract`: what ``pybabel extract`` reads from the bot's code (``babel.cfg``).

English source strings are the ``msgid``s (gettext's usual way): a message reads as itself in
the code, and a changed English sentence is a new message for the translators.
"""

from .text import LANGUAGES, SOURCE, Number, Text, language_of, render, t, tc, tn

__all__ = ["LANGUAGES", "SOURCE", "Number", "Text", "language_of", "render", "t", "tc", "tn"]
