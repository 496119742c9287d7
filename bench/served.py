"""``scorekeeper serve`` started as a process on loopback, as ``make run`` starts it, for the
benchmarks and the tests that need the real server (Caddy, and gunicorn behind it): plain
HTTP on its port, HTTPS on the next."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A TCP port nothing listens on right now, nor on the next one (the server's HTTPS).
    Both are below the range the system hands out to outgoing connections, so that no
    client's connection (the server's own look at its ports, say) takes the second one
    before Caddy binds it."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    for _ in range(200):
        port = random.randrange(10000, max(low, 10002) - 2)
        try:
            for candidate in (port, port + 1):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", candidate))
        except OSError:
            continue
        return port
    raise RuntimeError("no two free ports in a row")


def serve_command(port: int, workers: int = 1, *flags: str, host: str = "127.0.0.1") -> list[str]:
    """``scorekeeper serve`` run by this Python from the checkout (``.venv/bin/scorekeeper``
    runs whichever checkout was installed last)."""
    return [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", host, "--port",
            str(port), "--workers", str(workers), *flags]


def children(pid: int) -> list[int]:
    try:
        return [int(child) for child
                in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def read_until(process: subprocess.Popen, end: str, seconds: float, lines: list[str],
               errors: Path | None = None) -> str:
    """What the process prints until a line containing ``end``; ``lines`` goes on receiving
    every line it prints. ``errors``: where its standard error goes, shown on a failure."""
    threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True).start()
    deadline = time.monotonic() + seconds

    def printed() -> str:
        said = errors.read_text(errors="replace")[-3000:] if errors and errors.exists() else ""
        return "".join(lines) + ("\nand on standard error:\n" + said if said else "")

    while end not in "".join(lines):
        assert time.monotonic() < deadline, f"no {end!r} in time; printed:\n{printed()}"
        assert process.poll() is None, f"the server stopped; printed:\n{printed()}"
        time.sleep(0.1)
    return "".join(lines)


@dataclass
class Server:
    process: subprocess.Popen
    port: int
    printed: str  # the banner, up to "Ctrl+C"
    lines: list[str]  # every line printed so far, the banner's and any after it

    @property
    def secure_port(self) -> int:
        return self.port + 1

    def caddy(self) -> int:
        """The pid of the server's Caddy."""
        [pid] = [child for child in children(self.process.pid)
                 if cmdline(child).split(b"\0")[0].endswith(b"caddy")]
        return pid

    def arbiter(self) -> int:
        """The pid of gunicorn's arbiter: the server's child that is not Caddy."""
        [pid] = [child for child in children(self.process.pid)
                 if not cmdline(child).split(b"\0")[0].endswith(b"caddy")]
        return pid

    def workers(self) -> list[int]:
        """The pids of gunicorn's workers."""
        return children(self.arbiter())

    def processes(self) -> list[int]:
        """Every process of the server: itself, Caddy, the arbiter and the workers."""
        return [self.process.pid, self.caddy(), self.arbiter(), *self.workers()]


@contextmanager
def served(database: Path, workers: int = 1, *, command: list[str] | None = None,
           port: int | None = None, cwd: Path = ROOT, **env: str) -> Iterator[Server]:
    """The server on the SQLite database at ``database``, once its banner is printed;
    stopped afterwards. ``command`` replaces ``scorekeeper serve`` on loopback (then give
    its ``port``); ``env`` adds environment variables."""
    if command is None:
        port = free_port()
        command = serve_command(port, workers)
    assert port is not None, "a command of its own comes with its port"
    errors = database.with_name(database.name + ".stderr")
    with errors.open("w") as stderr:
        process = subprocess.Popen(
            command, cwd=cwd, env={**os.environ, "DATABASE_URL": f"sqlite:///{database}", **env},
            stdout=subprocess.PIPE, stderr=stderr, text=True)
    lines: list[str] = []
    try:
        yield Server(process, port, read_until(process, "Ctrl+C", 60, lines, errors), lines)
    finally:
        process.terminate()
        process.wait(10)
