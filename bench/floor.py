"""The floor of the stack: the least a bid must do, on the same libraries as Scorekeeper.

A minimal Flask app with Flask-WTF's CSRF and a Flask-SQLAlchemy model on SQLite in WAL
mode (synchronous NORMAL, as Scorekeeper). Its ``/bid`` checks a CSRF-protected form,
loads the row it changes, claims the next version (UPDATE ... RETURNING), adds a row,
commits and renders a fragment of eleven keys for each of four players: no rules, no
sheet, no history. Its ``/health`` answers "ok" as Scorekeeper's does. For a club night it
has games as Scorekeeper has matches: ``/games/new`` (a page with a CSRF token; posted, a
new game and a 303 to it), the same bid on a game (``/games/<id>/bid``, its fragment
carrying the version it claimed) and the game's live part (``/games/<id>/live?since=N``:
one small query, 204 while the version is N, else a small fragment with
``data-version``). The bench measures both the way it measures Scorekeeper, so the gap
between the two is what Scorekeeper's own code costs; ``FLOOR_COLD`` is the same kind of
app for the cold start.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask, redirect, render_template, request
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFProtect
from jinja2 import DictLoader
from sqlalchemy import event, select, update
from sqlalchemy.orm import Mapped, mapped_column
from wtforms import IntegerField

KEYS = ("<div class=bids>{% for seat in range(4) %}<form method=post>"
        "<input type=hidden name=csrf_token value='{{ csrf_token() }}'>"
        "{% for n in range(11) %}<button class='key{{ \" on\" if n == bid }}' name=bid "
        "value={{ n }}>{{ n }}</button>{% endfor %}</form>{% endfor %}</div>")
TEMPLATES = {
    "keys.html": KEYS,
    "new.html": '<form method=post><input type=hidden name="csrf_token" '
                'value="{{ csrf_token() }}"><button>Start</button></form>',
    "bid.html": '<div data-version="{{ version }}">{% include "keys.html" %}</div>',
    "live.html": '<div id=live data-version="{{ version }}">version {{ version }}</div>',
}

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
    app.jinja_loader = DictLoader(TEMPLATES)
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

    def claim(game_id: int, template: str):
        """The bid: the form checked, the game's next version claimed, a row added."""
        form = BidForm()
        if not form.validate():
            return "refused", 400
        game = db.session.get(Game, game_id)
        if game is None:
            return "no such game", 404
        version = db.session.execute(
            update(Game).where(Game.id == game.id, Game.version == form.version.data)
            .values(version=Game.version + 1).returning(Game.version)).scalar()
        if version is None:
            return "conflict", 409
        db.session.add(Bid(game_id=game.id, bid=form.bid.data))
        db.session.commit()
        return render_template(template, bid=form.bid.data, version=version)

    @app.post("/bid")
    def bid():
        return claim(1, "keys.html")

    @app.get("/games/new")
    def new_game():
        return render_template("new.html")

    @app.post("/games/new")
    def start_game():
        game = Game()
        db.session.add(game)
        db.session.commit()
        return redirect(f"/games/{game.id}", 303)

    @app.post("/games/<int:game_id>/bid")
    def game_bid(game_id: int):
        return claim(game_id, "bid.html")

    @app.get("/games/<int:game_id>/live")
    def live(game_id: int):
        version = db.session.scalar(select(Game.version).where(Game.id == game_id))
        if version is None:
            return "no such game", 404
        if request.args.get("since", type=int) == version:
            return "", 204
        return render_template("live.html", version=version)

    return app
