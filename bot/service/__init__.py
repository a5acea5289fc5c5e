"""The game service: challenges, moves, results, clocks, takebacks and settings, without Discord.

Cogs hand it ids and text and get back plain results to turn into messages.
It owns the rules of the table (who may act, one game per channel, ratings)
and leaves the rules of the games to the engine. Every accepted action is
committed to the store before the call returns, under one lock per game, so
two interactions for the same game can never both apply.

One module per job, mixed into :class:`GameService`:

* :mod:`.challenges`: challenges and games against the computer;
* :mod:`.moves`: playing, resigning, aborting, results and ratings;
* :mod:`.timed`: wins on time and abandonment (time per move and a game's timers: :mod:`bot.timing.clocks`);
* :mod:`.takebacks`, :mod:`.settings`, :mod:`.reading` (leaderboards, stats, history);
* :mod:`.boards`: which message is a game's live board (the one with its controls);
* :mod:`.limits`: the limits against abuse (challenges, games against the computer, board
  re-posts, replays); :mod:`.replays`: replay GIFs made once per finished game;
* :mod:`.gone`: games whose channel, thread or server is gone;
* :mod:`.core`: the store, the clock, locks and positions they share;
  :mod:`.values` and :mod:`.errors`: what goes in and out.
"""

from ..store import ChallengeRow
from ..timing.clocks import ABANDON_AFTER, CLOCKS, GAME_TIMERS, format_duration
from .boards import BoardsService
from .challenges import ChallengesService, challenge_options, draw_cut
from .core import GAME_TITLES
from .errors import (
    Channel,
    ClosedRequest,
    Command,
    Moment,
    NotYourTurn,
    Option,
    Post,
    RematchAsked,
    StaleChoice,
    UserError,
)
from .gone import GoneService
from .reading import ReadingService
from .replays import ReplaysService
from .settings import SettingsService
from .takebacks import TakebacksService
from .timed import TimedService
from .values import SEATS, ActiveGame, ChallengeRequest, PlayResult, StartedGame, position_version


class GameService(ChallengesService, TimedService, TakebacksService, SettingsService, ReadingService, BoardsService,
                  ReplaysService, GoneService):
    """Challenges and games of every server, backed by the store."""


__all__ = [
    "ABANDON_AFTER", "CLOCKS", "SEATS", "GAME_TIMERS", "GAME_TITLES", "ActiveGame", "ChallengeRequest", "ChallengeRow",
    "Channel", "ClosedRequest", "Command", "GameService", "Moment", "NotYourTurn", "Option", "PlayResult", "Post",
    "RematchAsked", "StaleChoice", "StartedGame", "UserError",
    "challenge_options", "draw_cut", "format_duration", "position_version",
]
