"""Serving the table: HTTPS and plain HTTP on every interface, and the QR codes phones need.

``scorekeeper serve`` (and ``make run``) migrates the database, makes the certificates
(scorekeeper.tls) when they are missing or due, starts the front on the table's port
(scorekeeper.front) and gunicorn's workers behind it and, once they listen, prints the two
addresses a phone needs, as text and as QR codes in the terminal: once per phone, the page
that installs the certificate; then the table's secure address.
"""

from __future__ import annotations

import functools
import ipaddress
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import IO, Any

import segno
from gunicorn.app.base import BaseApplication

from .web.links import is_loopback, lan_address


def everywhere(host: str) -> bool:
    """True when ``host`` means every interface of the machine.

    >>> [everywhere(h) for h in ("0.0.0.0", "::", "", "127.0.0.1", "192.168.1.20")]
    [True, True, True, False, False]
    """
    try:
        return not host or ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def url(host: str, port: int, scheme: str = "https") -> str:
    """The address of ``host``:``port`` as a browser takes it.

    >>> url("192.168.1.20", 5000), url("::1", 80, "http")
    ('https://192.168.1.20:5000', 'http://[::1]:80')
    """
    return f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"


def phone_address(host: str, port: int, base_url: str | None = None) -> str | None:
    """The address a phone can open (the base URL when one is set), or None."""
    if base_url:
        return base_url
    if everywhere(host):
        lan = lan_address()
        return url(lan, port) if lan else None
    return None if is_loopback(host) else url(host, port)


def qr(address: str, out: IO[str] | None) -> None:
    segno.make(address, error="m").terminal(out=out, compact=True, border=2)


def banner(host: str, port: int, out: IO[str] | None, base_url: str | None = None) -> None:
    """Tell whoever started the server how the phones join, and how to stop it."""
    phone = phone_address(host, port, base_url)
    local = url("127.0.0.1" if everywhere(host) else host, port, "http")
    print("\nScorekeeper is serving the table.", file=out)
    if phone and not base_url:
        certificate = phone.replace("https://", "http://", 1) + "/certificate"
        print("\n1. Once per phone: trust this computer's certificate, so that the phone opens"
              " the\n   secure address (the screen stays awake, the sheet reads offline):\n"
              f"   {certificate}\n", file=out)
        qr(certificate, out)
        print(f"\n2. The table's address, for every phone:\n   {phone}\n", file=out)
        qr(phone, out)
        print(f"\n  This computer opens: {local}", file=out)
        print("Scan the codes with a phone's camera; the phone must be on the same Wi-Fi.",
              file=out)
    elif phone:
        print(f"  Phones open: {phone}", file=out)
        print(f"  This computer opens: {local}\n", file=out)
        qr(phone, out)
        print("\nScan the code with a phone's camera.", file=out)
    else:
        print(f"  Address: {local}", file=out)
        print("  No phone can open this address. Connect this computer to the table's Wi-Fi"
              " and serve on every interface (HOST=0.0.0.0, the default of make run).",
              file=out)
    print("Stop the server with Ctrl+C.\n", file=out, flush=True)


GIVE_BACK_EVERY = 5.0  # seconds between two looks for memory to give back, at most
_given_back = [0.0]


def give_back_memory(_worker: Any, _request: Any, _environ: Any, _response: Any) -> None:
    """After a request, at most every few seconds: give the system back the memory the
    worker freed (C's allocator keeps it, in holes between what is still held, after an
    answer as large as a 200-game sheet or its PDF's page), where the C library can
    (``malloc_trim``, glibc's; elsewhere nothing is done). A call took 0.03 ms."""
    now = time.monotonic()
    if now - _given_back[0] < GIVE_BACK_EVERY:
        return
    _given_back[0] = now
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Any:
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    return getattr(ctypes.CDLL(name), "malloc_trim", None) if name else None


class Server(BaseApplication):
    """gunicorn's sync workers on a Unix socket that only the front reaches."""

    def __init__(self, host: str, port: int, backend: str, options: dict[str, Any],
                 base_url: str | None, stop: Callable[[], None]) -> None:
        self.host = host
        self.port = port
        self.backend = backend
        self.base_url = base_url
        self.options = options
        self.stop = stop
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)
        self.cfg.set("bind", [f"unix:{self.backend}"])
        # gunicorn 27's control socket has one path per user: two servers would fight over it.
        if "control_socket_disable" in self.cfg.settings:
            self.cfg.set("control_socket_disable", True)
        self.cfg.set("when_ready",
                     lambda _server: banner(self.host, self.port, sys.stdout, self.base_url))
        self.cfg.set("on_exit", lambda _server: self.stop())
        self.cfg.set("post_request", give_back_memory)

    def load(self):
        from . import create_app

        app = create_app()
        # Tells the share page whether the machine's network address leads here.
        app.config["LISTEN_HOST"] = self.host
        app.config["SERVES_HTTPS"] = True
        return app


def prepare(host: str) -> tuple[str | None, Path, Path]:
    """Bring the database up to date and the certificates too, in a process of its own: the
    server, and so every worker forked from it, never holds the migrations' and the
    certificates' libraries (alembic, cryptography). Returns the configured base URL, the
    server's certificate and its key."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as process:
        return process.submit(_prepare, host).result()


def _prepare(host: str) -> tuple[str | None, Path, Path]:
    from . import create_app, tls
    from .db import db, upgrade

    app = create_app()
    with app.app_context():
        upgrade()
        db.engine.dispose()
    files = tls.ensure(Path(app.config["TLS_DIR"]), tls.machine_names(host))
    return app.config["BASE_URL"], files.cert, files.key


def start_front(host: str, port: int, backend: str, cert: Path, key: Path) -> subprocess.Popen:
    """The front (scorekeeper.front) on the table's port; exits the program when the port
    cannot be had."""
    front = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.front", "--host", host, "--port", str(port),
         "--backend", backend, "--cert", str(cert), "--key", str(key),
         "--parent", str(os.getpid())],
        stdout=subprocess.PIPE, text=True)
    if front.stdout.readline().strip() != "listening":
        front.wait()
        sys.exit(front.returncode or 3)
    return front


def serve(host: str, port: int, workers: int, *, access_log: bool = False) -> None:
    """Migrate, then serve until stopped: the front on the port, gunicorn behind it. The
    terminal keeps the addresses and their codes in view: a line for every request (each
    following phone polls every 4 s) only with ``access_log``, and then at a cost to every
    request (docs/speed.md, row 16)."""
    if sys.flags.optimize < 2:
        # Docstrings and asserts serve no phone: the server runs as `python -OO`, and each
        # worker holds 3 MB less (docs/speed.md, row 9). Same process, so same pid.
        os.execv(sys.executable, [sys.executable, "-OO", *sys.orig_argv[1:]])
    base_url, cert, key = prepare(host)
    folder = tempfile.mkdtemp(prefix="scorekeeper-")
    backend = os.path.join(folder, "workers.sock")
    front = start_front(host, port, backend, cert, key)
    parent = os.getpid()

    def stop() -> None:
        if os.getpid() == parent:
            front.terminate()
            shutil.rmtree(folder, ignore_errors=True)

    os.environ["SCOREKEEPER_FRONT"] = "1"
    # The app is built once, before the workers fork (it opens no connection and no file
    # at start), so that they share its imported code instead of each importing it.
    # A request here takes milliseconds: on Ctrl+C, workers get 5 s to finish theirs (not
    # gunicorn's 30), so that a worker stopped while it still boots holds nobody up.
    try:
        Server(host, port, backend, {"workers": workers, "preload_app": True,
                                     "accesslog": "-" if access_log else None,
                                     "graceful_timeout": 5}, base_url, stop).run()
    finally:
        stop()
