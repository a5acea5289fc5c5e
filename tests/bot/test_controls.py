"""Playing with taps: whole games through the board controls and the Play panel, and their edge cases."""

from __future__ import annotations

import asyncio
import io
import random
import re
from collections.abc import Callable
from functools import partial

from PIL import Image

import engine
import render
from engine import Position
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import Harness, png_of
from tests.bot.taps import Tapper, has_controls, play_id
from tests.fake_discord import FakeMember, FakeMessage


def hex_script() -> list[str]:
    """A short Hex 9×9 game with swap: black opens e1, white swaps, then black runs down column e."""
    pos = engine.new_game("hex", 9, ["swap"])
    line = [f"e{r}" for r in range(1, 10)]
    filler = [f"a{r}" for r in range(1, 10)]
    out = ["e1", "swap"]
    for a in out:
        pos.play(a)
    while pos.outcome is None:
        action = next(c for c in (line if pos.to_move == ["black"] else filler) if pos.piece_at(pos.grid.parse(c)) is None)
        pos.play(action)
        out.append(action)
    return out


def inphexion_script() -> list[str]:
    """A seeded 7×7 game with the neutral disc and a relocation turn (relocations in the panel's order)."""
    log: list[str] = []
    engine.new_game("inphexion", 7, ["neutral"]).random_playout(random.Random(1520), log)
    return log


def blindhex_script(first: str, seed: int = 5) -> list[str]:
    """A Blind Hex game (``first`` won the cut) where o writes each letter where it shortens its path
    most and x writes at random."""
    rng = random.Random(seed)
    pos = engine.new_game("blindhex", None, [], first)
    out: list[str] = []
    while pos.outcome is None:
        colour = pos.to_move[0]
        legal = pos.legal_actions(colour)
        if pos.phase == "write" and colour == "o":
            action = min(legal, key=lambda c: _distance(pos, pos.grid.parse(c)))
        else:
            action = rng.choice(legal)
        pos.play(action)
        out.append(action)
    return out


def _distance(pos: Position, extra: int) -> int:
    """Empty cells o still needs from top to bottom if it writes on ``extra`` (0-1 BFS)."""
    g = pos.grid
    cost = {}
    queue = []
    for c in range(g.n):
        w = 0 if c == extra or pos.piece_at(c) == "o" else (1 if pos.piece_at(c) is None else None)
        if w is not None:
            cost[c] = w
            queue.append(c)
    while queue:
        queue.sort(key=cost.__getitem__)
        cell = queue.pop(0)
        for nb in g.neighbours[cell]:
            owner = pos.piece_at(nb)
            w = 0 if nb == extra or owner == "o" else (1 if owner is None else None)
            if w is None:
                continue
            if cost[cell] + w < cost.get(nb, 10 ** 9):
                cost[nb] = cost[cell] + w
                queue.append(nb)
    return min((cost[c] for c in range(g.cells - g.n, g.cells) if c in cost), default=10 ** 9)


def shown_name(member: FakeMember) -> str:
    """The name Discord shows for a member (nick, else global name, else user name)."""
    return member.nick or member.user.global_name or member.name


def assert_picture_of(png: bytes, pos: Position, seats: dict[int, FakeMember], **marks) -> None:
    """``png`` shows exactly ``pos`` as the renderer draws it with the players' names (pixel for pixel)."""
    names = {c: shown_name(seats[pos.seat_of_colour(c)]) for c in pos.colours}
    expected = Image.open(io.BytesIO(render.render_position(pos, names=names, **marks))).convert("RGB")
    got = Image.open(io.BytesIO(png)).convert("RGB")
    assert got.size == expected.size, (got.size, expected.size)
    assert got.tobytes() == expected.tobytes(), f"the picture is not the position after {pos.actions[-3:]}"


async def strip_settled(h: Harness, live: int = 1) -> None:
    """Let the background removal of old controls finish (``live``: boards that keep theirs)."""
    for _ in range(200):
        boards = [m for m in h.fake.messages(h.channel) if has_controls(m)]
        if len(boards) <= live:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{len(boards)} boards still have controls")


def check_panel(panel: FakeMessage, pos: Position, action: str, seats: dict[int, FakeMember]) -> None:
    """A panel on its way to ``action`` from ``pos``: while a disc's direction or a relocation is
    chosen it shows the position with that disc (and where it may go) pointed out; otherwise no picture."""
    text = panel.content or ""
    if "to which neighbour" in text:
        start = action.split()[0]
        targets = sorted(pos.grid.parse(a.split()[1]) for a in pos.legal_actions(pos.to_move[0])
                         if len(a.split()) == 2 and a.split()[0] == start)
        assert_picture_of(png_of(panel), pos, seats, chosen=[pos.grid.parse(start)], choices=targets)
    elif "is surrounded" in text:
        now = pos.after(action)[0] if "Played" in text else pos  # the panel went on after the move
        pending = now.pending_relocations()  # type: ignore[attr-defined]
        assert f"**{now.grid.name(pending[0])}**" in text
        assert_picture_of(png_of(panel), now, seats, chosen=[pending[0]])
    else:
        assert not panel.files, text


async def play_by_taps(h: Harness, game: str, script: Callable[[str | None], list[str]],
                       **options) -> list[FakeMessage]:
    """Challenge, accept and play ``script(first)`` by pressing components only; check every board on the way."""
    w = h.world
    await h.start_game(w.alice, w.bob, game, seat="first", **options)
    seats = {0: w.alice, 1: w.bob}
    row = (await h.bot.service.game_in(h.channel.id)).row
    pos = engine.Record(engine.make_options(game, row.size, row.variants, row.first), []).replay()
    tap = Tapper(h.fake, h.channel)
    posted = []
    for action in script(row.first):
        colour = action.split(":")[0] if ":" in action else pos.to_move[0]
        user = seats[pos.seat_of_colour(colour)]
        message = await tap.play(user, pos, action, partial(check_panel, pos=pos, action=action, seats=seats))
        secret = ":" in action and len(pos.to_move) == 2
        pos.play(action)
        if secret:
            assert "has chosen" in message.content and not message.files, message.content
            assert action.split(":")[1] not in message.content
        elif not message.files:
            # Blind Hex, a letter with more to write in the same turn: words only; the last board keeps Play.
            assert f"wrote at {action}" in message.content and "tap **Play**" in message.content, message.content
        else:
            assert_picture_of(png_of(message), pos, seats)
            text = message.embeds[0]["description"]
            if ":" in action:
                assert "Cards revealed" in text, text
            elif action == "swap":
                assert "swap" in text.lower(), text
            else:
                shown = action.split(">")[1] if ">" in action else action.split()[0]
                assert shown in text, (action, text)
            assert has_controls(message) == (pos.outcome is None)
        await strip_settled(h, 0 if pos.outcome else 1)
        posted.append(message)
    return posted


async def test_a_whole_hex_game_with_swap_is_played_by_taps_alone(harness):
    script = hex_script()
    async with harness.running():
        posted = await play_by_taps(harness, "hex", lambda first: script, size=9, swap=True)
    final = posted[-1].embeds[0]["description"]
    assert "🏆" in final
    assert not any(has_controls(m) for m in harness.fake.messages(harness.channel))


async def test_a_whole_inphexion_game_with_the_neutral_disc_and_a_relocation_is_played_by_taps(harness):
    script = inphexion_script()
    assert any(">" in a for a in script)
    async with harness.running():
        posted = await play_by_taps(harness, "inphexion", lambda first: script, size=7, neutral=True)
    assert "🏆" in posted[-1].embeds[0]["description"]
    assert not any(has_controls(m) for m in harness.fake.messages(harness.channel))


async def test_a_whole_blind_hex_game_is_played_by_taps_and_choices_stay_secret(harness):
    async with harness.running():
        posted = await play_by_taps(harness, "blindhex", blindhex_script)
    assert "🏆" in posted[-1].embeds[0]["description"]
    panels = harness.fake.ephemerals(harness.world.alice) + harness.fake.ephemerals(harness.world.bob)
    assert any("You chose" in (m.content or "") for m in panels)


async def test_play_tells_a_non_player_and_the_waiting_player_why_not_privately(harness):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        outsider = await harness.fake.click(w.carol, board, play_id(board))
        waiting = await harness.fake.click(w.bob, board, play_id(board))
    assert outsider.ephemeral and "start your own" in outsider.content and not outsider.components
    assert waiting.ephemeral and "not your turn" in waiting.content and not waiting.components


async def test_a_panel_only_offers_legal_choices_and_swap_when_it_is_legal(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        tap = Tapper(harness.fake, harness.channel)
        first = await tap.open_panel(w.alice)
        await tap.play(w.alice, engine.new_game("hex", 5, ["swap"]), "c3")
        second = await tap.open_panel(w.bob)
    assert not any(label.startswith("Swap") for label in first.labels)
    assert any(label.startswith("Swap") for label in second.labels)
    options = [o["label"] for c in second.components if c.type == 3 for o in c.raw["options"]]
    assert "c3" not in options and len(options) == 24


async def test_a_stale_panel_refuses_and_offers_a_fresh_one(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        tap = Tapper(harness.fake, harness.channel)
        old = (await tap.open_panel(w.alice)).message
        pos = engine.new_game("hex", 5, ["swap"])
        for user, action in ((w.alice, "a1"), (w.bob, "b2")):
            await tap.play(user, pos, action)
            pos.play(action)
        await tap.tap(w.alice, old, "c3")
        refused = old.content
        fresh_options = [o["label"] for c in old.component_list if c.type == 3 for o in c.raw["options"]]
        game = await harness.bot.service.game_in(harness.channel.id)
    assert "out of date" in refused and "nothing was played" in refused
    assert "a1" not in fresh_options and "c3" in fresh_options
    assert game.position.actions == ["a1", "b2"]


async def test_two_taps_at_once_on_the_same_cell_play_it_once(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        tap = Tapper(harness.fake, harness.channel)
        panel = (await tap.open_panel(w.alice)).message
        menu = next(c for c in panel.component_list if c.type == 3)
        value = next(o["value"] for o in menu.raw["options"] if o["label"] == "c3")
        count = len(harness.fake.messages(harness.channel))
        both = [await harness.fake.start_component(w.alice, panel, menu.custom_id, values=[value]) for _ in range(2)]
        await asyncio.gather(*(i.wait(10) for i in both))
        await tap.new_message(count)
        await asyncio.sleep(0.2)
        game = await harness.bot.service.game_in(harness.channel.id)
        boards = [m for m in harness.fake.messages(harness.channel)[count:] if m.files]
    assert game.position.actions == ["c3"]
    assert len(boards) == 1
    assert "Played **c3**" in panel.content


async def test_a_panel_opened_before_a_restart_still_plays(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=9, seat="first")
        tap = Tapper(harness.fake, harness.channel)
        panel = (await tap.open_panel(w.alice)).message
        assert not await tap.tap(w.alice, panel, "e5")  # the row first
    async with harness.running():
        count = len(harness.fake.messages(harness.channel))
        assert await tap.tap(w.alice, panel, "e5")
        board = await tap.new_message(count)
        game = await harness.bot.service.game_in(harness.channel.id)
    assert game.position.actions == ["e5"]
    assert png_of(board).startswith(b"\x89PNG") and has_controls(board)


async def test_the_relocation_step_follows_in_the_same_panel(harness):
    script = inphexion_script()
    pos = engine.new_game("inphexion", 7, ["neutral"])
    w = harness.world
    seats = {0: w.alice, 1: w.bob}
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "inphexion", size=7, neutral=True, seat="first")
        tap = Tapper(harness.fake, harness.channel)
        i = 0
        while ">" not in script[i + 1]:
            await tap.play(seats[pos.seat_of_colour(pos.to_move[0])], pos, script[i])
            pos.play(script[i])
            i += 1
        user = seats[pos.seat_of_colour(pos.to_move[0])]
        panel = (await tap.open_panel(user)).message
        for look in script[i].split():
            while not await tap.tap(user, panel, look):
                pass
        await strip_settled(harness)
        relocation_text = panel.content
    assert f"Played **{script[i]}**" in relocation_text and "surrounded" in relocation_text


async def test_resign_asks_first_and_then_ends_the_game(harness):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        resign = next(c for c in board.custom_ids if c.endswith(":resign"))
        asked = await harness.fake.click(w.bob, board, resign)
        keep = next(c for c in asked.custom_ids if c.endswith(":keep"))
        kept = await harness.fake.click(w.bob, asked, keep)
        still = await harness.bot.service.game_in(harness.channel.id)
        asked = await harness.fake.click(w.bob, board, resign)
        count = len(harness.fake.messages(harness.channel))
        yes = next(c for c in asked.custom_ids if c.endswith(":resign!"))
        await harness.fake.click(w.bob, asked, yes)
        final = await Tapper(harness.fake, harness.channel).new_message(count)
        await strip_settled(harness, 0)
    assert asked.ephemeral and "Resign?" in asked.content
    assert "Nothing changed" in kept.content and still is not None
    assert "resigned" in final.embeds[0]["description"] and "🏆" in final.embeds[0]["description"]
    assert not any(has_controls(m) for m in harness.fake.messages(harness.channel))


async def test_abort_asks_first_and_removes_the_controls(harness):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        abort = next(c for c in board.custom_ids if c.endswith(":abort"))
        asked = await harness.fake.click(w.alice, board, abort)
        yes = next(c for c in asked.custom_ids if c.endswith(":abort!"))
        done = await harness.fake.click(w.alice, asked, yes)
        await harness.fake.wait_for(lambda m: "was aborted" in (m.content or ""))
        await strip_settled(harness, 0)
        game = await harness.bot.service.game_in(harness.channel.id)
    assert "You aborted" in done.content and game is None
    assert not any(has_controls(m) for m in harness.fake.messages(harness.channel))


async def test_board_and_takeback_buttons_repost_and_ask(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        tap = Tapper(harness.fake, harness.channel)
        played = await tap.play(w.alice, engine.new_game("hex", 5, ["swap"]), "c3")
        again = await harness.fake.click(w.carol, played, next(c for c in played.custom_ids if c.endswith(":board")))
        await strip_settled(harness)
        newest = tap.board()
        asked = await harness.fake.click(w.alice, newest, next(c for c in newest.custom_ids if c.endswith(":takeback")))
    assert png_of(again).startswith(b"\x89PNG") and not again.ephemeral
    assert not has_controls(played) and has_controls(newest)
    assert "asks to take back" in asked.content


def test_direction_buttons_are_laid_out_like_the_neighbours():
    from bot.ui.components.panel_steps import panel

    pos = engine.new_game("inphexion", 7, ["neutral"])
    step = panel(pos, "white", ("m24",))
    labels = [[b.label for b in row] for row in step.rows[:3]]
    assert labels == [["↖ d3", "↗ e3"], ["← c4", "● d4 (neutral)", "→ e4"], ["↙ c5", "↘ d5"]]
    assert re.match(r"^Move the disc on \*\*d4\*\*", step.text)


async def test_autocomplete_puts_swap_first_and_cells_in_natural_order(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=11, seat="first")
        await harness.move(w.alice, "a1")
        offered = await harness.fake.autocomplete(w.bob, harness.channel, "move", focused="action", action="")
        column = await harness.fake.autocomplete(w.bob, harness.channel, "move", focused="action", action="a")
    assert offered.values[0] == "swap"
    assert column.values[:10] == ["a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11"]


async def test_autocomplete_offers_inphexion_discs_first_then_the_moves_of_the_one_typed(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "inphexion", size=7, neutral=True, seat="first")
        await harness.move(w.alice, "d4 d5")
        discs = await harness.fake.autocomplete(w.bob, harness.channel, "move", focused="action", action="")
        moves = await harness.fake.autocomplete(w.bob, harness.channel, "move", focused="action", action="d4")
        lone = await harness.move(w.bob, "d4")
    assert discs.values[:2] == ["d4 ", "d5 "] and discs.names[0] == "d4 → c4 c5 d3 e3 e4"
    assert discs.values[2:7] == ["d4 c4", "d4 c5", "d4 d3", "d4 e3", "d4 e4"]
    assert moves.values == ["d4 c4", "d4 c5", "d4 d3", "d4 e3", "d4 e4"]
    assert lone.ephemeral and "`d4 c4`" in lone.content


# -- acknowledged first, answered with the right visibility ------------------------------------------------


async def test_takeback_is_acknowledged_before_the_game_is_read(harness, monkeypatch):
    w = harness.world
    async with harness.running() as bot:
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        played = await Tapper(harness.fake, harness.channel).play(w.alice, engine.new_game("hex", 5, ["swap"]), "c3")
        await strip_settled(harness)
        reading = asyncio.Event()
        service_game = bot.service.game

        async def slow_game(game_id):
            await reading.wait()  # the database is slow: nothing is read until the test lets it
            return await service_game(game_id)

        monkeypatch.setattr(bot.service, "game", slow_game)
        takeback = next(c for c in played.custom_ids if c.endswith(":takeback"))
        inter = await harness.fake.start_component(w.alice, played, takeback)
        await harness.fake.wait_for_request(lambda q: q.path.startswith(f"/interactions/{inter.id}/")
                                            and q.status is not None)
        acked_first = inter.callback_type
        reading.set()
        asked = await inter.wait(10)
    assert acked_first == 6  # no "thinking…": the request and any refusal are each their own message
    assert not asked.ephemeral and "asks to take back" in asked.content


async def test_takeback_on_an_old_board_is_refused_privately(harness):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        takeback = next(c for c in board.custom_ids if c.endswith(":takeback"))
        await harness.bot.service.play(harness.channel.id, w.alice.id, "c3")  # the board is now an old one
        count = len(harness.fake.messages(harness.channel))
        refused = await harness.fake.click(w.alice, board, takeback)
    assert refused.ephemeral and "moved on" in refused.content
    assert len(harness.fake.messages(harness.channel)) == count


async def test_board_on_a_game_that_ended_answers_privately(harness):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        # The game ends where this board cannot see it (its controls are still there): a press races the end.
        await harness.bot.service.resign(harness.channel.id, w.bob.id)
        count = len(harness.fake.messages(harness.channel))
        pressed = await harness.fake.click(w.carol, board, next(c for c in board.custom_ids if c.endswith(":board")))
    assert pressed.ephemeral and "game is over" in pressed.content
    assert pressed.interaction.callback_type == 6  # nothing public was ever shown for it
    assert len(harness.fake.messages(harness.channel)) == count


# -- Abort: shown exactly when /abort would be allowed -----------------------------------------------------


def abort_shown(message: FakeMessage) -> bool:
    """Whether a board carries the Abort control."""
    return any(c.custom_id and c.custom_id.endswith(":abort") for c in message.component_list)


async def test_abort_is_shown_exactly_while_abort_is_allowed_even_after_a_secret_choice(harness):
    w = harness.world
    async with harness.running():
        shown = [abort_shown(await harness.start_game(w.alice, w.bob, "blindhex", seat="first"))]
        game = await harness.bot.service.game_in(harness.channel.id)
        loser = game.position.to_move[0]  # lost the cut: sets two cards aside, then chooses first
        user = w.alice if game.user_of(loser) == w.alice.id else w.bob
        aside = sorted(game.position.hands()[loser])[:2]
        after_aside = (await harness.move(user, f"aside {aside[0]}+{aside[1]}")).message
        shown.append(abort_shown(after_aside))  # one action each at most: abort allowed
        game = await harness.bot.service.game_in(harness.channel.id)
        choice = game.position.legal_actions(loser)[0]
        chosen = await harness.move(user, choice.split(":")[1])  # a second action, in secret: no board
        count = len(harness.fake.messages(harness.channel))
        await harness.fake.click(w.carol, after_aside, next(c for c in after_aside.custom_ids if c.endswith(":board")))
        again = await Tapper(harness.fake, harness.channel).new_message(count)
        late = await harness.slash(user, "abort")
    assert shown == [True, True]
    assert chosen.ephemeral and not abort_shown(again)
    assert late.ephemeral and "Too late" in late.content


# -- the panel's picture -------------------------------------------------------------------------------------


async def test_without_attach_files_the_panel_still_offers_the_directions_in_words(harness):
    w = harness.world
    pos = engine.new_game("inphexion", 7, ["neutral"])
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "inphexion", size=7, neutral=True, seat="first")
        first = inphexion_script()[0]
        await harness.move(w.alice, first)
        pos.play(first)
        await harness.fake.set_permissions(harness.channel, w.bot, deny=["attach_files"])
        tap = Tapper(harness.fake, harness.channel)
        panel = (await tap.open_panel(w.bob)).message
        start, end = next(a.split() for a in pos.legal_actions(pos.to_move[0]) if len(a.split()) == 2)
        await tap.tap(w.bob, panel, start)
        directions = panel.content
        pictured = bool(panel.files)
        await tap.tap(w.bob, panel, end)
        game = await harness.bot.service.game_in(harness.channel.id)
    assert "to which neighbour" in directions and not pictured
    assert game.position.actions == [first, f"{start} {end}"]


def test_the_direction_and_relocation_steps_point_at_their_disc_and_no_other_step_has_a_picture():
    from bot.ui.components.panel_steps import Preview, panel

    pos = engine.new_game("inphexion", 7, ["neutral"])
    g = pos.grid
    directions = panel(pos, "white", ("m24",))
    neighbours = [c for c in ("d3", "e3", "c4", "e4", "c5", "d5") if f"d4 {c}" in pos.legal_actions("white")]
    assert neighbours
    assert directions.preview == Preview((g.parse("d4"),), tuple(sorted(g.parse(c) for c in neighbours)))
    assert panel(pos, "white", ()).preview is None
    script = inphexion_script()
    for action in script[:next(i for i, a in enumerate(script) if ">" in a)]:
        pos.play(action)
    relocation = panel(pos, pos.to_move[0], ())
    assert relocation.preview == Preview((pos.pending_relocations()[0],))
