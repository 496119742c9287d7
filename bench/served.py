"""``scorekeeper serve`` started as a process on loopback, as ``make run`` starts it, for the
benchmarks and the tests that need the real server (the front and gunicorn behind it)."""

from __future__ import annotations

import os
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
    """A TCP port nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def read_until(process: subprocess.Popen, end: str, seconds: float, lines: list[str]) -> str:
    """What the process prints until a line containing ``end``; ``lines`` goes on receiving
    every line it prints."""
    threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True).start()
    deadline = time.monotonic() + seconds
    while end not in "".join(lines):
        assert time.monotonic() < deadline, f"no {end!r} in time; printed:\n{''.join(lines)}"
        assert process.poll() is None, f"the server stopped; printed:\n{''.join(lines)}"
        time.sleep(0.1)
    return "".join(lines)


@dataclass
class Server:
    process: subprocess.Popen
    port: int
    printed: str  # the banner, up to "Ctrl+C"
    lines: list[str]  # every line printed so far, the banner's and any after it

    def workers(self) -> list[int]:
        """The pids of gunicorn's workers: the server's children but the front."""
        pid = self.process.pid
        return [int(child) for child
                in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
                if b"scorekeeper.front" not in Path(f"/proc/{child}/cmdline").read_bytes()]


@contextmanager
def served(database: Path, workers: int = 1, *, command: list[str] | None = None,
           port: int | None = None, cwd: Path = ROOT, **env: str) -> Iterator[Server]:
    """The server on the SQLite database at ``database``, once its banner is printed;
    stopped afterwards. ``command`` replaces ``scorekeeper serve`` on loopback (then give
    its ``port``); ``env`` adds environment variables."""
    if command is None:
        port = free_port()
        command = [str(Path(sys.executable).parent / "scorekeeper"), "serve", "--host",
                   "127.0.0.1", "--port", str(port), "--workers", str(workers)]
    assert port is not None, "a command of its own comes with its port"
    process = subprocess.Popen(
        command, cwd=cwd, env={**os.environ, "DATABASE_URL": f"sqlite:///{database}", **env},
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: list[str] = []
    try:
        yield Server(process, port, read_until(process, "Ctrl+C", 60, lines), lines)
    finally:
        process.terminate()
        process.wait(10)
