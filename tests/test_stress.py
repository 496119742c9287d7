"""Nothing lost under load: eight phones on a real threaded server, with double taps.

The app runs on 127.0.0.1 in a threaded werkzeug server, on a SQLite file so that WAL and
the busy timeout are what keeps the writers apart. Eight phones (each its own cookie jar)
enter 50 Cavallo Re deals each: four into a log of their own, four in pairs into two
shared logs. Every deal is sent twice at once (a double tap) with the version the phone
read; a deal refused as stale (409) is sent again with a fresh version until one copy is
accepted. Afterwards the stored deals must be exactly the accepted ones.
"""

from __future__ import annotations

import json
import logging
import random
import re
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import Message
from http.cookiejar import CookieJar
from typing import Any
from urllib.error import HTTPError
from urllib.parse import urlencode, urlsplit
from urllib.request import HTTPCookieProcessor, HTTPRedirectHandler, Request, build_opener

import pytest
from flask import Flask
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.db import db, upgrade
from scorekeeper.models import Change, Hand

from .conftest import CSRF, report

pytestmark = pytest.mark.slow

PHONES = 8
HANDS = 50
DEADLINE = 120  # seconds for the whole run
TIMEOUT = 30  # seconds for one request
TABLE_OF = re.compile(r'/tables/([^/"]+)/invitations')
INVITATION = re.compile(r'data-invite="([^"]+)"')


class _NoRedirect(HTTPRedirectHandler):
    """Hand 3xx answers back as they are: a 303 is how a phone knows its deal was stored."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class Reply:
    status: int
    body: bytes
    headers: Message

    def json(self) -> Any:
        return json.loads(self.body)


class Phone:
    """A browser on 127.0.0.1: its own cookies (or those of ``jar``), no redirects followed,
    a CSRF token."""

    def __init__(self, base: str, headers: dict[str, str] | None = None,
                 jar: CookieJar | None = None) -> None:
        self.base = base
        self.jar = CookieJar() if jar is None else jar
        self.opener = build_opener(HTTPCookieProcessor(self.jar), _NoRedirect())
        self.headers = headers or {}
        self.token = ""

    def open(self, method: str, path: str, data: dict[str, Any] | None = None,
             headers: dict[str, str] | None = None) -> Reply:
        body = None if data is None else urlencode(data, doseq=True).encode()
        request = Request(self.base + path, data=body, method=method,
                          headers={**self.headers, **(headers or {})})
        try:
            with self.opener.open(request, timeout=TIMEOUT) as response:
                return Reply(response.status, response.read(), response.headers)
        except HTTPError as error:  # 3xx, 4xx and 5xx alike: the status is the answer
            with error:
                return Reply(error.code, error.read(), error.headers)

    def get(self, path: str, headers: dict[str, str] | None = None) -> Reply:
        return self.open("GET", path, headers=headers)

    def post(self, path: str, data: dict[str, Any]) -> Reply:
        return self.open("POST", path, {"csrf_token": self.csrf(), **data})

    def csrf(self) -> str:
        if not self.token:
            page = self.get("/matches/new").body.decode()
            self.token = CSRF.search(page).group(1)
        return self.token

    def sheet(self, match_id: str) -> dict[str, Any]:
        reply = self.get(f"/matches/{match_id}.json")
        assert reply.status == 200, reply.status
        return reply.json()

    def new_match(self, game: str, names: list[str]) -> str:
        data = {"game": game, "first_dealer": 0, "action": "start"}
        data.update({f"players-{i}": name for i, name in enumerate(names)})
        reply = self.post("/matches/new", data)
        assert reply.status == 303, reply.body.decode()[:2000]
        return reply.headers["Location"].rsplit("/", 1)[1]

    def edit_link(self, match_id: str) -> str:
        """The path of a fresh invitation to the match's table (this phone may edit)."""
        page = self.get(f"/matches/{match_id}/share").body.decode()
        table_id = TABLE_OF.search(page).group(1)
        made = self.post(f"/tables/{table_id}/invitations", {})
        assert made.status == 303, made.status
        page = self.get(urlsplit(made.headers["Location"]).path).body.decode()
        return urlsplit(INVITATION.search(page).group(1)).path

    def join(self, link: str) -> None:
        """Join the table by the invitation another phone showed."""
        assert self.get(link).status == 200
        reply = self.post(link, {})
        assert reply.status == 303, reply.status


@contextmanager
def serve(app: Flask) -> Iterator[str]:
    """Serve ``app`` on a free port of 127.0.0.1 in threads; yields the base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)
        server.server_close()


@pytest.fixture
def quiet_server_log() -> Iterator[None]:
    """No access log line for each of the thousand requests."""
    logger = logging.getLogger("werkzeug")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


@pytest.fixture
def sqlite_app(tmp_path) -> Iterator[Flask]:
    """An app on a migrated SQLite file (always SQLite: WAL is what this test is about)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'stress.db'}"})
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@dataclass
class Tally:
    """What one phone saw."""

    accepted: dict[int, dict[str, int]] = field(default_factory=dict)  # number -> deal
    statuses: Counter = field(default_factory=Counter)
    requests: int = 0
    both_accepted: int = 0  # a double tap stored twice: must stay 0
    second_refused: int = 0  # a double tap's other copy refused (409) once one was stored
    stale: int = 0  # taps where neither copy was stored: another phone was first
    unexpected: list[str] = field(default_factory=list)
    timed_out: bool = False


def play(phone: Phone, match_id: str, seat: int, rng: random.Random, deadline: float) -> Tally:
    """Enter HANDS deals as a phone at the table would, double-tapping every one."""
    tally = Tally()
    with ThreadPoolExecutor(2) as taps:
        for _ in range(HANDS):
            placed = rng.randint(0, 36)
            while True:
                if time.monotonic() > deadline:
                    tally.timed_out = True
                    return tally
                sheet = phone.sheet(match_id)
                tally.requests += 1
                form = {"version": sheet["version"], "number": sheet["next"]["number"],
                        "placed": placed, "seat": seat}
                url = f"/matches/{match_id}/cavallore/deal"
                first, second = taps.map(phone.post, [url, url], [form, form])
                tally.requests += 2
                codes = sorted([first.status, second.status])
                tally.statuses.update(codes)
                if codes == [303, 303]:
                    tally.both_accepted += 1
                if codes == [303, 409]:
                    tally.second_refused += 1
                if codes == [409, 409]:
                    tally.stale += 1
                if codes not in ([303, 409], [409, 409], [303, 303]):
                    tally.unexpected.append(f"{codes} for {form}")
                    return tally
                if 303 in codes:
                    number = form["number"]
                    assert number not in tally.accepted
                    tally.accepted[number] = {"placed": placed, "seat": seat}
                    break
    return tally


def test_eight_phones_lose_and_duplicate_nothing(sqlite_app, tmp_path, quiet_server_log,
                                                 request) -> None:
    with serve(sqlite_app) as base:
        keeper = Phone(base)
        own = [keeper.new_match("cavallore", [f"Solo {n}"]) for n in range(4)]
        shared = [keeper.new_match("cavallore", [f"Pair {n} A", f"Pair {n} B"])
                  for n in range(2)]
        # (match, seat) of each phone: four alone, then two phones on each shared log.
        seats = [(m, 0) for m in own] + [(m, s) for m in shared for s in (0, 1)]
        phones = []
        for match_id, _seat in seats:
            phone = Phone(base)
            assert phone.post(f"/matches/{match_id}/cavallore/deal",
                              {"version": 0, "number": 1, "placed": 1, "seat": 0}
                              ).status == 403  # no right before the edit link
            phone.join(keeper.edit_link(match_id))
            phone.csrf()
            phones.append(phone)
        started = time.monotonic()
        deadline = started + DEADLINE
        with ThreadPoolExecutor(PHONES) as pool:
            tallies = list(pool.map(
                lambda args: play(args[0], args[1][0], args[1][1], random.Random(args[2]),
                                  deadline),
                [(phone, seat, n) for n, (phone, seat) in enumerate(zip(phones, seats,
                                                                        strict=True))]))
        elapsed = time.monotonic() - started
        stored = {m: keeper.sheet(m)["hands"] for m in own + shared}

    assert not any(t.timed_out for t in tallies), f"not done within {DEADLINE} s"
    assert [u for t in tallies for u in t.unexpected] == []
    accepted: dict[str, dict[int, dict[str, int]]] = {m: {} for m in stored}
    for (match_id, _seat), tally in zip(seats, tallies, strict=True):
        assert len(tally.accepted) == HANDS
        for number, deal in tally.accepted.items():
            assert number not in accepted[match_id], "two phones were told they stored it"
            accepted[match_id][number] = deal
    for match_id, hands in stored.items():
        numbers = [h["number"] for h in hands]
        assert numbers == list(range(1, len(hands) + 1))  # no gap, no repeat
        assert {h["number"]: h["inputs"] for h in hands} == accepted[match_id]
    assert sum(len(h) for h in stored.values()) == PHONES * HANDS
    assert sum(t.both_accepted for t in tallies) == 0
    assert sum(t.second_refused for t in tallies) == PHONES * HANDS
    with sqlite_app.app_context():
        assert db.session.query(Hand).count() == PHONES * HANDS
        assert db.session.query(Change).count() == PHONES * HANDS  # one entry each
        assert db.session.execute(db.text("PRAGMA busy_timeout")).scalar() > 0
    with sqlite3.connect(tmp_path / "stress.db") as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"

    statuses = sum((t.statuses for t in tallies), Counter())
    report(request.config, "Stress: 8 phones, 50 Cavallo Re deals each, every deal "
           "double-tapped", [
               f"requests: {sum(t.requests for t in tallies)} "
               f"(deal POSTs {sum(statuses.values())}, the rest sheet reads)",
               f"deals stored: {sum(len(h) for h in stored.values())} of "
               f"{PHONES * HANDS} accepted; lost 0, duplicated 0",
               f"double taps' other copy refused (409): "
               f"{sum(t.second_refused for t in tallies)}",
               f"stale taps (both copies refused, sent again): "
               f"{sum(t.stale for t in tallies)}",
               f"POST statuses: {dict(sorted(statuses.items()))}",
               f"elapsed: {elapsed:.1f} s",
           ])
