"""Tie-breaks and the standings table: rank, player, points, tie-breaks, games played.

Points: a win is 1 however the loser lost (on the board, resigned, on time,
abandoned, withdrew); a loss 0; a Swiss bye 1; a bye elsewhere nothing.

Tie-breaks, in the issue's order:

- **Swiss:** points, then Buchholz, then Sonneborn-Berger.
- **Round robin:** points, then Sonneborn-Berger, then the direct encounter.
- **Knockout:** the round a player reached (the winner's is one past the
  final), then points.

Remaining ties go to the better seed, so every rank is distinct.

- **Buchholz** is the sum of the opponents' points. **Sonneborn-Berger** is
  the sum of the points of the opponents a player beat (a double round robin
  counts each win). Both use the points everyone has now (final points once
  the tournament is over).
- **Unplayed rounds** follow the dummy-opponent model of FIDE's tie-break
  regulations (2023): a Swiss bye counts as a game won against an opponent
  with the player's own points, so it adds the player's own points to both
  their Buchholz and their Sonneborn-Berger. A round-robin bye (worth nothing,
  and everyone has one per cycle in an odd field) adds nothing. Rounds after
  a player withdrew add nothing to them, and their opponents' Buchholz uses
  the points the withdrawn player actually scored.
- **Forfeits:** a game lost on time or abandoned is a game played and lost:
  it was paired and started, and the bot cannot tell a game never begun from
  one where a player stopped moving. It counts for both players' tie-breaks
  as any game does.
- **Direct encounter** is the points a player scored in games against the
  players level with them on points and Sonneborn-Berger; it is shown only
  where such a tie exists.
"""

from __future__ import annotations

from dataclasses import dataclass

from .history import Outing, games_played, histories, points
from .knockout import slots
from .model import Format, Tournament

#: the tie-break columns of each format, as a table's header labels them (short: they head columns of numbers)
COLUMNS: dict[Format, tuple[str, ...]] = {
    "swiss": ("BH", "SB"),
    "round-robin": ("SB", "DE"),
    "knockout": ("Rd",),
}
#: what each column label stands for, for a legend under a table
COLUMN_NAMES: dict[str, str] = {
    "BH": "Buchholz",
    "SB": "Sonneborn-Berger",
    "DE": "direct encounter",
    "Rd": "round reached",
}


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the table. ``tiebreaks`` follow :data:`COLUMNS` (None: not applicable to this player)."""

    rank: int
    player: str
    name: str
    points: int
    tiebreaks: tuple[int | None, ...]
    games: int
    withdrawn: bool = False


def buchholz(hist: tuple[Outing, ...], own: int, score: dict[str, int]) -> int:
    """Sum of the opponents' points; a bye counts the player's own points (see the module docstring)."""
    return sum(own if o.opponent is None else score[o.opponent] for o in hist
               if o.won is not None and (o.opponent is not None or o.won))


def sonneborn_berger(hist: tuple[Outing, ...], own: int, score: dict[str, int]) -> int:
    """Sum of the points of the opponents beaten; a won bye counts the player's own points."""
    return sum(own if o.opponent is None else score[o.opponent] for o in hist if o.won)


def direct_encounter(player: str, group: set[str], hist: tuple[Outing, ...]) -> int:
    """Points ``player`` scored against the others of ``group`` (the players level with them)."""
    return sum(1 for o in hist if o.won and o.opponent in group)


def standings(t: Tournament) -> tuple[Standing, ...]:
    """The table as it stands (games in progress count for nothing yet), best first."""
    hists = histories(t)
    score = points(t)
    fmt = t.settings.format
    gone = t.withdrawn
    keys: dict[str, tuple[int, ...]] = {}
    shown: dict[str, tuple[int | None, ...]] = {}
    if fmt == "swiss":
        for p, h in hists.items():
            bh, sb = buchholz(h, score[p], score), sonneborn_berger(h, score[p], score)
            keys[p], shown[p] = (score[p], bh, sb), (bh, sb)
    elif fmt == "round-robin":
        sb_of = {p: sonneborn_berger(h, score[p], score) for p, h in hists.items()}
        level: dict[tuple[int, int], set[str]] = {}
        for p in hists:
            level.setdefault((score[p], sb_of[p]), set()).add(p)
        for p, h in hists.items():
            group = level[(score[p], sb_of[p])]
            de = direct_encounter(p, group, h) if len(group) > 1 else None
            keys[p], shown[p] = (score[p], sb_of[p], de or 0), (sb_of[p], de)
    else:
        reached = _reached(t)
        for p in hists:
            keys[p], shown[p] = (reached[p], score[p]), (reached[p],)
    order = sorted(hists, key=lambda p: (tuple(-k for k in keys[p]), t.seed(p)))
    return tuple(Standing(rank, p, t.entrant(p).name, score[p], shown[p], games_played(hists[p]), p in gone)
                 for rank, p in enumerate(order, start=1))


def _reached(t: Tournament) -> dict[str, int]:
    """Knockout: the last round each player is (or was) in the bracket for; the winner's is one past the final."""
    out: dict[str, int] = {}
    for number in range(1, len(t.rounds) + 2):
        for p in slots(t, number):
            if p is not None:
                out[p] = number
    return {e.player: out.get(e.player, 1) for e in t.entrants}
