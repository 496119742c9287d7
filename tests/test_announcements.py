"""What the match page's live region says (templates/matches/_announce.html): every save,
correction, undo, redo and change of who plays, in the phone's language, told once to the
phone that made it and to every phone following the sheet; and what Undo and Redo say they
will do (scorekeeper.engine.history.step_label)."""

from __future__ import annotations

import html
import re

import pytest

from .conftest import Table
from .test_people_web import change
from .test_polish_words import speaking
from .test_quarantotto_web import play as play_quarantotto
from .test_scala40_web import play as play_scala40

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
HTMX = {"HX-Request": "true"}
REGION = re.compile(r'<div id="announce" class="visually-hidden" role="status" '
                    r'aria-live="polite"([^>]*)>(.*?)</div>', re.S)


def said(response) -> str | None:
    """What an htmx answer says in the live region, swapped out of band; None: nothing."""
    found = REGION.search(response.get_data(as_text=True))
    if found is None or 'hx-swap-oob="innerHTML"' not in found.group(1):
        return None
    return html.unescape(found.group(2))


def said_on_load(response) -> str | None:
    """What a page says in its live region once it is read (``data-announce``)."""
    found = re.search(r'data-announce="([^"]*)"', REGION.search(
        response.get_data(as_text=True)).group(1))
    return html.unescape(found.group(1)) if found else None


def buttons(response) -> list[str]:
    """The words of the Undo and Redo buttons of a page, each once."""
    page = response.get_data(as_text=True)
    return list(dict.fromkeys(html.unescape(words) for words in re.findall(
        r'action="[^"]*/(?:undo|redo)"[^>]*>.*?<button class="button">([^<]*)</button>', page,
        re.S)))


def version(table: Table, match_id: str) -> dict[str, int]:
    return {"version": table.sheet(match_id)["version"]}


def points(table: Table, match_id: str, number: int) -> str:
    """The points of hand ``number`` as the rules scored them, "Anna 0, Bruno 120"."""
    row = table.sheet(match_id)["hands"][number - 1]
    return ", ".join(f"{name} {value}" for name, value in zip(
        [p["name"] for p in table.sheet(match_id)["players"]], row["points"], strict=False)
        if value is not None)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", {"saved": "Deal 1 saved. Points: {points}. Bruno is out (120).",
            "undo": "Undo: delete Deal 1", "undone": "Deal 1 undone.",
            "redo": "Redo: save Deal 1 again", "redone": "Deal 1: redone: "}),
    ("it", {"saved": "Smazzata 1 salvata. Punti: {points}. Bruno è fuori (120).",
            "undo": "Annulla: elimina Smazzata 1",
            "undone": "Smazzata 1: inserimento annullato.",
            "redo": "Ripristina: salva Smazzata 1",
            "redone": "Smazzata 1: ripristino: "}),
])
def test_a_save_its_undo_and_its_redo_are_said_and_named(table, lang, words):
    match_id = table.new_match("scala40", ["Anna", "Bruno", "Carla"])
    speaking(table, lang)
    saved = play_scala40(table, match_id, 0, {1: 120, 2: 5}, headers=HTMX)
    assert said(saved) == words["saved"].format(points=points(table, match_id, 1))
    assert buttons(saved) == [words["undo"]]
    undone = table.post(f"/matches/{match_id}/undo", version(table, match_id), headers=HTMX)
    assert said(undone) == words["undone"]
    assert buttons(undone) == [words["redo"]]
    redone = table.post(f"/matches/{match_id}/redo", version(table, match_id), headers=HTMX)
    assert said(redone).startswith(words["redone"])
    assert buttons(redone) == [words["undo"]]


@pytest.mark.parametrize(("lang", "words"), [
    ("en", {"bid": "Hand 1: {bidder} bid 1.", "saved": "Hand 1 saved. Points: {points}.",
            "undo save": "Undo the save of Hand 1",
            "corrected": "Hand 1 corrected: Anna 0 tricks (was 1); Bruno 1 trick (was 0).",
            "undo": "Undo the correction of Hand 1: Anna 0 tricks (was 1); Bruno 1 trick "
                    "(was 0)",
            "redo": "Redo the correction of Hand 1: Anna 0 tricks (was 1); Bruno 1 trick "
                    "(was 0)",
            "undone": "Hand 1: change undone: Anna 1 trick (was 0); Bruno 0 tricks (was 1)."}),
    ("it", {"bid": "Mano 1: {bidder} dichiara 1.", "saved": "Mano 1 salvata. Punti: {points}.",
            "undo save": "Annulla il salvataggio (Mano 1)",
            "corrected": "Mano 1: correzione: Anna ",
            "undo": "Annulla la correzione (Mano 1): Anna ",
            "redo": "Ripristina la correzione (Mano 1): Anna ",
            "undone": "Mano 1: modifica annullata: Anna "}),
])
def test_a_bid_a_save_and_a_correction_are_said_and_named(table, lang, words):
    match_id = table.new_match("navawhist", NAMES, hook=False)
    speaking(table, lang)
    order = table.sheet(match_id)["next"]["info"]["order"]
    bid = table.bid(match_id, 1, seat=order[0], headers=HTMX)
    assert said(bid) == words["bid"].format(bidder=NAMES[order[0]])
    for seat in order[1:]:
        assert table.bid(match_id, 0, seat=seat).status_code == 303
    tricks = [1, 0, 0, 0]
    saved = table.tricks(match_id, tricks, headers=HTMX)
    assert said(saved) == words["saved"].format(points=points(table, match_id, 1))
    assert buttons(saved) == [words["undo save"]]
    # The correction: Bruno took the trick, not Anna.
    data = {**version(table, match_id), "number": 1, "trump": ""}
    data.update({f"bids-{seat}": int(seat == order[0]) for seat in range(4)})
    data.update({f"values-{i}": t for i, t in enumerate([0, 1, 0, 0])})
    corrected = table.post(f"/matches/{match_id}/navawhist/1/edit", data, headers=HTMX)
    assert said(corrected).startswith(words["corrected"])
    assert buttons(corrected)[0].startswith(words["undo"])
    undone = table.post(f"/matches/{match_id}/undo", version(table, match_id), headers=HTMX)
    assert said(undone).startswith(words["undone"])
    # Undo now takes back the save; Redo puts the correction back.
    assert buttons(undone)[0] == words["undo save"]
    assert buttons(undone)[1].startswith(words["redo"])
    if lang == "en":
        assert said(corrected) == words["corrected"] and said(undone) == words["undone"]
        assert buttons(corrected) == [words["undo"]] and buttons(undone)[1] == words["redo"]


@pytest.mark.parametrize(("lang", "saved"), [
    ("en", "Deal 1 saved. Points: {points}."), ("it", "Smazzata 1 salvata. Punti: {points}."),
])
def test_a_follower_hears_another_phones_save_once_and_never_on_first_load(
        app, table, lang, saved):
    match_id = table.new_match("scala40", ["Anna", "Bruno", "Carla"])
    speaking(table, lang)
    follower = speaking(Table(app.test_client()), lang).client
    first = follower.get(f"/matches/{match_id}")
    assert REGION.search(first.get_data(as_text=True)).group(2) == ""
    assert said_on_load(first) is None and said(first) is None
    since = table.sheet(match_id)["version"]
    poll = f"/matches/{match_id}/live?since={since}"
    assert follower.get(poll, headers=HTMX).status_code == 204
    play_scala40(table, match_id, 0, {1: 10, 2: 5})
    changed = follower.get(poll, headers=HTMX)
    assert said(changed) == saved.format(points=points(table, match_id, 1))
    # Said in the region outside the sheet it swaps: the next poll, with no change, says
    # nothing (nothing is swapped).
    again = f"/matches/{match_id}/live?since={table.sheet(match_id)['version']}"
    assert follower.get(again, headers=HTMX).status_code == 204
    # The phone that saved hears the same words; a plain reload of its page none.
    own = table.post(f"/matches/{match_id}/undo", version(table, match_id), headers=HTMX)
    assert said(own) == said(follower.get(poll, headers=HTMX))
    assert said_on_load(table.client.get(f"/matches/{match_id}")) is None


@pytest.mark.parametrize(("lang", "joins", "undone", "leaves"), [
    ("en", "Dario joins from hand 2.", "Undone: Dario joins from hand 2.",
     "Bruno leaves after hand 1."),
    ("it", "Dario entra dalla mano 2.", "Annullata: Dario entra dalla mano 2.",
     "Bruno esce dopo la mano 1."),
])
def test_a_join_and_a_leave_are_said_on_the_sheet_they_lead_to(table, lang, joins, undone,
                                                                leaves):
    match_id = table.new_match("quarantotto", ["Anna", "Bruno", "Carla"])
    speaking(table, lang)
    assert play_quarantotto(table, match_id, 0, [None, 10, 20]).status_code == 303
    joined = change(table, match_id, "join", name="Dario")
    assert joined.status_code == 303 and "step=players" in joined.headers["Location"]
    page = table.client.get(joined.headers["Location"])
    assert said_on_load(page) == joins and said(page) is None
    undo = table.post(f"/matches/{match_id}/undo", version(table, match_id), headers=HTMX)
    assert said(undo) == undone
    left = change(table, match_id, "leave", seat=1)
    assert said_on_load(table.client.get(left.headers["Location"])) == leaves
