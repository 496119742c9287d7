"""Start-up: a worker imports what requests need and nothing more; `flask db` still works."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from sqlalchemy import inspect

from scorekeeper import create_app
from scorekeeper.db import db

from .conftest import migrated_app

SCRIPT = textwrap.dedent("""
    import sys

    from scorekeeper import create_app

    app = create_app({"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": sys.argv[1]})
    client = app.test_client()
    assert client.get("/").status_code == 200
    assert client.get("/matches/new").status_code == 200
    print(sorted(m for m in ("alembic", "flask_migrate", "weasyprint", "cryptography",
                             "multiprocessing") if m in sys.modules))
""")


def test_serving_pages_imports_neither_alembic_nor_weasyprint_nor_the_certificates(tmp_path):
    """Migrations, the PDF renderer (and its process pool) and the certificate authority's
    cryptography are imported when they are used: a worker that serves pages holds none."""
    url = f"sqlite:///{tmp_path / 'start.db'}"
    migrated_app(url)
    result = subprocess.run([sys.executable, "-c", SCRIPT, url], capture_output=True,
                            text=True, timeout=120, check=True)
    assert result.stdout.strip() == "[]"


def test_flask_db_upgrade_migrates_through_the_lazy_command(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "t",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'cli.db'}"})
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        tables = set(inspect(db.engine).get_table_names())
        db.engine.dispose()
    assert {"matches", "hands", "changes", "alembic_version"} <= tables


def test_the_home_lists_indexes_keep_their_order(app):
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            sql = db.session.execute(db.text(
                "SELECT sql FROM sqlite_master WHERE name IN "
                "('ix_matches_home', 'ix_matches_table')")).scalars()
        else:
            sql = db.session.execute(db.text(
                "SELECT indexdef FROM pg_indexes WHERE indexname IN "
                "('ix_matches_home', 'ix_matches_table')")).scalars()
        definitions = sorted(sql)
    assert len(definitions) == 2 and all("updated_at DESC" in d for d in definitions)


FREEZE = textwrap.dedent("""
    import gc
    import sys

    from scorekeeper import create_app

    create_app({"TESTING": sys.argv[2] == "testing", "SECRET_KEY": "t",
                "SQLALCHEMY_DATABASE_URI": sys.argv[1]})
    print(gc.get_freeze_count())
""")


def test_a_served_app_is_left_out_of_the_full_collections_and_a_tested_one_is_not(tmp_path):
    """What a worker builds before its first request lives as long as it does: the garbage
    collector does not walk it again. The tests build an app each, and keep collecting."""
    url = f"sqlite:///{tmp_path / 'gc.db'}"
    frozen = {mode: int(subprocess.run([sys.executable, "-c", FREEZE, url, mode],
                                       capture_output=True, text=True, timeout=120,
                                       check=True).stdout)
              for mode in ("served", "testing")}
    assert frozen["served"] > 20_000
    assert frozen["testing"] == 0
