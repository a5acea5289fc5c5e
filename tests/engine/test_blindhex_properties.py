"""Properties of Blind Hex positions reached by random legal play (either cut winner)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import ActionError, IllegalActionError, NotationError, Record, WrongTurnError, new_game

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _step(pos, rng: random.Random) -> None:
    """One random legal action by a random player among those to move."""
    player = rng.choice(pos.to_move)
    pos.play(rng.choice(pos.legal_actions(player)), player)


@st.composite
def positions(draw, finished: bool = False):
    """A Blind Hex position after random legal actions (to the end if ``finished``)."""
    first = draw(st.sampled_from(["x", "o"]))
    rng = draw(st.randoms(use_true_random=False))
    pos = new_game("blindhex", first=first)
    steps = 5000 if finished else draw(st.integers(0, 120))
    for _ in range(steps):
        if pos.outcome is not None:
            break
        _step(pos, rng)
    return pos


@st.composite
def round_starts(draw):
    """A position where both players are about to choose (random play up to a round's start)."""
    pos = draw(positions())
    rng = draw(st.randoms(use_true_random=False))
    while pos.outcome is None and not (pos.phase == "choose" and len(pos.to_move) == 2):
        _step(pos, rng)
    assume(pos.outcome is None)
    return pos


def _cards(pos, colour: str) -> Counter:
    return Counter(pos.hands()[colour] + pos.aside()[colour] + pos.played()[colour])


def _letters(pos, colour: str) -> int:
    return sum(pos.piece_at(i) == colour for i in range(121))


@SETTINGS
@given(positions())
def test_every_listed_legal_action_is_accepted(pos):
    for player in pos.to_move:
        for action in pos.legal_actions(player):
            assert pos.copy().play(action, player)
    for action in pos.legal_actions():
        assert pos.copy().play(action)


@SETTINGS
@given(positions(), st.one_of(
    st.text(max_size=10),
    st.from_regex(r"(aside|[xoz])?\s*:?\s*[0-7a]\s*[+, ]\s*[0-7a]", fullmatch=True),
    st.from_regex(r"[a-m](1[0-3]|[0-9])( [a-m](1[0-3]|[0-9]))?", fullmatch=True),
))
def test_refused_text_raises_a_typed_error_and_changes_nothing(pos, text):
    assume(pos.outcome is None)
    before, actions = pos.copy(), list(pos.actions)
    try:
        pos.copy().play(text)
    except ActionError:
        pass
    else:
        assume(False)  # it happened to be legal
    try:
        pos.play(text)
    except (NotationError, IllegalActionError) as exc:
        assert isinstance(exc, ActionError)
    assert pos == before and pos.actions == actions


@SETTINGS
@given(positions(), st.data())
def test_a_legal_action_for_one_player_is_refused_for_the_other(pos, data):
    assume(pos.outcome is None)
    movers = pos.to_move
    player = data.draw(st.sampled_from(movers))
    action = data.draw(st.sampled_from(pos.legal_actions(player)))
    others = [c for c in pos.colours if c not in movers]
    assume(others)
    before = pos.copy()
    try:
        pos.play(action, others[0])
    except WrongTurnError:
        pass
    else:
        raise AssertionError(f"{others[0]} played {action} out of turn")
    assert pos == before


@SETTINGS
@given(positions())
def test_each_player_always_has_cards_1_to_5_between_hand_aside_and_table(pos):
    for colour in pos.colours:
        assert _cards(pos, colour) == Counter([1, 2, 3, 4, 5])


@SETTINGS
@given(round_starts())
def test_between_rounds_one_player_holds_five_cards_and_the_other_three(pos):
    sizes = sorted((len(pos.hands()[c]), len(pos.aside()[c])) for c in pos.colours)
    assert sizes == [(3, 2), (5, 0)]


@SETTINGS
@given(positions())
def test_both_players_have_written_as_many_letters_after_each_round(pos):
    x, o = _letters(pos, "x"), _letters(pos, "o")
    cells = sum(pos.grid.is_cell(a) for a in pos.actions)
    assert x + o == cells
    if pos.phase in ("aside", "choose"):
        assert x == o and x % 2 == 0
    else:
        assert abs(x - o) <= 2


@SETTINGS
@given(round_starts(), st.data())
def test_a_single_choice_changes_nothing_public(pos, data):
    player = data.draw(st.sampled_from(pos.to_move))
    after = pos.copy()
    after.play(data.draw(st.sampled_from(pos.legal_actions(player))), player)
    public = lambda p: (p.hands(), p.aside(), p.board_rows(), p.last_turn(), p.revealed(),  # noqa: E731
                        p.legal_actions(p.other(player)), p.to_json()["hands"], p.to_json()["board"])
    assert public(after) == public(pos)
    assert after.public_actions() == pos.public_actions() + [f"{player}:?"]


@SETTINGS
@given(positions())
def test_a_record_replays_to_the_same_position(pos):
    assert Record.of(pos).replay() == pos
    assert Record.from_text(Record.of(pos).to_text()).replay() == pos


@settings(max_examples=25, deadline=None)
@given(positions(finished=True))
def test_games_end_by_connection(pos):
    assert pos.outcome is not None and pos.outcome.reason.value == "connection"
    assert len(pos.winning_chain()) >= 11


@SETTINGS
@given(positions(), st.integers(0, 2**32))
def test_the_fast_playout_gives_a_game_that_replays_to_its_outcome(pos, seed):
    log: list[str] = []
    before = pos.copy()
    outcome = pos.random_playout(random.Random(seed), log)
    assert pos == before
    replayed = pos.copy()
    for action in log:
        replayed.play(action)
    assert replayed.outcome == outcome


@SETTINGS
@given(positions(), st.text(alphabet=st.characters(blacklist_characters="0123456789aA"), max_size=12))
def test_text_without_cards_or_cells_is_a_notation_error(pos, text):
    assume(pos.outcome is None)
    before = pos.copy()
    try:
        pos.play(text)
    except NotationError:
        pass
    else:
        raise AssertionError(f"{text!r} was accepted")
    assert pos == before


@SETTINGS
@given(positions(), st.data())
def test_notation_that_is_not_legal_now_is_an_illegal_action(pos, data):
    assume(pos.outcome is None)
    player = data.draw(st.sampled_from(pos.to_move))
    if pos.phase == "write":
        action = pos.grid.name(data.draw(st.integers(0, 120)))
    else:
        a, b = sorted(data.draw(st.lists(st.integers(1, 5), min_size=2, max_size=2, unique=True)))
        action = f"aside {a}+{b}" if pos.phase == "aside" else f"{player}:{a}+{b}"
    assume(action not in pos.legal_actions(player))
    before = pos.copy()
    try:
        pos.play(action, player)
    except IllegalActionError:
        pass
    else:
        raise AssertionError(f"{action} was accepted")
    assert pos == before
