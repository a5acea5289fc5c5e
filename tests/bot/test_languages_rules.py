"""The rules' words in the reader's language, end to end through the fake Discord: a refused move's reason,
the Play panel, ``swap`` typed in the player's language, ``/record`` and the note about a closed game."""

from __future__ import annotations

import pytest

from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import Harness, eventually
from tests.bot.taps import Tapper
from tests.bot.test_languages import japanese_member_in_french_server
from tests.bot.test_world_changes import closed_unrated, thread_game


async def test_a_japanese_member_in_a_french_server_reads_a_refused_moves_reason_in_japanese(harness: Harness) -> None:
    japanese_member_in_french_server(harness)
    alice, bob = harness.world.alice, harness.world.bob
    async with harness.running():
        await harness.start_game(alice, bob, "hex", size=5, seat="first", clock="none")
        moved = await harness.move(alice, "c3")
        await harness.move(bob, "b2")
        refused = await harness.move(alice, "c3")
    assert not moved.ephemeral and moved.content.startswith("**alice** a joué c3")  # public: the server's French
    assert refused.ephemeral
    reason, hint = refused.content.split("\n")
    assert reason == "c3 にはすでに黒の石があります。空いているマスを選んでください。"
    assert hint.startswith("いま指せる手：")


async def test_a_french_member_in_a_japanese_server_reads_a_refused_moves_reason_in_french(harness: Harness) -> None:
    harness.world.guild.locale = "ja"
    harness.world.bob.user.locale = "fr"
    alice, bob = harness.world.alice, harness.world.bob
    async with harness.running():
        await harness.start_game(alice, bob, "hex", size=5, seat="first", clock="none")
        await harness.move(alice, "c3")
        refused = await harness.move(bob, "f9")
    assert refused.ephemeral
    assert refused.content.startswith("f9 est hors du plateau : sur ce plateau 5×5, les cases vont de a1 à e5.")


@pytest.mark.parametrize("word", ["スワップ", "échange", "Echange"])
async def test_swap_typed_in_a_players_language_is_the_swap(harness: Harness, word: str) -> None:
    alice, bob = harness.world.alice, harness.world.bob
    async with harness.running():
        await harness.start_game(alice, bob, "hex", size=5, seat="first", clock="none")
        await harness.move(alice, "c3")
        swapped = await harness.move(bob, word)
        g = await harness.bot.service.game_in(harness.channel.id)
    assert not swapped.ephemeral, swapped.content
    assert g is not None and g.position.actions == ["c3", "swap"]


async def test_the_play_panel_speaks_the_members_language(harness: Harness) -> None:
    japanese_member_in_french_server(harness)
    alice, bob = harness.world.alice, harness.world.bob
    async with harness.running():
        await harness.start_game(alice, bob, "hex", size=5, seat="first", clock="none")
        panel = await Tapper(harness.fake, harness.channel).open_panel(alice)
    assert panel.ephemeral and panel.content == "あなたの手番です。石を置くマスを選んでください。"
    [menu] = [c for c in panel.components if c.type == 3]
    assert menu.raw["placeholder"] == "マスを選んでください"
    assert [o["label"] for o in menu.raw["options"]][:2] == ["a1", "a2"]  # cells stay as they are written


async def test_a_record_in_a_french_server_is_in_french(harness: Harness) -> None:
    harness.world.guild.locale = "fr"
    alice, bob = harness.world.alice, harness.world.bob
    async with harness.running():
        await harness.start_game(alice, bob, "hex", size=5, seat="first", clock="none")
        await harness.move(alice, "c3")
        record = await harness.slash(bob, "record", game=1)
    [embed] = record.embeds
    assert not record.ephemeral
    assert embed["title"] == "Coups — Hex 5×5 (swap) · partie n° 1"
    assert embed["description"].startswith("**alice** contre **bob** — 1 tour\n**alice** (noir) · **bob** (blanc)")
    assert embed["footer"]["text"] == "page 1 sur 1 · en cours"


async def test_the_note_about_a_closed_game_is_in_the_players_language(harness: Harness) -> None:
    japanese_member_in_french_server(harness)
    w, fake = harness.world, harness.fake
    async with harness.running():
        await harness.slash(w.alice, "language", language="ja")  # kept for direct messages
        game, thread = await thread_game(harness, w.alice, w.bob)
        await fake.delete_channel(thread)

        def told(member: object, number: str) -> list[str]:
            return [m.content for m in fake.dms(member) if number in m.content]
        await eventually(lambda: closed_unrated(harness, game) and told(w.alice, f"#{game}") and told(w.bob, f"n° {game}"))
    [to_alice], [to_bob] = told(w.alice, f"#{game}"), told(w.bob, f"n° {game}")
    assert to_alice.startswith(f"あなたの対局 #{game}（Hex 5×5 (swap) · 対局 #{game}、相手：**bob**）は、"
                               "チャンネルまたはスレッドが削除されたため終了しました。")
    assert to_bob.startswith(f"Votre partie n° {game} (Hex 5×5 (swap) · partie n° {game} contre **alice**) a été "
                             "fermée car son salon ou son fil a été supprimé.")
