"""Numbers and times written by Babel in the viewer's language (engine/formats.py, the one
way the app writes a figure or a moment): 27.8 and 27,8, a thousands separator, a short date
and time, an hour with its weekday."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from flask_babel import force_locale

from scorekeeper.engine import formats

from .test_access import table_of
from .test_cavallore_web import add
from .test_history import NAMES
from .test_table_card import make_card

EVENING = datetime(2026, 12, 3, 21, 5, tzinfo=UTC)  # a Thursday
MORNING = datetime(2026, 12, 7, 9, 5, tzinfo=UTC)  # a Monday


@pytest.mark.parametrize(("lang", "written"), [
    ("en", {"one": "27.8", "even": "27.8", "up": "27.9", "round": "28.0", "tiny": "0.0",
            "grouped": "1,234,567.2", "negative": "-3.5", "trimmed": "1,200",
            "percent": "12.5%", "third": "33.3%", "whole": "1,200%",
            "evening": "12/3/26, 9:05\u202fPM", "morning": "12/7/26, 9:05\u202fAM",
            "clock": "21:05", "weekday": "Thu 21:05", "monday": "Mon 09:05",
            "rome": "12/3/26, 10:05\u202fPM"}),
    ("it", {"one": "27,8", "even": "27,8", "up": "27,9", "round": "28,0", "tiny": "0,0",
            "grouped": "1.234.567,2", "negative": "-3,5", "trimmed": "1.200",
            "percent": "12,5%", "third": "33,3%", "whole": "1.200%",
            "evening": "03/12/26, 21:05", "morning": "07/12/26, 09:05",
            "clock": "21:05", "weekday": "gio 21:05", "monday": "lun 09:05",
            "rome": "03/12/26, 22:05"}),
])
def test_each_language_writes_numbers_and_times_its_own_way(app, lang, written):
    assert lang in app.config["LANGUAGES"]
    with app.test_request_context("/", headers={"Accept-Language": lang}):
        said = {
            "one": formats.decimal(27.8), "even": formats.decimal(27.85),
            "up": formats.decimal(27.86), "round": formats.decimal(27.96),
            "tiny": formats.decimal(0.04), "grouped": formats.decimal(1234567.25, grouped=True),
            "negative": formats.decimal(-3.45 - 0.05), "trimmed": formats.decimal(
                Decimal("1200.0"), grouped=True, trim=True),
            "percent": formats.percent(0.125), "third": formats.percent(1 / 3),
            "whole": formats.percent(12.0),
            "evening": formats.moment(EVENING), "morning": formats.moment(MORNING),
            "clock": formats.clock(EVENING), "weekday": formats.clock(EVENING, weekday=True),
            "monday": formats.clock(MORNING, weekday=True),
            "rome": formats.moment(EVENING.astimezone(ZoneInfo("Europe/Rome"))),
        }
    assert said == written


def test_the_language_in_force_decides_and_english_outside_a_request(app):
    with app.test_request_context("/", headers={"Accept-Language": "it"}):
        assert formats.decimal(1234.5, grouped=True) == "1.234,5"
        with force_locale("en"):
            assert formats.decimal(1234.5, grouped=True) == "1,234.5"
    assert formats.decimal(1234.5, grouped=True) == "1,234.5"
    assert formats.clock(EVENING, weekday=True) == "Thu 21:05"


def test_pages_write_times_and_figures_in_the_viewers_language(app, client, table):
    """History times, a table card's hour and Cavallo Re's figures, in both languages."""
    cavallo = table.new_match("cavallore", NAMES[:2])
    for placed in (36, 12, 27):
        assert add(table, cavallo, placed).status_code == 303
    card = make_card(table, table_of(table, table.new_match("navawhist", NAMES)), phones="2")
    client.set_cookie("tz", "Europe/Rome")
    for lang, written in (("en", [r"Win rate</dt><dd>33\.3%", r"\d/\d+/\d\d, \d+:\d\d\u202f[AP]M",
                                  r"Valid until (\w{3} )?\d\d:\d\d, for 2 phones"]),
                          ("it", [r"Percentuale di vittorie</dt><dd>33,3%",
                                  r"\d\d/\d\d/\d\d, \d\d:\d\d",
                                  r"Valido fino a: (\w{3} )?\d\d:\d\d, per 2 telefoni"])):
        client.set_cookie("lang", lang)
        pages = "".join(client.get(url).get_data(as_text=True)
                        for url in (f"/matches/{cavallo}", f"/matches/{cavallo}/history", card))
        for pattern in written:
            assert re.search(pattern, pages), (lang, pattern)
