"""Numbers and times written as CLDR writes them in each language the app speaks, without
loading CLDR's data into a worker."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import babel.localedata
import pytest
from babel.dates import format_datetime, format_skeleton
from babel.numbers import format_decimal, format_percent
from flask_babel import force_locale

from scorekeeper.engine import formats

from .test_access import table_of
from .test_cavallore_web import add
from .test_history import NAMES
from .test_table_card import make_card

MOMENTS = [datetime(2026, 12, 27, tzinfo=UTC) + timedelta(minutes=37 * step)
           for step in range(9 * 24 * 60 // 37)]


def numbers() -> list[float]:
    """Figures as the pages show them: round, on a half, tiny, in the thousands and more."""
    rng = random.Random(7)
    halves = [whole + tenths / 10 + 0.05 for whole in (0, 1, 27, 1234) for tenths in range(10)]
    return [0.0, 1.0, 28.8, 1e6, 1234567.25, *halves,
            *(rng.uniform(0, 10 ** rng.randint(0, 7)) for _ in range(400))]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_each_language_writes_numbers_and_times_as_cldr_does(app, lang):
    assert lang in app.config["LANGUAGES"]
    with app.test_request_context(), force_locale(lang):
        for value in numbers():
            assert formats.decimal(value) == format_decimal(value, "0.0", locale=lang), value
            assert formats.decimal(value, grouped=True) == format_decimal(
                value, "#,##0.0", locale=lang), value
            share = value / 10 ** len(str(int(value)))
            assert formats.percent(share) == format_percent(share, "#,##0.#%", locale=lang)
        for moment in MOMENTS:
            assert formats.moment(moment) == format_datetime(moment, "short", tzinfo=UTC,
                                                             locale=lang)
            assert formats.clock(moment) == format_skeleton("Hm", moment, locale=lang)
            assert formats.clock(moment, weekday=True) == format_skeleton("EEEHm", moment,
                                                                          locale=lang)


def test_every_language_offered_has_its_writing(app):
    assert set(app.config["LANGUAGES"]) <= set(formats.WRITINGS)


def test_pages_with_times_and_figures_load_no_cldr_data(app, client, table, monkeypatch):
    """History times, a table card's hour and Cavallo Re's figures, in both languages, are
    written without Babel's locale data (3.3 MB a worker for English)."""
    loaded: list[str] = []
    original = babel.localedata.get_locale_data
    monkeypatch.setattr(babel.localedata, "get_locale_data",
                        lambda name: loaded.append(name) or original(name))
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
    assert loaded == []
