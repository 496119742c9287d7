"""The history page read in a browser: Italian sentences with the players' names, the bids of
a hand as one entry, values before and after on demand, and local times."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from playwright.sync_api import Browser

from scorekeeper.db import db
from scorekeeper.models import Change

from ..test_navawhist_web import legal_hand
from .conftest import PHONE, shot

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
ZONE = "America/New_York"
# Internal names of stored values that a reader must never see.
RAW = ("bids", "tricks ", "trick_winners", "trick winners", "bonus", "seat", "closer",
       "placed", "corrected(undone)", "None", "UTC")


def play_corrected_and_undone(table) -> str:
    """Three hands of Navawhist; hand 1 corrected; the third hand entered, then undone."""
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 0, 0, 1], [1, 0, 0, 0])
    table.play_navawhist(match_id, [2, 0, 0, 1], [2, 0, 0, 0])
    sheet = table.sheet(match_id)
    data = {"version": sheet["version"], "number": 1, "trump": "♥"}
    data.update({f"bids-{i}": b for i, b in enumerate([1, 0, 0, 1])})
    data.update({f"values-{i}": t for i, t in enumerate([0, 0, 0, 1])})
    assert table.post(f"/matches/{match_id}/navawhist/1/edit", data).status_code == 303
    table.play_navawhist(match_id, [0, 1, 1, 0], [1, 1, 1, 0])
    for _bid_or_tricks in range(5):  # the tricks, then each of the four bids
        sheet = table.sheet(match_id)
        response = table.post(f"/matches/{match_id}/undo", {"version": sheet["version"]})
        assert response.status_code == 303
    return match_id


def test_history_in_italian_with_names_and_local_times(browser: Browser, live_server, table,
                                                       app):
    match_id = play_corrected_and_undone(table)
    context = browser.new_context(viewport=PHONE, locale="it-IT", timezone_id=ZONE,
                                  device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/matches/{match_id}/history")
        # The page reports the browser's zone and is written again in it.
        page.wait_for_selector(f"[data-tz='{ZONE}']")
        shot(page, "history-it")
        summaries = page.locator(".history summary").all_inner_texts()
        text = page.locator("main").inner_text()
        assert "Storia" in text or "Cronologia" in text
        # Every entry is a sentence naming players; the bids of a hand are one entry.
        assert any(s.startswith("Mano 2:") and "Anna dichiara 2" in s and "Dario 1" in s
                   for s in summaries), summaries
        assert any(s.startswith("Mano 1: correzione:") and "Anna 0 prese (prima 1)" in s
                   and "Dario 1 presa (prima 0)" in s for s in summaries), summaries
        assert sum(s.startswith("Mano 3: Anna dichiara") for s in summaries) == 1  # one entry
        assert summaries[0].startswith("Mano 3: inserimento annullato")  # five undos: one entry
        assert sum("annullat" in s for s in summaries) == 2  # the undo, and what it undid
        for word in RAW:
            assert word not in text, word
        # Local times: each entry's time is the stored UTC time in New York.
        with app.app_context():
            latest = db.session.scalars(db.select(Change).where(Change.match_id == match_id)
                                        .order_by(Change.id.desc())).first().created_at
        local = latest.replace(tzinfo=UTC).astimezone(ZoneInfo(ZONE))
        assert local.utcoffset() != datetime.now(UTC).utcoffset()
        assert f"{local:%H:%M}" in summaries[0], summaries[0]
        assert ZONE in text
        # An entry opens on its values before and after.
        entry = page.locator(".history details").filter(has_text="Mano 1: correzione")
        entry.locator("summary").click()
        rows = entry.locator("tbody tr.changed").all_inner_texts()
        assert any(r.startswith("Prese") and "Anna 1" in r and "Anna 0" in r for r in rows), rows
        shot(page, "history-it-open")
    finally:
        context.close()


def test_ten_hands_fit_a_screen(browser: Browser, live_server, table):
    """At most one phone screen (844 px) of history per ten hands."""
    rng = random.Random(2)
    match_id = table.new_match("navawhist", NAMES)
    for index in range(10):
        table.play_navawhist(match_id, *legal_hand(rng, index + 1, 4, index % 4))
    context = browser.new_context(viewport=PHONE, locale="en-GB", timezone_id=ZONE)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/matches/{match_id}/history")
        page.wait_for_selector(f"[data-tz='{ZONE}']")
        shot(page, "history-10-hands")
        assert page.locator(".history > li").count() == 10
        height = page.locator(".history").evaluate("e => e.getBoundingClientRect().height")
        assert height <= PHONE["height"], height
    finally:
        context.close()
