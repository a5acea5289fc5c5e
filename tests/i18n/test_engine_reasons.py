"""The rules' reasons in the catalogs: every sentence the engine can give a player is a template the
catalogs translate, and the bot says it whole in the reader's language."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

from bot.i18n import render
from bot.i18n.catalogs import read_catalog
from bot.i18n.text import from_engine
from engine import ActionError, Message, new_game

ROOT = Path(__file__).resolve().parents[2]


def engine_templates() -> set[str]:
    """The templates of every ``sentence("…")`` in engine/, as ``pybabel extract -k sentence`` finds them."""
    found = extract_from_dir(ROOT / "engine", [("**.py", "python")], keywords={"sentence": None})
    return {message for _f, _l, message, _c, _ctx in found}


def translated(language: str) -> set[str]:
    return {m.id for m in read_catalog(language) if isinstance(m.id, str) and m.string and not m.fuzzy}


def templates_of(message: Message) -> set[str]:
    """A sentence's template and those of the sentences nested in its facts."""
    nested = [templates_of(f) for f in message.facts.values() if isinstance(f, Message)]
    return {message.template}.union(*nested)


@pytest.mark.parametrize("language", ["ja", "fr"])
def test_every_engine_reason_template_is_in_every_catalog(language: str) -> None:
    templates = engine_templates()
    assert len(templates) > 60  # the extraction found the engine's sentences
    assert templates - translated(language) == set()


#: text a player might send, right or wrong, in every game and phase
TRIES = ["c4", "c4 d4", "d4 c4", "c3 c4", "b2>e7", "e5", "swap", "swap c4", "zz9", "q4", "c4 c4", "a1 b1 c1",
         "aside 4+5", "aside 1+1", "x:1+4", "o:2+3", "1+4", "x:?", "black:1+2", "x:7+1", "e5 f6", "move", "",
         "c4>c5", "a1>a2", "c4 d4 e5", "x" * 300]


def reasons_given(game: str, seed: int) -> list[ActionError]:
    """Every refusal of :data:`TRIES` (and of the other player's turn) along a random game."""
    rng = random.Random(seed)
    pos = new_game(game, 7 if game != "blindhex" else None)
    refused: list[ActionError] = []
    while pos.outcome is None and len(pos.actions) < 60:
        for text in TRIES:
            for player in (None, *pos.colours):
                try:
                    pos.after(text, player)
                except ActionError as exc:
                    refused.append(exc)
        pos.play(rng.choice(pos.legal_actions(pos.to_move[0])), pos.to_move[0])
    for text in TRIES[:3]:
        try:
            pos.after(text)
        except ActionError as exc:
            refused.append(exc)
    return refused


@pytest.mark.parametrize("game", ["inphexion", "hex", "blindhex"])
def test_every_reason_the_rules_give_is_a_catalog_template(game: str) -> None:
    """Refusals met along whole games: each sentence (and each nested one) is an extracted template."""
    refused = [exc for seed in range(3) for exc in reasons_given(game, seed)]
    assert len({exc.message.template for exc in refused}) >= 8
    missing = set().union(*(templates_of(exc.message) for exc in refused)) - engine_templates()
    assert missing == set()


def test_a_reason_is_said_whole_in_japanese_with_its_nested_sentence_and_colour() -> None:
    pos = new_game("blindhex")
    pos.play("aside 4+5")
    with pytest.raises(ActionError) as refused:
        pos.play("x:4+4")  # two equal cards
    assert render(from_engine(refused.value.message), "ja") == "4 を2回ではなく、異なる2枚のカードを選んでください"
    with pytest.raises(ActionError) as refused:
        pos.play("aside 1+2")
    assert str(refused.value).startswith("cards are set aside only at the start")  # the engine's own words
    said = render(from_engine(refused.value.message), "ja")
    assert said == "カードを脇に置くのは最初だけで、カットに負けたプレイヤーが行います。いまは o と x がカードを2枚選ぶ番です（例：o:1+2）"


def test_a_colour_in_a_reason_is_said_as_the_catalogs_colour() -> None:
    pos = new_game("hex", 5)
    pos.play("c3")
    with pytest.raises(ActionError) as refused:
        pos.play("c3")
    assert render(from_engine(refused.value.message), "fr") == "Il y a déjà un pion noir en c3 : choisissez une case vide"
    assert render(from_engine(refused.value.message), "ja") == "c3 にはすでに黒の石があります。空いているマスを選んでください"
