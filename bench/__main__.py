"""`make bench`: the speed figures of issue 7, each a median over repeated runs, speeds as
ratios to a trivial route measured in the same run so that a noisy machine does not mislead.

Run from the repository root: ``python -m bench``.
"""

from __future__ import annotations

import compileall
import gzip
import io
import json
import os
import random
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bench import growth
from bench.club import BID_LIMIT, FOLLOWERS, STEP_SECONDS, TABLES, club_night, p95
from bench.floor import FLOOR_COLD, floor_app
from bench.served import free_port
from scorekeeper import create_app
from scorekeeper.db import db, upgrade
from scorekeeper.models import Hand, Match, Player, Seat, Table, name_key
from scorekeeper.rules import GAMES, navawhist

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo", "Irene", "Luca"]
RUNS = 40
LONGEST = 200  # games of the longest match a PDF and a worker's memory are measured with


def make_app(path: Path, **config):
    app = create_app({"TESTING": False, "SECRET_KEY": "bench", "OPEN_EDIT": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", **config})
    with app.app_context():
        upgrade()
    return app


def legal_hands(players: int, count: int, rng: random.Random) -> list[dict]:
    """``count`` complete Navawhist hands the dealer's restriction allows."""
    hands = []
    for index, cards in enumerate(navawhist.deal_schedule(players)[:count]):
        order = navawhist.bidding_order(players, index % players)
        bids = [0] * players
        for seat in order[:-1]:
            bids[seat] = rng.randint(0, cards)
        forbidden = navawhist.forbidden_bid(cards, [bids[s] for s in order[:-1]])
        bids[order[-1]] = rng.choice([b for b in range(cards + 1) if b != forbidden])
        tricks = [0] * players
        for _ in range(cards):
            tricks[rng.randrange(players)] += 1
        hands.append({"bids": bids, "tricks": tricks})
    return hands


def add_match(players: list[Player], hands: list[dict], game: str = "navawhist",
              options: dict | None = None) -> Match:
    match = Match(game=game, options={"hook": True} if options is None else options,
                  first_dealer=0, table_id=players[0].table_id)
    for seat, player in enumerate(players):
        match.seats.append(Seat(seat=seat, player=player))
    for number, data in enumerate(hands, start=1):
        match.hands.append(Hand(number=number, data=data))
    db.session.add(match)
    return match


def populate(app, matches: int, rng: random.Random) -> str:
    """``matches`` matches; the first is the largest sheet (10 players, 20 hands played)."""
    with app.app_context():
        players = table_players()
        largest = add_match(players, legal_hands(10, 20, rng))
        db.session.flush()
        largest_id = largest.id
        for i in range(matches - 1):
            count = 2 + i % 5
            add_match(players[:count], legal_hands(count, 3, rng))
            if i % 500 == 499:
                db.session.commit()
        db.session.commit()
    return largest_id


def match_ids(app, count: int) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(db.select(Match.id).limit(count)))


def table_players() -> list[Player]:
    """A new table and its ten players."""
    table = Table(name="Bench")
    db.session.add(table)
    db.session.flush()
    players = [Player(name=n, key=name_key(n), table_id=table.id) for n in NAMES]
    db.session.add_all(players)
    db.session.flush()
    return players


def finished_fortyfive(rng: random.Random) -> list[dict]:
    """The hands of a finished Forty-Five match of four players, tricks taken at random."""
    hands: list[dict] = []
    while not GAMES["fortyfive"].build_sheet(4, hands, **FORTYFIVE).finished:
        winners = [rng.randrange(4) for _trick in range(5)]
        hands.append({"trick_winners": winners, "bonus_seat": rng.choice(winners)})
    return hands


FORTYFIVE = {"target": 45, "jink": False, "three_pairs": False}


def bench_stats(directory: Path) -> list[tuple[str, str, str]]:
    """The statistics page of a table of 1,000 finished matches: cached; after a change to
    the latest match (every other match's facts and ratings kept); and from nothing."""
    app = make_app(directory / "stats.db")
    rng = random.Random(7)
    with app.app_context():
        players = table_players()[:8]
        table_id = players[0].table_id
        for _i in range(1000):
            add_match(rng.sample(players, 4), finished_fortyfive(rng), "fortyfive",
                      dict(FORTYFIVE))
        db.session.commit()
        latest = db.session.scalars(db.select(Match.id).order_by(Match.created_at.desc(),
                                                                 Match.id.desc())).first()
    client = app.test_client()
    url = f"/tables/{table_id}/stats"
    cached = timed(lambda: ok(client, url))

    changed = []
    for _run in range(10):
        with app.app_context():  # a new hand in the latest match, outside the timing
            db.session.execute(db.update(Match).where(Match.id == latest).values(
                version=Match.version + 1))
            db.session.execute(db.update(Table).where(Table.id == table_id).values(
                version=Table.version + 1))
            db.session.commit()
        start = time.perf_counter()
        ok(client, url)
        changed.append(time.perf_counter() - start)

    def cold():
        app.extensions.get("scorekeeper.caches", {}).clear()
        ok(client, url)

    empty = timed(cold, runs=5)
    sheet_app = make_app(directory / "sheet.db")
    sheet_id = populate(sheet_app, 2, random.Random(1))
    sheet_client = sheet_app.test_client()

    def fresh_sheet():
        sheet_app.extensions.get("scorekeeper.caches", {}).clear()
        ok(sheet_client, f"/matches/{sheet_id}")

    sheet = median(timed(fresh_sheet))
    return [("11. Statistics, 1,000 matches, cached", ms(median(cached)), "< 50 ms"),
            ("   after a change, vs a sheet's first render",
             f"{ms(median(changed))} / {ms(sheet)} = {median(changed) / sheet:.1f}x",
             "<= 10x"),
            ("   from empty caches (a new worker)", ms(median(empty)), "")]


def timed(call: Callable[[], object], runs: int = RUNS) -> list[float]:
    call()  # warm-up
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        out.append(time.perf_counter() - start)
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def median(values: list[float]) -> float:
    return statistics.median(values)


def ok(client, url: str, **kwargs):
    response = client.get(url, **kwargs)
    assert response.status_code == 200, (url, response.status_code)
    return response


def bench_sheet(app, client, match_id: str) -> list[tuple[str, str, str]]:
    sheet = timed(lambda: ok(client, f"/matches/{match_id}"))
    trivial = timed(lambda: ok(client, "/health"))

    def fresh():
        app.extensions["scorekeeper.caches"].clear()  # as right after a change
        ok(client, f"/matches/{match_id}")

    uncached = timed(fresh)
    ratio = median(sheet) / median(trivial)
    return [("1. Largest sheet vs trivial route (test client)",
             f"{ms(median(sheet))} / {ms(median(trivial))} = {ratio:.2f}", "ratio <= 3"),
            ("   the same, first render after a change",
             f"{ms(median(uncached))} ({median(uncached) / median(trivial):.0f}x trivial)", "")]


def bench_bid(app, client) -> list[tuple[str, str, str]]:
    """One bid in the largest match: POST with htmx, the fragment back; then undone. And
    whole 4-player rounds: four bids and the tricks, each tap followed by the live read a
    following phone makes."""
    with app.app_context():
        players = db.session.query(Player).order_by(Player.id).limit(10).all()
        match = add_match(players, legal_hands(10, 19, random.Random(5)))
        db.session.commit()
        match_id = match.id
    token = re.search(r'name="csrf_token" value="([^"]+)"',
                      ok(client, "/matches/new").get_data(as_text=True)).group(1)
    htmx = {"HX-Request": "true"}
    times, sizes, zipped = [], [], []
    for _ in range(RUNS):
        sheet = ok(client, f"/matches/{match_id}.json").get_json()
        data = {"csrf_token": token, "version": sheet["version"], "number": 20,
                "seat": sheet["next"]["info"]["bidder"], "bid": 0}
        start = time.perf_counter()
        response = client.post(f"/matches/{match_id}/navawhist/bid", data=data, headers=htmx)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
        sizes.append(len(response.data))
        zipped.append(len(gzip.compress(response.data)))
        undo = client.post(f"/matches/{match_id}/undo", data={
            "csrf_token": token, "version": sheet["version"] + 1})
        assert undo.status_code == 303
    trivial = median(timed(lambda: ok(client, "/health")))
    rounds = []
    with app.app_context():
        match = add_match(players[:4], [])
        db.session.commit()
        match_id = match.id
    live = {"etag": ""}

    def tap(path: str, data: dict) -> None:
        response = client.post(path, data={"csrf_token": token, **data}, headers=htmx)
        assert response.status_code == 200, response.status_code
        reply = client.get(f"/matches/{match_id}/live",
                           headers={"If-None-Match": live["etag"]})
        live["etag"] = reply.headers.get("ETag", live["etag"])

    for hand in legal_hands(4, 16, random.Random(7)):
        sheet = ok(client, f"/matches/{match_id}.json").get_json()
        number, version = sheet["next"]["number"], sheet["version"]
        start = time.perf_counter()
        for seat in sheet["next"]["info"]["order"]:
            tap(f"/matches/{match_id}/navawhist/bid",
                {"version": version, "number": number, "seat": seat, "bid": hand["bids"][seat]})
            version += 1
        tap(f"/matches/{match_id}/navawhist/tricks", {"version": version, "number": number,
                                            "action": "save", **{
            f"values-{s}": t for s, t in enumerate(hand["tricks"])}})
        rounds.append(time.perf_counter() - start)
    floor, floor_trivial = bench_floor(Path(tempfile.mkdtemp(prefix="scorekeeper-floor-")))
    return [
        ("2. One bid (POST + htmx fragment) vs /health",
         f"median {ms(median(times))} = {median(times) / trivial:.1f}x, p95 {ms(p95(times))}",
         "ratio <= 6"),
        ("   its fragment", f"{median(sizes) / 1024:.2f} KB ({median(zipped) / 1024:.2f} KB gzip)",
         "< 4 KB"),
        ("   a 4-player round: 4 bids, the tricks, a live read after each",
         f"median {ms(median(rounds))} = {median(rounds) / trivial:.0f}x /health", "ratio <= 30"),
        ("   the stack's floor: a bare CSRF POST that claims a version, adds a row, commits",
         f"{ms(floor)} = {floor / floor_trivial:.1f}x its /health ({ms(floor_trivial)})",
         "(bench/floor.py)"),
    ]


def bench_https(directory: Path) -> list[tuple[str, str, str]]:
    """A bid and a whole round over HTTPS through ``scorekeeper serve``, by a phone that
    joined its table by an invitation, against the floor's bare POST served the same way."""
    from bench.phones import https_taps

    path = directory / "https.db"
    make_app(path)
    got = https_taps(path, directory, legal_hands(4, 16, random.Random(11)))
    bid, post = median(got["bid"]), median(got["post"])
    round_, posts = median(got["round"]), median(got["posts"])
    return [
        ("12. Over HTTPS through scorekeeper serve (Caddy, 2 workers), keep-alive, a phone "
         "that joined its table by an invitation: a bid vs the floor's bare CSRF POST "
         "(bench/floor.py through its own Caddy and gunicorn), wall medians, "
         f"{len(got['bid'])} bids", f"{ms(bid)} / {ms(post)} = {bid / post:.2f}",
         "ratio <= 1.5"),
        ("    a 4-player round as the page posts it (4 bids, the tricks, the live reads) vs "
         f"five bare POSTs, {len(got['round'])} rounds",
         f"{ms(round_)} / {ms(posts)} = {round_ / posts:.2f}", "ratio <= 1.8"),
    ]


def bench_club(directory: Path) -> list[tuple[str, str, str]]:
    """A club night over HTTPS, the tables where it breaks, the same night on the floor of
    the stack, the server's memory after it."""
    path = directory / "club.db"
    make_app(path)
    got = club_night(path, legal_hands(4, 16, random.Random(16)))
    first, floor = got["night"], got["floor"]

    def measured(night: dict) -> str:
        errors = sorted(set(night["errors"]))[:3]
        return (f"bid p95 {ms(p95(night['bids']))} ({len(night['bids'])} bids), poll p95 "
                f"{ms(p95(night['polls']))} ({len(night['polls'])} polls), "
                f"{night['resets']} connections reset{'; ' + ', '.join(errors) if errors else ''}")

    def cpu(night: dict) -> str:
        return f"{night['wall']:.0f} s: " + ", ".join(
            f"{what} {seconds:.1f} s" for what, seconds in night["cpu"].items())

    def held(night: dict) -> str:
        return (f"{night['tables']} tables: bid p95 {ms(p95(night['bids']))}, poll p95 "
                f"{ms(p95(night['polls']))}, {night['resets']} resets")

    def holds(night: dict) -> bool:
        return p95(night["bids"]) < BID_LIMIT and not night["resets"]

    steps = "; ".join(held(step) for step in got["steps"])
    kept = [step["tables"] for step in [first, *got["steps"]] if holds(step)]
    lost = [step["tables"] for step in [first, *got["steps"]] if not holds(step)]
    if not lost:
        where = f"held up to {max(kept)} tables (the most tried)"
    elif kept:
        where = f"holds {max(kept)} tables, breaks at {min(lost)}"
    else:
        where = f"breaks at {min(lost)} tables (the fewest tried)"
    return [
        (f"16. A club night through scorekeeper serve (Caddy, HTTPS, 2 workers): {FOLLOWERS:,} "
         f"phones following (a poll every 4 s, keep-alive), {TABLES} tables a tap a second, "
         "40 s", measured(first), "< 50 ms, < 30 ms, no reset"),
        (f"    where it breaks: 60, 80... tables ({STEP_SECONDS:.0f} s each) until a bid's p95 "
         "reaches 50 ms or a reset (20 and 10 when 40 do not hold)", f"{where} ({steps})",
         "reported"),
        ("    CPU seconds over the night (its 8 s of opening included), from /proc",
         f"{cpu(first)}; the host's load average {os.getloadavg()[0]:.1f}", ""),
        ("    the floor app served the same way (bench/floor.py: a bare CSRF POST, a version "
         "read), the same night after Scorekeeper's: what the stack itself gives here",
         f"{measured(floor)}; CPU over {cpu(floor)}", "reported"),
        ("9. The whole server's memory after the club night (RSS from /proc)",
         got["memory"].text(), ""),
    ]


def bench_phone(directory: Path) -> list[tuple[str, str, str]]:
    """The tap as the player feels it: Chromium, throttled, tap to painted answer."""
    from bench.phone import phone_taps

    path = directory / "phone.db"
    make_app(path)
    got = phone_taps(path)
    bids, saves = got["bid"], got["save"]
    return [
        ("15. The tap as the player feels it: Chromium 390x844, CPU 4x slower, 40 ms added "
         "latency, HTTPS by a LAN name; click to the answer painted: a Navawhist bid, p95",
         f"{ms(p95(bids))} (median {ms(median(bids))}, {len(bids)} taps; the request alone: "
         f"median {ms(median(got['bid request']))})", "< 150 ms"),
        ("    a save (the tricks of a Navawhist hand), p95",
         f"{ms(p95(saves))} (median {ms(median(saves))}, {len(saves)} taps; the request alone: "
         f"median {ms(median(got['save request']))})", "< 250 ms"),
    ]


def bench_floor(directory: Path) -> tuple[float, float]:
    """Median seconds of the floor app's bid and of its /health, through its test client."""
    try:
        client = floor_app(directory / "floor.db").test_client()
        token = client.get("/token").get_data(as_text=True)
        version = iter(range(10**6))

        def bid() -> None:
            response = client.post("/bid", data={"csrf_token": token, "bid": 2,
                                                 "version": next(version)})
            assert response.status_code == 200, response.status_code

        trivial = median(timed(lambda: client.get("/health"), 200))
        return median(timed(bid, 200)), trivial
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def bench_pdf(client, match_id: str) -> list[tuple[str, str, str]]:
    sizes = []

    def render():
        client.application.extensions.get("scorekeeper.caches", {}).pop("pdf", None)
        sizes.append(len(ok(client, f"/matches/{match_id}.pdf").data))

    times = timed(render, runs=7)
    return [("3. Largest PDF (10 players, 20 hands)",
             f"{ms(median(times))}, {sizes[-1] / 1024:.0f} KB", "< 1 s")]


def add_quarantotto(players: list[Player], games: int, rng: random.Random) -> str:
    """A Quarantotto match of ``games`` games for the players, played to a target no total
    reaches (a match of more than 100 games is played to a target): the longest sheet."""
    hands = []
    for _number in range(games):
        closer = rng.randrange(len(players))
        hands.append({"closer": closer, "points": [
            0 if seat == closer else rng.randint(2, 60) for seat in range(len(players))]})
    match = add_match(players, hands, "quarantotto", {"length": "target", "target": 100_000})
    db.session.commit()
    return match.id


def bench_long_pdf(app, client) -> list[tuple[str, str, str]]:
    """The PDF of a 6-player, 200-game Quarantotto match, made afresh each run (the PDF
    cache is emptied: a cached answer would measure nothing)."""
    with app.app_context():
        players = list(db.session.scalars(db.select(Player).order_by(Player.id)))[:6]
        match_id = add_quarantotto(players, LONGEST, random.Random(3))
    sizes = []

    def render():
        app.extensions.get("scorekeeper.caches", {}).pop("pdf", None)
        sizes.append(len(ok(client, f"/matches/{match_id}.pdf?lang=it").data))

    times = timed(render, runs=7)
    return [(f"3b. PDF of {LONGEST} Quarantotto games, 6 players",
             f"{ms(median(times))}, {sizes[-1] / 1024:.0f} KB", "< 1 s")]


def load(url: str, seconds: float, cookie: str = "") -> float:
    out = subprocess.run([sys.executable, "-m", "bench.load", url, str(seconds), "8", cookie],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return float(out.stdout)


@contextmanager
def gunicorn(path: Path, workers: int) -> Iterator[tuple[str, subprocess.Popen]]:
    """gunicorn serving the app on the database at ``path``: its base URL and process."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{path}", "SCOREKEEPER_OPEN_EDIT": "1"}
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "--workers", str(workers), "--bind",
         f"127.0.0.1:{port}", "--log-level", "warning", "scorekeeper:create_app()"],
        cwd=ROOT, env=env)
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", server
    finally:
        server.terminate()
        server.wait(10)


def bench_gunicorn(path: Path, match_id: str) -> list[tuple[str, str, str]]:
    with gunicorn(path, 2) as (base, _server):
        load(f"{base}/health", 1)  # warm both workers
        # A browser's cookie: its session, with its CSRF token, as a phone sends it.
        with urllib.request.urlopen(f"{base}/matches/new", timeout=10) as response:
            cookie = response.headers["Set-Cookie"].split(";", 1)[0]
        loads = {"sheet": (f"{base}/matches/{match_id}", cookie),
                 "anonymous": (f"{base}/matches/{match_id}", ""), "trivial": (f"{base}/health", "")}
        rates: dict[str, list[float]] = {name: [] for name in loads}
        # Five seconds each, in turns of one: a slower spell of the (shared) machine falls
        # on all three alike instead of on whichever ran through it.
        for _ in range(5):
            for name, (url, sent) in loads.items():
                rates[name].append(load(url, 1, sent))
        sheet, anonymous, trivial = (statistics.fmean(rates[name]) for name in loads)
    return [("4. Sheet under gunicorn with a browser's cookie, 2 workers, 8 threads, 5 x 1 s "
             "in turns with the others",
             f"{sheet:.0f} req/s vs {trivial:.0f} req/s trivial ({sheet / trivial:.2f})",
             "ratio >= 0.6"),
            ("   the same without a cookie", f"{anonymous:.0f} req/s ({anonymous / trivial:.2f})",
             "")]


MINIMAL_APP = "from flask import Flask\napp = Flask(__name__)\napp.get('/')(lambda: 'ok')\n"


def first_200(app: str, env: dict[str, str]) -> float:
    """Seconds from starting ``flask --app app run`` to its first 200 on ``/``."""
    port = free_port()
    start = time.perf_counter()
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "flask"), "--app", app, "run", "--port", str(port)],
        cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as reply:
                    if reply.status == 200:
                        return time.perf_counter() - start
            except OSError:
                time.sleep(0.005)
    finally:
        server.terminate()
        server.wait(10)


def bench_cold_start(directory: Path, path: Path) -> list[tuple[str, str, str]]:
    """A new process's start, as a server's worker starts once the app was run before: every
    module's bytecode compiled (here, where PYTHONDONTWRITEBYTECODE may be set, compiled
    first for the three apps alike)."""
    (directory / "minimal.py").write_text(MINIMAL_APP)
    (directory / "floorcold.py").write_text(FLOOR_COLD)
    for folder in (ROOT / "scorekeeper", directory):
        compileall.compile_dir(folder, quiet=1)
    ours, minimal, floor = [], [], []
    for _ in range(5):
        ours.append(first_200("scorekeeper", {"DATABASE_URL": f"sqlite:///{path}"}))
        minimal.append(first_200("minimal", {"PYTHONPATH": str(directory)}))
        floor.append(first_200("floorcold", {"PYTHONPATH": str(directory)}))
    return [("10. flask run to the first 200 on /, vs the stack's floor (a minimal app with "
             "Flask-SQLAlchemy and CSRF, one query)",
             f"{ms(median(ours))} / {ms(median(floor))} = {median(ours) / median(floor):.2f}",
             "ratio <= 1.5"),
            ("   a minimal Flask app", f"{ms(median(minimal))}: ours "
             f"{median(ours) / median(minimal):.2f}x, the floor's "
             f"{median(floor) / median(minimal):.2f}x", "")]


def bench_home(directory: Path) -> list[tuple[str, str, str]]:
    medians = {}
    for count in (10, 10_000):
        path = directory / f"home-{count}.db"
        app = make_app(path)
        populate(app, count, random.Random(count))
        client = app.test_client()
        medians[count] = median(timed(lambda c=client: ok(c, "/")))
    ratio = medians[10_000] / medians[10]
    return [("5. Home with 10 000 vs 10 matches",
             f"{ms(medians[10_000])} / {ms(medians[10])} = {ratio:.2f}", "ratio <= 1.5")]


def bench_first_visit(client, match_id: str) -> list[tuple[str, str, str]]:
    gz = {"Accept-Encoding": "gzip"}
    page = ok(client, f"/matches/{match_id}", headers=gz)
    total = len(page.data)
    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.get_data(as_text=False).decode(
        "utf-8", "replace") if page.headers.get("Content-Encoding") != "gzip"
        else gzip.decompress(page.data).decode())
    for url in sorted(set(assets)):
        total += len(ok(client, url.replace("&amp;", "&"), headers=gz).data)
    return [("6. First visit to a sheet (HTML, CSS, JS, gzip)",
             f"{total / 1024:.1f} KB in {1 + len(set(assets))} files", "< 40 KB")]


def bench_limits(client) -> list[tuple[str, str, str]]:
    """What a hostile request costs: an oversize body, a backup of 100,000 empty entries."""
    body = io.BytesIO(b"a=" + b"x" * (20 * 1024 * 1024))

    def oversize():
        body.seek(0)
        response = client.post("/matches/new", input_stream=body, headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": str(len(body.getbuffer()))})
        assert response.status_code == 413, response.status_code

    tracemalloc.start()
    oversize()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    times = timed(oversize, runs=10)
    page = ok(client, "/backup").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    backup = json.dumps({"format": "scorekeeper-backup", "matches": [{}] * 100_000}).encode()

    def hostile_backup():
        response = client.post("/backup", content_type="multipart/form-data", data={
            "csrf_token": token, "file": (io.BytesIO(backup), "backup.json")})
        assert response.status_code == 422, response.status_code

    imports = timed(hostile_backup, runs=5)
    return [("7. 20 MB form body: the 413", f"{ms(median(times))}, peak {peak / 2**20:.1f} MB",
             "< 100 ms, a few MB"),
            ("8. Backup of 100 000 empty matches: refused",
             f"{ms(median(imports))} ({len(backup) / 1024:.0f} KB file)", "< 2 s")]


class LockProbe(threading.Thread):
    """Takes SQLite's write lock again and again on a connection of its own: the longest
    wait is how long anyone else held it at a time."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path, self.waits, self.done = path, [0.0], threading.Event()

    def run(self) -> None:
        connection = sqlite3.connect(self.path, timeout=60, isolation_level=None)
        while not self.done.is_set():
            start = time.perf_counter()
            connection.execute("BEGIN IMMEDIATE")
            self.waits.append(time.perf_counter() - start)
            connection.execute("ROLLBACK")
            time.sleep(0.005)
        connection.close()


def bench_import(directory: Path) -> list[tuple[str, str, str]]:
    """A backup at every cap of an upload, sent on /backup into an empty instance: how long
    it takes, how long another connection waits for SQLite's write lock meanwhile, and the
    size of the backup downloaded afterwards against the file sent."""
    from bench.backups import at_caps
    from scorekeeper.engine.backups import UPLOAD

    content = json.dumps(at_caps(UPLOAD), ensure_ascii=False).encode()
    times, waits, sizes = [], [], []
    for run in range(3):
        path = directory / f"import-{run}.db"
        app = make_app(path)
        client = app.test_client()
        page = ok(client, "/backup").get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        probe = LockProbe(path)
        probe.start()
        start = time.perf_counter()
        response = client.post("/backup", content_type="multipart/form-data", data={
            "csrf_token": token, "file": (io.BytesIO(content), "backup.json")})
        times.append(time.perf_counter() - start)
        probe.done.set()
        probe.join()
        assert response.status_code == 200, response.status_code
        assert f"{UPLOAD.matches} matches added" in response.get_data(as_text=True)
        waits.append(max(probe.waits))
        sizes.append(len(ok(client, "/backup.json").data))
    return [(f"13. Import at the caps ({UPLOAD.matches:,} matches, {UPLOAD.hands:,} hands, "
             f"{UPLOAD.changes:,} changes, {UPLOAD.tables} tables, {UPLOAD.phones:,} phones; "
             f"{len(content) / 2**20:.1f} MB), median of 3", f"{median(times):.2f} s", "< 5 s"),
            ("    SQLite's write lock: another connection's longest wait",
             f"{max(waits) * 1000:.0f} ms", "< 1 s"),
            ("    the backup downloaded afterwards, vs the file sent",
             f"{sizes[-1] / 2**20:.1f} MB = {sizes[-1] / len(content):.2f}x", "<= 1.2x")]


def machine() -> str:
    """The processor, its cores and the memory, as /proc tells them."""
    cpu = next((line.split(":", 1)[1].strip() for line in
                Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), "unknown processor")
    memory = int(Path("/proc/meminfo").read_text().split()[1]) / 2**20
    return f"{cpu}, {os.cpu_count()} cores, {memory:.0f} GiB"


def main(selected: list[str]) -> None:
    """Every row, or only the parts whose first row's number is in ``selected`` (``python
    -m bench 12 15 16``: the served rows)."""
    load_before = os.getloadavg()[0]
    directory = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    try:
        path = directory / "bench.db"
        app = make_app(path)
        largest = populate(app, 50, random.Random(1))
        client = app.test_client()
        rows = [("Figure", "Measured", "Target")]
        parts = {"1": lambda: bench_sheet(app, client, largest),
                 "2": lambda: bench_bid(app, client),
                 "3": lambda: bench_pdf(client, largest),
                 "3b": lambda: bench_long_pdf(app, client),
                 "4": lambda: bench_gunicorn(path, largest),
                 "5": lambda: bench_home(directory),
                 "6": lambda: bench_first_visit(client, largest),
                 "7": lambda: bench_limits(client),
                 "10": lambda: bench_cold_start(directory, path),
                 "11": lambda: bench_stats(directory),
                 "12": lambda: bench_https(directory),
                 "13": lambda: bench_import(directory),
                 "15": lambda: bench_phone(directory),
                 "16": lambda: bench_club(directory),
                 "17-19": lambda: growth.rows(directory)}
        unknown = set(selected) - set(parts)
        if unknown:
            sys.exit(f"no such row: {', '.join(sorted(unknown))} (rows: {', '.join(parts)})")
        for name, part in parts.items():
            if not selected or name in selected:
                rows += part()
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        print(f"Scorekeeper bench, {time.strftime('%Y-%m-%d')}, {machine()}, "
              f"Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}; medians of "
              f"{RUNS} runs unless a row says otherwise; load average before the run "
              f"{load_before:.1f}")
        for index, row in enumerate(rows):
            print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")
            if index == 0:
                print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
