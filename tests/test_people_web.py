"""People who come and go, through the web: a join, a sit-out, a substitute and a leaver,
each one change in the history, undone and redone, refused while a hand has entries, the
totals compared with what docs/rules.md gives, computed here."""

from __future__ import annotations

import re

from scorekeeper.db import db
from scorekeeper.models import Match, Seat

NAMES = ["Anna", "Bruno", "Carla"]


def change(table, match_id: str, action: str, **fields):
    return table.post(f"/matches/{match_id}/players", {
        "version": table.sheet(match_id)["version"], "action": action, **fields})


def step(table, match_id: str, action: str):
    return table.post(f"/matches/{match_id}/{action}",
                      {"version": table.sheet(match_id)["version"]})


def navawhist_points(cards: int, bid: int, tricks: int) -> int:
    """docs/rules.md#navawhist-scoring-a-hand, cases 1-3 (a hand where someone is exact:
    the tests below keep to them): exact, cards + bid; off by one, 0; off by more,
    -(cards + error)."""
    error = abs(bid - tricks)
    return cards + bid if error == 0 else 0 if error == 1 else -(cards + error)


def test_a_navawhist_evening_with_a_join_a_sit_out_a_substitute_and_a_leaver(table, app):
    match_id = table.new_match("navawhist", NAMES, hook=False)
    sheet = table.sheet(match_id)
    assert sheet["next"]["info"]["cards"] == 1
    # Hand 1: 1 card; Anna bids 1 and takes it, the others 0 and 0.
    table.play_navawhist(match_id, [1, 0, 0], [1, 0, 0])
    expected = [navawhist_points(1, 1, 1), navawhist_points(1, 0, 0), navawhist_points(1, 0, 0)]
    assert table.sheet(match_id)["totals"] == expected

    # Dario arrives: he joins with the lowest total of those still playing.
    lowest = min(expected)
    page = table.client.get(f"/matches/{match_id}/players").get_data(as_text=True)
    assert f"Joins with {lowest}." in page
    response = change(table, match_id, "join", name="Dario")
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    sheet = table.sheet(match_id)
    assert sheet["totals"] == [*expected, lowest]
    assert len(sheet["next"]["seats"]) == 4
    with app.app_context():
        assert [s.player.name for s in db.session.get(Match, match_id).seats] == [
            *NAMES, "Dario"]

    # Undo takes the join back (his seat too); Redo puts it back.
    assert step(table, match_id, "undo").status_code == 303
    assert table.sheet(match_id)["totals"] == expected
    with app.app_context():
        assert db.session.query(Seat).filter_by(match_id=match_id).count() == 3
    assert step(table, match_id, "redo").status_code == 303
    assert table.sheet(match_id)["totals"] == [*expected, lowest]

    # A change while a hand has entries is refused, saying why; nothing is stored.
    order = table.sheet(match_id)["next"]["info"]["order"]
    assert table.bid(match_id, 0, seat=order[0]).status_code == 303
    version = table.sheet(match_id)["version"]
    refused = change(table, match_id, "leave", seat=1)
    assert refused.status_code == 422
    assert "hand" in re.sub(r"<[^>]+>", "", refused.get_data(as_text=True)).lower()
    assert table.sheet(match_id)["version"] == version


def pages_of(table, match_id: str) -> dict[str, int]:
    """Every page a match has, and the status each answers."""
    urls = [f"/matches/{match_id}", f"/matches/{match_id}/live", f"/matches/{match_id}/history",
            f"/matches/{match_id}/players", f"/matches/{match_id}.json",
            f"/matches/{match_id}.csv", f"/matches/{match_id}.pdf",
            f"/matches/{match_id}/share"]
    return {url: table.client.get(url).status_code for url in urls}


def test_every_page_of_a_quarantotto_match_with_a_join_a_sit_out_and_a_leave(table):
    from tests.test_quarantotto_web import play

    match_id = table.new_match("quarantotto", ["Anna", "Bruno", "Carla"])
    assert play(table, match_id, 0, [None, 10, 20]).status_code == 303
    assert change(table, match_id, "join", name="Dario").status_code == 303
    assert change(table, match_id, "sit_out", seat=1).status_code == 303
    response = play(table, match_id, 2, [5, None, None, 7])
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    assert change(table, match_id, "leave", seat=0).status_code == 303
    assert set(pages_of(table, match_id).values()) == {200}


def test_the_history_and_the_undo_button_say_who_came_and_went(table):
    match_id = table.new_match("navawhist", NAMES, hook=False)
    table.play_navawhist(match_id, [1, 0, 0], [1, 0, 0])
    assert change(table, match_id, "join", name="Dario").status_code == 303
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Undo: Dario joins from hand 2" in page
    assert "Dario joins at hand 2 with 1" in page  # the sheet's mark
    assert change(table, match_id, "substitute", seat=0, name="Elena").status_code == 303
    assert change(table, match_id, "leave", seat=1).status_code == 303
    assert step(table, match_id, "undo").status_code == 303
    history = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", table.client.get(
        f"/matches/{match_id}/history").get_data(as_text=True)))
    for said in ("Dario joins from hand 2", "Elena plays for Anna from hand 2",
                 "Bruno leaves after hand 1", "Undone: Bruno leaves after hand 1"):
        assert said in history
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Redo: Bruno leaves after hand 1" in page
    assert "Elena plays for Anna from hand 2" in page


def test_a_backup_keeps_who_came_and_went_and_its_history(tmp_path):
    import io
    import json

    from scorekeeper import create_app
    from scorekeeper.db import upgrade

    from .conftest import Table

    def instance(name: str):
        app = create_app({"TESTING": True, "SECRET_KEY": name,
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / name}.db"})
        with app.app_context():
            upgrade()
        return Table(app.test_client())

    mine = instance("a")
    match_id = mine.new_match("navawhist", NAMES, hook=False)
    mine.play_navawhist(match_id, [1, 0, 0], [1, 0, 0])
    assert change(mine, match_id, "join", name="Dario").status_code == 303
    assert change(mine, match_id, "substitute", seat=0, name="Elena").status_code == 303
    mine.play_navawhist(match_id, [1, 1, 0, 0], [1, 1, 0, 0])
    assert change(mine, match_id, "leave", seat=1).status_code == 303
    data = json.loads(mine.client.get("/backup.json").data)
    [entry] = data["matches"]
    assert [c.get("person") for c in entry["roster"]] == ["Dario", "Elena", None]

    phone = instance("b")
    response = phone.client.post("/backup", data={
        "csrf_token": phone.csrf(),
        "file": (io.BytesIO(json.dumps(data).encode()), "backup.json")},
        content_type="multipart/form-data")
    page = response.get_data(as_text=True)
    assert "1 matches added" in page, page[:3000]
    moved = re.search(r'href="/matches/([^"]+)" data-copy-of="' + match_id, page).group(1)
    here, there = phone.sheet(moved), mine.sheet(match_id)
    assert here["totals"] == there["totals"] and here["players"] == there["players"]
    history = phone.client.get(f"/matches/{moved}/history").get_data(as_text=True)
    assert "Elena plays for Anna from hand 2" in history
    # Undo on the imported match takes back the leave, as it would have where it was made.
    assert step(phone, moved, "undo").status_code == 303
    assert "Bruno" not in " ".join(m for m in re.findall(
        r"<li>([^<]*)</li>", phone.client.get(f"/matches/{moved}").get_data(as_text=True))
        if "leaves" in m)


def test_the_result_goes_to_whoever_played_most_of_the_seat(table, app):
    """docs/rules.md#people-who-come-and-go, case 26: Elena plays most of Anna's seat, so
    the statistics credit her with its result, and Anna with nothing of this match."""
    match_id = table.new_match("quarantotto", ["Anna", "Bruno"], length="games", games=3)
    from tests.test_quarantotto_web import play

    assert play(table, match_id, 0, [None, 10]).status_code == 303
    assert change(table, match_id, "substitute", seat=0, name="Elena").status_code == 303
    assert play(table, match_id, 0, [None, 12]).status_code == 303
    assert play(table, match_id, 1, [7, None]).status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished"
    assert sheet["players"][0]["credited"] == "Elena"
    with app.app_context():
        from scorekeeper.engine.stats import compute

        table_id = db.session.get(Match, match_id).table_id
        stats = compute(table_id)
        played = {stats.names[p]: line.played
                  for p, line in stats.games["quarantotto"].players.items()}
    # Anna's one game counts in her hand statistics, the match in Elena's.
    assert played == {"Elena": 1, "Bruno": 1, "Anna": 0}
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", table.client.get(
        f"/tables/{table_id}/stats").get_data(as_text=True)))
    assert "Elena 1–0" in page or "Elena 0–1" in page  # head to head: Elena met Bruno


def test_the_players_page_offers_only_what_the_rules_take_now(table):
    match_id = table.new_match("scala40", NAMES)
    page = table.client.get(f"/matches/{match_id}/players").get_data(as_text=True)
    assert 'value="sit_out"' not in page  # Scala 40: a player who cannot play a deal leaves
    assert page.count('value="leave"') == 3 and 'value="join"' in page
    navawhist = table.new_match("navawhist", ["Anna", "Bruno"], hook=False)
    page = table.client.get(f"/matches/{navawhist}/players").get_data(as_text=True)
    assert 'value="sit_out"' not in page  # two players: both must be dealt in
    assert table.bid(navawhist, 0).status_code == 303
    page = re.sub(r"\s+", " ", table.client.get(f"/matches/{navawhist}/players")
                  .get_data(as_text=True))
    assert 'name="action"' not in page  # a hand has a bid: nothing changes until it is saved
    assert 'role="alert"' in page


def test_two_app_instances_show_the_same_players_after_every_change(tmp_path):
    """Two instances on one database, each with its own caches, a phone's requests spread
    over them: after each change of who plays (and its undo and redo) both show the sheet
    the database holds."""
    import random

    from .conftest import database_url, drop_database, migrated_app
    from .test_two_instances import Phone

    apps = [migrated_app(database_url(tmp_path)), migrated_app(database_url(tmp_path))]
    phone = Phone((apps, None), random.Random(7))
    try:
        form = {"csrf_token": phone.csrf(), "game": "navawhist", "first_dealer": 0,
                "action": "start", "players-0": "Anna", "players-1": "Bruno",
                "players-2": "Carla"}
        created = phone.open("POST", "/matches/new", form, where=0)
        match_id = created.headers["Location"].rsplit("/", 1)[1]

        def sheets() -> list[dict]:
            return [phone.open("GET", f"/matches/{match_id}.json", where=w).get_json()
                    for w in (0, 1)]

        def post(where: int, path: str, **data) -> None:
            version = sheets()[where]["version"]
            answer = phone.open("POST", f"/matches/{match_id}/{path}", {
                "csrf_token": phone.csrf(), "version": version, **data}, where=where)
            assert answer.status_code == 303, answer.get_data(as_text=True)[:2000]
            first, second = sheets()
            assert first == second

        for where, seat in enumerate(sheets()[0]["next"]["info"]["order"]):
            post(where % 2, "navawhist/bid", number=1, seat=seat, bid=[1, 0, 0][seat])
        post(1, "navawhist/tricks", number=1, action="save", **{
            f"values-{s}": t for s, t in enumerate([1, 0, 0])})
        post(0, "players", action="join", name="Dario")
        post(1, "players", action="sit_out", seat=2)
        post(0, "undo")
        post(1, "redo")
        post(0, "players", action="leave", seat=1)
        first, _second = sheets()
        assert [p["state"] for p in first["players"]] == [
            "playing", "left", "sitting_out", "playing"]
        assert first["totals"][3] == min(first["totals"][:3])
    finally:
        with apps[1].app_context():
            db.engine.dispose()
        drop_database(apps[0])


def test_each_person_s_hand_statistics_count_the_hands_they_played(table, app):
    """docs/rules.md#people-who-come-and-go, "Substitute" and case 27: Elena plays Anna's
    seat from hand 3; each is counted the hands they bid in (2 each), and Dario, who joins,
    only his own hands, never his entry total."""
    match_id = table.new_match("navawhist", NAMES, hook=False)
    table.play_navawhist(match_id, [1, 0, 0], [1, 0, 0])
    table.play_navawhist(match_id, [1, 1, 0], [1, 1, 0])
    assert change(table, match_id, "substitute", seat=0, name="Elena").status_code == 303
    assert change(table, match_id, "join", name="Dario").status_code == 303
    table.play_navawhist(match_id, [3, 0, 0, 0], [3, 0, 0, 0])
    table.play_navawhist(match_id, [0, 4, 0, 0], [0, 4, 0, 0])
    with app.app_context():
        from scorekeeper.engine.stats import compute

        stats = compute(db.session.get(Match, match_id).table_id)
        line = {stats.names[p]: dict(line.counts)
                for p, line in stats.games["navawhist"].players.items()}
    assert {name: (c["hands"], c["exact"]) for name, c in line.items()} == {
        "Anna": (2, 2), "Elena": (2, 2), "Bruno": (4, 4), "Carla": (4, 4), "Dario": (2, 2)}


def test_the_csv_says_out_for_a_hand_sat_out_and_nothing_before_a_join(table):
    import csv
    import io

    match_id = table.new_match("navawhist", NAMES, hook=False)
    table.play_navawhist(match_id, [1, 0, 0], [1, 0, 0])
    assert change(table, match_id, "join", name="Dario").status_code == 303
    assert change(table, match_id, "sit_out", seat=1).status_code == 303
    table.play_navawhist(match_id, [2, 0, 0, 0], [2, "", 0, 0])
    rows = list(csv.reader(io.StringIO(table.client.get(
        f"/matches/{match_id}.csv").get_data(as_text=True))))
    points = {name: rows[0].index(name) for name in ("Bruno", "Dario")}
    assert rows[1][points["Dario"]] == "" and rows[2][points["Bruno"]] == "out"


def test_every_game_s_sheet_says_the_next_hand_waits_for_a_sitter(table):
    """docs/rules.md#people-who-come-and-go, case 21: a leave leaves one player dealt in and
    one sitting out; the next hand waits for the sitter, and the sheet says so (it answered
    500 for Quarantotto and Navawhist, whose entry read the next hand there is not)."""
    for game in ("quarantotto", "navawhist", "fortyfive"):
        match_id = table.new_match(game, NAMES)
        assert change(table, match_id, "sit_out", seat=0).status_code == 303
        assert change(table, match_id, "leave", seat=1).status_code == 303
        assert table.sheet(match_id)["next"] is None
        for url in (f"/matches/{match_id}", f"/matches/{match_id}/live"):
            response = table.client.get(url)
            assert response.status_code == 200, (game, url)
            assert "a player sitting out must come back before hand 1" in response.get_data(
                as_text=True)
        assert change(table, match_id, "back", seat=0).status_code == 303
        assert table.sheet(match_id)["next"]["seats"] == [0, 2]
