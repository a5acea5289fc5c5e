"""Read-only commands end to end: leaderboard, stats, games, history, record, replay, rules."""

from __future__ import annotations

import engine
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import png_of


async def win_hex(h, black, white) -> None:
    """Black wins a 5×5 game down column a while White plays column e."""
    for row in range(1, 6):
        await h.move(black, f"a{row}")
        if row < 5:
            await h.move(white, f"e{row}")


async def test_leaderboard_ranks_players_with_rating_deviation_and_record(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", swap=False)
        await win_hex(harness, w.alice, w.bob)
        r = await harness.slash(w.carol, "leaderboard", game="hex")
    lines = r.embed["description"].splitlines()
    assert "alice" in lines[0] and "±" in lines[0] and "1–0" in lines[0]
    assert "bob" in lines[1] and "0–1" in lines[1]
    assert lines[0].count("provisional") == 1 and "?" not in lines[0]  # one game: still provisional, said once


async def test_an_empty_leaderboard_says_so_privately(harness):
    async with harness.running():
        r = await harness.slash(harness.world.alice, "leaderboard", game="blindhex")
    assert r.ephemeral and "No rated Blind Hex games" in r.content


async def test_stats_show_rating_games_and_recent_results(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", swap=False)
        await win_hex(harness, w.alice, w.bob)
        r = await harness.slash(w.carol, "stats", player=w.bob)
    fields = {f["name"]: f["value"] for f in r.embed["fields"]}
    assert "1 game · 0 won · 1 lost" in fields["Hex"]
    assert "lost · alice wins by connection" in fields["Recent games"]


async def test_games_lists_games_in_progress_with_whose_turn(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        r = await harness.slash(w.carol, "games")
    text = r.embed["description"]
    assert f"<#{harness.channel.id}>" in text and f"to move: <@{w.alice.id}>" in text
    assert not r.message.mentions  # listing players must not ping them


async def test_record_is_a_text_file_that_the_engine_cli_replays(harness, tmp_path):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", swap=False)
        await win_hex(harness, w.alice, w.bob)
        g = (await harness.slash(w.carol, "history")).embed["description"]
        game_id = int(g.split("#")[1].split()[0])
        r = await harness.slash(w.carol, "record", game=game_id)
    text = r.attachments[f"game-{game_id}.txt"].decode()
    record = engine.Record.from_text(text)
    assert record.actions == ["a1", "e1", "a2", "e2", "a3", "e3", "a4", "e4", "a5"]
    assert record.replay().outcome.winner == "black"
    assert "# black: alice" in text


async def test_history_says_the_result_in_the_words_of_the_game_over_message(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", swap=False)
        await win_hex(harness, w.alice, w.bob)
        g = (await harness.slash(w.carol, "history")).embed["description"]
    assert "alice wins by connection" in g and "<@" not in g


async def test_record_of_an_unknown_game_is_refused_privately(harness):
    async with harness.running():
        r = await harness.slash(harness.world.alice, "record", game=999)
    assert r.ephemeral and "no game #999" in r.content


async def test_replay_is_an_animated_gif(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        await harness.move(w.bob, "b2")
        r = await harness.slash(w.carol, "replay", game=1)
    (name, data), = r.attachments.items()
    assert name.endswith(".gif") and data.startswith(b"GIF8")


async def test_rules_answer_privately_with_a_first_page_and_a_picture_for_each_game(harness):
    async with harness.running():
        replies = [await harness.slash(harness.world.alice, "rules", game=g) for g in ("inphexion", "hex", "blindhex")]
    assert [r.embed["title"].split(" — ")[0] for r in replies] == \
        ["How to play inpHeXion", "How to play Hex", "How to play Blind Hex"]
    assert all(r.ephemeral and png_of(r) for r in replies)
    assert all("Coordinates" in r.embed["title"] or "The board" in r.embed["title"] for r in replies)


async def test_the_rules_tutorial_turns_its_pages_with_buttons_each_with_its_own_picture(harness):
    from bot.ui import tutorial

    alice = harness.world.alice
    async with harness.running():
        first = await harness.slash(alice, "rules", game="inphexion")
        pictures, titles = [png_of(first)], [first.embed["title"]]
        message = first.message
        for _ in range(len(tutorial.pages("inphexion")) - 1):
            nxt = next(c for c in message.custom_ids if c.endswith(":next"))
            step = await harness.fake.click(alice, message, nxt)
            pictures.append(png_of(step))
            titles.append(step.embed["title"])
    assert titles[3].endswith("A surround and its relocation")
    assert len(set(pictures)) == len(pictures)  # every step has its own picture
    assert "Variants:" in step.embed["description"] and message.component(nxt).disabled


async def test_a_blind_hex_game_starts_with_the_cut_announced(harness):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "blindhex")
    text = board.embeds[0]["description"]
    assert "The cut:" in text and "wins the cut" in text
    assert "aside" in text


async def test_history_and_stats_use_the_result_words_of_the_game_over_message(harness):
    import re

    from tests.bot.test_game_messages import finish_with_resignation

    w = harness.world
    async with harness.running():
        over = await finish_with_resignation(harness)
        history = (await harness.slash(w.carol, "history")).embed["description"]
        stats = await harness.slash(w.carol, "stats", player=w.bob)
    # "🏆 **alice** (black) wins: bob resigned." → "alice wins: bob resigned"
    said = re.sub(r"\*\*|🏆 | \((black|white)\)|\.$", "", over.embed["description"].splitlines()[0])
    assert said == "alice wins: bob resigned"
    recent = next(f["value"] for f in stats.embed["fields"] if f["name"] == "Recent games")
    assert f"— {said} " in history
    assert f"— lost · {said} " in recent


async def test_help_names_every_command_a_newcomer_needs_from_starting_a_game_to_tournaments(harness):
    async with harness.running():
        page = await harness.slash(harness.world.alice, "help")
    assert page.ephemeral
    for command in ("challenge", "move", "board", "resign", "rules", "review", "puzzle", "tournament"):
        assert f"`/{command}`" in page.content, command
