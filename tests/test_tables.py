"""Tables: their own players and matches, phones that join by invitation and leave."""

from __future__ import annotations

import json
import re
from datetime import timedelta

from scorekeeper.db import db
from scorekeeper.models import Invitation, Match, Membership, Player, Seat, _now
from scorekeeper.web.access import can_edit

from .conftest import Table
from .test_access import invitation, table_of

NAMES = ["Anna", "Bruno", "Carla"]


def phone(app) -> Table:
    """Another browser: its own cookies, no table yet."""
    return Table(app.test_client())


def test_a_first_match_creates_the_phone_s_table_quietly(app, table):
    match_id = table.new_match("navawhist", NAMES)
    home = table.client.get("/").get_data(as_text=True)
    table_id = table_of(table, match_id)
    assert f"/tables/{table_id}" in home and "Anna, Bruno, Carla" in home
    second = table.new_match("navawhist", ["anna", "Dario"])  # the same Anna, any case
    assert table_of(table, second) == table_id
    with app.app_context():
        players = db.session.scalars(db.select(Player).where(Player.table_id == table_id))
        assert sorted(p.name for p in players) == ["Anna", "Bruno", "Carla", "Dario"]
        assert db.session.get(Match, second).names == ["Anna", "Dario"]


def test_two_tables_cannot_see_each_other(app, table):
    ours = table.new_match("navawhist", ["Anna", "Bruno"])
    others = phone(app)
    theirs = others.new_match("navawhist", ["Zeno", "Ugo"])
    assert table_of(table, ours) != table_of(others, theirs)
    for me, mine, stranger_names, their_match, their_table in [
            (table, ours, ["Zeno", "Ugo"], theirs, table_of(others, theirs)),
            (others, theirs, ["Anna", "Bruno"], ours, table_of(table, ours))]:
        home = me.client.get("/").get_data(as_text=True)
        new = me.client.get("/matches/new").get_data(as_text=True)
        assert f"/matches/{mine}" in home and f"/matches/{their_match}" not in home
        for name in stranger_names:
            assert name not in home and name not in new
        assert me.client.get(f"/tables/{their_table}").status_code == 403
        assert me.client.get(f"/matches/new?table={their_table}").status_code == 403
        assert me.post("/matches/new", {"game": "navawhist", "table": their_table,
                                        "action": "start", "players-0": "X",
                                        "players-1": "Y"}).status_code == 403
        assert me.bid(their_match, 0).status_code == 403


def test_players_you_know_come_from_the_table_most_frequent_first(app, table):
    table.new_match("navawhist", ["Anna", "Bruno"])
    table.new_match("navawhist", ["Carla", "Bruno"])
    table.new_match("navawhist", ["Bruno", "Carla"])
    page = table.client.get("/matches/new").get_data(as_text=True)
    chips = re.findall(r'value="pick:([^"]+)"', page)
    assert chips == ["Bruno", "Carla", "Anna"]


def test_an_invitation_works_once(app, table):
    match_id = table.new_match("navawhist", NAMES)
    link = invitation(table, match_id)
    first, second = phone(app), phone(app)
    assert first.post(link, {}).status_code == 303
    assert first.bid(match_id, 0).status_code == 303
    refused = second.post(link, {})
    assert refused.status_code == 403 and "already been used" in refused.get_data(as_text=True)
    assert second.client.get(link).status_code == 403
    assert second.bid(match_id, 0).status_code == 403
    # the database holds no usable link: only a hash of the token
    token = link.rsplit("/", 1)[1]
    with app.app_context():
        stored = db.session.scalars(db.select(Invitation)).one()
        assert token not in stored.token_hash and stored.used_at is not None


def test_an_old_invitation_grants_nothing(app, table):
    match_id = table.new_match("navawhist", NAMES)
    link = invitation(table, match_id)
    with app.app_context():
        stored = db.session.scalars(db.select(Invitation)).one()
        assert timedelta(minutes=9) < stored.expires_at - _now() <= timedelta(minutes=10)
        stored.expires_at = _now() - timedelta(seconds=1)
        db.session.commit()
    late = phone(app)
    refused = late.post(link, {})
    assert refused.status_code == 403 and "expired" in refused.get_data(as_text=True)
    assert late.bid(match_id, 0).status_code == 403


def test_the_table_page_says_when_a_phone_was_last_seen_in_the_viewer_s_time(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table_id = table_of(table, match_id)
    guest = phone(app)
    assert guest.post(invitation(table, match_id), {}).status_code == 303
    with app.app_context():
        member = db.session.scalars(db.select(Membership).order_by(Membership.joined_at.desc())
                                    ).first()
        member.last_seen = _now().replace(year=2026, month=12, day=4, hour=23, minute=40)
        db.session.commit()
    page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "last seen 12/4/26, 11:40\u202fPM UTC<" in page
    # The page of a phone in Rome (the zone its browser reported) says 00:40, the 5th.
    table.client.set_cookie("tz", "Europe/Rome")
    page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "last seen 12/5/26, 12:40\u202fAM<" in page


def test_the_table_page_lists_its_phones_and_removes_one_at_once(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table_id = table_of(table, match_id)
    guest = phone(app)
    assert guest.post(invitation(table, match_id), {}).status_code == 303
    assert guest.post(f"/tables/{table_id}/phone", {"name": "Bruno"}).status_code == 303
    page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "Bruno&#39;s phone" in page and page.count("last seen") == 2
    assert "(this phone)" in page
    assert guest.bid(match_id, 0).status_code == 303
    device = re.search(r'/phones/(\d+)/remove" aria-label="Remove Bruno', page)
    assert device is not None
    # The link asks first; its form removes.
    asked = table.client.get(f"/tables/{table_id}/phones/{device.group(1)}/remove")
    assert "Remove Bruno&#39;s phone?" in asked.get_data(as_text=True)
    assert guest.bid(match_id, 0).status_code == 303
    removed = table.post(f"/tables/{table_id}/phones/{device.group(1)}/remove", {})
    assert removed.status_code == 303
    refused = guest.bid(match_id, 0)
    assert refused.status_code == 403 and "may only watch" in refused.get_data(as_text=True)
    assert guest.client.get(f"/tables/{table_id}").status_code == 403
    assert guest.post(f"/tables/{table_id}/invitations", {}).status_code == 403
    # following the match read-only by its link stays as it was
    watched = guest.client.get(f"/matches/{match_id}")
    assert watched.status_code == 200 and "Anna" in watched.get_data(as_text=True)
    assert table.bid(match_id, 0).status_code == 303


def test_a_phone_number_out_of_range_is_not_found(app, table):
    table_id = table_of(table, table.new_match("navawhist", NAMES))
    assert table.post(f"/tables/{table_id}/phones/{10**12}/remove", {}).status_code == 404
    assert table.post(f"/tables/{table_id}/phones/12345/remove", {}).status_code == 303


def test_names_are_checked(app, table):
    table_id = table_of(table, table.new_match("navawhist", NAMES))
    too_long = table.post(f"/tables/{table_id}/name", {"name": "x" * 61})
    assert too_long.status_code == 422 and "at most 60" in too_long.get_data(as_text=True)
    assert table.post(f"/tables/{table_id}/name", {"name": " "}).status_code == 422
    assert table.post(f"/tables/{table_id}/name", {"name": "Thursday club"}).status_code == 303
    assert "Thursday club" in table.client.get("/").get_data(as_text=True)


def test_a_thousand_matches_in_one_browser_with_a_constant_cookie(app, table):
    def cookie() -> str:
        return table.client.get_cookie("session").value

    ids = [table.new_match("navawhist", ["Anna", "Bruno"]) for _i in range(10)]
    first = cookie()
    # 980 more as the form stores them, in one transaction to keep the test short
    with app.app_context():
        model = db.session.get(Match, ids[0])
        for _i in range(980):
            match = Match(game="navawhist", options=dict(model.options), table_id=model.table_id)
            match.seats = [Seat(seat=s.seat, player_id=s.player_id) for s in model.seats]
            db.session.add(match)
        db.session.commit()
        ids += db.session.scalars(db.select(Match.id).where(Match.id.not_in(ids))).all()
    ids += [table.new_match("navawhist", ["Anna", "Bruno"]) for _i in range(10)]
    assert len(ids) == 1000 and len(cookie()) == len(first) < 300
    for match_id in ids[:3] + ids[-3:]:
        assert table.bid(match_id, 1).status_code == 303
    with app.test_request_context(headers={"Cookie": f"session={cookie()}"}):
        assert all(can_edit(match_id) for match_id in ids)
    stranger = phone(app)
    assert not any(stranger.bid(match_id, 1).status_code == 303 for match_id in ids[::100])


def test_a_backup_gives_a_fresh_browser_its_tables_back(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 1, 0], [1, 0, 0])
    backup = table.client.get("/backup.json").data
    assert json.loads(backup)["tables"][0]["secret"]
    cleared = phone(app)  # the same phone after its cookies were cleared
    assert cleared.bid(match_id, 0).status_code == 403
    page = cleared.upload(backup).get_data(as_text=True)
    assert "0 matches added, 1 already here" in page
    assert cleared.bid(match_id, 0).status_code == 303
    assert f"/matches/{match_id}" in cleared.client.get("/").get_data(as_text=True)


def test_a_match_whose_id_is_taken_is_imported_as_a_copy(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 1, 0], [1, 0, 0])
    data = json.loads(table.client.get("/backup.json").data)
    # a phone that only follows the match forges a backup under its id and another table
    data["tables"][0]["secret"] = "not-the-table-secret"
    data["matches"][0]["hands"][0]["data"]["tricks"] = [0, 1, 0]
    follower = phone(app)
    response = follower.upload(json.dumps(data).encode())
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "added under a new address" in page
    copy = re.search(r'href="/matches/([^"]+)" data-copy-of="' + match_id, page).group(1)
    assert copy != match_id
    assert table.sheet(match_id)["hands"][0]["inputs"]["tricks"] == [1, 0, 0]  # untouched
    assert follower.sheet(copy)["hands"][0]["inputs"]["tricks"] == [0, 1, 0]
    assert follower.bid(match_id, 0).status_code == 403  # no right to the original
    assert follower.bid(copy, 0).status_code == 303
    assert table.bid(copy, 0).status_code == 403  # nor the original's phone to the copy
    assert table_of(follower, copy) != table_of(table, match_id)


def exported(app, tmp_path):
    """Every table of ``app`` exported by its command line, and a new server (the same secret
    key) to import them: the file and that server."""
    out = tmp_path / "all.json"
    assert app.test_cli_runner().invoke(args=["export", str(out)]).exit_code == 0
    from scorekeeper import create_app
    from scorekeeper.db import upgrade

    moved = create_app({"TESTING": True, "SECRET_KEY": "test",
                        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'moved.db'}"})
    with moved.app_context():
        upgrade()
    return out, moved


def test_flask_export_and_import_move_whole_tables_with_their_phones(app, table, tmp_path):
    match_id = table.new_match("navawhist", NAMES)
    out, moved = exported(app, tmp_path)
    result = moved.test_cli_runner().invoke(args=["import", str(out)])
    assert "1 matches imported" in result.output
    # the same cookie (same secret key) keeps its table on the new server
    same = Table(moved.test_client())
    same.client.set_cookie("session", table.client.get_cookie("session").value)
    assert same.bid(match_id, 0).status_code == 303
    assert Table(moved.test_client()).bid(match_id, 0).status_code == 403


def phone_names(app, table_id: str) -> list[str | None]:
    with app.app_context():
        return list(db.session.scalars(db.select(Membership.owner).where(
            Membership.table_id == table_id).order_by(Membership.joined_at)))


def test_a_name_a_phone_gave_itself_before_stays_as_typed_until_it_says_whose_it_is(
        app, table, tmp_path):
    match_id = table.new_match("navawhist", NAMES)
    table_id = table_of(table, match_id)
    guest = phone(app)
    assert guest.post(invitation(table, match_id), {}).status_code == 303
    with app.app_context():  # named as phones were before they said whose they are
        db.session.execute(db.update(Membership).where(Membership.owner.is_(None))
                           .values(name="Kitchen phone"))
        db.session.commit()
    page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "<strong>Kitchen phone · keeper</strong>" in page
    assert "Kitchen phone&#39;s phone" not in page
    # A backup carries both, and brings both back.
    assert guest.post(f"/tables/{table_id}/phone", {"name": "Bruno"}).status_code == 303
    out, moved = exported(app, tmp_path)
    assert moved.test_cli_runner().invoke(args=["import", str(out)]).exit_code == 0
    with moved.app_context():
        assert db.session.execute(db.select(Membership.name, Membership.owner).where(
            Membership.table_id == table_id).order_by(Membership.joined_at)).all() == [
            ("Kitchen phone", None), (None, "Bruno")]
    page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "<strong>Kitchen phone · keeper</strong>" in page
    assert "<strong>Bruno&#39;s phone</strong>" in page


def test_a_phone_is_asked_whose_it_is_as_it_joins_and_changes_it_later(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table_id = table_of(table, match_id)
    link = invitation(table, match_id)
    guest = phone(app)
    # The join page asks, optionally, offering the match's seat names.
    asked = guest.client.get(link).get_data(as_text=True)
    assert "Whose phone is this?" in asked and 'list="seat-names"' in asked
    assert all(f'<option value="{name}">' in asked for name in NAMES)
    # Joined as Bruno's, with control characters cleaned away.
    joined = guest.post(link, {"name": " Bru\u202eno\u0007 "})
    assert joined.status_code == 303
    assert phone_names(app, table_id) == [None, "Bruno"]
    page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "<strong>Phone 1 · keeper</strong>" in page
    assert "<strong>Bruno&#39;s phone</strong>" in page
    assert 'aria-label="Remove Bruno&#39;s phone"' in page
    # Changed later from the table page; emptied, it goes by its number again.
    own = guest.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert 'id="phone-name"' in own and 'value="Bruno"' in own
    assert guest.post(f"/tables/{table_id}/phone", {"name": "Carla"}).status_code == 303
    assert phone_names(app, table_id) == [None, "Carla"]
    assert guest.post(f"/tables/{table_id}/phone", {"name": "  "}).status_code == 303
    assert phone_names(app, table_id) == [None, None]
    assert "<strong>Phone 2</strong>" in table.client.get(f"/tables/{table_id}") \
        .get_data(as_text=True)


def test_a_phone_name_too_long_is_refused_beside_its_field_nothing_stored(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table_id = table_of(table, match_id)
    link = invitation(table, match_id)
    guest = phone(app)
    long = "Bartolomeo Massimiliano Rossi Jr"  # 32 characters
    refused = guest.post(link, {"name": long})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert "The phone's name can be at most 30 characters; the one typed has 32." in text
    assert 'role="alert"' in text and f'value="{long}"' in text  # kept as typed
    assert phone_names(app, table_id) == [None]  # not joined: the invitation is still good
    assert guest.post(link, {"name": "Bruno"}).status_code == 303
    refused = guest.post(f"/tables/{table_id}/phone", {"name": long})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "the one typed has 32." in text
    assert 'aria-invalid="true"' in text and f'value="{long}"' in text
    assert phone_names(app, table_id) == [None, "Bruno"]
    # Without the form's token, nothing either.
    assert guest.client.post(f"/tables/{table_id}/phone", data={"name": "Dario"}) \
        .status_code == 400
    assert phone_names(app, table_id) == [None, "Bruno"]


def test_phones_are_named_in_italian(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table_id = table_of(table, match_id)
    link = invitation(table, match_id)
    guest = phone(app)
    guest.client.set_cookie("lang", "it")
    table.client.set_cookie("lang", "it")
    assert "Di chi è questo telefono?" in guest.client.get(link).get_data(as_text=True)
    refused = guest.post(link, {"name": "B" * 31}).get_data(as_text=True)
    assert "Il nome del telefono può avere al massimo 30 caratteri; quello scritto ne ha 31." \
        in refused
    assert guest.post(link, {"name": "Bruno"}).status_code == 303
    page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "<strong>Telefono di Bruno</strong>" in page
    assert "<strong>Telefono 1 · " in page
