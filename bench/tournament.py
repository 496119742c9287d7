"""The standings of a tournament evening: 64 entrants, 6 rounds of 16 Quarantotto tables (96
matches of 4 games), rendered after a change to one match, against a single sheet page
rendered after a change; and the same standings while nothing changed (cached by version).
"""

from __future__ import annotations

import random

from sqlalchemy import update

from bench.backups import quarantotto_hands
from scorekeeper.db import db
from scorekeeper.models import Entrant, Hand, Match, Table, Tournament
from scorekeeper.web.tournaments import seat_next_round

ENTRANTS, ROUNDS = 64, 6


def tournament(app) -> tuple[str, str]:
    """The tournament, every round seated and played; its id and one of its matches."""
    rng = random.Random(64)
    with app.test_request_context():
        table = Table(name="Club")
        db.session.add(table)
        db.session.flush()
        evening = Tournament(table_id=table.id, name="Club night", game="quarantotto",
                             options={"length": "games", "games": 4, "target": 200},
                             format="danish", rounds=ROUNDS, size=4, seed=64)
        evening.entrants = [Entrant(number=n, names=[f"Player {n:02}"])
                            for n in range(ENTRANTS)]
        db.session.add(evening)
        db.session.commit()
        for _round in range(ROUNDS):
            row = seat_next_round(evening)
            db.session.commit()
            for seated in (t for t in evening.tables if t.round == row.number):
                match = db.session.get(Match, seated.match_id)
                for number, data in enumerate(quarantotto_hands(4, 4, rng), start=1):
                    match.hands.append(Hand(number=number, data=data))
                match.version = 4
            db.session.commit()
        return evening.id, evening.tables[-1].match_id


def changed(app, match_id: str) -> None:
    """A new version of the match, as a saved hand makes one."""
    with app.app_context():
        db.session.execute(update(Match).where(Match.id == match_id)
                           .values(version=Match.version + 1))
        db.session.commit()


def bench_tournament(app, client, timed, median, ms) -> list[tuple[str, str, str]]:
    evening, match_id = tournament(app)
    standings = f"/tournaments/{evening}/standings"
    sheet = f"/matches/{match_id}"

    def after_change(url: str):
        def call():
            changed(app, match_id)
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
        return call

    fresh = timed(after_change(standings), 20)
    single = timed(after_change(sheet), 20)
    cached = timed(lambda: client.get(standings), 20)
    ratio = median(fresh) / median(single)
    return [(f"14. Standings of {ENTRANTS} entrants, {ROUNDS} rounds, after a change, vs a "
             "sheet page after a change", f"{ms(median(fresh))} / {ms(median(single))} = "
             f"{ratio:.1f}", "ratio <= 10"),
            ("   the same standings, nothing changed (cached by version)", ms(median(cached)),
             "")]

