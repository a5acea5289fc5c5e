"""Swiss pairing: one maximum-weight matching whose weights encode the pairing rules in order of priority.

Every pair of active players (and, in an odd field, each player with a "bye"
node) is an edge of a complete graph; networkx's ``max_weight_matching`` with
``maxcardinality=True`` picks a perfect matching of greatest total weight. An
edge's weight is a large constant less a penalty made of five layers, each
worth more than the most all lower layers can add up to over a whole round,
so the matching settles them strictly in this order:

1. nobody meets the same opponent twice, nor has a second bye (unless the
   field leaves no other way);
2. the bye goes to the lowest-ranked player who has not had one;
3. players are paired within their score group: a pair whose points differ
   by ``d`` costs ``d²`` (one long float costs more than two short ones);
4. seats: a pair in which both want the same seat costs the weaker wish
   (:mod:`bot.tournaments.seats`);
5. within a score group the top half meets the bottom half in rank order
   (1 v 5, 2 v 6, ... in a group of 8, as the Dutch system does), and a
   player floating down meets the top of the group below.

Before all of these, when another round follows, the pairing should leave
that round pairable without a rematch: if the best matching does not, each
of its games is in turn weighed as a rematch and the best matching that does
is taken (a one-round look-ahead, like the Dutch system's completion rule but
shorter; it is what keeps a six-player Swiss of four rounds free of rematches).

The matching is first found among the games inside a score group or between
neighbouring groups only, and kept when it provably is the best of the whole
graph (:func:`_proven_best`); otherwise the whole graph is matched.

Ranking is points, then seed. The graph is built in rank order and integer
weights keep the matching exact, so the same tournament always pairs the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx  # type: ignore[import-untyped]  # no stubs in the dev install

from .history import Outing, histories, points
from .model import Round, Tournament
from .seats import clash, seat, wish

#: the bye's node in the matching graph (players are nodes 0..m-1, in rank order)
BYE = -1


def pair_swiss(t: Tournament) -> Round:
    """The next round of Swiss tournament ``t`` (its last round complete), active players only."""
    hists = histories(t)
    score = points(t)
    ranked = sorted((e.player for e in t.active), key=lambda p: (-score[p], t.seed(p)))
    games, bye = match(ranked, score, hists, look_ahead=len(t.rounds) + 1 < t.total_rounds)
    wishes = {p: wish(hists[p]) for p in ranked}
    order = {p: k for k, p in enumerate(ranked)}
    boards = sorted(games, key=lambda g: order[g[0]])
    pairings = tuple(seat(a, b, wishes[a], wishes[b], board) for board, (a, b) in enumerate(boards, start=1))
    return Round(len(t.rounds) + 1, pairings, () if bye is None else (bye,))


def match(ranked: Sequence[str], score: Mapping[str, int], hists: Mapping[str, Sequence[Outing]],
          look_ahead: bool = False) -> tuple[list[tuple[str, str]], str | None]:
    """Pairs of ``ranked`` (best first; each pair higher-ranked first) and who has the bye, by the rules above.

    ``look_ahead``: another round follows, so avoid a pairing after which it
    could not be paired without a rematch (see :func:`_keep_next_round_fresh`).
    """
    m = len(ranked)
    if m < 2:
        raise ValueError("a Swiss round needs at least two players")
    met = {p: {o.opponent for o in hists[p] if o.opponent is not None} for p in ranked}
    had_bye = {p for p in ranked if any(o.is_bye for o in hists[p])}
    wishes = [wish(hists[p]) for p in ranked]
    # each player's place inside their score group, and the group's size
    place: list[int] = []
    size: dict[int, int] = {}
    for p in ranked:
        place.append(size.get(score[p], 0))
        size[score[p]] = place[-1] + 1
    spread = max(score.values(), default=0) - min(score.values(), default=0) + 1
    # layer units, lowest first: each exceeds the most the layers under it can total in one round
    u5 = 1
    u4 = u5 * (m * m + 1)
    u3 = u4 * (3 * m + 4)
    u2 = u3 * ((m + 2) * spread * spread + 1)
    u1 = u2 * (m + 2)
    top = u1 * (m + 4)
    graph = nx.Graph()
    graph.add_nodes_from(range(m))
    for i in range(m):
        a = ranked[i]
        for j in range(i + 1, m):
            b = ranked[j]
            d = score[a] - score[b]
            if d == 0:
                order = abs((place[j] - place[i]) - size[score[a]] // 2)
            else:
                order = place[j]  # a player floating down meets the top of the group below
            penalty = u1 * (b in met[a]) + u3 * d * d + u4 * clash(wishes[i], wishes[j]) + u5 * order
            graph.add_edge(i, j, weight=top - penalty)
    if m % 2 == 1:
        eligible_below = 0
        for i in range(m - 1, -1, -1):
            p = ranked[i]
            repeat = p in had_bye
            graph.add_edge(i, BYE, weight=top - (u1 * repeat + u2 * (m if repeat else eligible_below)))
            eligible_below += not repeat
    chosen = _best(_near(graph, ranked, score))
    if not _proven_best(chosen, ranked, score, met, had_bye):
        chosen = _best(graph)
    if look_ahead and not _next_round_fresh(graph, chosen, met, had_bye, ranked):
        chosen = _keep_next_round_fresh(graph, chosen, met, had_bye, ranked, u1)
    games: list[tuple[str, str]] = []
    bye: str | None = None
    for u, v in chosen:
        i, j = sorted((u, v))
        if i == BYE:
            bye = ranked[j]
        else:
            games.append((ranked[i], ranked[j]))
    return games, bye


def _near(graph: nx.Graph, ranked: Sequence[str], score: Mapping[str, int]) -> nx.Graph:
    """``graph`` with only the games inside a score group or between neighbouring groups (and every bye).

    Matching this smaller graph first is about twice as fast for 200 players;
    :func:`_proven_best` says when its answer is also the whole graph's.
    """
    levels = {v: k for k, v in enumerate(sorted({score[p] for p in ranked}, reverse=True))}
    near = nx.Graph()
    near.add_nodes_from(graph.nodes)
    near.add_edges_from((u, v, d) for u, v, d in graph.edges(data=True)
                        if BYE in (u, v) or abs(levels[score[ranked[u]]] - levels[score[ranked[v]]]) <= 1)
    return near


def _proven_best(chosen: list[tuple[int, int]], ranked: Sequence[str], score: Mapping[str, int],
                 met: Mapping[str, set[str]], had_bye: set[str]) -> bool:
    """Whether ``chosen``, the best matching of :func:`_near`'s graph, is the best of the whole graph too.

    It is when it has no rematch and no second bye, gives the bye to the
    lowest-ranked player without one, and floats no more than any pairing
    could: going down the score groups, every boundary with an odd number of
    players above it must be crossed by a game, and a game across several
    boundaries costs the square of their sum, more than the sum of their
    squares. So no pairing floats less than the sum, over those boundaries, of
    the squared gap; one that floats exactly that crosses each of them once
    and no other, so every pairing as good as ``chosen`` on the first three
    layers is in the smaller graph, where ``chosen`` is the best on the rest.
    """
    bye = next((ranked[j] for i, j in chosen if i == BYE), None)
    if any(ranked[j] in met[ranked[i]] for i, j in chosen if i != BYE):
        return False
    if bye is not None and bye != next((p for p in reversed(ranked) if p not in had_bye), None):
        return False
    floats = sum((score[ranked[i]] - score[ranked[j]]) ** 2 for i, j in chosen if i != BYE)
    rest = [score[p] for p in ranked if p != bye]
    levels = sorted(set(rest), reverse=True)
    least = 0
    above = 0
    for hi, lo in zip(levels, levels[1:]):
        above += rest.count(hi)
        least += (hi - lo) ** 2 if above % 2 else 0
    return floats == least


def _best(graph: nx.Graph) -> list[tuple[int, int]]:
    """The maximum-weight perfect matching of ``graph``, as sorted edges (a stable order to look ahead in)."""
    return sorted(tuple(sorted(e)) for e in nx.max_weight_matching(graph, maxcardinality=True))


def _next_round_fresh(graph: nx.Graph, chosen: list[tuple[int, int]], met: Mapping[str, set[str]],
                      had_bye: set[str], ranked: Sequence[str]) -> bool:
    """Whether, after ``chosen``, the same players can still be paired once more with no rematch and no second bye."""
    taken = set(chosen)
    fresh = nx.Graph()
    fresh.add_nodes_from(graph.nodes)
    for u, v in graph.edges:
        i, j = sorted((u, v))
        if (i, j) in taken:
            continue
        if i == BYE:
            if ranked[j] not in had_bye:
                fresh.add_edge(i, j)
        elif ranked[j] not in met[ranked[i]]:
            fresh.add_edge(i, j)
    return 2 * len(nx.max_weight_matching(fresh, maxcardinality=True)) == fresh.number_of_nodes()


def _keep_next_round_fresh(graph: nx.Graph, chosen: list[tuple[int, int]], met: Mapping[str, set[str]],
                           had_bye: set[str], ranked: Sequence[str], u1: int) -> list[tuple[int, int]]:
    """A matching that leaves the next round pairable without a rematch, when banning one edge of ``chosen`` finds one.

    Each edge of the best matching is in turn weighed as a rematch; of the
    matchings that then keep the next round fresh, the heaviest by the true
    weights wins (the first in board order on a tie). When none does, the best
    matching stands: a rematch later is then as unavoidable as this method can tell.
    """
    def weight(matching: list[tuple[int, int]]) -> int:
        """A matching's total weight on the true (unbanned) graph."""
        return sum(graph.edges[e]["weight"] for e in matching)

    def repeats(matching: list[tuple[int, int]]) -> int:
        """Rematches and second byes in ``matching``."""
        return sum(ranked[j] in had_bye if i == BYE else ranked[j] in met[ranked[i]] for i, j in matching)

    found: list[list[tuple[int, int]]] = []
    for e in chosen:
        trial = graph.copy()
        trial.edges[e]["weight"] -= u1
        other = _best(trial)
        # never buy the next round's freshness with a rematch in this one
        if repeats(other) <= repeats(chosen) and _next_round_fresh(graph, other, met, had_bye, ranked):
            found.append(other)
    return max(found, key=weight) if found else chosen
