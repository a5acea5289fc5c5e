"""Round robin by Berger tables: everyone meets everyone once (or twice, seats swapped in the second cycle).

Seeds are the Berger numbers. With ``N`` numbers (the field, plus one empty
slot when it is odd), round ``r`` of a cycle pairs the number ``p`` that meets
``N`` with ``p + k`` against ``p − k`` (k = 1 … N/2 − 1, counting round 1 … N−1),
where ``p`` moves on by N/2 each round: this reproduces FIDE's published
Berger tables (round 1 of six: 1–6, 2–5, 3–4; round 2: 6–4, 5–3, 1–2; …),
including their seats. Whoever meets the empty slot has the round off (a bye,
worth nothing: everyone has one per cycle). A withdrawn player is not paired;
their scheduled opponent has the round off too.
"""

from __future__ import annotations

from .model import Pairing, Round, Tournament


def berger_round(n: int, r: int) -> list[tuple[int, int]]:
    """Round ``r`` (1 … N−1) of the Berger table of ``n`` numbers, as (first seat, second seat) pairs.

    ``n`` is even (add the empty slot first). Boards are in table order.

    >>> berger_round(8, 1)
    [(1, 8), (2, 7), (3, 6), (4, 5)]
    >>> berger_round(8, 2)
    [(8, 5), (6, 4), (7, 3), (1, 2)]
    """
    if n % 2 or n < 2 or not 1 <= r <= n - 1:
        raise ValueError("a Berger table has an even number of players and rounds 1 … n−1")
    ring = n - 1
    p = (r - 1) * (n // 2) % ring + 1

    def wrap(k: int) -> int:
        """``k`` brought back onto the ring 1 … N−1."""
        return (k - 1) % ring + 1

    games = [(p, n) if r % 2 == 1 else (n, p)]
    games += [(wrap(p + k), wrap(p - k)) for k in range(1, n // 2)]
    return games


def pair_round_robin(t: Tournament) -> Round:
    """The next round of round-robin tournament ``t``: its Berger round, seats swapped in the second cycle."""
    seeds = sorted(t.entrants, key=lambda e: e.seed)
    n = len(seeds) + len(seeds) % 2
    per_cycle = n - 1
    number = len(t.rounds) + 1
    cycle, r = divmod(number - 1, per_cycle)
    gone = t.withdrawn
    by_number = {k: e.player for k, e in enumerate(seeds, start=1)}
    pairings: list[Pairing] = []
    byes: list[str] = []
    for a, b in berger_round(n, r + 1):
        if cycle % 2 == 1:
            a, b = b, a
        pa, pb = by_number.get(a), by_number.get(b)
        present = [p for p in (pa, pb) if p is not None and p not in gone]
        if len(present) == 2 and pa is not None and pb is not None:
            pairings.append(Pairing(pa, pb))
        else:
            byes.extend(present)
    return Round(number, tuple(pairings), tuple(sorted(byes, key=t.seed)))
