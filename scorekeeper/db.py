"""The database extension, unbound until the app factory binds it, and the migrations.

Flask-Migrate brings Alembic, which no request needs and which costs a tenth of a second
and 10 MB to import: it is bound to an app only when migrations are run, by ``flask db``
or :func:`upgrade`.
"""


import click
from flask import Flask, current_app
from flask.cli import ScriptInfo
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

# Named constraints keep migrations portable between SQLite and PostgreSQL.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


# What a request has just written stays loaded after the commit: nothing is read again.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """WAL and a busy timeout let several requests write to SQLite without 'database is locked'."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # In WAL mode a commit then reaches the operating system before the answer leaves,
        # so a crash or kill -9 of the process loses nothing acknowledged; only a power cut
        # can lose the last commits (never the database). tests/test_durability.py.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def init_migrations(app: Flask) -> None:
    """Bind Flask-Migrate to ``app``, once."""
    if "migrate" not in app.extensions:
        from flask_migrate import Migrate

        from .config import ROOT

        Migrate(app, db, directory=str(ROOT / "migrations"))


def upgrade(revision: str = "head") -> None:
    """Migrate the current app's database to ``revision``."""
    init_migrations(current_app)
    import flask_migrate

    flask_migrate.upgrade(revision=revision)


def downgrade(revision: str) -> None:
    """Migrate the current app's database back to ``revision``."""
    init_migrations(current_app)
    import flask_migrate

    flask_migrate.downgrade(revision=revision)


@click.command("db", add_help_option=False,
               context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.pass_context
def migrations(ctx: click.Context) -> None:
    """Database migrations (Flask-Migrate): flask db --help."""
    info = ctx.ensure_object(ScriptInfo)
    init_migrations(info.load_app())
    from flask_migrate.cli import db as commands

    commands.main(args=ctx.args, prog_name="flask db", obj=info)
