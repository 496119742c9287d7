"""Costs that do not grow with history (issue 41): a save at game 1,000 of a match against one
at game 50, a table's statistics after a change at 5,000 matches against 1,000, and a
tournament's standings after a change against a sheet after the same change.

Every row is measured as a phone at the table makes it: a phone that joined the table by an
invitation (its right comes from the table, not from ``OPEN_EDIT``) sends the requests a
page sends, each change its own request made outside the timing. A row is a function of a
base URL and of ``new_phone``, which makes a phone (:class:`Phone`, with a cookie of its
own) from a way to send requests (:data:`Send`): :func:`client_phone` sends them through
Flask's test client, in-process; :func:`http_phone` over HTTP to a running server. The data
is made in the database the server reads (a SQLite file), through ``app``.

``make bench`` runs the rows in-process (:func:`rows`). To run the same rows through a served
server (``scorekeeper serve``, whatever front it has)::

    python -m bench.growth --served [save|stats|standings]

which starts the server on each row's database (:func:`served_rows`); without ``--served``
the same command runs them in-process.
"""

from __future__ import annotations

import http.cookiejar
import json
import random
import re
import secrets
import ssl
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from scorekeeper import create_app
from scorekeeper.db import db, upgrade
from scorekeeper.engine.ledger import save_hand
from scorekeeper.models import (
    Entrant,
    Hand,
    Invitation,
    Match,
    Player,
    Seat,
    Table,
    Tournament,
    _now,
    name_key,
    token_hash,
)
from scorekeeper.rules import GAMES

RUNS = 15
ROOT = Path(__file__).resolve().parent.parent
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
HTMX = {"HX-Request": "true"}


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]
    text: str


# How a phone sends a request: (method, url, form data or None, headers) -> the reply, redirects
# not followed; the phone's cookies kept between requests.
Send = Callable[[str, str, dict[str, Any] | None, dict[str, str]], Reply]


def client_send(client: Any) -> Send:
    """Requests through a Flask test client (in-process; the client keeps the cookies)."""
    def send(method: str, url: str, data: dict[str, Any] | None, headers: dict[str, str]) -> Reply:
        response = client.open(url, method=method, data=data, headers=headers)
        return Reply(response.status_code, dict(response.headers), response.get_data(as_text=True))
    return send


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def http_send() -> Send:
    """Requests over HTTP(S) with a cookie jar of their own; a loopback server's certificate
    is not checked (``scorekeeper serve`` makes its own)."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect(),
        urllib.request.HTTPSHandler(context=context))

    def send(method: str, url: str, data: dict[str, Any] | None, headers: dict[str, str]) -> Reply:
        body = None if data is None else urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(url, body, headers, method=method)
        try:
            with opener.open(request, timeout=60) as response:
                return Reply(response.status, dict(response.headers), response.read().decode())
        except urllib.error.HTTPError as error:
            return Reply(error.code, dict(error.headers), error.read().decode())
    return send


class Phone:
    """A phone at the table: its requests go to ``base`` through ``send``."""

    def __init__(self, base: str, send: Send) -> None:
        self.base, self.send, self.token = base, send, ""

    def get(self, path: str, headers: dict[str, str] | None = None) -> Reply:
        return self.send("GET", self.base + path, None, headers or {})

    def post(self, path: str, data: dict[str, Any], headers: dict[str, str] | None = None) \
            -> Reply:
        # A browser names the page it posts from (HTTPS's CSRF check reads it).
        return self.send("POST", self.base + path, {"csrf_token": self.token, **data},
                         {"Referer": self.base + path, **(headers or {})})

    def ok(self, reply: Reply, *statuses: int) -> Reply:
        assert reply.status in (statuses or (200,)), (reply.status, reply.text[:500])
        return reply

    def join(self, token: str) -> None:
        """Join a table by its invitation, as the link's page asks (its form's CSRF token
        is the phone's from then on)."""
        page = self.ok(self.get(f"/join/{token}"))
        self.token = CSRF.search(page.text).group(1)
        self.ok(self.post(f"/join/{token}", {}), 303)

    def json(self, match_id: str) -> dict[str, Any]:
        """The match as its JSON export gives it (its version, its next hand)."""
        return json.loads(self.ok(self.get(f"/matches/{match_id}.json")).text)

    def step(self, match_id: str, kind: str) -> None:
        """Undo or redo (``kind``) the latest change of the match, as its button does."""
        version = self.json(match_id)["version"]
        self.ok(self.post(f"/matches/{match_id}/{kind}", {"version": version}, HTMX))

    def toggle(self, match_id: str) -> None:
        """A change to a match whose last hand the ledger saved: that hand undone when the
        match is finished, redone when it is not."""
        sheet = self.json(match_id)
        kind = "undo" if sheet["status"] == "finished" else "redo"
        self.ok(self.post(f"/matches/{match_id}/{kind}", {"version": sheet["version"]}, HTMX))


NewPhone = Callable[[], Phone]


def client_phone(app: Any, base: str = "") -> NewPhone:
    """Phones sending their requests through ``app``'s test client, each its own."""
    return lambda: Phone(base, client_send(app.test_client()))


def http_phone(base: str) -> NewPhone:
    """Phones sending their requests over HTTP to the server at ``base``."""
    return lambda: Phone(base, http_send())


def make_app(path: Path) -> Any:
    """The app on the SQLite file at ``path`` (migrated), as ``scorekeeper serve`` runs it:
    edits need a phone of the table."""
    app = create_app({"TESTING": False, "SECRET_KEY": "bench", "OPEN_EDIT": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        upgrade()
    return app


def new_table(names: Sequence[str]) -> tuple[Table, list[Player], str]:
    """A table, its players and the token of a table card that admits the bench's phones
    (caller commits)."""
    table = Table(name="Growth")
    db.session.add(table)
    db.session.flush()
    players = [Player(name=n, key=name_key(n), table_id=table.id) for n in names]
    db.session.add_all(players)
    token = secrets.token_urlsafe(16)
    db.session.add(Invitation(table_id=table.id, token_hash=token_hash(token),
                              expires_at=_now() + timedelta(days=1), max_uses=1000))
    db.session.flush()
    return table, players, token


def add_match(players: Sequence[Player], game: str, options: dict[str, Any],
              hands: Sequence[dict[str, Any]], saved: int = 0) -> str:
    """A match of ``hands``, all but the last ``saved`` written as stored rows, those saved
    through the ledger as a phone saves them (undo can take them back)."""
    match = Match(game=game, options=options, first_dealer=0, table_id=players[0].table_id,
                  version=max(len(hands) - saved, 0))
    for seat, player in enumerate(players):
        match.seats.append(Seat(seat=seat, player=player))
    db.session.add(match)
    db.session.flush()
    stored = len(hands) - saved
    if stored:
        now = _now()
        db.session.execute(insert(Hand), [
            {"match_id": match.id, "number": n, "data": data, "created_at": now,
             "updated_at": now} for n, data in enumerate(hands[:stored], start=1)])
    db.session.commit()
    for number, data in enumerate(hands[stored:], start=stored + 1):
        save_hand(match, number, data, expected=None)
    return match.id


def quarantotto_games(games: int, players: int, rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for _game in range(games):
        closer = rng.randrange(players)
        out.append({"closer": closer, "points": [
            None if seat == closer else rng.randint(2, 60) for seat in range(players)]})
    return out


def timed(call: Callable[[], Any], prepare: Callable[[], Any] = lambda: None,
          runs: int = RUNS) -> list[float]:
    """Seconds of ``call()`` each run, ``prepare()`` (a change) before it, outside the
    timing; a first run to warm up."""
    prepare()
    call()
    out = []
    for _run in range(runs):
        prepare()
        start = time.perf_counter()
        call()
        out.append(time.perf_counter() - start)
    return out


# Save: the next game of a Quarantotto match of 6 players played to a target nobody reaches.

SAVE_AT = (50, 1000)
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo"]


def save_setup(app: Any, games: int) -> tuple[str, str]:
    """A table with a Quarantotto match of ``games`` games played; its id and an
    invitation's token."""
    with app.app_context():
        _table, players, token = new_table(NAMES[:6])
        match_id = add_match(players, "quarantotto", {"length": "target", "target": 100_000},
                             quarantotto_games(games, 6, random.Random(games)))
    return match_id, token


def save_times(base_phone: NewPhone, match_id: str, token: str, runs: int = RUNS) \
        -> list[float]:
    """Seconds of saving the next game (htmx, as the page posts it), the save undone
    afterwards outside the timing."""
    phone = base_phone()
    phone.join(token)
    rng = random.Random(1)
    url = f"/matches/{match_id}/quarantotto/game"

    def save() -> None:
        sheet = phone.json(match_id)
        closer = rng.randrange(6)
        form = {"version": sheet["version"], "number": sheet["next"]["number"],
                "action": "save", "closer": closer}
        form.update({f"values-{s}": "" if s == closer else rng.randint(2, 60)
                     for s in range(6)})
        start = time.perf_counter()
        phone.ok(phone.post(url, form, HTMX))
        times.append(time.perf_counter() - start)
        phone.step(match_id, "undo")

    times: list[float] = []
    for _run in range(runs + 1):
        save()
    return times[1:]


def save_row(app: Any, new_phone: NewPhone) -> list[tuple[str, str, str]]:
    made = {games: save_setup(app, games) for games in SAVE_AT}
    times: dict[int, list[float]] = {games: [] for games in SAVE_AT}
    for _turn in range(3):  # in turns: a slower spell of the machine falls on both
        for games, (match_id, token) in made.items():
            times[games] += save_times(new_phone, match_id, token, RUNS // 3 + 1)
    small, large = (statistics.median(times[g]) for g in SAVE_AT)
    return [(f"17. Saving a game (htmx) at game {SAVE_AT[1]:,} of a match vs at game "
             f"{SAVE_AT[0]}", f"{ms(large)} / {ms(small)} = {large / small:.2f}",
             "ratio <= 1.5")]


# Statistics: a table of thousands of finished Forty-Five matches of 4 players out of 8.

FORTYFIVE = {"target": 45, "jink": False, "three_pairs": False}
STATS_AT = (1000, 5000)


def finished_fortyfive(rng: random.Random) -> list[dict[str, Any]]:
    hands: list[dict[str, Any]] = []
    while not GAMES["fortyfive"].build_sheet(4, hands, **FORTYFIVE).finished:
        winners = [rng.randrange(4) for _trick in range(5)]
        hands.append({"trick_winners": winners, "bonus_seat": rng.choice(winners)})
    return hands


def stats_setup(app: Any, matches: int) -> tuple[str, str, str]:
    """A table of ``matches`` finished Forty-Five matches, the latest one's last hand saved
    by the ledger; the table's id, the latest match's and an invitation's token."""
    rng = random.Random(matches)
    pool = [finished_fortyfive(rng) for _ in range(40)]
    with app.app_context():
        table, players, token = new_table(NAMES)
        table_id = table.id
        rows = []
        for number in range(matches - 1):
            match = Match(game="fortyfive", options=dict(FORTYFIVE), first_dealer=0,
                          table_id=table_id, version=1)
            seated = rng.sample(players, 4)
            for seat, player in enumerate(seated):
                match.seats.append(Seat(seat=seat, player=player))
            db.session.add(match)
            rows.append((match, rng.choice(pool)))
            if number % 500 == 499 or number == matches - 2:
                db.session.flush()
                now = _now()
                db.session.execute(insert(Hand), [
                    {"match_id": m.id, "number": n, "data": data, "created_at": now,
                     "updated_at": now} for m, hands in rows
                    for n, data in enumerate(hands, start=1)])
                db.session.commit()
                rows = []
        latest = add_match(rng.sample(players, 4), "fortyfive", dict(FORTYFIVE),
                           rng.choice(pool), saved=1)
    return table_id, latest, token


def stats_times(new_phone: NewPhone, table_id: str, latest: str, token: str,
                runs: int = RUNS) -> list[float]:
    """Seconds of the statistics page after a change to the latest match (its last hand
    undone, then redone: it is unfinished, then finished again), made outside the timing."""
    phone = new_phone()
    phone.join(token)
    url = f"/tables/{table_id}/stats"
    return timed(lambda: phone.ok(phone.get(url)), lambda: phone.toggle(latest), runs)


def stats_row(app: Any, new_phone: NewPhone) -> list[tuple[str, str, str]]:
    made = {count: stats_setup(app, count) for count in STATS_AT}
    times: dict[int, list[float]] = {count: [] for count in STATS_AT}
    for _turn in range(3):
        for count, setup in made.items():
            times[count] += stats_times(new_phone, *setup, runs=RUNS // 3 + 1)
    small, large = (statistics.median(times[c]) for c in STATS_AT)
    return [(f"18. Statistics after a change, {STATS_AT[1]:,} matches vs {STATS_AT[0]:,}",
             f"{ms(large)} / {ms(small)} = {large / small:.2f}", "ratio <= 6")]


# Standings: 64 entrants, 6 rounds of 16 Quarantotto tables of 4 games.

ENTRANTS, ROUNDS = 64, 6


def standings_setup(app: Any) -> tuple[str, str, str]:
    """The tournament, every round seated and played (the last match's games saved by the
    ledger); its id, its last match's and an invitation's token to its table."""
    from scorekeeper.web.tournaments import publish_round, seat_next_round

    rng = random.Random(64)
    with app.test_request_context():
        table, _players, token = new_table([])
        evening = Tournament(table_id=table.id, name="Club night", game="quarantotto",
                             options={"length": "games", "games": 4, "target": 200},
                             format="danish", rounds=ROUNDS, size=4, seed=64)
        evening.entrants = [Entrant(number=n, names=[f"Player {n:02}"])
                            for n in range(ENTRANTS)]
        db.session.add(evening)
        db.session.commit()
        for _round in range(ROUNDS):
            row = seat_next_round(evening)
            publish_round(evening)
            db.session.commit()
            for seated in [t for t in evening.tables if t.round == row.number]:
                match = db.session.get(Match, seated.match_id)
                for number, data in enumerate(quarantotto_games(4, 4, rng), start=1):
                    save_hand(match, number, data, expected=None)
        return evening.id, evening.tables[-1].match_id, token


def standings_row(app: Any, new_phone: NewPhone) -> list[tuple[str, str, str]]:
    evening, match_id, token = standings_setup(app)
    phone = new_phone()
    phone.join(token)

    def change() -> None:
        phone.toggle(match_id)

    standings, sheet = [], []
    for _turn in range(3):
        standings += timed(lambda: phone.ok(phone.get(f"/tournaments/{evening}/standings")),
                           change, RUNS // 3 + 1)
        sheet += timed(lambda: phone.ok(phone.get(f"/matches/{match_id}")), change,
                       RUNS // 3 + 1)
    fresh, single = statistics.median(standings), statistics.median(sheet)
    return [(f"19. Standings of {ENTRANTS} entrants after a change vs a sheet after a change "
             "(the change outside the timing)",
             f"{ms(fresh)} / {ms(single)} = {fresh / single:.1f}", "ratio <= 10")]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


ROWS = (save_row, stats_row, standings_row)


def rows(directory: Path, new_phone: Callable[[Any], NewPhone] = client_phone) \
        -> list[tuple[str, str, str]]:
    """The rows, each on a database of its own in ``directory``; ``new_phone(app)`` makes the
    phones (in-process by default)."""
    out = []
    for number, row in enumerate(ROWS):
        app = make_app(directory / f"growth-{number}.db")
        out += row(app, new_phone(app))
    return out


def served_rows(directory: Path) -> list[tuple[str, str, str]]:
    """The rows through ``scorekeeper serve`` on loopback (a server a row, on its
    database), the phones over HTTPS as a phone at the table sends its requests."""
    from bench.served import served

    out = []
    for number, row in enumerate(ROWS):
        path = directory / f"growth-served-{number}.db"
        app = make_app(path)
        # The server runs this checkout's code, whatever install the virtualenv points to.
        with served(path, 1, PYTHONPATH=str(ROOT)) as server:
            out += row(app, http_phone(f"https://127.0.0.1:{server.port}"))
    return out


def main(arguments: list[str]) -> None:
    """``python -m bench.growth [--served] [save|stats|standings ...]``: the rows named (all
    of them by default), in-process or through a served server."""
    global ROWS
    named = [a for a in arguments if not a.startswith("--")]
    ROWS = tuple(row for row in ROWS if not named or row.__name__.removesuffix("_row") in named)
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-growth-"))
    for line in (served_rows if "--served" in arguments else rows)(folder):
        print(" | ".join(line), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
