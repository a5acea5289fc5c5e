"""The H-search's inner loop, compiled by numba (see :mod:`engine.ai.hex.vc` for the rules).

Everything here works on arrays so that numba can compile it: a carrier is ``W``
64-bit words (cell i is bit ``i % 64`` of word ``i // 64``), nodes are numbered
cells first, then groups. Connections are stored once per unordered pair of nodes
(the smaller id first) with at most ``full_limit`` full and ``semi_limit`` semi
carriers each (a soft limit: the smallest are kept). New connections go through one
work queue, fulls and semis alike, which keeps the search free of recursion.

Compiled once per machine (numba's cache, next to this file or in numba's cache
directory when that is not writable); the first use on a fresh install waits for it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: a queue entry's kind
_FULL = 0
_SEMI = 1
#: what :func:`hsearch_steps` stopped at
DONE = 0
PAUSED = 1
TRUNCATED = 2
#: the most semis the OR rule joins at once (Benzene's ``max_ors``)
_MAX_ORS = 4


@njit(cache=True, inline="always")
def _subset(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether carrier ``a`` is inside ``b``."""
    for i in range(a.shape[0]):
        if a[i] & ~b[i]:
            return False
    return True


@njit(cache=True, inline="always")
def _disjoint(a: np.ndarray, b: np.ndarray) -> bool:
    for i in range(a.shape[0]):
        if a[i] & b[i]:
            return False
    return True


@njit(cache=True, inline="always")
def _has(a: np.ndarray, cell: int) -> bool:
    return (a[cell >> 6] >> np.uint64(cell & 63)) & np.uint64(1) != 0


@njit(cache=True, inline="always")
def _size_word(x: np.uint64) -> int:
    """The number of set bits of one word."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def _size(a: np.ndarray) -> int:
    n = 0
    for i in range(a.shape[0]):
        n += _size_word(a[i])
    return n


@njit(cache=True, inline="always")
def _meet(inter, car, union, inter_out, union_out) -> bool:
    """``inter_out`` = inter ∩ car, ``union_out`` = union ∪ car; True when the intersection is empty."""
    empty = True
    for i in range(inter.shape[0]):
        inter_out[i] = inter[i] & car[i]
        union_out[i] = union[i] | car[i]
        if inter_out[i]:
            empty = False
    return empty


@njit(cache=True)
def _store(cars, keys, cnt, limit, car, key):
    """Keep ``car`` (and its ``key``) among a pair's ``cnt`` stored carriers, the soft-limit way: not
    when a stored carrier is inside it; else the stored ones containing it go, and at the limit the
    largest goes if it is larger. Returns the new count, or -1 when ``car`` is not kept."""
    for k in range(cnt):
        if _subset(cars[k], car):
            return -1
    k = 0
    while k < cnt:
        if _subset(car, cars[k]):
            cnt -= 1
            cars[k, :] = cars[cnt, :]
            keys[k] = keys[cnt]
        else:
            k += 1
    if cnt >= limit:
        worst, wsize = 0, -1
        for k in range(cnt):
            s = _size(cars[k])
            if s > wsize:
                worst, wsize = k, s
        if wsize <= _size(car):
            return -1
        cnt -= 1
        cars[worst, :] = cars[cnt, :]
        keys[worst] = keys[cnt]
    cars[cnt, :] = car
    keys[cnt] = key
    return cnt + 1


@njit(cache=True)
def _add_full(x, y, car, fcar, fcnt, full_limit, q, qcar, qhead_tail, nokeys):
    """Store full(x, y) with carrier ``car`` unless a subset is known; queue it. False if the queue overflowed.
    (``nokeys``: scratch for :func:`_store`, fulls have no key.)"""
    if x == y:
        return True
    if x > y:
        x, y = y, x
    cnt = _store(fcar[x, y], nokeys, fcnt[x, y], full_limit, car, -1)
    if cnt < 0:
        return True
    fcnt[x, y] = cnt
    return _push(q, qcar, qhead_tail, _FULL, x, y, -1, car)


@njit(cache=True)
def _push(q, qcar, qhead_tail, kind, x, y, key, car):
    """Queue a new connection; False when the queue is full (the search is then truncated)."""
    head, tail = qhead_tail[0], qhead_tail[1]
    cap = q.shape[0]
    if tail - head >= cap:
        return False
    slot = tail % cap
    q[slot, 0] = kind
    q[slot, 1] = x
    q[slot, 2] = y
    q[slot, 3] = key
    qcar[slot, :] = car
    qhead_tail[1] = tail + 1
    return True


@njit(cache=True)
def _add_semi(x, y, car, key, fcar, fcnt, scar, skey, scnt, full_limit, semi_limit, q, qcar, qhead_tail, work,
              orbuf, pick, nokeys):
    """Store semi(x, y) with carrier ``car`` and ``key`` unless a full or semi inside it is known;
    apply the OR rule to the pair's semis; queue it. False if the queue overflowed."""
    if x == y:
        return True
    if x > y:
        x, y = y, x
    for k in range(fcnt[x, y]):
        if _subset(fcar[x, y, k], car):
            return True
    cnt = _store(scar[x, y], skey[x, y], scnt[x, y], semi_limit, car, key)
    if cnt < 0:
        return True
    scnt[x, y] = cnt
    # OR rule: the newest semi with every combination of one to three older ones whose carriers
    # have no common cell (Benzene's ``max_ors`` of 4; a greedy pick missed joins such as two
    # ladders on either side of a wall). A semi that does not narrow the common cells so far is
    # skipped: its combination would only be a larger carrier. A depth-first walk over increasing
    # indices; depth d keeps its common cells and union in orbuf[2d] and orbuf[2d + 1], and its last
    # index in pick[d].
    others = cnt - 1
    d = 0
    pick[0] = -1
    while others >= 1 and d >= 0:
        pick[d] += 1
        if pick[d] >= others:
            d -= 1
            continue
        work[0] += 1
        c = scar[x, y, pick[d]]
        inter = car if d == 0 else orbuf[2 * d - 2]
        if _subset(inter, c):
            continue
        union = car if d == 0 else orbuf[2 * d - 1]
        if _meet(inter, c, union, orbuf[2 * d], orbuf[2 * d + 1]):
            if not _add_full(x, y, orbuf[2 * d + 1], fcar, fcnt, full_limit, q, qcar, qhead_tail, nokeys):
                return False
        elif d < _MAX_ORS - 2:
            d += 1
            pick[d] = pick[d - 1]
    return _push(q, qcar, qhead_tail, _SEMI, x, y, key, car)


@njit(cache=True)
def hsearch(n_cells, n_nodes, seeds, seed_car, full_limit, semi_limit, max_work, queue_cap, edge_a, edge_b, narrow,
            answers):
    """Run the AND and OR rules from the seed full connections (``seeds[i] = (x, y)`` with carrier
    ``seed_car[i]``) until nothing is new or ``max_work`` carrier combinations were tried.

    ``narrow``: derive only connections with a group at one end, by every rule (a semi through a
    group included, which joins an empty cell to an edge past a stone's template): several times
    cheaper, and weaker (the search inside the tree uses it).
    ``answers``: also work out the answers to intrusions (see :func:`_answers`).

    Returns (fulls, semis, semi keys, truncated) between ``edge_a`` and ``edge_b``, and the
    answers: row ``p`` holds the cells that restore a connection broken by a stone on cell ``p``
    (no rows without ``answers``). In one go; a caller with a deadline runs the same steps in
    slices (:func:`hsearch_start`, :func:`hsearch_steps`, :func:`hsearch_result`)."""
    fcar, fcnt, scar, skey, scnt, q, qcar, qht, work, truncated = hsearch_start(
        n_nodes, seeds, seed_car, full_limit, semi_limit, queue_cap)
    if not truncated:
        truncated = hsearch_steps(n_cells, n_nodes, fcar, fcnt, scar, skey, scnt, q, qcar, qht, work, max_work,
                                  max_work + 1, narrow) == TRUNCATED
    fulls, semis, keys, out = hsearch_result(n_cells, n_nodes, fcar, fcnt, scar, skey, scnt, edge_a, edge_b, answers)
    return fulls, semis, keys, truncated, out


@njit(cache=True)
def hsearch_start(n_nodes, seeds, seed_car, full_limit, semi_limit, queue_cap):
    """The H-search's state with the seed connections stored and queued (see :func:`hsearch`):
    (fcar, fcnt, scar, skey, scnt, q, qcar, qht, work, truncated)."""
    w_ = seed_car.shape[1]
    fcar = np.empty((n_nodes, n_nodes, full_limit, w_), np.uint64)
    fcnt = np.zeros((n_nodes, n_nodes), np.int32)
    scar = np.empty((n_nodes, n_nodes, semi_limit, w_), np.uint64)
    skey = np.empty((n_nodes, n_nodes, semi_limit), np.int32)
    scnt = np.zeros((n_nodes, n_nodes), np.int32)
    q = np.empty((queue_cap, 4), np.int32)
    qcar = np.empty((queue_cap, w_), np.uint64)
    qht = np.zeros(2, np.int64)
    work = np.zeros(1, np.int64)
    nokeys = np.empty(full_limit, np.int32)
    truncated = False
    for i in range(seeds.shape[0]):
        if not _add_full(seeds[i, 0], seeds[i, 1], seed_car[i], fcar, fcnt, full_limit, q, qcar, qht, nokeys):
            truncated = True
    return fcar, fcnt, scar, skey, scnt, q, qcar, qht, work, truncated


@njit(cache=True)
def hsearch_steps(n_cells, n_nodes, fcar, fcnt, scar, skey, scnt, q, qcar, qht, work, max_work, pause_at, narrow):
    """Apply the rules to queued connections until the queue is empty (:data:`DONE`), ``max_work``
    combinations were tried or a store overflowed (:data:`TRUNCATED`), or ``work[0]`` reached
    ``pause_at`` (:data:`PAUSED`: call again to go on; the state is all in the arrays)."""
    w_ = fcar.shape[3]
    full_limit = fcar.shape[2]
    semi_limit = scar.shape[2]
    queue_cap = q.shape[0]
    orbuf = np.empty((2 * (_MAX_ORS - 1), w_), np.uint64)
    pick = np.empty(_MAX_ORS - 1, np.int64)
    nokeys = np.empty(full_limit, np.int32)
    truncated = False
    cx = np.empty(w_, np.uint64)
    both = np.empty(w_, np.uint64)
    while qht[0] < qht[1] and not truncated:
        if work[0] > max_work:
            truncated = True
            break
        if work[0] >= pause_at:
            return PAUSED
        slot = qht[0] % queue_cap
        qht[0] += 1
        kind, x, y, key = q[slot, 0], q[slot, 1], q[slot, 2], q[slot, 3]
        cx[:] = qcar[slot]
        # Still stored? (a smaller carrier may have pushed it out)
        alive = False
        if kind == _FULL:
            for k in range(fcnt[x, y]):
                if _subset(fcar[x, y, k], cx) and _subset(cx, fcar[x, y, k]):
                    alive = True
                    break
        else:
            for k in range(scnt[x, y]):
                if skey[x, y, k] == key and _subset(scar[x, y, k], cx) and _subset(cx, scar[x, y, k]):
                    alive = True
                    break
        if not alive:
            continue
        for side in range(2):
            mid, end = (x, y) if side == 0 else (y, x)
            if kind == _SEMI:
                # full(w, mid) + semi(mid, end) through a group: semi(w, end), same key.
                if mid < n_cells:
                    continue
                for w in range(n_nodes):
                    if w == end or w == mid or (narrow and w < n_cells and end < n_cells):
                        continue
                    a, b = (mid, w) if mid < w else (w, mid)
                    for k in range(fcnt[a, b]):
                        work[0] += 1
                        c = fcar[a, b, k]
                        if not _disjoint(c, cx) or (w < n_cells and _has(cx, w)) or (end < n_cells and _has(c, end)):
                            continue
                        for i in range(w_):
                            both[i] = c[i] | cx[i]
                        if not _add_semi(w, end, both, key, fcar, fcnt, scar, skey, scnt, full_limit,
                                         semi_limit, q, qcar, qht, work, orbuf, pick, nokeys):
                            truncated = True
                continue
            if narrow and mid < n_cells and end < n_cells:
                continue
            for w in range(n_nodes):
                if w == end or w == mid:
                    continue
                a, b = (mid, w) if mid < w else (w, mid)
                if narrow and w < n_cells and end < n_cells:
                    continue
                if mid >= n_cells:
                    # Through a group: full(end, mid) + full(mid, w) = full(end, w); + semi(mid, w) = semi(end, w).
                    for k in range(fcnt[a, b]):
                        work[0] += 1
                        c = fcar[a, b, k]
                        if not _disjoint(c, cx) or (w < n_cells and _has(cx, w)) or (end < n_cells and _has(c, end)):
                            continue
                        for i in range(w_):
                            both[i] = c[i] | cx[i]
                        if not _add_full(end, w, both, fcar, fcnt, full_limit, q, qcar, qht, nokeys):
                            truncated = True
                    for k in range(scnt[a, b]):
                        work[0] += 1
                        c = scar[a, b, k]
                        if not _disjoint(c, cx) or (w < n_cells and _has(cx, w)) or (end < n_cells and _has(c, end)):
                            continue
                        for i in range(w_):
                            both[i] = c[i] | cx[i]
                        if not _add_semi(end, w, both, skey[a, b, k], fcar, fcnt, scar, skey, scnt,
                                         full_limit, semi_limit, q, qcar, qht, work, orbuf, pick, nokeys):
                            truncated = True
                else:
                    # Through an empty cell: full(end, mid) + full(mid, w) = semi(end, w) with key mid.
                    for k in range(fcnt[a, b]):
                        work[0] += 1
                        c = fcar[a, b, k]
                        if (not _disjoint(c, cx) or _has(c, mid) or (w < n_cells and _has(cx, w))
                                or (end < n_cells and _has(c, end))):
                            continue
                        if narrow and w < n_cells and _size(c) > 0:
                            continue  # narrow: a cell at the far end only as mid's neighbour
                        for i in range(w_):
                            both[i] = c[i] | cx[i]
                        both[mid >> 6] |= np.uint64(1) << np.uint64(mid & 63)
                        if not _add_semi(end, w, both, mid, fcar, fcnt, scar, skey, scnt, full_limit,
                                         semi_limit, q, qcar, qht, work, orbuf, pick, nokeys):
                            truncated = True
    return TRUNCATED if truncated else DONE


@njit(cache=True)
def hsearch_result(n_cells, n_nodes, fcar, fcnt, scar, skey, scnt, edge_a, edge_b, answers):
    """What :func:`hsearch` returns, from its state (the truncated flag apart)."""
    w_ = fcar.shape[3]
    a, b = (edge_a, edge_b) if edge_a < edge_b else (edge_b, edge_a)
    out = np.zeros((n_cells if answers else 0, w_), np.uint64)
    if answers:
        _answers(n_cells, n_nodes, fcar, fcnt, scar, skey, scnt, out)
    return fcar[a, b, : fcnt[a, b]].copy(), scar[a, b, : scnt[a, b]].copy(), skey[a, b, : scnt[a, b]].copy(), out


@njit(cache=True)
def _answers(n_cells, n_nodes, fcar, fcnt, scar, skey, scnt, out):
    """Benzene's answers to a probe (``VCUtil::RespondToProbe``, which MoHex's tree favours): for
    each pair of groups with a full connection, a stone on a cell of every stored full carrier
    breaks it; the keys of the pair's semis whose carriers miss that cell make it full again.
    Adds them to ``out[cell]``."""
    w_ = out.shape[1]
    inter = np.empty(w_, np.uint64)
    for x in range(n_cells, n_nodes):
        for y in range(x + 1, n_nodes):
            if fcnt[x, y] == 0 or scnt[x, y] == 0:
                continue
            inter[:] = fcar[x, y, 0]
            for k in range(1, fcnt[x, y]):
                for i in range(w_):
                    inter[i] &= fcar[x, y, k, i]
            for i in range(w_):
                word = inter[i]
                while word:
                    low = word & (~word + np.uint64(1))
                    p = i * 64 + _size_word(low - np.uint64(1))
                    word ^= low
                    for k in range(scnt[x, y]):
                        if not _has(scar[x, y, k], p):
                            key = skey[x, y, k]
                            out[p, key >> 6] |= np.uint64(1) << np.uint64(key & 63)



def _warm_up() -> None:
    """Compile (or load from numba's cache) now, at import, so that no move's search waits for it."""
    seeds = np.array([[0, 1]], dtype=np.int32)
    hsearch(1, 2, seeds, np.zeros((1, 1), np.uint64), 1, 1, 10, 16, 0, 1, False, False)
    # The sliced path as a caller with a deadline calls it (Python ints, a bool).
    fcar, fcnt, scar, skey, scnt, q, qcar, qht, work, _ = hsearch_start(2, seeds, np.zeros((1, 1), np.uint64), 1, 1, 16)
    hsearch_steps(1, 2, fcar, fcnt, scar, skey, scnt, q, qcar, qht, work, 10, 5, False)
    hsearch_result(1, 2, fcar, fcnt, scar, skey, scnt, 0, 1, False)


_warm_up()
