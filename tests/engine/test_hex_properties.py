"""Properties of Hex positions reached by random legal play (sizes 3–11, each pie rule)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import ActionError, IllegalActionError, NotationError, Record, new_game
from engine.notation import normalize

VARIANTS = [(), ("swap",), ("swap-pieces",)]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positions(draw, finished: bool = False):
    """A Hex position after random legal actions (to the end if ``finished``)."""
    n = draw(st.integers(3, 11))
    variants = draw(st.sampled_from(VARIANTS))
    rng = draw(st.randoms(use_true_random=False))
    pos = new_game("hex", n, variants)
    steps = n * n + 1 if finished else draw(st.integers(0, n * n))
    for _ in range(steps):
        if pos.outcome is not None:
            break
        pos.play(rng.choice(pos.legal_actions()))
    return pos


def _expected_error(pos, text: str) -> type[ActionError] | None:
    """The error class ``text`` must raise (None if it is legal)."""
    try:
        line = normalize(text)
    except NotationError:
        return NotationError
    if line in pos.legal_actions():
        return None
    if line == "swap":
        return IllegalActionError
    try:
        cell = pos.grid.parse(line)
    except NotationError:
        return NotationError
    # "a01" names a1: legal when a1 is
    return None if pos.grid.name(cell) in pos.legal_actions() else IllegalActionError


@SETTINGS
@given(positions())
def test_every_listed_legal_action_is_accepted(pos):
    for action in pos.legal_actions():
        assert pos.copy().play(action) == [action]


@SETTINGS
@given(positions(), st.one_of(st.text(max_size=8), st.from_regex(r"\s*[a-uA-U]\s*[0-9]{1,2}\s*", fullmatch=True),
                              st.sampled_from(["swap", " SWAP ", "move e5", "e5-f6", "pass"])))
def test_refused_text_raises_its_typed_error_and_changes_nothing(pos, text):
    expected = _expected_error(pos, text)
    assume(expected is not None and pos.outcome is None)
    before, actions = pos.copy(), list(pos.actions)
    try:
        pos.play(text)
    except ActionError as exc:
        assert type(exc) is expected, (text, exc)
    else:
        raise AssertionError(f"{text!r} was accepted")
    assert pos == before and pos.actions == actions


@SETTINGS
@given(positions(), st.data())
def test_an_occupied_cell_is_illegal(pos, data):
    taken = [i for i in range(pos.grid.cells) if pos.piece_at(i) is not None]
    assume(taken and pos.outcome is None)
    cell = pos.grid.name(data.draw(st.sampled_from(taken)))
    before = pos.copy()
    try:
        pos.play(cell)
    except IllegalActionError:
        pass
    else:
        raise AssertionError(f"{cell} was accepted although taken")
    assert pos == before


@SETTINGS
@given(positions())
def test_a_record_replays_to_the_same_position(pos):
    assert Record.of(pos).replay() == pos
    assert Record.from_text(Record.of(pos).to_text()).replay() == pos


@SETTINGS
@given(positions(finished=True))
def test_games_end_with_exactly_one_connection(pos):
    g = pos.grid
    assert pos.outcome is not None and pos.outcome.reason.value == "connection"
    assert len(pos.actions) <= g.cells + 1
    stones = {c: sum(1 << i for i in range(g.cells) if pos.piece_at(i) == c) for c in pos.colours}
    assert g.connects(stones[pos.outcome.winner], pos.outcome.winner == "black")
    loser = pos.other(pos.outcome.winner)
    assert not g.connects(stones[loser], loser == "black")


@SETTINGS
@given(positions())
def test_the_stone_placed_has_the_colour_that_was_to_move(pos):
    assume(pos.outcome is None)
    mover = pos.to_move[0]
    cell = pos.legal_actions()[0]
    assume(cell != "swap")
    pos.play(cell)
    assert pos.piece_at(pos.grid.parse(cell)) == mover


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
@given(st.integers(3, 11), st.sampled_from(VARIANTS), st.booleans(), st.randoms(use_true_random=False))
def test_stone_counts_match_the_placements_in_every_position(n, variants, take_swap, rng):
    # Random choice would almost never pick swap among n² cells, so whether the pie
    # rule is used is drawn on its own.
    pos = new_game("hex", n, variants)
    while True:
        black = sum(pos.piece_at(i) == "black" for i in range(pos.grid.cells))
        white = sum(pos.piece_at(i) == "white" for i in range(pos.grid.cells))
        placements = sum(action != "swap" for action in pos.actions)
        # swap-pieces turns the first black stone white without adding one, so from
        # then on White is one stone ahead or level; otherwise Black is level or one ahead.
        pieces_swapped = "swap-pieces" in variants and "swap" in pos.actions
        assert black + white == placements, pos.actions
        assert black - white in ({-1, 0} if pieces_swapped else {0, 1}), pos.actions
        if pos.outcome is not None:
            break
        legal = pos.legal_actions()
        if "swap" in legal and take_swap:
            pos.play("swap")
        else:
            pos.play(rng.choice([a for a in legal if a != "swap"]))
