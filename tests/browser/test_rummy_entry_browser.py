"""Quarantotto and Scala 40 entered at 390x844 in as few taps as the table allows: a tap on
a player's line opens its card keypad without the system keyboard, the Next key and "never
opened" move on to the next player still blank, and a whole hand costs at most one tap a
player plus the cards and Save. Every total checked is the rules engine's
(docs/rules.md#quarantotto, docs/rules.md#scala-40).

Set SCOREKEEPER_SHOTS to a folder to keep a screenshot of each step looked at.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import quarantotto, scala40

from .conftest import shot
from .test_accessibility import serious
from .test_entry_flow import Taps
from .test_games_browser import create_match, totals

pytestmark = pytest.mark.browser

FOCUSED_FIELD = ("() => { const e = document.activeElement;"
                 " return !!e && (e.tagName === 'TEXTAREA' || e.tagName === 'INPUT'"
                 " && ['text', 'search', 'number', 'tel', ''].includes(e.type)); }")


def keys(page: Page, seat: int):
    return page.locator(f"#pad-{seat} .cardkeys")


def play(page: Page, taps: Taps, hands: list[tuple[int, str]]) -> None:
    """Each (seat, cards) in turn on the keypad that is open, then Next (not after the last:
    Save follows); "never" marks the seat as never opened instead. Checks at each step that
    the seat's keys are the ones open, with no text field focused."""
    for index, (seat, cards) in enumerate(hands):
        expect(keys(page, seat)).to_be_visible()
        assert not page.evaluate(FOCUSED_FIELD)
        if cards == "never":
            taps(page.locator(f"#never-{seat}"))
            expect(page.locator(f"#pad-{seat}")).to_have_count(0)
            continue
        for card in cards.split():
            taps(page.locator(f"#pad-{seat} button[value='{seat}:{card}']"))
        expect(page.locator(f"#values-{seat}")).to_have_value(cards.replace("Jolly", "Joker"))
        if index < len(hands) - 1:
            taps(page.locator(f"#pad-{seat} button.next"))


def test_a_tap_on_a_line_opens_its_keys_without_the_keyboard(page, live_server):
    create_match(page, live_server, "quarantotto", ["Anna", "Bruno", "Carla", "Dario"])
    taps = Taps(page)
    taps(page.locator("label.key.pick", has_text="Bruno"))
    expect(page.locator(".closed-line", has_text="Bruno")).to_be_visible()
    expect(keys(page, 0)).to_be_visible()  # the first still blank is open
    expect(keys(page, 2)).to_be_hidden()
    name = page.locator("#hand-name-2")
    expect(name).to_have_attribute("aria-expanded", "false")
    expect(page.get_by_role("button", name="Carla")).to_have_count(1)
    # Where a finger lands on a folded line: on its field, which shows what was entered.
    box = page.locator("#values-2").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(keys(page, 2)).to_be_visible()
    expect(keys(page, 0)).to_be_hidden()
    expect(name).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#hand-name-0")).to_have_attribute("aria-expanded", "false")
    assert not page.evaluate(FOCUSED_FIELD)
    shot(page, "rummy-line-opened")
    # Typing is one tap away: the field of the open line takes the focus.
    page.locator("#values-2").click()
    assert page.evaluate(FOCUSED_FIELD)
    assert serious(page) == []


def test_next_moves_on_to_the_next_line_still_blank_then_to_save(page, live_server):
    create_match(page, live_server, "quarantotto", ["Anna", "Bruno", "Carla", "Dario"])
    taps = Taps(page)
    taps(page.locator("label.key.pick", has_text="Bruno"))
    expect(page.locator(".closed-line", has_text="Bruno")).to_be_visible()
    # Dario first, out of turn: Next then goes round to Anna, the first still blank.
    taps(page.locator("#hand-name-3"))
    taps(page.locator("#pad-3 button[value='3:K']"))
    taps(page.locator("#pad-3 button.next"))
    expect(keys(page, 0)).to_be_visible()
    expect(keys(page, 3)).to_be_hidden()
    assert not page.evaluate(FOCUSED_FIELD)
    taps(page.locator("#pad-0 button[value='0:7']"))
    taps(page.locator("#pad-0 button.next"))
    expect(keys(page, 2)).to_be_visible()
    shot(page, "rummy-next")
    taps(page.locator("#pad-2 button[value='2:2']"))
    # The last one: nothing blank is left, so Save takes the focus.
    taps(page.locator("#pad-2 button.next"))
    expect(page.locator(".cardkeys:visible")).to_have_count(0)
    expect(page.locator("button[value=save]")).to_be_focused()
    taps(page.locator("button[value=save]"))
    expect(page.locator(".entry h2")).to_have_text("Game 2 of 4")
    assert totals(page) == quarantotto.score_game(["7", None, "2", "K"], closer=1)


def test_quarantotto_five_players_taps_per_game(page, live_server):
    """Who closed, each other player's cards with a Next between them, Save: 14 taps for
    this game, at most players + cards + Save (15)."""
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
    create_match(page, live_server, "quarantotto", names)
    taps = Taps(page)
    hands = [(0, "K 7"), (2, "A 5 2"), (3, "Q"), (4, "9 8 3")]
    taps(page.locator("label.key.pick", has_text="Bruno"))
    expect(page.locator(".closed-line", has_text="Bruno")).to_be_visible()
    play(page, taps, hands)
    shot(page, "rummy-quarantotto-5-entered")
    taps(page.locator("button[value=save]"))
    expect(page.locator(".entry h2")).to_have_text("Game 2 of 5")
    entries = ["K 7", None, "A 5 2", "Q", "9 8 3"]
    assert totals(page) == quarantotto.score_game(entries, closer=1)
    cards = sum(len(c.split()) for _seat, c in hands)
    assert taps.count == 14 <= len(names) + cards + 1


def test_scala40_six_players_taps_per_deal_never_opened_moves_on(page, live_server):
    """Who closed, each other player's cards with a Next between them, one tap for a player
    who never opened (which moves on by itself), Save: 13 taps for this deal, at most
    players + cards + Save (14)."""
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
    create_match(page, live_server, "scala40", names)
    taps = Taps(page)
    hands = [(1, "K Q"), (2, "never"), (3, "A"), (4, "7 7 Jolly"), (5, "5")]
    taps(page.locator("label.key.pick", has_text="Anna"))
    expect(page.locator(".closed-line", has_text="Anna")).to_be_visible()
    play(page, taps, hands)
    shot(page, "rummy-scala40-6-entered")
    taps(page.locator("button[value=save]"))
    expect(page.locator(".entry h2")).to_have_text("Deal 2")
    entries = [None, "K Q", None, "A", "7 7 *", "5"]
    assert totals(page) == scala40.score_deal(entries, closer=0, never_opened=[2])
    cards = sum(len(c.split()) for _seat, c in hands if c != "never")
    assert taps.count == 13 <= len(names) + cards + 1


def test_the_next_key_in_italian_and_every_keypad_open_without_javascript(make_page,
                                                                          live_server):
    names = ["Anna", "Bruno", "Carla", "Dario"]
    page = make_page(locale="it-IT")
    create_match(page, live_server, "quarantotto", names)
    Taps(page)(page.locator("label.key.pick", has_text="Bruno"))
    expect(page.locator(".closed-line", has_text="Bruno")).to_be_visible()
    key = page.locator("#pad-0 button.next")
    expect(key).to_have_text("Avanti")
    expect(key).to_have_accessible_name("Giocatore successivo")
    assert key.evaluate("k => k.scrollWidth <= k.clientWidth")  # the word fits its key
    shot(page, "rummy-next-it")
    # Without JavaScript every keypad is open, and Next, which needs it, is not shown.
    plain = make_page(javascript=False)
    create_match(plain, live_server, "quarantotto", names)
    expect(plain.locator(".cardkeys:visible")).to_have_count(len(names))
    expect(plain.locator("button.next:visible")).to_have_count(0)
