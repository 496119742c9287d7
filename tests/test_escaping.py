"""Every family of templates, rendered through the web with hostile text where people type
text (players' names, a table's name, a match's place, a tournament's name, a phone's name):
each page shows that text escaped by Jinja's autoescaping, never as markup, and a template
expression typed as a name stays text (issue 41: templates render through Jinja's ordinary
environment)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from markupsafe import escape

from scorekeeper.web import pdf

from .conftest import Table
from .test_access import invitation, table_of
from .test_tournaments_web import Organiser, ok

PLAYERS = ["<script>alert(1)</script>", '"onmouseover="x', "O'Hara {{7*7}}", "&amp; Co"]
TABLE = """<b>Club</b> 'the' "best" & {{7*7}}"""
PLACE = """<i>Bar</i> "onfocus="y & 'z'"""
TOURNAMENT = """<u>Cup</u> & "c" {{7*7}}"""
PHONE = "<s>Phone</s> & 'p'"
ENTRANTS = ["<em>Eve</em>", '"onclick="e', "D'Arcy {{7*7}}", "&lt;Lu", "Fay", "Gus", "Hal",
            "Ida"]
HOSTILE = [*PLAYERS, TABLE, PLACE, TOURNAMENT, PHONE, *ENTRANTS]
SEATS_0_2 = {"winners": "0,2,0,2,0", "bonus": "0"}  # seats 0 and 2 take every trick


def escaped(text: str) -> str:
    """``text`` as Jinja's autoescaping writes it: &amp; &lt; &gt; &#34; &#39;."""
    return str(escape(text))


def check(page: str, *shown: str, where: str) -> None:
    """``page`` shows each text of ``shown`` escaped, and no hostile text raw."""
    for text in shown:
        assert escaped(text) in page, (where, text)
    for text in HOSTILE:
        if escaped(text) != text:
            assert text not in page, (where, text)
    assert "{{" not in page.replace("{{7*7}}", ""), where  # no template source put out


@pytest.fixture
def printed(monkeypatch) -> list[str]:
    """The HTML of every PDF asked for (the renderer is not started)."""
    html: list[str] = []

    def render(text: str, base_url: str, stylesheet: str) -> bytes:
        html.append(text)
        return b"%PDF-1.7\n%%EOF\n"

    monkeypatch.setattr(pdf, "render", render)
    return html


def get(table: Table, url: str, **kwargs: Any) -> str:
    response = table.client.get(url, **kwargs)
    assert response.status_code == 200, (url, response.status_code)
    return response.get_data(as_text=True)


def test_hostile_text_is_escaped_on_every_page(app: Flask, table: Table, printed):
    # A Navawhist match played at a place, a hand and a bid in; its table renamed, this
    # phone named.
    response = table.post("/matches/new", {
        "game": "navawhist", "first_dealer": 0, "action": "start", "place": PLACE,
        "opt_hook": "y", **{f"players-{i}": name for i, name in enumerate(PLAYERS)},
        "alike": "\n".join(PLAYERS)})
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    match_id = response.headers["Location"].rsplit("/", 1)[1].split("?")[0]
    table.play_navawhist(match_id, [1, 0, 0, 1], [1, 0, 0, 0])
    assert table.bid(match_id, 0).status_code == 303
    table_id = table_of(table, match_id)
    assert table.post(f"/tables/{table_id}/name", {"name": TABLE}).status_code == 303
    assert table.post(f"/tables/{table_id}/phone", {"name": PHONE}).status_code == 303
    # A Forty-Five match of the same players, finished: the statistics have it.
    finished = table.new_match("fortyfive", PLAYERS)
    for _hand in range(2):
        sheet = table.sheet(finished)
        assert table.post(f"/matches/{finished}/fortyfive/hand", {
            "version": sheet["version"], "number": sheet["next"]["number"],
            "mode": "winners", "action": "save", **SEATS_0_2}).status_code == 303
    assert table_of(table, finished) == table_id

    names = PLAYERS
    match = f"/matches/{match_id}"
    check(get(table, match), *names, PLACE, where="sheet")
    check(get(table, f"{match}/live?since=0", headers={"HX-Request": "true"}), *names,
          where="live part, an editor's")
    follower = Table(app.test_client())
    check(get(follower, match), *names, PLACE, where="sheet, a follower's")
    check(get(follower, f"{match}/live?since=0", headers={"HX-Request": "true"}), *names,
          where="live part, a follower's")
    check(get(table, f"/matches/{finished}"), *names, where="finished sheet")
    check(get(table, f"{match}/history"), *names, where="history")
    check(get(table, f"{match}/share"), where="share page")
    check(get(table, f"{match}/screen"), *names, where="table screen of a match")
    check(get(table, f"{match}/navawhist/1/edit"), *names, where="correction")
    check(get(table, f"{match}/delete"), where="delete")
    check(get(table, "/"), TABLE, where="home")
    check(get(table, "/tables"), TABLE, where="tables")
    table_page = get(table, f"/tables/{table_id}")
    check(table_page, TABLE, PHONE, *names, where="table page")
    check(get(table, f"/tables/{table_id}/stats"), *names, where="statistics")
    check(get(table, f"/matches/new?table={table_id}&game=navawhist"), *names,
          where="new match, the table's players")
    screen = re.search(rf"/tables/{table_id}/screen/[A-Za-z0-9_-]+", table_page)
    assert screen, "the table page links its screen"
    check(get(table, screen.group(0)), *names, where="table screen")
    stranger = Table(app.test_client())
    check(get(stranger, invitation(table, match_id)), TABLE, where="invitation")
    card = table.post(f"/tables/{table_id}/cards", {"until": "6h", "phones": "8"})
    assert card.status_code == 303
    check(get(table, card.headers["Location"]), TABLE, where="table card")
    check(get(table, "/certificate"), where="certificate help")
    check(get(table, "/sheets"), where="paper sheets")

    # PDFs: the HTML each is laid out from.
    for url in (f"{match}.pdf", f"/matches/{finished}.pdf",
                f"{card.headers['Location']}/a6.pdf"):
        assert table.client.get(url).status_code == 200, url
    assert len(printed) == 3
    check(printed[0], *names, PLACE, where="match PDF")
    check(printed[1], *names, where="finished match PDF")
    check(printed[2], TABLE, where="table card PDF")

    # A tournament run from another table: its page, seating, standings and their PDFs.
    organiser = Organiser(app.test_client(), app)
    tournament = organiser.create("navawhist", ENTRANTS, name=TOURNAMENT, rounds=1)
    check(get(organiser, f"/tournaments/{tournament}"), TOURNAMENT, *ENTRANTS,
          where="tournament")
    keep = organiser.seat(tournament)
    check(get(organiser, f"/tournaments/{tournament}/rounds/1"), TOURNAMENT, *ENTRANTS,
          where="seating")
    check(get(organiser, f"/tournaments/{tournament}/standings"), TOURNAMENT, *ENTRANTS,
          where="standings")
    kept = get(Table(app.test_client()), keep[0])  # the names of that table's entrants
    check(kept, where="keep a match")
    assert sum(escaped(name) in kept for name in ENTRANTS) == 4
    for url in (f"/tournaments/{tournament}/rounds/1.pdf",
                f"/tournaments/{tournament}/standings.pdf"):
        ok(organiser.client.get(url), 200)
    check(printed[3], TOURNAMENT, *ENTRANTS, where="seating PDF")
    check(printed[4], TOURNAMENT, *ENTRANTS, where="standings PDF")
