"""The table screen fills a laptop's 1280x720 and a TV's 1920x1080: its type follows the
viewport, so the totals take a good share of the height (at least 14 % each for up to six
players, less for more) and nothing overflows, down or sideways, for 3, 6 and 10 players.

Set SCOREKEEPER_SHOTS to a folder to keep the screenshots looked at.
"""

from __future__ import annotations

import pytest

from ..test_scala40_web import play as play_scala40
from .conftest import shot

pytestmark = pytest.mark.browser

NAMES = ["Maria Grazia", "Bartolomeo", "Carla", "Dario", "Elena", "Franco", "Gina", "Luca",
         "Marta", "Nico"]
SCREENS = [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]
# The least share of the height each total's row takes, by the number of players.
SHARE = {3: 0.2, 6: 0.14, 10: 0.08}
FITS = """() => { const d = document.documentElement;
  return [d.scrollWidth <= d.clientWidth, d.scrollHeight <= d.clientHeight,
          [...document.querySelectorAll('.standings :is(th, td)')].every(
              c => c.scrollWidth <= c.clientWidth),
          document.querySelector('.standings table').getBoundingClientRect().right
              <= document.querySelector('.now').getBoundingClientRect().left]; }"""
WHOLE_WORDS = """cells => cells.every(cell => {
  const text = cell.firstChild, words = /\\S+/g;
  for (let m; (m = words.exec(text.data)); ) {
    const r = document.createRange();
    r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
    if (r.getClientRects().length !== 1) return false;
  }
  return true; })"""


@pytest.mark.parametrize("viewport", SCREENS, ids=["1280x720", "1920x1080"])
def test_the_totals_fill_the_screen(phone, live_server, table, viewport):
    for players, share in SHARE.items():
        match_id = table.new_match("navawhist", NAMES[:players])
        table.play_navawhist(match_id, [0] * players, [1] + [0] * (players - 1))
        page = phone(viewport=viewport, dark=True)
        assert page.goto(f"{live_server}/matches/{match_id}/screen").status == 200
        totals = page.locator(".standings .total")
        assert totals.count() == players
        heights = [totals.nth(i).bounding_box()["height"] for i in range(players)]
        assert min(heights) >= share * viewport["height"], (players, heights)
        assert page.evaluate(FITS) == [True, True, True, True], players
        shot(page, f"screen-{players}-{viewport['width']}")


@pytest.mark.parametrize("viewport", SCREENS, ids=["1280x720", "1920x1080"])
def test_totals_of_three_digits_leave_the_names_whole(phone, live_server, table, viewport):
    match_id = table.new_match("scala40", NAMES[:4])
    assert play_scala40(table, match_id, 0, {1: "A", 2: "Q Q 9", 3: "* * A K 9 8 7 6 5"}
                        ).status_code == 303  # Dario is out at 106
    page = phone(viewport=viewport, locale="it-IT", dark=True)
    assert page.goto(f"{live_server}/matches/{match_id}/screen").status == 200
    totals = page.locator(".standings .total")
    assert min(totals.nth(i).bounding_box()["height"] for i in range(4)) \
        >= 0.14 * viewport["height"]
    assert page.evaluate(FITS) == [True, True, True, True]
    # No name is broken inside a word: each word of it is on one line.
    assert page.locator(".standings tbody th").evaluate_all(WHOLE_WORDS)
    shot(page, f"screen-scala40-106-{viewport['width']}")
