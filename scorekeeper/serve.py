"""Serving the table: gunicorn on every interface, and the address and QR code phones need.

``scorekeeper serve`` (and ``make run``) migrates the database, starts gunicorn and, once it
listens, prints the address a phone on the same network opens, as text and as a QR code in
the terminal.
"""

from __future__ import annotations

import ipaddress
import sys
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


def url(host: str, port: int) -> str:
    """The address of ``host``:``port`` as a browser takes it.

    >>> url("192.168.1.20", 5000), url("::1", 80)
    ('http://192.168.1.20:5000', 'http://[::1]:80')
    """
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def phone_address(host: str, port: int, base_url: str | None = None) -> str | None:
    """The address a phone can open (the base URL when one is set), or None."""
    if base_url:
        return base_url
    if everywhere(host):
        lan = lan_address()
        return url(lan, port) if lan else None
    return None if is_loopback(host) else url(host, port)


def banner(host: str, port: int, out: IO[str] | None, base_url: str | None = None) -> None:
    """Tell whoever started the server how the phones join, and how to stop it."""
    phone = phone_address(host, port, base_url)
    local = url("127.0.0.1", port) if everywhere(host) else url(host, port)
    print("\nScorekeeper is serving the table.", file=out)
    if phone:
        print(f"  Phones on the same network open: {phone}", file=out)
        print(f"  This computer opens:             {local}\n", file=out)
        segno.make(phone, error="m").terminal(out=out, compact=True, border=2)
        print("\nScan the code with a phone's camera; the phone must be on the same Wi-Fi.",
              file=out)
    else:
        print(f"  Address: {local}", file=out)
        print("  No phone can open this address. Connect this computer to the table's Wi-Fi"
              " and serve on every interface (HOST=0.0.0.0, the default of make run).",
              file=out)
    print("Stop the server with Ctrl+C.\n", file=out, flush=True)


class Server(BaseApplication):
    """gunicorn serving a fresh app in each worker."""

    def __init__(self, host: str, port: int, options: dict[str, Any],
                 base_url: str | None) -> None:
        self.host = host
        self.port = port
        self.base_url = base_url
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)
        self.cfg.set("bind", [url(self.host, self.port).removeprefix("http://")])
        # gunicorn 27's control socket has one path per user: two servers would fight over it.
        if "control_socket_disable" in self.cfg.settings:
            self.cfg.set("control_socket_disable", True)
        self.cfg.set("when_ready",
                     lambda _server: banner(self.host, self.port, sys.stdout, self.base_url))

    def load(self):
        from . import create_app

        app = create_app()
        # Tells the share page whether the machine's network address leads here.
        app.config["LISTEN_HOST"] = self.host
        return app


def migrate() -> str | None:
    """Bring the database up to date, then let go of its connections before forking.
    Returns the configured base URL."""
    from . import create_app
    from .db import db, upgrade

    app = create_app()
    with app.app_context():
        upgrade()
        db.engine.dispose()
    return app.config["BASE_URL"]


def serve(host: str, port: int, workers: int) -> None:
    """Migrate, then serve until stopped."""
    base_url = migrate()
    # The app is built once, before the workers fork (it opens no connection and no file
    # at start), so that they share its imported code instead of each importing it.
    # A request here takes milliseconds: on Ctrl+C, workers get 5 s to finish theirs (not
    # gunicorn's 30), so that a worker stopped while it still boots holds nobody up.
    Server(host, port, {"workers": workers, "accesslog": "-", "preload_app": True,
                        "graceful_timeout": 5}, base_url).run()
