"""The table screen fills a laptop's 1280x720 and a TV's 1920x1080: its type follows the
viewport, so the totals take a good share of the height (at least 14 % each for up to six
players, less for more) and nothing overflows, down or sideways, for 3, 6 and 10 players.

Set SCOREKEEPER_SHOTS to a folder to keep the screenshots looked at.
"""

from __future__ import annotations

import pytest

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
              c => c.scrollWidth <= c.clientWidth)]; }"""


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
        assert page.evaluate(FITS) == [True, True, True], players
        shot(page, f"screen-{players}-{viewport['width']}")
