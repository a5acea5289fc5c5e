"""The words of the bot: captions for turns, game starts and results.

Plain functions from service results to strings; no Discord calls here.
Names come from users and are escaped so nobody can inject markdown or
mentions through a display name.
"""

from __future__ import annotations

import discord

from engine import BlindHex, InpHexion, Position

from .service import GAME_TITLES, ActiveGame, NotYourTurn, PlayResult, UserError, format_duration


def clean(name: str) -> str:
    """A display name made safe for a message (no markdown, no mentions)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))[:40]


def title(game: ActiveGame) -> str:
    """``inpHeXion 7×7 (pie, neutral) · game #12``."""
    o = game.position.options
    variants = f" ({', '.join(o.variants)})" if o.variants else ""
    return f"{GAME_TITLES[o.game]} {o.size}×{o.size}{variants} · game #{game.row.id}"


def player(game: ActiveGame, colour: str, names: dict[int, str]) -> str:
    """``**alice** (white)``."""
    return f"**{clean(names.get(game.user_of(colour), '?'))}** ({colour})"


def colour_names(game: ActiveGame, names: dict[int, str]) -> dict[str, str]:
    """colour → display name, for the picture."""
    return {c: names.get(game.user_of(c), c) for c in game.position.colours}


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
    """``⏱ 2d 23h left to move`` (empty without a clock or once over)."""
    if now is None or game.row.deadline is None or game.position.outcome is not None:
        return ""
    left = game.row.deadline - now
    if left <= 0:
        return "⏱ Time is up — the opponent may `/claim` the win (a move still counts until then)."
    return f"⏱ {format_duration(left)} left to move ({game.row.clock} per move)"


def next_step(game: ActiveGame, names: dict[int, str], now: float | None = None) -> tuple[str, str]:
    """(a line with mentions for the message content, lines for the description) about what happens next."""
    mention, step = _next_step(game, names)
    clock = clock_line(game, now)
    return mention, f"{step}\n{clock}" if clock else step


def _next_step(game: ActiveGame, names: dict[int, str]) -> tuple[str, str]:
    pos = game.position
    if pos.outcome is not None:
        return "", result_line(game, names)
    users = game.users_to_move()
    mention = " and ".join(f"<@{u}>" for u in users)
    colours = " and ".join(pos.to_move)
    if isinstance(pos, InpHexion) and pos.phase == "relocate":
        cells = [pos.grid.name(i) for i in pos.pending_relocations()]
        example = " ".join(f"{c}>{t}" for c, t in zip(cells, _free_examples(pos, cells)))
        which = "this disc" if len(cells) == 1 else "these discs"
        return (f"{mention}, relocate {', '.join(cells)}",
                f"Relocate {which}: {', '.join(cells)} — any empty cell except {', '.join(cells)}, e.g. `/move {example}`")
    if isinstance(pos, BlindHex):
        if pos.phase == "aside":
            return f"{mention}, you lost the cut", f"{colours} sets two cards aside: `/move aside 4+5` (any two of your cards)"
        if pos.phase == "choose":
            return f"{mention}, choose your cards", "Both choose two cards in secret: `/move 1+4` (only you see your choice)"
        if pos.phase == "write":
            writer, number = pos.pending_writes()[0]
            return f"{mention}, write your letter", f"{writer} writes for **{number}**: `/move` a cell marked {number} or next to a {number}"
    return f"{mention}, your turn", f"{colours} to move"


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


def turn_caption(result: PlayResult, names: dict[int, str]) -> str:
    """One line saying who did what this turn."""
    game = result.game
    # The mover by their id with the colour they acted as: after a swap the colour names someone else.
    who = f"**{clean(names.get(result.user_id, '?'))}** ({result.colour})"
    if not result.actions:
        reason = result.outcome.reason.value if result.outcome else ""
        if reason == "timeout":
            return f"{player(game, result.colour, names)} claims the win on time."
        if reason == "abandoned":
            return "No move for 30 days: the game is closed as abandoned (unrated)."
        return f"{who} resigned."
    if result.revealed:
        cards = game.position.revealed() if isinstance(game.position, BlindHex) else None
        shown = ", ".join(f"{c} {'+'.join(map(str, cards[c]))}" for c in sorted(cards)) if cards else "?"
        return f"Cards revealed: {shown}."
    done = [describe_action(result.before, a) for a in result.actions]
    return f"{who} {', then '.join(done)}."


def rating_line(result: PlayResult, names: dict[int, str]) -> str:
    """``Ratings: alice 1500 → 1662, bob 1500 → 1338`` (empty when unrated)."""
    if not result.rating_changes:
        return ""
    parts = [f"{clean(names.get(u, '?'))} {round(b)} → {round(a)}" for u, (b, a) in result.rating_changes.items()]
    return "Ratings: " + ", ".join(parts)


def refusal(exc: UserError) -> str:
    """The private answer to a refused request (mentions whom a game waits for)."""
    if isinstance(exc, NotYourTurn):
        waiting = " and ".join(f"<@{u}>" for u in exc.waiting)
        return f"It's not your turn — waiting for {waiting} ({' and '.join(exc.colours)})."
    return str(exc)
