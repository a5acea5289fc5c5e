"""/puzzle end to end through the fake Discord (issue 48's practice): puzzles from a reviewed game
of the server, answered with the tap panel or typed, checked by the search in the AI workers;
ratings and streak in /stats; spaced repetition; bad input refused privately, nothing changed.

The game: 5×5 Hex where every move throws a proven win away (tests/bot/test_review.py's), so its
review (a small budget, as there) leaves puzzles at plies 0, 2, 3 and 4."""

from __future__ import annotations

import asyncio

import engine
from bot.i18n import render, t
from engine.ai.puzzle_check import check
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401
from tests.bot.harness import Harness, eventually
from tests.bot.test_review import BLUNDERS, ITERATIONS, ai, play

DAY = 86400.0


async def reviewed_game(h: Harness) -> int:
    """The blunders game played and reviewed (its puzzles found): its id."""
    game_id = await play(h, BLUNDERS)
    r = await h.slash(h.world.carol, "review", game=game_id)
    await eventually(lambda: (r.message.content or "").startswith("Review of game"), 60)
    assert len(await h.bot.store.puzzles_of(game_id)) == 4
    return game_id


def menu_option(panel, label: str) -> tuple[str, str]:
    """The (menu id, value) of the panel's option ``label``."""
    for c in panel.component_list:
        for o in c.raw.get("options", []) if c.type == 3 else []:
            if o["label"] == label:
                return c.custom_id, o["value"]
    raise AssertionError(f"no option {label} on {panel.content!r}")


def winning_move(h: Harness, game_id: int, line: list[str]) -> str:
    """A move the search proves wins in the puzzle at ply 0 after ``line`` (the test finds its own)."""
    opts = engine.make_options("hex", 5, [], None)
    pos = engine.Record(opts, line).replay()
    for move in pos.legal_actions():
        if check(opts, line, [move], iterations=ITERATIONS, seed=1).right:
            return move
    raise AssertionError("no winning move")


async def test_a_puzzle_is_set_privately_and_solved_with_taps_turn_by_turn_then_counted_in_stats(harness):
    w = harness.world
    async with harness.running(ai=ai()):
        game_id = await reviewed_game(harness)
        r = await harness.slash(w.carol, "puzzle")
        shown = r.content
        assert r.ephemeral and r.attachments and "find the winning move" in shown and f"game #{game_id}" in shown
        assert all(c.startswith(("hx:pzmenu:", "hx:puzzle:")) for c in r.message.custom_ids)
        panel, line, said = r.message, [], []
        for _ in range(3):
            move = winning_move(harness, game_id, line)
            menu, value = menu_option(panel, move)
            tapped = await harness.fake.select(w.carol, panel, menu, [value])
            said.append(panel.content)
            if "Solved" in (panel.content or ""):
                break
            attempt = await harness.bot.store.open_puzzle_attempt(w.guild.id, w.carol.id)
            line = list(attempt.line)
            assert tapped.ephemeral is not False and panel.files
        stats = await harness.slash(w.carol, "stats")
        checks = harness.bot.puzzles.checks
    assert "c3" not in shown  # the answer (the review's, c3) is never given away
    assert said[0].startswith("✅") and "Your opponent answers" in said[0] and "(2 of 3)" in said[0]
    assert said[-1].startswith("🎉 Solved!") and "streak 1" in said[-1] and checks == len(said)
    field = next(f for f in stats.embeds[0]["fields"] if f["name"] == "Puzzles")
    assert "1 solved" in field["value"] and "streak 1 (best 1)" in field["value"]


async def test_a_wrong_answer_shows_the_refutation_and_the_failed_puzzle_comes_back_after_a_day(harness):
    w = harness.world
    async with harness.running(ai=ai()):
        await reviewed_game(harness)
        first = await harness.slash(w.alice, "puzzle", mine=True)  # her own missed win: ply 0, black
        wrong = await harness.slash(w.alice, "puzzle", answer="d4")  # the move she played in the game
        second = await harness.slash(w.alice, "puzzle", mine=True)
        # ply 2: c3 wins too, though the review's move there was d2 — every proven win is accepted
        other = await harness.slash(w.alice, "puzzle", answer="c3")
        attempt = await harness.bot.store.puzzle_attempt(1)
        harness.clock.advance(DAY + 1)  # the open one expires; the failed one is due again
        back = await harness.slash(w.alice, "puzzle", mine=True)
        again = await harness.bot.store.open_puzzle_attempt(w.guild.id, w.alice.id)
    assert "you play **black**" in first.content
    assert wrong.content.startswith("❌ **d4** does not win: your opponent answers **c3**") and wrong.attachments
    assert "It comes back in 1 day." in wrong.content
    assert (attempt.status, attempt.ply, attempt.line) == ("failed", 0, ("d4", "c3"))
    assert "you play **black**" in second.content and other.content.startswith("✅ **c3** wins.")
    assert back.ephemeral and "find the winning move" in back.content and (again.ply, again.line) == (0, ())


async def test_bad_puzzle_input_is_refused_privately_and_changes_nothing(harness):
    w = harness.world
    async with harness.running(ai=ai()):
        none = await harness.slash(w.carol, "puzzle")
        no_open = await harness.slash(w.carol, "puzzle", answer="c3")
        await reviewed_game(harness)
        r = await harness.slash(w.carol, "puzzle")
        panel = r.message
        menu, value = menu_option(panel, "a1")
        garbage = await harness.slash(w.carol, "puzzle", answer="zz99")
        attempt_id = menu.split(":")[2]
        # a client that sends a puzzle panel's id of its own making: carol's puzzle, and an earlier step
        post = harness.fake.add_message(harness.channel, w.bot, "forged", components=[{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "a1", "custom_id": f"hx:puzzle:{attempt_id}:0:{value}"},
            {"type": 2, "style": 2, "label": "a1", "custom_id": f"hx:puzzle:{attempt_id}:7:{value}"},
            {"type": 2, "style": 2, "label": "?", "custom_id": f"hx:puzzle:{attempt_id}:0:c999"}]}])
        theirs = await harness.fake.click(w.bob, post, f"hx:puzzle:{attempt_id}:0:{value}")
        forged = await harness.fake.click(w.carol, post, f"hx:puzzle:{attempt_id}:7:{value}")
        no_cell = await harness.fake.click(w.carol, post, f"hx:puzzle:{attempt_id}:0:c999")
        unchanged = await harness.bot.store.open_puzzle_attempt(w.guild.id, w.carol.id)
    async with harness.running(ai=ai()):  # a restart: the panel still works
        # a double tap: a1 (it loses: failed) twice, the second sent before the first is answered
        once, twice = await asyncio.gather(harness.fake.select(w.carol, panel, menu, [value]),
                                           harness.fake.select(w.carol, panel, menu, [value]))
        ended = await harness.bot.store.puzzle_attempt(unchanged.id)
        r2 = await harness.slash(w.carol, "puzzle")
        harness.clock.advance(DAY + 1)
        expired = await harness.fake.select(w.carol, r2.message, *menu_option(r2.message, "a1")[:1], ["c0"])
    assert none.ephemeral and "no puzzle for you in this server yet" in none.content and "/review" in none.content
    assert no_open.ephemeral and no_open.content.startswith("You have no puzzle open.")
    assert garbage.ephemeral and garbage.content.startswith("zz99 is not a legal move here")

    def private(result) -> str:
        return next(f.content for f in result.followups if f.ephemeral)

    assert private(theirs).startswith("That puzzle is someone else's.")
    assert private(forged).startswith("That panel is out of date")
    # a cell that is none of the panel's: the puzzle again, privately; the public message is left as it was
    assert no_cell.ephemeral and no_cell.content.startswith("That choice is not available now.\n**Puzzle**")
    assert post.content == "forged"
    assert unchanged.line == () and unchanged.status == "open"
    assert ended.status == "failed" and ended.line[0] == "a1" and private(twice).startswith("That puzzle is over.")
    assert not once.followups  # the first tap's answer is the panel itself, edited
    assert private(expired).startswith("That puzzle expired")


#: an inpHeXion game (a random one, seed 2) up to a turn where White missed a win at once (f7 g7)
INPHEXION = ['e7', 'e7 f6', 'e7 f7', 'f6 g6', 'f6 g5', 'f6 f5', 'g5 g4', 'e7 d7', 'g4 g3', 'f5 f4', 'g3 g2', 'f4 e4',
             'g2 g1', 'e4 e5', 'g1 f2', 'd7 e6', 'e4 f3']


async def inphexion_puzzle_reviewed(harness: Harness) -> None:
    """An inPHeXion game with a missed win played and resigned, and its review made (a puzzle found)."""
    w = harness.world
    await harness.start_game(w.alice, w.bob, "inphexion", seat="first")
    g = await harness.bot.service.game_in(harness.channel.id)
    for action in INPHEXION:
        fresh = await harness.bot.service.game(g.row.id)
        await harness.move(w.alice if fresh.users_to_move() == [w.alice.id] else w.bob, action)
    await harness.slash(w.alice, "resign")
    r = await harness.slash(w.carol, "review", game=g.row.id)
    await eventually(lambda: bool(r.message.content) and "%" not in (r.message.content or ""), 60)


async def test_an_inphexion_puzzle_is_answered_with_the_games_own_panel_a_disc_then_its_direction(harness):
    w = harness.world
    async with harness.running(ai=ai()):
        await inphexion_puzzle_reviewed(harness)
        p = await harness.slash(w.carol, "puzzle")
        panel = p.message
        menu, value = menu_option(panel, "f7")  # the disc to move…
        await harness.fake.select(w.carol, panel, menu, [value])
        direction = next(c for c in panel.component_list if c.label and c.label.endswith(" g7"))  # …where to
        await harness.fake.click(w.carol, panel, direction.custom_id)
    assert "Puzzle** from game" in p.content and "you play **white**" in p.content and "inpHeXion 7×7" in p.content
    assert panel.content.startswith("🎉 Solved! **f7 g7** wins: the game is won.")


async def test_a_puzzles_panel_speaks_the_members_language(harness):
    """carol's Discord is in French: the inpHeXion panel's menu and its words are French."""
    w = harness.world
    w.carol.user.locale = "fr"
    async with harness.running(ai=ai()):
        await inphexion_puzzle_reviewed(harness)
        p = await harness.slash(w.carol, "puzzle")
    french = render(t("Choose {what}", what=t("the disc to move")), "fr")
    assert french.startswith("Choisissez")
    assert [c.raw["placeholder"] for c in p.message.component_list if c.raw.get("placeholder")] == [french]
