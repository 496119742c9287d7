"""Results the other side accepts on a phone at 390x844, under the site's CSP: a table's
second phone finds the hand the first saved marked provisional, rejects it with a note, and
the keeper's phone reads the note with the way to correct it; then it is accepted in one
tap and the mark is gone. axe finds nothing serious."""

from __future__ import annotations

import pytest
from flask import Flask
from playwright.sync_api import expect

from scorekeeper.db import db
from scorekeeper.models import TournamentTable

from ..test_tournament_accept import changes, evening, page, save_game
from .conftest import settled, shot
from .test_accessibility import serious

pytestmark = pytest.mark.browser


def test_a_hand_rejected_then_accepted_on_another_phone(app: Flask, phone, live_server):
    _organiser, _tournament_id, keeper, _other = evening(app)
    save_game(keeper, {1: 30, 2: 12, 3: 7})
    other = phone()
    # The second phone opens its table's code (the address its QR code holds) and keeps it.
    other.goto(f"{live_server}{_keep_link(app, keeper.match_id)}")
    other.get_by_role("button", name="Keep this table’s sheet on this phone").click()
    expect(other.locator("#reviews-title")).to_have_text("provisional: 1 hand to accept")
    expect(other.get_by_role("button", name="Accept hand 1")).to_be_visible()
    settled(other)
    assert serious(other) == []
    other.locator("details.reject summary").click()
    other.locator("details.reject select").select_option(index=2)
    other.fill("details.reject input[name=note]", "it was 13")
    shot(other, "accept-reject")
    other.get_by_role("button", name="Reject hand 1").click()
    expect(other.locator("#reviews .rejected")).to_contain_text("rejected hand 1: “it was 13”")
    assert "rejected hand 1" in page(keeper)
    other.get_by_role("button", name="Accept hand 1").click()
    expect(other.locator("#reviews")).to_have_count(0)
    expect(other.locator("#announce")).to_have_text("Hand 1 accepted.")
    assert changes(page(keeper)) == {}
    shot(other, "accept-done")


def _keep_link(app: Flask, match_id: str) -> str:
    """The address of the code that keeps ``match_id``."""
    with app.app_context():
        token = db.session.query(TournamentTable.token).filter_by(match_id=match_id).scalar()
    return f"/tournaments/keep/{token}"
