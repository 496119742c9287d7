"""What every template may call: the cached sheet block, places, form messages, the
``extract`` filter, the running chart, the edit right, and the event and note codes."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_babel import get_locale
from markupsafe import Markup

from .access import can_edit
from .cache import cache
from .charts import running_chart
from .history import step_labels
from .models import Match
from .pages import render_compact
from .rules import GAMES, Event, Note
from .rules.cards import SUIT_NAMES
from .scoring import steps


def sheet_block(match: Match, sheet: Any, names: list[str]) -> Markup:
    """The sheet and its chart, rendered once per version, language and edit right."""
    editor = can_edit(match.id)
    key = (match.id, match.version, str(get_locale()), editor)
    return cache("sheet-html").get(key, lambda: Markup(render_compact(
        "matches/_sheet_block.html", match=match, sheet=sheet, names=names,
        game=GAMES[match.game])))


def leaders_of(sheet: Any) -> list[int]:
    """The columns in first place."""
    return [column for column, place in enumerate(sheet.places) if place == 1]


def ranking_of(sheet: Any) -> list[tuple[int, int]]:
    """(place, column) pairs, best first."""
    return sorted((place, column) for column, place in enumerate(sheet.places))


def error_messages(form: Any) -> list[str]:
    """Every message of a form, its own and its fields', nested lists flattened."""
    def flatten(errors: Any) -> list[str]:
        if isinstance(errors, dict):
            return [m for value in errors.values() for m in flatten(value)]
        if isinstance(errors, list | tuple):
            return [m for value in errors for m in flatten(value)]
        return [str(errors)]

    return flatten(list(form.form_errors)) + flatten(
        {k: v for k, v in form.errors.items() if k is not None})


def seat_names(seats: Any, names: list[str]) -> str:
    """The names of ``seats`` joined with " + ": a side or a pair."""
    return " + ".join(names[seat] for seat in seats)


def extract(index: int, container: Any) -> Any:
    """``container[index]``: turns seats into names with ``map('extract', names)``."""
    return container[index]


def undo_redo(match: Match, sheet: Any) -> tuple[str | None, str | None]:
    """The words of the Undo and Redo buttons of ``match`` (None: no such button)."""
    return step_labels(match.game, match.names, sheet.columns, *steps(match))


def init_app(app: Flask) -> None:
    """Make the globals and the filter available to every template of ``app``."""
    for function in (sheet_block, leaders_of, ranking_of, error_messages, running_chart,
                     can_edit, undo_redo):
        app.add_template_global(function)
    app.add_template_global(Event, "Event")
    app.add_template_global(Note, "Note")
    app.add_template_global(SUIT_NAMES, "SUIT_NAMES")
    app.add_template_filter(extract)
    app.add_template_filter(seat_names)
