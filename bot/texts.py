"""The words of the bot: captions for turns, game starts and results.

Plain functions from service results to strings; no Discord calls here.
Names come from users and are escaped so nobody can inject markdown or
mentions through a display name.
"""

from __future__ import annotations

import discord
from discord import app_commands

import engine
from engine import BlindHex, InpHexion, Outcome, Position, Reason

from . import movelist
from .service import GAME_TITLES, ActiveGame, Channel, Command, Moment, NotYourTurn, Option, PlayResult, Post, UserError
from .service.errors import joined
from .store import GameRow

#: the games as the command options offer them: their titles shown, their names sent
GAME_CHOICES = [app_commands.Choice(name=title, value=name) for name, title in GAME_TITLES.items()]



def clean(name: str) -> str:
    """A display name made safe for a message (no markdown, no mentions)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))[:40]


def title(game: ActiveGame) -> str:
    """``inpHeXion 7×7 (pie, neutral) · game #12``."""
    o = game.position.options
    variants = f" ({', '.join(o.variants)})" if o.variants else ""
    return f"{GAME_TITLES[o.game]} {o.size}×{o.size}{variants} · game #{game.row.id}"


def player(game: ActiveGame, colour: str, names: dict[int, str], at: Position | None = None) -> str:
    """``**alice** (white)``: who plays ``colour`` now, or at the past position ``at`` (before a swap
    the other player may have had it)."""
    return f"**{clean(names.get(user_at(game, colour, at), '?'))}** ({colour})"


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
    return started if started == now else f"{started}, {now} from the swap"


def players_at(game: ActiveGame, names: dict[int, str], at: Position | None = None) -> str:
    """``**alice** (black) · **bob** (white)`` as they play now, or at the past position ``at``."""
    return " · ".join(player(game, c, names, at) for c in game.position.colours)


def describe_action(position: Position, action: str) -> str:
    """What one canonical action did, in words (``moved c4→d4 and placed on c4``)."""
    a = position.action(action)
    if a.kind == "swap":
        if "swap-pieces" in position.options.variants:
            return "swapped the first stone"
        # ``position`` is before the turn: the swapper takes over the other colour.
        return f"swapped colours (pie rule) and now plays {position.other(position.to_move[0])}"
    if a.kind == "relocate":
        return f"relocated {a.cells[0]}→{a.cells[1]}"
    if a.kind == "move":
        return f"moved {a.cells[0]}→{a.cells[1]} and placed on {a.cells[0]}"
    if a.kind == "aside":
        return f"set {' and '.join(map(str, a.cards))} aside"
    if a.kind == "choose":
        return f"chose {a.typed}"
    if a.kind == "write":
        return f"wrote at {a.cells[0]}"
    # Hex stones are played; inpHeXion discs are placed (its other actions move them).
    return f"placed on {a.cells[0]}" if position.game == "inphexion" else f"played {a.cells[0]}"


def clock_line(game: ActiveGame, now: float | None) -> str:
    """``⏱ Move due <t:…:R> (3d per move)``: a Discord timestamp, true whenever it is read
    (empty without a clock or once over)."""
    if now is None or game.row.deadline is None or game.position.outcome is not None:
        return ""
    if game.row.deadline <= now:
        return "⏱ Time is up — the opponent may `/claim` the win (a move still counts until then)."
    return f"⏱ Move due {relative_time(game.row.deadline)} ({game.row.clock} per move)"


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
        step += PLAY_HINT  # the phone player's way: the Play button under the newest board
    clock = clock_line(game, now)
    return f"{step}\n{clock}" if clock else step


#: how to act without typing, after every hint that shows a ``/move``
PLAY_HINT = " — or tap **Play**"


def mention_list(user_ids: list[int]) -> str:
    """``<@1> and <@2>``."""
    return " and ".join(f"<@{u}>" for u in user_ids)


def ping_line(game: ActiveGame, names: dict[int, str], happened: str = "", *, actor: int | None = None,
              bot_id: int | None = None) -> str:
    """The message content: what happened, then a mention of only who must act now
    (``**bob** played c3 — your turn, <@alice>.``); at the end of a game both players.

    Never mentioned: the bot itself, and ``actor`` (who just acted) while the game goes on.
    Empty when nobody needs to hear about it.
    """
    lead = f"{happened} — " if happened else ""
    if game.position.outcome is not None:
        # Both players hear of the end, also the one who is away (a loss on time).
        players = [u for u in dict.fromkeys(game.row.seats) if u != bot_id]
        return f"{lead}game over, {mention_list(players)}."
    what, _ = _next_step(game, names)
    users = [u for u in dict.fromkeys(game.users_to_move()) if u not in (actor, bot_id)]
    return f"{lead}{what}, {mention_list(users)}." if users else ""


def _next_step(game: ActiveGame, names: dict[int, str]) -> tuple[str, str]:
    """(what the player to act must do, short, for the ping; the description's line)."""
    pos = game.position
    if pos.outcome is not None:
        return "", result_line(game, names)
    colours = " and ".join(pos.to_move)
    if isinstance(pos, InpHexion) and pos.phase == "relocate":
        cells = [pos.grid.name(i) for i in pos.pending_relocations()]
        example = " ".join(f"{c}>{t}" for c, t in zip(cells, _free_examples(pos, cells)))
        which = "this disc" if len(cells) == 1 else "these discs"
        return (f"relocate {', '.join(cells)}",
                f"Relocate {which}: {', '.join(cells)} — any empty cell except {', '.join(cells)}, e.g. `/move {example}`")
    if isinstance(pos, BlindHex):
        if pos.phase == "aside":
            # the game's first step, said like the other games' first move
            return "you lost the cut", f"{colours} to move: {FIRST_MOVE['blindhex']}"
        if pos.phase == "choose":
            return "choose your cards", "Both choose two cards in secret: `/move 1+4` (only you see your choice)"
        if pos.phase == "write":
            writer, number = pos.pending_writes()[0]
            return ("write your letter",
                    f"{writer} writes for **{number}**: `/move` a cell marked {number} or next to a {number}")
    if not pos.actions and pos.game in FIRST_MOVE:
        centre = pos.grid.name((pos.size * pos.size) // 2)
        return "your turn", f"{colours} to move: {FIRST_MOVE[pos.game].format(cell=centre)}"
    return "your turn", f"{colours} to move"


#: the first player's first move in one line (the game's first board says it)
FIRST_MOVE = {
    "inphexion": "place a disc anywhere, e.g. `/move {cell}`",
    "hex": "place a stone anywhere, e.g. `/move {cell}`",
    "blindhex": "you lost the cut, so set two of your cards aside first, e.g. `/move aside 4+5`",
}


def _free_examples(pos: InpHexion, cells: list[str]) -> list[str]:
    targets = [pos.grid.name(i) for i in pos.relocation_targets()]
    return (targets * len(cells))[: len(cells)] if targets else cells


def result_line(game: ActiveGame, names: dict[int, str]) -> str:
    """``🏆 **alice** (white) wins by connection.``"""
    o = game.position.outcome
    if o is None:
        return ""
    if o.winner is None:
        return f"{o.in_words()}."
    loser = game.position.other(o.winner)
    return f"🏆 {o.in_words(player(game, o.winner, names), player(game, loser, names))}."


def result_words(game: ActiveGame, names: dict[int, str]) -> str:
    """``alice wins: bob resigned``: the result in plain words (footers, files), ``in progress`` until there is one."""
    o = game.position.outcome
    if o is None:
        return "in progress"
    if o.winner is None:
        return o.in_words()
    return o.in_words(names.get(game.user_of(o.winner), o.winner),
                      names.get(game.user_of(game.position.other(o.winner)), "?"))


def finished_result(row: GameRow, names: dict[int, str], bot_id: int | None = None) -> str:
    """A finished game's result in the words of its game-over message (``alice wins: bob resigned``),
    from its stored row; the bot of a game against the computer is ``the computer (medium)``."""
    if row.reason is None:
        return "Aborted: no result"
    who = {u: clean(names.get(u, "?")) for u in row.seats}
    if row.ai_level and bot_id in who:
        who[bot_id] = f"the computer ({row.ai_level})"
    if row.winner_seat is None:
        return Outcome(None, Reason(row.reason)).in_words()
    # the winner's colour as seated (the words name people, not colours)
    outcome = Outcome(engine.GAMES[row.game].colours[row.winner_seat], Reason(row.reason))
    return outcome.in_words(who[row.seats[row.winner_seat]], who[row.seats[1 - row.winner_seat]])


def side(row: GameRow, user_id: int) -> str:
    """``won`` or ``lost`` for a player of a finished game (as ``/stats`` counts them), else ``""``."""
    if row.winner_seat is None or user_id not in row.seats:
        return ""
    return "won" if row.seats[row.winner_seat] == user_id else "lost"


def turn_caption(result: PlayResult, names: dict[int, str], *, colour: bool = True) -> str:
    """One line saying who did what this turn (``**bob** (white) played c3.``);
    ``colour=False`` leaves the colour out, for the short line that pings."""
    game = result.game
    # The mover by their id with the colour they acted as: after a swap the colour names someone else.
    who = f"**{clean(names.get(result.user_id, '?'))}**" + (f" ({result.colour})" if colour else "")
    if not result.actions:
        reason = result.outcome.reason.value if result.outcome else ""
        if reason == "timeout":
            return f"{who} claims the win on time."
        if reason == "abandoned":
            return "No move for 30 days: the game is closed as abandoned (unrated)."
        return f"{who} resigned."
    if result.revealed:
        return reveal_caption(game, names)
    done = [describe_action(result.before, a) for a in result.actions]
    return f"{who} {', then '.join(done)}."


def reveal_caption(game: ActiveGame, names: dict[int, str]) -> str:
    """Blind Hex reveal: each player's cards, who writes how many letters in which order,
    what a common number does, and that two letters in a row go in one move."""
    pos = game.position
    if not isinstance(pos, BlindHex):
        return ""
    cards = pos.revealed() or {}
    shown = ", ".join(f"{player(game, c, names)} {'+'.join(map(str, cards[c]))}" for c in sorted(cards))
    lines = [f"Cards revealed: {shown}."]
    common = sorted(set(cards.get("x", ())) & set(cards.get("o", ())))
    if common:
        lines.append(f"Both chose {' and '.join(map(str, common))}: nobody writes for "
                     f"{'it' if len(common) == 1 else 'them'}.")
    runs: list[list] = []  # [colour, number, letters]
    for colour, number in pos.pending_writes():
        if runs and runs[-1][0] == colour and runs[-1][1] == number:
            runs[-1][2] += 1
        else:
            runs.append([colour, number, 1])
    if runs:
        order = ", then ".join(f"**{clean(names.get(game.user_of(c), '?'))}** {plural(k, 'letter')} for {n}"
                               for c, n, k in runs)
        lines.append(f"Writing order: {order}.")
        if any(k > 1 for _, _, k in runs) or len({c for c, _, _ in runs}) < len(runs):
            lines.append("Letters you write in a row can go in one move: `/move e5 f6`.")
    return "\n".join(lines)


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


def refusal(exc: UserError) -> str:
    """The private answer to a refused request: its words with each fact as Discord shows it
    (commands and options in code style, channels and messages as links, moments as timestamps);
    whom a game waits for is mentioned.

    >>> from bot.service import Command, Option
    >>> refusal(UserError("Add {option}, or see {cmd}.", option=Option("thread", True), cmd=Command("games")))
    'Add `thread:true`, or see `/games`.'
    """
    if isinstance(exc, NotYourTurn):
        waiting = " and ".join(f"<@{u}>" for u in exc.waiting)
        return f"It's not your turn — waiting for {waiting} ({' and '.join(exc.colours)})."
    if not exc.facts:
        return exc.words
    return exc.words.format(**{name: _shown(fact) for name, fact in exc.facts.items()})


def _shown(fact: object) -> str:
    """One fact of a refusal as Discord shows it (see :func:`refusal`)."""
    if isinstance(fact, (list, tuple)):
        return joined([_shown(f) for f in fact])
    if isinstance(fact, (Command, Option)):
        note = f" ({fact.note})" if isinstance(fact, Option) and fact.note else ""
        return f"`{fact}`{note}"
    if isinstance(fact, Channel):
        return f"<#{fact.id}>"
    if isinstance(fact, Moment):
        return relative_time(fact.at)
    if isinstance(fact, Post):
        if fact.message_id is None:
            return f"<#{fact.channel_id}>"  # not posted yet (a moment ago): its channel
        return f"https://discord.com/channels/{fact.guild_id}/{fact.channel_id}/{fact.message_id}"
    return str(fact)
