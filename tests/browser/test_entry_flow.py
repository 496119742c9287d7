"""The evening at the table at 390x844: after every save the next entry and a notice are in
view, a refusal sits beside its control with the focus, a second phone that may edit
follows the first by itself and keeps what it had typed, and ten players' totals fit.

Everything is asserted from what is in the viewport; figures come from scorekeeper.rules.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import navawhist, quarantotto
from scorekeeper.rules.core import places

from .conftest import PHONE, invitation_path, settled, shot, take_pen
from .test_accessibility import serious
from .test_games_browser import create_match, pick_closer, tap, unfold

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def in_view(locator: Locator) -> bool:
    """True when the element's box lies (at least partly) in the 390x844 viewport."""
    box = locator.bounding_box()
    return box is not None and box["y"] + box["height"] > 0 and box["y"] < PHONE["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1


class Taps:
    """Clicks that count themselves."""

    def __init__(self, page: Page) -> None:
        self.page, self.count = page, 0

    def __call__(self, locator: Locator) -> None:
        settled(self.page)
        locator.click()
        self.count += 1


def saved_in_view(page: Page, notice: str, title: str) -> None:
    notice_box = page.locator("#notice")
    expect(notice_box).to_contain_text(notice)
    expect(page.locator(".entry h2")).to_contain_text(title)
    settled(page)
    assert in_view(notice_box), "the notice is out of view"
    assert in_view(page.locator(".entry h2")), "the next entry is out of view"
    expect(notice_box.get_by_role("button", name="Undo")).to_be_visible()


def test_navawhist_hand_sum_of_bids_notice_and_eight_taps(page, live_server):
    create_match(page, live_server, "navawhist", NAMES)
    taps = Taps(page)
    keys = page.locator("#bid-form .keypad")
    # Hand 1, one card, Anna deals: Bruno, Carla, Dario bid 0.
    for _ in range(3):
        before = page.locator("input[name=seat]").get_attribute("value")
        taps(keys.locator("button[value='0']"))
        expect(page.locator("input[name=seat]")).not_to_have_attribute("value", before)
    total, off = navawhist.bids_against_cards(1, [0, 0, 0])
    expect(page.locator("#bid-sum")).to_have_text(f"Bids {total} of 1: under by {-off}")
    expect(page.locator("#forbidden-note")).to_contain_text("may not bid 1")
    taps(keys.locator("button[value='0']"))
    # Tricks: three players tapped in bidding order, each one's keys open in turn, the fourth
    # fills itself in, then Save: 8 taps.
    for seat in (1, 2, 3):
        taps(page.locator(f"label.key:has(input[name='values-{seat}'][value='{int(seat == 3)}'])"))
    expect(page.locator(".left")).to_contain_text("0")
    page.locator("button[value=save]").scroll_into_view_if_needed()
    taps(page.locator("button[value=save]"))
    saved_in_view(page, "Hand 1 saved.", "Hand 2 of 16")
    assert taps.count <= 8
    shot(page, "flow-navawhist-saved")
    assert serious(page) == []


def test_navawhist_an_earlier_bid_changed_by_tapping_it(page, live_server):
    create_match(page, live_server, "navawhist", NAMES)
    settled(page)
    page.locator("#bid-form .keypad button[value='0']").click()  # Bruno bids 0
    expect(page.locator("input[name=seat]")).to_have_value("2")
    settled(page)
    page.locator("#bid-form .keypad button[value='1']").click()  # Carla bids 1
    expect(page.locator("#bid-sum")).to_contain_text("Bids 1 of 1: even")
    settled(page)
    page.locator(".bids button.bid-change", has_text="0").click()  # Bruno's bid, tapped
    expect(page.locator("#bid-prompt")).to_have_text("New bid of Bruno:")
    settled(page)
    page.locator("#bid-form .keypad button[value='1']").click()
    expect(page.locator("#bid-sum")).to_contain_text("Bids 2 of 1: over by 1")
    # Dario is asked next, as before the change.
    expect(page.locator("#bid-prompt")).to_have_text("Dario bids:")
    assert serious(page) == []


def test_quarantotto_refused_save_beside_its_control_then_saved(page, live_server):
    create_match(page, live_server, "quarantotto", NAMES)
    taps = Taps(page)
    tap(page, 0, "K")
    tap(page, 2, "7")
    page.locator("button[value=save]").click()
    error = page.locator("#entry-error")
    expect(error).to_contain_text("Tap who closed")
    settled(page)
    assert in_view(error)
    assert page.evaluate("document.activeElement && document.activeElement.id") == "entry-error"
    assert error.get_attribute("role") == "alert"
    # Beside the choice it is about, and nothing typed was lost.
    expect(page.locator(".closer-pick #entry-error")).to_have_count(1)
    expect(page.locator("#values-0")).to_have_value("K")
    expect(page.locator("#values-2")).to_have_value("7")
    shot(page, "flow-quarantotto-refused")
    assert serious(page) == []
    # A typical game: who closed, one card for each other player (one keypad is open at a
    # time: the line of each player after the first is opened by a tap), Save: 7 taps (8
    # allowed).
    taps.count = 0
    page.locator("#values-0").fill("")
    page.locator("#values-2").fill("")
    taps(page.locator("label.key.pick", has_text="Bruno"))
    expect(page.locator(".closed-line", has_text="Bruno")).to_be_visible()
    for seat, key in ((0, "K"), (2, "7"), (3, "2")):
        taps.count += unfold(page, f".hand-entry:has(#pad-{seat})")
        taps(page.locator(f"#pad-{seat} button[value='{seat}:{key}']"))
        expect(page.locator(f"#values-{seat}")).to_have_value(key)
    taps(page.locator("button[value=save]"))
    saved_in_view(page, "Game 1 saved.", "Game 2 of 4")
    assert taps.count <= 8
    # The notice stays until the next action.
    tap(page, 0, "A")
    expect(page.locator("#notice")).to_have_count(0)
    expect(page.locator("#game-1 td").nth(0)).to_contain_text(
        str(quarantotto.score_game(["K", None, "7", "2"], closer=1)[0]))
    assert serious(page) == []


def test_quarantotto_zero_points_without_a_closer_warned_before_saving(page, live_server):
    create_match(page, live_server, "quarantotto", NAMES[:3])
    settled(page)
    page.locator("label.key.pick", has_text="Nobody").click()
    expect(page.locator("input[name=closer][value=stock]")).to_be_checked()
    settled(page)
    page.fill("#values-0", "0")
    page.locator("#values-0").press("Tab")
    warning = quarantotto.entry_warning("0", seat=0, nobody_closed=True)
    assert warning is not None
    expect(page.locator("#pad-0 .pad-warning")).to_have_text(warning.render(
        player_name=lambda seat: NAMES[seat]))
    expect(page.locator("#pad-0 .pad-warning")).to_contain_text("though nobody closed")
    tap(page, 1, "K")
    expect(page.locator("#pad-1 .pad-warning")).to_have_count(0)


def test_impossible_points_marked_on_the_keypad(page, live_server):
    create_match(page, live_server, "quarantotto", NAMES[:3])
    settled(page)
    page.fill("#values-1", "1")
    page.locator("#values-1").press("Tab")
    expect(page.locator("#pad-value-1")).to_have_text("?")
    expect(page.locator("#pad-1 .pad-error")).to_contain_text("impossible")


def test_forty_five_winners_in_seven_taps_and_cavallo_re_in_one(page, live_server):
    create_match(page, live_server, "fortyfive", NAMES)
    taps = Taps(page)
    for seat in (1, 2, 1, 3, 1):
        taps(page.locator(".ff-taps button").nth(seat))
    taps(page.locator(".ff-bonus label.key", has_text="Bruno"))
    taps(page.locator("button[value=save]"))
    saved_in_view(page, "Hand 1 saved.", "Hand 2")
    assert taps.count <= 7
    create_match(page, live_server, "cavallore", ["Anna"])
    taps.count = 0
    taps(page.locator(".cr-win-button"))
    saved_in_view(page, "Deal 1 saved.", "Deal 2")
    assert taps.count == 1


def test_forty_five_per_side_the_last_count_fills_itself_in(page, live_server):
    create_match(page, live_server, "fortyfive", NAMES)
    page.locator(".ff-modes a", has_text="Tricks per side").click()
    taps = Taps(page)
    taps(page.locator("label.key:has(input[name='side-0'][value='3'])"))
    expect(page.locator("input[name='side-1'][value='2']")).to_be_checked()
    taps(page.locator(".ff-bonus label.key", has_text="Bruno + Dario"))
    expect(page.locator("#ff-preview")).to_contain_text("+15")
    shot(page, "fortyfive-sides-filled")
    taps(page.locator("button[value=save]"))
    saved_in_view(page, "Hand 1 saved.", "Hand 2")
    assert taps.count <= 3


def test_scala40_refused_deal_error_at_the_closer_without_javascript(make_page, live_server):
    page = make_page(javascript=False)
    create_match(page, live_server, "scala40", NAMES[:3])
    page.fill("#values-1", "K")
    page.locator("button[value=save]").click()
    error = page.locator("#entry-error")
    expect(error).to_contain_text("Tap who closed")
    assert in_view(error)
    expect(page.locator("#values-1")).to_have_value("K")
    page.locator("label.key.pick", has_text="Anna").click()
    page.locator(".closer-pick button[value=refresh]").click()
    page.fill("#values-2", "7")
    page.locator("button[value=save]").click()
    assert page.url.endswith("#turn")
    saved_in_view(page, "Deal 1 saved.", "Deal 2")


def test_a_second_phone_follows_and_keeps_what_it_typed(make_page, live_server):
    first = make_page()
    create_match(first, live_server, "quarantotto", NAMES)
    match_url = first.url.split("#")[0].split("?")[0]
    first.goto(match_url + "/share")
    first.get_by_role("button", name="Invite to this table").click()
    invitation = first.locator("[data-invite]").get_attribute("data-invite")
    second = make_page(dark=True, locale="it-IT")
    take_pen(second, invitation)
    expect(second.locator(".entry h2")).to_be_visible()
    # The first phone saves game 1; the second shows it by itself.
    first.goto(match_url)
    pick_closer(first, "Anna")
    for seat in (1, 2, 3):
        tap(first, seat, "K")
    first.locator("button[value=save]").click()
    saved_in_view(first, "Game 1 saved.", "Game 2 of 4")
    expect(second.locator("#notice")).to_contain_text("1", timeout=12_000)
    expect(second.locator(".entry h2")).to_contain_text("2")
    shot(second, "flow-second-phone-refreshed")
    # The second phone taps game 2; the first corrects game 1 meanwhile: the second's
    # taps still apply to game 2 and stay, through the refresh or a stale Save.
    tap(second, 0, "Q")
    tap(second, 0, "5")
    expect(second.locator("#values-0")).to_have_value("Q 5")
    first.goto(match_url + "/quarantotto/1/edit")
    first.fill("#values-1", "20")
    first.locator("button[value=save]").click()
    expect(first.locator(".entry h2")).to_contain_text("Game 2 of 4")
    settled(second)
    second.locator("button[value=save]").click()
    expect(second.locator("#notice")).to_contain_text(re.compile(r"1"))
    expect(second.locator("#values-0")).to_have_value("Q 5")
    expect(second.locator(".entry h2")).to_contain_text("2")
    shot(second, "flow-second-phone-conflict")


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_ten_players_every_total_in_view(make_page, live_server, table, dark):
    names = [f"Player {n}" for n in range(1, 11)]
    match_id = table.new_match("navawhist", names)
    bids = [0] * 10
    tricks = [1] + [0] * 9
    table.play_navawhist(match_id, bids, tricks)
    page = make_page(dark=dark)
    take_pen(page, live_server + invitation_path(table, match_id))
    strip = page.locator(".strip li")
    expect(strip).to_have_count(10)
    sheet = table.sheet(match_id)
    for column in range(10):
        cell = strip.nth(column)
        assert in_view(cell), f"total {column} is out of view"
        expect(cell.locator(".total")).to_have_text(str(sheet["totals"][column]))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    dealer = sheet["next"]["dealer"]
    expect(strip.nth(dealer)).to_have_class(re.compile("dealt"))
    leaders = [c for c, place in enumerate(places(sheet["totals"])) if place == 1]
    assert leaders == list(range(1, 10))  # the dealer took the trick she bid 0 for
    for column in leaders:
        expect(strip.nth(column)).to_have_class(re.compile("leader"))
    shot(page, "flow-ten-players")
    assert serious(page) == []


def test_scala40_points_to_go_and_why_the_ranking(make_page, live_server, table):
    match_id = table.new_match("scala40", NAMES[:3])
    sheet = table.sheet(match_id)
    response = table.post(f"/matches/{match_id}/scala40/deal", {
        "version": sheet["version"], "number": 1, "action": "save", "closer": 0,
        "values-1": "60", "values-2": "110"})
    assert response.status_code == 303
    page = make_page()
    take_pen(page, live_server + invitation_path(table, match_id))
    expect(page.locator("tr.totals td").nth(1)).to_contain_text("41 to 101")
    sheet = table.sheet(match_id)
    response = table.post(f"/matches/{match_id}/scala40/deal", {
        "version": sheet["version"], "number": 2, "action": "save", "closer": 0,
        "values-1": "50"})
    assert response.status_code == 303
    page.reload()
    ranking = page.locator(".ranking li")
    expect(ranking.nth(1)).to_contain_text("out in deal 2")
    expect(ranking.nth(2)).to_contain_text("out in deal 1")
    shot(page, "flow-scala40-ranking")
    assert serious(page) == []


def test_language_switch_and_the_pen_handed_over_keep_the_hand_entered(page, live_server):
    create_match(page, live_server, "navawhist", NAMES)
    for _ in range(4):
        settled(page)
        before = page.locator("input[name=seat]").get_attribute("value")
        page.locator("#bid-form .keypad button[value='0']").click()
        expect(page.locator("input[name=seat]").or_(page.locator("#tricks"))).not_to_have_attribute(
            "value", before or "")
    settled(page)
    page.locator("label.key:has(input[name='values-1'][value='1'])").click()
    # The tricks panel redraws itself after each tap: the next tap waits for it, as a
    # finger does (a tap made while it is on its way is lost).
    settled(page)
    page.locator("label.key.suit:has(input[value='♥'])").click()
    expect(page.locator("input[name=trump][value='♥']")).to_be_checked()
    expect(page.locator(".left")).to_contain_text("0")
    settled(page)
    page.get_by_role("button", name="Italiano").click()
    expect(page.locator(".entry h2")).to_contain_text("Mano 1 di 16")
    expect(page.locator("input[name='values-1'][value='1']")).to_be_checked()
    expect(page.locator("input[name=trump][value='♥']")).to_be_checked()
    # The tricks left follow what was put back (the server redraws the panel).
    expect(page.locator(".left")).to_contain_text("0")
    # Showing the Share page to hand the pen over, then back: still there.
    match_url = page.url.split("#")[0].split("?")[0]
    page.goto(match_url + "/share")
    page.go_back()
    expect(page.locator("input[name='values-1'][value='1']")).to_be_checked()
    create_match(page, live_server, "quarantotto", NAMES)
    tap(page, 1, "K")
    tap(page, 1, "7")
    expect(page.locator("#values-1")).to_have_value("K 7")
    settled(page)
    page.get_by_role("button", name="English").click()
    expect(page.locator(".entry h2")).to_contain_text("Game 1 of 4")
    expect(page.locator("#values-1")).to_have_value("K 7")
    expect(page.locator("#pad-value-1")).to_have_text(str(quarantotto.entry_points("K 7")))
