"""Who is spoken to in which language: private answers in the member's, public ones in the server's."""

from __future__ import annotations

from tests.bot.harness import Harness
from tests.bot.test_bad_input import client_checks_off


def japanese_member_in_french_server(harness: Harness) -> None:
    """alice's Discord is in Japanese, the server's in French (before the bot starts: its cache too)."""
    harness.world.guild.locale = "fr"
    harness.world.alice.user.locale = "ja"


async def test_a_private_answer_is_in_the_members_discord_language(harness: Harness) -> None:
    """/help and a refusal for alice (ja) in a French server: Japanese, with the commands' Japanese names."""
    japanese_member_in_french_server(harness)
    async with harness.running():
        help_page = await harness.slash(harness.world.alice, "help")
        refused = await harness.slash(harness.world.alice, "board")
    assert help_page.ephemeral and "遊び方" in help_page.content and "`/対局申込`" in help_page.content
    assert refused.ephemeral and refused.content.startswith("このチャンネルで進行中の対局はありません。")


async def test_an_unsupported_discord_language_gets_english(harness: Harness) -> None:
    harness.world.alice.user.locale = "de"
    async with harness.running():
        refused = await harness.slash(harness.world.alice, "board")
    assert refused.content.startswith("There is no game in progress in this channel. Start one with `/challenge`.")


async def test_a_members_chosen_language_holds_in_every_server_and_auto_forgets_it(harness: Harness) -> None:
    japanese_member_in_french_server(harness)
    other = harness.fake.add_guild("Autre serveur", locale="en-US")
    there = harness.fake.add_text_channel(other, "jeux")
    harness.fake.add_member(other, harness.world.alice.user)
    async with harness.running():
        chose = await harness.slash(harness.world.alice, "language", language="fr")
        here = await harness.slash(harness.world.alice, "board")
        elsewhere = await harness.slash(harness.world.alice, "board", channel=there)
        auto = await harness.slash(harness.world.alice, "language", language="auto")
        after = await harness.slash(harness.world.alice, "board")
    assert chose.content == "Je vous répondrai en français sur tous les serveurs."
    assert here.content.startswith("Aucune partie n'est en cours dans ce salon.")
    assert elsewhere.content.startswith("Aucune partie n'est en cours dans ce salon.")
    assert auto.content == "これからは Discord アプリの言語でお答えします。"
    assert after.content.startswith("このチャンネルで進行中の対局はありません。")


async def test_a_language_that_is_not_offered_is_refused_and_changes_nothing(harness: Harness) -> None:
    async with harness.running():
        with client_checks_off(harness.fake, "language"):  # as a modified client could
            refused = await harness.slash(harness.world.alice, "language", language="de")
        after = await harness.slash(harness.world.alice, "board")
    assert refused.ephemeral and "nothing was changed" in refused.content
    assert after.content.startswith("There is no game in progress")


async def test_a_japanese_member_in_a_french_server_reads_boards_in_french_and_refusals_in_japanese(
        harness: Harness) -> None:
    japanese_member_in_french_server(harness)
    alice, bob = harness.world.alice, harness.world.bob
    async with harness.running():
        first = await harness.start_game(alice, bob, "hex", size=5, seat="first", clock="none")
        moved = await harness.move(alice, "c3")
        early = await harness.move(alice, "c4")
    embed = first.embeds[0]
    assert embed["title"] == "Hex 5×5 (swap) · partie n° 1"
    assert embed["description"].startswith("La partie n° 1 commence !")
    assert "Trait : noir — posez un pion n'importe où, p. ex. `/jouer c3` — ou touchez **Jouer**" in embed["description"]
    assert embed["footer"]["text"].endswith(" · Jouer ou /jouer · Plateau ou /plateau")
    assert not moved.ephemeral and moved.content == f"**alice** a joué c3 — à vous de jouer, <@{bob.id}>."
    assert early.ephemeral and early.content == f"あなたの手番ではありません。<@{bob.id}>（白）の手番です。"


async def test_a_french_member_in_a_japanese_server_reads_boards_in_japanese_and_refusals_in_french(
        harness: Harness) -> None:
    harness.world.guild.locale = "ja"
    harness.world.bob.user.locale = "fr"
    alice, bob = harness.world.alice, harness.world.bob
    async with harness.running():
        await harness.start_game(alice, bob, "hex", size=5, seat="first", clock="none")
        early = await harness.move(bob, "c3")
        await harness.move(alice, "c3")
        moved = await harness.move(bob, "b2")
    assert early.ephemeral and early.content == f"Ce n'est pas votre tour : on attend <@{alice.id}> (noir)."
    assert moved.content == f"**bob**：b2 に打った — <@{alice.id}> さん、あなたの手番です。"
    assert "黒の手番" in moved.embeds[0]["description"]


async def test_a_games_thread_is_named_in_the_servers_language(harness: Harness) -> None:
    """A Japanese member's game in a French server: its thread's name is French, like the board in it."""
    japanese_member_in_french_server(harness)
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, thread=True)
        await harness.slash(w.alice, "challenge", opponent=harness.fake.bot_member(w.guild), game="hex", size=5,
                            thread=True)
    names = sorted(t.name or "" for t in harness.fake.threads(w.channel))
    assert names == ["Hex : alice contre bob", "Hex : alice contre l'ordinateur"]
