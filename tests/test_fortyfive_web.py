"""A Forty-Five match played over HTTP: trick winners tapped, tricks per side, the trick
helper's cards; the tie that plays on, refusals, and a correction."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from scorekeeper.db import db
from scorekeeper.models import Change, Hand
from scorekeeper.rules import fortyfive

from .conftest import count, migrated_app, pdf_text

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
HTMX = {"HX-Request": "true"}

# Hand 3 of the match below, dealt by Carla (seat 2): Dario leads, trump hearts. Anna and
# Carla take tricks 1, 4 and 5; Bruno takes 2 (with the 5 of trumps, the bonus) and 3.
TRUMP = "♥"
HELPER_TRICKS = [
    ["2♣", "K♣", "3♣", "4♣"],  # Dario leads; Anna's K wins
    ["2♠", "5♥", "3♠", "4♠"],  # Anna leads; Bruno trumps with the 5: the best trump
    ["K♦", "Q♦", "J♦", "10♦"],  # Bruno leads and wins
    ["9♦", "2♥", "8♦", "7♦"],  # Bruno leads; Carla trumps
    ["6♠", "7♠", "K♠", "9♠"],  # Carla leads; Anna's K wins
]


def hidden(page: str, name: str) -> str:
    """The value of the hidden input ``name`` in a page or fragment."""
    return re.search(rf'type="hidden" name="{name}" value="([^"]*)"', page).group(1)


def is_tap_answer(response) -> bool:
    """True for the redirect that answers a tap without JavaScript: to a page whose address
    carries the hand being entered (``n``), as opposed to the sheet after a save."""
    return response.status_code == 303 and "n=" in response.headers["Location"]


class FortyFive:
    """Taps on the entry form, carrying its state from one answer to the next as a browser
    would: the hidden inputs of the form that came back."""

    def __init__(self, table, match_id: str, *, htmx: bool = False) -> None:
        self.table, self.match_id, self.htmx = table, match_id, htmx
        self.url = f"/matches/{match_id}/fortyfive/hand"

    def start(self, mode: str, **state) -> dict:
        sheet = self.table.sheet(self.match_id)
        self.state = {"version": sheet["version"], "number": sheet["next"]["number"],
                      "mode": mode, **state}
        return self.state

    def send(self, action: str, **extra):
        headers = HTMX if self.htmx else {}
        response = self.table.post(self.url, {**self.state, **extra, "action": action},
                                   headers=headers)
        if is_tap_answer(response):  # without JavaScript: the page that shows the tap
            response = self.table.client.get(response.headers["Location"])
        if response.status_code == 200:
            page = response.get_data(as_text=True)
            for name in ("winners", "cards", "leader"):
                if f'type="hidden" name="{name}"' in page:
                    self.state[name] = hidden(page, name)
        return response

    def tap_winners(self, winners: list[int], bonus) -> object:
        self.start("winners")
        for seat in winners:
            assert self.send(f"tap:{seat}").status_code == 200
        return self.send("save", bonus=bonus)

    def play_cards(self, trump: str, tricks: list[list[str]]):
        self.start("cards", trump=trump)
        for trick in tricks:
            for card in trick:
                response = self.send(f"card:{card[:-1]}", suit=card[-1])
                assert response.status_code == 200, response.get_data(as_text=True)[:2000]
        return self.send("save")

    def side_tricks(self, tricks: list, bonus_side):
        self.start("sides", bonus_side=bonus_side)
        self.state.update({f"side-{c}": t for c, t in enumerate(tricks)})
        return self.send("save")


@pytest.fixture
def match(table):
    return table.new_match("fortyfive", NAMES)


def test_a_match_to_45_with_a_tie_that_plays_on(table, client, app, match):
    ff = FortyFive(table, match)
    sheet = table.sheet(match)
    assert sheet["columns"] == [[0, 2], [1, 3]]
    assert sheet["next"]["info"]["leader"] == 1
    page = client.get(f"/matches/{match}").get_data(as_text=True)
    assert "Anna + Carla" in page and "Bruno + Dario" in page

    # Hand 1, tapping trick winners: Anna and Carla 3 tricks, Bruno 2 with the bonus.
    response = ff.tap_winners([0, 1, 2, 0, 3], bonus=1)
    assert response.status_code == 303
    assert table.sheet(match)["totals"] == [15, 15]

    # Hand 2, tricks per side.
    assert ff.side_tricks([3, 2], bonus_side=1).status_code == 303
    assert table.sheet(match)["totals"] == [30, 30]

    # Hand 3 through the trick helper: both sides reach 45 together, and play goes on.
    winners, bonus = fortyfive.play_tricks(TRUMP, 3, 4, [" ".join(t) for t in HELPER_TRICKS])
    assert (winners, bonus) == ([0, 1, 1, 2, 0], 1)
    response = ff.play_cards(TRUMP, HELPER_TRICKS)
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    sheet = table.sheet(match)
    assert sheet["totals"] == [45, 45]
    assert sheet["status"] == "in progress" and sheet["winners"] == []
    assert sheet["details"]["tie_goes_on"] is True and sheet["details"]["tied"] == [0, 1]
    hand = sheet["hands"][2]
    assert hand["inputs"]["trick_winners"] == winners and hand["inputs"]["bonus_seat"] == 1
    assert "tie at the top: play goes on" in hand["events"]
    stored = table.sheet(match)["hands"][2]["inputs"]
    assert stored["trump"] == TRUMP and stored["leader"] == 3
    assert stored["plays"] == HELPER_TRICKS
    page = client.get(f"/matches/{match}").get_data(as_text=True)
    assert "Tie at the top: play goes on" in page
    assert page.index("Hand 4") < page.index("Tie at the top") < page.index("Score sheet")
    # A phone that only follows the sheet sees the notice too, and no correction links.
    follower = app.test_client().get(f"/matches/{match}").get_data(as_text=True)
    assert "Tie at the top: play goes on" in follower and "/fortyfive/1/edit" not in follower

    # Hand 4 decides: Anna and Carla take four tricks and the bonus.
    assert ff.tap_winners([0, 0, 2, 1, 2], bonus=2).status_code == 303
    sheet = table.sheet(match)
    assert sheet["totals"] == [70, 50]
    assert sheet["status"] == "finished" and sheet["winners"] == [0]
    assert sheet["ranking"][0]["names"] == ["Anna", "Carla"]
    expected = fortyfive.build_sheet(4, [
        {"side_tricks": h["inputs"]["side_tricks"], "bonus_side": h["inputs"]["bonus_side"]}
        for h in sheet["hands"]])
    assert sheet["totals"] == list(expected.totals)
    page = client.get(f"/matches/{match}").get_data(as_text=True)
    assert "Final ranking" in page and "Tie at the top" not in page
    # A finished match takes no more hands.
    ff.state.update(version=sheet["version"], number=5)
    assert ff.send("tap:0").status_code == 409


def test_taps_fill_the_five_slots_and_the_last_can_be_cleared(table, match):
    ff = FortyFive(table, match, htmx=True)
    ff.start("winners")
    for seat in (0, 1, 2):
        response = ff.send(f"tap:{seat}")
    text = response.get_data(as_text=True)
    assert response.status_code == 200
    # htmx swaps the state of the form alone: the buttons stay, quick taps queue up.
    assert text.lstrip().startswith('<div id="ff-state"') and "<html" not in text
    assert 'name="action"' not in text
    assert hidden(text, "winners") == "0,1,2"
    assert text.count('class="filled"') == 3
    text = ff.send("clear").get_data(as_text=True)
    assert hidden(text, "winners") == "0,1"
    for seat in (3, 3, 3, 0):
        text = ff.send(f"tap:{seat}").get_data(as_text=True)
    assert hidden(text, "winners") == "0,1,3,3,3"  # a sixth tap is not taken
    # Bruno took a trick and the best trump: the points are shown before saving.
    text = ff.send("", bonus=1).get_data(as_text=True)
    assert "This hand gives" in text and "+5" in text and "+25" in text
    assert '<div id="ff-preview" class="ff-preview" aria-live="polite" hx-swap-oob="true">' in text
    assert table.sheet(match)["hands"] == []
    response = ff.send("save", bonus=1)
    assert response.status_code == 200 and 'id="live"' in response.get_data(as_text=True)
    assert table.sheet(match)["totals"] == [5, 25]


def test_taps_without_javascript_redraw_the_page(table, client, match):
    ff = FortyFive(table, match)
    ff.start("winners")
    version = table.sheet(match)["version"]
    # The tap is answered with the page whose address carries the hand: a reload posts
    # nothing.
    response = table.post(ff.url, {**ff.state, "action": "tap:2"})
    assert is_tap_answer(response)
    address = response.headers["Location"]
    assert address.startswith(f"/matches/{match}?n=1&") and "winners=2" in address
    for _reload in range(2):
        page = client.get(address).get_data(as_text=True)
        assert "<html" in page and "hx-swap-oob" not in page
        assert hidden(page, "winners") == "2"
    assert table.sheet(match)["hands"] == [] and table.sheet(match)["version"] == version
    # The cards of the trick helper, and a count per side, ride in the address too.
    ff.start("cards", trump="♦")
    page = ff.send("card:A", suit="♣").get_data(as_text=True)
    assert hidden(page, "cards") == "A♣" and "Card played by Carla" in page
    ff.start("sides", **{"side-0": 4})
    page = ff.send("").get_data(as_text=True)
    assert checked(page, "side-1") == "1" and hidden(page, "filled") == "1:1"
    # Once another phone saved the hand, the address shows the next one, blank.
    FortyFive(table, match).tap_winners([0, 1, 2, 0, 1], 0)
    page = client.get(address).get_data(as_text=True)
    assert "Hand 2" in page and hidden(page, "winners") == ""


def test_the_way_of_entering_is_kept_for_the_next_hand(table, client, match):
    page = client.get(f"/matches/{match}?entry=cards").get_data(as_text=True)
    assert "<legend>Trump</legend>" in page and 'name="mode" value="cards"' in page
    page = client.get(f"/matches/{match}?entry=sides", headers=HTMX).get_data(as_text=True)
    assert page.lstrip().startswith('<div id="live"') and 'name="side-1"' in page
    response = FortyFive(table, match).side_tricks([2, 3], bonus_side="none")
    assert response.status_code == 303
    assert response.headers["Location"].endswith("?saved=1&entry=sides#turn")
    assert table.sheet(match)["totals"] == [10, 15]
    htmx = FortyFive(table, match, htmx=True)
    htmx.start("sides", **{"side-0": 5, "side-1": 0, "bonus_side": 0})
    text = htmx.send("save").get_data(as_text=True)
    assert 'name="mode" value="sides"' in text


def checked(page: str, name: str) -> str | None:
    """The value of the checked radio ``name``, None when none is."""
    found = re.search(rf'name="{name}" value="([^"]*)"[^>]*checked', page)
    return found and found.group(1)


def test_the_last_side_count_fills_itself_in(table, app, match):
    # htmx: one side's count gives the other's, in the form that comes back whole.
    ff = FortyFive(table, match, htmx=True)
    ff.start("sides", **{"side-0": 3})
    text = ff.send("").get_data(as_text=True)
    assert text.lstrip().startswith('<form method="post" id="ff-form"')
    assert checked(text, "side-1") == "2" and hidden(text, "filled") == "1:2"
    # The count filled in follows a change of the other; a tapped count stays as tapped.
    text = ff.send("", **{"side-0": 4, "side-1": 2, "filled": "1:2"}).get_data(as_text=True)
    assert checked(text, "side-1") == "1" and hidden(text, "filled") == "1:1"
    text = ff.send("", **{"side-0": 4, "side-1": 0, "filled": "1:1"}).get_data(as_text=True)
    assert checked(text, "side-1") == "0" and hidden(text, "filled") == ""
    assert "The tricks add up to 4" not in text  # no bonus chosen yet: no preview
    assert count(app, Change) == 0
    # Without JavaScript, Save fills it in: one count, the bonus, Save.
    plain = FortyFive(table, match)
    plain.start("sides", **{"side-1": 4, "bonus_side": 0})
    assert plain.send("save").status_code == 303
    assert table.sheet(match)["hands"][0]["inputs"]["side_tricks"] == [1, 4]
    # Three players alone: two counts give the third.
    solo = table.new_match("fortyfive", NAMES[:3])
    ff = FortyFive(table, solo)
    ff.start("sides", **{"side-0": 2, "side-2": 0})
    page = ff.send("").get_data(as_text=True)
    assert checked(page, "side-1") == "3"
    assert ff.send("save", bonus_side=1, **{"side-1": 3}).status_code == 303
    assert table.sheet(solo)["totals"] == [10, 20, 0]


def test_the_trick_helper_names_winners_and_the_best_trump(table, match):
    ff = FortyFive(table, match, htmx=True)
    ff.start("cards", trump="♦")
    text = ff.send("card:A", suit="♣").get_data(as_text=True)  # Bruno leads
    assert "Card played by Carla" in text and "No trump played so far" in text
    for card in ("2♣", "A♥", "K♣"):
        text = ff.send(f"card:{card[:-1]}", suit=card[-1]).get_data(as_text=True)
    # The A♥ is a trump whatever the trump suit: Dario took the trick with it, and leads.
    assert "→ Dario" in text and "Best trump so far:" in text and "A♥" in text
    assert "taken by Dario" in text and "Card played by Dario" in text
    assert hidden(text, "cards") == "A♣ 2♣ A♥ K♣"
    text = ff.send("uncard").get_data(as_text=True)
    assert hidden(text, "cards") == "A♣ 2♣ A♥" and "Card played by Anna" in text
    assert "taken by" not in text
    # A card played already is refused, naming who would play it.
    response = ff.send("card:A", suit="♥")
    assert response.status_code == 422
    assert "Anna: The card A♥ is played twice." in response.get_data(as_text=True)
    assert table.sheet(match)["hands"] == []


@pytest.mark.parametrize(("tap", "message"), [
    (("card:K", "♣"), "Dario: The card K♣ is played twice."),
    (("card:11", "♣"), "Dario: Unknown card"),
    (("card:*", "♣"), "Dario: Unknown card"),
    (("card:K", ""), "Dario: choose the suit of the card."),
])
def test_bad_cards_in_the_helper_are_refused(table, app, match, tap, message):
    ff = FortyFive(table, match, htmx=True)
    ff.start("cards", trump="♠")
    for card in ("K♣", "2♣"):  # Bruno, then Carla
        ff.send(f"card:{card[:-1]}", suit=card[-1])
    before = count(app, Change)
    action, suit = tap
    response = ff.send(action, suit=suit)
    text = response.get_data(as_text=True)
    assert response.status_code == 422
    assert message in text.replace("&#39;", "'")
    assert hidden(text, "cards") == "K♣ 2♣"  # the hand so far is kept
    assert count(app, Change) == before


def test_the_helper_needs_a_trump_and_five_tricks(table, app, match):
    ff = FortyFive(table, match)
    ff.start("cards")
    response = ff.send("card:K", suit="♣")
    assert response.status_code == 422 and "Choose the trump suit first" in \
        response.get_data(as_text=True)
    ff.start("cards", trump="♥")
    for card in HELPER_TRICKS[0]:
        ff.send(f"card:{card[:-1]}", suit=card[-1])
    response = ff.send("save")
    assert response.status_code == 422
    assert "Give 5 tricks: 1 given." in response.get_data(as_text=True)
    # A forged card in the carried state is refused too, and the entry starts afresh.
    ff.state["cards"] = "K♣ K♣"
    assert ff.send("").status_code == 422
    assert count(app, Change) == 0


@pytest.mark.parametrize(("mode", "state", "message"), [
    ("winners", {"winners": "0,1,2,3", "bonus": 1}, "Give 5 trick winners: 4 given."),
    ("winners", {"winners": "0,0,1,1,2", "bonus": 3},
     "Dario: took no trick and cannot have the bonus."),
    ("winners", {"winners": "0,0,1,1,2"}, "Say who won the bonus trick"),
    ("winners", {"winners": "0,0,1,1,9", "bonus": 1}, "trick winner must be a seat"),
    ("sides", {"side-0": 3, "side-1": 1, "bonus_side": 0}, "The tricks add up to 4"),
    ("sides", {"side-0": 5, "side-1": 0, "bonus_side": 1},
     "Bruno + Dario: took no trick and cannot have the bonus."),
    ("sides", {"side-0": "x", "side-1": 2, "bonus_side": 1},
     "Anna + Carla: the tricks must be a whole number."),
    ("sides", {"side-0": 6, "side-1": 0, "bonus_side": 0},
     "Anna + Carla: the tricks must be from 0 to 5."),
    ("sides", {"side-0": 3, "side-1": 2}, "Say which side won the bonus trick"),
])
def test_refusals_store_nothing(table, app, match, mode, state, message):
    ff = FortyFive(table, match)
    ff.start(mode, **state)
    before = count(app, Change)
    response = ff.send("save")
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert count(app, Change) == before and table.sheet(match)["hands"] == []


def test_a_bonus_for_a_player_without_a_trick_is_shown_before_saving(table, match):
    ff = FortyFive(table, match, htmx=True)
    ff.start("winners", winners="0,0,1,1,2", bonus=3)
    text = ff.send("").get_data(as_text=True)
    assert "Dario: took no trick and cannot have the bonus." in text


def test_a_stale_form_is_refused_over_the_whole_sheet(table, match):
    ff = FortyFive(table, match, htmx=True)
    ff.start("winners")
    FortyFive(table, match).side_tricks([3, 2], bonus_side=0)
    response = ff.send("tap:0")
    assert response.status_code == 409
    assert response.headers["HX-Retarget"] == "#live"
    assert "Hand 1: your entry was not saved: another phone saved it first." \
        in response.get_data(as_text=True)


def test_correcting_a_past_hand(table, client, match):
    ff = FortyFive(table, match)
    ff.tap_winners([0, 1, 2, 0, 3], bonus=1)
    ff.side_tricks([1, 4], bonus_side=1)
    assert table.sheet(match)["totals"] == [20, 40]
    page = client.get(f"/matches/{match}").get_data(as_text=True)
    assert f'href="/matches/{match}/fortyfive/1/edit"' in page
    page = client.get(f"/matches/{match}/fortyfive/1/edit").get_data(as_text=True)
    assert "Correct hand 1" in page and hidden(page, "winners") == "0,1,2,0,3"
    assert 'name="bonus" value="1" checked' in page

    edit = f"/matches/{match}/fortyfive/1/edit"
    version = table.sheet(match)["version"]
    state = {"version": version, "number": 1, "mode": "winners", "winners": "0,1,2,0",
             "bonus": 1}
    response = table.post(edit, {**state, "action": "tap:2"})
    assert is_tap_answer(response) and response.headers["Location"].startswith(f"{edit}?n=1")
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert hidden(page, "winners") == "0,1,2,0,2" and "Correct hand 1" in page
    # Checked like an entry: Dario took no trick.
    response = table.post(edit, {**state, "winners": "0,1,2,0,2", "bonus": 3,
                                 "action": "save"})
    assert response.status_code == 422
    assert "Dario: took no trick" in response.get_data(as_text=True)
    response = table.post(edit, {**state, "winners": "0,1,2,0,2", "action": "save"})
    assert response.status_code == 303
    sheet = table.sheet(match)
    assert sheet["totals"] == [20 + 5, 40 - 5]
    assert sheet["hands"][0]["inputs"]["trick_winners"] == [0, 1, 2, 0, 2]

    # A hand entered by side counts is corrected with the trick helper's cards.
    page = client.get(f"{edit.replace('/1/', '/2/')}?entry=cards").get_data(as_text=True)
    assert 'name="mode" value="cards"' in page
    helper = f"/matches/{match}/fortyfive/2/edit"
    state = {"version": table.sheet(match)["version"], "number": 2, "mode": "cards",
             "trump": TRUMP, "leader": 2,
             "cards": " ".join(" ".join(t) for t in HELPER_TRICKS)}
    assert table.post(helper, {**state, "action": "save"}).status_code == 303
    hand = table.sheet(match)["hands"][1]
    assert hand["inputs"]["leader"] == 2 and hand["inputs"]["plays"] == HELPER_TRICKS
    assert client.get(f"/matches/{match}/fortyfive/3/edit").status_code == 404


def test_jink_wins_at_once_and_three_pairs_are_shown(table, client):
    match = table.new_match("fortyfive", NAMES, jink=True)
    assert FortyFive(table, match).side_tricks([0, 5], bonus_side=1).status_code == 303
    sheet = table.sheet(match)
    assert sheet["status"] == "finished" and sheet["winners"] == [1]
    page = client.get(f"/matches/{match}").get_data(as_text=True)
    assert "Won by jink" in page
    six = table.new_match("fortyfive", NAMES + ["Elena", "Fabio"], three_pairs=True,
                          target=120)
    page = client.get(f"/matches/{six}").get_data(as_text=True)
    assert "Anna + Dario" in page and "Carla + Fabio" in page and "Target: 120." in page


def test_the_pdf_says_a_match_was_won_by_jink(table, client):
    """The notice above the sheet (the game's match_notice) is printed too."""
    match = table.new_match("fortyfive", NAMES, jink=True)
    assert FortyFive(table, match).side_tricks([0, 5], bonus_side=1).status_code == 303
    text, _pages, _each = pdf_text(client.get(f"/matches/{match}.pdf"))
    assert "Won by jink: all five tricks in one hand." in text


def test_players_alone_tap_their_own_tricks(table, client):
    match = table.new_match("fortyfive", NAMES[:3], first_dealer=2)
    page = client.get(f"/matches/{match}?entry=sides").get_data(as_text=True)
    assert "Tricks per player" in page and " against " not in page
    assert FortyFive(table, match).tap_winners([0, 0, 1, 2, 2], bonus="none").status_code == 303
    sheet = table.sheet(match)
    assert sheet["totals"] == [10, 5, 10] and "no trump played" in sheet["hands"][0]["events"]


def test_other_games_do_not_answer_here(table, client):
    other = table.new_match("cavallore", ["Anna"])
    assert client.get(f"/matches/{other}/fortyfive/1/edit").status_code == 404
    assert table.post(f"/matches/{other}/fortyfive/hand", {"version": 0}).status_code == 404


def stored_hand_numbers(app, match_id: str) -> list[int]:
    """The numbers of the match's hands as the database holds them, read cold."""
    with app.app_context():
        return list(db.session.scalars(
            select(Hand.number).where(Hand.match_id == match_id).order_by(Hand.number)))


def test_a_hand_saved_after_a_refusal_is_stored(table, app):
    # Two players alone: a bonus for a player with no trick is refused, then the hand
    # entered legally is stored, not only shown (the refusal once left the worker's
    # stored hands holding the refused hand).
    match = table.new_match("fortyfive", NAMES[:2])
    ff = FortyFive(table, match)
    refused = ff.side_tricks([5, 0], bonus_side=1)
    assert refused.status_code == 422
    assert stored_hand_numbers(app, match) == []
    assert ff.side_tricks([3, 2], bonus_side=0).status_code == 303
    assert stored_hand_numbers(app, match) == [1]
    assert len(table.sheet(match)["hands"]) == 1
    # The next legal hand too, entered after a refused one through the trick winners.
    assert ff.tap_winners([0, 1, 0, 1, 1], bonus=0).status_code == 303
    assert stored_hand_numbers(app, match) == [1, 2]
    # A second server on the same database, with caches of its own, shows the same sheet.
    other = migrated_app(app.config["SQLALCHEMY_DATABASE_URI"])
    cold = other.test_client().get(f"/matches/{match}.json").get_json()
    assert cold["totals"] == table.sheet(match)["totals"] == [35, 25]
