"""``/help``: one private page, in the reader's language, with the commands by the names their Discord shows."""

from __future__ import annotations

from ..i18n import Text, t
from ..i18n.text import Joined
from ..service import Command
from .texts import Shown

#: the commands the page names (each becomes its placeholder: ``{challenge}`` → ``/challenge``)
COMMANDS = ("challenge", "move", "board", "resign", "claim", "takeback", "abort", "leaderboard", "stats", "games",
            "history", "record", "replay", "notify", "language", "settings", "rules")
#: the commands of the page's second part: getting better and competing
IMPROVE = ("review", "puzzle", "tournament")


def page() -> Joined:
    """The help page: starting a game, playing with taps, the commands at a glance, the rules, and
    how to get better and compete."""
    return Joined([_playing(), _improving()], "\n")


def _playing() -> Text:
    return t(
        "**How to play here**\n"
        "**Start a game:** {challenge} someone, choosing the game (inpHeXion, Hex or Blind Hex); they press "
        "**Accept**. Choose me as the opponent to play the computer.\n"
        "**Play with taps:** under every board, **Play** opens your own panel of legal moves; tap yours. "
        "Or type it with {move}: `c4 d4`, `e5`, `swap`, `1+4`.\n"
        "**Commands at a glance:** {board} shows the game again · {resign} gives up · {claim} wins on time · "
        "{takeback} undoes your last turn · {abort} calls off a game that has barely started\n"
        "{leaderboard} · {stats} · {games} · {history} · {record} · {replay}: ratings, results and past games\n"
        "{notify}: how you are reminded · {language}: your language · {settings}: the server's defaults\n"
        "**Learn the games:** {rules} shows each game's rules step by step, with pictures.",
        **{name: Shown(Command(name)) for name in COMMANDS},
    )


def _improving() -> Text:
    return t(
        "**Get better, compete:** {review} goes through a finished game move by move, with the better moves · "
        "{puzzle} sets you the winning moves this server's players missed · {tournament} runs a Swiss, round "
        "robin or knockout here.",
        **{name: Shown(Command(name)) for name in IMPROVE},
    )
