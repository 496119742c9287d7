"""Every figure with a decimal is written in the viewer's language, through one formatter
(scorekeeper.engine.formats.figure): 26,8 and 5,0 in Italian, 26.8 and 5.0 in English, on
the statistics and ratings, a tournament's standings and their PDF, and the table screen."""

from __future__ import annotations

import html
import random
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from flask import Flask

from scorekeeper.engine import formats
from scorekeeper.engine.printing import number_text, signed_text

from .conftest import pdf_text
from .test_cavallore_web import add, random_deals
from .test_tournaments_web import Organiser, ok, play_navawhist, table_phone

LANGUAGES = {"it": {"Accept-Language": "it"}, "en": {"Accept-Language": "en"}}
# A decimal point or a decimal comma between digits (a comma before three digits groups
# thousands in English).
POINT = re.compile(r"\d\.\d")
COMMA = re.compile(r"\d,\d(?!\d\d)")
NINE = ["Anna", "Bea", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def visible(page: str) -> str:
    """The text a person reads on ``page``: no scripts, styles, tags or attributes."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]*>", " ", page))


@pytest.fixture
def pages(app: Flask) -> dict[str, str]:
    """The addresses of every page that prints decimals: a tournament of nine Navawhist
    entrants at tables of three (thirds of a point), the organiser's table's statistics and
    ratings, and a Cavallo Re log's screen."""
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("navawhist", NINE, rounds=2, size=3, seed=7)
    rng = random.Random(5)
    for link in organiser.seat(tournament_id):
        play_navawhist(table_phone(app, link), rng)
    log = organiser.new_match("cavallore", ["Anna"])
    for placed in random_deals(random.Random(1), 7):
        ok(add(organiser, log, placed))
    return {"client": organiser.client,
            "standings": f"/tournaments/{tournament_id}/standings",
            "tournament": f"/tournaments/{tournament_id}",
            "standings.pdf": f"/tournaments/{tournament_id}/standings.pdf",
            "stats": f"/tables/{organiser.table_id}/stats",
            "screen": f"/matches/{log}/screen"}


@pytest.mark.parametrize("language", ["it", "en"])
def test_every_page_writes_decimals_in_the_viewers_language(pages, language) -> None:
    client = pages.pop("client")
    for name, url in pages.items():
        response = ok(client.get(url, headers=LANGUAGES[language]), 200)
        if name.endswith(".pdf"):
            text = pdf_text(response)[0]
        else:
            text = visible(response.get_data(as_text=True))
        wrong, right = (POINT, COMMA) if language == "it" else (COMMA, POINT)
        assert not wrong.findall(text), (name, [text[max(0, m.start() - 40):m.end() + 40]
                                                for m in wrong.finditer(text)])
        assert right.search(text), (name, text[:2000])


@pytest.mark.parametrize(("value", "english", "italian"), [
    (5, "5", "5"), (-12, "−12", "−12"), (5.0, "5.0", "5,0"), (26.84, "26.8", "26,8"),
    (-0.04, "0.0", "0,0"), (Decimal("-2.5"), "−2.5", "−2,5"),
    (Fraction(9, 4), "2.3", "2,3"), (Fraction(-2, 3), "−0.7", "−0,7"),
    (Fraction(-1, 50), "0.0", "0,0"), (None, "", "")])
def test_one_formatter_writes_every_figure(app, value, english, italian) -> None:
    for language, expected in (("en", english), ("it", italian)):
        with app.test_request_context(headers=LANGUAGES[language]):
            assert formats.figure(value) == expected
            assert number_text(value) == expected


def test_a_gain_keeps_its_plus_sign(app) -> None:
    with app.test_request_context(headers=LANGUAGES["it"]):
        assert (signed_text(3), signed_text(2.5), signed_text(-1), signed_text(0)) == (
            "+3", "+2,5", "−1", "0")
