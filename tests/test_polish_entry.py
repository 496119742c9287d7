"""Starting a match and entering hands over HTTP: blank player rows left out, Cavallo Re's
one row and players taking turns, refusals said once beside what they are about (and naming
the side), Forty-Five's running totals, and an invitation a reload shows again."""

from __future__ import annotations

import re

import pytest

from scorekeeper.models import Invitation, Match
from scorekeeper.rules import fortyfive

from .conftest import count
from .test_new_match import names_in

IT = {"Accept-Language": "it"}
HTMX = {"HX-Request": "true"}


def start(table, game: str, rows: list[str], **extra):
    """Post the new-match form of ``game`` with these player rows, as typed."""
    data = {"game": game, "action": "start", **extra}
    data.update({f"players-{i}": name for i, name in enumerate(rows)})
    return table.post("/matches/new", data)


def players(table, match_id: str) -> list[str]:
    return [p["name"] for p in table.sheet(match_id)["players"]]


# New match: blank rows are left out; too few names are said in words.

def test_blank_player_rows_are_left_out(table):
    response = start(table, "navawhist", ["Anna", "", "Carla", ""], first_dealer="2")
    assert response.status_code == 303, response.get_data(as_text=True)[-2000:]
    match_id = response.headers["Location"].rsplit("/", 1)[1]
    assert players(table, match_id) == ["Anna", "Carla"]
    assert table.sheet(match_id)["first_dealer"] == 1  # Carla, marked on the third row
    # The dealer marked on a blank row (the first, as the form starts): the next name deals.
    response = start(table, "scala40", ["", "Bruno", "", "Dario"], first_dealer="0")
    match_id = response.headers["Location"].rsplit("/", 1)[1]
    assert players(table, match_id) == ["Bruno", "Dario"]
    assert table.sheet(match_id)["first_dealer"] == 0


@pytest.mark.parametrize("headers, words", [
    ({}, "Navawhist needs at least 2 players: 1 named."),
    (IT, "Navawhist richiede almeno 2 giocatori; nomi scritti: 1."),
])
def test_too_few_names_are_said_and_the_rows_stay(table, app, headers, words):
    response = table.post("/matches/new", {
        "game": "navawhist", "action": "start", "players-0": "", "players-1": "Anna",
        "players-2": "", "players-3": ""}, headers=headers)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert words in page
    assert "remove the row" not in page and "togli la riga" not in page
    assert names_in(page) == ["", "Anna", "", ""]
    assert count(app, Match) == 0


def test_cavallo_re_opens_with_one_row(table):
    assert names_in(table.client.get("/matches/new?game=cavallore").get_data(as_text=True)) \
        == [""]
    # Switched to from a game's empty rows: one row, and the names typed are kept.
    blank = {"game": "navawhist", **{f"players-{i}": "" for i in range(4)}}
    page = table.post("/matches/new", {**blank, "action": "game:cavallore"})
    assert names_in(page.get_data(as_text=True)) == [""]
    typed = {**blank, "players-0": "Anna", "players-2": "Carla", "action": "game:cavallore"}
    assert names_in(table.post("/matches/new", typed).get_data(as_text=True)) == [
        "Anna", "", "Carla"]
    # The other games keep their rows.
    assert names_in(table.client.get("/matches/new?game=navawhist").get_data(as_text=True)) \
        == ["", "", "", ""]
    back = {"game": "cavallore", "players-0": "", "action": "game:fortyfive"}
    assert names_in(table.post("/matches/new", back).get_data(as_text=True)) == [
        "", "", "", ""]
    response = start(table, "cavallore", ["Anna"])
    assert response.status_code == 303


# Quarantotto: the h=1 refusal once, in the keypad of the player's hand.

def pad_state(page: str, seat: int) -> str:
    """The part of a page that a keypad tap of ``seat`` redraws."""
    return re.search(rf'<div class="pad-state" id="pad-state-{seat}">(.*?)</div>\s*</div>',
                     page, re.S).group(1)


@pytest.mark.parametrize("headers, words", [
    ({}, "Bruno: 1 point in hand is impossible"),
    (IT, "Bruno: 1 punto in mano è impossibile"),
])
def test_quarantotto_says_one_point_once_in_the_players_keypad(table, headers, words):
    match_id = table.new_match("quarantotto", ["Anna", "Bruno", "Carla", "Dario"])
    sheet = table.sheet(match_id)
    url = f"/matches/{match_id}/quarantotto/game"
    data = {"version": sheet["version"], "number": 1, "closer": "0", "values-1": "1",
            "values-2": "12", "values-3": "30", "action": "save"}
    for extra in ({}, HTMX):
        response = table.post(url, data, headers={**headers, **extra})
        assert response.status_code == 422
        page = response.get_data(as_text=True)
        assert page.count(words) == 1, page.count(words)
        assert words in pad_state(page, 1)  # redrawn by the next tap on Bruno's keypad
        assert 'id="entry-error"' in page  # the page brings Bruno's hand into view
    # Fixed: a choice redraws the form without it; the keypad alone says nothing either.
    fixed = {**data, "values-1": "5", "action": "refresh"}
    page = table.post(url, fixed, headers={**headers, **HTMX}).get_data(as_text=True)
    assert words not in page and "impossib" not in page
    pad = table.post(f"/matches/{match_id}/quarantotto/cards",
                     {**fixed, "tap": "1:show"}, headers={**headers, **HTMX})
    assert "impossib" not in pad.get_data(as_text=True)
    assert table.post(url, {**fixed, "action": "save"}, headers=headers).status_code == 303


# Forty-Five: "took no trick" once, naming the side in tricks per side.

@pytest.mark.parametrize("headers, side, player", [
    ({}, "Anna + Carla: took no trick and cannot have the bonus.",
     "Bruno: took no trick and cannot have the bonus."),
    (IT, "Anna + Carla: non ha fatto prese e non può avere il bonus.",
     "Bruno: non ha fatto prese e non può avere il bonus."),
])
def test_forty_five_says_took_no_trick_once_naming_the_side(table, headers, side, player):
    match_id = table.new_match("fortyfive", ["Anna", "Bruno", "Carla", "Dario"])
    url = f"/matches/{match_id}/fortyfive/hand"
    base = {"version": table.sheet(match_id)["version"], "number": 1}
    sides = {**base, "mode": "sides", "side-0": "0", "side-1": "5", "bonus_side": "0"}
    winners = {**base, "mode": "winners", "winners": "0,2,0,2,0", "bonus": "1"}
    for data, words in ((sides, side), (winners, player)):
        for extra in ({}, HTMX):
            page = table.post(url, {**data, "action": "save"},
                              headers={**headers, **extra}).get_data(as_text=True)
            assert page.count(words) == 1, (words, page.count(words))
        # Before the save, the preview of the whole hand says it, once.
        page = table.post(url, {**data, "action": "refresh"},
                          headers={**headers, **HTMX}).get_data(as_text=True)
        assert page.count(words) == 1, (words, page.count(words))
    assert table.sheet(match_id)["hands"] == []


# Cavallo Re: players take turns, and whose deal it is stands out.

def whose_deal(table, match_id: str) -> tuple[str, str, str]:
    """The heading of the entry, the chip marked current and the seat the forms post."""
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    heading = re.search(r'<h2 id="entry-title">(.*?)</h2>', page, re.S).group(1)
    current = re.search(r'<a class="chip[^"]*"[^>]*aria-current="true"[^>]*>(.*?)</a>',
                        page, re.S).group(1)
    seat = re.search(r'name="seat" value="(\d+)"', page).group(1)
    return " ".join(heading.split()), current.strip(), seat


def test_cavallo_re_deals_go_round_the_players(table):
    match_id = table.new_match("cavallore", ["Anna", "Bruno", "Carla"])
    assert whose_deal(table, match_id) == ("Deal 1 · Anna", "Anna", "0")
    expected = [("Deal 2 · Bruno", "Bruno", "1"), ("Deal 3 · Carla", "Carla", "2"),
                ("Deal 4 · Anna", "Anna", "0")]  # after the last player, the first again
    for seat, after in enumerate(expected):
        sheet = table.sheet(match_id)
        response = table.post(f"/matches/{match_id}/cavallore/deal", {
            "version": sheet["version"], "number": sheet["next"]["number"], "seat": seat,
            "placed": 20 + seat})
        assert response.status_code == 303
        assert "seat=" not in response.headers["Location"]
        assert whose_deal(table, match_id) == after
    # Undo: the deal taken back is to be played again, by the same player.
    undo = f"/matches/{match_id}/undo"
    assert table.post(undo, {"version": table.sheet(match_id)["version"]}).status_code == 303
    assert whose_deal(table, match_id) == ("Deal 3 · Carla", "Carla", "2")
    table.post(undo, {"version": table.sheet(match_id)["version"]})
    assert whose_deal(table, match_id) == ("Deal 2 · Bruno", "Bruno", "1")
    # Someone else's turn may be chosen; the deal after it is the next player's.
    assert whose_deal(table, f"{match_id}?seat=2")[:2] == ("Deal 2 · Carla", "Carla")
    sheet = table.sheet(match_id)
    table.post(f"/matches/{match_id}/cavallore/deal", {
        "version": sheet["version"], "number": 2, "seat": 2, "placed": 36})
    assert whose_deal(table, match_id) == ("Deal 3 · Anna", "Anna", "0")


# Forty-Five: the running total under each hand, as on its PDF.

def test_forty_five_sheet_shows_the_running_totals(table):
    match_id = table.new_match("fortyfive", ["Anna", "Bruno", "Carla", "Dario"])
    hands = [([3, 2], 0), ([1, 4], 1), ([5, 0], None)]
    sides = fortyfive.sides(4)
    totals = [0, 0]
    expected = []
    for tricks, bonus in hands:
        sheet = table.sheet(match_id)
        response = table.post(f"/matches/{match_id}/fortyfive/hand", {
            "version": sheet["version"], "number": sheet["next"]["number"], "mode": "sides",
            **{f"side-{c}": t for c, t in enumerate(tricks)},
            "bonus_side": "none" if bonus is None else bonus, "action": "save"})
        assert response.status_code == 303
        points = fortyfive.score_hand(tricks, bonus, columns=sides)
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        expected.append(totals)
    for headers in ({}, IT):
        page = table.client.get(f"/matches/{match_id}", headers=headers).get_data(as_text=True)
        for number, row in enumerate(expected, start=1):
            cells = re.search(rf'<tr id="hand-{number}">(.*?)</tr>', page, re.S).group(1)
            assert [int(t) for t in re.findall(r'<span class="run">(\d+)</span>', cells)] \
                == row
    assert "then the running total" in table.client.get(f"/matches/{match_id}").get_data(
        as_text=True)


# The invitation: made by a POST, shown at an address that a reload only shows again.

def test_an_invitation_is_made_once_and_shown_again_on_reload(table, client, app):
    match_id = table.new_match("navawhist", ["Anna", "Bruno", "Carla"])
    share = client.get(f"/matches/{match_id}/share").get_data(as_text=True)
    table_id = re.search(r'/tables/([^/"]+)/invitations', share).group(1)
    made = table.post(f"/tables/{table_id}/invitations", {"match": match_id})
    assert made.status_code == 303
    address = made.headers["Location"]
    assert re.fullmatch(rf"/tables/{table_id}/invitations/\d+", address)
    pages = [client.get(address) for _reload in range(3)]
    assert count(app, Invitation) == 1
    links = {re.search(r'data-invite="([^"]+)"', p.get_data(as_text=True)).group(1)
             for p in pages}
    assert len(links) == 1 and f"m={match_id}" in links.pop()
    assert pages[0].headers["Cache-Control"] == "no-store"
    page = pages[0].get_data(as_text=True)
    assert f'href="/matches/{match_id}"' in page and "Back to the sheet" in page
    assert "Back to the table" not in page
    italian = client.get(address, headers=IT).get_data(as_text=True)
    assert "Torna al foglio" in italian and "Torna al tavolo" not in italian
    # Made on the table's page: back to the table.
    made = table.post(f"/tables/{table_id}/invitations", {})
    page = client.get(made.headers["Location"]).get_data(as_text=True)
    assert "Back to the table" in page and f'href="/tables/{table_id}"' in page
    assert count(app, Invitation) == 2
    # The first one is no longer shown here (only its hash is stored), nor on another phone.
    assert client.get(address).status_code == 404
    assert app.test_client().get(made.headers["Location"]).status_code in (403, 404)


# Scala 40: a hand its keypad refuses is said once, in the keypad, as in Quarantotto.

@pytest.mark.parametrize("headers, words", [
    ({}, "Bruno: penalty points cannot be negative."),
    (IT, "Bruno: i punti di penalità non possono essere negativi."),
])
def test_scala40_says_a_refused_hand_once_in_the_players_keypad(table, headers, words):
    match_id = table.new_match("scala40", ["Anna", "Bruno", "Carla"])
    data = {"version": table.sheet(match_id)["version"], "number": 1, "closer": "0",
            "values-1": "-4", "values-2": "12", "action": "save"}
    for extra in ({}, HTMX):
        response = table.post(f"/matches/{match_id}/scala40/deal", data,
                              headers={**headers, **extra})
        assert response.status_code == 422
        page = response.get_data(as_text=True)
        assert page.count(words) == 1, page.count(words)
        assert words in pad_state(page, 1)
        assert 'id="entry-error"' in page
