"""A correction looks like entry (issue 45): each past hand's row offers "Correct hand 3", the
correction page of each game has the entry's keys, prefilled, in the entry's order, and a
tap another phone overtook says what was not saved and why."""

from __future__ import annotations

import re

import pytest

from .test_fortyfive_web import FortyFive
from .test_quarantotto_web import play as play_quarantotto

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
ITALIAN = {"Accept-Language": "it"}


def played(table, game: str) -> str:
    """A match of ``game`` with one hand played, and the endpoint of its corrections."""
    match_id = table.new_match(game, NAMES[:2] if game == "cavallore" else NAMES)
    sheet = table.sheet(match_id)
    if game == "navawhist":
        table.play_navawhist(match_id, [1, 0, 0, 1], [1, 0, 0, 0])
    elif game == "quarantotto":
        assert play_quarantotto(table, match_id, 0, [None, 20, 15, 9]).status_code == 303
    elif game == "scala40":
        assert table.post(f"/matches/{match_id}/scala40/deal", {
            "version": sheet["version"], "number": 1, "closer": 0, "action": "save",
            "values-1": 20, "values-2": 15, "values-3": 9}).status_code == 303
    elif game == "fortyfive":
        assert FortyFive(table, match_id).tap_winners([0, 1, 2, 0, 3], bonus=1)\
            .status_code == 303
    else:
        assert table.post(f"/matches/{match_id}/cavallore/deal", {
            "version": sheet["version"], "number": 1, "placed": 30, "seat": 0}).status_code == 303
    return match_id


ROW_WORD = {"navawhist": ("hand", "la mano"), "fortyfive": ("hand", "la mano"),
            "quarantotto": ("game", "il giro"), "scala40": ("deal", "la smazzata"),
            "cavallore": ("deal", "la smazzata")}


@pytest.mark.parametrize("game", list(ROW_WORD))
def test_each_row_offers_a_named_correct_control(table, game):
    match_id = played(table, game)
    english, italian = ROW_WORD[game]
    for headers, words in (({}, f"Correct {english} 1"), (ITALIAN, f"Correggi {italian} 1")):
        page = table.client.get(f"/matches/{match_id}", headers=headers).get_data(as_text=True)
        link = re.search(r'<a class="correct-hand"[^>]*>', page)
        assert link, game
        assert f'href="/matches/{match_id}/{game}/1/edit"' in link.group(0)
        assert f'aria-label="{words}"' in link.group(0)
    # A follower (no right to edit) sees the number alone.
    follower = table.client.application.test_client()
    assert 'class="correct-hand"' not in follower.get(f"/matches/{match_id}").get_data(as_text=True)


def keyed(form: str, name: str) -> str | None:
    """The value of the one key checked among the radio keys ``name`` of ``form``."""
    found = re.findall(rf'name="{name}" value="([^"]*)"\s*checked', form)
    return found[0] if len(found) == 1 else None


def correction_form(page: str) -> str:
    """The correction form of a correction page."""
    return page.split("<h1>", 1)[1].split("<form", 1)[1].split("</form>", 1)[0]


def test_a_navawhist_correction_has_the_entry_keys_in_bid_order(table):
    match_id = table.new_match("navawhist", NAMES, first_dealer=1)
    table.play_navawhist(match_id, [1, 0, 0, 1], [1, 0, 0, 0])
    table.play_navawhist(match_id, [0, 1, 0, 0], [0, 0, 1, 1])  # hand 2: 2 cards, Carla deals
    page = table.client.get(f"/matches/{match_id}/navawhist/2/edit").get_data(as_text=True)
    form = correction_form(page)
    # The bids' keys in bid order, the dealer (Carla) last, then the tricks' keys, alike.
    bids = form.split('id="correct-tricks"', 1)[0]
    assert re.findall(r'name="bids-(\d)" value="0"', bids) == ["3", "0", "1", "2"]
    assert re.findall(r'name="values-(\d)" value="0"', form) == ["3", "0", "1", "2"]
    assert 'type="number"' not in form
    # Keys 0 to the cards dealt, each prefilled with what is stored.
    assert re.findall(r'name="bids-1" value="(\d)"', form) == ["0", "1", "2"]
    assert [keyed(form, f"bids-{s}") for s in range(4)] == ["0", "1", "0", "0"]
    assert [keyed(form, f"values-{s}") for s in range(4)] == ["0", "0", "1", "1"]
    assert 'class="seat-keys fold' in form and "Bids, in bid order" in form
    # Saved, the hand changes; Undo then says what it takes back.
    sheet = table.sheet(match_id)
    data = {"version": sheet["version"], "number": 2, "trump": "",
            **{f"bids-{s}": b for s, b in enumerate([0, 1, 0, 0])},
            **{f"values-{s}": t for s, t in enumerate([0, 1, 0, 1])}}
    response = table.post(f"/matches/{match_id}/navawhist/2/edit", data)
    assert response.status_code == 303
    assert table.sheet(match_id)["hands"][1]["inputs"]["tricks"] == [0, 1, 0, 1]
    live = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Undo the correction of Hand 2: Bruno 1 trick (was 0); Carla 0 tricks (was 1)" \
        in live


def test_a_navawhist_correction_refused_names_the_player_and_opens_their_keys(table):
    match_id = table.new_match("navawhist", NAMES, first_dealer=1)
    table.play_navawhist(match_id, [1, 0, 0, 1], [1, 0, 0, 0])
    sheet = table.sheet(match_id)
    # Bruno deals hand 1: with 1 + 0 + 0 bid, his 0 would make the bids add up to 1.
    data = {"version": sheet["version"], "number": 1, "trump": "",
            **{f"bids-{s}": b for s, b in enumerate([1, 0, 0, 0])},
            **{f"values-{s}": t for s, t in enumerate([1, 0, 0, 0])}}
    response = table.post(f"/matches/{match_id}/navawhist/1/edit", data)
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    said = text.split("<h1>", 1)[1].split('<p class="alert" role="alert">', 1)[1]
    assert "Bruno" in said.split("</p>", 1)[0]
    form = correction_form(text)
    assert re.search(r'class="seat-keys fold open">\s*<legend>Bruno', form)
    assert keyed(form, "bids-1") == "0"  # kept as typed
    assert table.sheet(match_id)["hands"][0]["inputs"]["bids"] == [1, 0, 0, 1]


def notice(text: str) -> str:
    """The words of the notice of a tap not saved, above the entry."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text.split(
        'class="notice stale"', 1)[1].split("</div>", 1)[0].split(">", 1)[1])).strip()


@pytest.mark.parametrize(("headers", "words"), [
    ({}, "Game 1: your entry (Bruno A K 7, Carla 20, Dario 9) was not saved: another phone "
         "saved it first."),
    (ITALIAN, "Giro 1: quanto hai inserito (Bruno A K 7, Carla 20, Dario 9) non è stato "
              "salvato: un altro telefono ha salvato prima di te."),
])
def test_an_entry_another_phone_saved_first_says_what_was_not_saved(table, headers, words):
    match_id = table.new_match("quarantotto", NAMES)
    sheet = table.sheet(match_id)
    assert play_quarantotto(table, match_id, 1, [25, None, 20, 9]).status_code == 303
    mine = {"version": sheet["version"], "number": 1, "action": "save", "closer": 0,
            "values-0": "", "values-1": "A K 7", "values-2": 20, "values-3": 9}
    response = table.post(f"/matches/{match_id}/quarantotto/game", mine, headers=headers)
    assert response.status_code == 409
    assert notice(response.get_data(as_text=True)) == words
    assert table.sheet(match_id)["hands"][0]["inputs"]["closer"] == 1


def test_navawhist_tricks_another_phone_saved_first_are_named(table):
    match_id = table.new_match("navawhist", NAMES)
    for seat, bid in ((1, 0), (2, 0), (3, 0), (0, 0)):
        assert table.bid(match_id, bid, seat=seat).status_code == 303
    sheet = table.sheet(match_id)
    assert table.tricks(match_id, [0, 1, 0, 0]).status_code == 303
    response = table.post(f"/matches/{match_id}/navawhist/tricks", {
        "version": sheet["version"], "number": 1, "action": "save", "trump": "",
        "values-0": 1, "values-1": 0, "values-2": 0, "values-3": 0})
    assert response.status_code == 409
    assert notice(response.get_data(as_text=True)) == (
        "Hand 1: your entry (Anna 1, Bruno 0, Carla 0, Dario 0) was not saved: another phone "
        "saved it first.")


def test_a_cavallore_deal_another_phone_saved_first_is_named(table):
    match_id = table.new_match("cavallore", NAMES[:2])
    sheet = table.sheet(match_id)
    deal = {"version": sheet["version"], "number": 1, "seat": 0}
    assert table.post(f"/matches/{match_id}/cavallore/deal", deal | {"placed": 30})\
        .status_code == 303
    response = table.post(f"/matches/{match_id}/cavallore/deal", deal | {"placed": 36})
    assert response.status_code == 409
    assert notice(response.get_data(as_text=True)) == (
        "Deal 1: your entry (Anna 36) was not saved: another phone saved it first.")


@pytest.mark.parametrize("game", ["navawhist", "quarantotto", "fortyfive"])
def test_a_correction_of_a_hand_another_phone_deleted_says_so(table, game):
    match_id = played(table, game)
    sheet = table.sheet(match_id)
    page = table.client.get(f"/matches/{match_id}/{game}/1/edit").get_data(as_text=True)
    assert "Save the correction" in page
    assert table.post(f"/matches/{match_id}/undo", {"version": sheet["version"]})\
        .status_code == 303
    typed = {"navawhist": {"bids-0": 1, "bids-1": 0, "bids-2": 0, "bids-3": 1,
                           "values-0": 0, "values-1": 1, "values-2": 0, "values-3": 0},
             "quarantotto": {"closer": 0, "values-1": 5, "values-2": 15, "values-3": 9,
                             "action": "save"},
             "fortyfive": {"mode": "winners", "winners": "0,0,0,0,0", "bonus": 0,
                           "action": "save"}}[game]
    response = table.post(f"/matches/{match_id}/{game}/1/edit",
                          {"version": sheet["version"], "number": 1, **typed})
    assert response.status_code == 409
    word = ROW_WORD[game][0].capitalize()
    assert notice(response.get_data(as_text=True)) == (
        f"{word} 1 was deleted on another phone: your correction was not saved.")
    assert table.sheet(match_id)["hands"] == [] or game == "navawhist"
    # A hand that was never entered is still no such hand, nor one no database could number.
    for number in (7, 2**31, 10**20):
        assert table.post(f"/matches/{match_id}/{game}/{number}/edit", {
            "version": sheet["version"], "number": number, **typed}).status_code == 404


def test_a_cavallore_correction_has_the_entry_keys(table):
    match_id = played(table, "cavallore")  # Anna placed 30
    url = f"/matches/{match_id}/cavallore/1/edit"
    form = correction_form(table.client.get(url).get_data(as_text=True))
    # The entry's keys: Won (36), then the quick counts, the stored one pressed.
    assert 'class="button primary big cr-win-button" name="placed" value="36"' in form
    assert re.findall(r'class="key" name="placed" value="(\d+)"', form) == \
        [str(n) for n in range(24, 36)]
    assert re.findall(r'value="(\d+)" aria-pressed="true"', form) == ["30"]
    assert 'name="seat" value="0" checked' in form
    # A tap on Bruno and 33 saves the deal as Bruno's 33, whatever the field holds.
    sheet = table.sheet(match_id)
    response = table.post(url, {"version": sheet["version"], "number": 1, "seat": 1,
                                "placed": ["33", ""]})
    assert response.status_code == 303
    assert table.sheet(match_id)["hands"][0]["inputs"] == {"placed": 33, "seat": 1}
    live = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Undo the correction of Deal 1" in live
    # A count no key shows is typed, and kept in the field when refused.
    response = table.post(url, {"version": table.sheet(match_id)["version"], "number": 1,
                                "seat": 1, "placed": "40", "action": "save"})
    assert response.status_code == 422
    assert 'id="cr-placed" name="placed"' in response.get_data(as_text=True)
    assert re.search(r'id="cr-placed"[^>]*value="40"', response.get_data(as_text=True))


def test_a_rummy_correction_has_the_entry_card_keypads(table):
    match_id = table.new_match("quarantotto", NAMES)
    assert play_quarantotto(table, match_id, 0, [None, "A K 7", 20, 9]).status_code == 303
    url = f"/matches/{match_id}/quarantotto/1/edit"
    form = correction_form(table.client.get(url).get_data(as_text=True))
    # The entry's fields: who closed, then a card keypad per hand, prefilled as stored.
    assert 'name="closer" value="0" checked' in form
    assert form.count('class="cardpad"') == 3
    assert 'id="values-1" value="A K 7"' in form and 'id="values-2" value="20"' in form
    assert re.search(r'name="tap" value="1:K"', form)
    sheet = table.sheet(match_id)
    response = table.post(url, {"version": sheet["version"], "number": 1, "action": "save",
                                "closer": 0, "values-1": "A K", "values-2": 20, "values-3": 9})
    assert response.status_code == 303
    assert table.sheet(match_id)["hands"][0]["inputs"]["points"][1] == "A K"
    live = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Undo the correction of Game 1: Bruno A K in hand (was A K 7)" in live


def test_a_fortyfive_correction_has_the_entry_taps(table):
    match_id = played(table, "fortyfive")  # winners 0 1 2 0 3, the bonus Bruno's
    url = f"/matches/{match_id}/fortyfive/1/edit"
    form = correction_form(table.client.get(url).get_data(as_text=True))
    assert re.findall(r'class="key ff-tap" name="action" value="tap:(\d)"', form) == \
        ["0", "1", "2", "3"]
    assert 'name="winners" value="0,1,2,0,3"' in form
    assert 'name="bonus" value="1" checked' in form
    sheet = table.sheet(match_id)
    response = table.post(url, {"version": sheet["version"], "number": 1, "mode": "winners",
                                "winners": "0,1,2,0,0", "bonus": 1, "action": "save"})
    assert response.status_code == 303
    live = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Undo the correction of Hand 1" in live


def test_tricks_overtaken_by_a_bid_are_not_said_saved_elsewhere(table):
    match_id = table.new_match("navawhist", NAMES)
    for seat, bid in ((1, 0), (2, 0), (3, 0), (0, 0)):
        assert table.bid(match_id, bid, seat=seat).status_code == 303
    sheet = table.sheet(match_id)
    assert table.post(f"/matches/{match_id}/undo", {"version": sheet["version"]})\
        .status_code == 303  # another phone takes Anna's bid back
    response = table.post(f"/matches/{match_id}/navawhist/tricks", {
        "version": sheet["version"], "number": 1, "action": "save", "trump": "",
        "values-0": 1, "values-1": 0, "values-2": 0, "values-3": 0})
    assert response.status_code == 409
    assert "saved it first" not in notice(response.get_data(as_text=True))
