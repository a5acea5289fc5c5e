"""The pseudo-locale ``xx``: English visibly transformed, so an untranslated sentence stands out in tests.

Each letter becomes an accented look-alike and the message is wrapped in ``⟦ ⟧``; what must
stay as it is — ``{placeholders}``, code spans (commands, notation), Discord mentions and
timestamps ``<…>``, links — is kept.

>>> pseudo("Play {move} with `/move c4`.")
'⟦Ƥŀàŷ {move} ŵíţĥ `/move c4`.⟧'
"""

from __future__ import annotations

import re

#: the language code of the pseudo-locale
PSEUDO = "xx"
#: spans kept as they are: placeholders, code, mentions/timestamps/emoji, links
_KEEP = re.compile(r"\{[^{}]*\}|`[^`]*`|<[^<>\s]*>|https?://\S+")
_LETTERS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥíĵķŀɱñóƥɋŕšţúṽŵẋŷžÀƁÇĐÉƑĜĤÍĴĶĿṀÑÓƤɊŔŠŢÚṼŴẊŶŽ",
)


def pseudo(text: str) -> str:
    """``text`` with its letters transformed outside the kept spans, wrapped in ``⟦ ⟧``."""
    out: list[str] = []
    last = 0
    for kept in _KEEP.finditer(text):
        out.append(text[last:kept.start()].translate(_LETTERS))
        out.append(kept.group())
        last = kept.end()
    out.append(text[last:].translate(_LETTERS))
    return f"⟦{''.join(out)}⟧"
