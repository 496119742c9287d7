"""A club night on one server: 2,000 following phones and 40 tables entering hands, over HTTPS.

``scorekeeper serve`` (Caddy and 2 gunicorn workers, as ``make run`` starts them) on
loopback, HTTPS through Caddy by the table's LAN name, as phones that installed its
certificate meet it, with phones' rights as a club has them: each table's phone starts its
own match, so it alone may edit it. Each follower keeps a keep-alive connection to the
server, reads the live part of one table's match, then asks every 4 s whether it changed
since the version it shows, as its page does (htmx, ``live?since=``; 204 while unchanged);
each table plays Navawhist on its match at a brisk table's pace, a tap a second (a bid, or
all the tricks), each tap followed by the live read its page makes. The followers run in a
few processes (one asyncio loop each), the tables in this one. After the first 8 s (every
phone has opened its page), the time from sending each request to reading its whole answer
is recorded: the bench reports the 95th percentile of the bids and of the followers' polls,
and counts the connections reset or closed under a request.

The same night is then played against the floor of the stack (bench/floor.py, served the
same way): its tables start games as Scorekeeper's start matches, tap its bare CSRF POST
(a hand's four bids and the tricks, each claiming a version) and read its live part, and
its followers poll that live part as they poll Scorekeeper's. What differs between the two
is an ``App``; the night's code is the same."""

from __future__ import annotations

import asyncio
import gzip
import json
import multiprocessing
import os
import random
import re
import resource
import ssl
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from bench.phones import LAN_NAME, NAMES, root_of, served_floor, server_memory, trusting
from bench.served import served
from scorekeeper.rules import GAMES

FOLLOWERS = 2000
TABLES = 40
PROCESSES = 4  # the followers' processes
POLL = 4.0  # seconds between a follower's reads, as the page polls
TAP = 1.0  # seconds between a table's taps
WARM = 2 * POLL  # seconds the phones take to open their pages, before the measure starts
BID_LIMIT = 0.050  # a bid's p95 above which the night is lost (the step up stops)
STEPS = (60, 80, 100, 120, 160)  # the table counts tried after the night, while it holds
FEWER = (20, 10)  # tried instead when the night itself does not hold
STEP_SECONDS = 20.0

TICK = os.sysconf("SC_CLK_TCK")
LOST = (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError, EOFError, ValueError,
        IndexError)


class Phone:
    """One phone's keep-alive HTTPS connection: its cookie, its timings and resets."""

    def __init__(self, port: int, context: ssl.SSLContext) -> None:
        self.port, self.context = port, context
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookie = ""
        self.resets = 0

    async def send(self, method: str, path: str, headers: dict[str, str] | None = None,
                   body: str = "") -> tuple[int, dict[str, str], bytes]:
        """Send one request on the connection (opened again when the server closed it
        between two requests; a connection lost under a request is counted and the request
        sent again, once)."""
        for attempt in range(2):
            try:
                return await self._send(method, path, headers, body)
            except LOST:
                self.resets += 1
                if self.writer is not None:
                    self.writer.close()
                self.writer = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _send(self, method: str, path: str, headers: dict[str, str] | None,
                    body: str) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1", self.port, ssl=self.context, server_hostname=LAN_NAME)
        head = {"Host": f"{LAN_NAME}:{self.port}", "Accept-Encoding": "gzip",
                "Referer": f"https://{LAN_NAME}:{self.port}/", **(headers or {})}
        if self.cookie:
            head["Cookie"] = self.cookie
        if body:
            head["Content-Type"] = "application/x-www-form-urlencoded"
            head["Content-Length"] = str(len(body))
        lines = "".join(f"{k}: {v}\r\n" for k, v in head.items())
        self.writer.write(f"{method} {path} HTTP/1.1\r\n{lines}\r\n{body}".encode())
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        answer: dict[str, str] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, value = line.decode().split(":", 1)
            answer[name.strip().lower()] = value.strip()
        data = await self.reader.readexactly(int(answer.get("content-length", 0)))
        if "set-cookie" in answer:
            self.cookie = answer["set-cookie"].split(";", 1)[0]
        if answer.get("connection", "").lower() == "close":
            self.writer.close()
            self.writer = None
        return status, answer, data


def shown_version(answer: dict[str, str], data: bytes) -> int:
    """The version a live part shows (its ``data-version``)."""
    if answer.get("content-encoding") == "gzip":
        data = gzip.decompress(data)
    return int(re.search(rb'data-version="(\d+)"', data).group(1))


async def follow(port: int, context: ssl.SSLContext, live: str, since: float,
                 until: float, polls: list[float], errors: list[str]) -> int:
    """A follower: the live part at ``live``, then every 4 s whether it changed since the
    version its page shows. Its connection's resets."""
    phone = Phone(port, context)
    await asyncio.sleep(random.uniform(0, POLL))  # phones do not all open at once
    try:
        status, answer, data = await phone.send("GET", live)
        assert status == 200, status
        version = shown_version(answer, data)
        await asyncio.sleep(POLL)
        while time.perf_counter() < until:
            start = time.perf_counter()
            status, answer, data = await phone.send(
                "GET", f"{live}?since={version}", {"HX-Request": "true"})
            if start >= since:
                polls.append(time.perf_counter() - start)
            if status not in (200, 204):
                errors.append(f"poll {status}")
            elif status == 200:
                version = shown_version(answer, data)
            await asyncio.sleep(POLL - (time.perf_counter() - start) % POLL)
    except (*LOST, AssertionError) as error:
        errors.append(f"follower gave up: {error!r}")
    finally:
        if phone.writer is not None:
            phone.writer.close()
    return phone.resets


def followers(port: int, root: bytes, lives: list[str], count: int, since: float,
              until: float) -> tuple[list[float], int, list[str], float]:
    """``count`` followers in this process (one of a few), each following one of the live
    parts at ``lives``: their polls' seconds, their resets, what went wrong and the CPU
    seconds this process used."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    context = trusting(root)
    polls: list[float] = []
    errors: list[str] = []

    async def run() -> list[int]:
        return await asyncio.gather(*(
            follow(port, context, lives[n % len(lives)], since, until, polls, errors)
            for n in range(count)))

    cpu = time.process_time()
    resets = asyncio.run(run())
    return polls, sum(resets), errors[:20], time.process_time() - cpu


Taps = list[tuple[str, str, dict]]  # a hand's taps: (what, the path it posts to, its form)


@dataclass(frozen=True)
class App:
    """What a night plays against. A table's phone starts its game at ``{prefix}/new`` (the
    page, its CSRF token, then ``form`` posted: a 303 to the game) and follows it at
    ``{prefix}/<id>/live``, as the followers do; ``hand`` gives a hand's taps, from the
    version the game is at; ``tapped`` reads the version a tap's answer shows."""

    prefix: str
    form: dict
    hand: Callable[[Phone, str, dict], Awaitable[tuple[int, Taps] | None]]
    tapped: Callable[[dict[str, str], bytes], int]


async def match_hand(phone: Phone, match_id: str, hand: dict) -> tuple[int, Taps] | None:
    """A Navawhist hand as its page posts it, from the match's sheet: a bid a seat in the
    order of the bidding, then the tricks (none when the match is over)."""
    _, _, data = await phone.send("GET", f"/matches/{match_id}.json",
                                  {"Accept-Encoding": "identity"})
    sheet = json.loads(data)
    if sheet["next"] is None:
        return None
    number, path = sheet["next"]["number"], f"/matches/{match_id}/navawhist"
    taps = [("bid", f"{path}/bid", {"number": number, "seat": seat, "bid": hand["bids"][seat]})
            for seat in sheet["next"]["info"]["order"]]
    taps.append(("tricks", f"{path}/tricks", {"number": number, "action": "save", **{
        f"values-{s}": t for s, t in enumerate(hand["tricks"])}}))
    return sheet["version"], taps


async def game_hand(phone: Phone, game_id: str, hand: dict) -> tuple[int, Taps]:
    """A hand on the floor's game, from the version its live part shows: four bare POSTs,
    then the tricks as a fifth."""
    _, answer, data = await phone.send("GET", f"/games/{game_id}/live")
    path = f"/games/{game_id}/bid"
    taps = [("bid", path, {"bid": bid}) for bid in hand["bids"]]
    taps.append(("tricks", path, {"bid": hand["tricks"][0]}))
    return shown_version(answer, data), taps


SCOREKEEPER = App(
    "/matches",
    {"game": "navawhist", "first_dealer": 0, "action": "start",
     **{f"players-{n}": name for n, name in enumerate(NAMES)},
     **{f"opt_{option.key}": "y" if option.default is True else option.default
        for option in GAMES["navawhist"].options if option.default not in (False, None)}},
    match_hand, lambda answer, _data: int(answer["x-match-version"]))
FLOOR = App("/games", {}, game_hand, shown_version)


async def start_game(app: App, port: int, context: ssl.SSLContext) -> tuple[Phone, str, str]:
    """A table's phone starting its game (a match of 4 players on Scorekeeper): the phone,
    its CSRF token and the game's id."""
    phone = Phone(port, context)
    _, _, page = await phone.send("GET", f"{app.prefix}/new", {"Accept-Encoding": "identity"})
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
    status, answer, _ = await phone.send("POST", f"{app.prefix}/new",
                                         body=urlencode({"csrf_token": token, **app.form}))
    assert status == 303, status
    return phone, token, answer["location"].rsplit("/", 1)[1]


async def play(app: App, phone: Phone, token: str, game_id: str, hands: list[dict],
               since: float, until: float, bids: list[float], errors: list[str]) -> None:
    """A table: bids and tricks a tap a second, each followed by its page's live read."""
    htmx = {"HX-Request": "true"}
    await asyncio.sleep(random.uniform(0, TAP))
    try:
        for hand in hands:
            got = await app.hand(phone, game_id, hand)
            if got is None:
                return
            version, taps = got
            for kind, path, form in taps:
                if time.perf_counter() >= until:
                    return
                start = time.perf_counter()
                status, answer, data = await phone.send("POST", path, htmx, urlencode(
                    {"csrf_token": token, "version": version, **form}))
                if kind == "bid" and start >= since:
                    bids.append(time.perf_counter() - start)
                if status != 200:
                    errors.append(f"{kind} {status}")
                    return
                version = app.tapped(answer, data)
                await phone.send("GET", f"{app.prefix}/{game_id}/live?since={version}", htmx)
                await asyncio.sleep(max(0.0, TAP - (time.perf_counter() - start)))
    except LOST as error:
        errors.append(f"table gave up: {error!r}")


async def tables_night(app: App, tables: list[tuple[Phone, str, str]], hands: list[dict],
                       since: float, until: float,
                       errors: list[str]) -> tuple[list[float], int]:
    bids: list[float] = []
    await asyncio.gather(*(play(app, *table, hands, since, until, bids, errors)
                           for table in tables))
    return bids, sum(table[0].resets for table in tables)


def cpu_seconds(pid: int) -> float:
    """The CPU seconds process ``pid`` has used (user and system), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def night(port: int, root: bytes, hands: list[dict], tables: int, seconds: float,
          processes: dict[str, list[int]] | None = None, followers_count: int = FOLLOWERS,
          app: App = SCOREKEEPER) -> dict:
    """One night on a running server of ``app``: ``tables`` tables start their games, then
    play while the followers (in ``PROCESSES`` processes) follow them. With ``processes``
    (the server's pids by what they are: Caddy, the workers), the CPU seconds they used
    meanwhile, and the phones' processes."""
    context = trusting(root)

    async def open_tables() -> list[tuple[Phone, str, str]]:
        return await asyncio.gather(*(start_game(app, port, context) for _ in range(tables)))

    async def whole() -> tuple[list[float], int, list]:
        opened = await open_tables()
        lives = [f"{app.prefix}/{table[2]}/live" for table in opened]
        since = time.perf_counter() + WARM
        until = since + seconds
        loop = asyncio.get_running_loop()
        share = followers_count // PROCESSES
        pending = [pool.apply_async(followers, (port, root, lives, share, since, until))
                   for _ in range(PROCESSES)]
        errors: list[str] = []
        bids, resets = await tables_night(app, opened, hands, since, until, errors)
        got = await loop.run_in_executor(
            None, lambda: [p.get(timeout=seconds + 120) for p in pending])
        for table in opened:
            if table[0].writer is not None:
                table[0].writer.close()
        return bids, resets, [got, errors]

    # The followers' processes are forked before this one's loop runs.
    pool = multiprocessing.get_context("fork").Pool(PROCESSES)
    pids = processes or {}
    before = {what: sum(cpu_seconds(pid) for pid in group) for what, group in pids.items()}
    wall, mine = time.perf_counter(), time.process_time()
    try:
        bids, resets, (got, errors) = asyncio.run(whole())
    finally:
        pool.close()
        pool.join()
    cpu = {what: sum(cpu_seconds(pid) for pid in group) - before[what]
           for what, group in pids.items()}
    cpu["phones"] = time.process_time() - mine + sum(part[3] for part in got)
    polls = [poll for part in got for poll in part[0]]
    return {"bids": bids, "polls": polls, "resets": resets + sum(part[1] for part in got),
            "errors": errors + [e for part in got for e in part[2]], "tables": tables,
            "cpu": cpu, "wall": time.perf_counter() - wall}


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)] if values else float("inf")


def club_night(database: Path, hands: list[dict], seconds: float = 40) -> dict:
    """The night of 40 tables, the server's memory after it, then more tables (a shorter
    night each, on the same server) until a bid's p95 reaches 50 ms or a connection is
    reset (or fewer, down to 10, when the night of 40 does not hold, until one does); once
    that server has stopped, the same night of 40 tables against the floor app served the
    same way: ``{"night": ..., "memory": ..., "steps": [...], "floor": ...}``."""
    # Thousands of phones hold thousands of connections, here and in the server's Caddy.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with served(database, 2) as server:
        root = root_of(server)
        first = night(server.secure_port, root, hands, TABLES, seconds,
                      {"Caddy": [server.caddy()], "workers": server.workers()})
        memory = server_memory(server)
        steps = []
        held = p95(first["bids"]) < BID_LIMIT and not first["resets"]
        for tables in STEPS if held else FEWER:
            step = night(server.secure_port, root, hands, tables, STEP_SECONDS)
            steps.append(step)
            if (p95(step["bids"]) < BID_LIMIT and not step["resets"]) != held:
                break
    directory = database.with_name(database.stem + "-floor")
    directory.mkdir(exist_ok=True)
    with served_floor(directory) as (port, floor_root, pids):
        floor = night(port + 1, floor_root, hands, TABLES, seconds, pids, app=FLOOR)
    return {"night": first, "memory": memory, "steps": steps, "floor": floor}
