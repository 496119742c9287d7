"""A Navawhist evening where people come and go, on two phones at the table: `scorekeeper
serve` opened by a LAN name over HTTPS, the first phone in English and light, the second in
Italian and dark. Elena arrives after hand 4 (she plays from hand 5), Bruno sits out a
hand, Bruno leaves after hand 9, a leave taken back by Undo and put back by Redo; each
phone sees the other's change; a screenshot after every step; then the sheet read back
from the database and compared with what both phones show."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bench.served import Server, served

from .conftest import LAN_NAME, settled, shot, trusting_phone
from .test_games_browser import unfold
from .test_navawhist_browser import create_match

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with served(tmp_path / "evening.db") as running:
        yield running


def sheet_of(page: Page, base: str, match_id: str) -> dict:
    """The match's JSON as the phone's browser fetches it (its resolver knows LAN_NAME)."""
    return page.evaluate("async (url) => (await fetch(url)).json()",
                         f"{base}/matches/{match_id}.json")


def play_hand(page: Page, base: str, match_id: str) -> None:
    """The hand on one phone as the table plays it: every bid on its keys (the first key
    the player may tap), then all the tricks to the first player dealt in, and Save."""
    page.goto(f"{base}/matches/{match_id}")
    before = sheet_of(page, base, match_id)
    info = before["next"]["info"]
    for _seat in info["order"]:
        settled(page)
        page.locator("#bid-form .keypad button:not([disabled])").first.click()
    expect(page.locator("#tricks")).to_be_visible()
    for index, seat in enumerate(info["order"]):
        fold = f"#tricks fieldset.seat-keys:has(input[name='values-{seat}'])"
        unfold(page, fold)
        count = info["cards"] if index == 0 else 0
        page.locator(f"label.key:has(input[name='values-{seat}'][value='{count}'])").click()
    page.locator("button[value=save]").click()
    saved = f"#hand-{before['next']['number']} .pts"
    expect(page.locator(saved).first).to_be_visible()
    settled(page)


def totals(page: Page) -> list[str]:
    return [re.sub(r"[^\d−-]", "", t) for t in page.locator("tr.totals td").all_inner_texts()]


def change(page: Page, base: str, match_id: str, action: str, who: str = "",
           name: str = "") -> None:
    """A change of who plays, made on the players' page."""
    page.goto(f"{base}/matches/{match_id}/players")
    if action == "join":
        page.fill("form.join input[name=name]", name)
        page.locator("form.join button[value=join]").click()
    else:
        person = page.locator("li.person", has=page.locator("strong", has_text=who))
        person.locator(f"button[value={action}]").click()
    page.wait_for_url(f"**/matches/{match_id}**")


def test_a_navawhist_evening_with_a_late_arrival_and_an_early_leaver(browser, server, tmp_path):
    base = f"https://{LAN_NAME}:{server.secure_port}"
    phones = [trusting_phone(browser, server.port, tmp_path / name, locale=locale, dark=dark)
              for name, locale, dark in (("a", "en-GB", False), ("b", "it-IT", True))]
    anna, bruno = (context.pages[0] if context.pages else context.new_page()
                   for context in phones)
    create_match(anna, base)
    match_id = anna.url.split("/matches/")[1].split("?")[0].split("#")[0]
    anna.goto(f"{base}/matches/{match_id}/share")
    anna.get_by_role("button", name="Invite to this table").click()
    invite = re.sub(r"^https?://[^/]+", base,
                    anna.locator("[data-invite]").get_attribute("data-invite"))
    bruno.goto(invite)
    bruno.locator("form[action*='/join/'] button").click()
    bruno.wait_for_url("**/matches/**")
    expect(bruno.locator("#notice")).to_be_visible()  # the phone joined: said once
    shot(bruno, "people-1-second-phone-joined")
    expect(bruno).not_to_have_url(re.compile("joined="))
    bruno.reload()
    expect(bruno.locator("#entry")).to_be_visible()
    expect(bruno.locator("#notice")).to_have_count(0)

    for hand in range(1, 5):
        play_hand(anna if hand % 2 else bruno, base, match_id)
    shot(anna, "people-2-four-hands")

    # Elena arrives: the Italian phone adds her, last; she starts with the lowest total.
    lowest = min(sheet_of(bruno, base, match_id)["totals"])
    bruno.goto(f"{base}/matches/{match_id}/players")
    expect(bruno.locator(".joins-with")).to_contain_text(str(lowest).replace("-", "−"))
    shot(bruno, "people-3-players-page-it-dark")
    change(bruno, base, match_id, "join", name="Elena")
    shot(bruno, "people-4-elena-joined-it-dark")
    # The other phone sees her column within a poll, without a reload.
    expect(anna.locator("#roster-marks")).to_contain_text("Elena joins at hand 5", timeout=15_000)
    expect(anna.locator("tr.totals td")).to_have_count(5)
    shot(anna, "people-5-elena-seen-on-the-other-phone")

    for hand in range(5, 8):
        play_hand(anna if hand % 2 else bruno, base, match_id)
    # Bruno sits out hand 8, then comes back.
    change(anna, base, match_id, "sit_out", who="Bruno")
    shot(anna, "people-6-bruno-sits-out")
    assert 1 not in sheet_of(anna, base, match_id)["next"]["seats"]
    play_hand(bruno, base, match_id)
    change(anna, base, match_id, "back", who="Bruno")
    play_hand(anna, base, match_id)
    shot(anna, "people-7-nine-hands")

    # Bruno leaves after hand 9; a mistaken leave is Undone, then Redone.
    change(anna, base, match_id, "leave", who="Bruno")
    anna.get_by_role("button", name=re.compile("^Undo: Bruno leaves")).first.click()
    redo = anna.get_by_role("button", name=re.compile("^Redo: Bruno leaves")).first
    expect(redo).to_be_visible()
    expect(anna.locator("#roster-marks")).not_to_contain_text("Bruno leaves")
    shot(anna, "people-8-leave-undone")
    redo.click()
    expect(anna.locator("#roster-marks")).to_contain_text("Bruno leaves after hand 9")
    play_hand(bruno, base, match_id)
    shot(anna, "people-9-after-the-leave")
    bruno.goto(f"{base}/matches/{match_id}")
    expect(bruno.locator("#roster-marks")).to_contain_text("Bruno esce dopo la mano 9")
    shot(bruno, "people-10-after-the-leave-it-dark")

    # Read back from the database: the roster as stored, and both phones show its sheet.
    with sqlite3.connect(tmp_path / "evening.db") as connection:
        [(roster,)] = connection.execute("SELECT roster FROM matches WHERE id = ?",
                                         (match_id,)).fetchall()
        hands = connection.execute("SELECT COUNT(*) FROM hands WHERE match_id = ?",
                                   (match_id,)).fetchone()[0]
    assert [(c["kind"], c["after"]) for c in json.loads(roster)] == [
        ("join", 4), ("sit_out", 7), ("back", 8), ("leave", 9)]
    assert hands == 10
    sheet = sheet_of(anna, base, match_id)
    assert [p["state"] for p in sheet["players"]] == [
        "playing", "left", "playing", "playing", "playing"]
    anna.goto(f"{base}/matches/{match_id}")
    assert totals(anna) == totals(bruno)
    shown = {int(t.replace("−", "-")) for t in totals(anna)}
    assert shown == set(sheet["totals"])
