"""The page that installs this server's certificate authority on a phone, once, and its
downloads: PEM for Android and desktop browsers, DER for Windows, a configuration profile
for iPhone and iPad. The authority is Caddy's own (``tls internal``, which ``scorekeeper
serve`` runs in front of the app): all are made from its root certificate,
``<CADDY_DIR>/pki/authorities/local/root.crt``, when asked; no other file of that folder
(the keys are there) is ever read.

A stranger's phone gets all of it: the page is how a phone comes to the secure address in
the first place.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Blueprint, Response, abort, current_app, render_template, url_for
from flask_babel import gettext as _

from ..web.links import secure_address

bp = Blueprint("certificate", __name__)

if TYPE_CHECKING:
    from cryptography import x509

# cryptography (about 14 MB in every worker) and plistlib are imported when a certificate is
# asked for, not by every worker at its start.

# PayloadUUIDs are derived from the certificate's fingerprint: the same authority is the
# same profile, so installing it again replaces it rather than adding a second one.
NAMESPACE = uuid.UUID("1d6c5e0a-54c1-4f5e-9d6b-2f1f4b8a7c3e")
PROFILE_ID = "scorekeeper.ca"


def authority() -> x509.Certificate | None:
    """The root certificate of Caddy's local authority, or None when there is none."""
    from cryptography import x509

    path = Path(current_app.config["CADDY_DIR"]) / "pki" / "authorities" / "local" / "root.crt"
    try:
        return x509.load_pem_x509_certificate(path.read_bytes())
    except (OSError, ValueError):
        return None


def fingerprint(cert: x509.Certificate) -> str:
    """The SHA-256 fingerprint as phones and browsers show it (AB:CD:...), four bytes to a
    group so that a narrow screen breaks the line between groups, never inside a byte."""
    from cryptography.hazmat.primitives import hashes

    pairs = [f"{byte:02X}" for byte in cert.fingerprint(hashes.SHA256())]
    return " ".join(":".join(pairs[i:i + 4]) for i in range(0, len(pairs), 4))


def profile(cert: x509.Certificate) -> bytes:
    """An unsigned Apple configuration profile holding ``cert`` as a trusted root."""
    import plistlib

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization

    der = cert.public_bytes(serialization.Encoding.DER)
    seed = cert.fingerprint(hashes.SHA256()).hex()
    name = cert.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)
    title = name[0].value if name else "Scorekeeper"
    payload = {
        "PayloadType": "com.apple.security.root",
        "PayloadVersion": 1,
        "PayloadIdentifier": f"{PROFILE_ID}.root.{seed[:16]}",
        "PayloadUUID": str(uuid.uuid5(NAMESPACE, f"root:{seed}")).upper(),
        "PayloadDisplayName": title,
        "PayloadCertificateFileName": "scorekeeper-ca.cer",
        "PayloadContent": der,
    }
    return plistlib.dumps({
        "PayloadType": "Configuration",
        "PayloadVersion": 1,
        "PayloadIdentifier": f"{PROFILE_ID}.{seed[:16]}",
        "PayloadUUID": str(uuid.uuid5(NAMESPACE, f"profile:{seed}")).upper(),
        "PayloadDisplayName": "Scorekeeper",
        "PayloadDescription": _("Lets this device open the Scorekeeper table over HTTPS."),
        "PayloadOrganization": "Scorekeeper",
        "PayloadRemovalDisallowed": False,
        "PayloadContent": [payload],
    })


def _download(body: bytes, mimetype: str, filename: str, *, attachment: bool = True):
    response = Response(body, mimetype=mimetype)
    if attachment:
        response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


def _required() -> x509.Certificate:
    """The authority; raises 404 when this server makes none."""
    cert = authority()
    if cert is None:
        abort(404, _("This server does not make a certificate of its own, so there is none "
                     "to download here."))
    return cert


def _encoded(encoding: str) -> bytes:
    """The certificate in ``encoding`` ("PEM", "DER"); 404 when there is none."""
    from cryptography.hazmat.primitives import serialization

    return _required().public_bytes(getattr(serialization.Encoding, encoding))


@bp.get("/certificate")
def show():
    """How to install the certificate on Android, iPhone and iPad, and a computer."""
    cert = authority()
    return render_template(
        "certificate.html", fingerprint=cert and fingerprint(cert),
        secure=secure_address(url_for("matches.home")))


@bp.get("/certificate/scorekeeper-ca.crt")
def pem():
    """The certificate in PEM, for Android and desktop browsers."""
    body = _encoded("PEM")
    return _download(body, "application/x-x509-ca-cert", "scorekeeper-ca.crt")


@bp.get("/certificate/scorekeeper-ca.cer")
def der():
    """The certificate in DER, for Windows."""
    body = _encoded("DER")
    return _download(body, "application/pkix-cert", "scorekeeper-ca.cer")


@bp.get("/certificate/scorekeeper.mobileconfig")
def mobileconfig():
    """The configuration profile that installs the certificate on iPhone and iPad."""
    # Shown, not saved: Safari hands a profile it opens to Settings.
    return _download(profile(_required()), "application/x-apple-aspen-config",
                     "scorekeeper.mobileconfig", attachment=False)
