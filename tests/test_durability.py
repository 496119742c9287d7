"""Every hand the server acknowledged is still there after the server is killed (kill -9).

SQLite runs in WAL mode with ``synchronous=NORMAL`` (see scorekeeper/db.py): a commit
reaches the operating system before the answer is sent, so a crash of the process, or a
``kill -9`` of every worker, loses nothing that was acknowledged.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import select

from bench.served import free_port
from scorekeeper.db import db
from scorekeeper.models import Hand

from .conftest import migrated_app
from .test_stress import Phone

DEALS = 40


def test_acknowledged_deals_survive_a_kill_of_the_server(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'durable.db'}"
    app = migrated_app(url)
    with app.app_context():
        db.engine.dispose()
    port = free_port()
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    server = subprocess.Popen(
        [gunicorn, "--workers", "2", "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
         "scorekeeper:create_app()"],
        env={**os.environ, "DATABASE_URL": url}, start_new_session=True)
    try:
        phone = Phone(f"http://127.0.0.1:{port}")
        for _ in range(100):
            try:
                phone.csrf()
                break
            except OSError:
                time.sleep(0.1)
        match_id = phone.new_match("cavallore", ["Anna"])
        acknowledged = []
        for number in range(1, DEALS + 1):
            placed = (number * 7) % 37
            reply = phone.post(f"/matches/{match_id}/cavallore/deal", {
                "version": phone.sheet(match_id)["version"], "number": number,
                "placed": placed})
            assert reply.status == 303, reply.body[:500]
            acknowledged.append(placed)
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # the master and its workers, at once
        server.wait(10)
    with app.app_context():
        stored = list(db.session.scalars(select(Hand.data).where(Hand.match_id == match_id)
                                         .order_by(Hand.number)))
        db.engine.dispose()
    assert [d["placed"] for d in stored] == acknowledged
