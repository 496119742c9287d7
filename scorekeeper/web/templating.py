"""Every global and filter a template may call, bound to the app in one place: the shared
ones below, and those each game gives (its ``GameSpec.template_globals``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import jinja2.ext
from flask import Flask, g, has_request_context, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel.speaklater import LazyString
from markupsafe import Markup

from ..engine import bgstats, formats
from ..engine.cache import cache
from ..engine.charts import history_chart, running_chart
from ..engine.history import step_labels
from ..engine.ledger import steps
from ..engine.printing import number_text, presence, signed_text
from ..engine.sheets import whole_hand
from ..engine.stats import START, GameStats
from ..models import Match, name_key
from ..rules import Event, Note
from ..rules.cards import SUIT_NAMES
from ..rules.roster import Presence, SeatState
from . import people
from .access import can_edit, current_device, is_member
from .assets import asset
from .games import GameSpec, spec_of
from .links import qr_svg, secure_offer, secure_origin
from .pagecache import csrf_token
from .pwa import THEME
from .reviews import Pending, keeper_name, pending
from .seating import tournament_table
from .tournaments import match_clock


def bgstats_links(match: Match, sheet: Any) -> dict[str, str] | None:
    """The links that send a finished match to BG Stats (scorekeeper.engine.bgstats); None
    when it is no play to send."""
    return bgstats.links(match, sheet)


def sheet_block(match: Match, sheet: Any, names: list[str]) -> Markup:
    """The sheet and its chart, rendered once per version, language and edit right."""
    editor = can_edit(match.id)
    key = (match.id, match.version, str(get_locale()), editor)
    return cache("sheet-html").get(key, lambda: Markup(render_template(
        "matches/_sheet_block.html", match=match, sheet=sheet, names=names,
        game=spec_of(match.game).rules)))


def provisional_hands(match: Match) -> list[Pending] | None:
    """The hands of a tournament's match that wait to be accepted (results the other side
    accepts), read once a request; None when its tournament does not ask it."""
    seated = tournament_table(match)
    if seated is None or not seated.accept:
        return None
    known = g.setdefault("provisional", {})
    if (match.id, match.version) not in known:
        known[(match.id, match.version)] = pending(match)
    return known[(match.id, match.version)]


def is_provisional(match: Match, number: int) -> bool:
    """Whether hand ``number`` of ``match`` waits to be accepted: the sheet marks it."""
    return any(p.number == number for p in provisional_hands(match) or ())


def saved_here(hand: Pending) -> bool:
    """Whether this phone saved ``hand`` (or nobody knows which did): it is handed over to
    another player to accept, who is named first."""
    device = current_device()
    return hand.device_id is None or device is not None and device.id == hand.device_id


@lru_cache(maxsize=4096)
def _built(root: str, endpoint: str, values: tuple[tuple[str, Any], ...]) -> str:
    return url_for(endpoint, **dict(values))


def page_url_for(endpoint: str, **values: Any) -> str:
    """A template's ``url_for``: the same address, built once per endpoint and values (a page
    builds the same few dozen addresses again and again), within the app's root (the
    request's SCRIPT_NAME). Relative endpoints and the ``_`` options are built each time."""
    if endpoint.startswith(".") or any(key.startswith("_") for key in values) \
            or not has_request_context():
        return url_for(endpoint, **values)
    try:
        return _built(request.script_root, endpoint, tuple(sorted(values.items())))
    except TypeError:  # a value that cannot be a key (a list): built each time
        return url_for(endpoint, **values)


def leaders_of(sheet: Any) -> list[int]:
    """The columns in first place."""
    return [column for column, place in enumerate(sheet.places) if place == 1]


def ranking_of(sheet: Any) -> list[tuple[int, int]]:
    """(place, column) pairs, best first."""
    return sorted((place, column) for column, place in enumerate(sheet.places))


def error_messages(form: Any) -> list[str]:
    """Every message of a form: its own, then each field's, named by the field's label where
    the site gave it one ("Rounds: Number must be between 1 and 20."), so that a message says
    which field it is about even where the page does not show that field; nested lists
    flattened."""
    def flatten(errors: Any) -> list[str]:
        if isinstance(errors, dict):
            return [m for value in errors.values() for m in flatten(value)]
        if isinstance(errors, list | tuple):
            return [m for value in errors for m in flatten(value)]
        return [str(errors)]

    def named(field: Any, message: str) -> str:
        # Only a label the site wrote (and translated) names its field; WTForms makes an
        # English one from the field's name where none was given.
        label = field.label.text
        return f"{label}: {message}" if isinstance(label, LazyString) else message

    return flatten(list(form.form_errors)) + [
        named(field, message) for field in form for message in flatten(field.errors)]


def seat_names(seats: Any, names: list[str]) -> str:
    """The names of ``seats`` joined with " + ": a side or a pair."""
    return " + ".join(names[seat] for seat in seats)


# How many characters of a name a column has room for on a 390 px phone, by the number of
# columns, with a margin for wide letters: a Navawhist sheet of 7 to 10 players and its bids
# (each column about 60 px wide, the sheet scrolled in its own frame) and the totals strip
# (one row up to 6 columns, two rows of 5 beyond). Longer names are cut by short_names so that
# they stay apart, not by the browser, which cuts every name at its end ("Franc…" twice).
SHEET_ROOM = {7: 6, 8: 6, 9: 6, 10: 6}
STRIP_ROOM = {5: 7, 6: 6, 7: 7, 8: 7, 9: 7, 10: 7}
ELLIPSIS = "…"


def short_names(names: Sequence[str], room: int | None) -> list[str]:
    """``names`` as narrow columns show them, all different: each whole when it has at most
    ``room`` characters (None: room for every name), else cut to ``room`` characters with an
    ellipsis where no other name of the sheet could be read in what is left, even without
    the last letter before the ellipsis: at the end when that is enough, else further in,
    keeping the end of the name.

    >>> short_names(["Francesco", "Franco", "Bartolomeo"], 7)
    ['Fra…sco', 'Franco', 'Bartol…']
    >>> short_names(["Maria Grazia", "Maria Luisa", "Anna"], 7)
    ['Mari…ia', 'Mari…sa', 'Anna']
    """
    if room is None:
        return list(names)
    folded = [name.casefold() for name in names]

    def read_in(head: str, tail: str, seat: int) -> bool:
        """Whether another name starts with ``head`` and ends with ``tail``."""
        return any(other != seat and len(name) >= len(head) + len(tail) and name.startswith(
            head) and name.endswith(tail) for other, name in enumerate(folded))

    shown = []
    for seat, name in enumerate(names):
        if len(name) <= room:
            shown.append(name)
            continue
        kept = room - len(ELLIPSIS)
        cuts = [(name[:kept - end].rstrip(), name[len(name) - end:] if end else "")
                for end in range(0, kept)]
        head, tail = next(((head, tail) for head, tail in cuts if not read_in(
            head[:-1].casefold(), tail.casefold(), seat)), cuts[0])
        shown.append(head + ELLIPSIS + tail)
    return shown


def undo_redo(match: Match, sheet: Any) -> tuple[str | None, str | None]:
    """The words of the Undo and Redo buttons of ``match`` (None: no such button), worded
    once a request, version and language (a saved hand's answer shows them twice)."""
    said = g.setdefault("undo_redo", {})
    key = (match.id, match.version, str(get_locale()))
    if key not in said:
        undoable, redoable = steps(match)
        said[key] = step_labels(spec_of(match.game).words, match.names, sheet.columns,
                                undoable, redoable, people.people(match, undoable, redoable),
                                hands=len(sheet.rows),
                                whole=lambda number, inputs: whole_hand(match, number, inputs))
    return said[key]


def rating_chart(stats: GameStats, order: list[int]):
    """The chart of the players' ratings after each rated match, in ``order``, drawn
    around the rating every player starts from."""
    return history_chart([stats.history[p] for p in order if p in stats.history], stats.rated,
                         START)


def row_word(match: Match, number: str) -> str:
    """The game's word for its row ``number`` ("Deal 3", "Giro 2"), as a sentence says it
    after a comma: its first letter small ("deal 3", "giro 2")."""
    word = _(spec_of(match.game).words.numbered, n=number)
    return word[:1].lower() + word[1:]


LARGE_COOKIE = "large"  # "on": this phone reads large type (html.large), set on any page's bar


def large_type() -> bool:
    """True when this phone asked for large type: the totals and the dealer twice the size,
    stronger contrast (static/css/app.css, ``html.large``)."""
    return request.cookies.get(LARGE_COOKIE) == "on"


GLOBALS: Mapping[str, Any] = {
    "asset": asset, "can_edit": can_edit, "csrf_token": csrf_token, "is_member": is_member,
    "current_lang": lambda: str(get_locale()), "error_messages": error_messages,
    "install_theme": THEME, "large_type": large_type, "leaders_of": leaders_of,
    "match_clock": match_clock, "qr_svg": qr_svg,
    "ranking_of": ranking_of, "rating_chart": rating_chart, "row_word": row_word,
    "running_chart": running_chart, "bgstats_links": bgstats_links,
    "secure_offer": secure_offer, "secure_origin": secure_origin, "sheet_block": sheet_block,
    "short_names": short_names, "sheet_room": SHEET_ROOM.get, "strip_room": STRIP_ROOM.get,
    "start_rating": int(START),
    "tournament_table": tournament_table, "undo_redo": undo_redo, "url_for": page_url_for,
    "provisional_hands": provisional_hands, "is_provisional": is_provisional,
    "saved_here": saved_here, "keeper_name": keeper_name,
    "Event": Event, "Note": Note, "SUIT_NAMES": SUIT_NAMES,
    # Who plays (scorekeeper.web.people): the columns in turn order, each seat's presence in
    # a row and its state now, who holds it, the sentences of the changes.
    "column_order": people.column_order, "presence": presence,
    "seat_state": people.state, "column_state": people.column_state,
    "holders": people.holders, "roster_marks": people.mark_texts,
    "Presence": Presence, "SeatState": SeatState,
}
# "number" and "decimal": every figure a page prints, through scorekeeper.engine.formats.figure
# (one decimal in the viewer's language when it is no whole number, a real minus sign).
# "signed": a hand's points, a gain with its plus sign.
FILTERS: Mapping[str, Any] = {"decimal": formats.figure, "name_key": name_key,
                              "number": number_text, "seat_names": seat_names,
                              "signed": signed_text}


class Dedent(jinja2.ext.Extension):
    """Templates are indented for people and sent without the indentation: each line's
    leading spaces and tabs are taken out of the source, once, when it is compiled (no
    template holds preformatted text; a value put in, such as the JSON of a match's
    ``<pre>``, keeps its own). Where the line before ends with a tag, whose newline Jinja
    drops (``trim_blocks``), a line of text keeps one space of its indentation: the page
    reads "2026-12-03 · Finished", not "2026-12-03· Finished"."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return INDENT.sub(_dedented, source)


INDENT = re.compile(r"([%#]})?\n[ \t]+(\{[%#])?")


def _dedented(found: re.Match[str]) -> str:
    after_tag, before_tag = found.group(1) or "", found.group(2) or ""
    return f"{after_tag}\n{' ' if after_tag and not before_tag else ''}{before_tag}"


def init_app(app: Flask, games: Mapping[str, GameSpec]) -> None:
    """The templates of ``app``: indented for people but sent without the indentation,
    compiled once between starts, with every global and filter. Called after CSRFProtect
    is bound: its ``csrf_token`` gives way to the one of shared pages."""
    from pathlib import Path

    from jinja2 import FileSystemBytecodeCache

    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.add_extension(Dedent)
    # Compiled templates are kept between starts: a new worker renders its first page sooner.
    # (The files' names say what the sources were compiled with: a source is their key.)
    cache_dir = Path(app.instance_path) / "jinja-cache"
    cache_dir.mkdir(exist_ok=True)
    app.jinja_env.bytecode_cache = FileSystemBytecodeCache(str(cache_dir),
                                                           "dedented-%s.cache")
    app.jinja_env.globals.update(GLOBALS)
    # CSRFProtect's context processor would hide the csrf_token that shared pages need.
    app.context_processor(lambda: {"csrf_token": csrf_token})
    app.jinja_env.filters.update(FILTERS)
    for spec in games.values():
        app.jinja_env.globals.update(spec.template_globals)
        app.jinja_env.filters.update(spec.template_filters)
