"""The statistics page of a table on a phone (390x844): every table fits the screen or
scrolls where it visibly can, and no heading or figure is cut off.

Set SCOREKEEPER_SHOTS to a folder to keep a screenshot of the page, light, dark and in
Italian, its lists of what the figures mean opened.
"""

from __future__ import annotations

import pytest

from ..test_cavallore_web import add
from ..test_stats_words import evening, partners
from .conftest import PHONE, invitation_path, shot, take_pen
from .test_accessibility import serious

pytestmark = pytest.mark.browser

# Every element of the statistics that is shown and reaches beyond the screen's edges, unless
# inside a box that scrolls sideways and shows it can (a shade that stays at the edge while
# the content moves: a "local" background); and every cell whose words are cut (wider than
# the cell shows).
OVERFLOW = """width => {
    const scrolls = el => {
        for (let box = el.parentElement; box; box = box.parentElement) {
            const style = getComputedStyle(box);
            if (['auto', 'scroll'].includes(style.overflowX)
                && style.backgroundAttachment.includes('local')) return true;
        }
        return false;
    };
    // Words kept for screen readers only (a box of one pixel that hides what overflows it).
    const unseen = el => {
        for (let box = el; box; box = box.parentElement) {
            if (getComputedStyle(box).overflow === 'hidden'
                && box.getBoundingClientRect().width <= 1) return true;
        }
        return false;
    };
    const out = [], cut = [];
    for (const el of document.querySelectorAll('.stats table, .stats table *, .stats ul *')) {
        const box = el.getBoundingClientRect();
        if (box.width && (box.right > width + 0.5 || box.left < -0.5) && !scrolls(el)
            && !unseen(el))
            out.push(`${el.tagName} ${el.textContent.trim().slice(0, 40)} ${box.right}`);
    }
    for (const cell of document.querySelectorAll('.stats th, .stats td')) {
        if (cell.scrollWidth > cell.clientWidth && !unseen(cell))
            cut.push(`${cell.textContent.trim().slice(0, 30)} ${cell.scrollWidth}`);
    }
    const wide = [...document.querySelectorAll('.stats-wrap')]
        .filter(box => box.scrollWidth > box.clientWidth)
        .map(box => `${box.getAttribute('aria-label')} ${box.scrollWidth}>${box.clientWidth}`);
    return {out, cut, wide, page: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize("locale, dark", [("en-GB", False), ("en-GB", True), ("it-IT", False),
                                          ("it-IT", True)])
def test_the_statistics_fit_a_phone(make_page, live_server, table, locale, dark):
    table_id = evening(table)
    match_id = table.new_match("fortyfive", ["Anna", "Bruno"])
    page = make_page(locale=locale, dark=dark)
    take_pen(page, live_server + invitation_path(table, match_id))
    page.goto(f"{live_server}/tables/{table_id}/stats")
    # What the figures mean: a tap opens it, no hover needed; a screen reader reaches it.
    summaries = page.locator(".stats details summary")
    assert summaries.count() == 3  # Forty-Five: figures and rating; Cavallo Re: figures
    for summary in summaries.all():
        summary.click()
    assert page.locator(".stats-help dd").first.is_visible()
    shot(page, f"stats-{locale}{'-dark' if dark else ''}")
    assert serious(page) == []
    found = page.evaluate(OVERFLOW, PHONE["width"])
    assert found["out"] == [], found["out"]
    assert found["cut"] == [], found["cut"]
    assert found["page"] <= PHONE["width"]
    # Four players: every table fits, none needs scrolling.
    assert found["wide"] == [], found["wide"]
    # Each table's headings are there to be read: full words in their titles when shortened.
    for title in page.locator(".stats abbr[title]").all():
        assert len(title.get_attribute("title")) > len(title.inner_text())


# Every element shown under ``selector`` that reaches beyond the screen's edges.
BEYOND = """([selector, width]) => [...document.querySelectorAll(selector)]
    .filter(el => { const box = el.getBoundingClientRect();
                    return box.width && (box.right > width + 0.5 || box.left < -0.5); })
    .map(el => `${el.tagName} ${el.textContent.trim().slice(0, 40)}`)"""


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_a_match_s_statistics_and_chart_fit_a_phone(make_page, live_server, table, locale):
    cavallore = table.new_match("cavallore", ["Anna", "Bruno"])
    for placed, seat in ((36, 0), (12, 0), (29, 1), (36, 1)):
        assert add(table, cavallore, placed, seat=seat).status_code == 303
    partners(table, times=1)
    fortyfive = table.new_match("fortyfive", ["Anna", "Bruno", "Carla", "Dario"])
    page = make_page(locale=locale)
    take_pen(page, live_server + invitation_path(table, cavallore))
    shot(page, f"cavallore-match-{locale}")
    assert page.evaluate(BEYOND, [".cr-stats, .cr-stats *", PHONE["width"]]) == []
    # The sheet's chart: each side named in its legend beside its own line.
    page.goto(f"{live_server}/matches/{fortyfive}")
    for _hand in range(2):
        table.post(f"/matches/{fortyfive}/fortyfive/hand", {
            "version": table.sheet(fortyfive)["version"],
            "number": table.sheet(fortyfive)["next"]["number"], "mode": "winners",
            "action": "save", "winners": "1,1,0,0,0", "bonus": "1"})
    page.reload()
    legend = page.locator("figure.chart .chart-legend li")
    # 15 a hand each, twice: three tricks, or two and the best trump
    assert [t.strip() for t in legend.all_inner_texts()] == ["Anna + Carla 30",
                                                             "Bruno + Dario 30"]
    shot(page, f"fortyfive-chart-{locale}")
    assert page.evaluate(BEYOND, [".chart, .chart *", PHONE["width"]]) == []
