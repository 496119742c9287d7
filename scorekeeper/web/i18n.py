"""Italian and English: the language comes from a remembered choice, else the browser."""

from __future__ import annotations

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
    return error.render(gettext, (lambda seat: names[seat]) if names else None,
                        lambda one, many, n: get_translations().ngettext(one, many, n))


def local_target(target: str | None) -> str:
    """``target`` if it is a path on this site, else the home page."""
    if target and not urlsplit(target).netloc and target.startswith("/"):
        return target
    return url_for("matches.home")


def init_app(app: Flask) -> None:
    """Bind Flask-Babel to ``app``."""
    Babel(app, locale_selector=select_locale)
