"""The bot's words: names made safe, actions and results in words, refusals, clocks."""

from __future__ import annotations

import engine
from bot.service import ActiveGame, NotYourTurn, UserError
from bot.store import GameRow
from bot.ui import texts

ALICE, BOB = 100, 200


def game(position: engine.Position, **row) -> ActiveGame:
    """A game between Alice (seat 0) and Bob around ``position``."""
    o = position.options
    fields = dict(id=1, guild_id=1, channel_id=10, parent_id=None, game=o.game, size=o.size, variants=o.variants,
                  first=o.first, seed=1, seat0_id=ALICE, seat1_id=BOB, rated=True, status="active", winner_seat=None,
                  reason=None, challenge_id=None, created_at=0.0, updated_at=0.0, finished_at=None)
    fields.update(row)
    return ActiveGame(GameRow(**fields), position)


def test_a_display_name_cannot_carry_markdown_or_a_mass_mention():
    cleaned = texts.clean("**bold** @everyone")
    assert "\\*\\*bold\\*\\*" in cleaned
    assert "@everyone" not in cleaned


def test_not_your_turn_names_the_players_the_game_waits_for():
    answer = texts.refusal(NotYourTurn([BOB], ["white"]))
    assert answer == f"It's not your turn — waiting for <@{BOB}> (white)."


def test_a_refusal_shows_its_commands_options_channels_and_moments_as_discord_does():
    from bot.service import Channel, Command, Moment, Option, Post

    refused = UserError("Use {cmd} with {opt} or {opts}; see {where} {when}; it is {post}",
                        cmd=Command("challenge"), opt=Option("thread", False),
                        opts=[Option("pie", note="the pie rule"), Option("neutral")],
                        where=[Channel(5), Channel(6)], when=Moment(1800000000.5), post=Post(1, 2, 3))
    assert texts.refusal(refused) == ("Use `/challenge` with `thread:false` or `pie` (the pie rule) and `neutral`; "
                                      "see <#5> and <#6> <t:1800000000:R>; it is https://discord.com/channels/1/2/3")
    assert "`" not in str(refused) and "<" not in str(refused)


def test_other_refusals_are_their_message():
    assert texts.refusal(UserError("That challenge does not exist.")) == "That challenge does not exist."


def test_each_kind_of_action_is_described_in_words():
    inp = engine.new_game("inphexion", 5)
    hexg = engine.new_game("hex", 5, ["swap"])
    hexg.play("c3")
    blind = engine.new_game("blindhex", first="x")
    assert texts.describe_action(inp, "c3") == "placed on c3"
    assert texts.describe_action(inp, "c4 d4") == "moved c4→d4 and placed on c4"
    assert texts.describe_action(inp, "b2>e5") == "relocated b2→e5"
    assert texts.describe_action(hexg, "c3") == "played c3"
    assert texts.describe_action(hexg, "swap") == "swapped colours (pie rule) and now plays black"
    assert texts.describe_action(blind, "aside 4+5") == "set 4 and 5 aside"
    assert texts.describe_action(blind, "x:1+4") == "chose 1+4"
    assert texts.describe_action(blind, "f6") == "wrote at f6"


def test_the_result_line_names_the_winner_in_the_words_of_the_outcome():
    pos = engine.new_game("hex", 5)
    pos.play("c3")
    pos.finish(engine.Outcome("black", engine.Reason.RESIGNATION))
    line = texts.result_line(game(pos), {ALICE: "alice", BOB: "bob"})
    assert line == "🏆 **alice** (black) wins: **bob** (white) resigned."


def test_no_clock_line_for_a_game_without_a_deadline():
    assert texts.clock_line(game(engine.new_game("hex", 5)), now=0.0) == ""


def test_the_clock_line_says_how_long_is_left():
    g = game(engine.new_game("hex", 5), clock="1d", deadline=7200.0)
    assert texts.clock_line(g, now=0.0) == "⏱ Move due <t:7200:R> (1d per move)"


def test_a_hint_that_shows_a_typed_move_also_offers_the_play_button():
    step = texts.next_step(game(engine.new_game("hex", 5)), {ALICE: "alice", BOB: "bob"})
    assert "`/move c3`" in step
    assert step.endswith(texts.PLAY_HINT)


def test_a_finished_game_row_reads_in_the_game_over_words():
    resigned = game(engine.new_game("hex", 5), status="finished", winner_seat=1, reason="resignation").row
    assert texts.finished_result(resigned, {ALICE: "alice", BOB: "bob"}) == "bob wins: alice resigned"
    abandoned = game(engine.new_game("hex", 5), status="finished", reason="abandoned").row
    assert texts.finished_result(abandoned, {}) == "Game abandoned"
    aborted = game(engine.new_game("hex", 5), status="aborted").row
    assert texts.finished_result(aborted, {}) == "Aborted: no result"


def test_a_players_side_of_a_finished_game_is_won_or_lost():
    row = game(engine.new_game("hex", 5), status="finished", winner_seat=0, reason="connection").row
    assert (texts.side(row, ALICE), texts.side(row, BOB), texts.side(row, 999)) == ("won", "lost", "")
