"""Table cards: a printable card (A6, or four on an A4 sheet) with the table's name, a QR
code to follow its matches on the table's screen and one to join the table; withdrawing a
card. What a card admits is decided in scorekeeper.web.cards; joining with it is
/join/<token>, as with any invitation.
"""

from __future__ import annotations

import secrets

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import force_locale
from flask_babel import gettext as _

from ..db import db
from ..models import Invitation, Table, _now, token_hash
from ..web import pdf
from ..web.access import get_table, membership
from ..web.cards import FORM, expiry, refusal, until_text
from ..web.links import qr_svg, share_url, table_screen_url
from ..web.pages import download_language, viewer_zone

bp = Blueprint("cards", __name__)
CARD_KEY = "card"  # the latest card this phone made: id, token
NUMBER = "<int(max=2147483647):number>"


@bp.post("/tables/<table_id>/cards")
def make(table_id: str):
    """Make a table card, then show it (POST, redirect): only this phone's session keeps
    its token, so a reload shows the same card and makes no other."""
    table = get_table(table_id)
    until = request.form.get("until", FORM.default_until)
    if until not in FORM.until:
        abort(422, _("Choose until when the card is valid."))
    phones = request.form.get("phones", str(FORM.default_phones))
    if not (phones.isdecimal() and len(phones) < 4 and int(phones) in FORM.phones):
        abort(422, _("A card lets from %(low)s to %(high)s phones join.",
                     low=FORM.phones[0], high=FORM.phones[-1]))
    token = secrets.token_urlsafe(16)
    mine = membership(table.id)
    card = Invitation(table_id=table.id, token_hash=token_hash(token),
                      device_id=mine.device_id if mine else None,
                      expires_at=expiry(until, _now(), viewer_zone()), max_uses=int(phones))
    db.session.add(card)
    db.session.commit()
    session[CARD_KEY] = [card.id, token]
    return redirect(url_for("cards.show", table_id=table.id, number=card.id), 303)


def _kept(table: Table, number: int) -> tuple[Invitation, str]:
    """The card this phone just made and its token; 404 on another phone, or once this one
    has made a newer card."""
    kept = session.get(CARD_KEY)
    card = db.session.get(Invitation, number)
    if not kept or kept[0] != number or card is None or card.table_id != table.id:
        abort(404, _("This card is not shown here any more: make a new one."))
    return card, kept[1]


@bp.get(f"/tables/<table_id>/cards/{NUMBER}")
def show(table_id: str, number: int):
    """The card just made: what it admits and its downloads."""
    table = get_table(table_id)
    card, _token = _kept(table, number)
    now, zone = _now(), viewer_zone()
    page = render_template("tables/card.html", table=table, card=card,
                           refused=refusal(card, now, zone),
                           until=until_text(card.expires_at, now, zone))
    return page, {"Cache-Control": "no-store"}


@bp.get(f"/tables/<table_id>/cards/{NUMBER}/<any(a6, a4):size>.pdf")
def card_pdf(table_id: str, number: int, size: str):
    """The card as a PDF: one A6 card, or four on an A4 sheet to cut; 404 once it admits
    no more phones."""
    table = get_table(table_id)
    card, token = _kept(table, number)
    now, zone = _now(), viewer_zone()
    refused = refusal(card, now, zone)
    if refused:
        abort(404, refused)
    screen, link = table_screen_url(table), share_url("tables.join_table", token=token)
    with force_locale(download_language()):
        html = render_template(
            "pdf/card.html", table=table, card=card, size=size, screen=screen, link=link,
            until=until_text(card.expires_at, now, zone),
            screen_qr=qr_svg(screen, _("Follow the match")),
            join_qr=qr_svg(link, _("Join the table")))
    static = current_app.static_folder
    data = pdf.render(html, static, f"{static}/css/card.css")
    return Response(data, mimetype="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="table-card-{size}.pdf"',
        "Cache-Control": "no-store"})


@bp.route(f"/tables/<table_id>/cards/{NUMBER}/withdraw", methods=["GET", "POST"])
def withdraw(table_id: str, number: int):
    """Ask first (GET), then withdraw a table card: from now on it admits no phone."""
    table = get_table(table_id)
    card = db.session.get(Invitation, number)
    if card is None or card.table_id != table.id or card.max_uses is None:
        abort(404, _("There is no such table card."))
    if request.method == "GET":
        return render_template("tables/card_withdraw.html", table=table, card=card,
                               until=until_text(card.expires_at, _now(), viewer_zone()))
    if card.withdrawn_at is None:
        card.withdrawn_at = _now()
        db.session.commit()
    return redirect(url_for("tables.show", table_id=table.id, withdrawn=1, _anchor="cards"), 303)
