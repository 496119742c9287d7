"""Results the other side accepts (docs/operating.md): a tournament's option under which a
hand saved at a table is provisional until another player there accepts it, on another phone
or on the phone that saved it, handed over. Played through the forms."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from .conftest import Table
from .test_tournaments_web import NAVA, Organiser, ok, table_phone

CHANGE = re.compile(r'id="review-(\d+)".*?name="change" value="(\d+)"', re.S)


def save_game(phone: Table, values: dict[int, int], closer: int = 0, number: int | None = None,
              **kwargs: Any):
    """Save Quarantotto game ``number`` (the next when None), or correct it."""
    sheet = phone.sheet(phone.match_id)
    data = {"version": sheet["version"], "action": "save", "closer": closer,
            "number": number or sheet["next"]["number"]}
    data.update({f"values-{seat}": value for seat, value in values.items()})
    url = f"/matches/{phone.match_id}/quarantotto/" + (f"{number}/edit" if number else "game")
    return ok(phone.post(url, data, **kwargs))


def page(phone: Table, address: str | None = None) -> str:
    return ok(phone.client.get(address or f"/matches/{phone.match_id}"), 200).get_data(
        as_text=True)


def changes(text: str) -> dict[int, str]:
    """The change each provisional hand's forms name, by hand number."""
    return {int(n): c for n, c in CHANGE.findall(text)}


def evening(app: Flask, accept: bool = True) -> tuple[Organiser, str, Table, Table]:
    """A Quarantotto evening of 8, one round of one game: table 1's two phones."""
    organiser = Organiser(app.test_client(), app)
    fields = {"accept": "y"} if accept else {}
    tournament_id = organiser.create("quarantotto", NAVA[:8], rounds=1, opt_games=3, **fields)
    links = organiser.seat(tournament_id)
    return organiser, tournament_id, table_phone(app, links[0]), table_phone(app, links[0])


def test_without_the_option_a_hand_counts_at_once(app: Flask) -> None:
    organiser, tournament_id, keeper, _other = evening(app, accept=False)
    # The option is on the new-tournament form, off unless ticked.
    form = page(organiser, f"/tables/{organiser.table_id}/tournaments/new")
    box = re.search(r'<input[^>]*name="accept"[^>]*>', form).group(0)
    assert 'type="checkbox"' in box and "checked" not in box
    assert "Results the other side accepts: a hand saved at a table counts once another " \
        "player there accepts it" in form
    assert "Results the other side accepts" not in page(organiser, f"/tournaments/{tournament_id}")
    save_game(keeper, {1: 30, 2: 12, 3: 7})
    assert "provisional" not in page(keeper)
    refused = ok(keeper.post(f"/matches/{keeper.match_id}/hands/1/review",
                             {"verdict": "accept", "change": 1, "name": "Ada"}), 422)
    assert "This match’s hands are not accepted one by one." in refused.get_data(as_text=True)
    assert "to accept" not in page(organiser, f"/tournaments/{tournament_id}/standings")
    assert "Accepted only" not in page(organiser, f"/tournaments/{tournament_id}/standings")


def test_a_hand_accepted_by_the_other_phone_or_handed_over(app: Flask) -> None:
    organiser, tournament_id, keeper, other = evening(app)
    standings = f"/tournaments/{tournament_id}/standings"
    assert "Results the other side accepts" in page(organiser, f"/tournaments/{tournament_id}")
    save_game(keeper, {1: 30, 2: 12, 3: 7})
    # The keeper's sheet marks game 1 provisional and offers to hand the phone over.
    text = page(keeper)
    assert "provisional: 1 hand to accept" in text and "◷" in text
    assert '<span class="visually-hidden">provisional</span>' in text
    assert "Hand it over to accept" in text and "Accept hand 1 as …" in text
    assert 'value="accept">Accept hand 1</button>' not in text
    assert "provisional: 1 hand to accept" in page(organiser, standings)
    assert "provisional: 1 hand to accept" in page(organiser, f"/matches/{keeper.match_id}/screen")
    state = organiser.state(tournament_id)
    assert state["accept"] is True and state["rounds"][0]["tables"][0]["provisional"] == 1
    # The other phone at the table accepts it in one tap.
    text = page(other)
    assert 'value="accept">Accept hand 1</button>' in text
    assert "Hand it over to accept" not in text
    change = changes(text)[1]
    version = keeper.sheet(keeper.match_id)["version"]
    answer = ok(other.post(f"/matches/{other.match_id}/hands/1/review",
                           {"verdict": "accept", "change": change},
                           headers={"HX-Request": "true"}), 200).get_data(as_text=True)
    assert "Hand 1 accepted." in answer and 'id="announce"' in answer
    # The keeper's phone hears of it with its next poll, in its notice and live region.
    polled = ok(keeper.client.get(f"/matches/{keeper.match_id}/live?since={version}",
                                  headers={"HX-Request": "true"}), 200).get_data(as_text=True)
    assert polled.count("Hand 1 accepted.") == 2
    assert "to accept" not in page(keeper) and "to accept" not in page(organiser, standings)
    # Game 2, handed over on the keeper's phone: who accepts is named first.
    save_game(keeper, {0: 20, 2: 5, 3: 9}, closer=1)
    change = changes(page(keeper))[2]
    url = f"/matches/{keeper.match_id}/hands/2/review"
    refused = ok(keeper.post(url, {"verdict": "accept", "change": change}), 422)
    assert "Say which player accepts or rejects hand 2: this phone saved it." in \
        refused.get_data(as_text=True)
    names = [p["name"] for p in keeper.sheet(keeper.match_id)["players"]]
    stranger = ok(keeper.post(url, {"verdict": "accept", "change": change, "name": "Zed"}), 422)
    assert "Zed does not play this match: choose a player of hand 2." in \
        stranger.get_data(as_text=True)
    ok(keeper.post(url, {"verdict": "accept", "change": change, "name": names[1]}))
    assert "to accept" not in page(keeper)


def test_a_rejected_hand_goes_back_and_a_correction_is_accepted_again(app: Flask) -> None:
    organiser, tournament_id, keeper, other = evening(app)
    save_game(keeper, {1: 30, 2: 12, 3: 7})
    names = [p["name"] for p in keeper.sheet(keeper.match_id)["players"]]
    change = changes(page(other))[1]
    # A note too long is refused, naming who wrote it; nothing stored.
    long = ok(other.post(f"/matches/{other.match_id}/hands/1/review",
                         {"verdict": "reject", "change": change, "name": names[2],
                          "note": "x" * 201}), 422).get_data(as_text=True)
    assert f"{names[2]}’s note is too long: at most 200 characters." in long
    ok(other.post(f"/matches/{other.match_id}/hands/1/review",
                  {"verdict": "reject", "change": change, "name": names[2],
                   "note": "it was 13"}))
    text = page(keeper)
    assert f"{names[2]} rejected hand 1: “it was 13”" in text
    assert f'href="/matches/{keeper.match_id}/quarantotto/1/edit">Correct hand 1</a>' in text
    assert "provisional: 1 hand to accept" in text
    # The keeper corrects it: provisional still, under a new change; the stale verdict on
    # the hand as first saved is refused.
    save_game(keeper, {1: 30, 2: 13, 3: 7}, number=1)
    text = page(other)
    assert "rejected hand 1" not in text and changes(text)[1] != change
    stale = ok(other.post(f"/matches/{other.match_id}/hands/1/review",
                          {"verdict": "accept", "change": change}), 409)
    assert "Hand 1 changed meanwhile (corrected, or accepted on another phone): nothing was " \
        "stored" in stale.get_data(as_text=True)
    ok(other.post(f"/matches/{other.match_id}/hands/1/review",
                  {"verdict": "accept", "change": changes(text)[1]}))
    assert "to accept" not in page(keeper)
    # A correction after the acceptance makes it provisional again.
    save_game(keeper, {1: 31, 2: 13, 3: 7}, number=1)
    assert "provisional: 1 hand to accept" in page(other)
    assert "provisional: 1 hand to accept" in page(
        organiser, f"/tournaments/{tournament_id}/standings")


def points(text: str) -> list[str]:
    """The overall standings' rows as text, in order."""
    table = text.split("Overall", 1)[1].split("</table>", 1)[0]
    return [re.sub(r"<[^>]+>|\s+", " ", row).strip()
            for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)][1:]


def test_accepted_only_standings_count_up_to_the_first_provisional_hand(app: Flask) -> None:
    organiser, tournament_id, keeper, other = evening(app)
    save_game(keeper, {1: 30, 2: 12, 3: 7})
    ok(other.post(f"/matches/{other.match_id}/hands/1/review",
                  {"verdict": "accept", "change": changes(page(other))[1]}))
    save_game(keeper, {0: 50, 2: 40, 3: 45}, closer=1)  # game 2 turns the table around
    standings = f"/tournaments/{tournament_id}/standings"
    every, accepted = page(organiser, standings), page(organiser, f"{standings}?accepted=1")
    assert 'aria-current="page">Accepted only' in accepted
    assert 'aria-current="page">Every saved hand' in every
    assert points(every) != points(accepted)
    # Once game 2 is accepted too, both count the same hands.
    ok(other.post(f"/matches/{other.match_id}/hands/2/review",
                  {"verdict": "accept", "change": changes(page(other))[2]}))
    assert points(page(organiser, standings)) == points(
        page(organiser, f"{standings}?accepted=1"))


def test_the_italian_words(app: Flask) -> None:
    _organiser, _tournament_id, keeper, _other = evening(app)
    save_game(keeper, {1: 30, 2: 12, 3: 7})
    text = ok(keeper.client.get(f"/matches/{keeper.match_id}",
                                headers={"Accept-Language": "it"}), 200).get_data(as_text=True)
    assert "provvisoria: 1 mano da accettare" in text and "Passa il telefono per accettare" in text


CONFIRM = re.compile(r'name="confirm" value="([^"]+)"')


def test_closing_the_round_with_hands_to_accept_asks_first(app: Flask) -> None:
    organiser, tournament_id, keeper, other = evening(app)
    for number, closer in ((1, 0), (2, 1), (3, 2)):
        save_game(keeper, {s: 10 + s for s in range(4) if s != closer}, closer=closer)
        if number < 3:
            ok(other.post(f"/matches/{other.match_id}/hands/{number}/review", {
                "verdict": "accept", "change": changes(page(other))[number]}))
    # Table 1 has finished, table 2 plays on: closing asks anyway, and names game 3 too.
    asked = ok(organiser.post(f"/tournaments/{tournament_id}/close", {}), 200)
    text = asked.get_data(as_text=True)
    assert "Hands not accepted yet" in text
    assert "provisional: 1 hand to accept" in text
    assert organiser.state(tournament_id)["rounds"][0]["closed"] is False
    ok(organiser.post(f"/tournaments/{tournament_id}/close",
                      {"confirm": CONFIRM.search(text).group(1)}))
    assert organiser.state(tournament_id)["rounds"][0]["closed"] is True
    # The round is over: no verdict is taken any more.
    refused = other.post(f"/matches/{other.match_id}/hands/3/review",
                         {"verdict": "accept", "change": changes(page(keeper)).get(3, "0")})
    assert refused.status_code == 403


def test_the_keepers_own_name_is_not_offered_to_accept(app: Flask) -> None:
    organiser, _tournament_id, keeper, _other = evening(app)
    names = [p["name"] for p in keeper.sheet(keeper.match_id)["players"]]
    # The organiser's phone, which may edit every match, is named after a player there.
    ok(organiser.post(f"/tables/{organiser.table_id}/phone", {"name": names[0]}))
    organiser.match_id = keeper.match_id
    save_game(organiser, {1: 30, 2: 12, 3: 7})
    text = page(organiser)
    assert "Hand it over to accept" in text
    assert f'value="{names[0]}" required' not in text and f'value="{names[1]}" required' in text
    url = f"/matches/{keeper.match_id}/hands/1/review"
    change = changes(text)[1]
    refused = ok(organiser.post(url, {"verdict": "accept", "change": change,
                                      "name": names[0]}), 422).get_data(as_text=True)
    assert f"{names[0]} saved hand 1 on their phone: another player accepts it." in refused
    ok(organiser.post(url, {"verdict": "accept", "change": change, "name": names[1]}))
    assert "to accept" not in page(keeper)
