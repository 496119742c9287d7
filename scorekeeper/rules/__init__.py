"""The rules engine: pure Python, exact to docs/rules.md; nothing here knows about the web.

``GAMES`` is the registry the web layer builds its forms and validation from.
"""

from . import cavallore, fortyfive, navawhist, quarantotto, scala40
from .core import N_, Event, Nn_, Note, RuleError, places
from .sheet import Details, Figure, Game, Next, Option, Row, Sheet, Status, optional

GAMES: dict[str, Game] = {
    module.GAME.key: module.GAME
    for module in (navawhist, quarantotto, scala40, fortyfive, cavallore)
}
BUILT_IN = tuple(GAMES)  # the games of this package; others may join GAMES (the GAMES setting)

__all__ = ["BUILT_IN", "GAMES", "N_", "Details", "Event", "Figure", "Game", "Next", "Nn_", "Note",
           "Option", "Row", "RuleError", "Sheet", "Status", "optional", "places"]
