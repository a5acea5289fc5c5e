"""Secrecy in Blind Hex: a choice stays hidden until both players have chosen.

Between a player's secret choice and the other player's answering choice (the
reveal), nothing the bot sends anyone but the chooser may depend on that choice:

* every request the bot makes (public messages, follow-ups, uploads, edits,
  autocomplete answers) is scanned for the chosen cards;
* every log record at INFO or above is scanned too;
* autocomplete answered to the other player and to onlookers is exactly what
  the public position gives;
* twin games with the same seed and history, differing only in the secret
  choice, look the same to everyone else, byte for byte (boards, record files,
  replays, refusals, autocomplete).
"""

from __future__ import annotations

import json
import logging
import random
import re

import pytest

import engine
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import Harness
from tests.fake_discord import FakeMember

SEED = 1_234_567


def patterns(cards: str) -> re.Pattern[str]:
    """Ways a choice such as ``2+5`` could be written: 2+5, 5+2, 2 and 5, 2 & 5, [2, 5], (2, 5)."""
    a, b = cards.split("+")
    forms = []
    for p, q in ((a, b), (b, a)):
        forms += [rf"(?<![\d+]){p}\s*\+\s*{q}(?![\d+])", rf"\b{p} (and|&) {q}\b", rf"[\[(]{p}, {q}[\])]"]
    return re.compile("|".join(forms))


#: the bot's fixed how-to examples (bot/ui/texts.py), the same whatever anyone chose
EXAMPLES = ("`/move 1+4`", "`/move aside 4+5`")


def request_text(request) -> str:
    """Everything a request carries that a person could read: JSON body and text uploads."""
    text = json.dumps(request.json, ensure_ascii=False) if request.json is not None else ""
    for f in request.files:
        if not f.filename.endswith((".png", ".gif", ".jpg", ".webp")):
            text += f.data.decode("utf-8", "replace")
    for example in EXAMPLES:
        text = text.replace(example, "")
    return text + request.path


def is_own_private_answer(request, chooser_inter) -> bool:
    """The chooser's own ephemeral confirmation (the only place the cards may appear)."""
    body = request.json if isinstance(request.json, dict) else {}
    flags = int((body.get("data") or body).get("flags") or 0)
    return chooser_inter.token in request.path and bool(flags & 64)


def is_autocomplete_answer(request) -> bool:
    body = request.json if isinstance(request.json, dict) else {}
    return request.path.endswith("/callback") and body.get("type") == 8


def user_of(h: Harness, g, colour: str) -> FakeMember:
    return h.world.alice if g.user_of(colour) == h.world.alice.id else h.world.bob


def public_position(position: engine.Position) -> engine.Position:
    """The position anyone may know: the pending secret choice left out."""
    return engine.Record(position.options, position.public_record()).replay()


async def expected_autocomplete(position: engine.Position, colour: str, typed: str) -> list[str]:
    from bot.cogs.play import filter_choices

    pos = public_position(position)
    if colour not in pos.to_move or pos.phase != "choose":
        return []
    return [value for _, value in filter_choices([a.split(":", 1)[1] for a in pos.legal_actions(colour)], typed)]


async def test_a_whole_blind_hex_game_leaks_no_choice_before_the_reveal(harness, caplog):
    caplog.set_level(logging.INFO)
    w = harness.world
    fake = harness.fake
    rng = random.Random(SEED)
    windows = 0
    async with harness.running():
        harness.bot.service._seed = lambda: SEED  # the cut, like everything else here, is seeded
        # carol's public /board in every window is what is checked for leaks: no board cooldown here
        await harness.slash(w.admin, "settings", board_cooldown=0)
        await harness.start_game(w.alice, w.bob, "blindhex", seat="first")
        g = await harness.bot.service.game_in(harness.channel.id)
        script: list[str] = []
        g.position.random_playout(rng, script)
        pos = g.position.copy()
        i = 0
        while i < len(script):
            action = script[i]
            colour, _, cards = action.partition(":")
            if not cards or len(pos.to_move) != 2:
                user = user_of(harness, g, pos.to_move[0])
                r = await harness.move(user, cards or action)
                assert cards or not r.ephemeral, r.content
                pos.play(action)
                i += 1
                continue
            # A first choice of a round: the secret window opens. Either player may choose first.
            if rng.random() < 0.5:
                script[i], script[i + 1] = script[i + 1], script[i]
                action = script[i]
                colour, _, cards = action.partition(":")
            windows += 1
            other = next(c for c in pos.to_move if c != colour)
            chooser, opponent = user_of(harness, g, colour), user_of(harness, g, other)
            secret = patterns(cards)
            first_request, first_record = len(fake.requests), len(caplog.records)
            inter = await fake.start_slash(chooser, harness.channel, "move", action=cards)
            mine = await inter.wait(10)
            assert mine.ephemeral and "You chose" in mine.content
            await fake.wait_for(lambda m: m.interaction is inter and not m.ephemeral and "has chosen" in m.content)
            pos.play(action)
            # Onlookers and the opponent look around while the choice is secret.
            for typed in ("", cards[0], cards, "+"):
                answer = await fake.autocomplete(opponent, harness.channel, "move", focused="action", action=typed)
                assert answer.values == await expected_autocomplete(pos, other, typed), typed
                assert await fake.autocomplete(w.carol, harness.channel, "move", focused="action", action=typed) == []
                assert await fake.autocomplete(chooser, harness.channel, "move", focused="action", action=typed) == []
            if windows <= 3:
                for name in ("board", "games", "record", "replay"):
                    options = {"game": g.row.id} if name in ("record", "replay") else {}
                    r = await fake.slash(w.carol, harness.channel, name, **options)
                    assert not r.ephemeral
            again = await harness.move(chooser, cards)
            assert again.ephemeral and "already chosen" in again.content
            await fake.settle()
            leaks = [(r, m.group()) for r in fake.requests[first_request:]
                     if not is_own_private_answer(r, inter) and not is_autocomplete_answer(r)
                     and (m := secret.search(request_text(r)))]
            assert not leaks, f"choice {action} visible before the reveal in {leaks[:3]}"
            logged = [rec.getMessage() for rec in caplog.records[first_record:] if rec.levelno >= logging.INFO]
            told = [line for line in logged if secret.search(line) or action in line]
            assert not told, f"choice {action} logged before the reveal: {told}"
            # The other player's choice reveals both.
            reveal = script[i + 1]
            assert reveal.startswith(other + ":")
            r = await harness.move(opponent, reveal.split(":")[1])
            assert not r.ephemeral and "revealed" in r.embed["description"].lower(), r.content
            pos.play(reveal)
            i += 2
        final = await harness.bot.service.game(g.row.id)
    assert windows >= 5 and final.position.outcome is not None


def normalise(text: str, game_id: int, channel_id: int) -> str:
    """Make twin answers comparable: their game number and channel differ, nothing else may."""
    text = text.replace(f"#{game_id}", "#N").replace(f"game-{game_id}", "game-N").replace(str(channel_id), "C")
    return re.sub(r"game id: \d+", "game id: N", text)


def public_view(r, game_id: int, channel_id: int) -> tuple:
    files = {normalise(name, game_id, channel_id): (data if name.endswith((".png", ".gif")) else
                                                     normalise(data.decode(), game_id, channel_id))
             for name, data in r.attachments.items()}
    return (r.ephemeral, normalise(r.content or "", game_id, channel_id),
            normalise(json.dumps(r.embeds, sort_keys=True), game_id, channel_id), files)


async def test_twin_games_differing_only_in_a_secret_choice_look_identical_to_others(harness):
    w = harness.world
    fake = harness.fake
    twin = fake.add_text_channel(w.guild, "twin")
    async with harness.running():
        # Same seed → same seats and the same cut in both games (the only randomness of a new game).
        harness.bot.service._seed = lambda: SEED
        games = []
        for channel in (harness.channel, twin):
            r = await harness.challenge(w.alice, w.bob, "blindhex", seat="first", channel=channel)
            assert not r.ephemeral, r.content
            await fake.click(w.bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
            await fake.wait_for(lambda m, ch=channel: m.channel is ch and "begins" in str(m.embeds))
            games.append(await harness.bot.service.game_in(channel.id))
        a, b = games
        assert (a.row.seats, a.row.first, a.row.seed) == (b.row.seats, b.row.first, b.row.seed), \
            "the twins differ: could not give both games the same seed"
        loser = a.position.to_move[0]
        aside = a.position.legal_actions(loser)[-1]
        for channel in (harness.channel, twin):
            await harness.move(user_of(harness, a, loser), aside, channel=channel)
        g = await harness.bot.service.game_in(harness.channel.id)
        other, chooser_colour = g.position.to_move  # (the whole-game test has either order)
        chooser, opponent = user_of(harness, g, chooser_colour), user_of(harness, g, other)
        options = [x.split(":")[1] for x in g.position.legal_actions(chooser_colour)]
        secret = {harness.channel: options[0], twin: options[-1]}
        views: dict = {harness.channel: [], twin: []}
        for channel, game in ((harness.channel, a), (twin, b)):
            mine = await harness.move(chooser, secret[channel], channel=channel)
            assert mine.ephemeral and secret[channel] in mine.content
            chosen = await fake.wait_for(lambda m, ch=channel: m.channel is ch and not m.ephemeral
                                         and "has chosen" in (m.content or ""))
            view = views[channel]
            view.append(normalise(chosen.content, game.row.id, channel.id))
            for name in ("board", "record", "replay"):
                opts = {"game": game.row.id} if name in ("record", "replay") else {}
                view.append(public_view(await harness.slash(w.carol, name, channel=channel, **opts),
                                        game.row.id, channel.id))
            view.append(public_view(await harness.move(opponent, "9+9", channel=channel), game.row.id, channel.id))
            view.append(public_view(await harness.move(w.carol, options[0], channel=channel), game.row.id, channel.id))
            for typed in ("", "1", "2", "3", "4", "5", "+"):
                for user in (opponent, w.carol):
                    answer = await fake.autocomplete(user, channel, "move", focused="action", action=typed)
                    view.append((user.name, typed, answer.values))
    assert secret[harness.channel] != secret[twin]
    for left, right in zip(views[harness.channel], views[twin], strict=True):
        assert left == right, f"the secret choice shows: {left!r:.300} != {right!r:.300}"


async def open_secret_window(harness: Harness) -> tuple:
    """A Blind Hex game where both players now choose in secret: (game, chooser, their choice)."""
    await harness.start_game(harness.world.alice, harness.world.bob, "blindhex", seat="first")
    g = await harness.bot.service.game_in(harness.channel.id)
    loser = g.position.to_move[0]
    await harness.move(user_of(harness, g, loser), g.position.legal_actions(loser)[-1])
    g = await harness.bot.service.game_in(harness.channel.id)
    assert g.position.choosing_in_secret() and len(g.position.to_move) == 2
    colour = g.position.to_move[0]
    return g, user_of(harness, g, colour), g.position.legal_actions(colour)[0].split(":")[1]


@pytest.mark.parametrize("failure", ["refused", "token gone"])
async def test_a_secret_choice_is_not_logged_when_its_private_confirmation_fails(harness, caplog, failure):
    caplog.set_level(logging.DEBUG, logger="bot")
    caplog.set_level(logging.INFO)
    fake = harness.fake
    async with harness.running():
        g, chooser, cards = await open_secret_window(harness)
        first_record = len(caplog.records)
        if failure == "refused":
            # Discord refuses the private follow-up (not retried, the confirmation is lost).
            fake.fail(r"^POST /webhooks/\d+/[^/]+$", status=403, times=1)
        else:
            # The interaction reaches the bot too late to answer it at all.
            fake.interaction_age = fake.interaction_deadline + 0.5
        inter = await fake.start_slash(chooser, harness.channel, "move", action=cards)
        await fake.wait_for(lambda m: m.interaction is inter and not m.ephemeral and "has chosen" in m.content
                            if failure == "refused" else "has chosen" in (m.content or ""))
        fake.interaction_age = 0.0
        await fake.settle()
        after = await harness.bot.service.game(g.row.id)
        assert len(after.position.actions) == len(g.position.actions) + 1, "the choice was not played"
    logged = [rec.getMessage() + (rec.exc_text or "") for rec in caplog.records[first_record:]]
    told = [line for line in logged if patterns(cards).search(line)]
    assert not told, f"the pending choice {cards} was logged: {told}"


@pytest.mark.parametrize("ending", ["resign", "timeout"])
async def test_a_choice_never_revealed_stays_out_of_the_record_and_replay_after_the_game(harness, ending):
    """Twin games differ only in a choice still secret when the game ended (a resignation, or a
    win on time): their record, files, move list and replay are the same, byte for byte."""
    w = harness.world
    fake = harness.fake
    twin = fake.add_text_channel(w.guild, "twin")
    async with harness.running():
        harness.bot.service._seed = lambda: SEED
        games = []
        for channel in (harness.channel, twin):
            r = await harness.challenge(w.alice, w.bob, "blindhex", seat="first", channel=channel, clock="1h")
            assert not r.ephemeral, r.content
            await fake.click(w.bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
            await fake.wait_for(lambda m, ch=channel: m.channel is ch and "begins" in str(m.embeds))
            games.append(await harness.bot.service.game_in(channel.id))
        a, b = games
        loser = a.position.to_move[0]
        aside = a.position.legal_actions(loser)[-1]
        for channel in (harness.channel, twin):
            await harness.move(user_of(harness, a, loser), aside, channel=channel)
        g = await harness.bot.service.game_in(harness.channel.id)
        other, chooser_colour = g.position.to_move
        chooser, opponent = user_of(harness, g, chooser_colour), user_of(harness, g, other)
        # choices whose cards are not those set aside in public (those may show)
        options = [x.split(":")[1] for x in g.position.legal_actions(chooser_colour)
                   if not patterns(x.split(":")[1]).search(aside)]
        secret = {harness.channel: options[0], twin: options[-1]}
        for channel in (harness.channel, twin):
            mine = await harness.move(chooser, secret[channel], channel=channel)
            assert mine.ephemeral and secret[channel] in mine.content
        if ending == "resign":
            for channel in (harness.channel, twin):
                assert not (await harness.slash(opponent, "resign", channel=channel)).ephemeral
        else:
            harness.clock.advance(2 * 3600)
            for channel in (harness.channel, twin):
                await fake.wait_for(lambda m, ch=channel: m.channel is ch and "Time is up" in (m.content or ""))
                assert not (await harness.slash(chooser, "claim", channel=channel)).ephemeral
        views: dict = {harness.channel: [], twin: []}
        for channel, game in ((harness.channel, a), (twin, b)):
            assert (await harness.bot.service.game(game.row.id)).row.status == "finished"
            for name in ("record", "replay"):
                r = await harness.slash(w.carol, name, channel=channel, game=game.row.id)
                assert not r.ephemeral and r.attachments, r.content
                views[channel].append(public_view(r, game.row.id, channel.id))
                for data in r.attachments.values():
                    if not data.startswith((b"GIF", b"\x89PNG")):
                        assert not patterns(secret[channel]).search(data.decode()), data.decode()
            history = await harness.slash(w.carol, "history", channel=channel)
            views[channel].append(normalise(json.dumps(history.embeds), game.row.id, channel.id).replace(
                f"#{a.row.id}", "#N").replace(f"#{b.row.id}", "#N"))
    assert secret[harness.channel] != secret[twin]
    for left, right in zip(views[harness.channel], views[twin], strict=True):
        assert left == right, f"the unrevealed choice shows: {left!r:.300} != {right!r:.300}"
