"""The page that installs the server's certificate authority on a phone, its downloads, and
the secure address a page opened over plain HTTP offers."""

from __future__ import annotations

import datetime
import plistlib
import re
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.db import upgrade
from scorekeeper.web.links import qr_svg

from .conftest import CSRF, Table
from .test_links import INVITE, TABLE, SchemeAndHost, share

NAMES = ["Anna", "Bruno", "Carla"]
HTTP = "http://scores.test:5000"
HTTPS = "https://scores.test:5001"  # Caddy's HTTPS: the plain port's next
NOTICE = "Not secure: this phone can"
OFFER = re.compile(r'<aside class="secure-offer".*?</aside>', re.S)
FOLLOW = re.compile(r'<p class="link-text"><a href="([^"]+)">')


class ScoresTest(FlaskClient):
    """A client whose requests go to scores.test:5000 over plain HTTP unless told otherwise."""

    def open(self, *args, **kwargs):
        kwargs.setdefault("base_url", HTTP)
        return super().open(*args, **kwargs)


ROOT = Path("pki", "authorities", "local")


def make_ca(folder: Path) -> x509.Certificate:
    """A self-signed certificate authority in ``folder``/pki/authorities/local/root.crt, where
    Caddy keeps its local authority's, with a key beside it that no page may read."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Scorekeeper"),
                      x509.NameAttribute(NameOID.COMMON_NAME, "Scorekeeper on testhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=3650))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .sign(key, hashes.SHA256()))
    folder = folder / ROOT
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "root.crt").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "root.key").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    return cert


def fingerprint(cert: x509.Certificate) -> str:
    """The fingerprint as the page prints it: AB:CD:EF:01 23:45:..., four bytes a group."""
    pairs = [f"{byte:02X}" for byte in cert.fingerprint(hashes.SHA256())]
    return " ".join(":".join(pairs[i:i + 4]) for i in range(0, len(pairs), 4))


def make_app(tmp_path: Path, **config) -> Flask:
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "CADDY_DIR": str(tmp_path / "caddy"),
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'cert.db'}",
                      **config})
    with app.app_context():
        upgrade()
    return app


@pytest.fixture
def ca(tmp_path: Path) -> x509.Certificate:
    return make_ca(tmp_path / "caddy")


@pytest.fixture
def served(tmp_path: Path, ca: x509.Certificate) -> Flask:
    """The app as ``scorekeeper serve`` runs it: plain HTTP on 5000 and HTTPS on 5001, behind
    Caddy, which says which one the request came over; links on the printed address."""
    return make_app(tmp_path, SECURE_PORT=5001, SERVED_URL=HTTPS, PROXIES=1)


def get(client, path: str, *, scheme: str = "http", lang: str = "en"):
    """A request as Caddy hands it on: plain HTTP, saying the phone's scheme."""
    return client.get(path, base_url=HTTPS if scheme == "https" else HTTP, headers={
        "X-Forwarded-Proto": scheme, "Accept-Language": lang})


def test_the_page_shows_every_platform_and_the_fingerprint(served, ca):
    stranger = served.test_client()  # no cookie, member of nothing
    page = get(stranger, "/certificate", scheme="https").get_data(as_text=True)
    for words in ("Android (Chrome)", "iPhone and iPad (Safari)", "Computer",
                  "Certificate Trust Settings", "Trusted Root Certification Authorities",
                  "View Certificates > Authorities > Import",
                  "only from a computer you trust", "User credentials",
                  "VPN & Device Management"):
        assert words in page, words
    assert fingerprint(ca) in page
    for path in ("/certificate/scorekeeper-ca.crt", "/certificate/scorekeeper-ca.cer",
                 "/certificate/scorekeeper.mobileconfig"):
        assert f'href="{path}"' in page
    assert f'href="{HTTPS}/"' in page
    italian = get(stranger, "/certificate", lang="it").get_data(as_text=True)
    for words in ("Installa il certificato", "iPhone e iPad (Safari)", "Computer",
                  "Impostazioni certificati attendibili", "Credenziali utente",
                  "di cui ti fidi"):
        assert words in italian, words
    assert fingerprint(ca) in italian and "Install the certificate" not in italian


def test_the_downloads_are_the_same_certificate(served, ca):
    client = served.test_client()
    der = ca.public_bytes(serialization.Encoding.DER)
    pem = get(client, "/certificate/scorekeeper-ca.crt")
    assert pem.status_code == 200 and pem.mimetype == "application/x-x509-ca-cert"
    assert x509.load_pem_x509_certificate(pem.data) == ca
    assert "scorekeeper-ca.crt" in pem.headers["Content-Disposition"]
    cer = get(client, "/certificate/scorekeeper-ca.cer")
    assert cer.status_code == 200 and cer.mimetype == "application/pkix-cert"
    assert cer.data == der and x509.load_der_x509_certificate(cer.data) == ca
    config = get(client, "/certificate/scorekeeper.mobileconfig")
    assert config.status_code == 200 and config.mimetype == "application/x-apple-aspen-config"
    profile = plistlib.loads(config.data)
    assert profile["PayloadType"] == "Configuration"
    (payload,) = profile["PayloadContent"]
    assert payload["PayloadType"] == "com.apple.security.root"
    assert payload["PayloadContent"] == der
    assert profile["PayloadUUID"] != payload["PayloadUUID"]
    # The same authority is the same profile: installed again, it replaces itself.
    again = plistlib.loads(get(client, "/certificate/scorekeeper.mobileconfig", lang="it").data)
    assert (again["PayloadUUID"], again["PayloadContent"][0]["PayloadUUID"]) == (
        profile["PayloadUUID"], payload["PayloadUUID"])
    for body in (pem.data, cer.data, config.data):
        assert b"PRIVATE KEY" not in body


def test_a_profile_changes_with_the_authority(tmp_path):
    make_ca(tmp_path / "a" / "caddy")
    make_ca(tmp_path / "b" / "caddy")
    first, second = make_app(tmp_path / "a"), make_app(tmp_path / "b")
    uuids = [plistlib.loads(app.test_client().get("/certificate/scorekeeper.mobileconfig").data)
             ["PayloadUUID"] for app in (first, second)]
    assert uuids[0] != uuids[1]


def test_without_an_authority_the_page_says_so_and_nothing_downloads(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    page = client.get("/certificate", base_url=HTTPS)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "does not make a certificate of its own" in text
    assert "scorekeeper-ca" not in text and "SHA-256" not in text
    italian = client.get("/certificate", headers={"Accept-Language": "it"})
    assert "non crea un proprio certificato" in italian.get_data(as_text=True)
    for path in ("/certificate/scorekeeper-ca.crt", "/certificate/scorekeeper-ca.cer",
                 "/certificate/scorekeeper.mobileconfig"):
        response = client.get(path)
        assert response.status_code == 404 and response.mimetype == "text/html"
        assert "none to download here" in response.get_data(as_text=True)


def test_only_the_authority_s_certificate_is_ever_read(served, tmp_path):
    # A broken root.crt is no certificate at all, and no other file of the folder stands in.
    (tmp_path / "caddy" / ROOT / "root.crt").write_text("not a certificate")
    client = served.test_client()
    assert "does not make a certificate" in get(client, "/certificate").get_data(as_text=True)
    assert get(client, "/certificate/scorekeeper-ca.crt").status_code == 404
    assert get(client, "/certificate/root.key").status_code == 404
    assert get(client, "/certificate/ca-key.pem").status_code == 404


def test_plain_http_offers_the_secure_address_of_the_same_page(served):
    table = Table(served.test_client())
    path = "/matches/new?game=scala40&table="
    response = get(table.client, path)
    page = response.get_data(as_text=True)
    (notice,) = OFFER.findall(page)
    offer = f"{HTTPS}/matches/new?game=scala40&amp;table="
    assert NOTICE in notice
    # Without JavaScript, both steps in order: the certificate first (in bold, saying why),
    # then the secure address.
    install = notice.index('<a class="go" href="/certificate">First install the certificate</a>')
    secure = notice.index(f'<a href="{offer}">Open the secure address</a>')
    assert install < secure
    assert "its browser shows the secure address as “not private”" in notice[install:secure]
    assert qr_svg(f"{HTTPS}{path}", "The secure address") in notice
    # The script that tells whether this phone trusts the certificate yet loads an image of
    # the secure address: the page's policy lets it, and only it.
    assert re.search(rf'data-probe="{HTTPS}/static/favicon\.svg\?v=\w+"', notice)
    assert 'src="/static/js/trust.js?v=' in notice
    assert f"img-src 'self' data: {HTTPS};" in response.headers["Content-Security-Policy"]
    secure_page = get(table.client, path, scheme="https")
    assert "img-src 'self' data:;" in secure_page.headers["Content-Security-Policy"]
    # The notice sits at the top, before the page's own content.
    assert page.index(notice) < page.index("<main>")
    italian = get(table.client, "/", lang="it").get_data(as_text=True)
    assert ("Non sicuro: questo telefono non può tenere lo schermo acceso né leggere il "
            "foglio senza rete.") in italian
    assert "Apri l'indirizzo sicuro" in italian and f'href="{HTTPS}/"' in italian
    assert "Prima installa il certificato" in italian


def test_a_sheet_over_plain_http_offers_its_secure_address(served):
    table = Table(served.test_client())
    match_id = table.new_match("navawhist", NAMES)
    page = get(table.client, f"/matches/{match_id}").get_data(as_text=True)
    assert f'<a href="{HTTPS}/matches/{match_id}">' in OFFER.search(page).group()
    # The page's own links stay on the address it was opened at.
    assert f'href="{HTTPS}/matches/{match_id}/share"' not in page


def test_no_offer_over_https_nor_on_a_server_without_it(served, tmp_path):
    client = served.test_client()
    for path in ("/", "/matches/new", "/nope", "/certificate"):
        assert NOTICE not in get(client, path, scheme="https").get_data(as_text=True), path
    # The certificate page over plain HTTP: only its steps, no notice leading to itself.
    page = get(client, "/certificate").get_data(as_text=True)
    assert NOTICE not in page and "secure-offer" not in page
    assert f'href="{HTTPS}/"' in page
    # HTTPS served some other way (or not at all): every page stays as it was.
    (tmp_path / "plain").mkdir()
    plain = make_app(tmp_path / "plain")
    for base in (HTTP, HTTPS):
        assert NOTICE not in plain.test_client().get("/", base_url=base).get_data(as_text=True)
    # The answer to a form offers nothing: its address shows no page to go back to.
    response = client.post("/lang/it", base_url=HTTP, data={"next": "/"})
    assert NOTICE not in response.get_data(as_text=True)


def test_the_scheme_comes_from_caddy_or_the_connection(served):
    client = served.test_client()
    assert NOTICE in client.get("/", base_url=HTTP).get_data(as_text=True)
    assert NOTICE not in client.get("/", base_url=HTTPS).get_data(as_text=True)
    assert NOTICE not in get(client, "/", scheme="https").get_data(as_text=True)


def follow_link(client, match_id: str, **kwargs) -> tuple[str, str]:
    """The follow link of the share page (past the notice), and the page."""
    page = client.get(f"/matches/{match_id}/share", **kwargs).get_data(as_text=True)
    return FOLLOW.search(page).group(1), page


def invitation_link(client, page: str, match_id: str, **kwargs) -> str:
    """The link of a fresh invitation made on the share ``page``."""
    invite = client.post(f"/tables/{TABLE.search(page).group(1)}/invitations",
                         data={"csrf_token": CSRF.search(page).group(1), "match": match_id},
                         follow_redirects=True, **kwargs)
    return INVITE.search(invite.get_data(as_text=True)).group(1)


def test_share_links_give_the_secure_address(served, tmp_path):
    served.test_client_class = ScoresTest  # the phone of the table opens scores.test
    table = Table(served.test_client())
    match_id = table.new_match("navawhist", NAMES)
    follow, page = follow_link(table.client, match_id, headers={"X-Forwarded-Proto": "http"})
    assert NOTICE in page
    assert follow == f"{HTTPS}/matches/{match_id}"
    assert qr_svg(follow, "Follow") in page
    assert invitation_link(table.client, page, match_id).startswith(f"{HTTPS}/join/")
    # Over HTTPS the links are the same.
    assert follow_link(table.client, match_id, base_url=HTTPS)[0] == follow
    # Opened by another name, or with a forged Host, the links stay on the printed address.
    for host in ("scorekeeper-table.local:5000", "evil.example"):
        assert follow_link(table.client, match_id, headers={"Host": host})[0] == follow
    # A configured address stays what it says.
    (tmp_path / "base").mkdir()
    configured = make_app(tmp_path / "base", SECURE_PORT=5001,
                          BASE_URL="http://scores.example")
    configured.test_client_class = SchemeAndHost
    table = Table(configured.test_client())
    match_id = table.new_match("navawhist", NAMES)
    follow, _ = follow_link(table.client, match_id, base_url="http://scores.example")
    assert follow == f"http://scores.example/matches/{match_id}"


def test_without_https_share_links_keep_the_server_s_own_address(tmp_path):
    """An app run another way (no scorekeeper serve, no base URL): links name the address
    its server listens on, never the Host header."""
    table = Table(make_app(tmp_path).test_client())
    match_id = table.new_match("navawhist", NAMES)
    assert share(table.client, match_id, base_url=HTTP)[0] == f"{HTTP}/matches/{match_id}"
    forged = share(table.client, match_id, base_url=HTTP, headers={"Host": "evil.example"})
    assert forged[0] == f"{HTTP}/matches/{match_id}"


def test_a_sheet_is_never_served_with_another_scheme_s_notice(served):
    table = Table(served.test_client())
    match_id = table.new_match("navawhist", NAMES)
    over_http = get(table.client, f"/matches/{match_id}").get_data(as_text=True)
    over_https = get(table.client, f"/matches/{match_id}", scheme="https").get_data(as_text=True)
    again = get(table.client, f"/matches/{match_id}").get_data(as_text=True)
    assert NOTICE in over_http and NOTICE not in over_https and NOTICE in again
