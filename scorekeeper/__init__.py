"""Scorekeeper: keeps score at a real card table."""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path
from typing import Any

from flask import Flask
from jinja2 import FileSystemBytecodeCache

ROOT = Path(__file__).resolve().parent.parent
if not (ROOT / "templates").is_dir():
    # Installed from a wheel: templates, static files and migrations are in <prefix>/share.
    ROOT = Path(sys.prefix) / "share" / "scorekeeper"


def _secret_key(instance: Path) -> str:
    """The instance's secret key, generated once into instance/secret_key."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def _flag(name: str) -> bool:
    """An on/off setting from the environment."""
    return os.environ.get(name, "").lower() in ("1", "true", "yes", "on")


def database_url(url: str) -> str:
    """``url`` with psycopg 3 as the driver of a plain PostgreSQL URL.

    >>> database_url("postgres://u@db/score")
    'postgresql+psycopg://u@db/score'
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then instance/config.py, then ``test_config``."""
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    # Templates are indented for people; the phone need not download that indentation.
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    # Compiled templates are kept between starts: a new worker renders its first page sooner.
    cache_dir = Path(app.instance_path) / "jinja-cache"
    cache_dir.mkdir(exist_ok=True)
    app.jinja_env.bytecode_cache = FileSystemBytecodeCache(str(cache_dir))
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL")
        or f"sqlite:///{Path(app.instance_path) / 'scorekeeper.db'}",
        # Behind a reverse proxy: how many proxies set X-Forwarded-For/-Proto/-Host.
        PROXIES=int(os.environ.get("SCOREKEEPER_PROXIES", "0") or 0),
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        BABEL_DEFAULT_LOCALE="en",
        LANGUAGES=("en", "it"),
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # Set SESSION_COOKIE_SECURE=1 when the app is served over HTTPS.
        SESSION_COOKIE_SECURE=_flag("SESSION_COOKIE_SECURE"),
        PERMANENT_SESSION_LIFETIME=400 * 24 * 3600,
        # The cookie is sent again only when the session changed, not on every response.
        SESSION_REFRESH_EACH_REQUEST=False,
        # A household install open for editing by anyone who can reach it.
        OPEN_EDIT=_flag("SCOREKEEPER_OPEN_EDIT"),
        WTF_CSRF_TIME_LIMIT=None,
        # What a request may cost: every form of the app is a few KB; a larger body gets a
        # 413 before anything reads it. Backup uploads have their own limit.
        MAX_CONTENT_LENGTH=512 * 1024,
        MAX_FORM_MEMORY_SIZE=512 * 1024,
        MAX_FORM_PARTS=300,
        MAX_BACKUP_LENGTH=16 * 1024 * 1024,
        # Bytes each in-process cache of a worker may hold (see scorekeeper.cache).
        CACHE_BUDGETS={"sheets": 8 * 1024 * 1024, "sheet-html": 4 * 1024 * 1024,
                       "pages": 8 * 1024 * 1024},
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if app.config["PROXIES"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        proxies = app.config["PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)

    from . import (
        access,
        assets,
        backup,
        errors,
        i18n,
        links,
        matches,
        pagecache,
        pwa,
        security,
        sheets,
        stats,
        tables,
        templating,
    )
    from .db import db, migrations
    from .forms import csrf
    from .hands import blueprints as hand_blueprints

    db.init_app(app)
    app.cli.add_command(migrations)
    security.init_app(app)  # its request checks run before the CSRF check
    csrf.init_app(app)
    pagecache.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    assets.init_app(app)
    templating.init_app(app)
    links.init_app(app)
    pwa.init_app(app)
    app.register_blueprint(access.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(matches.bp)
    app.register_blueprint(sheets.bp)
    backup.init_app(app)
    for blueprint in hand_blueprints():
        app.register_blueprint(blueprint)

    @app.get("/health")
    def health():
        """A trivial answer for load balancers and benchmarks."""
        return "ok", 200, {"Content-Type": "text/plain"}

    return app
