"""Navawhist's bid keys at 390x844: every key stays where the finger found it, bid after bid.

The taps go to page coordinates measured once, before the first bid, as a player tapping
quickly does: a key that moved would send the tap to a bid chip ("New bid of ...") or to
nothing at all.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import invitation_path, settled, shot, take_pen

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Marco", "Nadia",
         "Pietro"]


def key_centres(page: Page, cards: int) -> dict[int, tuple[float, float]]:
    """The centre of each bid key, in page coordinates of the viewport."""
    centres = {}
    for value in range(cards + 1):
        box = page.locator(f"#bid-form .keypad button[value='{value}']").bounding_box()
        assert box is not None
        centres[value] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    return centres


@pytest.mark.parametrize("players, locale", [(4, "en-GB"), (10, "it-IT")])
def test_every_bid_lands_on_its_key(make_page, live_server, table, players, locale):
    names = NAMES[:players]
    match_id = table.new_match("navawhist", names)
    # Play up to the first hand of the most cards a phone gets early on (4 or 5 cards).
    for cards in range(1, min(players, 5)):
        table.play_navawhist(match_id, [0] * players, [cards] + [0] * (players - 1))
    page = make_page(locale=locale)
    take_pen(page, live_server + invitation_path(table, match_id))
    info = table.sheet(match_id)["next"]["info"]
    cards, order = info["cards"], info["order"]
    page.locator("#bid-form .keypad").scroll_into_view_if_needed()
    shot(page, f"bid-keys-{players}-{locale}-before")
    centres = key_centres(page, cards)
    assert max(y for _x, y in centres.values()) < 844, "the keys are off the screen"
    made: list[int] = []
    for position, seat in enumerate(order):
        dealer = position == len(order) - 1
        value = (position + 1) % (cards + 1)
        if dealer and value == cards - sum(made):
            value = (value + 1) % (cards + 1)
        page.mouse.click(*centres[value])
        settled(page)
        made.append(value)
        bids = table.sheet(match_id)["next"]["info"]["bids"]
        assert bids[seat] == value, f"tap {position + 1} ({names[seat]}) did not bid {value}"
        if not dealer:
            expect(page.locator("#bid-prompt")).not_to_contain_text("New bid of")
            expect(page.locator("#bid-prompt")).not_to_contain_text("Nuova dichiarazione")
            expect(page.locator("input[name=seat]")).to_have_value(str(order[position + 1]))
            assert key_centres(page, cards) == centres, f"the keys moved after bid {position + 1}"
        if position == len(order) - 2:
            # The dealer's turn: the forbidden bid is shown and its key refused.
            forbidden = cards - sum(made)
            if 0 <= forbidden <= cards:
                expect(page.locator(f"#bid-form .keypad button[value='{forbidden}']")) \
                    .to_be_disabled()
                expect(page.locator("#forbidden-note")).to_contain_text(str(forbidden))
            shot(page, f"bid-keys-{players}-{locale}-dealer")
    expect(page.locator("#tricks")).to_be_visible()


def test_the_forbidden_bid_is_refused_at_its_place(make_page, live_server, table):
    match_id = table.new_match("navawhist", NAMES[:4])
    for cards in range(1, 4):
        table.play_navawhist(match_id, [0] * 4, [cards, 0, 0, 0])
    page = make_page()
    take_pen(page, live_server + invitation_path(table, match_id))
    page.locator("#bid-form .keypad").scroll_into_view_if_needed()
    centres = key_centres(page, 4)
    order = table.sheet(match_id)["next"]["info"]["order"]
    for _seat in order[:-1]:
        page.mouse.click(*centres[0])
        settled(page)
    # Bids 0, 0, 0 of 4 cards: the dealer may not bid 4.
    key = page.locator("#bid-form .keypad button[value='4']")
    expect(key).to_be_disabled()
    expect(page.locator("#forbidden-note")).to_contain_text("may not bid 4")
    assert key_centres(page, 4) == centres
    key.evaluate("b => b.disabled = false")
    page.mouse.click(*centres[4])
    settled(page)
    expect(page.locator("#bid-form .alert")).to_contain_text("Dario deals and may not bid 4")
    shot(page, "bid-keys-refused")
    assert key_centres(page, 4) == centres
    assert table.sheet(match_id)["next"]["info"]["bids"][order[-1]] is None
