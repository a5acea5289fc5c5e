"""Hex knowledge of the AI: virtual connections (H-search), mustplay, inferior cells, proven wins.

Hand-built positions; each claim the knowledge makes is checked against an
exhaustive search where the board is small enough. No test depends on time.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine import new_game
from engine.ai import choose
from engine.ai.hex import ai as hex_ai
from engine.ai.hex import vc as hex_vc
from engine.ai.hex.ai import HexState
from engine.ai.hex.inferior import captured_pairs, dead_cells, fill_in, inferior
from engine.ai.hex.ladder import hopeless_pushes
from engine.ai.hex.vc import EDGE_TEMPLATES, analyse, edge_templates, edge_vcs
from engine.ai.mcts import Params, Search
from engine.geometry import LETTERS, HexGrid, bits, grid

from .hex_solver import HexSolver


def _mask(g: HexGrid, cells: str) -> int:
    return sum(1 << g.parse(c) for c in cells.split())


def _replay(n: int, moves: str):
    pos = new_game("hex", n)
    for m in moves.split():
        pos.play(m)
    return pos


_SOLVERS: dict[int, HexSolver] = {}


def _black_wins(g: HexGrid, black: int, white: int, black_to_move: bool = False) -> bool:
    """Exact search (small boards): does Black win, White to move (or Black)? One solver per
    board size, so its memo serves every question asked of that size."""
    solver = _SOLVERS.get(g.n)
    if solver is None:
        solver = _SOLVERS[g.n] = HexSolver(g)
    return solver.value(black, white, black_to_move, True)


# -- templates ---------------------------------------------------------------------------
ZIGGURAT = "d1 e1 f1 g1 d2 e2 f2 d3"


def test_hsearch_derives_connections_between_two_empty_cells():
    """A win whose proof needs a connection with an empty cell at each end: the full search finds
    it, the narrow one (a group at one end, used inside the tree) does not; exhaustive search agrees."""
    g = grid(5)
    # White's e2 d3 e4 leave Black that one way and keep the exact check to seconds.
    black, white = _mask(g, "a3 e3 b4 c4"), _mask(g, "e1 e2 d3 d4 e4 e5")
    assert edge_vcs(g, black, white, True).fulls
    assert not edge_vcs(g, black, white, True, narrow=True).fulls
    assert _black_wins(g, black, white)


def test_hsearch_finds_the_row_two_template():
    g = grid(9)
    found = edge_vcs(g, _mask(g, "e2 e3 e4 e5 e6 e7 e8 e9"), 0, True)
    assert _mask(g, "e1 f1") in found.fulls


def test_hsearch_finds_the_ziggurat():
    """Template IIIa: a third-row stone is connected to its edge through 8 empty cells."""
    g = grid(9)
    found = edge_vcs(g, _mask(g, "e3 e4 e5 e6 e7 e8 e9"), 0, True)
    assert _mask(g, ZIGGURAT) in found.fulls


def test_the_ziggurat_carrier_alone_holds_against_every_defence():
    """Every empty cell outside the carrier given to White: Black still wins with White to move."""
    g = grid(5)
    black = _mask(g, "c3 c4 c5")
    carrier = _mask(g, "b1 c1 d1 e1 b2 c2 d2 b3")
    white = g.full & ~(black | carrier)
    assert carrier in edge_vcs(g, black, white, True).fulls
    assert _black_wins(g, black, white)


def test_hsearch_does_not_see_a_connection_through_a_cut():
    """A third-row stone cut from its edge by White on row 2 (5×5, where exhaustive search shows that
    Black loses even moving first): the H-search claims neither a full nor a semi connection."""
    g = grid(5)
    black, white = _mask(g, "c3 c4 c5"), _mask(g, "b2 c2 d2 e2")
    assert not _black_wins(g, black, white, True)
    found = edge_vcs(g, black, white, True)
    assert not found.fulls and not found.semis




def test_the_or_rule_joins_two_ladders_that_each_reach_the_own_edge():
    """Black's wall e3–e9 cut from the top by e2 and f2 has a semi on each side (c3, g2: each starts a
    ladder down to Black's bottom edge), with carriers that share no cell: a full connection.
    (A greedy OR rule, taking older semis in turn, missed it.)"""
    g = grid(9)
    found = edge_vcs(g, _mask(g, "e3 e4 e5 e6 e7 e8 e9"), _mask(g, "e2 f2"), True)
    assert found.fulls

@pytest.mark.parametrize("narrow", [False, True], ids=["full", "narrow"])
def test_hsearch_joins_a_group_to_its_edge_past_a_ziggurat_as_mohex_does(narrow):
    """From a 9×9 game against MoHex (White's left side made solid): White's group g3–c6 reaches its
    right edge through h2 (next to i1), or through h3 and then i3, or h4 and g5's ziggurat. MoHex's
    connections have exactly this carrier; finding it takes the OR rule over three semis of h4's
    and a semi through a group from an empty cell, both of which the narrow search does too."""
    g = grid(9)
    white = _mask(g, "g3 e5 i1 g5 f4 d6 b8 c6 b4 c5 b5 a5")
    black = _mask(g, "f6 f3 i2 g4 f5 d5 b7 c7 a6")
    found = edge_vcs(g, white, black, False, narrow=narrow)
    assert _mask(g, "h2 h3 i3 h4 i4 h5 i5 g6 h6 i6") in found.fulls

def _column(g: HexGrid, col: str, first_row: int) -> int:
    """Black stones from ``first_row`` down to the bottom edge of column ``col``."""
    return sum(1 << g.parse(f"{col}{r}") for r in range(first_row, g.n + 1))


def _transposed(g: HexGrid, mask: int) -> int:
    """The same cells with column and row swapped (Black's top edge becomes White's left one)."""
    return sum(1 << g.index(c // g.n, c % g.n) for c in bits(mask))


def _reaches_edge(g: HexGrid, own: int, carrier: int, anchor: int, edge: int) -> bool:
    """Exhaustive search: the opponent owns every cell outside ``carrier`` and moves first inside
    it; does the owner's stone ``anchor`` still reach ``edge``, whatever the opponent does?"""

    @cache
    def holds(own: int, empty: int, owner_to_move: bool) -> bool:
        if g.component(own, 1 << anchor) & edge:
            return True
        if not g.component(own | empty, 1 << anchor) & edge:
            return False  # cut off even with every empty cell
        cells = bits(empty)
        if owner_to_move:
            return any(holds(own | 1 << c, empty & ~(1 << c), False) for c in cells)
        return all(holds(own, empty & ~(1 << c), True) for c in cells)

    return holds(own | 1 << anchor, carrier, False)


@pytest.mark.parametrize("n", [6, 9])
def test_every_seeded_edge_template_holds_against_every_defence(n):
    """Each placement of each seeded template (both mirror forms, all four edges, every place
    along the edge where the carrier fits, corners included): the anchor stone reaches its edge
    through the carrier alone, the opponent moving first (exhaustive search)."""
    g = grid(n)
    placed = 0
    for vertical in (True, False):
        edges = (g.top, g.bottom) if vertical else (g.left, g.right)
        for side, edge in enumerate(edges):
            for anchor, carrier in edge_templates(n, vertical, side):
                placed += 1
                assert not carrier >> anchor & 1 and not carrier & ~g.full
                assert _reaches_edge(g, 0, carrier, anchor, edge), (vertical, side, g.name(anchor))
    # the ziggurat is four cells wide on the edge row: n - 3 places per form and edge
    assert set(EDGE_TEMPLATES) == {"IIIa"} and placed == 4 * 2 * (n - 3)


def test_a_seeded_template_with_an_opponent_stone_in_its_carrier_is_not_used():
    """White's f1 sits in the ziggurat of e3 and in its mirror image: neither connects e3
    (its only other way, the bridge to d2, fails too: White holds d1 and e1)."""
    g = grid(9)
    black = _mask(g, "e3") | _column(g, "e", 4)
    assert not edge_vcs(g, black, _mask(g, "f1 d1 e1"), True).fulls
    assert edge_vcs(g, black, _mask(g, "a1"), True).fulls


@pytest.mark.parametrize("n, col", [(9, "d"), (11, "c"), (11, "f")])
def test_hsearch_connects_a_fourth_row_stone_to_its_edge(n, col):
    """Template IV-1a: a lone stone on the fourth row is connected to its edge (found from the
    seeded ziggurats of the cells it threatens), on each of the four edges."""
    g = grid(n)
    black = _column(g, col, 4)
    found = edge_vcs(g, black, 0, True)
    assert found.fulls
    carrier = min(found.fulls, key=int.bit_count)
    assert not carrier & g.full & ~(g.expand(g.top) | g.expand(g.expand(g.top)) | g.expand(black))
    assert edge_vcs(g, _transposed(g, black), 0, False).fulls
    # turned by half a turn: the stone on the fourth row from the bottom, the column to the top
    turned = sum(1 << (g.cells - 1 - c) for c in bits(black))
    assert edge_vcs(g, turned, 0, True).fulls and edge_vcs(g, _transposed(g, turned), 0, False).fulls


def test_every_intrusion_into_the_fourth_row_connection_has_an_answer():
    """White intrudes anywhere in the carrier of d4's connection: some Black reply leaves a full
    connection (a ziggurat or smaller, each checked exhaustively above) avoiding White's stone."""
    g = grid(9)
    black = _column(g, "d", 4)
    carrier = min(edge_vcs(g, black, 0, True).fulls, key=int.bit_count)
    outside = g.full & ~(black | carrier)
    for x in bits(carrier):
        white = outside | 1 << x
        assert any(
            edge_vcs(g, black | 1 << y, white, True).fulls for y in bits(carrier & ~(1 << x))
        ), g.name(x)


@pytest.mark.parametrize("black_to_move", [True, False])
def test_a_fourth_row_stone_completes_a_proven_win(black_to_move):
    """Black's chain runs from the bottom edge up to d4, the board otherwise empty but for a few
    White stones far away: a proven Black win whoever moves, and White's mustplay is empty."""
    g = grid(9)
    black = _column(g, "d", 4)
    white = _mask(g, "f6 g6 h6 i6 g7 h7")
    if black_to_move:
        assert analyse(g, black, white, True).mover_wins
    else:
        assert analyse(g, white, black, False).mover_loses


def _template_rich_positions(g: HexGrid, rng: random.Random, count: int):
    """Positions where a Black column reaches from the bottom edge to the fourth row below five
    columns of the three top rows, those nearly empty (where ziggurats of empty third-row
    cells fit) and everything else filled at random: at most 14 empty cells."""
    out = []
    while len(out) < count:
        c0 = rng.randint(0, g.n - 5)
        window = sum(1 << g.index(c, r) for r in range(3) for c in range(c0, c0 + 5))
        column = _column(g, LETTERS[c0 + rng.randint(0, 3)], 4)
        black, white = column, 0
        for x in bits(g.full & ~column):
            if not window >> x & 1 or rng.random() < 0.1:
                if rng.random() < 0.5:
                    black |= 1 << x
                else:
                    white |= 1 << x
        empty = g.full & ~(black | white)
        if empty.bit_count() <= 14 and not g.connects(black, True) and not g.connects(white, False):
            out.append((black, white))
    return out


def test_connections_through_seeded_templates_are_wins(monkeypatch):
    """Positions rich in ziggurats of empty third-row cells: each full connection and semi key
    reported, for Black and for White on the transposed board, is a real win (exhaustive search);
    and the seeded templates find connections the rules alone do not (fewer since the OR rule tries
    every combination of semis: it derives most ziggurats itself)."""
    g = grid(7)
    positions = _template_rich_positions(g, random.Random(7), 40)
    found = [(edge_vcs(g, b, w, True), edge_vcs(g, _transposed(g, b), _transposed(g, w), False)) for b, w in positions]
    with monkeypatch.context() as m:
        m.setattr(hex_vc, "edge_templates", lambda n, vertical, side: ())
        plain = [edge_vcs(g, b, w, True) for b, w in positions]
    more = [f for f, p in zip(found, plain) if len(f[0].fulls + f[0].semis) > len(p.fulls + p.semis)]
    assert more
    claims = 0
    for (black, white), results in zip(positions, found):
        if claims >= 12:
            break  # enough: each check is an exhaustive search
        for res, back in zip(results, (lambda m: m, lambda m: _transposed(g, m))):
            if res.fulls:
                claims += 1
                assert _black_wins(g, black, white)
            if res.semis:
                claims += 1
                assert _black_wins(g, black | back(1 << res.winning_move()), white)
    assert claims >= 12


@pytest.mark.parametrize("narrow", [False, True], ids=["full", "narrow"])
@pytest.mark.parametrize("size, seed", [(4, 1), (5, 2), (6, 3)])
def test_every_claimed_virtual_win_is_a_win(size, seed, narrow):
    """Random small positions: each full connection and semi key H-search reports is a real win,
    and every move outside the mustplay region loses (checked by exhaustive search); both the
    full search and the narrow one the tree uses."""
    g = grid(size)
    rng = random.Random(seed)
    claims = 0
    for _ in range(60):
        cells = list(range(g.cells))
        rng.shuffle(cells)
        k = rng.randint(max(2, g.cells - 11), g.cells - 6)
        black = sum(1 << c for c in cells[:k:2])
        white = sum(1 << c for c in cells[1:k:2])
        if g.connects(black, True) or g.connects(white, False):
            continue
        found = edge_vcs(g, black, white, True, narrow=narrow)
        if found.fulls:
            claims += 1
            assert _black_wins(g, black, white)
        if found.semis:
            claims += 1
            assert _black_wins(g, black | 1 << found.winning_move(), white)
        if found.fulls or found.semis:
            must = analyse(g, white, black, False, narrow=narrow).mustplay
            empty = g.full & ~(black | white)
            for c in range(g.cells):
                if empty >> c & 1 and not must >> c & 1:
                    assert _black_wins(g, black, white | 1 << c, black_to_move=True)
    assert claims >= 10


# -- playouts -----------------------------------------------------------------------------
def _state(g: HexGrid, black: int, white: int, black_to_move: bool) -> HexState:
    state = HexState(hex_ai.tables(g.n))
    state.black, state.white, state.black_to_move = black, white, black_to_move
    state.player = 0 if black_to_move else 1
    return state


@pytest.mark.parametrize("n", [5, 9, 11])
def test_every_edge_template_of_the_playouts_connects_whatever_the_split(n):
    """Each edge pattern the playouts keep (row 2, the ziggurat and its mirror image, on all four
    edges): the stone reaches its edge with one cell of each carrier pair, for every choice."""
    t = hex_ai.tables(n)
    g = t.g
    placed = 0
    for vertical in (True, False):
        edges = (g.top, g.bottom) if vertical else (g.left, g.right)
        for valid, partner, pairs in t.fill_patterns[vertical]:
            if partner is not None:
                continue
            for x in [c for c in range(g.cells) if valid >> c & 1]:
                placed += 1
                cells = [(x + a, x + b) for a, b in pairs]
                assert len({c for pair in cells for c in pair}) == 2 * len(cells)
                for choice in range(1 << len(cells)):
                    own = 1 << x | sum(1 << pair[choice >> j & 1] for j, pair in enumerate(cells))
                    reach = g.component(own, 1 << x)
                    assert reach & (edges[0] | edges[1]), (vertical, g.name(x), choice)
    # row 2: n - 1 places per edge; each ziggurat: n - 2 (its width is 4 cells on the edge row)
    assert placed == 2 * 2 * ((n - 1) + 2 * (n - 3))


def test_playouts_keep_a_ziggurat_connected():
    """Black's third-row stone c3 reaches the top only through its ziggurat, everything else
    White's: every playout (White to move, so White intrudes first) is a Black win."""
    g = grid(5)
    black = _mask(g, "c3 c4 c5")
    white = g.full & ~(black | _mask(g, "b1 c1 d1 e1 b2 c2 d2 b3"))
    state = _state(g, black, white, black_to_move=False)
    rng = random.Random(3)
    assert all(state.playout(rng)[0] == 0 for _ in range(300))


@pytest.mark.parametrize("black_to_move", [True, False])
def test_crossing_bridges_of_both_colours_both_hold_in_playouts(black_to_move):
    """Black's bridge d4-e5 (carriers e4, d5) and White's bridge c5-d6 (carriers d5, c6) share
    d5: whoever gets d5, the other side answers with its second carrier, so in every playout
    each side keeps one cell of its own pair."""
    g = grid(9)
    state = _state(g, _mask(g, "d4 e5"), _mask(g, "c5 d6"), black_to_move)
    rng = random.Random(4)
    for _ in range(300):
        _, black, white = state.playout(rng)
        assert black & _mask(g, "e4 d5") and white & _mask(g, "d5 c6")


def test_the_answer_to_an_intrusion_into_a_ziggurat_gets_the_strongest_prior():
    """White's d1 intrudes into Black's ziggurat of e3 (carrier pair d1-e1): e1 keeps it and is
    the move the tree's priors favour most, like the answer to an intrusion into a bridge."""
    pos = _replay(9, "e3 a5 e4 a6 e5 a7 e6 b5 e7 b6 e8 b7 e9 d1")
    exp = HexState.from_position(pos).expand()
    by_move = dict(zip(exp.moves, zip(exp.prior_n, exp.prior_w)))
    answer = by_move.pop(pos.grid.parse("e1"))
    assert all(answer[1] > w for _, w in by_move.values())


@pytest.mark.parametrize("black_to_move", [True, False])
def test_a_playout_fills_every_empty_cell_and_gives_the_side_to_move_the_odd_one(black_to_move):
    """Stones stay, every empty cell is filled, and the side to move gets the odd cell of the
    75 empty ones, bridges and templates included."""
    g = grid(9)
    black, white = _mask(g, "e5 d6 c3"), _mask(g, "d5 f4 b8")
    state = _state(g, black, white, black_to_move)
    empty = g.full & ~(black | white)
    rng = random.Random(11)
    for _ in range(200):
        _, b, w = state.playout(rng)
        assert b & black == black and w & white == white and b & w == 0 and b | w == g.full
        mover, other = (b, w) if black_to_move else (w, b)
        assert ((mover & empty).bit_count(), (other & empty).bit_count()) == (38, 37)


def test_a_playout_gives_each_open_cell_to_either_colour_about_equally_often():
    """On an empty 9×9 board (no pattern applies) each cell is Black's in about half the playouts:
    a biased fill would skew every playout's winner toward some cells."""
    g = grid(9)
    state = _state(g, 0, 0, black_to_move=True)
    rng = random.Random(5)
    counts = [0] * g.cells
    for _ in range(4000):
        _, b, _ = state.playout(rng)
        for c in bits(b):
            counts[c] += 1
    assert all(abs(count - 4000 * 41 / 81) < 200 for count in counts)


def test_the_same_seed_gives_the_same_playout():
    """A playout is a function of the position and the search's random numbers."""
    g = grid(9)
    state = _state(g, _mask(g, "e5"), _mask(g, "d5"), black_to_move=True)
    assert state.playout(random.Random(8)) == state.playout(random.Random(8))


class _SplitMix64:
    """The playout kernel's random numbers, in Python."""

    MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)


def _reference_playout(t: hex_ai.HexTables, black: int, white: int, black_to_move: bool, seed: int):
    """The playout's fill written over Python bitboards, drawing the same random numbers:
    (Black wins, Black's cells, White's cells)."""
    g, rng = t.g, _SplitMix64(seed)
    empty = g.full & ~(black | white)
    given = {True: 0, False: 0}
    for colour in (black_to_move, not black_to_move):
        stones = black if colour else white
        for valid, partner, pairs in t.fill_patterns[colour]:
            for x in bits(valid & stones):
                if partner is not None and not stones >> (x + partner) & 1:
                    continue
                if any(not (empty >> (x + a) & 1 and empty >> (x + b) & 1) for a, b in pairs):
                    continue
                for a, b in pairs:
                    ab = 1 << (x + a) | 1 << (x + b)
                    if ab & given[colour]:
                        continue
                    free = ab & ~(given[colour] | given[not colour])
                    if free == ab:
                        keep = 1 << (x + a) if rng.next() & 1 else 1 << (x + b)
                        given[colour] |= keep
                        given[not colour] |= ab ^ keep
                    elif free:
                        given[colour] |= free
    rest = bits(empty & ~(given[True] | given[False]))
    want = (empty.bit_count() + 1) // 2 if black_to_move else empty.bit_count() // 2
    k = min(max(want - given[True].bit_count(), 0), len(rest))
    for i in range(k):
        j = i + rng.next() % (len(rest) - i)
        rest[i], rest[j] = rest[j], rest[i]
    fill = sum(1 << c for c in rest[:k])
    b = black | given[True] | fill
    w = white | given[False] | (empty & ~(given[True] | given[False]) & ~fill)
    return g.connects(b, True), b, w


@pytest.mark.parametrize("n", [3, 5, 9, 11, 13, 19])
def test_the_compiled_playout_fills_as_the_rules_written_over_bitboards(n):
    """Bridges, templates, the random rest and the winner, cell for cell, on boards of one to six
    64-bit words, sparse to crowded, either side to move."""
    t = hex_ai.tables(n)
    g = t.g
    rng = random.Random(n)
    for trial in range(24):
        density = (0.05, 0.15, 0.3, 0.5, 0.8)[trial % 5]
        black = white = 0
        for c in range(g.cells):
            u = rng.random()
            if u < density / 2:
                black |= 1 << c
            elif u < density:
                white |= 1 << c
        black_to_move = trial % 2 == 0
        seed = rng.getrandbits(63)
        state = _state(g, black, white, black_to_move)
        winner, b, w = state.playout(_Seeded(seed))
        assert (winner == 0, b, w) == _reference_playout(t, black, white, black_to_move, seed)


class _Seeded(random.Random):
    """A generator whose ``getrandbits`` gives one fixed seed (the playout draws one)."""

    def __init__(self, seed: int) -> None:
        super().__init__(0)
        self.seed_value = seed

    def getrandbits(self, k: int) -> int:
        return self.seed_value


def test_the_priors_favour_cells_near_stones_and_bridges_and_disfavour_the_bare_rim():
    """Black e5 alone on a 9×9 board, Black to move: a bridge cell and a cell in contact get the
    best prior, an open cell less, a rim cell away from stones the least."""
    g = grid(9)
    exp = _state(g, _mask(g, "e5"), _mask(g, "a9"), black_to_move=True).expand()
    prior = dict(zip(exp.moves, (w / n for n, w in zip(exp.prior_n, exp.prior_w))))
    bridge, contact, open_, rim = (prior[g.parse(c)] for c in ("f3", "e4", "c5", "a1"))
    assert bridge == contact > open_ > rim


# -- mustplay and proven wins ------------------------------------------------------------
def test_the_ai_answers_an_intrusion_into_the_ziggurat():
    """White played e2 inside Black's ziggurat: Black's one winning reply (by H-search) keeps it."""
    pos = _replay(9, "e3 a5 e4 a6 e5 a7 e6 b5 e7 b6 e8 b7 e9 e2")
    move = choose(pos, "hard", seed=1, iterations=1)
    after = pos.copy()
    after.play(move)
    g = pos.grid
    assert edge_vcs(g, after._stones("black"), after._stones("white"), True).won
    assert hex_ai.LAST is not None and (hex_ai.LAST.proven, hex_ai.LAST.by) == ("win", "vc")


def test_a_virtual_win_is_proven_long_before_the_end():
    """A chain of bridges from edge to edge: nothing is connected yet, but the win is proven."""
    pos = _replay(9, "e2 a1 d4 a2 c6 a3 b8 a4")
    choose(pos, "hard", seed=1, iterations=50)
    assert hex_ai.LAST is not None and hex_ai.LAST.proven == "win" and hex_ai.LAST.by == "vc"


def test_the_search_stays_in_the_mustplay_region():
    """White intruded into a bridge of Black's edge-to-edge chain and Black did not answer: Black
    has a semi connection (key e3), so White's root only considers the few cells that break it."""
    pos = _replay(9, "e2 d3 d4 a1 c6 a2 b8")
    state = HexState.from_position(pos)
    g = pos.grid
    must = analyse(g, state.white, state.black, False).mustplay
    assert must and must.bit_count() <= 12
    choose(pos, "hard", seed=3, iterations=200)
    assert hex_ai.LAST is not None
    assert must >> g.parse("e3") & 1
    assert g.parse(hex_ai.LAST.move) in [c for c in range(g.cells) if must >> c & 1]
    # Less the intrusions into Black's row-2 templates (f1 under e2, a9 b9 under b8): captured cells.
    assert hex_ai.LAST.mustplay == (must & ~_mask(g, "f1 a9 b9")).bit_count()


#: a position of a game against MoHex (Black to move) where White has semi connections (the narrow
#: H-search alone found one before the OR rule tried every combination of semis)
NARROW_ONLY = "e5 f3 d4 e6 d6 c8 d7 d8 c4 b6 e7 e8"


def test_the_root_keeps_the_opponents_connections_the_narrow_search_found():
    """The root runs both searches and keeps both: every semi of the narrow search's is among its own,
    and its mustplay is what both leave, not the whole board."""
    pos = _replay(9, NARROW_ONLY)
    state = HexState.from_position(pos)
    g = pos.grid
    k = hex_ai.knowledge(g, state.black, state.white, True)
    f = k.fill
    full = analyse(g, f.black, f.white, True)
    narrow = analyse(g, f.black, f.white, True, narrow=True)
    assert narrow.theirs.semis
    assert set(narrow.theirs.semis) <= set(k.vc.theirs.semis)
    assert k.vc.mustplay == full.mustplay & narrow.mustplay != k.empty


def test_merging_two_analyses_keeps_every_connection_once_and_both_answers():
    pos = _replay(9, NARROW_ONLY)
    state = HexState.from_position(pos)
    g = pos.grid
    full = analyse(g, state.black, state.white, True)
    narrow = analyse(g, state.black, state.white, True, narrow=True)
    merged = full.merged(narrow)
    for side in ("mine", "theirs"):
        a, b, m = getattr(full, side), getattr(narrow, side), getattr(merged, side)
        assert set(m.fulls) == set(a.fulls) | set(b.fulls) and len(m.fulls) == len(set(m.fulls))
        assert set(m.semis) == set(a.semis) | set(b.semis) and len(m.semis) == len(set(m.semis))
    answers = dict(merged.theirs.answers)
    for probe, cells in (*full.theirs.answers, *narrow.theirs.answers):
        assert answers[probe] & cells == cells
    assert merged.mustplay == full.mustplay & narrow.mustplay


def test_the_pre_search_proves_a_win_the_roots_connections_do_not_see():
    """Black's e2 leaves White no way out by the narrow H-search after it; the root's searches,
    before it, see no win: the pre-search finds it before the first playout."""
    pos = _replay(9, "e5 f3 d4 e6 d6 c8 d7 d8 c4 b6 e7 e8 g7 f9 h8 h7 g8 c3")
    state = HexState.from_position(pos)
    assert not hex_ai.knowledge(pos.grid, state.black, state.white, True, both_boards=True).vc.mover_wins
    choose(pos, "hard", seed=1, iterations=1)
    assert hex_ai.LAST is not None
    assert (hex_ai.LAST.move, hex_ai.LAST.proven, hex_ai.LAST.by) == ("e2", "win", "search")


def test_when_the_pre_search_proves_every_move_lost_the_search_still_runs_among_them():
    """White has a few moves its root's searches allow, and the narrow H-search after each finds
    Black's win: the search starts again on the real board among them, as for a lost position."""
    pos = _replay(9, "e5 e4 f4 g2 h2 g3 f3 d8 f7 f6 h5 g6 d7 f2 c8 d6 e6 b8 i3 g5 h6")
    state = HexState.from_position(pos)
    g = pos.grid
    k = hex_ai.knowledge(g, state.black, state.white, False, both_boards=True)
    assert not k.vc.mover_loses
    allowed = k.allowed & ~k.fill.filled
    assert allowed.bit_count() >= 2
    for c in bits(allowed):
        after = hex_ai.knowledge(g, k.fill.black, k.fill.white | 1 << c, True, hex_ai.REFINE_WORK, narrow=True)
        assert after.vc.mover_wins
    choose(pos, "hard", seed=1, iterations=200)
    assert hex_ai.LAST is not None and hex_ai.LAST.iterations > 0  # searched, not given up at once
    assert allowed >> pos.grid.parse(hex_ai.LAST.move) & 1


def test_often_visited_nodes_drop_moves_outside_their_mustplay():
    """In the tree, a node visited ``refine_at`` times gets an H-search: White's replies that
    leave Black's semi connection intact are proven losses and dropped (and only those)."""
    pos = _replay(9, "e2 d3 d4 a1 c6 a2 b8")
    g = pos.grid
    state = HexState.from_position(pos)
    must = analyse(g, state.white, state.black, False).mustplay
    plain = Search(state.copy(), random.Random(1), Params(rave_k=0.002, explore=0.2))
    plain.run(iterations=600)
    refined = Search(state.copy(), random.Random(1), Params(rave_k=0.002, explore=0.2, refine_at=5))
    refined.run(iterations=600)
    assert not plain.root.dropped
    assert len(refined.root.dropped) >= 10
    assert all(not must >> move & 1 for _, move in refined.root.dropped)


# -- answers to intrusions -------------------------------------------------------------------
def test_the_answer_to_an_intrusion_into_a_bridge_is_its_other_cell():
    g = grid(9)
    found = dict(edge_vcs(g, _mask(g, "e5 f3"), 0, True, answers=True).answers)
    assert found[g.parse("e4")] == _mask(g, "f4")
    assert found[g.parse("f4")] == _mask(g, "e4")


@pytest.mark.parametrize("black", ["b3", "b2 c3"])
def test_every_answer_to_an_intrusion_into_a_virtual_win_keeps_the_win(black: str):
    """4×4, Black's stones joined to both edges by templates: wherever White intrudes, each answer
    the H-search names wins for Black (exhaustive search, White to move)."""
    g = grid(4)
    stones = _mask(g, black)
    found = edge_vcs(g, stones, 0, True, answers=True)
    assert found.won and found.answers
    for probe, answers in found.answers:
        for answer in bits(answers):
            assert _black_wins(g, stones | 1 << answer, 1 << probe), (g.name(probe), g.name(answer))


def test_answers_are_only_worked_out_when_asked_for():
    g = grid(9)
    assert edge_vcs(g, _mask(g, "e5 f3"), 0, True).answers == ()


def test_answers_handed_to_a_state_lead_its_priors_and_policy_until_the_next_move():
    pos = _replay(9, "e5 a1")
    state = HexState.from_position(pos)
    c7 = pos.grid.parse("c7")
    state.take_answers(1 << c7)
    exp = state.expand()
    assert exp.prior_n[exp.moves.index(c7)] == max(exp.prior_n)
    probabilities = state.policy(exp.moves)
    assert exp.moves[probabilities.index(max(probabilities))] == c7
    state.play(pos.grid.parse("d4"))
    assert state.answers == 0


def test_the_root_answers_an_intrusion_into_a_ziggurat_inside_it():
    """Black f3 holds the top edge by its ziggurats; White's g2 breaks both, and e2 or f2 (White
    elsewhere) makes it whole again: those are the answers the root's search is handed."""
    pos = _replay(9, "e5 a9 f3 g2")
    state = HexState.from_position(pos)
    assert hex_ai._answers_to_last(state, (state.black, state.white)) == _mask(pos.grid, "e2 f2")


def test_a_refinement_names_the_opponents_answers():
    """White to move against Black's e5–f3 bridge: the node's refinement says Black answers e4 with f4."""
    pos = _replay(9, "e5 a1 f3")
    answers = HexState.from_position(pos).refine().answers
    assert answers is not None and answers[pos.grid.parse("e4")] == 1 << pos.grid.parse("f4")


# -- ladders --------------------------------------------------------------------------
def test_a_second_row_ladder_without_escape_is_hopeless():
    """Black's b2 is blocked by White's c1: pushing at c2 only makes White block at d1, e1...
    to the side of the board."""
    g = grid(9)
    hopeless = hopeless_pushes(9, _mask(g, "b2 c4"), _mask(g, "c1"), True)
    assert hopeless == _mask(g, "c2")


def test_a_ladder_escape_makes_the_push_worth_it():
    g = grid(9)
    assert not hopeless_pushes(9, _mask(g, "b2 c4 h2"), _mask(g, "c1"), True)
    assert not hopeless_pushes(9, _mask(g, "b2 c4 g1"), _mask(g, "c1"), True)


def test_ladders_are_read_on_every_edge_and_the_third_row():
    g = grid(9)
    assert hopeless_pushes(9, _mask(g, "g2 f4"), _mask(g, "g1"), True) == _mask(g, "f2")  # leftward
    assert hopeless_pushes(9, _mask(g, "h8 g6"), _mask(g, "g9"), True) == _mask(g, "g8")  # bottom edge
    assert hopeless_pushes(9, _mask(g, "b2 d3"), _mask(g, "a3"), False) == _mask(g, "b3")  # White's left edge
    assert hopeless_pushes(9, _mask(g, "b3 b5"), _mask(g, "c2"), True) == _mask(g, "c3")  # third row


def test_the_ai_does_not_push_a_hopeless_ladder():
    """Black to move with a dead-end ladder at the top: the search never plays the push c2."""
    pos = _replay(9, "b2 c1 e5 e4 d5 d4")
    assert hopeless_pushes(9, pos._stones("black"), pos._stones("white"), True) >> pos.grid.parse("c2") & 1
    for seed in range(3):
        assert choose(pos, "hard", seed=seed, iterations=150) != "c2"


# -- dead cells -------------------------------------------------------------------------
def test_a_cell_enclosed_by_four_stones_of_one_colour_is_dead():
    g = grid(5)
    # c3's neighbours d3, d2, c2, b3 are Black (four in a row around it).
    black = _mask(g, "d3 d2 c2 b3")
    assert dead_cells(g, black, 0) >> g.parse("c3") & 1


def test_a_cell_between_two_pairs_is_dead():
    g = grid(5)
    # Around c3: d3 d2 Black, b3 b4 White (two and two, facing each other).
    assert dead_cells(g, _mask(g, "d3 d2"), _mask(g, "b3 b4")) >> g.parse("c3") & 1


def test_an_edge_counts_as_its_owners_stones():
    g = grid(5)
    # c1 on Black's top edge has two "black" neighbours beyond it; with b1 and d1 Black
    # that makes four black neighbours in a row.
    assert dead_cells(g, _mask(g, "d1 b1"), 0) >> g.parse("c1") & 1
    assert not dead_cells(g, 0, 0)


def test_dead_cells_change_no_outcome():
    """Random 4×4 positions: giving a dead cell to either colour never changes the winner of any filling."""
    g = grid(4)
    rng = random.Random(5)
    checked = 0
    for _ in range(80):
        cells = list(range(16))
        rng.shuffle(cells)
        k = rng.randint(3, 9)
        black = sum(1 << c for c in cells[:k:2])
        white = sum(1 << c for c in cells[1:k:2])
        dead = dead_cells(g, black, white)
        empty = [c for c in range(16) if not (black | white) >> c & 1]
        for x in [c for c in empty if dead >> c & 1]:
            checked += 1
            others = [c for c in empty if c != x]
            for fill in range(1 << len(others)):
                b = black | sum(1 << others[j] for j in range(len(others)) if fill >> j & 1)
                assert g.connects(b | 1 << x, True) == g.connects(b, True)
    assert checked >= 20


def test_the_search_never_offers_a_dead_cell():
    pos = _replay(5, "c2 a5 d2 a4 b3 e5 d3")
    state = HexState.from_position(pos)
    moves = state.expand().moves
    assert pos.grid.parse("c3") not in moves and len(moves) > 5


# -- captured and vulnerable cells ---------------------------------------------------------
def _random_positions(g: HexGrid, rng: random.Random, count: int):
    """Random unfinished positions with 4 to n²-5 stones, Black having as many or one more."""
    out = []
    while len(out) < count:
        cells = list(range(g.cells))
        rng.shuffle(cells)
        k = rng.randint(4, g.cells - 5)
        black = sum(1 << c for c in cells[:k:2])
        white = sum(1 << c for c in cells[1:k:2])
        if not g.connects(black, True) and not g.connects(white, False):
            out.append((black, white))
    return out


def test_the_edge_cells_under_a_second_row_stone_are_captured_by_its_owner():
    g = grid(9)
    f = fill_in(g, _mask(g, "e2"), 0)
    assert f.captured_black == _mask(g, "e1 f1") and f.captured_white == 0
    assert f.black == _mask(g, "e2 e1 f1")


def test_a_bridge_carrier_is_not_captured():
    """Black c3 and d4 make a bridge over d3 and c4, but a White stone there is not dead (it still
    touches the rest of the board), so neither cell is filled."""
    g = grid(7)
    assert captured_pairs(g, _mask(g, "c3 d4"), 0, True) == []
    assert fill_in(g, _mask(g, "c3 d4"), 0).filled == 0


def test_filling_dead_and_captured_cells_changes_no_result():
    """Random 4×4 positions, exhaustively: the filled board has the same winner, whoever moves."""
    g = grid(4)
    filled = 0
    for black, white in _random_positions(g, random.Random(11), 250):
        f = fill_in(g, black, white)
        if f.filled:
            filled += 1
            for black_to_move in (True, False):
                assert _black_wins(g, f.black, f.white, black_to_move) == _black_wins(g, black, white, black_to_move)
    assert filled >= 120


def test_a_cell_an_opponent_stone_would_kill_is_left_out_but_its_killers_are_not():
    """c3 has White on d3, d2, c2 (three in a row around it): a White stone on b3 or c4 would make
    four, so a Black stone on c3 can be made worthless at once."""
    g = grid(5)
    _, out = inferior(g, 0, _mask(g, "d3 d2 c2"), True)
    assert out >> g.parse("c3") & 1
    assert not out >> g.parse("b3") & 1 and not out >> g.parse("c4") & 1
    assert not out >> g.parse("d4") & 1


def test_leaving_out_inferior_cells_keeps_a_winning_move():
    """Random 4×4 positions, exhaustively: whenever the mover has a winning move, one is kept."""
    g = grid(4)
    pruned = 0
    for black, white in _random_positions(g, random.Random(12), 250):
        for black_to_move in (True, False):
            _, out = inferior(g, black, white, black_to_move)
            if not out:
                continue
            pruned += 1
            empty = [c for c in range(g.cells) if not (black | white | out) >> c & 1]
            if black_to_move:
                kept = any(_black_wins(g, black | 1 << c, white, False) for c in empty)
                assert kept == _black_wins(g, black, white, True)
            else:
                kept = any(not _black_wins(g, black, white | 1 << c, True) for c in empty)
                assert kept == (not _black_wins(g, black, white, False))
    assert pruned >= 180


# A 9×9 game against MoHex, 12 moves in: Black to move has a virtual win the H-search finds
# only once the captured pairs are filled (Black's d1 e1 under d2 and e5 d6 between its stones, White's g1 f2).
FILLED_WIN = "e3 f1 f5 f4 d5 c7 e6 e7 d7 g2 d2 d4"


def test_a_win_hidden_by_captured_cells_is_proven_on_the_filled_board():
    pos = _replay(9, FILLED_WIN)
    state = HexState.from_position(pos)
    g = pos.grid
    assert not analyse(g, state.black, state.white, True).mover_wins
    k = hex_ai.knowledge(g, state.black, state.white, True)
    assert k.fill.captured_black and k.fill.captured_white
    assert k.vc.mover_wins
    choose(pos, "hard", seed=1, iterations=50)
    assert hex_ai.LAST is not None and hex_ai.LAST.proven == "win" and hex_ai.LAST.by == "vc"


def test_often_visited_nodes_drop_inferior_moves():
    """A node's refinement leaves out the intrusions into the opponent's captured pairs."""
    pos = _replay(9, "e2 e5")
    state = HexState.from_position(pos)
    assert state.black_to_move is True
    state.play(pos.grid.parse("c7"))  # Black; now White to move
    proven, allowed, _, _ = state.refine()
    assert proven is None and allowed is not None
    g = pos.grid
    assert g.parse("e1") not in allowed and g.parse("f1") not in allowed
    assert g.parse("d4") in allowed


# -- the settled board: the search plays on the filled position -----------------------------
def test_a_refinement_fills_the_captured_cells_and_no_longer_offers_them():
    """Black e2 captures e1 and f1 (row 2): the refinement gives them to Black and keeps them out."""
    pos = _replay(9, "e2 e5")
    g = pos.grid
    proven, allowed, fill, _ = HexState.from_position(pos).refine()
    assert proven is None and allowed is not None
    assert fill == (_mask(g, "e1 f1"), 0)
    assert not allowed & {g.parse("e1"), g.parse("f1")}


def test_a_refined_node_gives_its_fill_to_every_state_below_it():
    """White to move after Black e2: each of White's replies the search refines gives e1 and f1 to
    Black, so the nodes grown below it offer neither cell."""
    pos = _replay(9, "e2")
    g = pos.grid
    search = Search(HexState.from_position(pos), random.Random(3), Params(rave_k=0.002, explore=0.2, refine_at=5))
    search.run(iterations=800)
    e1f1 = _mask(g, "e1 f1")
    refined = [c for c in search.root.children if c is not None and c.fill is not None]
    assert len(refined) >= 3
    grown_below = 0
    for node in refined:
        assert isinstance(node.fill, tuple) and node.fill[0] & e1f1 == e1f1
        for grandchild in node.children:
            if grandchild is not None:
                grown_below += 1
                assert not set(grandchild.moves) & {g.parse("e1"), g.parse("f1")}
    assert grown_below >= 3


def test_the_best_level_starts_on_the_settled_board_and_the_easy_one_on_the_real_board():
    # e1 and f1 are captured for Black's e2; the other stones take the position out of the opening book.
    pos = _replay(9, "e2 e5 c6 g4 d7")
    choose(pos, "hard", seed=1, iterations=50)
    assert hex_ai.LAST is not None and not hex_ai.LAST.book and hex_ai.LAST.filled == 2
    assert hex_ai.LAST.move not in ("e1", "f1")
    choose(pos, "easy", seed=1, iterations=50)
    assert hex_ai.LAST is not None and hex_ai.LAST.filled == 0


def test_the_board_as_it_is_is_not_searched_again_when_nothing_was_filled(monkeypatch):
    """With no dead or captured cell the filled board is the board itself: the full and the narrow
    search run on it once each, not a third time as "the board as it is"."""
    pos = _replay(9, "e5 f3 d4")
    state = HexState.from_position(pos)
    assert not inferior(pos.grid, state.black, state.white, False)[0].filled
    narrow_flags: list[bool] = []

    def counted(g, mine, theirs, vertical, max_work=400_000, narrow=False, stop=None):
        narrow_flags.append(narrow)
        return analyse(g, mine, theirs, vertical, max_work, narrow, stop=stop)

    monkeypatch.setattr(hex_ai, "analyse", counted)
    k = hex_ai.knowledge(pos.grid, state.black, state.white, False, both_boards=True)
    assert not (k.vc.mover_wins or k.vc.mover_loses)
    assert sorted(narrow_flags) == [False, True]
