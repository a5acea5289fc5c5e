"""Every user-facing text of tournaments (issue 46), in one place, each a catalog message.

Refusals are catalog messages (:func:`~bot.i18n.t`) with ``{placeholders}`` for the facts
:mod:`bot.service.errors` knows (commands, options, channels): raised as ``UserError(REFUSAL, …)``
they are said in the member's language by ``texts.refusal``. The messages the bot posts are small
functions of named values that return a :class:`~bot.i18n.Text` (or a :class:`~bot.i18n.text.Joined`
of them): whoever sends one says it in the reader's language (public messages: the server's).
Nothing else in the tournament code holds words.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import Text, t, tc, tn
from ..i18n.text import Joined, word
from .components.labels import label


class Subcommand(str):
    """A sub-command as a placeholder's value, in code style by the names the reader's Discord shows
    (``/tournament join``, ``/大会 参加``): the group and the sub-command are each a catalog word."""

    group: str
    name: str

    def __new__(cls, group: str, name: str) -> Subcommand:
        self = super().__new__(cls, f"`/{group} {name}`")
        self.group, self.name = group, name
        return self

    def said_in(self, language: str) -> str:
        """The sub-command as Discord shows it in ``language``."""
        return f"`/{word('command', self.group, language)} {word('command', self.name, language)}`"


# -- refusals (catalog messages; {placeholders} are service facts) ---------------------------------
NO_TOURNAMENT = t("There is no tournament in this channel. Create one with {create}.")
NOT_OPEN = t("Tournament #{id} is not open for sign-up any more.")
ALREADY_JOINED = t("You have already joined tournament #{id}.")
FULL = t("Tournament #{id} is full ({count} players).")
NOT_JOINED = t("You are not signed up for tournament #{id}.")
LEAVE_STARTED = t("Tournament #{id} has started: use {withdraw} to leave it.")
ONLY_ORGANISER_START = t("Only the organiser of tournament #{id} can start it.")
ONLY_ORGANISER_CANCEL = t("Only the organiser of tournament #{id} can cancel it.")
CANCEL_RUNNING_BY_COMMAND = t("Tournament #{id} has started: to stop it, use {cancel} in its channel.")
OVER = t("Tournament #{id} is over already.")
TOO_FEW = t("A {format} needs at least {need} players; tournament #{id} has {count}.")
TOO_MANY_ROUNDS = t("Tournament #{id} has {count} players: a Swiss of {count} can have at most {most} rounds, not "
                    "{rounds}. Wait for more players, or {cancel} it and create it with fewer rounds.")
NOT_RUNNING = t("Tournament #{id} is not running.")
NOT_IN = t("You are not playing in tournament #{id}.")
ALREADY_WITHDRAWN = t("You have already withdrawn from tournament #{id}.")
NEEDS_TEXT_CHANNEL = t("Tournaments are run from a text channel: each game gets a thread of its own there.")
NEEDS_THREADS = t("I need to make threads here (each tournament game gets one): a server manager can allow it.")
STAFF_ONLY = t("Only members with Manage Server can create tournaments in this server (see {settings}).")
ROUNDS_NOT_SWISS = t("{rounds} is for a Swiss; leave it out for a round robin or a knockout.")
DOUBLE_NOT_ROUND_ROBIN = t("{double} is for a round robin only.")
NO_ABORT = t("A tournament game can't be aborted; {resign} if you must (it counts as a loss).")
NO_TOURNAMENT_ID = t("There is no tournament #{id} in this server.")
NOT_STARTED = t("Tournament #{id} has not started yet: its standings begin with round 1.")
MAX_TOO_SMALL = t("{max_players} is too small: a {format} needs at least {need} players.")
MAX_TOO_LARGE = t("{max_players} is at most {most}.")
ROUNDS_OUT_OF_RANGE = t("{rounds} is a number of rounds from 1 to {most}.")
UNKNOWN_FORMAT = t("{format} is swiss, round-robin or knockout.")
UNKNOWN_CLOCK = t("{clock} is one of {clocks} (time per move).")
#: the per-member limit on tournaments not over (``open_tournaments`` in bot/data/limits.toml)
TOO_MANY_OPEN = t("The tournaments you created in this server that are not over: {tournaments} ({open}); this "
                  "server allows {most}. Finish or cancel one ({cancel}) before creating another.")
#: the per-server cap of tournaments running at once (process safety, ``[process]`` in limits.toml)
TOO_MANY_RUNNING = t("This server already runs {running} at once, the most it may. Start tournament #{id} "
                     "once one of them is over.")


def open_count(n: int) -> Text:
    """``2 tournaments`` (for :data:`TOO_MANY_OPEN`)."""
    return tn("{n} tournament", "{n} tournaments", n)


#: the sign-up buttons' labels by act (the buttons are said in the sign-up message's language)
BUTTONS = {"join": label(t("Join")), "leave": label(t("Leave")), "start": label(t("Start")),
           "cancel": label(tc("button", "Cancel"))}

#: a format's name in a sentence ("a {format} needs at least 3 players")
FORMAT_NAMES = {"swiss": tc("format", "Swiss"), "round-robin": tc("format", "round robin"),
                "knockout": tc("format", "knockout")}

#: a tie-break column's short label (the standings' column head), and what it stands for (the legend)
COLUMN_LABELS = {"BH": tc("column", "BH"), "SB": tc("column", "SB"), "DE": tc("column", "DE"),
                 "Rd": tc("column", "Rd")}
COLUMN_NAMES = {"BH": t("Buchholz"), "SB": t("Sonneborn-Berger"), "DE": t("direct encounter"),
                "Rd": t("round reached")}


def _what(format: str, rounds: int | None, cycles: int) -> Text:
    """The format as the description says it: ``Swiss of 4 rounds``, ``double round robin``, ``knockout``."""
    if format == "swiss" and rounds:
        return tn("Swiss of {n} round", "Swiss of {n} rounds", rounds)
    if format == "round-robin" and cycles == 2:
        return t("double round robin")
    return FORMAT_NAMES[format]


def describe(id: int, title: str, size: int, variants: Sequence[str], format: str, rounds: int | None, cycles: int,
             clock: str, rated: bool) -> Text:
    """One line saying what a tournament plays: ``Tournament #3: Hex 5×5 (swap), Swiss of 4 rounds, 1d per move, rated``."""
    extras = f" ({', '.join(variants)})" if variants else ""  # variant names are notation: never translated
    per_move = t("no clock") if clock == "none" else t("{clock} per move", clock=clock)
    return t("Tournament #{id}: {title} {size}×{size}{extras}, {what}, {per_move}, {rated}", id=id, title=title,
             size=size, extras=extras, what=_what(format, rounds, cycles), per_move=per_move,
             rated=t("rated") if rated else t("unrated"))


#: characters the sign-up message's list of entrants may take (the message stays well within 2000)
ENTRANTS_ROOM = 1500


def signup(head: Text, organiser: int, entrants: Sequence[int], max_players: int, status: str) -> Joined:
    """The sign-up message: what is played, who organises, who has joined (mentions, no pings); the
    list ends in "… and N more" when the mentions would not fit one message."""
    mentions: list[str] = []
    used = 0
    for k, u in enumerate(entrants):
        mention = f"<@{u}>"
        if used + len(mention) + 2 > ENTRANTS_ROOM:
            mentions.append(more(len(entrants) - k))
            break
        mentions.append(mention)
        used += len(mention) + 2
    listed = Joined(mentions, ", ") if entrants else t("nobody yet")
    lines: list[str] = [t("**{head}**", head=head), t("Organiser: <@{user}>", user=organiser),
                        t("Entrants ({count}/{most}): {listed}", count=len(entrants), most=max_players,
                          listed=listed)]
    if status == "open":
        lines.append(t("Press **{join}** to play (or {command}). The organiser presses **{start}** when ready.",
                       join=BUTTONS["join"], start=BUTTONS["start"], command=Subcommand("tournament", "join")))
    elif status == "running":
        lines.append(t("Sign-up is closed: the tournament has started."))
    elif status == "cancelled":
        lines.append(t("Cancelled by the organiser."))
    else:
        lines.append(t("This tournament is over."))
    return Joined(lines, "\n")


def more(n: int) -> Text:
    """``… and 12 more``: what a cut list leaves out (the sign-up's entrants, a standings table's rows)."""
    return tn("… and {n} more", "… and {n} more", n)


def joined(id: int) -> Text:
    """The private answer to a join."""
    return t("You have joined tournament #{id}.", id=id)


def left(id: int) -> Text:
    """The private answer to a leave."""
    return t("You have left tournament #{id}.", id=id)


def started(id: int, count: int) -> Text:
    """The private answer to the organiser's start."""
    return tn("Tournament #{id} starts with {n} player: round 1 is being paired.",
              "Tournament #{id} starts with {n} players: round 1 is being paired.", count, id=id)


def cancelled(id: int) -> Text:
    """The private answer to the organiser's cancel."""
    return t("Tournament #{id} is cancelled.", id=id)


def stopped(id: int, organiser: int, played: int, total: int | None) -> Text:
    """The public line when the organiser cancels a running tournament (``played``: rounds paired so far)."""
    if not played or total is None:
        return t("Tournament #{id} is cancelled by its organiser <@{organiser}> before its first round.", id=id,
                 organiser=organiser)
    return t("Tournament #{id} is cancelled by its organiser <@{organiser}> in round {round} of {total}: no "
             "further round will be paired. Games in progress play on and still count in its standings.",
             id=id, organiser=organiser, round=played, total=total)


def withdrew(id: int, user: int, lapsed: bool = False) -> Text:
    """The public line of a withdrawal (asked for, or two games lapsed in a row)."""
    if lapsed:
        return t("Tournament #{id}: <@{user}> let two games in a row lapse and is withdrawn; their results so far "
                 "stand.", id=id, user=user)
    return t("Tournament #{id}: <@{user}> has withdrawn; their results so far stand.", id=id, user=user)


def round_head(id: int, number: int, total: int) -> Text:
    """The first line of a round's announcement."""
    return t("**Tournament #{id} — round {number} of {total}**", id=id, number=number, total=total)


def pairing_line(board: int, first: int, second: int, channel: int) -> Text:
    """One game of a round: both mentions (first seat first) and where it is played."""
    return t("{board}. <@{first}> (first seat) vs <@{second}> — <#{channel}>", board=board, first=first,
             second=second, channel=channel)


def bye_line(users: Sequence[int]) -> Text:
    """Who has the bye this round (the word "bye" is what scripts look for: it stays in every language)."""
    return t("bye: {players}", players=", ".join(f"<@{u}>" for u in users))


#: byes named on one line at most (a knockout's round 1 may have over a hundred; a line must fit a message)
BYES_PER_LINE = 40


def bye_lines(users: Sequence[int]) -> list[Text]:
    """The bye lines of a round: one, or several when many have a bye, each well within a message."""
    return [bye_line(users[k:k + BYES_PER_LINE]) for k in range(0, len(users), BYES_PER_LINE)]


def standings_title(id: int, final: bool) -> Text:
    """The words over a standings table (the picture's title)."""
    if final:
        return t("Tournament #{id} — final standings", id=id)
    return t("Tournament #{id} — standings", id=id)


def standings_head(id: int, final: bool) -> Text:
    """The line over a standings table in a message."""
    return t("**{title}**", title=standings_title(id, final))


def winner_line(id: int, user: int | None) -> Text:
    """The final post's last line: the winner."""
    if user is None:
        return t("Tournament #{id} is over, without a winner (every player withdrew).", id=id)
    return t("🏆 <@{user}> wins tournament #{id}!", user=user, id=id)


def legend(columns: Sequence[str]) -> Joined:
    """What the tie-break columns stand for: ``BH = Buchholz; SB = Sonneborn-Berger``."""
    return Joined([t("{short} = {long}", short=COLUMN_LABELS[c], long=COLUMN_NAMES[c]) for c in columns], "; ")


WITHDRAWN_MARK = t(" (withdrawn)")


def thread_title(id: int, round: int, first: str, second: str) -> Text:
    """A tournament game's thread name (Discord allows 100 characters: the sender cuts it)."""
    return t("#{id} R{round}: {first} vs {second}", id=id, round=round, first=first, second=second)


def game_begins(game: int, tournament: int, round: int) -> Text:
    """The first line over a tournament game's first board."""
    return t("Game #{game} begins — tournament #{tournament}, round {round}!", game=game, tournament=tournament,
             round=round)


def game_began(game: int, tournament: int, round: int) -> Text:
    """What happened, under the first board (as :func:`game_begins`, without the exclamation)."""
    return t("Game #{game} begins — tournament #{tournament}, round {round}", game=game, tournament=tournament,
             round=round)


#: the standings text's heads: rank, player, points, games (tie-breaks: :data:`COLUMN_LABELS`)
TABLE_HEAD = (tc("column", "#"), tc("column", "player"), tc("column", "pts"))
GAMES_HEAD = tc("column", "games")


def settings_line(staff_only: bool) -> Text:
    """The /settings summary's line about tournaments."""
    who = t("members with **Manage Server** only") if staff_only else t("anyone")
    return t("Who may create tournaments: **{who}**.", who=who)
