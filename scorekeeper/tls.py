"""A certificate authority of this machine's own, and the server certificate it signs.

Phones open the table's address on the local network, where no public certificate can be
had. As mkcert and Caddy's ``tls internal`` do, ``scorekeeper serve`` makes a certificate
authority once (in ``instance/tls``, its private key readable by its owner only) and signs
with it a certificate for the machine's names and addresses on the network. A phone that
trusts the authority (the page ``/certificate`` shows how) opens the table over HTTPS with
no warning, and gets what browsers keep for secure pages: the screen kept awake, the sheet
read offline, the app installed.

The server certificate is made again when it comes within 30 days of its end, or when the
machine's names or addresses are no longer all in it (a new address from the Wi-Fi).
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from .web.links import lan_address

CA_YEARS = 10
# Apple's limit for any server certificate is 825 days; a year and a month is what public
# authorities give.
SERVER_DAYS = 397
RENEW_DAYS = 30


@dataclass(frozen=True)
class Files:
    """The files of one folder: the authority and the server's certificate and key."""

    folder: Path

    @property
    def ca(self) -> Path:
        return self.folder / "ca.pem"

    @property
    def ca_key(self) -> Path:
        return self.folder / "ca-key.pem"

    @property
    def cert(self) -> Path:
        return self.folder / "server.pem"

    @property
    def key(self) -> Path:
        return self.folder / "server-key.pem"


def machine_names(host: str = "") -> list[str]:
    """The names and addresses a phone or this computer may open the server by: the host
    name, ``<host>.local`` (mDNS), ``localhost``, the loopback addresses, the addresses on
    the local network, and ``host`` when it names one of them."""
    hostname = socket.gethostname().split(".")[0]
    names = [hostname, f"{hostname}.local", "localhost", "127.0.0.1", "::1"]
    with contextlib.suppress(OSError):
        names += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None)]
    lan = lan_address()
    if lan:
        names.append(lan)
    if host and not _unspecified(host):
        names.append(host)
    seen: list[str] = []
    for name in names:
        name = name.split("%")[0]  # an IPv6 address's zone
        if name and name not in seen and not _link_local(name):
            seen.append(name)
    return seen


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def _unspecified(name: str) -> bool:
    ip = _ip(name)
    return ip is not None and ip.is_unspecified


def _link_local(name: str) -> bool:
    ip = _ip(name)
    return ip is not None and ip.is_link_local


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _write(path: Path, data: bytes, *, private: bool) -> None:
    """Write ``data`` to ``path``; a private file is made readable by its owner only before
    a byte of it is written."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    fd = os.open(path, flags, 0o600 if private else 0o644)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    if private:
        path.chmod(0o600)


def _key_bytes(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def make_ca(files: Files) -> None:
    """A new certificate authority, valid ten years, that may sign server certificates only."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Scorekeeper"),
        x509.NameAttribute(NameOID.COMMON_NAME,
                           f"Scorekeeper on {socket.gethostname()} {_now():%Y-%m-%d}"),
    ])
    now = _now()
    public = key.public_key()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name).issuer_name(name).public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=365 * CA_YEARS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(
            digital_signature=True, key_cert_sign=True, crl_sign=True,
            content_commitment=False, key_encipherment=False, data_encipherment=False,
            key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )
    files.folder.mkdir(parents=True, exist_ok=True)
    files.folder.chmod(0o700)
    _write(files.ca_key, _key_bytes(key), private=True)
    _write(files.ca, cert.public_bytes(serialization.Encoding.PEM), private=False)


def _alt_names(names: list[str]) -> list[x509.GeneralName]:
    alt: list[x509.GeneralName] = []
    for name in names:
        ip = _ip(name)
        alt.append(x509.IPAddress(ip) if ip else x509.DNSName(name))
    return alt


def make_server_cert(files: Files, names: list[str]) -> None:
    """A server certificate for ``names``, signed by the folder's authority."""
    ca_cert = x509.load_pem_x509_certificate(files.ca.read_bytes())
    ca_key = serialization.load_pem_private_key(files.ca_key.read_bytes(), password=None)
    key = ec.generate_private_key(ec.SECP256R1())
    now = _now()
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Scorekeeper"),
            x509.NameAttribute(NameOID.COMMON_NAME, names[0]),
        ]))
        .issuer_name(ca_cert.subject).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(min(now + datetime.timedelta(days=SERVER_DAYS),
                             ca_cert.not_valid_after_utc))
        .add_extension(x509.SubjectAlternativeName(_alt_names(names)), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(
            digital_signature=True, key_cert_sign=False, crl_sign=False,
            content_commitment=False, key_encipherment=False, data_encipherment=False,
            key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                       critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
            ca_cert.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    _write(files.key, _key_bytes(key), private=True)
    # The chain a browser is handed: the server's certificate, then the authority's.
    _write(files.cert, cert.public_bytes(serialization.Encoding.PEM) + files.ca.read_bytes(),
           private=False)


def covers(files: Files, names: list[str], now: datetime.datetime | None = None) -> bool:
    """True when the server certificate exists, was signed by the folder's authority, names
    every one of ``names`` and has more than 30 days left."""
    if not files.cert.exists() or not files.key.exists():
        return False
    try:
        cert = x509.load_pem_x509_certificate(files.cert.read_bytes())
        ca_cert = x509.load_pem_x509_certificate(files.ca.read_bytes())
        cert.verify_directly_issued_by(ca_cert)
        alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (ValueError, TypeError, x509.ExtensionNotFound, x509.InvalidSignature):
        return False
    left = cert.not_valid_after_utc - (now or _now())
    return left > datetime.timedelta(days=RENEW_DAYS) and set(_alt_names(names)) <= set(alt)


def ensure(folder: Path, names: list[str]) -> Files:
    """The authority (made once) and a server certificate for ``names`` (made again when
    it does not cover them or ends within 30 days)."""
    files = Files(folder)
    if not files.ca.exists() or not files.ca_key.exists():
        make_ca(files)
    if not covers(files, names):
        make_server_cert(files, names)
    return files

