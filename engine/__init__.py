"""Rules of inpHeXion, Hex and Blind Hex: pure Python, no I/O.

Start a game with :func:`new_game`, act with ``position.play(text)``, read
``to_move``, ``phase``, ``legal_actions()`` and ``outcome``. See RULES.md.
"""

from .action import Action
from .blindhex import BlindHex
from .errors import ActionError, GameOverError, IllegalActionError, NotationError, OptionsError, WrongTurnError
from .games import GAME_NAMES, GAMES, make_options, new_game, position_class
from .hex import Hex
from .inphexion import InpHexion
from .messages import Colour, Message, sentence
from .outcome import Outcome, Reason
from .position import GameOptions, LastTurn, Position
from .record import Record

__all__ = [
    "ActionError", "GameOverError", "IllegalActionError", "NotationError", "OptionsError", "WrongTurnError",
    "Action", "BlindHex", "Hex", "InpHexion", "GAME_NAMES", "GAMES", "make_options", "new_game", "position_class",
    "Colour", "Message", "sentence", "Outcome", "Reason", "GameOptions", "LastTurn", "Position", "Record",
]
