"""Running the evening through the web: the new-tournament form keeps what was typed when
the game or the format changes, each table of the round in play says how it stands on the
tournament's page and unplayed entrants never rank above those who played, and the
organiser's home lists its tournaments apart from the table's own matches (TOURNAMENTS.md).
"""

from __future__ import annotations

import html
import random
import re
from fractions import Fraction

from flask import Flask
from flask.testing import FlaskClient

from .test_tournaments_web import (
    CONFIRM,
    NAVA,
    Organiser,
    draw,
    ok,
    play_rummy,
    table_phone,
)

ENTRANTS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo"]


def value(page: str, name: str) -> str:
    """The value an input named ``name`` holds on ``page``."""
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page).group(0)
    found = re.search(r'value="([^"]*)"', tag)
    return html.unescape(found.group(1)) if found else ""


def textarea(page: str, name: str) -> str:
    return html.unescape(re.search(rf'<textarea[^>]*name="{name}"[^>]*>\r?\n?(.*?)</textarea>',
                                   page, re.S).group(1))


def selected(page: str, name: str) -> str:
    select = re.search(rf'<select[^>]*name="{name}".*?</select>', page, re.S).group(0)
    return html.unescape(re.search(r'<option[^>]*selected[^>]*value="([^"]*)"'
                                   r'|<option[^>]*value="([^"]*)"[^>]*selected', select)
                         .group(0).split('value="')[1].split('"')[0])


def checked(page: str, name: str) -> bool:
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    return tag is not None and "checked" in tag.group(0)


# --- 1. the new-tournament form keeps what was typed -------------------------------------------


def typed(**fields: object) -> dict[str, object]:
    data: dict[str, object] = {
        "game": "navawhist", "name": "Venerdì <da Gino>", "entrants": "\n".join(ENTRANTS),
        "format": "knockout", "rounds": 5, "size": 4, "go_on": 3, "seed": 4242,
        "opt_entry": "zero"}  # Navawhist's hook left unticked
    data.update(fields)
    return data


def test_a_switch_of_game_keeps_the_name_entrants_and_shared_options(client: FlaskClient,
                                                                      app: Flask) -> None:
    organiser = Organiser(client, app)
    url = f"/tables/{organiser.table_id}/tournaments/new"
    page = ok(organiser.post(url, typed(action="game:quarantotto")), 200).get_data(as_text=True)
    assert 'name="game" value="quarantotto"' in page
    assert value(page, "name") == "Venerdì <da Gino>"
    assert textarea(page, "entrants").splitlines() == ENTRANTS
    assert selected(page, "format") == "knockout"
    assert (value(page, "rounds"), value(page, "seed"), value(page, "go_on")) == (
        "5", "4242", "3")
    # The entry rule is an option of both games: kept. Quarantotto's length is not
    # Navawhist's: it starts from a tournament's default (a fixed number of games).
    assert selected(page, "opt_entry") == "zero"
    assert selected(page, "opt_length") == "games"
    assert value(page, "opt_games") == "4"
    assert 'class="alert"' not in page  # a redraw refuses nothing
    # Nothing was created: the form posted as it stands now creates the tournament.
    ok(organiser.post(url, typed(game="quarantotto", opt_length="games", opt_games=4)))


def test_a_switch_of_game_drops_what_the_new_game_does_not_have(client: FlaskClient,
                                                                 app: Flask) -> None:
    organiser = Organiser(client, app)
    url = f"/tables/{organiser.table_id}/tournaments/new"
    scala = typed(game="scala40", opt_end="elimination", opt_threshold="151",
                  opt_reentry="y", pairs="y", opt_entry=None)
    del scala["opt_entry"]
    page = ok(organiser.post(url, {**scala, "action": "game:fortyfive"}),
              200).get_data(as_text=True)
    assert value(page, "name") == "Venerdì <da Gino>"
    assert textarea(page, "entrants").splitlines() == ENTRANTS
    # Forty-Five plays pairs too, so the box stays; its own options start from defaults.
    assert checked(page, "pairs")
    assert selected(page, "opt_target") == "45"
    assert not checked(page, "opt_jink")
    page = ok(organiser.post(url, {**scala, "action": "game:navawhist"}),
              200).get_data(as_text=True)
    assert 'name="pairs"' not in page  # Navawhist has no pairs
    assert checked(page, "opt_hook")  # its default, not the unticked box of another game
    # An option value the new game does not offer falls back to its default.
    page = ok(organiser.post(url, typed(opt_entry="bogus", action="game:fortyfive")),
              200).get_data(as_text=True)
    assert selected(page, "opt_entry") == "lowest"


def test_a_change_of_format_redraws_the_form_with_what_was_typed(client: FlaskClient,
                                                                 app: Flask) -> None:
    organiser = Organiser(client, app)
    url = f"/tables/{organiser.table_id}/tournaments/new"
    page = ok(organiser.post(url, typed(format="danish", action="format")),
              200).get_data(as_text=True)
    assert value(page, "name") == "Venerdì <da Gino>"
    assert textarea(page, "entrants").splitlines() == ENTRANTS
    assert selected(page, "opt_entry") == "zero" and not checked(page, "opt_hook")
    # The knockout's cut is not asked of a Danish evening, but is kept for a change back.
    assert 'type="hidden"' in re.search(r'<input[^>]*name="go_on"[^>]*>', page).group(0)
    page = ok(organiser.post(url, typed(format="knockout", action="format")),
              200).get_data(as_text=True)
    assert 'type="hidden"' not in re.search(r'<input[^>]*name="go_on"[^>]*>', page).group(0)
    assert value(page, "go_on") == "3"
    # A form that is not a switch still creates the tournament.
    tournament = organiser.create("navawhist", ENTRANTS, format="knockout", go_on=3,
                                  action="create")
    assert organiser.state(tournament)["format"] == "knockout"


def test_the_game_buttons_post_the_form(client: FlaskClient, app: Flask) -> None:
    organiser = Organiser(client, app)
    page = ok(client.get(f"/tables/{organiser.table_id}/tournaments/new"),
              200).get_data(as_text=True)
    start = page.index('<form method="post" action="/tables/')
    form = page[start:page.index("</form>", start)]
    for key in ("navawhist", "quarantotto", "scala40", "fortyfive"):
        assert f'name="action" value="game:{key}"' in form
    assert "?game=" not in page


# --- 2. each table's status, and entrants who have not played yet -----------------------------


def statuses(page: str) -> dict[int, str]:
    """Each table's status as a list of the round shows it: table number -> status words
    (the entrants' names before it link to their scorecards)."""
    found = re.findall(r'<li class="table-[a-z-]+"><strong>Table (\d+)</strong>:'
                       r'(?:[^<]|<a href="[^"]*/entrants/\d+">[^<]*</a>)*'
                       r'(?:<a [^>]*>)?<span class="table-status">([^<]*)</span>', page)
    return {int(n): words for n, words in found}


def test_each_table_says_how_it_stands_and_unplayed_entrants_rank_after(
        client: FlaskClient, app: Flask) -> None:
    organiser = Organiser(client, app)
    names = NAVA[:12]
    tournament_id = organiser.create("quarantotto", names, opt_games=2)
    phones = [table_phone(app, link) for link in organiser.seat(tournament_id)]
    rng = random.Random(43)
    play_rummy(phones[0], rng, "quarantotto/game", 1)  # table 1: one game of two
    play_rummy(phones[1], rng, "quarantotto/game")  # table 2: both games
    state = organiser.state(tournament_id)            # table 3: nothing entered yet
    tables = state["rounds"][0]["tables"]
    waiting = set(tables[2]["entrants"])
    expected = {1: "playing", 2: "finished", 3: "not started"}
    page = ok(client.get(f"/tournaments/{tournament_id}"), 200).get_data(as_text=True)
    assert statuses(page) == expected
    live = ok(client.get(f"/tournaments/{tournament_id}/standings"), 200).get_data(as_text=True)
    assert statuses(live) == expected
    # Table 3 has played nothing: its entrants have no points yet, are marked, and come
    # after everyone who played with as many points (here: everyone who played).
    rows = state["standings"]
    assert state["provisional"] is True
    played = [r for r in rows if r["entrant"] not in waiting]
    assert [r["entrant"] for r in rows[-4:]] == [n for n in draw(names, 2026) if n in waiting]
    assert all(Fraction(r["points"]) == 0 and r["waiting"] for r in rows[-4:])
    assert not any(r["waiting"] for r in played)
    assert min(Fraction(r["points"]) for r in played) == 0  # a tie on points, broken by play
    for name in waiting:
        assert re.search(rf'<th scope="row"><a href="[^"]*">{name}</a> <span class="muted waiting">'
                         r"\(not played yet\)</span></th>\s*<td>0\.0</td>", live), name
    # Closing the round as it stands: tables 1 and 3 are closed early, table 3 ties at
    # (4 − 1) / 2 = 1.5 each (TOURNAMENTS.md, "A match closed early") and has played.
    asked = ok(client.get(f"/tournaments/{tournament_id}/rounds/1/close"), 200)
    key = CONFIRM.search(asked.get_data(as_text=True)).group(1)
    ok(organiser.post(f"/tournaments/{tournament_id}/close", {"confirm": key}))
    page = ok(client.get(f"/tournaments/{tournament_id}"), 200).get_data(as_text=True)
    assert statuses(page) == {1: "closed early", 2: "finished", 3: "closed early"}
    state = organiser.state(tournament_id)
    assert not any(r["waiting"] for r in state["standings"])
    assert {Fraction(r["points"]) for r in state["standings"]
            if r["entrant"] in waiting} == {Fraction(3, 2)}


# --- 3. the organiser's home lists its tournaments apart ---------------------------------------


def test_the_organisers_home_lists_tournaments_apart_from_the_tables_matches(
        client: FlaskClient, app: Flask) -> None:
    organiser = Organiser(client, app)
    own = re.search(r'href="/matches/([^"/?#]+)"',
                    ok(client.get("/"), 200).get_data(as_text=True)).group(1)
    before = organiser.create("navawhist", NAVA[:8], name="Giovedì <prova>")
    evening = organiser.create("quarantotto", NAVA[:12], name="Venerdì & amici", opt_games=1)
    organiser.seat(evening)
    seated = [t["match"] for t in organiser.state(evening)["rounds"][0]["tables"]]
    assert len(seated) == 3
    home = ok(client.get("/"), 200).get_data(as_text=True)
    block = home[home.index('class="history tournaments"'):]
    block = block[:block.index("</ul>")]
    items = re.findall(r"<li>(.*?)</li>", block, re.S)
    # The latest first: name (escaped), game, the round seated last, a link to each.
    assert [re.sub(r"<[^>]+>", "", item).split(" · ") for item in items] == [
        [html.escape("Venerdì & amici"), "Quarantotto", "Round 1"],
        [html.escape("Giovedì <prova>"), "Navawhist", "Before round 1"]]
    assert f'href="/tournaments/{evening}"' in items[0]
    assert f'href="/tournaments/{before}"' in items[1]
    assert "<h3" in home and ">Tournaments</h3>" in home
    # The table's own match stays in its list; the tournament's tables are not in it.
    for page in (home, ok(client.get(f"/tables/{organiser.table_id}"), 200)
                 .get_data(as_text=True)):
        assert f"/matches/{own}" in page
        for match_id in seated:
            assert f"/matches/{match_id}" not in page
    # The tournament's page still leads to every table's match.
    page = ok(client.get(f"/tournaments/{evening}"), 200).get_data(as_text=True)
    for match_id in seated:
        assert f"/matches/{match_id}" in page


def test_a_table_with_no_tournament_shows_no_tournaments_list(client: FlaskClient,
                                                              table) -> None:
    table.new_match("navawhist", ["Anna", "Bruno", "Carla"])
    home = ok(client.get("/"), 200).get_data(as_text=True)
    assert ">Tournaments</h3>" not in home
