"""Italian and English: the language comes from a remembered choice, else the browser."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, request, url_for
from flask_babel import Babel, get_translations, gettext

from ..rules import RuleError

COOKIE = "lang"
YEAR = 365 * 24 * 3600


def select_locale() -> str:
    """The remembered language if any, else the browser's best match."""
    languages = current_app.config["LANGUAGES"]
    chosen = request.cookies.get(COOKIE)
    if chosen in languages:
        return chosen
    return request.accept_languages.best_match(languages) or languages[0]


def rule_message(error: RuleError, names: list[str] | None = None) -> str:
    """A RuleError in the user's language, naming the player rather than the seat."""
    # A seat past the names is one a change would add: the player who would join.
    return error.render(gettext, (lambda seat: names[seat] if seat < len(names)
                                  else gettext("The new player")) if names else None,
                        lambda one, many, n: get_translations().ngettext(one, many, n))


def local_target(target: str | None) -> str:
    """``target`` if it is a path on this site, else the home page."""
    if target and not urlsplit(target).netloc and target.startswith("/"):
        return target
    return url_for("matches.home")


def said(item: Any) -> str:
    """A template's ``said`` filter: what a rule's note, event, figure or option (anything
    with a ``label``) is called in the user's language. A filter, not ``_(item.label)``:
    a sheet says one for every cell."""
    return get_translations().ugettext(item.label)


def init_app(app: Flask) -> None:
    """Bind Flask-Babel to ``app``: it gives the templates Jinja's i18n extension, whose
    ``_()``, ``gettext()`` and ``ngettext()`` say the words in the request's language and
    escape what is put into them (every template of the app is HTML, autoescaped)."""
    Babel(app, locale_selector=select_locale)
    app.jinja_env.filters["said"] = said
