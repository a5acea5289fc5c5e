"""The game-end hook of reviews: a finished game worth it is queued for a review in the background,
so that its missed wins become puzzles (issue 48: "found in the background as games finish,
never by the command that asks for one").

Called by :meth:`bot.service.moves.MovesService._finish` inside the transaction that ends the
game, so the queued review commits with the game's end (a kill -9 loses neither or both; a
restart finds it in the ``reviews`` table). The review itself is made later by
:class:`bot.service.reviews.ReviewsService`, after the reviews members asked for and behind the
computer's moves.

Which games: Hex and inpHeXion (the games whose positions make puzzles; Blind Hex hides its
cards), boards up to :data:`.limits.BACKGROUND_MAX_SIZE`, games of at least
:data:`.limits.BACKGROUND_MIN_TURNS` turns (a game resigned early sets no puzzle), of servers
that did not switch them off (``/settings background_reviews``; on by default: ``/puzzle`` draws
from a server's own games only, and without them a server has none). Bounded: while
:data:`.limits.BACKGROUND_REVIEWS_WAITING` wait, a game that ends is not queued (the newest is
skipped, so no work already done is thrown away; it is still reviewed when someone asks).
"""

from __future__ import annotations

from engine import Position
from engine.ai.review import turn_spans

from ..store import GameRow, Store
from .limits import BACKGROUND_MAX_SIZE, BACKGROUND_MIN_TURNS, BACKGROUND_REVIEWS_WAITING
from .puzzles import PUZZLE_GAMES


def worth_reviewing(row: GameRow, pos: Position) -> bool:
    """Whether a finished game's review may set puzzles at a bounded cost (its game, board, length)."""
    if row.game not in PUZZLE_GAMES or row.size > BACKGROUND_MAX_SIZE:
        return False
    actions = list(pos.public_record())
    # A turn is at least one action: a record shorter than that has too few turns at once.
    return len(actions) >= BACKGROUND_MIN_TURNS and len(turn_spans(pos.options, actions)) >= BACKGROUND_MIN_TURNS


async def want_review(store: Store, row: GameRow, pos: Position, now: float) -> bool:
    """Inside the transaction ending game ``row``: queue its review in the background if it is worth
    one and its server wants them; whether it was queued."""
    if not worth_reviewing(row, pos) or not await store.review_background(row.guild_id):
        return False
    return await store.want_background_review(row.id, now, BACKGROUND_REVIEWS_WAITING)
