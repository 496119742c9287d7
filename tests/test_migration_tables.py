"""The move to tables keeps every match editable by every browser that could edit it."""

from __future__ import annotations

from sqlalchemy import text

from scorekeeper import create_app, models
from scorekeeper.db import db, downgrade, upgrade
from scorekeeper.engine.sheets import compute_sheet
from scorekeeper.models import Match, Player

from .conftest import Table, database_url

BEFORE_TABLES = "515827dbc0a7"
MATCHES = {"m-one": ["Anna", "Bruno"], "m-two": ["Bruno", "Carla"], "m-three": ["Anna", "Carla"]}


def store_old_data() -> None:
    """Three matches and an unused player as the schema before tables stored them."""
    db.session.execute(text(
        "INSERT INTO players (id, name, created_at) VALUES (1, 'Anna', '2026-01-01'),"
        " (2, 'Bruno', '2026-01-01'), (3, 'Carla', '2026-01-01'), (4, 'Nobody', '2026-01-01')"))
    ids = {"Anna": 1, "Bruno": 2, "Carla": 3}
    for match_id, names in MATCHES.items():
        db.session.execute(text(
            "INSERT INTO matches (id, game, options, first_dealer, lang, edit_key, version,"
            " locked, finished, created_at, updated_at) VALUES (:id, 'navawhist',"
            " '{\"hook\": true}', 0, 'it', :key, 1, false, false, '2026-01-01',"
            " '2026-01-02')"), {"id": match_id, "key": f"key-{match_id}-0123456789"})
        for seat, name in enumerate(names):
            db.session.execute(text("INSERT INTO seats (match_id, seat, player_id) VALUES"
                                    " (:m, :s, :p)"), {"m": match_id, "s": seat, "p": ids[name]})
        db.session.execute(text(
            "INSERT INTO hands (match_id, number, data, created_at, updated_at) VALUES"
            " (:m, 1, '{\"bids\": [0, 1], \"tricks\": [1, 1]}', '2026-01-01', '2026-01-01')"),
            {"m": match_id})
    db.session.commit()


def browser(app, rights: list[str] | None) -> Table:
    """A browser whose cookie was made before tables: it lists the matches it may edit."""
    phone = Table(app.test_client())
    if rights is not None:
        with phone.client.session_transaction() as session:
            session["edit"] = rights
    return phone


def test_old_cookies_become_membership_of_the_matches_tables(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "t",
                      "SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})
    with app.app_context():
        upgrade(revision=BEFORE_TABLES)
        store_old_data()
        upgrade()
        db.session.expire_all()
        tables = set()
        for match_id, names in MATCHES.items():
            match = db.session.get(Match, match_id)
            assert match.names == names and compute_sheet(match).totals == (0, 3)
            tables.add(match.table_id)
            players = db.session.scalars(db.select(Player).where(
                Player.table_id == match.table_id)).all()
            assert sorted(p.name for p in players) == sorted(names)
        assert len(tables) == 3  # no browser is handed another browser's match
        # Each table has its own calendar address, in Rome until its members choose.
        found = [db.session.get(models.Table, t) for t in tables]
        assert len({t.calendar_token for t in found} - {None}) == 3
        assert {t.zone for t in found} == {"Europe/Rome"}
        assert db.session.scalar(db.select(Player).where(Player.name == "Nobody")) is None
        db.session.remove()

    both = browser(app, ["m-one", "m-two", "gone-match"])
    second = browser(app, ["m-two"])
    fresh = browser(app, None)
    home = both.client.get("/").get_data(as_text=True)
    assert "/matches/m-one" in home and "/matches/m-two" in home
    assert "/matches/m-three" not in home
    with both.client.session_transaction() as session:
        assert "edit" not in session and len(session["device"]) < 40
    for phone, may in [(both, {"m-one", "m-two"}), (second, {"m-two"}), (fresh, set())]:
        for match_id in MATCHES:
            status = phone.bid(match_id, 0).status_code
            assert status == (303 if match_id in may else 403), (match_id, status)
    # new players after the move (their ids follow the copied ones)
    assert fresh.new_match("navawhist", ["Anna", "Zeno"])
    assert both.new_match("navawhist", ["Bruno", "Yann"])

    with app.app_context():
        db.session.remove()
        downgrade(revision=BEFORE_TABLES)
        names = db.session.execute(text("SELECT name FROM players ORDER BY name")).scalars()
        assert list(names) == ["Anna", "Bruno", "Carla", "Yann", "Zeno"]  # one per name
        db.session.remove()
        upgrade()
        db.session.remove()
        db.drop_all()
        db.session.execute(text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
