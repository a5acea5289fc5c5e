"""A long game's review still fits one message: the marked turns in the message, every move in a file."""

from __future__ import annotations

import random

import engine
from bot.service import ActiveGame
from bot.store import GameRow
from bot.ui.review_message import SHEET_CHARS, review_message
from engine.ai.review import Value, assemble, needed


def finished_game(moves: int) -> ActiveGame:
    pos = engine.new_game("hex", 19)
    rng = random.Random(4)
    for _ in range(moves):
        pos.play(rng.choice(pos.legal_actions()))
    row = GameRow(id=9, guild_id=1, channel_id=10, parent_id=None, game="hex", size=19, variants=(), first=None,
                  seed=1, seat0_id=100, seat1_id=200, rated=True, status="finished", winner_seat=0,
                  reason="resign", challenge_id=None, created_at=0.0, updated_at=0.0, finished_at=1.0)
    return ActiveGame(row, pos)


async def test_a_300_move_review_keeps_the_marked_turns_in_the_message_and_every_move_in_a_file():
    g = finished_game(300)
    actions = list(g.position.public_record())
    # values that swing at random, so that many turns are marked (no search: the layout is tested)
    rng = random.Random(5)
    values = {k: Value(rng.random(), False, "a1") for k in needed(g.position.options, actions)}
    review = assemble(g.position.options, actions, values, 1000)
    message = await review_message(g, {100: "alice", 200: "bob"}, review)
    names = [f.filename for f in message.files]
    assert names == ["review-9.png", "review-9.txt", "review-9-worst-0.png"]
    sheet = message.embeds[0].description.split("```")[1]
    assert len(sheet) <= SHEET_CHARS + 8 and all("?" in line for line in sheet.strip().splitlines())
    assert sum(len(e) for e in message.embeds) <= 6000  # Discord's limit for all of a message's embeds
    full = message.files[1].fp.read().decode()
    assert "150. " in full and "**" not in full
