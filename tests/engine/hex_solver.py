"""An exact Hex solver for small boards (tests only): negamax over bitboards with a memo.

Independent of the AI: it knows only the rules (a chain of the mover's stones joining
the mover's two sides wins; a full board always has exactly one) and tries every move.
Fast enough for 4×4 from a few stones and for 5×5 from about ten.
"""

from __future__ import annotations

from engine.geometry import HexGrid


class HexSolver:
    """Solves positions of one board size; results are kept across calls (the memo)."""

    def __init__(self, g: HexGrid) -> None:
        self.g = g
        self.memo: dict[tuple[int, int, bool], bool] = {}
        centre = ((g.n - 1) / 2, (g.n - 1) / 2)
        # Central cells first: they decide more often, so the search cuts off sooner.
        self.order = sorted(
            range(g.n * g.n), key=lambda c: abs(c % g.n - centre[0]) + abs(c // g.n - centre[1])
        )

    def connects(self, stones: int, vertical: bool) -> bool:
        """Whether ``stones`` join their owner's two sides (Black, vertical: top and bottom)."""
        return self.g.connects(stones, vertical)

    def mover_wins(self, black: int, white: int, black_to_move: bool) -> bool:
        """Whether the player to move wins with perfect play (the game is not over yet)."""
        key = (black, white, black_to_move)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        empty = self.g.full & ~(black | white)
        mine = black if black_to_move else white
        result = False
        for c in self.order:
            bit = 1 << c
            if not empty & bit:
                continue
            if self.connects(mine | bit, black_to_move):
                result = True
                break
            nb, nw = (black | bit, white) if black_to_move else (black, white | bit)
            if not self.mover_wins(nb, nw, not black_to_move):
                result = True
                break
        self.memo[key] = result
        return result

    def value(self, black: int, white: int, black_to_move: bool, for_black: bool) -> bool:
        """Whether the player given (``for_black``) wins from here with perfect play, a finished game included."""
        if self.connects(black, True):
            return for_black
        if self.connects(white, False):
            return not for_black
        wins = self.mover_wins(black, white, black_to_move)
        return wins if for_black == black_to_move else not wins
