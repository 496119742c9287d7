"""The front: HTTPS and plain HTTP on the table's port, for clients that may be slow or idle.

``scorekeeper serve`` puts this process between the phones and gunicorn. It listens on the
table's port and, for each connection:

- tells TLS from plain HTTP by the first byte (a TLS handshake starts with 22), so that
  ``https://<address>:5000`` and ``http://<address>:5000`` both answer;
- reads a whole request before gunicorn sees a byte of it: the head within 10 s of its
  first byte, the body at no less than 16 KB a second, an idle kept-alive connection
  closed after 75 s. A client that trickles its bytes or never sends any costs this
  process a few KB and gunicorn's workers nothing, so two slow phones (or a hundred) cannot
  hold the workers that every other phone needs;
- hands the request to a worker over a Unix socket with ``X-Forwarded-For``, ``-Proto``
  and ``-Host`` appended (the app trusts one more proxy than it is told), reads its answer
  whole (up to 1 MB; a larger one is relayed as it comes) and closes the worker's
  connection before sending it on: the worker takes no other request until then. The
  phone's connection stays open for its next request.

asyncio serves every connection in one thread; the workers stay gunicorn's sync workers,
each one request at a time, as the rest of the app expects.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import ssl
import sys
from collections.abc import Callable
from dataclasses import dataclass

TLS_HANDSHAKE = 22
RENEW_CHECK = 600.0


@dataclass(frozen=True)
class Limits:
    """How long and how much a client may take."""

    first_byte: float = 10.0    # from the connection to its first byte
    head: float = 10.0          # from a request's first byte to its last header
    keepalive: float = 75.0     # an idle connection between two requests
    body_rate: int = 16 * 1024  # bytes a second, at the least, after the grace below
    body_grace: float = 10.0
    head_bytes: int = 64 * 1024
    body_bytes: int = 17 * 1024 * 1024  # the largest backup upload, and its form
    answer: float = 120.0       # gunicorn's own timeout kills a worker long before
    answer_bytes: int = 1024 * 1024  # an answer up to this size is read whole, then sent
    connections: int = 2048


# Headers that belong to one hop (RFC 9110 section 7.6.1), or that this front sets itself.
HOP = {b"connection", b"keep-alive", b"proxy-connection", b"te", b"trailer", b"upgrade",
       b"expect", b"transfer-encoding"}


def status_line(code: int, reason: str, text: str, *, close: bool = True) -> bytes:
    """A small plain-text answer of the front's own."""
    body = (text + "\n").encode()
    return (f"HTTP/1.1 {code} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\n"
            f"Connection: {'close' if close else 'keep-alive'}\r\n\r\n").encode() + body


class Refused(Exception):
    """A request the front answers itself and then closes the connection."""

    def __init__(self, code: int, reason: str, text: str) -> None:
        super().__init__(text)
        self.answer = status_line(code, reason, text)


@dataclass
class Request:
    line: bytes
    headers: list[tuple[bytes, bytes]]
    body: bytes = b""

    def get(self, name: bytes) -> bytes | None:
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return None

    @property
    def keep_alive(self) -> bool:
        connection = (self.get(b"connection") or b"").lower()
        if self.line.endswith(b"HTTP/1.0"):
            return b"keep-alive" in connection
        return b"close" not in connection


def parse_head(head: bytes) -> Request:
    """The request line and headers of ``head`` (which ends with an empty line).

    >>> r = parse_head(b"GET / HTTP/1.1\\r\\nHost: a\\r\\nX-A:  1 \\r\\n\\r\\n")
    >>> r.line, r.get(b"x-a"), r.keep_alive
    (b'GET / HTTP/1.1', b'1', True)
    """
    lines = head.split(b"\r\n")
    line = lines[0]
    if len(line.split(b" ")) != 3 or not line.split(b" ")[2].startswith(b"HTTP/1."):
        raise Refused(400, "Bad Request", "Not an HTTP/1 request.")
    headers = []
    for raw in lines[1:]:
        if not raw:
            continue
        name, colon, value = raw.partition(b":")
        if not colon or not name or name != name.strip() or raw[:1] in b" \t":
            raise Refused(400, "Bad Request", "A header line is malformed.")
        headers.append((name, value.strip()))
    return Request(line, headers)


def forwarded(request: Request, peer: str, scheme: str) -> bytes:
    """The head handed to a worker: hop-by-hop headers left out, the client's address and
    scheme appended to what earlier proxies said, one request per connection."""
    lines = [request.line]
    values = {b"x-forwarded-for": peer.encode(), b"x-forwarded-proto": scheme.encode(),
              b"x-forwarded-host": request.get(b"host") or b""}
    for name, value in request.headers:
        low = name.lower()
        if low in HOP:
            continue
        if low in values:
            values[low] = value + b", " + values[low]
            continue
        lines.append(name + b": " + value)
    lines += [b"X-Forwarded-For: " + values[b"x-forwarded-for"],
              b"X-Forwarded-Proto: " + values[b"x-forwarded-proto"],
              b"X-Forwarded-Host: " + values[b"x-forwarded-host"],
              b"Connection: close"]
    if request.body or request.get(b"content-length"):
        lines = [x for x in lines if not x.lower().startswith(b"content-length:")]
        lines.append(b"Content-Length: " + str(len(request.body)).encode())
    return b"\r\n".join(lines) + b"\r\n\r\n"


def body_length(head: bytes, method: bytes) -> int | None:
    """How many bytes of body follow the worker's answer head ``head``, when its head says
    so; None for a body that ends when the worker closes.

    >>> body_length(b"HTTP/1.1 200 OK\\r\\nContent-Length: 12", b"GET")
    12
    >>> body_length(b"HTTP/1.1 200 OK\\r\\nContent-Length: 12", b"HEAD")
    0
    >>> body_length(b"HTTP/1.1 304 Not Modified\\r\\nETag: x", b"GET")
    0
    >>> body_length(b"HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked", b"GET") is None
    True
    """
    lines = head.split(b"\r\n")
    if method == b"HEAD" or lines[0].split(b" ")[1:2] in ([b"204"], [b"304"]):
        return 0
    length = None
    for raw in lines[1:]:
        name, _colon, value = raw.partition(b":")
        if name.lower() == b"transfer-encoding":
            return None
        if name.lower() == b"content-length" and value.strip().isdigit():
            length = int(value)
    return length


def answer_head(head: bytes, keep: bool) -> tuple[bytes, bool]:
    """The worker's answer head with this hop's Connection header, and whether the client's
    connection may stay open (only when the answer's length is known)."""
    lines = head.split(b"\r\n")
    framed = False
    out = [lines[0]]
    status = lines[0].split(b" ")[1:2]
    for raw in lines[1:]:
        if not raw:
            continue
        low = raw.lower()
        if low.startswith((b"connection:", b"keep-alive:")):
            continue
        if low.startswith(b"content-length:") or (
                low.startswith(b"transfer-encoding:") and low.endswith(b"chunked")):
            framed = True
        out.append(raw)
    if status and status[0] in (b"204", b"304"):
        framed = True
    keep = keep and framed
    out.append(b"Connection: keep-alive" if keep else b"Connection: close")
    return b"\r\n".join(out) + b"\r\n\r\n", keep


class Front:
    """Listens on ``host``:``port``; hands each whole request to the workers at ``backend``
    (a Unix socket's path)."""

    def __init__(self, host: str, port: int, backend: str,
                 context: Callable[[], ssl.SSLContext | None], limits: Limits | None = None,
                 sock: socket.socket | None = None) -> None:
        self.host, self.port, self.backend = host, port, backend
        self.context = context
        self.limits = limits or Limits()
        self.sock = sock
        self.open = 0

    def listen(self) -> socket.socket:
        """The listening socket (bound now, so that a port in use fails at once)."""
        if self.sock is None:
            family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
            sock = socket.socket(family, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            sock.bind((self.host, self.port))
            sock.listen(512)
            sock.setblocking(False)
            self.sock = sock
        return self.sock

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        listener = self.listen()
        while True:
            try:
                client, _address = await loop.sock_accept(listener)
            except OSError:  # out of file descriptors, a connection reset before accept
                await asyncio.sleep(0.1)
                continue
            if self.open >= self.limits.connections:
                client.close()
                continue
            self.open += 1
            task = loop.create_task(self.connection(client))
            task.add_done_callback(lambda _task: self._closed())

    def _closed(self) -> None:
        self.open -= 1

    async def connection(self, client: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        writer = None
        try:
            client.setblocking(False)
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            peer = client.getpeername()[0]
            async with asyncio.timeout(self.limits.first_byte):
                await _readable(loop, client)
            first = client.recv(1, socket.MSG_PEEK)
            if not first:
                return
            context = self.context() if first[0] == TLS_HANDSHAKE else None
            scheme = "https" if context else "http"
            reader = asyncio.StreamReader(limit=self.limits.head_bytes, loop=loop)
            transport, protocol = await loop.connect_accepted_socket(
                lambda: asyncio.StreamReaderProtocol(reader), client, ssl=context,
                ssl_handshake_timeout=self.limits.head if context else None)
            writer = asyncio.StreamWriter(transport, protocol, reader, loop)
            client = None
            await self.requests(reader, writer, peer, scheme)
        except (TimeoutError, ConnectionError, ssl.SSLError, OSError, asyncio.LimitOverrunError):
            pass
        finally:
            if writer is not None:
                writer.close()
                with contextlib.suppress(Exception):
                    await writer.wait_closed()
            elif client is not None:
                client.close()

    async def requests(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                       peer: str, scheme: str) -> None:
        """Serve the connection's requests one after the other while both sides keep it."""
        wait = self.limits.first_byte
        while True:
            try:
                async with asyncio.timeout(wait):
                    start = await reader.readexactly(1)
                request = await self.read_request(reader, writer, start)
            except asyncio.IncompleteReadError:
                return
            except Refused as refused:
                writer.write(refused.answer)
                await writer.drain()
                return
            keep = await self.relay(request, writer, peer, scheme)
            if not keep:
                return
            wait = self.limits.keepalive

    async def read_request(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                           start: bytes) -> Request:
        try:
            async with asyncio.timeout(self.limits.head):
                head = start + await reader.readuntil(b"\r\n\r\n")
        except asyncio.LimitOverrunError:
            raise Refused(431, "Request Header Fields Too Large",
                          "The request's headers are too large.") from None
        except TimeoutError:
            raise Refused(408, "Request Timeout", "The request came too slowly.") from None
        request = parse_head(head)
        if request.get(b"transfer-encoding") is not None:
            raise Refused(411, "Length Required", "Send the body with a Content-Length.")
        length = request.get(b"content-length")
        size = 0
        if length is not None:
            if not length.isdigit():
                raise Refused(400, "Bad Request", "The Content-Length is not a number.")
            size = int(length)
            if size > self.limits.body_bytes:
                raise Refused(413, "Content Too Large", "The request is too large.")
        if size:
            if (request.get(b"expect") or b"").lower() == b"100-continue":
                writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
                await writer.drain()
            try:
                async with asyncio.timeout(self.limits.body_grace + size / self.limits.body_rate):
                    request.body = await reader.readexactly(size)
            except TimeoutError:
                raise Refused(408, "Request Timeout", "The request came too slowly.") from None
        return request

    async def relay(self, request: Request, writer: asyncio.StreamWriter, peer: str,
                    scheme: str) -> bool:
        """Hand the request to a worker and its answer to the client; True when the client's
        connection stays open."""
        try:
            back_reader, back_writer = await asyncio.open_unix_connection(
                self.backend, limit=self.limits.head_bytes)
        except OSError:
            writer.write(status_line(503, "Service Unavailable",
                                     "The server is starting: try again in a moment."))
            await writer.drain()
            return False
        try:
            back_writer.write(forwarded(request, peer, scheme) + request.body)
            await back_writer.drain()
            async with asyncio.timeout(self.limits.answer):
                head = await back_reader.readuntil(b"\r\n\r\n")
                length = body_length(head[:-4], request.line.split(b" ", 1)[0])
                head, keep = answer_head(head[:-4], request.keep_alive)
                if length is not None and length <= self.limits.answer_bytes:
                    # A worker does not take the next request until this end closes
                    # (gunicorn lingers on its own): it is closed once the answer is read,
                    # before the client is sent it, however slowly the client reads.
                    body = await back_reader.readexactly(length)
                    back_writer.close()
                    writer.write(head + body)
                else:
                    # The head goes out with the first bytes of the body: two small writes
                    # would be two TLS records, and the second waits for the client's ACK.
                    chunk = await back_reader.read(65536)
                    writer.write(head + chunk)
                    while chunk := await back_reader.read(65536):
                        writer.write(chunk)
                        await writer.drain()
                await writer.drain()
            return keep
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            writer.write(status_line(502, "Bad Gateway", "The server gave no answer."))
            await writer.drain()
            return False
        finally:
            back_writer.close()


async def _readable(loop: asyncio.AbstractEventLoop, sock: socket.socket) -> None:
    """Wait until ``sock`` has a byte to read (or is closed)."""
    ready = loop.create_future()
    loop.add_reader(sock.fileno(), lambda: ready.done() or ready.set_result(None))
    try:
        await ready
    finally:
        loop.remove_reader(sock.fileno())


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.set_alpn_protocols(["http/1.1"])
    context.load_cert_chain(cert, key)
    return context


class Certificates:
    """The TLS context, loaded again when the certificate file changes (it is renewed)."""

    def __init__(self, cert: str, key: str) -> None:
        self.cert, self.key = cert, key
        self.stamp = -1.0
        self.context: ssl.SSLContext | None = None

    def __call__(self) -> ssl.SSLContext:
        stamp = os.stat(self.cert).st_mtime
        if self.context is None or stamp != self.stamp:
            try:
                self.context, self.stamp = tls_context(self.cert, self.key), stamp
            except ssl.SSLError:
                if self.context is None:
                    raise  # no certificate at all: nothing to serve TLS with
        return self.context


async def _watch_parent(parent: int) -> None:
    """Stop when the process that started this one is gone (even killed with -9)."""
    while os.getppid() == parent:
        await asyncio.sleep(1)


async def _renew(folder: str, host: str) -> None:
    """Every ten minutes, make the server certificate again when it is due or no longer
    names the machine's addresses (a new one from the Wi-Fi); Certificates loads it."""
    from pathlib import Path

    from . import tls

    while True:
        await asyncio.sleep(RENEW_CHECK)
        with contextlib.suppress(OSError, ValueError):
            await asyncio.to_thread(tls.ensure, Path(folder), tls.machine_names(host))


def main(argv: list[str] | None = None) -> None:
    """``python -m scorekeeper.front``: run by ``scorekeeper serve``, not by hand."""
    parser = argparse.ArgumentParser(prog="python -m scorekeeper.front")
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--backend", required=True, help="the workers' Unix socket")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--parent", type=int, default=os.getppid())
    args = parser.parse_args(argv)
    certificates = Certificates(args.cert, args.key) if args.cert else None
    front = Front(args.host, args.port, args.backend,
                  certificates if certificates else (lambda: None))
    try:
        front.listen()
    except OSError as error:
        print(f"Cannot listen on {args.host}:{args.port}: {error.strerror}", file=sys.stderr)
        sys.exit(3)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    # Tell the parent that the port is ours.
    print("listening", flush=True)

    async def run() -> None:
        tasks = [asyncio.ensure_future(front.serve())]
        if args.cert:
            tasks.append(asyncio.ensure_future(
                _renew(os.path.dirname(args.cert), args.host)))
        await _watch_parent(args.parent)
        for task in tasks:
            task.cancel()

    with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
        asyncio.run(run())


if __name__ == "__main__":
    main()
