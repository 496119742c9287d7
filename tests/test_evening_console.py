"""Running the evening through the web: the new-tournament form keeps what was typed when
the game or the format changes, each table of the round in play says how it stands on the
tournament's page and unplayed entrants never rank above those who played, and the
organiser's home lists its tournaments apart from the table's own matches (TOURNAMENTS.md).
"""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from .test_tournaments_web import Organiser, ok

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
