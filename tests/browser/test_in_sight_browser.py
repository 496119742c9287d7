"""The score always in sight at 390x844, in every game: after every tap, every save and an
undo, every total lies wholly inside the viewport and nothing covers it; what is left to
enter (Save, or the next keys) is in view or below nothing but one-line rows, never below a
keypad; the sheet's head (title, date, screen-awake toggle) takes at most 100 px.

Only the page's own figures are compared: the strip's totals are the sheet's.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE, invitation_path, settled, shot, take_pen
from .test_accessibility import serious
from .test_games_browser import unfold

pytestmark = pytest.mark.browser

HEAD_MAX = 100
SAVE = ".entry button[value=save]"

# Where the totals are, what covers them, where the next thing to enter is, and the keypads
# lying between the bottom of the view and it.
SIGHT = """(target) => {
  const shown = e => e.getClientRects().length > 0;
  const totals = [...document.querySelectorAll('.strip .total')].map(e => {
    const box = e.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {top: box.top, bottom: box.bottom, text: e.textContent.trim(),
            covered: !(hit && e.closest('li').contains(hit))};
  });
  const next = [...document.querySelectorAll(target)].find(shown);
  const top = next ? next.getBoundingClientRect().top : null;
  const keypads = [...document.querySelectorAll('.keypad')].filter(shown).map(k => {
    const box = k.getBoundingClientRect();
    return [Math.round(box.top), Math.round(box.bottom)];
  }).filter(([low, high]) => top !== null && high > innerHeight && low < top);
  const head = document.querySelector('.match-head').getBoundingClientRect().height;
  return {totals, top, keypads, head, height: innerHeight};
}"""


def in_sight(page: Page, columns: int, target: str, when: str) -> None:
    """Assert what the module says, ``when`` naming the moment; ``target`` is a selector of
    what is left to enter."""
    settled(page)
    facts = page.evaluate(SIGHT, target)
    assert facts["height"] == PHONE["height"]
    assert facts["head"] <= HEAD_MAX, f"{when}: the head takes {facts['head']} px"
    strip = facts["totals"]
    assert len(strip) == columns, f"{when}: {len(strip)} totals in the strip, {columns} columns"
    for column, total in enumerate(strip):
        assert total["top"] >= 0 and total["bottom"] <= PHONE["height"], \
            f"{when}: total {column} at y={total['top']:.0f}..{total['bottom']:.0f}"
        assert not total["covered"], f"{when}: total {column} is covered"
    assert facts["top"] is not None, f"{when}: nothing to enter ({target})"
    assert facts["top"] < PHONE["height"] or facts["keypads"] == [], \
        f"{when}: {target} at y={facts['top']:.0f}, below keypads at y={facts['keypads']}"


def numbers(texts: list[str]) -> list[int]:
    """The whole numbers of ``texts``, one each (a star or a tag beside it left out)."""
    return [int(re.search(r"-?\d+", t.replace("\u2212", "-")).group()) for t in texts]


def strip_is_the_sheet(page: Page) -> None:
    """The strip says the totals the sheet says."""
    assert numbers(page.locator(".strip .total").all_inner_texts()) \
        == numbers(page.locator("tr.totals td").all_inner_texts())


def undo(page: Page, columns: int, target: str, check=None) -> None:
    """The Undo of the notice, tapped; the sheet drawn again is checked."""
    settled(page)
    version = page.locator("#live").get_attribute("data-version")
    page.locator("#notice form[action*=undo] button").click()
    expect(page.locator("#live")).not_to_have_attribute("data-version", version)
    in_sight(page, columns, target, "after the undo")
    (check or strip_is_the_sheet)(page)


def start(make_page, live_server, table, game: str, names: list[str], hands=(), **page_options):
    """A match of ``game`` (``hands``: a function playing its first hands over HTTP) taken up
    at 390x844 by a phone that joins its table."""
    match_id = table.new_match(game, names)
    for play in hands:
        play(match_id)
    page = make_page(**page_options)
    take_pen(page, live_server + invitation_path(table, match_id))
    expect(page.locator(".entry")).to_be_visible()
    return page


# Quarantotto and Scala 40: who closed, a card for every other player, Save, Undo ------------

def rummy_evening(page: Page, names: list[str], save_label: str, *, label: str) -> None:
    columns = len(names)
    in_sight(page, columns, SAVE, f"{label}: the entry")
    settled(page)
    page.locator("label.key.pick").nth(1).click()  # the second player closed
    expect(page.locator(".closed-line")).to_have_count(1)
    in_sight(page, columns, SAVE, f"{label}: who closed")
    for seat in range(columns):
        if seat == 1:
            continue
        unfold(page, f".hand-entry:has(#pad-{seat})")
        in_sight(page, columns, SAVE, f"{label}: the line of seat {seat} opened")
        settled(page)
        page.locator(f"#pad-{seat} button[value='{seat}:K']").click()
        expect(page.locator(f"#values-{seat}")).to_have_value("K")
        in_sight(page, columns, SAVE, f"{label}: a card of seat {seat}")
        # Only one keypad is open, the others are one line each.
        expect(page.locator(".cardkeys:visible")).to_have_count(1)
    shot(page, f"in-sight-{label}-entered")
    settled(page)
    page.get_by_role("button", name=save_label).click()
    expect(page.locator("#notice")).to_be_visible()
    in_sight(page, columns, SAVE, f"{label}: saved")
    strip_is_the_sheet(page)
    shot(page, f"in-sight-{label}-saved")
    undo(page, columns, SAVE)


@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.parametrize("game, save_label", [("quarantotto", "Save the game"),
                                               ("scala40", "Save the deal")])
def test_rummy_totals_in_sight(make_page, live_server, table, game, save_label, players):
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"][:players]
    page = start(make_page, live_server, table, game, names)
    rummy_evening(page, names, save_label, label=f"{game}-{players}")


def test_quarantotto_in_italian_and_dark(make_page, live_server, table):
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
    page = start(make_page, live_server, table, "quarantotto", names, locale="it-IT", dark=True)
    expect(page.locator(".entry h2")).to_contain_text("Giro 1")
    rummy_evening(page, names, "Salva il giro", label="quarantotto-it-dark")
    assert serious(page) == []


# Navawhist: the bids, then the tricks of a long hand -----------------------------------------

def navawhist_hands(table, count: int):
    """Plays ``count`` hands: everybody bids 0, the first in bidding order takes every trick."""
    def play(match_id: str) -> None:
        for _ in range(count):
            info = table.sheet(match_id)["next"]["info"]
            players = len(info["bids"])
            table.play_navawhist(match_id, [0] * players,
                                 [info["cards"] if seat == info["order"][0] else 0
                                  for seat in range(players)])
    return play


@pytest.mark.parametrize("players, played, cards", [(4, 6, 7), (10, 4, 5)])
def test_navawhist_totals_in_sight(make_page, live_server, table, players, played, cards):
    names = [f"Player {n}" for n in range(1, players + 1)]
    page = start(make_page, live_server, table, "navawhist", names,
                 hands=[navawhist_hands(table, played)])
    label = f"navawhist-{players}"
    expect(page.locator(".entry h2")).to_contain_text(f"{cards} cards")
    keys = "#bid-form .keypad"
    in_sight(page, players, keys, f"{label}: the bids")
    for n in range(players):
        settled(page)
        page.locator(f"{keys} button:not([disabled])").first.click()
        in_sight(page, players, f"{keys}, {SAVE}", f"{label}: bid {n + 1}")
    expect(page.locator("#tricks")).to_be_visible()
    shot(page, f"in-sight-{label}-tricks")
    order = [int(v) for v in page.locator("#tricks fieldset.seat-keys").evaluate_all(
        "sets => sets.map(s => s.querySelector('input').name.split('-')[1])")]
    for index, seat in enumerate(order):
        if page.locator(f"input[name='values-{seat}']:checked").count():
            continue  # the last one fills itself in
        fold = f"#tricks fieldset.seat-keys:has(input[name='values-{seat}'])"
        unfold(page, fold)
        in_sight(page, players, SAVE, f"{label}: the line of seat {seat} opened")
        taken = cards if index == 0 else 0
        settled(page)
        page.locator(f"label.key:has(input[name='values-{seat}'][value='{taken}'])").click()
        expect(page.locator(f"input[name='values-{seat}'][value='{taken}']")).to_be_checked()
        in_sight(page, players, SAVE, f"{label}: the tricks of seat {seat}")
        assert page.locator("#tricks .keypad:not(.suit-keys):visible").count() <= 1
    shot(page, f"in-sight-{label}-tricks-entered")
    settled(page)
    page.locator(SAVE).click()
    expect(page.locator("#notice")).to_contain_text(f"Hand {played + 1} saved")
    in_sight(page, players, keys, f"{label}: saved")
    strip_is_the_sheet(page)
    shot(page, f"in-sight-{label}-saved")
    undo(page, players, f"{keys}, {SAVE}")


# Forty-Five and Cavallo Re ---------------------------------------------------------------------

def test_fortyfive_totals_in_sight(make_page, live_server, table):
    page = start(make_page, live_server, table, "fortyfive", ["Anna", "Bruno", "Carla", "Dario"])
    in_sight(page, 2, ".ff-taps", "the entry")
    for trick, name in enumerate(["Anna", "Bruno", "Anna", "Carla", "Anna"], start=1):
        settled(page)
        page.locator(".ff-taps").get_by_role("button", name=name).click()
        expect(page.locator(".ff-slots li").nth(trick - 1)).to_contain_text(name)
        in_sight(page, 2, ".ff-taps" if trick < 5 else SAVE, f"trick {trick}")
    settled(page)
    page.locator(".ff-bonus label", has_text="Anna").click()
    expect(page.locator(".ff-bonus input[value='0']")).to_be_checked()
    in_sight(page, 2, SAVE, "the bonus trick")
    settled(page)
    page.locator(SAVE).click()
    expect(page.locator("#notice")).to_be_visible()
    in_sight(page, 2, ".ff-taps", "saved")
    strip_is_the_sheet(page)
    shot(page, "in-sight-fortyfive-saved")
    undo(page, 2, ".ff-taps")


def test_cavallore_totals_in_sight(make_page, live_server, table):
    page = start(make_page, live_server, table, "cavallore", ["Anna", "Bruno", "Carla", "Dario"])
    quick = ".cr-quick"
    in_sight(page, 4, quick, "the entry")
    settled(page)
    page.locator(".cr-who a", has_text="Carla").click()
    expect(page.locator(".entry h2")).to_contain_text("Carla")
    in_sight(page, 4, quick, "whose deal")
    settled(page)
    page.locator(f"{quick} button").nth(2).click()
    expect(page.locator("#notice")).to_be_visible()
    in_sight(page, 4, quick, "saved")
    settled(page)
    page.locator(".cr-win-button").click()
    expect(page.locator("#notice")).to_be_visible()
    in_sight(page, 4, quick, "a win saved")
    strip_is_the_sheet_of_wins(page)
    shot(page, "in-sight-cavallore-saved")
    undo(page, 4, quick, check=strip_is_the_sheet_of_wins)


def strip_is_the_sheet_of_wins(page: Page) -> None:
    """Cavallo Re's strip counts each player's wins, as the statistics do."""
    strip = numbers(page.locator(".strip .total").all_inner_texts())
    wins = {}
    for section in page.locator(".cr-stats").all():
        name = section.locator("h2").inner_text().rsplit(" ", 1)[-1]
        figure = section.locator(".cr-figures div", has_text="Wins").locator("dd")
        wins[name] = int(figure.inner_text())
    names = [t.strip() for t in page.locator(".strip .who").all_inner_texts()]
    assert [wins.get(name, 0) for name in names] == strip
