"""The interpreter must not crash while a worker serves pages full of ORM objects.

Python 3.11 frees an ORM object's state twice when a garbage collection starts inside
SQLAlchemy's session teardown (CPython gh-97922, fixed in 3.12): the worker dies with
SIGSEGV. The sequence below crashed every time on 3.11 under PYTHONMALLOC=debug, so it
runs in a child interpreter: a crash there is a failed test here, not a dead test run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from scorekeeper.db import db
from scorekeeper.models import Hand, Match, Player, Seat, Table, name_key

from .conftest import migrated_app

SCRIPT = textwrap.dedent("""
    import gc
    import sys

    from scorekeeper import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "test", "OPEN_EDIT": True,
                      "SQLALCHEMY_DATABASE_URI": sys.argv[1]})
    gc.set_threshold(700)
    client = app.test_client()
    for url in ("/", "/matches/new", "/", "/sheets"):
        status = client.get(url).status_code
        assert status == 200, (url, status)
    print("served")
""")


def seed(url: str) -> None:
    """Eleven Quarantotto matches of 6 players and 100 games each, on the home page."""
    app = migrated_app(url)
    with app.app_context():
        table = Table(name="Crash")
        db.session.add(table)
        db.session.flush()
        players = [Player(table_id=table.id, name=f"Player {i}", key=name_key(f"Player {i}"))
                   for i in range(6)]
        for _ in range(11):
            match = Match(game="quarantotto", table_id=table.id,
                          options={"length": "target", "games": 4, "target": 100_000})
            match.seats = [Seat(seat=i, player=p) for i, p in enumerate(players)]
            db.session.add(match)
            db.session.flush()
            for number in range(1, 101):
                db.session.add(Hand(match_id=match.id, number=number, data={
                    "closer": number % 6,
                    "points": [None if s == number % 6 else 5 + s for s in range(6)]}))
        db.session.commit()
        db.session.remove()
        db.engine.dispose()


def test_pages_full_of_orm_objects_never_crash_the_interpreter(tmp_path):
    # The crash is the interpreter's, whatever the database: a SQLite file serves here.
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    seed(url)
    env = {**os.environ, "PYTHONMALLOC": "debug", "PYTHONFAULTHANDLER": "1"}
    result = subprocess.run([sys.executable, "-c", SCRIPT, url], env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "served"
