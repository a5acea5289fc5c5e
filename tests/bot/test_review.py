"""Reviews end to end (issue 48): the Review button and ``/review``, progress edits, the stored
review served again without a search, a restart mid-review resuming it, visibility, stale buttons.

The review's search runs in the AI's worker processes with a small budget (``BotAI``'s
``review_iterations``, the setting the bot reads), so the flows are quick; the store-relevant
tests run on both databases, the others on SQLite only (CI time)."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.ai import BotAI
from bot.ui import review_texts
from tests.bot.harness import AI_ITERATIONS, Harness, eventually

#: a review's search per position in these tests
ITERATIONS = 20
#: 5×5 Hex where every move throws a proven win away (found with the engine: ?? at any seed)
BLUNDERS = ["d4", "a3", "b5", "a5", "d5"]
sqlite_only = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def ai(iterations: int = ITERATIONS) -> BotAI:
    """The computer's brain as the harness makes it, with the reviews' budget lowered."""
    return BotAI(workers=1, iterations=AI_ITERATIONS, warm=False, review_iterations=iterations)


def every_step(h: Harness) -> None:
    """Progress edits at every valued position (the bot's few seconds between edits, lowered)."""
    cog = h.bot.get_cog("Reviews")
    assert cog is not None  # (each bot loads its own copy of the cog's module: no isinstance)
    cog.progress_every = 0.0


async def play(h: Harness, moves: list[str]) -> int:
    """A 5×5 Hex game without swap between alice (black) and bob with ``moves``, then bob resigns: its id."""
    w = h.world
    await h.start_game(w.alice, w.bob, "hex", seat="first", size=5, swap=False)
    g = await h.bot.service.game_in(h.channel.id)
    for i, move in enumerate(moves):
        await h.move(w.alice if i % 2 == 0 else w.bob, move)
    await h.slash(w.bob, "resign")
    return g.row.id


async def finished(result, timeout: float = 60.0) -> None:
    """Wait until the review's message shows the review (it is edited from its progress)."""
    await eventually(lambda: (result.message.content or "").startswith("Review of game"), timeout)


@sqlite_only
async def test_the_review_button_shows_progress_then_accuracy_marks_graph_and_steps_through_the_worst_moves(harness):
    w = harness.world
    async with harness.running(ai=ai()):
        every_step(harness)
        game_id = await play(harness, BLUNDERS)
        over = next(m for m in reversed(harness.fake.messages(harness.channel)) if m.custom_ids and
                    m.custom_ids[-1] == f"hx:over:{game_id}:review")
        r = await harness.fake.click(w.carol, over, f"hx:over:{game_id}:review")
        assert r.ephemeral and r.content.startswith(f"Reviewing game #{game_id}…")
        await finished(r)
        message = r.message
        puzzles = await harness.bot.store.puzzles_of(game_id)
        summary, worst = message.embeds
        first = message.files[f"review-{game_id}-worst-0.png"]
        step = await harness.fake.click(w.carol, message, next(c for c in message.custom_ids if c.endswith(":next")))
        stepped = step.embeds[1]["title"], message.files[f"review-{game_id}-worst-1.png"]
        back = await harness.fake.click(w.carol, message, next(c for c in message.custom_ids if c.endswith(":prev")))
    shown = [v["content"] for v in message.versions if (v["content"] or "").startswith(f"Reviewing game #{game_id}…")]
    percents = [int(p.rsplit(" ", 1)[1].rstrip("%")) for p in shown]
    assert percents[0] == 0 and any(0 < p < 100 for p in percents) and percents == sorted(percents)
    body = summary["description"]
    assert "**alice** (black): accuracy" in body and "**bob** (white): accuracy" in body
    assert "?? " in body and "[" in body  # marks and better moves in the move list
    assert "1. d4?? [c3]   a3?? [c3]" in body  # /record's notation, the marks and better moves
    files = message.files
    assert files[f"review-{game_id}.png"].startswith(b"\x89PNG")
    assert files[f"review-{game_id}-worst-0.png"].startswith(b"\x89PNG")
    assert worst["title"] == "Worst move 1 of 3" and "Better:" in worst["description"]
    assert [c.label for c in message.component_list if c.label] == ["◀", "▶"]
    assert stepped[0] == "Worst move 2 of 3" and stepped[1] != first
    assert back.embeds[1]["title"] == "Worst move 1 of 3"
    # the missed proven wins became puzzles, answered by the better move the review shows
    assert puzzles and all(f"{p.missed}?? [{p.answer}]" in body for p in puzzles)


@sqlite_only
async def test_a_review_stopped_by_a_restart_resumes_and_is_then_served_without_a_search(harness):
    w = harness.world
    async with harness.running(ai=ai(400)):
        game_id = await play(harness, BLUNDERS)
        r = await harness.slash(w.alice, "review", game=game_id)
        assert r.content.startswith(f"Reviewing game #{game_id}…") and not r.ephemeral  # in the channel, as /record
        await eventually(lambda: harness.bot.reviews.searches >= 1, 60)
    # stopped mid-way: some positions kept, the review unfinished
    async with harness.running(ai=ai(400)):
        kept = await harness.bot.store.review_values(game_id)
        row = await harness.bot.store.review(game_id)
        assert row is not None and row.done_at is None and 1 <= len(kept) < row.total
        reviews = harness.bot.reviews
        await eventually(lambda: not reviews.running(game_id), 60)
        assert reviews.searches == row.total - len(kept)  # only what was missing was searched
        again = await harness.slash(w.bob, "review", game=game_id)
        # the second ask is answered at once, from the store: no search more
        assert again.content == f"Review of game #{game_id}." and reviews.searches == row.total - len(kept)


@sqlite_only
async def test_inphexion_turns_and_blind_hex_letters_are_reviewed(harness):
    w = harness.world
    bodies = {}
    async with harness.running(ai=ai()):
        for game in ("inphexion", "blindhex"):
            await harness.start_game(w.alice, w.bob, game, seat="first")
            g = await harness.bot.service.game_in(harness.channel.id)
            script: list[str] = []
            g.position.random_playout(random.Random(3), script)
            pos = g.position.copy()
            for action in script[:8]:
                colour, _, cards = action.partition(":")
                mover = colour if cards else pos.to_move[0]
                await harness.move(w.alice if g.user_of(mover) == w.alice.id else w.bob, cards or action)
                pos.play(action)
            await harness.slash(w.alice, "resign")
            r = await harness.slash(w.bob, "review")  # default: bob's last finished game, this one
            await finished(r)
            assert r.message.content == f"Review of game #{g.row.id}."
            bodies[game] = r.message.embeds[0]["description"]
    for body in bodies.values():
        assert "**alice**" in body and "accuracy" in body and "```" in body
    # a Blind Hex round is written as /record writes it: both card choices, then the letters
    assert " · " in bodies["blindhex"].split("```")[1]


@sqlite_only
async def test_a_game_in_a_channel_you_cannot_see_is_not_reviewed_for_you(harness):
    fake, w = harness.fake, harness.world
    channel = fake.add_text_channel(w.guild, "staff")
    role = fake.add_role(w.guild, "staff")
    for member in (w.alice, w.bob):
        member.roles.append(role)
    await fake.set_permissions(channel, w.guild, deny=["view_channel"])
    await fake.set_permissions(channel, role, allow=["view_channel"])
    await fake.set_permissions(channel, w.bot, allow=["view_channel"])
    async with harness.running(ai=ai()):
        r = await harness.challenge(w.alice, w.bob, "hex", size=5, channel=channel)
        await fake.click(w.bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
        await fake.wait_for(lambda m: m.channel is channel and "begins" in str(m.embeds))
        game_id = (await harness.bot.service.game_in(channel.id)).row.id
        await harness.slash(w.bob, "resign", channel=channel)
        hidden = await harness.slash(w.carol, "review", game=game_id)
        missing = await harness.slash(w.carol, "review", game=game_id + 100)
        searches = harness.bot.reviews.searches
    assert hidden.ephemeral and hidden.content == review_texts.no_such_game(game_id)
    assert missing.content == review_texts.no_such_game(game_id + 100)
    assert searches == 0 and not hidden.attachments


@sqlite_only
async def test_a_game_in_progress_and_no_finished_game_are_refused_privately(harness):
    w = harness.world
    async with harness.running(ai=ai()):
        none = await harness.slash(w.carol, "review")
        await harness.start_game(w.alice, w.bob, "hex", size=5)
        game_id = (await harness.bot.service.game_in(harness.channel.id)).row.id
        playing = await harness.slash(w.carol, "review", game=game_id)
    assert none.ephemeral and none.content == review_texts.NO_FINISHED_GAME
    assert playing.ephemeral and playing.content == review_texts.still_playing(game_id)


@sqlite_only
async def test_a_stale_review_button_is_answered_privately(harness):
    w = harness.world
    async with harness.running(ai=ai()):
        game_id = await play(harness, ["c3", "b2"])
        # a ◀ ▶ of a review never made (an old message, a made-up id), and of a game that does not exist
        post = harness.fake.add_message(harness.channel, w.bot, "◀ ▶", components=[{
            "type": 1, "components": [
                {"type": 2, "style": 2, "label": "▶", "custom_id": f"hx:review:{game_id}:1:next"},
                {"type": 2, "style": 2, "label": "▶", "custom_id": "hx:review:99999:1:next"}]}])
        never = await harness.fake.click(w.alice, post, f"hx:review:{game_id}:1:next")
        gone = await harness.fake.click(w.alice, post, "hx:review:99999:1:next")
        searches = harness.bot.reviews.searches
    for r in (never, gone):
        assert any(f.ephemeral and f.content == review_texts.STALE_BUTTON for f in r.followups), r.content
    assert searches == 0


@sqlite_only
async def test_a_game_without_a_move_has_nothing_to_review(harness):
    w = harness.world
    async with harness.running(ai=ai()):
        await harness.start_game(w.alice, w.bob, "hex", size=5)
        game_id = (await harness.bot.service.game_in(harness.channel.id)).row.id
        await harness.slash(w.alice, "abort")
        r = await harness.slash(w.alice, "review", game=game_id)
        searches = harness.bot.reviews.searches
    assert r.content == review_texts.no_moves(game_id) and not r.embeds and searches == 0


@sqlite_only
async def test_a_member_at_the_reviews_limit_is_refused_privately_and_a_finished_review_is_still_served(harness):
    w = harness.world
    async with harness.running(ai=ai()):
        r = await harness.slash(w.admin, "settings", reviews=1, background_reviews=False)
        done = await play(harness, BLUNDERS)
        await finished(await harness.slash(w.alice, "review", game=done))
        first, second = await play(harness, ["c3", "b2"]), await play(harness, ["b2", "c3"])
        reviews = harness.bot.reviews
        run, gate = reviews.run, asyncio.Event()

        async def held(*args):  # the review stays in the making until the test lets it go on
            await gate.wait()
            return await run(*args)

        reviews.run = held
        making = await harness.slash(w.alice, "review", game=first)
        refused = await harness.slash(w.alice, "review", game=second)
        served = await harness.slash(w.alice, "review", game=done)
        untouched = await harness.bot.store.review(second)
        gate.set()
        await finished(making)
    assert "reviews made at once each: **1**" in r.content
    assert "Finished games reviewed in the background (for puzzles): **no**." in r.content
    assert refused.ephemeral and refused.content == ("You already have 1 review being made — this server allows 1 at "
                                                     "once. Ask again once one is shown.")
    assert untouched is None  # the refusal changed nothing
    assert served.content == f"Review of game #{done}." and not served.ephemeral


@sqlite_only
async def test_a_review_in_the_channel_is_in_the_servers_language_and_a_private_one_in_the_members(harness):
    w = harness.world
    w.guild.locale = "fr"
    w.carol.user.locale = "ja"
    async with harness.running(ai=ai()):
        every_step(harness)
        game_id = await play(harness, BLUNDERS)
        public = await harness.slash(w.carol, "review", game=game_id)
        await eventually(lambda: public.message.content == f"Analyse de la partie n° {game_id}.", 60)
        over = next(m for m in reversed(harness.fake.messages(harness.channel)) if m.custom_ids and
                    m.custom_ids[-1] == f"hx:over:{game_id}:review")
        private = await harness.fake.click(w.carol, over, f"hx:over:{game_id}:review")
    assert "précision" in public.message.embeds[0]["description"]
    assert public.message.embeds[1]["title"] == "Pire coup 1 sur 3"
    assert private.ephemeral and private.content == f"対局 #{game_id} の検討です。"
    assert "正確さ" in private.embeds[0]["description"]
