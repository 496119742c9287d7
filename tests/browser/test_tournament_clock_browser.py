"""The round's clock on a table's phone at 390x844, under the site's CSP: the line the
server wrote above the entry, counted down by static/js/clock.js until "Last deal" without a
reload (docs/operating.md, "The round's clock")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from ..test_tournament_clock import Evening
from .conftest import settled, shot

pytestmark = pytest.mark.browser


def test_a_tables_phone_counts_down_to_the_last_deal(app, phone, live_server):
    evening = Evening(app)
    evening.now.at += timedelta(minutes=25, seconds=-2)  # 5 min 2 s left: "last deal" at 5
    page = phone()
    page.goto(live_server + evening.keeps[1].split("?")[0])
    page.get_by_role("button", name="Keep this table’s sheet on this phone").click()
    page.wait_for_url("**/matches/**")
    settled(page)
    line = page.locator("#live .clock")
    expect(line).to_have_text("Round 1: 6 min left")
    line.scroll_into_view_if_needed()
    shot(page, "tournament-clock")
    expect(line).to_have_text("Last deal", timeout=5_000)
    expect(line).to_have_class("clock clock-last")
    shot(page, "tournament-clock-last")
