"""The words of the bot: captions for turns, game starts and results.

Plain functions from service results to strings; no Discord calls here.
Names come from users and are escaped so nobody can inject markdown or
mentions through a display name.
"""

from __future__ import annotations

import discord
from discord import app_commands

import engine
from engine import ActionError, BlindHex, InpHexion, OptionsError, Outcome, Position, Reason

from ..i18n import SOURCE, Text, render, t, tc, tn
from ..i18n.text import Joined, Listed, from_engine, word
from ..service import (
    GAME_TITLES,
    ActiveGame,
    Channel,
    Command,
    Moment,
    NotYourTurn,
    Option,
    PlayResult,
    Post,
    UserError,
)
from ..service.limits import Limit
from ..store import GameRow
from . import movelist

#: the games as the command options offer them: their titles shown, their names sent
GAME_CHOICES = [app_commands.Choice(name=title, value=name) for name, title in GAME_TITLES.items()]



def clean(name: str) -> str:
    """A display name made safe for a message (no markdown, no mentions)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))[:40]


def title(game: ActiveGame) -> Text:
    """``inpHeXion 7×7 (pie, neutral) · game #12``."""
    o = game.position.options
    variants = f" ({', '.join(o.variants)})" if o.variants else ""
    return t("{game} {size}×{size}{variants} · game #{id}", game=GAME_TITLES[o.game], size=o.size, variants=variants,
             id=game.row.id)


def player(game: ActiveGame, colour: str, names: dict[int, str], at: Position | None = None) -> Text:
    """``**alice** (white)``: who plays ``colour`` now, or at the past position ``at`` (before a swap
    the other player may have had it)."""
    return t("**{name}** ({colour})", name=clean(names.get(user_at(game, colour, at), '?')),
             colour=COLOURS.get(colour, colour))


def user_at(game: ActiveGame, colour: str, at: Position | None = None) -> int:
    """The user who plays ``colour`` now, or at the past position ``at`` of the game."""
    return game.row.seats[(at or game.position).seat_of_colour(colour)]


def colour_names(game: ActiveGame, names: dict[int, str], at: Position | None = None) -> dict[str, str]:
    """colour → display name for the picture of the game now, or of its past position ``at``
    (names change sides from a swap on)."""
    return {c: names.get(user_at(game, c, at), c) for c in game.position.colours}


def seated(game: ActiveGame, names: dict[int, str]) -> list[tuple[str, str, str]]:
    """(name, colour at the start, colour now) of each player, the first to move first."""
    start = game.position.options.new_position()
    seats = sorted((0, 1), key=lambda seat: start.colour_of_seat(seat) not in start.to_move[:1])
    return [(clean(names.get(game.row.seats[seat], "?")), start.colour_of_seat(seat),
             game.position.colour_of_seat(seat)) for seat in seats]


def colours_of_game(started: str, now: str) -> str:
    """``black``, or ``black, white from the swap`` for a player who changed colour.

    >>> colours_of_game("black", "white")
    'black, white from the swap'
    """
    if started == now:
        return COLOURS.get(started, started)
    return t("{started}, {now} from the swap", started=COLOURS.get(started, started), now=COLOURS.get(now, now))


def players_at(game: ActiveGame, names: dict[int, str], at: Position | None = None) -> Joined:
    """``**alice** (black) · **bob** (white)`` as they play now, or at the past position ``at``."""
    return Joined([player(game, c, names, at) for c in game.position.colours])


def describe_action(position: Position, action: str) -> Text:
    """What one canonical action did, in words (``moved c4→d4 and placed on c4``)."""
    a = position.action(action)
    if a.kind == "swap":
        if "swap-pieces" in position.options.variants:
            return t("swapped the first stone")
        # ``position`` is before the turn: the swapper takes over the other colour.
        other = position.other(position.to_move[0])
        return t("swapped colours (pie rule) and now plays {colour}", colour=COLOURS.get(other, other))
    if a.kind == "relocate":
        return t("relocated {move}", move=f"{a.cells[0]}→{a.cells[1]}")
    if a.kind == "move":
        return t("moved {move} and placed on {cell}", move=f"{a.cells[0]}→{a.cells[1]}", cell=a.cells[0])
    if a.kind == "aside":
        return t("set {cards} aside", cards=Listed([str(c) for c in a.cards]))
    if a.kind == "choose":
        return t("chose {cards}", cards=a.typed)
    if a.kind == "write":
        return t("wrote at {cell}", cell=a.cells[0])
    # Hex stones are played; inpHeXion discs are placed (its other actions move them).
    return t("placed on {cell}", cell=a.cells[0]) if position.game == "inphexion" else t("played {cell}", cell=a.cells[0])


def clock_line(game: ActiveGame, now: float | None) -> Text:
    """``⏱ Move due <t:…:R> (3d per move)``: a Discord timestamp, true whenever it is read
    (empty without a clock or once over)."""
    if now is None or game.row.deadline is None or game.position.outcome is not None:
        return t("")
    if game.row.deadline <= now:
        return t("⏱ Time is up — the opponent may {claim} the win (a move still counts until then).",
                 claim=Shown(Command("claim")))
    return t("⏱ Move due {when} ({clock} per move)", when=relative_time(game.row.deadline),
             clock=tc("choice", game.row.clock))


def relative_time(ts: float) -> str:
    """A Discord timestamp each reader sees as "in 2 days" / "3 hours ago", always true.

    >>> relative_time(1800000000.7)
    '<t:1800000000:R>'
    """
    return f"<t:{int(ts)}:R>"


def next_step(game: ActiveGame, names: dict[int, str], now: float | None = None) -> str:
    """Lines for the description about what happens next (with time left at ``now``)."""
    _, step = _next_step(game, names)
    if "`/move" in step:
        step = t("{step} — or tap **Play**", step=step)  # the phone player's way: the Play button under the newest board
    clock = clock_line(game, now)
    return Joined([step, clock], "\n") if clock else step


#: how to act without typing, after every hint that shows a ``/move`` (its English; the catalogs
#: have it with the hint as ``{step} — or tap **Play**``)
PLAY_HINT = " — or tap **Play**"


class Typed:
    """A command as typed, in code style with what follows it (``/move c4``), by the name the reader's Discord shows."""

    def __init__(self, command: str, rest: str) -> None:
        self.command = command
        self.rest = rest

    def said_in(self, language: str) -> str:
        """The command in ``language``."""
        return f"`/{word('command', self.command, language)} {self.rest}`"


def mention_list(user_ids: list[int]) -> Listed:
    """``<@1> and <@2>``."""
    return Listed([f"<@{u}>" for u in user_ids])


def ping_line(game: ActiveGame, names: dict[int, str], happened: str = "", *, actor: int | None = None,
              bot_id: int | None = None) -> str:
    """The message content: what happened, then a mention of only who must act now
    (``**bob** played c3 — your turn, <@alice>.``); at the end of a game both players.

    Never mentioned: the bot itself, and ``actor`` (who just acted) while the game goes on.
    Empty when nobody needs to hear about it.
    """
    if game.position.outcome is not None:
        # Both players hear of the end, also the one who is away (a loss on time).
        players = mention_list([u for u in dict.fromkeys(game.row.seats) if u != bot_id])
        return t("{happened} — game over, {players}.", happened=happened, players=players) if happened else \
            t("game over, {players}.", players=players)
    what, _ = _next_step(game, names)
    users = [u for u in dict.fromkeys(game.users_to_move()) if u not in (actor, bot_id)]
    if not users:
        return ""
    if happened:
        return t("{happened} — {what}, {users}.", happened=happened, what=what, users=mention_list(users))
    return t("{what}, {users}.", what=what, users=mention_list(users))


def _next_step(game: ActiveGame, names: dict[int, str]) -> tuple[str, str]:
    """(what the player to act must do, short, for the ping; the description's line)."""
    pos = game.position
    if pos.outcome is not None:
        return "", result_line(game, names)
    colours = Listed([COLOURS.get(c, c) for c in pos.to_move])
    if isinstance(pos, InpHexion) and pos.phase == "relocate":
        cells = [pos.grid.name(i) for i in pos.pending_relocations()]
        example = Typed("move", " ".join(f"{c}>{t}" for c, t in zip(cells, _free_examples(pos, cells))))
        shown = ", ".join(cells)
        return (t("relocate {cells}", cells=shown),
                tn("Relocate this disc: {cells} — any empty cell except {cells}, e.g. {example}",
                   "Relocate these discs: {cells} — any empty cell except {cells}, e.g. {example}",
                   len(cells), cells=shown, example=example))
    if isinstance(pos, BlindHex):
        if pos.phase == "aside":
            # the game's first step, said like the other games' first move
            return t("you lost the cut"), t("{colours} to move: {first}", colours=colours, first=first_move(pos, ""))
        if pos.phase == "choose":
            return t("choose your cards"), t("Both choose two cards in secret: {example} (only you see your choice)",
                                             example=Typed("move", "1+4"))
        if pos.phase == "write":
            writer, number = pos.pending_writes()[0]
            return (t("write your letter"),
                    t("{writer} writes for **{number}**: {move} a cell marked {number} or next to a {number}",
                      writer=COLOURS.get(writer, writer), number=number, move=Shown(Command("move"))))
    if not pos.actions and pos.game in ("inphexion", "hex"):
        centre = pos.grid.name((pos.size * pos.size) // 2)
        return t("your turn"), t("{colours} to move: {first}", colours=colours, first=first_move(pos, centre))
    return t("your turn"), t("{colours} to move", colours=colours)


def first_move(pos: Position, cell: str) -> Text:
    """The first player's first move in one line (the game's first board says it)."""
    if pos.game == "inphexion":
        return t("place a disc anywhere, e.g. {example}", example=Typed("move", cell))
    if pos.game == "hex":
        return t("place a stone anywhere, e.g. {example}", example=Typed("move", cell))
    return t("you lost the cut, so set two of your cards aside first, e.g. {example}", example=Typed("move", "aside 4+5"))


def _free_examples(pos: InpHexion, cells: list[str]) -> list[str]:
    targets = [pos.grid.name(i) for i in pos.relocation_targets()]
    return (targets * len(cells))[: len(cells)] if targets else cells


def outcome_words(outcome: Outcome, winner: str = "", loser: str = "") -> Text:
    """The result as a player reads it, naming the winner and loser as given (the engine's
    ``Outcome.in_words``, in the catalogs)."""
    if outcome.winner is None:
        return t("Game over: no winner") if outcome.reason is not Reason.ABANDONED else t("Game abandoned")
    return {
        Reason.CONNECTION: lambda: t("{winner} wins by connection", winner=winner),
        Reason.NO_LEGAL_MOVE: lambda: t("{winner} wins: {loser} has no legal move", winner=winner, loser=loser),
        Reason.CANNOT_RELOCATE: lambda: t("{winner} wins: {loser} cannot relocate", winner=winner, loser=loser),
        Reason.RESIGNATION: lambda: t("{winner} wins: {loser} resigned", winner=winner, loser=loser),
        Reason.TIMEOUT: lambda: t("{winner} wins on time", winner=winner),
        Reason.ABANDONED: lambda: t("{winner} wins: the game was abandoned", winner=winner),
    }[outcome.reason]()


def result_line(game: ActiveGame, names: dict[int, str]) -> Text:
    """``🏆 **alice** (white) wins by connection.``"""
    o = game.position.outcome
    if o is None:
        return t("")
    if o.winner is None:
        return t("{result}.", result=outcome_words(o))
    loser = game.position.other(o.winner)
    return t("🏆 {result}.", result=outcome_words(o, player(game, o.winner, names), player(game, loser, names)))


def result_text(game: ActiveGame, names: dict[int, str]) -> Text:
    """``alice wins: bob resigned`` (``in progress`` until there is a result), to be said in a language."""
    o = game.position.outcome
    if o is None:
        return t("in progress")
    if o.winner is None:
        return outcome_words(o)
    return outcome_words(o, names.get(game.user_of(o.winner), o.winner),
                         names.get(game.user_of(game.position.other(o.winner)), "?"))


def result_words(game: ActiveGame, names: dict[int, str]) -> str:
    """``alice wins: bob resigned``: the result in plain words (footers, files), ``in progress`` until there is one."""
    o = game.position.outcome
    if o is None:
        return "in progress"
    if o.winner is None:
        return o.in_words()
    return o.in_words(names.get(game.user_of(o.winner), o.winner),
                      names.get(game.user_of(game.position.other(o.winner)), "?"))


def finished_result(row: GameRow, names: dict[int, str], bot_id: int | None = None) -> Text:
    """A finished game's result in the words of its game-over message (``alice wins: bob resigned``),
    from its stored row; the bot of a game against the computer is ``the computer (medium)``."""
    if row.reason is None:
        return t("Aborted: no result")
    who: dict[int, str] = {u: clean(names.get(u, "?")) for u in row.seats}
    if row.ai_level and bot_id in who:
        who[bot_id] = t("the computer ({level})", level=tc("choice", row.ai_level))
    if row.winner_seat is None:
        return outcome_words(Outcome(None, Reason(row.reason)))
    # the winner's colour as seated (the words name people, not colours)
    outcome = Outcome(engine.GAMES[row.game].colours[row.winner_seat], Reason(row.reason))
    return outcome_words(outcome, who[row.seats[row.winner_seat]], who[row.seats[1 - row.winner_seat]])


#: why a game was closed without a result, as its players read it (see :func:`closed_note`)
CHANNEL_GONE = t("its channel or thread was deleted")
SERVER_GONE = t("I'm no longer in the server it was played in")


def closed_note(game: ActiveGame, names: dict[int, str], user_id: int, bot_id: int | None, why: str) -> Text:
    """The direct message to a player whose game was closed because its place is gone."""
    opponent = next((u for u in game.row.seats if u != user_id), user_id)
    against = t("the computer") if opponent == bot_id else f"**{clean(names.get(opponent, '?'))}**"
    return t("Your game #{id} ({title} against {opponent}) was closed because {why}. "
             "It ends without a result and no rating changes.", id=game.row.id, title=title(game), opponent=against,
             why=why)


def side(row: GameRow, user_id: int) -> str:
    """``won`` or ``lost`` for a player of a finished game (as ``/stats`` counts them), else ``""``."""
    if row.winner_seat is None or user_id not in row.seats:
        return ""
    return t("won") if row.seats[row.winner_seat] == user_id else t("lost")


def turn_caption(result: PlayResult, names: dict[int, str], *, colour: bool = True) -> Text:
    """One line saying who did what this turn (``**bob** (white) played c3.``);
    ``colour=False`` leaves the colour out, for the short line that pings."""
    game = result.game
    # The mover by their id with the colour they acted as: after a swap the colour names someone else.
    name = clean(names.get(result.user_id, '?'))
    who = t("**{name}** ({colour})", name=name, colour=COLOURS.get(result.colour, result.colour)) if colour \
        else t("**{name}**", name=name)
    if not result.actions:
        reason = result.outcome.reason.value if result.outcome else ""
        if reason == "timeout":
            return t("{who} claims the win on time.", who=who)
        if reason == "abandoned":
            return t("No move for 30 days: the game is closed as abandoned (unrated).")
        return t("{who} resigned.", who=who)
    if result.revealed:
        return t("{caption}", caption=reveal_caption(game, names))
    done = [describe_action(result.before, a) for a in result.actions]
    return t("{who} {actions}.", who=who, actions=Joined(done, THEN))


#: between the actions of one turn (``played c3, then swapped``)
THEN = t(", then ")


def reveal_caption(game: ActiveGame, names: dict[int, str]) -> Joined:
    """Blind Hex reveal: each player's cards, who writes how many letters in which order,
    what a common number does, and that two letters in a row go in one move."""
    pos = game.position
    if not isinstance(pos, BlindHex):
        return Joined([])
    cards = pos.revealed() or {}
    shown = Joined([t("{player} {cards}", player=player(game, c, names), cards="+".join(map(str, cards[c])))
                    for c in sorted(cards)], ", ")
    lines: list[str] = [t("Cards revealed: {cards}.", cards=shown)]
    common = sorted(set(cards.get("x", ())) & set(cards.get("o", ())))
    if len(common) == 1:
        lines.append(t("Both chose {number}: nobody writes for it.", number=common[0]))
    elif common:
        lines.append(t("Both chose {numbers}: nobody writes for them.", numbers=Listed([str(n) for n in common])))
    runs: list[list] = []  # [colour, number, letters]
    for colour, number in pos.pending_writes():
        if runs and runs[-1][0] == colour and runs[-1][1] == number:
            runs[-1][2] += 1
        else:
            runs.append([colour, number, 1])
    if runs:
        order = Joined([tn("**{name}** {n} letter for {number}", "**{name}** {n} letters for {number}", k,
                           name=clean(names.get(game.user_of(c), "?")), number=n) for c, n, k in runs], THEN)
        lines.append(t("Writing order: {order}.", order=order))
        if any(k > 1 for _, _, k in runs) or len({c for c, _, _ in runs}) < len(runs):
            lines.append(t("Letters you write in a row can go in one move: {example}.",
                           example=Typed("move", "e5 f6")))
    return Joined(lines, "\n")


def mid_writing_turn(result: PlayResult) -> bool:
    """A Blind Hex letter after which the same player writes again: no new picture yet
    (one picture per writing turn)."""
    pos = result.game.position
    return (pos.game == "blindhex" and pos.outcome is None and pos.phase == "write" and not result.revealed
            and result.game.users_to_move() == [result.user_id])


def rating_change(name: str, before: float, after: float) -> str:
    """``alice 1500 → 1662, +162`` (the sign always shown).

    >>> rating_change("bob", 1500, 1337.6)
    'bob 1500 → 1338, −162'
    """
    delta = round(after) - round(before)
    sign = "+" if delta >= 0 else "−"
    return f"{clean(name)} {round(before)} → {round(after)}, {sign}{abs(delta)}"


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 game``, ``2 games``.

    >>> plural(1, "game"), plural(0, "win"), plural(3, "loss", "losses")
    ('1 game', '0 wins', '3 losses')
    """
    return f"{n} {word if n == 1 else (words or word + 's')}"


def turn_count(position: Position) -> int:
    """How many turns were played, as players count them (a relocation is part of its turn)."""
    return len(movelist.turns(position.options, position.public_record()))


#: the players' colours as words
COLOURS = {"white": tc("colour", "white"), "black": tc("colour", "black")}


def engine_reason(exc: ActionError | OptionsError) -> Text:
    """Why the rules refused an action (or a game's options), as a sentence in the reader's language:
    ``c4 is taken.``"""
    return t("{reason}.", reason=from_engine(exc.message))


def refusal(exc: UserError, language: str = SOURCE) -> str:
    """The private answer to a refused request, in ``language``: its words with each fact as
    Discord shows it (commands and options in code style, by the names the reader's Discord shows,
    channels and messages as links, moments as timestamps); whom a game waits for is mentioned.

    >>> from bot.service import Command, Option
    >>> refusal(UserError("Add {option}, or see {cmd}.", option=Option("thread", True), cmd=Command("games")))
    'Add `thread:true`, or see `/games`.'
    """
    if isinstance(exc, NotYourTurn):
        waiting = Listed([f"<@{u}>" for u in exc.waiting])
        return render(t("It's not your turn — waiting for {waiting} ({colours}).", waiting=waiting,
                        colours=Shown([COLOURS.get(c, c) for c in exc.colours])), language)
    return render(Text(exc.words, {name: Shown(fact) for name, fact in exc.facts.items()}), language)


class Shown:
    """One fact of a refusal as Discord shows it in a language (see :func:`refusal`)."""

    def __init__(self, fact: object) -> None:
        self.fact = fact

    def said_in(self, language: str) -> str:
        """The fact in ``language``."""
        return _shown(self.fact, language)


def _shown(fact: object, language: str) -> str:
    said = getattr(fact, "said_in", None)
    if said is not None:  # a message or a word of the catalogs
        return str(said(language))
    if isinstance(fact, (list, tuple)):
        return Listed([_shown(f, language) for f in fact]).said_in(language)
    if isinstance(fact, Command):
        return f"`/{word('command', fact.name, language)}`"
    if isinstance(fact, Option):
        name = word("option", fact.name, language)
        value = fact.value
        shown = name if value is None else f"{name}:{str(value).lower() if isinstance(value, bool) else value}"
        note = f" ({render(t(fact.note), language)})" if fact.note else ""
        return f"`{shown}`{note}"
    if isinstance(fact, Channel):
        return f"<#{fact.id}>"
    if isinstance(fact, Moment):
        return relative_time(fact.at)
    if isinstance(fact, Post):
        if fact.message_id is None:
            return f"<#{fact.channel_id}>"  # not posted yet (a moment ago): its channel
        return f"https://discord.com/channels/{fact.guild_id}/{fact.channel_id}/{fact.message_id}"
    if isinstance(fact, Text):
        return render(fact, language)
    if isinstance(fact, engine.Message):  # a rule's reason: said in the catalogs' words
        return from_engine(fact).said_in(language)
    return str(fact)


def limit_shown(limit: Limit, value: int) -> Text:
    """A server's limit as the ``/settings`` summary shows it, e.g. ``open challenges each: **3**``."""
    label = tc("limit", limit.label)
    if limit.unit == "seconds":
        return t("{label} **{value} s**", label=label, value=value) if value else \
            t("{label}: **no wait**", label=label)
    return t("{label}: **{value}**", label=label, value=value)

