"""What every request shares: loading a match or a table, the rights of a phone, forms,
templates, languages, error pages, security headers, static assets, the shared page cache,
share links, the PWA and the PDF renderer. Nothing here
names a game: a game's part is asked of its :class:`~scorekeeper.web.games.GameSpec`."""

from __future__ import annotations

from collections.abc import Mapping

from flask import Flask

from . import access, assets, entry, errors, i18n, links, security, templating
from .forms import csrf
from .games import EXTENSION, GameSpec


def init_app(app: Flask, games: Mapping[str, GameSpec]) -> None:
    """Bind the request hooks, extensions and templates of ``app`` to it, with its games."""
    app.extensions[EXTENSION] = games
    security.init_app(app)  # its request checks run before the CSRF check
    csrf.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    assets.init_app(app)
    templating.init_app(app, games)
    links.init_app(app)
    access.init_app(app)
    entry.init_app(app)  # after the guard: a key is read only where the phone may edit
