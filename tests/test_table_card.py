"""The table card: a printed invitation for an evening, read back from its PDF's text and
QR codes; what it admits, and the 403 of a used-up, withdrawn or expired card."""

from __future__ import annotations

import re
import subprocess
from datetime import datetime, timedelta

import pytest
import zxingcpp
from PIL import Image

from scorekeeper.db import db
from scorekeeper.models import Invitation, Match, Membership, Table, _now
from scorekeeper.web.links import table_screen_url

from .conftest import Table as Phone
from .conftest import pdf_text
from .test_access import table_of

pytestmark = pytest.mark.slow
NAMES = ["Anna", "Bruno", "Carla"]


def phone(app, lang: str = "en") -> Phone:
    """Another browser, in ``lang``: its own cookies, no table yet."""
    browser = Phone(app.test_client())
    browser.client.set_cookie("lang", lang)
    return browser


def make_card(table: Phone, table_id: str, **form: str) -> str:
    """Make a card through the table page's form; the address of the page it lands on."""
    page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert f'action="/tables/{table_id}/cards"' in page
    made = table.post(f"/tables/{table_id}/cards", {"until": "6h", "phones": "8", **form})
    assert made.status_code == 303
    return made.headers["Location"]


def qr_codes(data: bytes, tmp_path) -> list[list[str]]:
    """The QR codes of each page of a PDF, top to bottom then left to right."""
    (tmp_path / "card.pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-r", "150", "-png", tmp_path / "card.pdf", tmp_path / "page"],
                   check=True)
    pages = []
    for png in sorted(tmp_path.glob("page*.png")):
        # Only QR codes are looked for: a line of the card's text once read as a linear barcode.
        found = zxingcpp.read_barcodes(Image.open(png), formats=zxingcpp.BarcodeFormat.QRCode)
        found.sort(key=lambda f: (round(f.position.top_left.y / 100), f.position.top_left.x))
        pages.append([f.text for f in found])
    return pages


def screen_address(app, table_id: str) -> str:
    with app.test_request_context():
        return table_screen_url(db.session.get_one(Table, table_id))


def join_path(url: str) -> str:
    assert re.fullmatch(r"http://localhost/join/[A-Za-z0-9_-]{20,}", url), url
    return url.removeprefix("http://localhost")


def the_card(app) -> Invitation:
    with app.app_context():
        return db.session.scalars(db.select(Invitation)).one()


def test_the_printed_card_lets_its_phones_join_and_the_next_one_gets_a_clear_403(
        app, table, tmp_path):
    table_id = table_of(table, table.new_match("navawhist", NAMES))
    table.post(f"/tables/{table_id}/name", {"name": "Da Gino"})
    shown = make_card(table, table_id, phones="2", until="2h")
    page = table.client.get(shown)
    assert page.headers["Cache-Control"] == "no-store"
    assert "Download the card (A6)" in page.get_data(as_text=True)
    assert table.client.get(shown).status_code == 200  # a reload makes no other card
    card = the_card(app)
    assert card.max_uses == 2 and card.uses == 0
    assert timedelta(hours=1, minutes=59) < card.expires_at - _now() <= timedelta(hours=2)

    answer = table.client.get(f"{shown}/a6.pdf")
    text, pages, _ = pdf_text(answer)
    assert pages == 1 and "Da Gino" in text and "Follow the match" in text
    assert "Join the table" in text and "for 2 phones" in text and "Valid until" in text
    [codes] = qr_codes(answer.data, tmp_path)
    screen, link = codes
    assert screen == screen_address(app, table_id)
    join = join_path(link)
    flat = text.replace("\n", "")
    assert screen in flat and link in flat  # each address is printed under its code
    # the database holds no usable link: only a hash of the token
    assert link.rsplit("/", 1)[1] not in the_card(app).token_hash

    first, second, third = phone(app), phone(app), phone(app)
    assert first.client.get(join).status_code == 200  # a look asks first and admits nobody
    for guest in (first, second):
        assert guest.post(join, {}).status_code == 303
        assert guest.client.get(f"/tables/{table_id}").status_code == 200
    refused = third.post(join, {})
    assert refused.status_code == 403
    assert "This table card has been used by 2 phones already" in refused.get_data(as_text=True)
    assert third.client.get(join).status_code == 403
    assert third.client.get(f"/tables/{table_id}").status_code == 403
    with app.app_context():
        assert db.session.query(Membership).filter_by(table_id=table_id).count() == 3
    assert the_card(app).uses == 2
    # used up, it is no longer listed on the table page, and prints no more
    assert "/withdraw" not in table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert table.client.get(f"{shown}/a6.pdf").status_code == 404


def test_an_a4_sheet_holds_four_cards(app, table, tmp_path):
    table_id = table_of(table, table.new_match("navawhist", NAMES))
    shown = make_card(table, table_id)
    answer = table.client.get(f"{shown}/a4.pdf")
    text, pages, _ = pdf_text(answer)
    assert pages == 1 and text.count("Join the table") == 4 and text.count("for 8 phones") == 4
    [codes] = qr_codes(answer.data, tmp_path)
    assert len(codes) == 8
    screen = screen_address(app, table_id)
    # two cards a row: each card's screen code above its join code
    assert [codes[i] for i in (0, 1, 4, 5)] == [screen] * 4
    joins = {codes[i] for i in (2, 3, 6, 7)}
    assert len(joins) == 1
    assert phone(app).post(join_path(joins.pop()), {}).status_code == 303


def test_an_italian_card_and_an_italian_refusal(app, table, tmp_path):
    table.client.set_cookie("lang", "it")
    table_id = table_of(table, table.new_match("navawhist", NAMES))
    page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "Stampa un cartoncino per il tavolo" in page
    shown = make_card(table, table_id, phones="1")
    answer = table.client.get(f"{shown}/a6.pdf")
    text, _, _ = pdf_text(answer)
    assert "Segui la partita" in text and "Entra nel tavolo" in text
    assert "per 1 telefono" in text and "Valido fino a:" in text
    [[_screen, link]] = qr_codes(answer.data, tmp_path)
    assert phone(app, "it").post(join_path(link), {}).status_code == 303
    refused = phone(app, "it").post(join_path(link), {})
    assert refused.status_code == 403
    assert "Questo cartoncino è già stato usato da 1 telefono" in refused.get_data(as_text=True)


@pytest.mark.parametrize("lang, words", [
    ("en", "This table card was withdrawn"), ("it", "Questo cartoncino è stato ritirato")])
def test_a_withdrawn_card_grants_nothing(app, table, tmp_path, lang, words):
    table_id = table_of(table, table.new_match("navawhist", NAMES))
    shown = make_card(table, table_id)
    [[_screen, link]] = qr_codes(table.client.get(f"{shown}/a6.pdf").data, tmp_path)
    listed = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "0 of 8 phones joined" in listed
    withdraw = re.search(r'href="(/tables/[^"]+/cards/\d+/withdraw)"', listed).group(1)
    # the link asks first (no script needed); its form withdraws
    asked = table.client.get(withdraw).get_data(as_text=True)
    assert "Withdraw the table card valid until" in asked and f'action="{withdraw}"' in asked
    assert phone(app).client.get(withdraw).status_code == 403  # not a member
    assert table.post(withdraw, {}).status_code == 303
    assert the_card(app).withdrawn_at is not None
    listed = table.client.get(f"/tables/{table_id}?withdrawn=1").get_data(as_text=True)
    assert "Table card withdrawn" in listed and withdraw not in listed
    late = phone(app, lang)
    for refused in (late.client.get(join_path(link)), late.post(join_path(link), {})):
        assert refused.status_code == 403 and words in refused.get_data(as_text=True)
    assert late.client.get(f"/tables/{table_id}").status_code == 403


@pytest.mark.parametrize("lang, words", [
    ("en", r"This table card expired at \S+ 23:00 UTC: ask the table for a new one"),
    ("it", r"Questo cartoncino è scaduto \(\S+ 23:00 UTC\)")])
def test_an_expired_card_grants_nothing(app, table, tmp_path, lang, words):
    table_id = table_of(table, table.new_match("navawhist", NAMES))
    shown = make_card(table, table_id, until="midnight")
    [[_screen, link]] = qr_codes(table.client.get(f"{shown}/a6.pdf").data, tmp_path)
    with app.app_context():
        card = db.session.scalars(db.select(Invitation)).one()
        now = _now()
        card.expires_at = datetime(now.year, now.month, now.day, 23) - timedelta(days=1)
        db.session.commit()
    refused = phone(app, lang).post(join_path(link), {})
    assert refused.status_code == 403
    text = refused.get_data(as_text=True)
    # yesterday's hour comes with its weekday
    assert re.search(words, text), text


def test_a_card_is_made_only_by_a_member_with_sensible_choices(app, table):
    table_id = table_of(table, table.new_match("navawhist", NAMES))
    for form, words in [({"phones": "13"}, "A card lets from 1 to 12 phones join."),
                        ({"phones": "0"}, "A card lets from 1 to 12 phones join."),
                        ({"until": "forever"}, "Choose until when the card is valid.")]:
        refused = table.post(f"/tables/{table_id}/cards", {"until": "6h", "phones": "8", **form})
        assert refused.status_code == 422 and words in refused.get_data(as_text=True)
    stranger = phone(app)
    assert stranger.post(f"/tables/{table_id}/cards", {"until": "6h", "phones": "8"}
                         ).status_code == 403
    shown = make_card(table, table_id, until="morning")
    card = the_card(app)
    assert timedelta(0) < card.expires_at - _now() <= timedelta(hours=24)
    # the page and the PDF of a card are only for the phone that made it
    assert stranger.client.get(shown).status_code == 403
    assert stranger.client.get(f"{shown}/a6.pdf").status_code == 403
    make_card(table, table_id)  # a newer card: the older one is not shown again here
    assert table.client.get(f"{shown}/a6.pdf").status_code == 404


def test_a_card_lands_its_phone_on_the_match_in_play(app, table, tmp_path):
    match_id = table.new_match("navawhist", NAMES)
    table_id = table_of(table, match_id)
    shown = make_card(table, table_id)
    [(_, link)] = qr_codes(table.client.get(f"{shown}/a6.pdf").data, tmp_path)
    joined = phone(app).post(join_path(link), {})
    assert joined.status_code == 303
    assert joined.headers["Location"] == f"/matches/{match_id}?joined=1"
    with app.app_context():  # once the table plays nothing, the card lands on the table
        db.session.get_one(Match, match_id).abandoned = True
        db.session.commit()
    joined = phone(app).post(join_path(link), {})
    assert joined.headers["Location"] == f"/tables/{table_id}?joined=1"
