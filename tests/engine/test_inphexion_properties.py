"""Properties of inpHeXion positions reached by random legal play (sizes 5 and 7, all 8 variant sets)."""

from __future__ import annotations

import re
from itertools import combinations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import ActionError, IllegalActionError, NotationError, Record, new_game
from engine.inphexion import full_hand
from engine.notation import normalize

VARIANTS = [c for k in range(4) for c in combinations(("free-reply", "neutral", "pie"), k)]
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_CELL = re.compile(r"^([a-z])(\d{1,2})$")


@st.composite
def positions(draw, finished: bool = False):
    """An inpHeXion position after random legal actions (to the end if ``finished``).

    Half of the unfinished ones stop at the first relocation, which random play
    otherwise reaches rarely.
    """
    n = draw(st.sampled_from([5, 7]))
    variants = draw(st.sampled_from(VARIANTS))
    rng = draw(st.randoms(use_true_random=False))
    pos = new_game("inphexion", n, variants)
    steps = 10 * n * n if finished else draw(st.integers(0, 2 * n * n))
    stop_at_relocation = not finished and draw(st.booleans())
    for _ in range(steps):
        if pos.outcome is not None or (stop_at_relocation and pos.phase == "relocate"):
            break
        pos.play(rng.choice(pos.legal_actions()))
    return pos


def _is_cell(text: str, n: int) -> bool:
    m = _CELL.match(text)
    return bool(m) and ord(m.group(1)) - 97 < n and 1 <= int(m.group(2)) <= n


def _is_notation(text: str, n: int) -> bool:
    """Whether ``text`` is written in inpHeXion notation (RULES.md §5), legal or not."""
    try:
        line = normalize(text)
    except NotationError:
        return False
    for tok in re.sub(r"\s*>\s*", ">", line).split(" "):
        parts = tok.split(">")
        if tok != "swap" and not (len(parts) <= 2 and all(_is_cell(p, n) for p in parts)):
            return False
    return True


def _unchanged_after_refusal(pos, text: str) -> type[ActionError] | None:
    """Play ``text``; if refused, check nothing changed and return the error's class."""
    before, actions = pos.copy(), list(pos.actions)
    try:
        pos.play(text)
    except ActionError as exc:
        assert pos == before and pos.actions == actions
        return type(exc)
    return None


# -- legal actions -----------------------------------------------------------------------------------
@SETTINGS
@given(positions())
def test_every_listed_legal_action_is_accepted_as_written(pos):
    for action in pos.legal_actions():
        assert pos.copy().play(action) == [action]


@SETTINGS
@given(positions())
def test_a_game_in_progress_always_has_a_legal_action_for_the_one_player_to_move(pos):
    if pos.outcome is None:
        assert len(pos.to_move) == 1 and pos.legal_actions(pos.to_move[0])
        assert pos.legal_actions(pos.other(pos.to_move[0])) == []
    else:
        assert (pos.to_move, pos.phase, pos.legal_actions()) == ([], "over", [])


@SETTINGS
@given(positions())
def test_internal_steps_are_the_legal_actions(pos):
    assert sorted(pos._move_text(m) for m in pos._legal_moves()) == pos.legal_actions()


@SETTINGS
@given(positions(), st.randoms(use_true_random=False))
def test_a_whole_turn_on_one_line_equals_its_steps_one_by_one(pos, rng):
    assume(pos.outcome is None and pos.phase == "move")
    steps = pos.copy()
    texts = []
    side = steps.to_move
    while True:
        step = rng.choice(steps._legal_moves())
        texts.append(steps._move_text(step))
        steps.play(texts[-1])
        if steps.outcome is not None or steps.phase != "relocate" or steps.to_move != side:
            break
    assert pos.play(" ".join(texts)) == texts
    assert pos == steps and pos.actions == steps.actions


# -- refused actions -------------------------------------------------------------------------------
TEXTS = st.one_of(
    st.text(max_size=10),
    st.from_regex(r"\s*(move\s+)?[a-hA-H][0-9]{1,2}(\s*[- ]\s*[a-hA-H][0-9]{1,2})?\s*", fullmatch=True),
    st.from_regex(r"[a-h][1-8]\s*>\s*[a-h][1-8]", fullmatch=True),
    st.sampled_from(["swap", " SWAP ", "pass", "c4 d4 e7", "c4>", "move", "a1 a2 a3 a4"]),
)


@SETTINGS
@given(positions(), TEXTS)
def test_refused_text_raises_the_right_error_class_and_changes_nothing(pos, text):
    assume(pos.outcome is None)
    error = _unchanged_after_refusal(pos, text)
    if error is not None:
        assert (error is NotationError) == (not _is_notation(text, pos.size)), (text, error)


@SETTINGS
@given(positions(), st.data())
def test_a_step_that_is_not_listed_is_illegal_and_changes_nothing(pos, data):
    assume(pos.outcome is None)
    g = pos.grid
    a, b = (g.name(data.draw(st.integers(0, g.cells - 1))) for _ in range(2))
    text = data.draw(st.sampled_from([a, f"{a} {b}", f"{a}>{b}", "swap"]))
    legal = pos.legal_actions()
    pending = pos.pending_relocations()
    if pos.phase == "relocate" and len(pending) == 1 and " " not in text and ">" not in text:
        assume(f"{g.name(pending[0])}>{text}" not in legal)  # the one-disc shorthand
    assume(text not in legal)
    assert _unchanged_after_refusal(pos, text) is IllegalActionError


@SETTINGS
@given(positions(finished=True))
def test_a_finished_game_refuses_every_action(pos):
    assert _unchanged_after_refusal(pos, "swap") is not None
    assert _unchanged_after_refusal(pos, "a1 a2") is not None


# -- records and conservation ----------------------------------------------------------------------
@SETTINGS
@given(positions())
def test_replaying_the_record_gives_an_equal_position(pos):
    again = Record.from_text(Record.of(pos).to_text()).replay()
    assert again == pos and again.actions == pos.actions


@SETTINGS
@given(positions())
def test_discs_on_the_board_and_in_hand_are_conserved(pos):
    neutral = "neutral" in pos.options.variants
    full = full_hand(pos.size, neutral)
    on_board = {c: len(pos.discs(c)) for c in ("white", "black", "neutral")}
    assert on_board["white"] + pos.hands()["white"] == full
    assert on_board["black"] + pos.hands()["black"] == full
    assert on_board["neutral"] == int(neutral)


@SETTINGS
@given(positions(finished=True))
def test_games_end_before_the_hands_run_out(pos):
    assert pos.outcome is not None
    main_actions = [a for a in pos.actions if ">" not in a and a != "swap"]
    assert len(main_actions) <= 2 * full_hand(pos.size, "neutral" in pos.options.variants)
    assert pos.actions.count("swap") <= 1


# -- the fast random game -------------------------------------------------------------------------------
@SETTINGS
@given(positions(), st.randoms(use_true_random=False))
def test_the_fast_random_game_replays_through_play_to_the_same_outcome(pos, rng):
    before = pos.copy()
    log: list[str] = []
    outcome = pos.random_playout(rng, log)
    assert pos == before and pos.actions == before.actions
    replayed = pos.copy()
    for action in log:
        replayed.play(action)
    assert replayed.outcome == outcome


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(VARIANTS), st.randoms(use_true_random=False))
def test_every_step_of_the_fast_random_game_is_a_listed_legal_action(variants, rng):
    pos = new_game("inphexion", 5, variants)
    log: list[str] = []
    outcome = pos.random_playout(rng, log)
    for action in log:
        assert action in pos.legal_actions()
        pos.play(action)
    assert pos.outcome == outcome


# -- agreement with a brute-force reading of the rules ------------------------------------------------
def _surrounded(pos, mover: str) -> set[int]:
    """Every enemy disc of ``mover`` whose neighbours all hold ``mover``'s discs (a full scan)."""
    g = pos.grid
    return {
        x for x in range(g.cells)
        if pos.piece_at(x) not in (None, mover) and all(pos.piece_at(j) == mover for j in g.neighbours[x])
    }


def _connects(pos, colour: str) -> bool:
    stones = sum(1 << i for i in range(pos.grid.cells) if pos.piece_at(i) == colour)
    return pos.grid.connects(stones, colour == pos.vertical)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(VARIANTS), st.sampled_from([5, 7]), st.randoms(use_true_random=False))
def test_relocations_and_endings_agree_with_a_full_board_scan(variants, n, rng):
    pos = new_game("inphexion", n, variants)
    while pos.outcome is None:
        mover, phase = pos.to_move[0], pos.phase
        already = _surrounded(pos, mover)
        action = rng.choice(pos.legal_actions())
        pos.play(action)
        fresh = _surrounded(pos, mover) - already
        over = pos.outcome
        if over is not None and over.reason.value == "connection":
            assert _connects(pos, over.winner) and not _connects(pos, pos.other(over.winner))
            continue
        assert not _connects(pos, "white") and not _connects(pos, "black")
        if phase == "relocate" or action == "swap":
            continue
        empty = sum(pos.piece_at(i) is None for i in range(pos.grid.cells))
        if over is not None and over.reason.value == "cannot-relocate":
            assert over.winner != mover and len(fresh) > empty
        elif fresh:
            assert pos.phase == "relocate" and set(pos.pending_relocations()) == fresh
        else:
            assert pos.phase != "relocate"
        if over is not None and over.reason.value == "no-legal-move":
            g, stuck = pos.grid, pos.other(mover)
            movable = [x for x in range(g.cells) if pos.piece_at(x) not in (None, stuck)
                       and any(pos.piece_at(j) is None for j in g.neighbours[x])]
            assert over.winner == mover and (not movable or pos.hands()[stuck] == 0)
