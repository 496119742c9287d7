"""Nobody in where they don't belong, checked in Chromium at 390x844: hostile player names
are shown as text and never run; no page breaks the Content-Security-Policy; a phone without
the edit right follows the sheet live and has no entry form.

Set SCOREKEEPER_SHOTS to a folder to keep a screenshot of each page looked at.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper.rules import GAMES, fortyfive

from .conftest import invitation_path, settled, shot, take_pen
from .test_games_browser import unfold

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

# Each fits the 30-character name limit; each would set window.__pwned if it ran.
HOSTILE = [
    "<img src=x onerror=__pwned=1>",
    "<script>__pwned=2</script>",
    '"><svg onload=__pwned=3>',
    "'><svg onload=__pwned=5>",
]
HOSTILE_PLACE = "<img src=y onerror=__pwned=4>"
# Elements the payloads would create if they were read as HTML.
INJECTED = "img[src=x], img[src=y], svg[onload], script:not([src])"

# Records every Content-Security-Policy violation of a document in window.__csp.
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => window.__csp.push({
  directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample,
  source: e.sourceFile, line: e.lineNumber}));
"""



def ok(response) -> None:
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]


def two_hands(table, game: str, match_id: str) -> None:
    """Two hands of ``game`` for four players over HTTP, so the sheet and chart show."""
    url = f"/matches/{match_id}"

    def form(**data: Any) -> dict[str, Any]:
        sheet = table.sheet(match_id)
        return {"version": sheet["version"], "number": sheet["next"]["number"], **data}

    for hand in range(2):
        if game == "navawhist":
            table.play_navawhist(match_id, [0, 0, 0, 0], [1, hand, 0, 0])
        elif game == "quarantotto":
            ok(table.post(f"{url}/quarantotto/game", form(
                action="save", closer=hand, **{"values-0": "K 5", "values-1": "10+2",
                                               "values-2": "A 9", "values-3": "4 4",
                                               f"values-{hand}": ""})))
        elif game == "scala40":
            ok(table.post(f"{url}/scala40/deal", form(
                action="save", closer=hand, **{"values-0": "K", "values-1": "7 7",
                                               "values-2": "9", "values-3": "2 2",
                                               f"values-{hand}": ""})))
        elif game == "fortyfive":
            ok(table.post(f"{url}/fortyfive/hand", form(
                mode="winners", winners="0,1,2,0,1", bonus=hand, action="save")))
        else:
            ok(table.post(f"{url}/cavallore/deal", form(placed=36 - 16 * hand, seat=hand)))


EDIT = {"navawhist": "navawhist/1/edit", "quarantotto": "quarantotto/1/edit",
        "scala40": "scala40/1/edit", "fortyfive": "fortyfive/1/edit",
        "cavallore": "cavallore/1/edit"}


# Hostile names -----------------------------------------------------------------------------
# The make_page contexts bypass the CSP on purpose here: the policy would stop an injected
# script anyway, and these tests check that nothing is injected in the first place.

def inert(page: Page, where: str) -> None:
    """Nothing of the payloads ran, and none of them became an element."""
    assert page.evaluate("typeof window.__pwned") == "undefined", where
    assert page.locator(f"main {INJECTED}").count() == 0, where


def shows(page: Page, texts: list[str]) -> None:
    """Each text is shown literally in the page's main part."""
    for text in texts:
        expect(page.locator("main")).to_contain_text(text)


def test_the_check_catches_a_payload_read_as_html(page):
    page.set_content(f"<html lang=en><body><main>{HOSTILE[0]} {HOSTILE[3]}</main></body>")
    page.wait_for_function("() => window.__pwned !== undefined")
    assert page.locator(f"main {INJECTED}").count() == 2


def test_hostile_names_typed_in_are_shown_as_text(page, live_server):
    page.goto(f"{live_server}/matches/new?game=quarantotto")
    # A name typed twice is refused with a message naming it.
    for seat, name in enumerate([HOSTILE[0], HOSTILE[0], "Carla", "Dario"]):
        page.fill(f"#players-{seat}", name)
    page.locator("button[value=start]").click()
    expect(page.locator(".alert").first).to_contain_text(f"{HOSTILE[0]} is in this match twice")
    inert(page, "new match refused")
    for seat, name in enumerate(HOSTILE):
        page.fill(f"#players-{seat}", name)
    for seat, name in enumerate(HOSTILE):
        expect(page.locator(f"#players-{seat}")).to_have_value(name)
    page.fill("#place", HOSTILE_PLACE)
    page.locator("button[value=start]").click()
    expect(page.locator(".entry")).to_be_visible()
    inert(page, "match page")
    shows(page, [*HOSTILE, HOSTILE_PLACE])
    expect(page.locator(".closer-pick")).to_contain_text(HOSTILE[2])
    # Taps come back as htmx fragments naming the players.
    page.locator("label.key.pick", has_text=HOSTILE[2]).click()
    expect(page.locator(".closed-line")).to_contain_text(HOSTILE[2])
    settled(page)
    page.locator("#pad-0 button[value='0:K']").click()
    expect(page.locator("#pad-value-0")).to_have_text("10")
    # A refusal names the player in an alert.
    page.locator("button[value=save]").click()
    expect(page.locator(".alert")).to_have_text(
        f"{HOSTILE[1]}: the points in hand are missing.")
    inert(page, "refusal")
    shot(page, "xss-refusal")
    for seat, total in ((1, "12"), (3, "30")):
        settled(page)
        page.fill(f"#values-{seat}", total)
        page.locator(f"#values-{seat}").press("Tab")
        expect(page.locator(f"#pad-value-{seat}")).to_have_text(total)
    page.locator("button[value=save]").click()
    expect(page.locator("#game-1")).to_be_visible()
    inert(page, "sheet")
    shows(page, HOSTILE)
    page.goto(live_server)
    inert(page, "home")
    shows(page, [", ".join(HOSTILE), HOSTILE_PLACE])
    expect(page.locator(".cards")).to_contain_text("Leading: " + HOSTILE[2])
    shot(page, "xss-home")


@pytest.mark.parametrize("game", list(EDIT))
def test_hostile_names_are_shown_as_text_on_every_page(make_page, live_server, table, game):
    match_id = table.new_match(game, HOSTILE)
    two_hands(table, game, match_id)
    page = make_page()
    # Through the edit link, so that the entry form is shown too.
    take_pen(page, live_server + invitation_path(table, match_id))
    expect(page.locator(".entry")).to_be_visible()
    inert(page, "match page")
    shows(page, HOSTILE)
    expect(page.locator("figure.chart figcaption")).to_contain_text(HOSTILE[0])
    shot(page, f"xss-{game}")
    for where in ("share", "history", EDIT[game]):
        page.goto(f"{live_server}/matches/{match_id}/{where}")
        inert(page, where)
        if where != "share":  # the share page names no player
            shows(page, HOSTILE)
    page.goto(live_server)
    inert(page, "home")
    shows(page, [", ".join(HOSTILE)])
    # The new-match page offers the remembered players as chips; one tap fills a row.
    page.goto(f"{live_server}/matches/new?game={game}")
    inert(page, "new match")
    chips = page.locator(".chips .chip")
    for name in HOSTILE:
        expect(chips.filter(has_text=name)).to_be_visible()
    chips.filter(has_text="script").click()  # fills the first empty row
    expect(page.locator("#players-0")).to_have_value(HOSTILE[1])
    inert(page, "new match after a pick")
    if game == "fortyfive":
        shot(page, "xss-new")


# Content-Security-Policy -------------------------------------------------------------------

@pytest.fixture
def csp_page(browser: Browser) -> Iterator[Callable[[], Page]]:
    """Phone-sized pages under the app's real CSP, recording violations in window.__csp."""
    contexts = []

    def make() -> Page:
        context = browser.new_context(viewport=PHONE, locale="en-GB", device_scale_factor=1)
        context.set_default_timeout(10_000)
        context.add_init_script(LISTEN)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


class Violations:
    """Collects the violations of each page visited, by the name of the step."""

    def __init__(self, page: Page) -> None:
        self.page, self.found = page, {}

    def check(self, step: str) -> None:
        # Violations are reported by a task queued after the offence: let it run first.
        self.page.evaluate("() => new Promise((r) => setTimeout(r, 50))")
        found = self.page.evaluate("window.__csp")
        if found:
            self.found[step] = found

    def go(self, url: str, step: str) -> None:
        response = self.page.goto(url)
        assert response is not None
        assert "script-src 'self'" in response.headers["content-security-policy"], step
        self.check(step)


def test_the_violation_listener_sees_an_inline_style(csp_page, live_server):
    page = csp_page()
    seen = Violations(page)
    seen.go(live_server, "home")
    assert seen.found == {}
    page.evaluate("document.querySelector('main').innerHTML += '<p style=\"color: red\">x</p>'")
    seen.check("injected")
    assert [v["directive"] for v in seen.found["injected"]] == ["style-src-attr"]


def pick(page: Page, name: str) -> None:
    settled(page)
    page.locator("label.key.pick", has_text=name).click()
    expect(page.locator(".closed-line", has_text=name)).to_be_visible()
    settled(page)


def play_ui(page: Page, game: str, hand: int) -> None:
    """One hand of ``game`` for Anna, Bruno and Carla through the page's own taps."""
    if game == "navawhist":
        for _ in range(3):
            bidder = page.locator("input[name=seat]").get_attribute("value")
            page.locator(".keypad button[value='0']").click()
            expect(page.locator("input[name=seat]").or_(page.locator("#tricks"))
                   ).not_to_have_attribute("value", bidder or "")
        for seat, count in enumerate([1, hand - 1, 0]):  # one card, then two
            settled(page)
            choice = f"input[name='values-{seat}'][value='{count}']"
            unfold(page, f"#tricks fieldset.seat-keys:has({choice})")
            page.locator(f"label.key:has({choice})").click()
            expect(page.locator(choice)).to_be_checked()
        settled(page)
        page.locator("button[value=save]").click()
    elif game in ("quarantotto", "scala40"):
        pick(page, "Anna")
        page.locator("#pad-1 button[value='1:K']").click()
        expect(page.locator("#pad-value-1")).to_have_text("10")
        page.locator("#pad-1 button.back").click()
        expect(page.locator("#pad-value-1")).to_have_text("–")
        settled(page)
        page.fill("#values-1", "10+5")
        page.locator("#values-1").press("Tab")
        expect(page.locator("#pad-value-1")).to_have_text("15")
        unfold(page, ".hand-entry:has(#pad-2)")
        if game == "scala40":
            page.locator("#never-2").check()
            expect(page.locator("#pad-2")).to_have_count(0)
        else:
            page.locator("#pad-2 button[value='2:7']").click()
            expect(page.locator("#pad-value-2")).to_have_text("7")
        page.locator("button[value=save]").click()
    elif game == "fortyfive" and hand == 1:
        page.locator(".ff-modes a", has_text="Trick helper").click()
        expect(page.locator("#ff-leader")).to_be_visible()
        settled(page)
        page.locator(".ff-trump input[value='♥']").check()
        suits = page.locator(".ff-suits[role=radiogroup]")
        cards = ["2♣", "K♣", "3♣", "5♥", "3♠", "4♠", "Q♦", "J♦", "10♦", "A♠", "2♥", "8♦",
                 "6♠", "7♠", "K♠"]
        for count, card in enumerate(cards, start=1):
            suits.locator(f"input[value='{card[-1]}']").check()
            page.locator(".ff-ranks button", has_text=re.compile(f"^{card[:-1]}$")).click()
            expect(page.locator("input[name=cards]")).to_have_value(" ".join(cards[:count]))
        page.locator("button[value=save]").click()
    elif game == "fortyfive":
        page.locator(".ff-modes a", has_text="Trick winners").click()
        expect(page.locator(".ff-taps")).to_be_visible()
        settled(page)
        for seat in (0, 1, 2, 0, 0):
            page.locator(".ff-taps button").nth(seat).click()
        expect(page.locator("input[name=winners]")).to_have_value("0,1,2,0,0")
        page.locator(".ff-bonus label", has_text="No trump played").click()
        expect(page.locator("#ff-preview")).to_contain_text("This hand gives:")
        page.locator("button[value=save]").click()
    elif hand == 1:
        page.locator(".cr-win-button").click()
    else:
        page.locator(".cr-who a", has_text="Bruno").click()
        expect(page.locator(".entry h2")).to_contain_text("Bruno")
        settled(page)
        page.fill("#cr-placed", "17")
        page.locator(".cr-typed button").click()
    expect(page.locator(row_id(game, hand))).to_be_visible()


def row_id(game: str, number: int) -> str:
    """The sheet row of hand ``number``."""
    kind = {"quarantotto": "game", "scala40": "deal", "cavallore": "deal"}.get(game, "hand")
    return f"#{kind}-{number}"


@pytest.mark.parametrize("game", list(EDIT))
def test_no_csp_violation_on_any_page_of_a_game(csp_page, live_server, game):
    page = csp_page()
    seen = Violations(page)
    seen.go(f"{live_server}/matches/new?game={game}", "new match")
    for seat, name in enumerate(["Anna", "Bruno", "Carla"]):
        if page.locator(".players li").count() <= seat:  # a solitaire starts with one row
            page.locator("button[value=add]").click()
            expect(page.locator(".players li")).to_have_count(seat + 1)
        page.fill(f"#players-{seat}", name)
    if page.locator(".players li").count() > 3:
        page.locator("button[value='remove:3']").click()  # redrawn by htmx
        expect(page.locator(".players li")).to_have_count(3)
    seen.check("new match redrawn")
    page.locator("button[value=start]").click()
    expect(page.locator(".entry")).to_be_visible()
    seen.check("match page")
    match_url = page.url
    for hand in (1, 2):
        play_ui(page, game, hand)
        seen.check(f"hand {hand} entered")
    if game == "quarantotto":  # a refusal
        page.locator("button[value=save]").click()
        expect(page.locator(".alert")).to_be_visible()
        seen.check("refusal")
    with page.expect_response(lambda r: r.url.endswith("/undo")) as undone:
        page.locator("#actions").get_by_role("button", name="Undo").click()
    assert undone.value.status == 200  # htmx swaps the sheet in place
    settled(page)
    seen.check("undo")
    shot(page, f"csp-{game}")
    match_id = match_url.rsplit("/", 1)[1]
    for where in ("share", "history", EDIT[game]):
        seen.go(f"{match_url}/{where}", where)
    page.get_by_role("button", name="Italiano").click()
    expect(page.get_by_role("button", name="English")).to_be_visible()
    seen.check("language switched")
    seen.go(f"{live_server}/matches/{match_id}", "match page in Italian")
    assert seen.found == {}


def test_no_csp_violation_on_the_other_pages(csp_page, live_server, table):
    match_id = table.new_match("cavallore", ["Anna"])
    page = csp_page()
    seen = Violations(page)
    for step, path in {
        "home": "/", "new match": "/matches/new", "print sheets": "/sheets", "backup": "/backup",
        "follow": f"/matches/{match_id}", "share (follower)": f"/matches/{match_id}/share",
        "not found": "/matches/no-such-match", "bad game": "/matches/new?game=chess",
        "wrong invitation": "/join/not-an-invitation",
    }.items():
        seen.go(live_server + path, step)
    # A finished match: the final ranking, then reopened.
    finished = table.new_match("quarantotto", ["Anna", "Bruno"], length="games", games=1)
    version = table.sheet(finished)["version"]
    ok(table.post(f"/matches/{finished}/quarantotto/game", {
        "version": version, "number": 1, "action": "save", "closer": 0, "values-1": "K"}))
    take_pen(page, live_server + invitation_path(table, finished))
    seen.check("finished match")
    expect(page.locator(".ranking")).to_be_visible()
    page.get_by_role("button", name="Correct a hand").click()
    # Reopened, its games can be corrected again.
    expect(page.locator("#game-1 th a")).to_be_visible()
    settled(page)
    seen.check("reopened")
    # The backup page after an upload: a refused file, then a good one.
    backup = page.request.get(f"{live_server}/backup.json").body()
    for name, content, shown in (("bad.json", b"not json", ".alert"), ("ok.json", backup, ".done")):
        seen.go(f"{live_server}/backup", f"backup before {name}")
        page.set_input_files("#file", files=[
            {"name": name, "mimeType": "application/json", "buffer": content}])
        page.get_by_role("button", name="Add the matches").click()
        expect(page.locator(shown)).to_be_visible()
        seen.check(f"backup after {name}")
    assert seen.found == {}


# Live follow -------------------------------------------------------------------------------

def test_a_follower_sees_a_hand_appear_without_reloading(csp_page, live_server):
    keeper, follower = csp_page(), csp_page()
    names = ["Anna", "Bruno", "Carla", "Dario"]
    keeper.goto(f"{live_server}/matches/new?game=fortyfive")
    for seat, name in enumerate(names):
        keeper.fill(f"#players-{seat}", name)
    keeper.locator("button[value=start]").click()
    expect(keeper.locator(".entry")).to_be_visible()
    follower.goto(keeper.url)
    expect(follower.locator(".viewing")).to_have_text(
        "You are following this sheet: it refreshes by itself.")
    expect(follower.locator(".entry")).to_have_count(0)
    expect(follower.locator("form[action$='/undo']")).to_have_count(0)
    expect(follower.locator("#hand-1")).to_have_count(0)
    follower.evaluate("window.__same_page = true")
    # The keeper enters a hand by tapping the trick winners.
    for seat in (1, 3, 1, 0, 2):
        keeper.locator(".ff-taps button").nth(seat).click()
    expect(keeper.locator("input[name=winners]")).to_have_value("1,3,1,0,2")
    keeper.locator(".ff-bonus label", has_text="Dario").click()
    keeper.locator("button[value=save]").click()
    expect(keeper.locator("#hand-1")).to_be_visible()
    points = fortyfive.score_hand([2, 3], 1, columns=fortyfive.sides(4))
    # The follower's sheet polls every 4 s: the hand shows up without a reload.
    expect(follower.locator("#hand-1")).to_be_visible(timeout=10_000)
    assert follower.evaluate("window.__same_page") is True
    cells = follower.locator("tr.totals td").all_inner_texts()
    assert [int(c.strip().lstrip("★")) for c in cells] == points == [10, 20]
    expect(follower.locator(".entry")).to_have_count(0)
    expect(follower.locator(".viewing")).to_be_visible()
    shot(follower, "follower")
    for who, page in (("keeper", keeper), ("follower", follower)):
        assert page.evaluate("window.__csp") == [], who


def test_every_game_is_covered():
    assert set(EDIT) == set(GAMES)
