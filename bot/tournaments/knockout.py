"""Knockout (single elimination): a bracket of 2^⌈log2 n⌉ slots seeded the standard way, winners advance.

Slot order is the usual seeding (8 slots: 1, 8, 4, 5, 2, 7, 3, 6), so seed 1
meets seed 2^k in round 1 and the two top seeds can only meet in the final.
Slots beyond the field are empty: their partners, the top seeds, go through
round 1 on a bye. Later, a slot whose player withdrew is empty too, and the
other player of that match goes through.
"""

from __future__ import annotations

import math

from .history import histories
from .model import Pairing, Round, Tournament
from .seats import seat, wish


def seeding_order(slots: int) -> list[int]:
    """Seeds in bracket order for a power-of-two number of ``slots``.

    >>> seeding_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if slots < 1 or slots & (slots - 1):
        raise ValueError("a bracket has a power-of-two number of slots")
    order = [1]
    while len(order) < slots:
        size = 2 * len(order)
        order = [s for x in order for s in (x, size + 1 - x)]
    return order


def bracket_size(n: int) -> int:
    """Slots in the bracket of ``n`` entrants: the least power of two ≥ n."""
    return 1 << math.ceil(math.log2(n)) if n > 1 else 1


def slots(t: Tournament, number: int) -> list[str | None]:
    """Who holds each slot of round ``number``'s bracket (None: empty), from the results of earlier rounds.

    Round ``number`` has ``bracket_size / 2^(number−1)`` slots; slot ``2k`` meets
    slot ``2k+1``. Round ``total + 1`` has one slot: the winner's.
    """
    by_seed = {e.seed: e.player for e in t.entrants}
    held: list[str | None] = [by_seed.get(s) for s in seeding_order(bracket_size(len(t.entrants)))]
    for rnd in t.rounds[: number - 1]:
        nxt: list[str | None] = []
        for a, b in zip(held[0::2], held[1::2]):
            game = rnd.pairing_of(a) if a is not None else rnd.pairing_of(b) if b is not None else None
            if game is None:  # a bye (or nobody): whoever was paired alone goes through
                nxt.append(a if a in rnd.byes else b if b in rnd.byes else None)
            else:
                res = t.result_of(rnd.number, game)
                nxt.append(None if res is None else res.winner)
        held = nxt
    return held


def alive(t: Tournament) -> tuple[str, ...]:
    """Players still in the bracket after the last complete round (not knocked out, not withdrawn)."""
    gone = t.withdrawn
    done = len(t.rounds) + (1 if t.round_complete else 0)
    return tuple(p for p in slots(t, done) if p is not None and p not in gone)


def pair_knockout(t: Tournament) -> Round:
    """The next round of knockout ``t``: each two neighbouring slots meet, a lone player goes through on a bye."""
    number = len(t.rounds) + 1
    gone = t.withdrawn
    held = [p if p is not None and p not in gone else None for p in slots(t, number)]
    hists = histories(t)
    pairings: list[Pairing] = []
    byes: list[str] = []
    for a, b in zip(held[0::2], held[1::2]):
        if a is not None and b is not None:
            hi, lo = sorted((a, b), key=t.seed)
            pairings.append(seat(hi, lo, wish(hists[hi]), wish(hists[lo]), len(pairings) + 1))
        elif a is not None:
            byes.append(a)
        elif b is not None:
            byes.append(b)
    return Round(number, tuple(pairings), tuple(byes))
