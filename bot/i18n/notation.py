"""What a player types, read the same in every language.

Notation is universal (``c4 d4``, ``b2>e7``, ``1+4``, ``swap``), but ``swap`` is also a word: a player
may type it in their language too, as the catalogs write it (context ``notation``: ``スワップ``,
``échange``; ``echange`` without its accent, half-width ``ｽﾜｯﾌﾟ``). :func:`universal` is the one
place that reads those words as ``swap``; ``swap`` itself always works.

>>> universal("échange"), universal("  Echange "), universal("スワップ"), universal("c4 d4")
('swap', 'swap', 'swap', 'c4 d4')
"""

from __future__ import annotations

import functools
import unicodedata

from .text import LANGUAGES, render, tc

#: the notation's word, as typed in every language
SWAP = "swap"
#: the catalogs' word for it in each language
SWAP_WORD = tc("notation", "swap")


def fold(word: str) -> str:
    """A typed word as it is compared: width and case folded, Latin accents dropped (``Échange`` → ``echange``)."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", word).casefold())
    # only the Latin combining accents go: a kana's (゜ in プ) is part of the letter
    kept = "".join(ch for ch in decomposed if not 0x300 <= ord(ch) <= 0x36F)
    return unicodedata.normalize("NFKC", kept)


@functools.cache
def swap_words() -> frozenset[str]:
    """Every language's word for ``swap``, folded."""
    return frozenset(fold(render(SWAP_WORD, language)) for language in LANGUAGES)


def universal(typed: str) -> str:
    """A line of notation with every language's word for swap read as ``swap`` (else as it was typed)."""
    words = typed.split()
    if not any(fold(w) in swap_words() for w in words):
        return typed
    return " ".join(SWAP if fold(w) in swap_words() else w for w in words)


def swap_begun(typed: str) -> bool:
    """Whether ``typed`` is the start of a language's word for swap (``スワ``, ``éch``): autocomplete offers ``swap``."""
    start = fold(typed.strip())
    return len(start) >= 2 and any(w.startswith(start) for w in swap_words())
