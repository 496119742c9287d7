"""The games Scorekeeper offers, one module a game: its routes, forms and everything the
shared pages ask of it, as its ``SPEC`` (a :class:`~scorekeeper.web.games.GameSpec`).

The registry is derived from ``rules.GAMES``: the game ``key`` of the rules engine is the
module ``scorekeeper.games.<key>``. A game kept elsewhere (a module whose ``SPEC`` carries its
rules) is added by naming its module in the ``GAMES`` setting; docs/architecture.md, "Adding
a game".
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module

from ..rules import BUILT_IN, GAMES
from ..web.games import GameSpec


def load(extra: Iterable[str] = ()) -> dict[str, GameSpec]:
    """Every game by key: this package's (``rules.BUILT_IN``, each module named by its key),
    then those of the modules ``extra`` names, whose rules join ``rules.GAMES``."""
    specs = {key: import_module(f"{__name__}.{key}").SPEC for key in BUILT_IN}
    for name in extra:
        spec = import_module(name).SPEC
        GAMES[spec.key] = spec.rules
        specs[spec.key] = spec
    return specs

