"""What a game gives the shared pages besides its rules: the contract between a game's own
module (``scorekeeper/games/<game>.py``) and everything else.

The shared pages, views and prints never name a game: they ask the game of a match for its
:class:`GameSpec` (:func:`spec_of`), which the app keeps in ``app.extensions`` from the
registry (``scorekeeper/games/__init__.py``). docs/architecture.md, "Adding a game".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, current_app

from ..engine.history import Words
from ..engine.printing import PORTRAIT_COLUMNS, Printing
from ..models import Match
from ..rules import Game

EXTENSION = "scorekeeper.games"

EntryContext = Callable[[Mapping[str, str], Match], dict[str, Any]]


@dataclass(frozen=True)
class GameSpec:
    """One game as the web layer knows it.

    ``rules`` is its entry of ``rules.GAMES``; ``blueprint`` its routes, under
    ``/matches/<id>/<key>/``, whose templates live in ``templates/games/<key>/`` (or in the
    blueprint's own template folder, for a game kept outside the package): ``game.html``
    with the macros ``score_sheet``, ``entry_panel``, ``correction_form`` and
    ``correction_line`` (and ``match_notice``, printed above a match's PDF table, when
    ``printed_notice``), ``blank.html`` its blank sheet, ``stats.html`` (what its
    statistics add) when ``has_stats``, and ``screen.html`` (what the table screen shows of
    the hand being played, headed ``#now-title``) where it has one.
    """

    rules: Game
    blueprint: Blueprint
    words: Words  # the history's words: how a row is named, how each stored value is said
    printing: Printing  # the PDF and CSV of a match
    # The blank sheet: what it prints besides the rows, and how many players fit a portrait
    # page.
    blank_extras: Callable[[int], dict[str, Any]] = lambda players: {}
    blank_portrait_columns: int = PORTRAIT_COLUMNS
    # What the match page passes the entry panel from its address (whose deal, a hand a
    # tap without JavaScript carries there).
    entry_context: EntryContext = lambda args, match: {}
    # What a rematch's page address carries from the match before (the way of entering).
    carried: Callable[[Match], dict[str, str]] = lambda match: {}
    # The partnerships the new-match page shows for this many players, by the value of the
    # option that changes them (none: nobody plays with a partner).
    partners: Callable[[int], dict[Any, list[list[int]]]] = lambda players: {}
    # The game's own template helpers, registered with the shared ones.
    template_globals: Mapping[str, Any] = field(default_factory=dict)
    template_filters: Mapping[str, Any] = field(default_factory=dict)
    printed_notice: bool = False  # game.html has match_notice(sheet, names)
    has_stats: bool = False  # stats.html adds to the table's statistics

    @property
    def key(self) -> str:
        """The game's key: its rules' key, its blueprint's name, its templates' folder."""
        return self.rules.key

    def template(self, name: str) -> str:
        """The name of one of the game's templates (``game.html``, ``blank.html``...)."""
        return f"games/{self.key}/{name}"


def registry() -> Mapping[str, GameSpec]:
    """Every game of the current app, by key, in the order the new-match page offers them."""
    return current_app.extensions[EXTENSION]


def spec_of(key: str) -> GameSpec:
    """The game ``key`` of the current app."""
    return registry()[key]
