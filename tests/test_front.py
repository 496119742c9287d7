"""The front of `scorekeeper serve` (Caddy) tried as an attacker and an operator would: each
test is one failure the hand-made front had (docs/operating.md, "How the server is built").

Every test starts the real server on loopback, as `make run` does, and measures it from
outside: whatever listens on the port, whatever processes the server is made of. Loops are
bounded in count and time.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import ssl
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from bench import slow
from bench.served import children, cmdline, served

pytestmark = pytest.mark.slow


# -- What the server is made of, seen from outside --------------------------------------------

def descendants(pid: int) -> list[int]:
    """Every process under ``pid``, however deep."""
    found, todo = [], [pid]
    while todo:
        for child in children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status and "\nState:\tX" not in status


def rss(pids: list[int]) -> int:
    """The resident memory of ``pids`` together, in bytes."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def listener(port: int) -> int | None:
    """The pid of the process that listens on TCP ``port``, or None."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") in inodes:
                    return int(pid)
        except OSError:
            continue
    return None


def answers(port: int, secure: bool = False) -> bool:
    try:
        return len(slow.timed_gets("127.0.0.1", port, "/health", 1, secure)) == 1
    except (OSError, AssertionError, ssl.SSLError):
        return False


def first_line(port: int, data: bytes, *, body: bytes = b"", seconds: float = 15) -> bytes:
    """The status line the server answers ``data`` with (``body`` sent meanwhile, by a
    thread of its own, as far as the server takes it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as sock:
        sock.sendall(data)

        def send() -> None:
            try:
                for start in range(0, len(body), 65536):
                    sock.sendall(body[start:start + 65536])
            except OSError:
                pass

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
        return answer.split(b"\r\n", 1)[0]


# -- The failures -------------------------------------------------------------------------------

def test_a_killed_front_is_started_again_and_too_many_deaths_stop_the_server(tmp_path):
    """Killing what listens on the table's port (Caddy) never leaves the server running with
    nothing on the port: it is started again; killed again and again within a minute, the
    server gives up and exits with a non-zero status."""
    with served(tmp_path / "run.db") as server:
        front = listener(server.port)
        assert front is not None and front in descendants(server.process.pid)
        os.kill(front, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while not (answers(server.port) and answers(server.secure_port, secure=True)):
            assert server.process.poll() is None or server.process.returncode != 0
            if server.process.poll() is not None:
                break  # stopped with a non-zero status: as good as started again
            assert time.monotonic() < deadline, "nothing answers on the port any more"
            time.sleep(0.2)
        if server.process.poll() is None:
            assert listener(server.port) not in (None, front)
        for _ in range(8):
            front = listener(server.port)
            if server.process.poll() is not None or front is None:
                break
            os.kill(front, signal.SIGKILL)
            time.sleep(1.5)
        server.process.wait(20)
        assert server.process.returncode not in (0, None)
        assert listener(server.port) is None


def test_a_killed_gunicorn_is_started_again(tmp_path):
    """gunicorn's arbiter killed with -9 (its workers follow it): the server starts it
    again, and the port answers as before."""
    with served(tmp_path / "run.db") as server:
        arbiter = server.arbiter()
        os.kill(arbiter, signal.SIGKILL)

        def served_again() -> bool:
            others = [pid for pid in children(server.process.pid)
                      if alive(pid) and pid not in (arbiter, listener(server.port))]
            return len(others) == 1 and answers(server.port)

        deadline = time.monotonic() + 30
        while alive(arbiter) or not served_again():
            assert server.process.poll() is None, "the server stopped"
            assert time.monotonic() < deadline, "nothing answers behind Caddy any more"
            time.sleep(0.2)


def test_2100_idle_connections_of_one_client_lock_no_other_phone_out(tmp_path):
    """One client holds 2,100 connections open and sends nothing; another phone still
    gets its pages, over plain HTTP and over HTTPS."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    held: list[socket.socket] = []
    try:
        with served(tmp_path / "run.db") as server:
            for _ in range(2100):
                held.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
            time.sleep(1)  # every one of them accepted by the server
            assert len(slow.timed_gets("127.0.0.1", server.port, "/health", 5)) == 5
            assert len(slow.timed_gets("127.0.0.1", server.secure_port, "/health", 5,
                                       secure=True)) == 5
            phone = slow.Phone("127.0.0.1", server.secure_port)
            status, page = phone.request("GET", "/matches/new")
            assert status == 200 and b"csrf_token" in page
    finally:
        for sock in held:
            sock.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


UPLOADS = 20
UPLOAD = 16 * 1024 * 1024 - 4096  # with its form, just under the app's 16 MiB
# What 20 uploads may add to the server's memory (Caddy, gunicorn's arbiter and workers, and
# the process that watches them): Caddy holds the first MiB of each upload's body (serve.
# UPLOAD_BUFFER), 20 MiB, and as much again of Go's garbage between two collections (GOGC
# 100), with its buffers for each connection; a worker spools what it reads of a file past
# 500 KB to disk, and parses a few MB of it. 120 MiB is under two fifths of the bodies
# themselves (320 MiB), which the hand-made front held whole (measured +317 MiB); measured
# here, +55 to +69 MiB, Caddy's own part +0 to +32 MiB.
UPLOAD_MEMORY = 120 * 1024 * 1024


def test_twenty_slow_16_mb_uploads_keep_the_server_s_memory_bounded(tmp_path):
    """20 clients each send a 16 MB backup upload as fast as the server takes it, all but
    its last bytes, and hold it: the server's memory grows by a bounded amount, not by the
    bodies."""
    boundary = b"b0undary"
    head = (b"--" + boundary + b'\r\nContent-Disposition: form-data; name="file"; '
            b'filename="backup.json"\r\nContent-Type: application/json\r\n\r\n')
    tail = b"\r\n--" + boundary + b"--\r\n"
    chunk = b"x" * 65536
    length = len(head) + UPLOAD + len(tail)
    stop = threading.Event()
    with served(tmp_path / "run.db", 2) as server:
        deadline = time.monotonic() + 15
        while len(server.workers()) < 2:  # measured once both workers have forked
            assert time.monotonic() < deadline
            time.sleep(0.1)
        for _ in range(4):
            assert answers(server.port)
        processes = [server.process.pid, *descendants(server.process.pid)]
        before = rss(processes)

        def upload() -> None:
            with socket.create_connection(("127.0.0.1", server.port), timeout=2) as sock:
                sock.sendall(b"POST /backup HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Content-Type: multipart/form-data; boundary=" + boundary +
                             b"\r\nContent-Length: " + str(length).encode() + b"\r\n\r\n" + head)
                sent = 0
                try:
                    while sent < UPLOAD - len(chunk) and not stop.is_set():
                        sock.sendall(chunk)
                        sent += len(chunk)
                except OSError:  # the server takes no more for now
                    pass
                stop.wait(15)

        threads = [threading.Thread(target=upload, daemon=True) for _ in range(UPLOADS)]
        for thread in threads:
            thread.start()
        front = listener(server.port)
        front_before = rss([front])
        peak = front_peak = front_before
        deadline = time.monotonic() + 6
        while time.monotonic() < deadline:
            processes = [server.process.pid, *descendants(server.process.pid)]
            peak = max(peak, rss(processes))
            front_peak = max(front_peak, rss([front]))
            time.sleep(0.25)
        stop.set()
        for thread in threads:
            thread.join(5)
    grown = peak - before
    print(f"\nserver memory: {before / 2**20:.0f} MiB before, peak {peak / 2**20:.0f} MiB "
          f"with {UPLOADS} uploads held (+{grown / 2**20:.0f} MiB); the front "
          f"{front_before / 2**20:.0f} MiB, peak {front_peak / 2**20:.0f} MiB")
    assert grown < UPLOAD_MEMORY, f"+{grown / 2**20:.0f} MiB"


def test_a_body_larger_than_the_app_takes_is_answered_413(tmp_path):
    """Every form of the app is a few KB (512 KB at most), a backup upload 16 MB: a larger
    body gets the documented 413, never silence (nor a 502)."""
    with served(tmp_path / "run.db") as server:
        for path, size in (("/matches/new", 512 * 1024 + 1), ("/matches/new", 4_000_000),
                           ("/backup", 16 * 1024 * 1024 + 1), ("/backup", 18 * 1024 * 1024)):
            head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                    f"application/x-www-form-urlencoded\r\nContent-Length: {size}\r\n\r\n")
            status = first_line(server.port, head.encode(), body=b"a" * size)
            assert status.split(b" ")[1:2] == [b"413"], (path, size, status)


def test_two_different_content_lengths_are_refused(tmp_path):
    """Which one frames the body is anyone's guess (request smuggling): 400, never an
    answer from the app (which would be a 405 here)."""
    with served(tmp_path / "run.db") as server:
        status = first_line(server.port, b"POST /health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            b"Content-Length: 3\r\nContent-Length: 5\r\n\r\nabcde")
        assert status.split(b" ")[1:2] == [b"400"], status


@pytest.mark.parametrize("host", ["a" * 64 + ".example", "a..b"])
def test_a_host_that_is_no_host_name_is_answered_400(tmp_path, host):
    """A label over 63 characters or an empty one: 400 on every path, the error page's
    too, over both ports."""
    with served(tmp_path / "run.db") as server:
        for path in ("/", "/health", "/nope", "/certificate"):
            head = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
            status = first_line(server.port, head.encode())
            assert status.split(b" ")[1:2] == [b"400"], (path, status)
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            request = urllib.request.Request(f"https://127.0.0.1:{server.secure_port}{path}",
                                             headers={"Host": host})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, context=context, timeout=10)
            assert refused.value.code == 400, path


def test_a_killed_worker_leaves_no_pdf_renderer_behind(tmp_path):
    """A worker that made a PDF has a renderer (WeasyPrint, about 95 MB) and its helper
    (multiprocessing's resource tracker): killed with SIGKILL, it takes them along."""
    with served(tmp_path / "run.db") as server:
        address = (f"http://127.0.0.1:{server.port}/sheets/blank.pdf?game=navawhist"
                   "&players=4")
        with urllib.request.urlopen(address, timeout=60) as answer:
            assert answer.read(4) == b"%PDF"
        helpers = [pid for pid in descendants(server.process.pid)
                   if b"multiprocessing" in cmdline(pid)]
        assert helpers, "no renderer"
        stat = Path(f"/proc/{helpers[0]}/stat").read_text()
        worker = int(stat.rsplit(")", 1)[1].split()[1])
        os.kill(worker, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in helpers):
            assert time.monotonic() < deadline, [
                cmdline(pid) for pid in helpers if alive(pid)]
            time.sleep(0.1)
        # The server goes on, with a new worker.
        deadline = time.monotonic() + 20
        while not answers(server.port):
            assert time.monotonic() < deadline
            time.sleep(0.2)
