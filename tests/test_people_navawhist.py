"""People who come and go in Navawhist and Cavallo Re, through the web: a Navawhist evening
of three where Dario joins at hand 3, Bruno and Carla sit out and come back, Elena takes
Anna's seat and Carla goes home, with a correction and an undo in between; every total is
computed here from docs/rules.md, every page of the match answers, and refused changes store
nothing. A Cavallo Re log that takes a second player half-way."""

from __future__ import annotations

import re

from scorekeeper.db import db
from scorekeeper.engine.sheets import stored_hands
from scorekeeper.models import Match
from tests.conftest import pdf_text
from tests.test_cavallore_web import add
from tests.test_people_web import change, step

HTMX = {"HX-Request": "true"}
NAMES = ["Anna", "Bruno", "Carla"]
TABLE_OF_3 = [*range(1, 17), 16, 16]  # docs/rules.md, Navawhist: cards per hand for 3


def hand_points(cards: int, bids: dict[int, int], tricks: dict[int, int]) -> dict[int, int]:
    """docs/rules.md, Navawhist, among the seats dealt in: case 4 when nobody is within one (the
    closest score cards - error, the rest 0), else exact cards + bid, off by one 0, off by
    more -(cards + error)."""
    errors = {seat: abs(tricks[seat] - bid) for seat, bid in bids.items()}
    if all(error >= 2 for error in errors.values()):
        best = min(errors.values())
        return {seat: cards - error if error == best else 0 for seat, error in errors.items()}
    return {seat: cards + bids[seat] if error == 0 else 0 if error == 1 else -(cards + error)
            for seat, error in errors.items()}


def text_of(response) -> str:
    """A page's words, tags out."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


class Evening:
    """What the table knows without the app: who sits where, who is dealt in, who dealt
    last and every seat's total (None before a seat joins)."""

    def __init__(self) -> None:
        self.order = [0, 1, 2]
        self.out: set[int] = set()
        self.left: set[int] = set()
        self.totals: list[int | None] = [0, 0, 0]
        self.dealer: int | None = None
        self.hands = 0

    def dealt_in(self) -> list[int]:
        return [s for s in self.order if s not in self.out and s not in self.left]

    def next_dealer(self) -> int:
        """docs/rules.md, decided case 8: the first seat dealt in after the last dealer."""
        if self.dealer is None:
            return 0
        start = self.order.index(self.dealer) + 1
        turn = self.order[start:] + self.order[:start]
        return next(s for s in turn if s in self.dealt_in())

    def bidding_order(self) -> list[int]:
        """The seats dealt in from the one after the dealer, the dealer last (case 13)."""
        dealt, dealer = self.dealt_in(), self.next_dealer()
        start = dealt.index(dealer) + 1
        return dealt[start:] + dealt[:start]

    def cards(self, number: int) -> int:
        """The table's cards for hand ``number``, capped at what 52 cards give the players
        dealt in (decided cases 10 to 12)."""
        return min(TABLE_OF_3[number - 1], 52 // len(self.dealt_in()))

    def join(self) -> int:
        """A joiner's entry total: the lowest of those still playing (sitters count)."""
        entry = min(self.totals[s] for s in self.order if s not in self.left)
        self.order.append(len(self.totals))
        self.totals.append(entry)
        return entry


def play(table, match_id: str, evening: Evening, bids: dict[int, int],
         tricks: dict[int, int]) -> None:
    """One hand as the table plays it: the bids in the bidding order the rules give, then
    the tricks of the seats dealt in; the totals then compared with docs/rules.md's."""
    number = evening.hands + 1
    cards = evening.cards(number)
    sheet = table.sheet(match_id)
    nxt = sheet["next"]
    assert nxt["number"] == number
    assert nxt["dealer"] == evening.next_dealer()
    assert nxt["seats"] == evening.dealt_in()
    assert nxt["info"]["order"] == evening.bidding_order()
    assert nxt["info"]["cards"] == cards
    assert sorted(bids) == sorted(evening.dealt_in()) and sum(bids.values()) != cards
    for seat in evening.bidding_order():
        response = table.bid(match_id, bids[seat], seat=seat)
        assert response.status_code == 303, text_of(response)[-1500:]
    response = table.tricks(match_id, [tricks.get(s, "") for s in range(len(evening.totals))])
    assert response.status_code == 303, text_of(response)[-1500:]
    for seat, points in hand_points(cards, bids, tricks).items():
        evening.totals[seat] += points
    evening.dealer, evening.hands = evening.next_dealer(), number
    sheet = table.sheet(match_id)
    assert sheet["totals"] == evening.totals
    stored = sheet["hands"][-1]["inputs"]
    assert stored["cards"] == cards
    assert stored["bids"] == [bids.get(s) for s in range(len(evening.totals))]
    assert stored["tricks"] == [tricks.get(s) for s in range(len(evening.totals))]


def text_of_html(html: str) -> str:
    """Some HTML's words, tags out."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def refused(table, match_id: str, action: str, name: str, **fields) -> str:
    """A change the rules refuse: 422, a message naming ``name``, nothing stored."""
    version = table.sheet(match_id)["version"]
    response = change(table, match_id, action, **fields)
    assert response.status_code == 422
    page = text_of(response)
    assert table.sheet(match_id)["version"] == version
    message = re.search(r'class="alert[^"]*"[^>]*>(.*?)</', response.get_data(as_text=True), re.S)
    assert message is not None and name in message.group(1), page[:2000]
    return message.group(1)


def test_a_navawhist_evening_where_people_come_and_go(table, app):
    match_id = table.new_match("navawhist", NAMES)
    evening = Evening()
    play(table, match_id, evening, {1: 0, 2: 0, 0: 0}, {0: 1, 1: 0, 2: 0})
    play(table, match_id, evening, {2: 0, 0: 1, 1: 0}, {0: 1, 1: 0, 2: 1})

    # Dario arrives after hand 2: last in the turn order, with the lowest total.
    entry = evening.join()
    assert change(table, match_id, "join", name="Dario").status_code == 303
    before_3 = list(evening.totals)
    assert table.sheet(match_id)["totals"] == before_3 == [*before_3[:3], entry]
    play(table, match_id, evening, {3: 1, 0: 1, 1: 0, 2: 0}, {3: 1, 0: 2, 1: 0, 2: 0})
    after_3 = list(evening.totals)

    # Undo hand 3 (the join stays, Dario with his entry total); redo puts it back.
    assert step(table, match_id, "undo").status_code == 303
    assert table.sheet(match_id)["totals"] == before_3
    assert step(table, match_id, "redo").status_code == 303
    assert table.sheet(match_id)["totals"] == after_3

    # Bruno sits out hand 4: dealt to the other three, the deal passes to Dario.
    assert change(table, match_id, "sit_out", seat=1).status_code == 303
    evening.out.add(1)
    # A bid through htmx: its keys offer the three dealt in, in their bidding order.
    order = evening.bidding_order()
    answer = table.bid(match_id, 2, seat=order[0], headers=HTMX)
    assert answer.status_code == 200
    bids_list = re.search(r'<ol class="bids".*?</ol>', answer.get_data(as_text=True), re.S)
    assert [NAMES[s] if s < 3 else "Dario" for s in order] == re.findall(
        r'class="bidder-name">([^<]+)<', bids_list.group(0))
    assert step(table, match_id, "undo").status_code == 303
    play(table, match_id, evening, {0: 2, 2: 1, 3: 0}, {0: 2, 2: 1, 3: 1})

    # Carla sits out too: two are dealt in, so Dario may not sit out as well.
    assert change(table, match_id, "sit_out", seat=2).status_code == 303
    evening.out.add(2)
    refused(table, match_id, "sit_out", "Dario", seat=3)
    # Hand 5 is Anna's and Dario's, 5 cards each: both off by two or more (case 4).
    play(table, match_id, evening, {3: 0, 0: 0}, {0: 3, 3: 2})

    # Bruno and Carla come back; Elena plays Anna's seat from hand 6.
    for seat in (1, 2):
        assert change(table, match_id, "back", seat=seat).status_code == 303
        evening.out.discard(seat)
    assert change(table, match_id, "substitute", seat=0, name="Elena").status_code == 303
    turn = text_of(table.client.get(f"/matches/{match_id}"))
    assert "Carla bids:" in turn and "Dealer: Bruno" in turn
    play(table, match_id, evening, {2: 1, 3: 2, 0: 0, 1: 2}, {2: 1, 3: 2, 0: 0, 1: 3})

    # The cards of the hands to come: the table's, capped at 52 / 4 = 13 from hand 14.
    details = table.sheet(match_id)["details"]
    evening_cards = [evening.cards(n) for n in range(1, 19)]
    assert details["schedule"][6:] == evening_cards[6:]
    assert details["schedule"][13:] == [13] * 5

    # Hand 1 was played before Dario came: its correction has no place for him.
    form = table.client.get(f"/matches/{match_id}/navawhist/1/edit").get_data(as_text=True)
    assert 'name="values-2"' in form and 'name="values-3"' not in form
    # Hand 4 corrected: its form offers the three dealt in, and Bruno's entries stay None.
    form = table.client.get(f"/matches/{match_id}/navawhist/4/edit").get_data(as_text=True)
    assert 'name="bids-1"' not in form and 'name="values-1"' not in form
    assert all(f'name="values-{s}"' in form for s in (0, 2, 3))
    response = table.post(f"/matches/{match_id}/navawhist/4/edit", {
        "version": table.sheet(match_id)["version"], "number": 4, "trump": "",
        "bids-0": 2, "bids-2": 1, "bids-3": 0, "values-0": 2, "values-2": 2, "values-3": 0,
        "bids-1": 3, "values-1": 3})
    assert response.status_code == 303, text_of(response)[-1500:]
    was = hand_points(4, {0: 2, 2: 1, 3: 0}, {0: 2, 2: 1, 3: 1})
    now = hand_points(4, {0: 2, 2: 1, 3: 0}, {0: 2, 2: 2, 3: 0})
    for seat in (0, 2, 3):
        evening.totals[seat] += now[seat] - was[seat]
    sheet = table.sheet(match_id)
    assert sheet["totals"] == evening.totals
    assert sheet["hands"][3]["inputs"]["bids"] == [2, None, 1, 0]
    with app.app_context():
        hand = stored_hands(db.session.get(Match, match_id))[3]
        assert hand["bids"][1] is None and hand["tricks"][1] is None
        assert len(hand["bids"]) == len(db.session.get(Match, match_id).seats)

    # Carla goes home after hand 6: the deal passes over her seat.
    assert change(table, match_id, "leave", seat=2).status_code == 303
    evening.left.add(2)
    assert "Elena bids:" in text_of(table.client.get(f"/matches/{match_id}"))  # Anna's seat
    assert "Elena bids:" in text_of(table.client.get(f"/matches/{match_id}/screen"))
    play(table, match_id, evening, {0: 2, 1: 2, 3: 2}, {0: 2, 1: 2, 3: 3})
    ranking = table.sheet(match_id)["ranking"]
    assert ranking[-1]["seats"] == [2]  # a leaver ranks below those still playing

    # While hand 8 has a bid, nobody sits out: refused naming the player.
    assert table.bid(match_id, 1, seat=evening.bidding_order()[0]).status_code == 303
    refused(table, match_id, "sit_out", "Bruno", seat=1)

    # Every page answers, and shows the join, the sit-outs and the leaver.
    marks = [f"Dario joins at hand 3 with {entry}", "Bruno sits out hands 4-5",
             "Carla sits out hand 5", "Elena plays for Anna from hand 6",
             "Carla leaves after hand 6"]
    page = table.client.get(f"/matches/{match_id}")
    assert page.status_code == 200
    words = text_of(page)
    assert all(mark in words for mark in marks), words[-3000:]
    hand_4 = re.search(r'id="hand-4".*?</tr>', page.get_data(as_text=True), re.S).group(0)
    assert hand_4.count('class="absent">out<') == 1
    hand_1 = re.search(r'id="hand-1".*?</tr>', page.get_data(as_text=True), re.S).group(0)
    assert re.findall(r"<td[^>]*>(.*?)</td>", hand_1, re.S)[-1].strip() == ""  # Dario's
    names = re.search(r'id="names-row".*?</tr>', page.get_data(as_text=True), re.S).group(0)
    assert "left" in text_of_html(names) and "Elena" in names
    live = table.client.get(f"/matches/{match_id}/live")
    assert live.status_code == 200 and "Carla leaves after hand 6" in text_of(live)
    text, _pages, _ = pdf_text(table.client.get(f"/matches/{match_id}.pdf"))
    flat = re.sub(r"\s+", " ", text)
    assert all(mark in flat for mark in marks), flat
    # The printed row of hand 4: Bruno's cell says "out"; nobody's cell is ever "None".
    assert re.search(r"^\s*4\s+4\s+Dario\s+2/2\s+\+?6\s+\S+\s+out\s", text, re.M), text
    assert "None" not in text
    csv = table.client.get(f"/matches/{match_id}.csv")
    assert csv.status_code == 200
    lines = csv.get_data(as_text=True).splitlines()
    assert lines[4].split(",")[:6] == ["4", "Dario", "2", "", "1", "0"]
    assert table.client.get(f"/matches/{match_id}.json").status_code == 200
    for url in ("history", "players", "share", "screen"):
        assert table.client.get(f"/matches/{match_id}/{url}").status_code == 200
    with app.app_context():
        table_id = db.session.get(Match, match_id).table_id
    assert table.client.get(f"/tables/{table_id}/stats").status_code == 200


def test_a_hand_saved_through_htmx_beside_a_seat_sitting_out(table):
    match_id = table.new_match("navawhist", NAMES + ["Dario"])
    table.play_navawhist(match_id, [1, 0, 1, 0], [1, 0, 0, 0])
    assert change(table, match_id, "sit_out", seat=2).status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["next"]["seats"] == [0, 1, 3]
    for seat in sheet["next"]["info"]["order"]:
        assert table.bid(match_id, 0, seat=seat).status_code == 303
    answer = table.tricks(match_id, [2, "", "", ""], headers=HTMX)
    assert answer.status_code == 200, text_of(answer)[-1500:]
    saved = re.search(r'id="hand-2".*?</tr>', answer.get_data(as_text=True), re.S).group(0)
    assert saved.count('class="absent">out<') == 1
    # The tricks left went to the last seat dealt in, none to the seat sitting out.
    assert table.sheet(match_id)["hands"][1]["inputs"]["tricks"] == [2, 0, None, 0]


def test_a_cavallore_log_that_takes_a_player_half_way(table, app):
    match_id = table.new_match("cavallore", ["Anna"])
    assert add(table, match_id, 36).status_code == 303
    assert add(table, match_id, 20).status_code == 303
    assert change(table, match_id, "join", name="Bea").status_code == 303
    page = text_of(table.client.get(f"/matches/{match_id}"))
    assert "Deal 3 · Bea" in page  # the deal after Anna's is Bea's
    assert add(table, match_id, 30, seat=1).status_code == 303
    assert add(table, match_id, 36, seat=1).status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["totals"] == [1, 1]
    assert [h["inputs"]["seat"] for h in sheet["hands"]] == [0, 0, 1, 1]
    assert sheet["hands"][0]["points"] == [36, None]
    stats = sheet["details"]["statistics"]
    assert (stats[1]["deals"], stats[1]["wins"], stats[1]["placed"]) == (2, 1, 66)
    log = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Bea joins at hand 3 with 0" in text_of_html(log)
    deal_4 = re.search(r'id="deal-4".*?</tr>', log, re.S).group(0)
    assert "Bea" in deal_4
    text, _pages, _ = pdf_text(table.client.get(f"/matches/{match_id}.pdf"))
    assert "Bea joins at hand 3 with 0" in re.sub(r"\s+", " ", text)
    with app.app_context():
        table_id = db.session.get(Match, match_id).table_id
    for url in (f"/matches/{match_id}.csv", f"/matches/{match_id}/live",
                f"/matches/{match_id}/cavallore/3/edit", f"/tables/{table_id}/stats"):
        assert table.client.get(url).status_code == 200
