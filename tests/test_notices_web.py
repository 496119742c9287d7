"""What a phone is told about changes: its own (the new version on every answer, so its poll
never takes them for another phone's), another phone's (which change it was), a phone
removed from the table, and a correction another phone saved first."""

from __future__ import annotations

import re

from .conftest import Table
from .test_access import invitation, table_of
from .test_fortyfive_web import FortyFive, hidden
from .test_quarantotto_web import game_form
from .test_quarantotto_web import play as play_quarantotto

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
HTMX = {"HX-Request": "true"}
VERSION = "X-Match-Version"
REMOVED = "This phone was removed from the table: you can still follow the sheet."


def member(app, table: Table, match_id: str) -> Table:
    """A second phone of the match's table."""
    phone = Table(app.test_client())
    assert phone.post(invitation(table, match_id), {}).status_code == 303
    return phone


def remove(table: Table, match_id: str) -> None:
    """``table``'s phone takes the other phone off the match's table."""
    page = table.client.get(f"/tables/{table_of(table, match_id)}").get_data(as_text=True)
    others = [item for item in re.findall(r"<li>(.*?)</li>", page, re.S)
              if "/remove" in item and "(this phone)" not in item]
    action = re.search(r'href="([^"]+/remove)"', others[0]).group(1)
    assert table.post(action, {}).status_code == 303


def since(table: Table, match_id: str, version: int) -> str:
    """What a phone whose page shows ``version`` gets when it asks for changes."""
    response = table.client.get(f"/matches/{match_id}/live?since={version}", headers=HTMX)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_every_answer_to_a_change_carries_the_new_version(table):
    match_id = table.new_match("navawhist", NAMES)

    def post(url: str, data: dict, **kwargs):
        response = table.post(f"/matches/{match_id}/{url}", {
            "version": table.sheet(match_id)["version"], **data}, **kwargs)
        assert response.status_code in (200, 303), response.get_data(as_text=True)[:500]
        assert response.headers[VERSION] == str(table.sheet(match_id)["version"]), url
        return response

    for seat in (1, 2, 3, 0):  # the bids: each answered with the entry alone
        response = post("navawhist/bid", {"number": 1, "seat": seat, "bid": 0}, headers=HTMX)
        assert 'id="live"' not in response.get_data(as_text=True)
    post("navawhist/tricks", {"number": 1, "action": "save", "values-0": 1, "values-1": 0,
                              "values-2": 0, "values-3": 0}, headers=HTMX)
    post("undo", {}, headers=HTMX)
    post("redo", {}, headers=HTMX)
    post("navawhist/1/edit", {"number": 1, "bids-0": 0, "bids-1": 0, "bids-2": 0, "bids-3": 0,
                              "values-0": 0, "values-1": 1, "values-2": 0, "values-3": 0})
    post("abandon", {}, headers=HTMX)
    post("resume", {}, headers=HTMX)
    # A tap that stores nothing leaves the version alone and says none.
    sheet = table.sheet(match_id)
    response = table.post(f"/matches/{match_id}/navawhist/bid", {
        "version": sheet["version"], "number": 2, "change": 2}, headers=HTMX)
    assert VERSION not in response.headers


def test_the_notice_says_what_another_phone_did(app, table):
    match_id = table.new_match("navawhist", NAMES)
    other = member(app, table, match_id)
    table.play_navawhist(match_id, [0, 0, 0, 0], [1, 0, 0, 0])
    version = table.sheet(match_id)["version"]
    text = since(other, match_id, version - 1)
    assert "Another phone saved hand 1: this is the sheet now." in text
    assert table.post(f"/matches/{match_id}/undo", {"version": version}).status_code == 303
    text = since(other, match_id, version)
    assert "Hand 1: another phone undid a change: this is the sheet now." in text
    assert "saved hand" not in text
    assert table.post(f"/matches/{match_id}/redo", {"version": version + 1}).status_code == 303
    text = since(other, match_id, version + 1)
    assert "Hand 1: another phone redid a change: this is the sheet now." in text
    assert "saved hand" not in text


def test_a_removed_phone_s_tap_gets_the_sheet_as_a_follower_sees_it(app, table):
    match_id = table.new_match("navawhist", NAMES)
    guest = member(app, table, match_id)
    assert guest.bid(match_id, 0, headers=HTMX).status_code == 200
    remove(table, match_id)
    response = guest.bid(match_id, 0, headers=HTMX)
    text = response.get_data(as_text=True)
    assert response.status_code == 403
    assert response.headers["HX-Retarget"] == "#live"
    assert response.headers["HX-Reswap"] == "outerHTML"
    assert text.lstrip().startswith('<div id="live"') and "<header" not in text
    assert REMOVED in text and 'name="bid"' not in text and "Undo" not in text
    # It follows the sheet from then on, asking whether it changed, to be told what did.
    poll = re.search(r'hx-get="([^"]+)" hx-trigger="every 4s"', text).group(1)
    assert poll.startswith(f"/matches/{match_id}/live?") and "notice=1" in poll
    assert re.search(r"since=\d+", poll)
    assert table.sheet(match_id)["next"]["info"]["bids"] == [None, 0, None, None]
    # Without htmx the refusal is the error page, as before.
    response = guest.bid(match_id, 0)
    assert response.status_code == 403 and "<header" in response.get_data(as_text=True)
    assert "may only watch" in response.get_data(as_text=True)
    # In Italian too.
    guest.post("/lang/it", {"next": f"/matches/{match_id}"})
    text = guest.bid(match_id, 0, headers=HTMX).get_data(as_text=True)
    assert "Questo telefono è stato tolto dal tavolo: puoi ancora seguire il foglio." in text


def corrected_first(app, table: Table, match_id: str, url: str, theirs: dict, mine: dict) -> str:
    """Two phones open the correction page of the same hand; the other one saves first,
    then this one: its answer."""
    other = member(app, table, match_id)
    version = table.sheet(match_id)["version"]
    assert table.client.get(url).status_code == 200 and other.client.get(url).status_code == 200
    assert other.post(url, {"version": version, **theirs}).status_code == 303
    response = table.post(url, {"version": version, **mine})
    assert response.status_code == 409
    return response.get_data(as_text=True)


def said_why(text: str, hand: str) -> None:
    """The message of a correction another phone saved first: focused, above the form."""
    message = text.split('id="entry-error"', 1)[1].split("</p>", 1)[0]
    assert f"{hand}: another phone saved a correction (" in message
    assert "Your values are kept in the form below" in message
    assert "autofocus" in message.split(">", 1)[0]
    assert text.index('id="entry-error"') < text.index("Save the correction")


def keyed(form: str, name: str) -> str | None:
    """The value of the key checked among the radio keys ``name`` of ``form``."""
    found = re.findall(rf'name="{name}" value="([^"]*)"\s*checked', form)
    return found[0] if len(found) == 1 else None


def test_a_stale_navawhist_correction_keeps_the_values_typed(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [0, 0, 0, 0], [1, 0, 0, 0])
    url = f"/matches/{match_id}/navawhist/1/edit"

    def hand(bids: list[int], tricks: list[int], trump: str) -> dict:
        return {"number": 1, "trump": trump, **{f"bids-{i}": b for i, b in enumerate(bids)},
                **{f"values-{i}": t for i, t in enumerate(tricks)}}

    text = corrected_first(app, table, match_id, url, hand([0, 0, 0, 0], [0, 1, 0, 0], ""),
                           hand([1, 0, 0, 0], [0, 0, 1, 0], "♥"))
    said_why(text, "Hand 1")
    form = text.split('class="edit-hand', 1)[1].split("</form>", 1)[0]
    assert keyed(form, "bids-0") == "1" and keyed(form, "values-2") == "1"
    assert keyed(form, "values-1") == "0" and keyed(form, "trump") == "♥"
    # The form is now made for the sheet as it is: saved again, it replaces the other one.
    assert f'name="version" value="{table.sheet(match_id)["version"]}"' in form
    # The sheet as it is now, with the other phone's correction, is on the page.
    assert 'class="sheet"' in text and "0/1" in text.split('id="hand-1"', 1)[1].split("</tr>")[0]


def test_a_stale_quarantotto_correction_keeps_the_values_typed(app, table):
    match_id = table.new_match("quarantotto", NAMES)
    assert play_quarantotto(table, match_id, 0, [None, "A K 7", 20, 9]).status_code == 303
    url = f"/matches/{match_id}/quarantotto/1/edit"
    sheet = table.sheet(match_id)
    theirs = game_form(sheet, 0, [None, 25, 20, 9]) | {"number": 1}
    mine = game_form(sheet, 0, [None, "Q 5", 20, 9]) | {"number": 1}
    del theirs["version"], mine["version"]
    text = corrected_first(app, table, match_id, url, theirs, mine)
    said_why(text, "Game 1")
    assert 'value="Q 5"' in text


def test_a_stale_cavallore_correction_keeps_the_values_typed(app, table):
    match_id = table.new_match("cavallore", ["Anna", "Bruno"])
    for placed in (30, 12):
        sheet = table.sheet(match_id)
        assert table.post(f"/matches/{match_id}/cavallore/deal", {
            "version": sheet["version"], "number": sheet["next"]["number"],
            "placed": placed, "seat": 0}).status_code == 303
    url = f"/matches/{match_id}/cavallore/1/edit"
    text = corrected_first(app, table, match_id, url, {"number": 1, "seat": 0, "placed": 31},
                           {"number": 1, "seat": 1, "placed": 33})
    said_why(text, "Deal 1")
    form = text.split('class="entry cr-edit"', 1)[1].split("</form>", 1)[0]
    assert 'value="33"' in form and 'name="seat" value="1" checked' in form


def test_a_stale_fortyfive_correction_keeps_the_values_typed(app, table):
    match_id = table.new_match("fortyfive", NAMES)
    assert FortyFive(table, match_id).tap_winners([0, 1, 2, 0, 3], bonus=1).status_code == 303
    url = f"/matches/{match_id}/fortyfive/1/edit"
    hand = {"number": 1, "mode": "winners", "action": "save"}
    text = corrected_first(app, table, match_id, url, hand | {"winners": "0,0,0,0,0", "bonus": 0},
                           hand | {"winners": "1,1,2,3,3", "bonus": 2})
    said_why(text, "Hand 1")
    assert hidden(text, "winners") == "1,1,2,3,3" and 'name="bonus" value="2" checked' in text
