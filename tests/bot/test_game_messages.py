"""The conversation around a game, end to end: captions, pings, the game-over message,
its buttons, the move list and the files a game can be taken away in."""

from __future__ import annotations

from render.games.common import last_text
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import Harness, mentions


async def _names_for_picture(h: Harness) -> tuple[object, dict[str, str]]:
    from bot.ui import texts

    g = await h.bot.service.game_in(h.channel.id)
    names = await h.bot.service.names(g.row.guild_id, g.row.seats)
    return g, texts.colour_names(g, names)


# -- captions -------------------------------------------------------------------------------
async def test_a_hex_swap_is_credited_to_the_player_who_swapped(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        swapped = await harness.move(w.bob, "swap")
        g, picture_names = await _names_for_picture(harness)
    first_line = swapped.embed["description"].splitlines()[0]
    assert first_line.startswith("**bob** (white) swapped colours"), first_line
    assert "now plays black" in first_line
    assert last_text(g.position, picture_names).startswith("Last: bob swap")


async def test_an_inphexion_pie_swap_is_credited_to_the_player_who_swapped(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "inphexion", pie=True, seat="first")
        await harness.move(w.alice, "d4")
        swapped = await harness.move(w.bob, "swap")
        g, picture_names = await _names_for_picture(harness)
    first_line = swapped.embed["description"].splitlines()[0]
    assert first_line.startswith("**bob** (black) swapped colours"), first_line
    assert "now plays white" in first_line
    assert last_text(g.position, picture_names).startswith("Last: bob swap")


# -- claims ---------------------------------------------------------------------------------
async def test_the_claim_win_button_goes_once_the_win_is_claimed(harness, clock):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", clock="1h")
        await harness.move(w.alice, "c3")
        clock.advance(3600 + 1)
        expiry = await harness.fake.wait_for(lambda m: m.id > board.id and "Time is up" in m.content)
        button = expiry.custom_ids[0]
        await harness.fake.click(w.alice, expiry, button)
    assert expiry.custom_ids == []
    assert "claimed the win" in expiry.content


async def test_the_claim_win_button_goes_when_the_win_was_claimed_with_the_command(harness, clock):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", clock="1h")
        await harness.move(w.alice, "c3")
        clock.advance(3600 + 1)
        expiry = await harness.fake.wait_for(lambda m: m.id > board.id and "Time is up" in m.content)
        await harness.slash(w.alice, "claim")
        await harness.fake.click(w.bob, expiry, expiry.custom_ids[0])
    assert expiry.custom_ids == []
    assert "is over" in expiry.content


# -- pings ----------------------------------------------------------------------------------
async def test_a_move_pings_only_the_opponent_and_says_what_happened(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        r = await harness.move(w.alice, "c3")
    assert mentions(r.content) == [w.bob.id]
    assert r.content == f"**alice** played c3 — your turn, <@{w.bob.id}>."


async def test_a_turn_that_continues_with_a_relocation_pings_nobody(harness):
    import engine
    from tests.bot.test_play import play_all, relocation_script
    w = harness.world
    prefix, surround, _ = relocation_script(1)
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "inphexion", seat="first")
        pos = engine.new_game("inphexion")
        await play_all(harness, prefix, {0: w.alice, 1: w.bob}, pos)
        mover = w.alice if pos.to_move == ["white"] else w.bob
        r = await harness.move(mover, surround)
    assert "relocate" in r.embed["description"].lower()
    assert mentions(r.content) == []


async def test_the_bot_never_pings_itself_in_a_game_against_the_computer(harness):
    from tests.bot.test_opponent import computer_board

    w = harness.world
    async with harness.running():
        start = await harness.challenge(w.alice, w.bot, "hex", size=5, seat="first")
        moved = await harness.move(w.alice, "c3")
        reply = await computer_board(harness)
    for text in (start.content, moved.content, reply.content):
        assert w.bot.id not in mentions(text), text
    assert mentions(reply.content) == [w.alice.id]


async def test_the_first_board_pings_the_first_player_and_says_what_to_do(harness):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.bob, w.alice, "hex", size=5, seat="first")
    assert mentions(board.content) == [w.bob.id]  # alice accepted: she has just acted
    assert "black to move: place a stone anywhere, e.g. `/move c3` — or tap **Play**" in board.embeds[0]["description"]


async def test_the_first_blind_hex_board_says_in_one_line_what_to_do_first(harness):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "blindhex", seat="first")
        g = await harness.bot.service.game_in(harness.channel.id)
    loser = g.position.to_move[0]
    hint = [line for line in board.embeds[0]["description"].splitlines() if "`/move" in line]
    assert hint == [f"{loser} to move: you lost the cut, so set two of your cards aside first, "
                    "e.g. `/move aside 4+5` — or tap **Play**"]


async def test_the_end_of_a_game_pings_both_players(harness, clock):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", clock="1h")
        await harness.move(w.alice, "c3")
        clock.advance(3600 + 1)
        await harness.fake.wait_for(lambda m: m.id > board.id and "Time is up" in m.content)
        won = await harness.slash(w.alice, "claim")
    assert sorted(mentions(won.content)) == sorted([w.alice.id, w.bob.id])


# -- game over ------------------------------------------------------------------------------
async def finish_with_resignation(h: Harness) -> object:
    w = h.world
    await h.start_game(w.alice, w.bob, "hex", size=5, seat="first")
    await h.move(w.alice, "c3")
    await h.move(w.bob, "b2")
    return await h.slash(w.bob, "resign")


async def test_the_game_over_message_leads_with_the_result_then_signed_rating_changes_turns_and_id(harness):
    async with harness.running():
        over = await finish_with_resignation(harness)
    lines = over.embed["description"].splitlines()
    assert lines[0].startswith("🏆 **alice**") and "resigned" in lines[0]
    assert any(line.startswith("alice 1500 → ") and ", +" in line for line in lines)
    assert any(line.startswith("bob 1500 → ") and ", −" in line for line in lines)
    assert lines[-1] == "2 turns · game #1"
    assert "/move" not in over.embed["footer"]["text"]
    assert over.labels == ["Rematch", "Replay", "Moves", "Review"]


async def test_rematch_challenges_the_other_player_with_the_same_options_and_the_seats_swapped(harness):
    w = harness.world
    async with harness.running():
        over = await finish_with_resignation(harness)
        rematch = await harness.fake.click(w.bob, over, next(c for c in over.custom_ids if c.endswith(":rematch")))
        before = len(harness.fake.messages(harness.channel))
        accept = next(c for c in rematch.custom_ids if c.endswith(":accept"))
        await harness.fake.click(w.alice, rematch, accept)
        board = await harness.board_after(before)
        g = await harness.bot.service.game_in(harness.channel.id)
    assert not rematch.ephemeral and mentions(rematch.content) == [w.alice.id]
    assert "rematch of game #1" in rematch.content
    assert (g.row.game, g.row.size, g.row.variants, g.row.rated) == ("hex", 5, ("swap",), True)
    assert g.row.seats == (w.bob.id, w.alice.id)  # alice moved first last time
    assert mentions(board.content) == [w.bob.id]


async def test_a_second_rematch_press_points_privately_at_the_open_rematch_challenge(harness):
    w = harness.world
    async with harness.running():
        over = await finish_with_resignation(harness)
        button = next(c for c in over.custom_ids if c.endswith(":rematch"))
        first = await harness.fake.click(w.bob, over, button)
        again = await harness.fake.click(w.bob, over, button)
        other = await harness.fake.click(w.alice, over, button)
        challenges = [m for m in harness.fake.messages(harness.channel) if "rematch of game #1" in m.content]
    link = f"https://discord.com/channels/{w.guild.id}/{harness.channel.id}/{first.message.id}"
    assert len(challenges) == 1
    for r in (again, other):
        assert r.ephemeral and r.content == f"A rematch of game #1 is already asked for: {link}.", r.content


async def test_rematch_pressed_by_both_players_at_once_makes_one_challenge(harness):
    from tests.bot.test_races import all_at_once

    w = harness.world
    fake = harness.fake
    async with harness.running():
        over = await finish_with_resignation(harness)
        button = next(c for c in over.custom_ids if c.endswith(":rematch"))
        results = await all_at_once(harness, [fake.start_component(u, over, button) for u in (w.alice, w.bob) * 2])
        challenges = [m for m in fake.messages(harness.channel) if "rematch of game #1" in m.content]
    assert len(challenges) == 1
    refused = [r for r in results if r.ephemeral]
    assert len(refused) == 3 and all("already asked for" in r.content for r in refused), [r.content for r in results]


async def test_rematch_against_the_computer_pressed_twice_starts_one_game(harness):
    from tests.bot.test_races import all_at_once

    w = harness.world
    async with harness.running():
        await harness.challenge(w.alice, w.bot, "hex", size=5, seat="first")
        over = await harness.slash(w.alice, "resign")
        button = next(c for c in over.custom_ids if c.endswith(":rematch"))
        results = await all_at_once(harness, [harness.fake.start_component(w.alice, over, button) for _ in range(2)])
        games = [g for g in await harness.bot.service.active_games(w.guild.id)]
    assert len(games) == 1
    [refused] = [r for r in results if r.ephemeral]
    assert refused.content == (f"Game #{games[0].id} is being played in <#{harness.channel.id}>; "
                               "ask for the rematch once it has ended."), refused.content


async def test_the_moves_button_shows_a_numbered_score_sheet_and_the_files(harness):
    w = harness.world
    async with harness.running():
        over = await finish_with_resignation(harness)
        moves = await harness.fake.click(w.carol, over, next(c for c in over.custom_ids if c.endswith(":moves")))
    assert moves.ephemeral
    assert "1. c3   b2" in moves.embed["description"]
    assert set(moves.attachments) == {"game-1.txt", "game-1.sgf"}
    assert moves.attachments["game-1.sgf"].startswith(b"(;FF[4]GM[11]SZ[5]")
    assert b"python -m" not in moves.attachments["game-1.txt"]


async def test_the_move_list_and_record_file_say_the_result_in_the_game_over_words(harness):
    w = harness.world
    async with harness.running():
        await finish_with_resignation(harness)
        record = await harness.slash(w.carol, "record", game=1)
    assert record.embed["footer"]["text"].endswith("alice wins: bob resigned")
    assert "# result: alice wins: bob resigned" in record.attachments["game-1.txt"].decode()


async def test_a_long_move_list_has_pages_to_step_through(harness):
    import engine
    from tests.bot.test_play import play_all, script

    w = harness.world
    actions = script("inphexion", seed=5)  # 23 score-sheet lines: two pages
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "inphexion", seat="first")
        await play_all(harness, actions, {0: w.alice, 1: w.bob}, engine.new_game("inphexion"))
        record = await harness.slash(w.carol, "record", game=1)
        nxt = next(c for c in record.custom_ids if c.endswith(":next"))
        page2 = await harness.fake.click(w.carol, record, nxt)
    assert not record.ephemeral
    assert record.embed["description"].count("\n") > 10
    assert "page 1 of" in record.embed["footer"]["text"]
    assert "page 2 of" in page2.embed["footer"]["text"]
    assert "21. " in page2.embed["description"]


async def test_replay_steps_through_the_positions_one_picture_at_a_time(harness):
    w = harness.world
    async with harness.running():
        await finish_with_resignation(harness)
        replay = await harness.slash(w.carol, "replay", game=1)
        first = next(c for c in replay.custom_ids if c.endswith(":first"))
        start = await harness.fake.click(w.carol, replay, first)
        start_content, start_files = start.content, dict(start.attachments)
        nxt = next(c for c in start.custom_ids if c.endswith(":next"))
        step = await harness.fake.click(w.carol, replay.message, nxt)
    assert any(n.endswith(".gif") for n in replay.attachments)
    assert "the start" in start_content and any(n.endswith(".png") for n in start_files)
    assert "turn 1 of 2" in step.content
    assert replay.content.count("game #1") == 1


async def finish_after_a_swap(h: Harness) -> object:
    """Hex: alice (black) c3, bob swaps and plays black from then on, alice (now white) b2, bob resigns."""
    w = h.world
    await h.start_game(w.alice, w.bob, "hex", size=5, seat="first")
    await h.move(w.alice, "c3")
    await h.move(w.bob, "swap")
    await h.move(w.alice, "b2")
    return await h.slash(w.bob, "resign")


async def test_replay_steps_name_the_players_by_the_colours_they_had_at_each_position(harness):
    w = harness.world
    async with harness.running():
        await finish_after_a_swap(harness)
        replay = await harness.slash(w.carol, "replay", game=1)
        steps = [await harness.fake.click(w.carol, replay, next(c for c in replay.custom_ids if c.endswith(":first")))]
        for _ in range(3):
            steps.append(await harness.fake.click(w.carol, replay.message,
                                                  next(c for c in steps[-1].custom_ids if c.endswith(":next"))))
        said = [s.content for s in steps]
    assert ["**alice** (black)" in c and "**bob** (white)" in c for c in said] == [True, True, False, False], said
    assert ["**bob** (black)" in c and "**alice** (white)" in c for c in said] == [False, False, True, True], said


async def test_the_replay_gif_names_the_players_as_they_sat_down_until_the_swap(harness):
    import engine
    import render

    w = harness.world
    async with harness.running():
        await finish_after_a_swap(harness)
        replay = await harness.slash(w.carol, "replay", game=1)
    record = engine.Record(engine.make_options("hex", 5, ["swap"]), ["c3", "swap", "b2"])
    gif = next(data for name, data in replay.attachments.items() if name.endswith(".gif"))
    assert gif == render.render_replay(record, names={"black": "alice", "white": "bob"})


async def test_the_move_list_and_record_of_a_swapped_game_say_who_had_which_colour(harness):
    w = harness.world
    async with harness.running():
        await finish_after_a_swap(harness)
        record = await harness.slash(w.carol, "record", game=1)
    assert "**alice** (black, white from the swap) · **bob** (white, black from the swap)" in record.embed["description"]
    text = record.attachments["game-1.txt"].decode()
    assert "# black: alice (black, white from the swap)" in text
    assert "# white: bob (white, black from the swap)" in text


# -- threads --------------------------------------------------------------------------------
async def test_a_move_in_the_channel_of_a_game_that_lives_in_a_thread_points_to_the_thread(harness):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", thread=True)
        r = await harness.move(w.alice, "c3")
        shown = await harness.slash(w.alice, "board")
    assert r.ephemeral and r.content == f"Your game is in <#{board.channel.id}> — play there."
    assert shown.ephemeral and f"<#{board.channel.id}>" in shown.content


# -- Blind Hex ------------------------------------------------------------------------------
async def test_blind_hex_posts_one_picture_per_writing_turn_plus_the_reveal(harness):
    import engine
    from tests.bot.test_play import play_all, script

    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "blindhex", seat="first")
        g = await harness.bot.service.game_in(harness.channel.id)
        first = g.position.options.first
        pos = engine.new_game("blindhex", first=first)
        seats = {0: w.alice, 1: w.bob}
        actions = script("blindhex", seed=5, first=first)
        rounds: list[dict] = []
        for action in actions[:40]:
            if pos.outcome is not None:
                break
            if ":" in action and len(pos.to_move) == 2:
                rounds.append({"pictures": 0, "writers": []})
            writer = pos.pending_writes()[0][0] if pos.phase == "write" else None
            [reply] = await play_all(harness, [action], seats, pos)
            if rounds and (reply.attachments or reply.followups and reply.followups[0].files):
                rounds[-1]["pictures"] += 1
            if rounds and writer and (not rounds[-1]["writers"] or rounds[-1]["writers"][-1] != writer):
                rounds[-1]["writers"].append(writer)
    assert rounds
    for r in rounds:
        assert r["pictures"] <= 1 + len(r["writers"]), rounds


async def test_the_blind_hex_reveal_names_the_players_and_the_writing_order(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "blindhex", seat="first")
        g = await harness.bot.service.game_in(harness.channel.id)
        loser = g.user_of(g.position.to_move[0])
        seats = {w.alice.id: w.alice, w.bob.id: w.bob}
        await harness.move(seats[loser], "aside 4+5")
        await harness.move(w.alice, "1+2")
        reveal = await harness.move(w.bob, "1+3")
    text = reveal.embed["description"]
    assert "**alice**" in text and "**bob**" in text
    assert "Both chose 1: nobody writes for it." in text
    assert "Writing order: **alice** 2 letters for 2, then **bob** 2 letters for 3." in text
    assert "in one move" in text


async def test_a_game_gets_its_own_thread_by_default_and_the_challenge_links_to_it(harness):
    w = harness.world
    async with harness.running():
        challenge = await harness.slash(w.alice, "challenge", opponent=w.bob, game="hex", size=5, seat="first")
        accept = next(c for c in challenge.custom_ids if c.endswith(":accept"))
        await harness.fake.click(w.bob, challenge, accept)
        thread = harness.fake.threads(harness.channel)[0]
        board = await harness.fake.wait_for(lambda m: m.channel is thread and bool(m.files))
    assert "in a new thread" in challenge.content
    assert f"in <#{thread.id}>" in challenge.message.content  # the closed challenge links to the game
    assert mentions(board.content) == [w.alice.id]


async def test_without_permission_to_make_threads_the_game_is_played_in_the_channel(harness):
    import discord

    w = harness.world
    guild = harness.world.guild
    bot_member = guild.member(harness.fake.bot_user)
    for role in [guild.everyone, *bot_member.roles]:
        role.permissions = discord.Permissions(role.permissions.value & ~discord.Permissions.create_public_threads.flag)
    assert not bot_member.permissions.create_public_threads
    async with harness.running():
        challenge = await harness.slash(w.alice, "challenge", opponent=w.bob, game="hex", size=5)
    assert not challenge.ephemeral and "in a new thread" not in challenge.content


async def test_games_links_to_each_game(harness):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", thread=True)
        r = await harness.slash(w.carol, "games")
    assert f"<#{board.channel.id}>" in r.embed["description"]


# -- words ----------------------------------------------------------------------------------
async def test_every_command_option_has_a_real_description_and_games_are_offered_by_title(harness):
    async with harness.running():
        commands = harness.fake.synced_commands()
    for name, command in commands.items():
        for option in command.payload.get("options", []):
            assert option.get("description") not in (None, "", "…"), (name, option["name"])
    games = next(o for o in commands["challenge"].payload["options"] if o["name"] == "game")
    assert [c["name"] for c in games["choices"]] == ["inpHeXion", "Hex", "Blind Hex"]
