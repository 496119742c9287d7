"""The floor of the stack: the least a bid must do, on the same libraries as Scorekeeper.

A minimal Flask app with Flask-WTF's CSRF and a Flask-SQLAlchemy model on SQLite in WAL
mode (synchronous NORMAL, as Scorekeeper). Its ``/bid`` checks a CSRF-protected form,
loads the row it changes, claims the next version (UPDATE ... RETURNING), adds a row,
commits and renders a fragment of eleven keys for each of four players: no rules, no
sheet, no history. Its ``/health`` answers "ok" as Scorekeeper's does. The bench measures
both the way it measures Scorekeeper, so the gap between the two is what Scorekeeper's own
code costs; ``FLOOR_COLD`` is the same kind of app for the cold start.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask, render_template
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFProtect
from jinja2 import DictLoader
from sqlalchemy import event, update
from sqlalchemy.orm import Mapped, mapped_column
from wtforms import IntegerField

KEYS = ("<div class=bids>{% for seat in range(4) %}<form method=post>"
        "<input type=hidden name=csrf_token value='{{ csrf_token() }}'>"
        "{% for n in range(11) %}<button class='key{{ \" on\" if n == bid }}' name=bid "
        "value={{ n }}>{{ n }}</button>{% endfor %}</form>{% endfor %}</div>")

# What any app on this stack loads before its first page: run with `flask --app ... run`.
FLOOR_COLD = """from flask import Flask
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import text
app = Flask(__name__)
app.config.update(SECRET_KEY="x", SQLALCHEMY_DATABASE_URI="sqlite:///:memory:")
db = SQLAlchemy(app)
CSRFProtect(app)
@app.get("/")
def index():
    return str(db.session.scalar(text("SELECT 1")))
"""


def floor_app(path: Path) -> Flask:
    """The minimal app on Scorekeeper's stack, its database at ``path``."""
    app = Flask(__name__)
    app.config.update(SECRET_KEY="floor", SQLALCHEMY_DATABASE_URI=f"sqlite:///{path}")
    app.jinja_loader = DictLoader({"keys.html": KEYS})
    db = SQLAlchemy(app, session_options={"expire_on_commit": False})
    CSRFProtect(app)

    class Game(db.Model):
        id: Mapped[int] = mapped_column(primary_key=True)
        version: Mapped[int] = mapped_column(default=0)

    class Bid(db.Model):
        id: Mapped[int] = mapped_column(primary_key=True)
        game_id: Mapped[int]
        bid: Mapped[int]

    class BidForm(FlaskForm):
        version = IntegerField()
        bid = IntegerField()

    with app.app_context():
        @event.listens_for(db.engine, "connect")
        def pragmas(connection, _record) -> None:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")

        db.create_all()
        db.session.add(Game(id=1))
        db.session.commit()

    @app.get("/health")
    def health():
        return "ok"

    @app.get("/token")
    def token():
        return render_template("keys.html", bid=None).split("value='")[1].split("'")[0]

    @app.post("/bid")
    def bid():
        form = BidForm()
        if not form.validate():
            return "refused", 400
        game = db.session.get(Game, 1)
        version = db.session.execute(
            update(Game).where(Game.id == game.id, Game.version == form.version.data)
            .values(version=Game.version + 1).returning(Game.version)).scalar()
        if version is None:
            return "conflict", 409
        db.session.add(Bid(game_id=game.id, bid=form.bid.data))
        db.session.commit()
        return render_template("keys.html", bid=form.bid.data)

    return app
