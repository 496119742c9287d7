"""Italian and English: the language comes from a remembered choice, else the browser."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit
from weakref import WeakKeyDictionary

import flask_babel
from flask import Flask, current_app, g, request, url_for
from flask_babel import Babel, get_domain, get_locale, get_translations, gettext
from markupsafe import Markup, escape
from werkzeug.wrappers import Request as BaseRequest

from ..rules import RuleError

COOKIE = "lang"
YEAR = 365 * 24 * 3600


def select_locale() -> str:
    """The remembered language if any, else the browser's best match."""
    return language_of(request)


def language_of(asking: BaseRequest) -> str:
    """The language a request is answered in: :func:`select_locale`'s choice, for a request
    read beneath the app as well (``web.polls``)."""
    languages = current_app.config["LANGUAGES"]
    chosen = asking.cookies.get(COOKIE)
    if chosen in languages:
        return chosen
    return asking.accept_languages.best_match(languages) or languages[0]


def rule_message(error: RuleError, names: list[str] | None = None) -> str:
    """A RuleError in the user's language, naming the player rather than the seat."""
    return error.render(gettext, (lambda seat: names[seat]) if names else None,
                        lambda one, many, n: get_translations().ngettext(one, many, n))


def local_target(target: str | None) -> str:
    """``target`` if it is a path on this site, else the home page."""
    if target and not urlsplit(target).netloc and target.startswith("/"):
        return target
    return url_for("matches.home")


def translations() -> Any:
    """Flask-Babel's translations for the language in force, looked up once a request and
    language (``force_locale`` changes the language, and so the entry): a page calls them
    for every word it says."""
    space = vars(g._get_current_object())
    memo = space.get("_translations")
    if memo is not None and memo[0] is getattr(space.get("_flask_babel"), "babel_locale", None):
        return memo[1]
    found = flask_babel.Domain.get_translations(get_domain())
    g._translations = (get_locale() and g._flask_babel.babel_locale, found)
    return found


class Domain(flask_babel.Domain):
    """Flask-Babel's message domain, its translations those of :func:`translations`: every
    ``gettext`` of the code (the history's words, a notice) asks for them."""

    def get_translations(self) -> Any:
        return translations() if g else super().get_translations()


# The words a template says without variables, once translated: {translations: {word: Markup}}.
_SAID: WeakKeyDictionary[Any, dict[str, Markup]] = WeakKeyDictionary()


def _template_gettext(string: str, **variables: Any) -> Markup:
    """A template's ``_()`` and ``gettext()``: as Jinja's own (new style, autoescaped) for
    what they return, without its two layers of calls through the template's context; a
    word without variables is translated once per language."""
    found = translations()
    if variables:
        return _filled(found.ugettext(string), variables)
    said = _SAID.get(found)
    if said is None:
        said = _SAID[found] = {}
    word = said.get(string)
    if word is None:
        word = said[string] = Markup(found.ugettext(string)) % {}
    return word


def _template_ngettext(singular: str, plural: str, num: int, **variables: Any) -> Markup:
    """A template's ``ngettext()``, as Jinja's own (``num`` is a variable too)."""
    variables.setdefault("num", num)
    return _filled(translations().ungettext(singular, plural, num), variables)


def _filled(words: str, variables: dict[str, Any]) -> Markup:
    """``words`` (the catalog's, trusted) with ``variables`` put in, escaped: what
    ``Markup(words) % variables`` gives for the ``%(name)s`` and ``%(n)d`` of our templates,
    without an escaping wrapper around each value."""
    return Markup(words % {name: value if isinstance(value, int | float) else escape(value)
                           for name, value in variables.items()})


def said(item: Any) -> str:
    """A template's ``said`` filter: what a rule's note, event, figure or option (anything
    with a ``label``) is called in the user's language. A filter, not ``_(item.label)``:
    a sheet says one for every cell."""
    return translations().ugettext(item.label)


def init_app(app: Flask) -> None:
    """Bind Flask-Babel to ``app``; the templates' words are read through
    :func:`translations` (every template of the app is HTML, autoescaped)."""
    babel = Babel(app, locale_selector=select_locale)
    babel.domain_instance = Domain(domain=app.extensions["babel"].default_domain)
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext,
                                 ngettext=_template_ngettext)
    app.jinja_env.filters["said"] = said
