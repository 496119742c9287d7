"""Scala 40 played over HTTP: elimination, closing in hand, re-entry, pairs, stalemates,
refusals, the card keypad and corrections."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.models import Change
from scorekeeper.rules import scala40

from .conftest import count

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def deal_form(sheet: dict[str, Any], closer: Any = "", hands: dict[int, Any] | None = None, *,
              never: tuple[int, ...] = (), in_hand: Any = None, reentries: tuple[int, ...] = (),
              action: str = "save") -> dict[str, Any]:
    """The entry form of the next deal as the page posts it."""
    number = sheet["next"]["number"] if sheet["next"] else len(sheet["hands"]) + 1
    data: dict[str, Any] = {"version": sheet["version"], "number": number, "action": action,
                            "closer": closer, "never": list(never),
                            "reentries": list(reentries)}
    if in_hand is not None:
        data["closed_in_hand"] = in_hand
    data.update({f"values-{seat}": h for seat, h in (hands or {}).items()})
    return data


def play(table, match_id: str, closer: Any = "", hands: dict[int, Any] | None = None,
         **kwargs: Any):
    headers = kwargs.pop("headers", None)
    data = deal_form(table.sheet(match_id), closer, hands, **kwargs)
    return table.post(f"/matches/{match_id}/scala40/deal", data, headers=headers)


def ok(response) -> None:
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]


def test_elimination_closing_in_hand_and_re_entry(table, client):
    match_id = table.new_match("scala40", NAMES, reentry=True)
    # Deal 1: Anna closes; Dario's hand (106) puts him out.
    ok(play(table, match_id, 0, {1: "A", 2: "Q Q 9", 3: "* * A K 9 8 7 6 5"}))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == [0, 1, 29, 106]
    assert sheet["details"]["eliminated"] == [3]
    assert sheet["next"]["info"]["may_reenter"] == [{"seat": 3, "total": 29}]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Dario re-enters with 29 points" in page
    assert 'name="values-3"' not in page  # out: no keypad unless he re-enters
    # Deal 2: Dario re-enters at 29; Bruno closes in hand: every penalty doubled.
    ok(play(table, match_id, 1, {0: "K", 2: "7 3", 3: "5"}, in_hand="y", reentries=(3,)))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == [20, 1, 49, 39]
    deal = sheet["hands"][1]
    assert deal["inputs"]["reentries"] == [3] and deal["inputs"]["closed_in_hand"] is True
    assert deal["notes"] == ["", "closed in hand", "", "re-entered"]
    assert "closed in hand: penalties doubled" in deal["events"]
    # Deal 3: a stalemate.
    ok(play(table, match_id, action="annul"))
    sheet = table.sheet(match_id)
    assert sheet["hands"][2]["inputs"] == {"annulled": True} and sheet["hands"][2]["annulled"]
    assert sheet["totals"] == [20, 1, 49, 39]
    # Deal 4: Anna never opened (100): out at 120.
    ok(play(table, match_id, 2, {0: "A K", 1: "J", 3: "8 8"}, never=(0,)))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == [120, 11, 49, 55]
    assert sheet["hands"][3]["inputs"]["points"] == [None, "J", None, "8 8"]
    assert sheet["next"]["seats"] == [1, 2, 3]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Anna re-enters with 55 points" in page
    assert 'name="values-0"' not in page and "Anna</strong> · out" in page
    # Deal 5: Anna stays out; a sum and a lone Ace.
    ok(play(table, match_id, 3, {1: "10+15+8", 2: "A"}))
    assert table.sheet(match_id)["totals"] == [120, 44, 50, 55]
    # Deal 6: Carla and Dario go out together: Bruno, the last one in, wins.
    ok(play(table, match_id, 1, {3: "Jolly Jolly Jolly Jolly 2"}, never=(2,)))
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished"
    assert sheet["totals"] == [120, 44, 150, 157]
    assert sheet["winners"] == [1]
    assert [r["column"] for r in sheet["ranking"]] == [1, 2, 3, 0]
    # The totals agree with the rules engine working on the stored deals.
    stored = [h["inputs"] for h in sheet["hands"]]
    for deal in stored:
        deal.pop("penalties", None)
    engine = scala40.build_sheet(4, stored, reentry=True)
    assert list(engine.totals) == sheet["totals"]
    assert scala40.score_deal(["K", None, "7 3", "5"], closer=1, never_opened=(),
                              closed_in_hand=True) == [20, 0, 20, 10]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Final ranking" in page and "annulled (stalemate)" in page
    assert "↩29" in page and "Out at 101 points" in page


def test_a_pairs_match(table, client):
    match_id = table.new_match("scala40", NAMES, pairs=True)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Anna + Carla" in page and "Bruno + Dario" in page
    # Anna closes: Carla pays nothing whatever was typed for her; the pair 1-3 pays both.
    ok(play(table, match_id, 0, {1: "A K", 2: "Q Q", 3: "9"}))
    sheet = table.sheet(match_id)
    assert sheet["columns"] == [[0, 2], [1, 3]]
    assert sheet["hands"][0]["inputs"]["points"] == [None, "A K", None, 9]
    assert sheet["totals"] == [0, 30]
    ok(play(table, match_id, 3, {0: "Jolly 7", 2: "A"}, never=(1,)))
    assert table.sheet(match_id)["totals"] == [33, 30]
    # Bruno closes in hand: Anna never opened (200), Carla 2 x 10.
    ok(play(table, match_id, 1, {2: "K"}, never=(0,), in_hand="y"))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == [253, 30]
    assert sheet["status"] == "finished" and sheet["winners"] == [1]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Final ranking" in page and "Bruno + Dario" in page


def test_a_fixed_number_of_deals(table):
    match_id = table.new_match("scala40", ["Anna", "Bruno"], end="deals", deals=2)
    ok(play(table, match_id, 0, {1: 150}))
    assert table.sheet(match_id)["next"]["seats"] == [0, 1]  # no elimination
    ok(play(table, match_id, action="annul"))  # an annulled deal does not count
    ok(play(table, match_id, 1, {0: "K"}))
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished" and sheet["totals"] == [10, 150]
    assert sheet["winners"] == [0]


def out_match(table, **options: Any) -> str:
    """A match where Dario went out in deal 1 (re-entry on unless said otherwise)."""
    match_id = table.new_match("scala40", NAMES, **({"reentry": True} | options))
    ok(play(table, match_id, 0, {1: "A", 2: "Q Q 9", 3: 120}))
    return match_id


@pytest.mark.parametrize(("closer", "hands", "flags", "message"), [
    ("", {1: 5, 2: 5}, {}, "Tap who closed: a scored deal has exactly one closer."),
    (9, {1: 5, 2: 5}, {}, "The closer must be a seat from 0 to 3."),
    (0, {0: 5, 1: 5, 2: 5}, {}, "Anna closed and pays no penalty, not 5."),
    (0, {1: 5, 2: 5}, {"in_hand": "2"}, "Carla did not close: only the closer can close in hand."),
    (0, {1: 5, 2: 5, 3: "7"}, {}, "Dario is out of the match and takes no part in this deal."),
    (0, {1: 5, 2: 5}, {"never": (3,)}, "Dario is out of the match and takes no part"),
    (3, {1: 5, 2: 5}, {}, "Dario is out of the match and takes no part"),
    (0, {1: 5, 2: 5}, {"never": (0,)}, "Anna closed, so they cannot be marked as never opened."),
    (0, {1: 5}, {}, "Carla: the penalty points are missing."),
    (0, {1: 5, 2: 0}, {}, "Carla did not close and so holds at least one card"),
    (0, {1: "-4", 2: 5}, {}, "Bruno: penalty points cannot be negative."),
    (0, {1: "A Z", 2: 5}, {}, "Bruno: unknown card &#39;Z&#39;."),
    (0, {1: "AKD", 2: 5}, {},
     "Bruno: &#39;AKD&#39; reads as different cards: put a space between them."),
    (0, {1: 5, 2: 5}, {"reentries": (1,)}, "Bruno is still in the match and cannot re-enter."),
    (0, {1: 5, 2: 5}, {"never": ("x",)}, "The player who never opened must be a seat number."),
])
def test_refusals_name_the_player_and_store_nothing(table, app, closer, hands, flags, message):
    match_id = out_match(table)
    before, changes = table.sheet(match_id), count(app, Change)
    response = play(table, match_id, closer, hands, **flags)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert count(app, Change) == changes
    assert table.sheet(match_id) == before


def test_re_entry_refused_when_off_or_over_the_limit(table, app):
    match_id = out_match(table, reentry=False)
    assert table.sheet(match_id)["next"]["info"]["may_reenter"] == []
    response = play(table, match_id, 0, {1: 5, 2: 5, 3: 5}, reentries=(3,))
    assert response.status_code == 422
    assert "Dario cannot re-enter: re-entry is off in this match." in response.get_data(
        as_text=True)
    match_id = out_match(table, reentry_limit=1)
    ok(play(table, match_id, 0, {1: 5, 2: 5, 3: 200}, reentries=(3,)))  # back, and out again
    assert table.sheet(match_id)["next"]["info"]["may_reenter"] == []
    changes = count(app, Change)
    response = play(table, match_id, 0, {1: 5, 2: 5, 3: 5}, reentries=(3,))
    assert response.status_code == 422
    assert "Dario has re-entered 1 times, the most allowed." in response.get_data(as_text=True)
    assert count(app, Change) == changes


def test_re_entry_is_offered_only_before_the_next_deal(table, client, app):
    """docs/rules.md: a player who lets the deal after their elimination pass stays out."""
    match_id = out_match(table)
    assert "Dario re-enters with 29 points" in client.get(f"/matches/{match_id}").get_data(
        as_text=True)
    ok(play(table, match_id, 0, {1: 5, 2: 5}))  # deal 2 without Dario
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "re-enters with" not in page and 'name="reentries"' not in page
    assert table.sheet(match_id)["next"]["info"]["may_reenter"] == []
    before, changes = table.sheet(match_id), count(app, Change)
    response = play(table, match_id, 0, {1: 5, 2: 5, 3: 5}, reentries=(3,))
    assert response.status_code == 422
    assert ("Dario went out in deal 1 and could re-enter only before deal 2: they stay out."
            in response.get_data(as_text=True))
    assert count(app, Change) == changes and table.sheet(match_id) == before


def test_an_annulled_deal_carries_the_re_entries(table):
    match_id = out_match(table)
    ok(play(table, match_id, action="annul", reentries=(3,)))
    sheet = table.sheet(match_id)
    assert sheet["hands"][1]["inputs"] == {"annulled": True, "reentries": [3]}
    assert sheet["totals"] == [0, 1, 29, 29] and sheet["next"]["seats"] == [0, 1, 2, 3]
    # The dealer moves on after a stalemate, to the next player still in.
    assert [h["dealer"] for h in sheet["hands"]] == [0, 1] and sheet["next"]["dealer"] == 2


def test_re_entry_offered_on_the_form(table, client):
    match_id = out_match(table)
    url = f"/matches/{match_id}/scala40/deal"
    form = deal_form(table.sheet(match_id), 0, {1: "A"}, reentries=(3,), action="refresh")
    response = table.post(url, form)
    assert response.status_code == 303  # to the page whose address carries the deal
    assert "reentries=3" in response.headers["Location"]
    text = table.client.get(response.headers["Location"]).get_data(as_text=True)
    assert 'value="3" id="reenter-3" checked' in text
    assert 'name="values-3"' in text  # he plays this deal: his keypad is there
    assert 'id="pad-value-1"' in text and ">1<" in text  # a lone Ace
    form["reentries"] = []
    text = table.post(url, form, follow_redirects=True).get_data(as_text=True)
    assert 'name="values-3"' not in text
    assert table.sheet(match_id)["hands"][1:] == []


def test_the_form_shows_closer_never_opened_and_taps(table):
    match_id = table.new_match("scala40", NAMES)
    url = f"/matches/{match_id}/scala40/deal"
    form = deal_form(table.sheet(match_id), 2, {0: "A", 1: "Q", 3: "9"}, never=(1,),
                     in_hand="y", action="")
    del form["action"]
    text = table.post(url, form | {"tap": "0:K"}, follow_redirects=True).get_data(as_text=True)
    assert 'value="A K"' in text and ">21<" in text  # the Ace is no longer alone
    assert "Carla</strong> · closed in hand: pays nothing" in text
    assert 'value="1" id="never-1" checked' in text
    assert '<input type="hidden" name="values-1" value="Q">' in text  # kept for an untick
    assert 'id="closed-in-hand" checked' in text
    assert table.sheet(match_id)["hands"] == []


@pytest.mark.parametrize(("text", "key", "shown", "points"), [
    ("", "A", "A", 1),                # a lone Ace counts 1
    ("A", "K", "A K", 21),
    ("A", "A", "A A", 22),
    ("A K", "back", "A", 1),
    ("", "Jolly", "Joker", 25),        # the key's code; the English pad says Joker
    ("Jolly 10", "back", "Joker", 25),
    ("10+15+8", "show", "10+15+8", 33),
    ("10 D", "show", "10 D", 20),
])
def test_the_keypad_endpoint(table, text, key, shown, points):
    match_id = table.new_match("scala40", NAMES)
    response = table.post(f"/matches/{match_id}/scala40/cards",
                          {"values-3": text, "tap": f"3:{key}"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f'name="values-3" id="values-3" value="{shown}"' in html
    value = html.split('id="pad-value-3"')[1].split(">", 1)[1].split("<", 1)[0].strip()
    assert value == str(points)
    assert 'value="3:Jolly"' in html and table.sheet(match_id)["hands"] == []


def test_cards_run_together_on_the_keypad_and_in_a_deal(table):
    """docs/rules.md#cards-typed-or-tapped: ``kq`` and ``10k`` are read as cards."""
    match_id = table.new_match("scala40", NAMES)
    response = table.post(f"/matches/{match_id}/scala40/cards", {"values-1": "kq", "tap": "1:7"})
    html = response.get_data(as_text=True)
    assert 'value="kq 7"' in html
    assert html.split('id="pad-value-1"')[1].split(">", 1)[1].split("<", 1)[0].strip() == \
        str(scala40.hand_points("K Q 7"))
    ok(play(table, match_id, 0, {1: "KQ", 2: "10k", 3: "Kq"}))
    assert table.sheet(match_id)["totals"] == scala40.score_deal(
        [None, "K Q", "10 K", "K Q"], closer=0, never_opened=[])


def test_the_keypad_names_the_player_of_a_bad_card(table):
    match_id = table.new_match("scala40", NAMES)
    response = table.post(f"/matches/{match_id}/scala40/cards",
                          {"values-1": "A 11", "tap": "1:show"})
    assert response.status_code == 200
    assert "Bruno: unknown card &#39;11&#39;." in response.get_data(as_text=True)
    other = table.new_match("quarantotto", NAMES)
    assert table.post(f"/matches/{other}/scala40/cards", {"tap": "1:A"}).status_code == 404
    assert table.post(f"/matches/{other}/scala40/deal", deal_form(
        table.sheet(other), 0, {1: 5, 2: 5, 3: 5})).status_code == 404


def test_correcting_a_past_deal(table, client, app):
    match_id = table.new_match("scala40", NAMES, reentry=True)
    ok(play(table, match_id, 0, {1: "A", 2: "Q Q 9", 3: "9"}))
    ok(play(table, match_id, 1, {0: "K", 2: "7 3", 3: "5"}))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f'href="/matches/{match_id}/scala40/1/edit"' in page
    url = f"/matches/{match_id}/scala40/1/edit"
    text = client.get(url).get_data(as_text=True)
    assert "Correct deal 1" in text and 'value="Q Q 9"' in text
    # Correct deal 1: Dario held 99 more, so he was out before deal 2, where he has cards.
    sheet = table.sheet(match_id)
    data = deal_form(sheet, 0, {1: "A", 2: "Q Q 9", 3: 108}) | {"number": 1}
    response = table.post(url, data)
    assert response.status_code == 422
    assert "Dario is out of the match and takes no part in this deal." in response.get_data(
        as_text=True)
    assert table.sheet(match_id) == sheet
    # A correction the rest of the match allows.
    response = table.post(url, deal_form(sheet, 0, {1: "A K", 2: "Q Q 9", 3: "9"},
                                         in_hand="y") | {"number": 1})
    ok(response)
    after = table.sheet(match_id)
    assert after["totals"] == [10, 42, 68, 23]
    assert after["hands"][0]["notes"][0] == "closed in hand"
    # A deal can be corrected into a stalemate.
    ok(table.post(url, deal_form(after, action="annul") | {"number": 1}))
    assert table.sheet(match_id)["totals"] == [10, 0, 10, 5]
    text = client.get(url).get_data(as_text=True)  # an annulled deal can be scored again
    assert "Correct deal 1" in text and 'name="closer" value="0" ' in text
    assert client.get(f"/matches/{match_id}/scala40/3/edit").status_code == 404
    assert client.get(f"/matches/{match_id}/quarantotto/1/edit").status_code == 404


def test_the_edit_page_offers_the_re_entry_of_that_deal(table, client):
    match_id = out_match(table)
    ok(play(table, match_id, 0, {1: 5, 2: 5, 3: 5}, reentries=(3,)))
    text = client.get(f"/matches/{match_id}/scala40/2/edit").get_data(as_text=True)
    assert 'value="3" id="reenter-3" checked' in text and "Dario re-enters with 29" in text
