"""Where the app's files are, its defaults, and what the environment and instance/ change.

Settings come, in this order: the defaults below, then ``instance/config.py`` (any Flask
setting), then a test's ``test_config``; the environment variables are read into the
defaults (docs/operating.md lists them).
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path
from typing import Any

from flask import Flask

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


def defaults(instance: Path) -> dict[str, Any]:
    """The settings every app starts from, the environment's included."""
    return dict(
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL")
        or f"sqlite:///{instance / 'scorekeeper.db'}",
        # Behind a reverse proxy: how many proxies set X-Forwarded-For/-Proto/-Host.
        PROXIES=int(os.environ.get("SCOREKEEPER_PROXIES", "0") or 0),
        # Served by scorekeeper serve, behind Caddy (scorekeeper.serve): one proxy more.
        FRONT=_flag("SCOREKEEPER_FRONT"),
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
        # The in-process caches (scorekeeper.engine.cache), on unless SCOREKEEPER_CACHES=off:
        # off, every value is made again from the database at every use (the test suite
        # runs once so, to show that no answer depends on what a worker kept).
        CACHES=os.environ.get("SCOREKEEPER_CACHES", "on").lower() not in ("0", "off", "no",
                                                                         "false"),
        # Bytes each in-process cache of a worker may hold (see scorekeeper.engine.cache).
        # The facts of every match of a table: about 1.4 KB a match of two sides, so a
        # change to a table of 10,000 such matches computes the facts of that match alone.
        CACHE_BUDGETS={"sheets": 8 * 1024 * 1024, "sheet-html": 4 * 1024 * 1024,
                       "pages": 8 * 1024 * 1024, "match-facts": 16 * 1024 * 1024},
        # Games besides the five, by module name (docs/architecture.md, "Adding a game").
        GAMES=(),
        # Where scorekeeper serve's Caddy keeps its local certificate authority: the
        # certificate page hands out its root certificate (pki/authorities/local/root.crt).
        CADDY_DIR=str(instance / "caddy"),
        # The port where scorekeeper serve's Caddy answers HTTPS, beside the plain HTTP one
        # (set by scorekeeper serve): a page opened over plain HTTP offers the secure address.
        SECURE_PORT=None,
        # The address scorekeeper serve printed for the phones (set by it): share links start
        # with it when no BASE_URL is set.
        SERVED_URL=None,
    )


def configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """Load the settings into ``app``: defaults, instance/config.py or ``test_config``,
    then what follows from them (the secret key, the database driver, the proxies)."""
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(defaults(instance))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
    url = app.config["SQLALCHEMY_DATABASE_URI"] = database_url(
        app.config["SQLALCHEMY_DATABASE_URI"])
    # A database server may drop a pooled connection (a restart): test each before use. A
    # SQLite file never does: no test query there, on every request and poll.
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {}).setdefault(
        "pool_pre_ping", not url.startswith("sqlite"))
    proxies = app.config["PROXIES"] + bool(app.config["FRONT"])
    if proxies:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)
