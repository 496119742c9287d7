"""Scorekeeper: keeps score at a real card table.

The house, from the top floor down (docs/architecture.md): this app factory; ``views/``
and ``games/``, the blueprints; ``web/``, what requests share; ``engine/``, what a change,
a sheet, a print, the statistics and a backup need without a request; ``rules/``, the
games' rules in pure Python; ``models``, ``db`` and ``config`` at the bottom.
"""

from __future__ import annotations

import gc
from typing import Any

from flask import Flask

from .config import ROOT


class Scorekeeper(Flask):
    """Flask, every view and hook of which is a plain function: Flask's check of each one
    for a coroutine, ten times a request, is left out."""

    def ensure_sync(self, func: Any) -> Any:
        return func


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then instance/config.py, then ``test_config``."""
    from . import games, views, web
    from .config import configure
    from .db import db, migrations

    app = Scorekeeper(__name__, instance_path=str(ROOT / "instance"),
                instance_relative_config=True, template_folder=str(ROOT / "templates"),
                static_folder=str(ROOT / "static"))
    configure(app, test_config)
    db.init_app(app)
    app.cli.add_command(migrations)
    registry = games.load(app.config["GAMES"])
    web.init_app(app, registry)
    for blueprint in (*views.blueprints(), *(game.blueprint for game in registry.values())):
        app.register_blueprint(blueprint)
    if not app.testing:
        # What is built by now (modules, models, routes) lives as long as the process: the
        # garbage collector stops walking it again at each full collection (150,000
        # objects, 70 ms a time). Not in tests, which build an app for each test.
        gc.freeze()
    return app


__all__ = ["ROOT", "create_app"]
