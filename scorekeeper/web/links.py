"""Addresses another phone can open: the base of share links and QR codes, trusted hosts.

A share link is only useful when the phone that scans it can reach it. The base of every
link is, in this order: the configured ``BASE_URL``; the address the request came in on,
unless that is a loopback one; this machine's address on the local network, when the
server listens on it. Otherwise the link stays on the loopback address and the page says
that no phone can open it.

A server that answers HTTPS and plain HTTP on the same port (``SERVES_HTTPS``) gives the
https address in its links even to a page opened over plain HTTP, and such a page offers
its own secure address (:func:`secure_offer`).

``BASE_URL`` also closes a hole: without it the ``Host`` header names the links' host, so
a forged header would hand out links to another site. With it set, only its host is
trusted (``TRUSTED_HOSTS``, unless set otherwise) and every other host gets a 400.
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import os
import socket
from dataclasses import dataclass
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


def _serves_https() -> bool:
    return bool(current_app.config.get("SERVES_HTTPS"))


def _here() -> str:
    """The scheme and host of this request, as https when the same port answers it: a
    plain HTTP request without a port came in on port 80, so its secure twin is there."""
    if request.scheme == "https" or not _serves_https():
        return f"{request.scheme}://{request.host}"
    port = urlsplit(f"//{request.host}").port
    return f"https://{request.host}" + ("" if port else ":80")


def link_base() -> Base:
    """The base of share links for the current request (see the module's docstring)."""
    configured = current_app.config.get("BASE_URL")
    if configured:
        return Base(configured.rstrip("/"), is_loopback(urlsplit(configured).netloc))
    here = _here()
    if not is_loopback(request.host):
        return Base(here, False)
    listen = current_app.config.get("LISTEN_HOST")
    lan = lan_address()
    if listen and not is_loopback(listen) and lan:
        scheme, port = urlsplit(here).scheme, urlsplit(here).port
        return Base(f"{scheme}://{lan}" + (f":{port}" if port else ""), False)
    return Base(here, True)


def secure_address(path: str = "/") -> str | None:
    """The https address of ``path`` on this host and port, when this server answers
    HTTPS there (or the request came over it); else None."""
    if request.scheme != "https" and not _serves_https():
        return None
    return _here() + path


def secure_offer() -> str | None:
    """The secure address of this very page, to offer a phone that opened it over plain
    HTTP on a server that also answers HTTPS on the same port; None over HTTPS, on a
    server without HTTPS, and for the answer to a form (its address shows no page).

    The path and query are kept, so the phone lands on the same page.
    """
    if request.scheme == "https" or not _serves_https() or request.method not in (
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
