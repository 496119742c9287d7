"""The front (scorekeeper.front) in front of a stand-in for gunicorn: whole requests only,
clients too slow cut off, headers appended, the phone's connection kept open."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from scorekeeper.front import Front, Limits

LIMITS = Limits(first_byte=0.5, head=0.5, keepalive=0.5, body_rate=1024, body_grace=0.5,
                body_bytes=4096)


@contextmanager
def front_before(tmp_path: Path, answer: Callable, limits: Limits = LIMITS) -> Iterator[int]:
    """The front on a loopback port, plain HTTP, before a backend whose connections
    ``answer`` serves; yields the port."""
    backend = str(tmp_path / "workers.sock")
    loop = asyncio.new_event_loop()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    sock.setblocking(False)
    server = Front("127.0.0.1", 0, backend, lambda: None, limits, sock=sock)

    async def main() -> None:
        await asyncio.start_unix_server(answer, backend)
        await server.serve()

    async def stop() -> None:
        for task in asyncio.all_tasks():
            if task is not asyncio.current_task():
                task.cancel()
        await asyncio.sleep(0.1)
        loop.stop()

    loop.create_task(main())
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    time.sleep(0.2)
    yield sock.getsockname()[1]
    asyncio.run_coroutine_threadsafe(stop(), loop)
    thread.join(5)
    loop.close()
    sock.close()


@pytest.fixture
def front(tmp_path: Path) -> Iterator[tuple[int, list[bytes]]]:
    """The front before a backend that records each request it gets and answers with its
    length; yields the port and the records."""
    seen: list[bytes] = []

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = [int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:")]
        body = await reader.readexactly(length[0]) if length else b""
        seen.append(head + body)
        text = f"{len(head + body)}".encode()
        writer.write(b"HTTP/1.1 200 OK\r\nServer: stand-in\r\nConnection: close\r\n"
                     b"Content-Length: " + str(len(text)).encode() + b"\r\n\r\n" + text)
        await writer.drain()
        writer.close()

    with front_before(tmp_path, answer) as port:
        yield port, seen


def exchange(port: int, data: bytes, *, pause: float = 0.0) -> bytes:
    """Send ``data`` (a byte every ``pause`` seconds when given), read until closed."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
        if pause:
            for byte in data:
                try:
                    client.sendall(bytes([byte]))
                except OSError:
                    break
                time.sleep(pause)
        else:
            client.sendall(data)
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
        return answer


def test_a_request_reaches_the_workers_whole_with_the_client_named(front):
    port, seen = front
    answer = exchange(port, b"POST /x HTTP/1.1\r\nHost: table.test\r\nConnection: close\r\n"
                            b"X-Forwarded-For: 10.0.0.9\r\nContent-Length: 5\r\n\r\nhello")
    assert answer.startswith(b"HTTP/1.1 200 OK") and b"Connection: close" in answer
    [request] = seen
    assert request.endswith(b"\r\n\r\nhello")
    assert b"X-Forwarded-For: 10.0.0.9, 127.0.0.1\r\n" in request
    assert b"X-Forwarded-Proto: http\r\n" in request
    assert b"X-Forwarded-Host: table.test\r\n" in request
    # One request per worker connection; the client's own Connection header stays here.
    assert request.count(b"Connection:") == 1 and b"Connection: close" in request


def test_the_phone_keeps_its_connection_for_the_next_request(front):
    port, seen = front
    with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
        for _ in range(3):
            client.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
            answer = client.recv(65536)
            assert answer.startswith(b"HTTP/1.1 200") and b"Connection: keep-alive" in answer
    assert len(seen) == 3


def test_a_head_that_trickles_is_cut_off_before_a_worker_sees_it(front):
    port, seen = front
    answer = exchange(port, b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n", pause=0.1)
    assert answer.startswith(b"HTTP/1.1 408")
    assert seen == []


def test_a_body_slower_than_the_least_rate_is_cut_off(front):
    port, seen = front
    head = b"POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: 4000\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=15) as client:
        client.sendall(head + b"x" * 100)
        answer = client.recv(65536)
    assert answer.startswith(b"HTTP/1.1 408") and seen == []


def test_a_silent_connection_is_closed(front):
    port, seen = front
    with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
        start = time.monotonic()
        assert client.recv(1) == b""
        assert time.monotonic() - start < 4
    assert seen == []


@pytest.mark.parametrize("head, status", [
    (b"POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\n\r\n", b"413"),
    (b"POST /x HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n", b"411"),
    (b"POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n", b"400"),
    (b"NONSENSE\r\n\r\n", b"400"),
    (b"GET / HTTP/1.1\r\n" + b"X-Long: " + b"a" * 70_000 + b"\r\n\r\n", b"431"),
])
def test_what_the_front_refuses_itself(front, head, status):
    port, seen = front
    assert exchange(port, head).split(b" ")[1] == status
    assert seen == []


def test_expect_continue_is_answered_before_the_body(front):
    port, seen = front
    with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
        client.sendall(b"POST /x HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\n"
                       b"Content-Length: 3\r\n\r\n")
        assert client.recv(65536) == b"HTTP/1.1 100 Continue\r\n\r\n"
        client.sendall(b"abc")
        assert client.recv(65536).startswith(b"HTTP/1.1 200")
    assert seen[0].endswith(b"abc") and b"Expect" not in seen[0]


@pytest.mark.parametrize("method", [b"GET", b"HEAD"])
def test_a_worker_is_given_back_once_its_answer_is_read_however_slowly_the_client_reads(
        tmp_path, method):
    """A worker takes no other request until the front closes its connection (gunicorn
    lingers on its end after an answer): the front reads the answer whole and closes, then
    sends it to the client at the client's pace."""
    body = bytes(range(256)) * 24_000  # 6 MB: more than the kernel buffers between the two
    closed: list[float] = []

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body)
                     + (body if method == b"GET" else b""))
        await writer.drain()
        writer.write_eof()
        await reader.read()  # until the front closes its end, as gunicorn does
        closed.append(time.monotonic())
        writer.close()

    limits = Limits(answer_bytes=len(body))
    with front_before(tmp_path, answer, limits) as port, socket.socket() as client:
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.settimeout(5)
        client.connect(("127.0.0.1", port))
        client.sendall(method + b" /backup HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        time.sleep(1)  # a phone on a poor line, not reading yet
        reading = time.monotonic()
        received = b""
        while chunk := client.recv(1 << 20):
            received += chunk
    assert closed and closed[0] < reading
    head, _, sent = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK") and b"Content-Length: 6144000" in head
    assert sent == (body if method == b"GET" else b"")
