"""Game messages: a board picture, the words around it, and private answers."""

from __future__ import annotations

import engine
from bot.ui.messages import EMBED_COLOUR, game_message
from tests.bot.test_texts import ALICE, BOB, game


async def test_a_game_message_has_the_board_picture_the_title_and_whose_turn_it_is():
    g = game(engine.new_game("hex", 5))
    message = await game_message(g, {ALICE: "alice", BOB: "bob"}, "Game #1 begins!")
    assert message.file.filename.endswith(".png")
    assert message.embed.image.url == f"attachment://{message.file.filename}"
    assert message.embed.title == "Hex 5×5 · game #1"
    assert message.embed.colour == EMBED_COLOUR
    assert message.embed.description.startswith("Game #1 begins!\n")
    assert message.content == f"your turn, <@{ALICE}>."


async def test_the_message_of_a_finished_game_mentions_both_players():
    pos = engine.new_game("hex", 5)
    pos.finish(engine.Outcome("white", engine.Reason.RESIGNATION))
    message = await game_message(game(pos), {ALICE: "alice", BOB: "bob"})
    assert message.content == f"game over, <@{ALICE}> and <@{BOB}>."
    assert "🏆" in message.embed.description
