"""Starting a match and entering hands at 390x844 in Chromium: blank player rows left out,
refusals said once beside what they are about and in view, whose deal of Cavallo Re is next,
Forty-Five's running totals, in English and Italian.

Set SCOREKEEPER_SHOTS to a folder to keep a screenshot of each step looked at.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE, invitation_path, settled, shot, take_pen
from .test_games_browser import TRICKS, create_match

pytestmark = pytest.mark.browser


def in_view(page: Page, selector: str) -> dict:
    """The bounding box of ``selector``, checked to lie wholly inside the phone's screen."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    return box


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_a_card_played_twice_is_refused_in_view_near_the_cards(make_page, live_server, locale):
    page = make_page(locale=locale)
    create_match(page, live_server, "fortyfive", ["Anna", "Bruno", "Carla", "Dario"])
    page.locator(".ff-modes a").nth(2).click()
    expect(page.locator("#ff-leader")).to_be_visible()
    settled(page)
    page.locator(".ff-trump input[value='♠']").check()
    settled(page)
    suits = page.locator(".ff-suits[role=radiogroup]")
    state = page.locator("#ff-state")
    played = [card for trick in TRICKS[:3] for card in trick]
    # Three tricks in, the next card played is the king of hearts of the first trick again.
    for card in [*played, "K♥"]:
        suits.locator(f"input[value='{card[-1]}']").check()
        page.locator(".ff-ranks button", has_text=re.compile(f"^{card[:-1]}$")).click()
        settled(page)
    expect(state.locator("input[name=cards]")).to_have_value(" ".join(played))
    alert = page.locator("#ff-form [role=alert]")
    expect(alert).to_have_count(1)
    twice = "K♥ is played twice" if locale == "en-GB" else "K♥ è giocata due volte"
    expect(alert).to_contain_text(twice)
    to_play = state.locator("#card-prompt").inner_text()
    expect(alert).to_contain_text(re.sub(r".* ([^ ]+):$", r"\1", to_play))  # whose card
    shot(page, f"entry-helper-twice-{locale}")
    box = in_view(page, "#ff-form [role=alert]")
    keys_box = page.locator(".ff-ranks").bounding_box()
    print(f"refusal y={box['y']:.0f}..{box['y'] + box['height']:.0f}, keys y={keys_box['y']:.0f}")
    # Near the cards: less than a screen's third above the rank keys.
    assert keys_box["y"] - (box["y"] + box["height"]) < PHONE["height"] / 3, (box, keys_box)
    # The next card played clears it.
    suits.locator("input[value='♠']").check()
    page.locator(".ff-ranks button", has_text=re.compile("^7$")).click()
    settled(page)
    expect(state.locator("input[name=cards]")).to_have_value(" ".join([*played, "7♠"]))
    expect(page.locator("#ff-form [role=alert]")).to_have_count(0)


def taken_up(make_page, live_server, table, game: str, names: list[str], locale: str) -> Page:
    """A match of ``game`` started over HTTP, taken up at 390x844 by a phone that joins."""
    match_id = table.new_match(game, names)
    page = make_page(locale=locale)
    take_pen(page, live_server + invitation_path(table, match_id))
    expect(page.locator(".entry")).to_be_visible()
    return page


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("javascript", [True, False])
@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_blank_player_rows_do_not_block_the_start(make_page, live_server, locale, javascript):
    page = make_page(locale=locale, javascript=javascript)
    page.goto(f"{live_server}/matches/new?game=navawhist")
    expect(page.locator(".players li")).to_have_count(4)
    page.fill("#players-1", "Bruno")
    page.locator("button[value=start]").click()
    alert = page.locator(".alert, [role=alert]").first
    expect(alert).to_contain_text(
        "Navawhist needs at least 2 players: 1 named." if locale == "en-GB"
        else "Navawhist richiede almeno 2 giocatori; nomi scritti: 1.")
    expect(page.locator(".players li")).to_have_count(4)
    shot(page, f"entry-new-too-few-{locale}-{'js' if javascript else 'nojs'}")
    page.fill("#players-3", "Dario")
    page.locator("button[value=start]").click()
    page.wait_for_url("**/matches/*")
    expect(page.locator(".entry")).to_be_visible()
    expect(page.locator("thead")).to_contain_text("Bruno")
    expect(page.locator("thead")).to_contain_text("Dario")


def test_cavallo_re_opens_with_one_row(make_page, live_server):
    page = make_page()
    page.goto(f"{live_server}/matches/new")
    expect(page.locator(".players li")).to_have_count(4)
    page.locator("nav.games button", has_text="Cavallo Re").click()
    settled(page)
    expect(page.locator("nav.games [aria-current]")).to_have_text("Cavallo Re")
    expect(page.locator(".players li")).to_have_count(1)
    shot(page, "entry-new-cavallore")
    page.fill("#players-0", "Anna")
    page.locator("button[value=start]").click()
    expect(page.locator(".cr-entry")).to_be_visible()


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_quarantotto_one_point_said_once_and_gone_once_fixed(make_page, live_server, table,
                                                              locale):
    page = taken_up(make_page, live_server, table, "quarantotto",
                    ["Anna", "Bruno", "Carla", "Dario"], locale)
    words = "1 point in hand is impossible" if locale == "en-GB" else \
        "1 punto in mano è impossibile"
    page.locator(".closer-pick label").first.click()
    settled(page)
    for seat, value in ((1, "1"), (2, "12"), (3, "30")):
        page.fill(f"#values-{seat}", value)
        page.locator(f"#values-{seat}").dispatch_event("change")
        settled(page)
    said = page.get_by_text(words)
    expect(said).to_have_count(1)
    page.locator("button[value=save]").click()
    settled(page)
    expect(said).to_have_count(1)
    expect(page.locator("#pad-1").get_by_text(words)).to_be_visible()
    in_view(page, "#pad-state-1 .pad-error")
    shot(page, f"entry-quarantotto-one-point-{locale}")
    page.fill("#values-1", "5")
    page.locator("#values-1").dispatch_event("change")
    settled(page)
    expect(page.locator("#pad-value-1")).to_have_text("5")
    expect(said).to_have_count(0)
    page.locator("button[value=save]").click()
    expect(page.locator("#game-1")).to_be_visible()


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_cavallo_re_players_take_turns(make_page, live_server, table, locale):
    page = taken_up(make_page, live_server, table, "cavallore", ["Anna", "Bruno", "Carla"],
                    locale)
    current = page.locator(".cr-who [aria-current=true]")
    expect(current).to_have_text("Anna")
    for name in ("Bruno", "Carla", "Anna"):
        settled(page)
        page.locator(".cr-quick button").first.click()
        expect(page.locator("#notice")).to_be_visible()
        expect(current).to_have_text(name)
        expect(page.locator(".entry h2")).to_contain_text(name)
    # It stands out: its own colours, unlike the others'.
    colours = page.locator(".cr-who .chip").evaluate_all(
        "chips => chips.map(c => getComputedStyle(c).backgroundColor)")
    assert colours[0] != colours[1] and colours[1] == colours[2], colours
    shot(page, f"entry-cavallore-turns-{locale}")
    settled(page)
    page.locator("#notice form[action*=undo] button").click()
    expect(page.locator(".entry h2")).to_contain_text("3")
    expect(current).to_have_text("Carla")  # the deal taken back is hers again


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
@pytest.mark.parametrize("names", [["Anna", "Bruno", "Carla", "Dario"],
                                   ["Anna", "Bruno", "Carla", "Dario", "Elsa"]])
def test_forty_five_sheet_shows_running_totals(make_page, live_server, table, locale, names):
    page = taken_up(make_page, live_server, table, "fortyfive", names, locale)
    for hand in range(2):
        settled(page)
        for seat in (0, 1, hand, 0, 1):
            page.locator(".ff-taps button").nth(seat).click()
        page.locator(".ff-bonus label").first.click()
        expect(page.locator("#ff-preview ul")).to_be_visible()
        settled(page)
        page.locator("button[value=save]").click()
        expect(page.locator(f"#hand-{hand + 1}")).to_be_visible()
    totals = page.locator("#hand-2 .run").all_inner_texts()
    expect(page.locator("#hand-1 .run").first).to_be_visible()
    head = page.locator(".ff-sheet tr.totals td").all_inner_texts()
    assert [int(t) for t in totals] == [int(re.sub(r"\D", "", t)) for t in head]
    no_sideways_scroll(page)
    page.locator("#hand-2").scroll_into_view_if_needed()
    shot(page, f"entry-fortyfive-running-{len(names)}-{locale}")


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_an_invitation_reloaded_is_the_same_and_leads_back_to_the_sheet(
        make_page, live_server, table, locale):
    page = taken_up(make_page, live_server, table, "navawhist", ["Anna", "Bruno", "Carla"],
                    locale)
    sheet = page.url.split("?")[0]
    page.goto(sheet + "/share")
    page.locator("form[action$='/invitations'] button").click()
    page.wait_for_url(re.compile(r"/invitations/\d+$"))
    link = page.locator("[data-invite]").get_attribute("data-invite")
    page.reload()
    assert page.locator("[data-invite]").get_attribute("data-invite") == link
    back = page.locator("main a.button.big")
    expect(back).to_have_text("Back to the sheet" if locale == "en-GB" else "Torna al foglio")
    no_sideways_scroll(page)
    shot(page, f"entry-invitation-{locale}")
    back.click()
    page.wait_for_url(sheet.split("#")[0] + "*")
    expect(page.locator(".entry")).to_be_visible()
