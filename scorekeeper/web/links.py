"""Addresses another phone can open: the base of share links and QR codes, trusted hosts.

A share link is only useful when the phone that scans it can reach it, and it must never
lead anywhere a request's ``Host`` header says: the base of every link is the configured
``BASE_URL``, else the address ``scorekeeper serve`` printed for the phones
(``SERVED_URL``: the secure address on the local network, or this computer's own when no
phone can reach the server), else, for an app run another way, the address its server
listens on (``SERVER_NAME`` and ``SERVER_PORT``, which Werkzeug's and gunicorn's servers
take from their socket). A base on a loopback address makes the page say that no phone can
open it.

Under ``scorekeeper serve``, Caddy answers HTTPS on a port of its own (``SECURE_PORT``,
the plain port's next): a page opened over plain HTTP offers its secure twin there
(:func:`secure_offer`).

``BASE_URL`` also decides which hosts are answered: only its host is trusted
(``TRUSTED_HOSTS``, unless set otherwise) and every other host gets a 400. A ``Host`` that
is no host name at all (a label over 63 characters, an empty one) gets a 400 whatever the
settings (:func:`guard_host`).
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import os
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import SecurityError

# Any address outside this machine: no packet is sent, the socket only picks a route.
_PROBE = ("10.255.255.255", 1)


def is_loopback(host: str) -> bool:
    """True when ``host`` (a name or address, with or without a port) is this machine only.

    >>> [is_loopback(h) for h in ("127.0.0.1:5000", "[::1]:80", "localhost", "a.localhost")]
    [True, True, True, True]
    >>> [is_loopback(h) for h in ("192.168.1.20:5000", "scores.example", "0.0.0.0")]
    [False, False, False]
    """
    name = urlsplit(f"//{host}").hostname or ""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's IPv4 address on its local network, or None when it has none."""
    candidates = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(_PROBE)
        candidates.append(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        candidates += [info[4][0] for info in socket.getaddrinfo(
            socket.gethostname(), None, socket.AF_INET)]
    for address in candidates:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local):
            return address
    return None


@dataclass(frozen=True)
class Base:
    """The scheme and host share links start with; ``loopback`` when no phone can open it."""

    url: str
    loopback: bool


def _secure_port() -> int | None:
    return current_app.config.get("SECURE_PORT")


def _here() -> str:
    """The scheme and host of this request, as https on the secure port when Caddy answers
    HTTPS there (the request's host name, without the plain port)."""
    port = _secure_port()
    if request.scheme == "https" or not port:
        return f"{request.scheme}://{request.host}"
    name = urlsplit(f"//{request.host}").hostname or ""
    return f"https://[{name}]:{port}" if ":" in name else f"https://{name}:{port}"


def _listening() -> str:
    """The address the server listens on, as its socket says (never the Host header)."""
    environ = request.environ
    name, port = environ.get("SERVER_NAME", ""), str(environ.get("SERVER_PORT", ""))
    if ":" in name:
        name = f"[{name}]"
    default = {"http": "80", "https": "443"}.get(request.scheme)
    return f"{request.scheme}://{name}" + ("" if not port or port == default else f":{port}")


def link_base() -> Base:
    """The base of share links for the current request (see the module's docstring)."""
    configured = current_app.config.get("BASE_URL") or current_app.config.get("SERVED_URL")
    if configured:
        return Base(configured.rstrip("/"), is_loopback(urlsplit(configured).netloc))
    here = _listening()
    return Base(here, is_loopback(urlsplit(here).netloc))


def secure_address(path: str = "/") -> str | None:
    """The https address of ``path`` on this host, when this server answers HTTPS (or the
    request came over it); else None."""
    if request.scheme != "https" and not _secure_port():
        return None
    return _here() + path


def secure_origin() -> str | None:
    """The https origin of this host when a page came over plain HTTP on a server that also
    answers HTTPS (the page loads a probe image from there: static/js/trust.js), else None."""
    if request.scheme == "https" or not _secure_port():
        return None
    return _here()


def secure_offer() -> str | None:
    """The secure address of this very page, to offer a phone that opened it over plain
    HTTP on a server that also answers HTTPS; None over HTTPS, on a server without HTTPS,
    and for the answer to a form (its address shows no page).

    The path and query are kept, so the phone lands on the same page.
    """
    if request.scheme == "https" or not _secure_port() or request.method not in (
            "GET", "HEAD"):
        return None
    parts = urlsplit(request.url)
    return _here() + parts.path + (f"?{parts.query}" if parts.query else "")


def share_url(endpoint: str, **values) -> str:
    """The absolute address of ``endpoint`` that other phones should be given."""
    return link_base().url + url_for(endpoint, **values)


def table_screen_url(table) -> str:
    """The absolute address of ``table``'s screen: it follows whichever match the table
    plays now and gives no membership, only a view of the sheet."""
    return share_url("screens.table", table_id=table.id, token=table.screen_token)


def qr_svg(url: str, title: str) -> str:
    """A QR code of ``url`` as an inline SVG."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, nl=False, scale=5,
                                    border=2, title=title, svgclass="qr")
    return out.getvalue().decode()


def refuse_host(error: SecurityError) -> Response:
    """A plain 400 for a host this server does not answer to: no page of ours can be built
    for it, since every address on it would point at the wrong host."""
    host = request.environ.get("HTTP_HOST", "")
    message = _("This server does not answer to %(host)s.", host=host)
    return Response(message, 400, {"Content-Type": "text/plain; charset=utf-8"})


_LABEL = re.compile(r"[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?")
_PORT = re.compile(r"[0-9]{1,5}")


def valid_host(value: str) -> bool:
    """True when ``value`` (a ``Host`` header, lower case) is a host name or an address,
    with or without a port: labels of 1 to 63 letters, digits, ``-`` or ``_``, 253
    characters at most; an empty value is left to the server's own name.

    >>> [valid_host(h) for h in ("", "scores.example", "192.168.1.20:5000", "[::1]:80",
    ...                          "a.b.", "x" * 63 + ".example")]
    [True, True, True, True, True, True]
    >>> [valid_host(h) for h in ("a..b", "x" * 64 + ".example", ".a", "a:b", "[::z]",
    ...                          "a b", "caf\u00e9.example", "a:1:2", "-a.b")]
    [False, False, False, False, False, False, False, False, False]
    """
    if not value:
        return True
    if value.startswith("["):
        address, _bracket, port = value[1:].partition("]")
        if port and not (port.startswith(":") and _PORT.fullmatch(port[1:])):
            return False
        try:
            return ipaddress.IPv6Address(address) is not None
        except ValueError:
            return False
    name, colon, port = value.partition(":")
    if colon and not _PORT.fullmatch(port):
        return False
    name = name[:-1] if name.endswith(".") else name
    return 0 < len(name) <= 253 and all(
        len(label) <= 63 and _LABEL.fullmatch(label) for label in name.split("."))


def guard_host(wsgi_app: Callable) -> Callable:
    """A plain 400, before anything of the app runs, for a ``Host`` (or a proxy's
    ``X-Forwarded-Host``) that is no host name: no page, not even an error page, can build
    its addresses on it."""

    def app(environ: dict, start_response: Callable) -> Any:
        hosts = [environ.get("HTTP_HOST", "")]
        hosts += environ.get("HTTP_X_FORWARDED_HOST", "").split(",")
        if all(valid_host(host.strip()) for host in hosts):
            return wsgi_app(environ, start_response)
        body = b"This is not a host name this server answers to.\n"
        start_response("400 BAD REQUEST", [("Content-Type", "text/plain; charset=utf-8"),
                                           ("Content-Length", str(len(body)))])
        return [body]

    return app


def _hosts(value: str) -> list[str]:
    return [host.strip() for host in value.split(",") if host.strip()]


def init_app(app: Flask) -> None:
    """Read ``SCOREKEEPER_BASE_URL`` and ``SCOREKEEPER_TRUSTED_HOSTS`` unless configured.

    A base URL without a trusted host list trusts the base URL's host alone.
    """
    app.config.setdefault("BASE_URL", os.environ.get("SCOREKEEPER_BASE_URL") or None)
    if app.config["BASE_URL"] and not urlsplit(app.config["BASE_URL"]).hostname:
        raise ValueError(f"BASE_URL {app.config['BASE_URL']!r} needs a scheme and a host, "
                         "like https://scores.example")
    if app.config.get("TRUSTED_HOSTS") is None and os.environ.get("SCOREKEEPER_TRUSTED_HOSTS"):
        app.config["TRUSTED_HOSTS"] = _hosts(os.environ["SCOREKEEPER_TRUSTED_HOSTS"])
    if app.config.get("TRUSTED_HOSTS") is None and app.config["BASE_URL"]:
        app.config["TRUSTED_HOSTS"] = [urlsplit(app.config["BASE_URL"]).hostname]
    app.register_error_handler(SecurityError, refuse_host)
