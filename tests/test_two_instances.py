"""The database is the only truth (issue 40): random matches of every game played through
two app instances on one database, as a load balancer without sticky sessions spreads a
phone's requests over two workers, each with in-process caches of its own.

One phone (one cookie jar) sends every request to either instance, chosen at random: taps,
refusals, entries, corrections, undo and redo, and changes of who plays between hands
(joins, sit-outs, returns, substitutes, leaves: docs/rules.md, "People who come and go"),
those the rules take and those they refuse. After every request, each instance's JSON
sheet is compared with the other's and with the sheet the game's rules build from the
match's ``hands`` rows, its ``matches.roster`` and its ``seats`` rows read straight from
the database (an engine of the test's own, nothing of the app's), so a hand or a change an
instance shows but the database never stored, or one the database holds but an instance
does not show, fails the test. Whether a step is to be stored or refused is decided by
the rules too, on the hands and the changes the database holds. After a join or a
sit-out, a hand's entries are given for the seats dealt in only (None for the others).

Deterministic: hypothesis is derandomized, and everything a step needs beyond its kind
comes from a ``random.Random`` seeded by the example.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, select
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

from scorekeeper.db import db
from scorekeeper.models import Hand, Match, Player, Seat
from scorekeeper.rules import BUILT_IN, GAMES, RuleError, Sheet, navawhist, scala40
from scorekeeper.rules.cards import RANKS, SUITS

from .conftest import CSRF, database_url, drop_database, migrated_app

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
NEWCOMERS = ["Gina", "Ivo", "Lea", "Marco", "Nora", "Olga", "Pino", "Rita"]
KINDS = ("join", "sit_out", "back", "substitute", "leave")
HTMX = {"HX-Request": "true"}
# What a step of a match may be; an entry and a change of who plays twice as often as the
# others.
STEPS = ("enter", "enter", "people", "people", "refuse", "correct", "undo", "redo")
EXAMPLES = 4  # matches per game and run, besides the explicit one


@pytest.fixture(scope="module")
def instances(tmp_path_factory) -> Iterator[tuple[list[Flask], Engine]]:
    """Two app instances on one migrated database, and an engine of the test's own on it."""
    url = database_url(tmp_path_factory.mktemp("two-instances"))
    apps = [migrated_app(url), migrated_app(url)]
    engine = create_engine(apps[0].config["SQLALCHEMY_DATABASE_URI"], poolclass=NullPool)
    yield apps, engine
    engine.dispose()
    with apps[1].app_context():
        db.engine.dispose()
    drop_database(apps[0])


# --- the database, read cold, and what the rules make of it ----------------------------


def plain(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists, keys as text)."""
    return json.loads(json.dumps(value))


@dataclass
class Truth:
    """A match as the database holds it, and its sheet as the game's rules build it."""

    game: str
    players: int
    first_dealer: int
    options: dict[str, Any]
    version: int
    locked: bool
    hands: list[dict[str, Any]]
    sheet: Sheet
    roster: list[dict[str, Any]]
    held: set[str]  # the names of those who hold a seat or held one (the roster's too)

    def build(self, hands: list[dict[str, Any]],
              roster: list[dict[str, Any]] | None = None) -> Sheet:
        return rules_sheet(self.game, self.players, hands, self.first_dealer, self.options,
                           self.roster if roster is None else roster)

    def accepts(self, number: int, data: dict[str, Any]) -> bool:
        """True when the rules take hand ``number`` (the next one, or a stored one) as
        ``data`` with every other stored hand as it is."""
        hands = list(self.hands)
        if number <= len(hands):
            hands[number - 1] = data
        else:
            hands.append(data)
        try:
            self.build(hands)
        except RuleError:
            return False
        return True

    def changes(self, change: dict[str, Any]) -> bool:
        """True when the rules take ``change`` of who plays after the hands stored."""
        try:
            self.build(self.hands, [*self.roster, {**change, "after": len(self.hands)}])
        except RuleError:
            return False
        return True

    def before(self, number: int) -> Sheet:
        """The sheet as it was when hand ``number`` was dealt (the changes of who plays
        made by then)."""
        return self.build(self.hands[: number - 1],
                          [c for c in self.roster if c["after"] < number])

    def table(self, number: int) -> tuple[int, list[int]]:
        """The number of seats of the table at hand ``number``, and the seats dealt in."""
        sheet = self.before(number)
        return len(sheet.roster.order), list(sheet.next.seats)

    def expected(self) -> dict[str, Any]:
        """What an instance's JSON sheet must say, from the rules alone."""
        sheet = self.sheet
        return plain({
            "version": self.version,
            "options": dict(sheet.options),
            "columns": [list(c) for c in sheet.columns],
            "players": [{"seat": s, "turn": sheet.roster.order.index(s), "state": state.value,
                         "entry": sheet.roster.entries[s],
                         "left_after": sheet.roster.left_after[s]}
                        for s, state in enumerate(sheet.roster.states)],
            "hands": [{"number": r.number, "dealer": r.dealer, "inputs": dict(r.inputs),
                       "points": list(r.points), "totals": list(r.totals),
                       "annulled": r.annulled, "notes": [n and n.label for n in r.notes],
                       "events": [e.label for e in r.events],
                       "presence": [p.value for p in r.presence]} for r in sheet.rows],
            "totals": list(sheet.totals),
            "winners": list(sheet.winners),
            "finished": sheet.finished,
            "details": sheet.status.as_json(),
            "next": None if sheet.next is None else {
                "number": sheet.next.number, "dealer": sheet.next.dealer,
                "seats": list(sheet.next.seats), "info": sheet.next.info.as_json()},
        })


HAND_KEYS = ("number", "dealer", "inputs", "points", "totals", "annulled", "notes", "events",
             "presence")
PLAYER_KEYS = ("seat", "turn", "state", "entry", "left_after")


def shown(sheet: dict[str, Any]) -> dict[str, Any]:
    """The parts of an instance's JSON sheet that :meth:`Truth.expected` gives."""
    return {
        "version": sheet["version"], "options": sheet["options"], "columns": sheet["columns"],
        "players": [{key: player[key] for key in PLAYER_KEYS} for player in sheet["players"]],
        "hands": [{key: hand[key] for key in HAND_KEYS} for hand in sheet["hands"]],
        "totals": sheet["totals"], "winners": sheet["winners"],
        "finished": sheet["status"] == "finished", "details": sheet["details"],
        "next": sheet["next"],
    }


MATCHES, SEATS, HANDS, PLAYERS = (Match.__table__, Seat.__table__, Hand.__table__,
                                  Player.__table__)


def rules_sheet(game: str, players: int, hands: list[dict[str, Any]], first_dealer: int,
                options: dict[str, Any], roster: list[dict[str, Any]]) -> Sheet:
    """The sheet the game's rules build (not in a tournament: docs/rules.md, "People who
    come and go")."""
    return GAMES[game].build_sheet(players, hands, first_dealer=first_dealer, roster=roster,
                                   tournament=False, **options)


def read_database(engine: Engine, match_id: str) -> Truth:
    """The match's rows, read on a new connection of the test's own engine."""
    with engine.connect() as connection:
        match = connection.execute(select(
            MATCHES.c.game, MATCHES.c.first_dealer, MATCHES.c.options, MATCHES.c.version,
            MATCHES.c.locked, MATCHES.c.roster).where(MATCHES.c.id == match_id)).one()
        seated = connection.execute(select(SEATS.c.seat, SEATS.c.player_id)
                                    .where(SEATS.c.match_id == match_id)
                                    .order_by(SEATS.c.seat)).all()
        roster = list(match.roster or [])
        ids = {row.player_id for row in seated} | {c["person"] for c in roster if "person" in c}
        held = set(connection.scalars(select(PLAYERS.c.name).where(PLAYERS.c.id.in_(ids))))
        rows = connection.execute(select(HANDS.c.number, HANDS.c.data)
                                  .where(HANDS.c.match_id == match_id)
                                  .order_by(HANDS.c.number)).all()
    assert [row.number for row in rows] == list(range(1, len(rows) + 1)), "hands out of line"
    assert [row.seat for row in seated] == list(range(len(seated))), "seats out of line"
    hands = [row.data for row in rows]
    options = dict(match.options or {})
    # The seats the match began with: a joiner's seat is a seat while the roster holds the join.
    players = len(seated) - sum(c["kind"] == "join" for c in roster)
    sheet = rules_sheet(match.game, players, hands, match.first_dealer, options, roster)
    return Truth(match.game, players, match.first_dealer, options, match.version,
                 bool(match.locked), hands, sheet, roster, held)


# --- one phone, two instances ----------------------------------------------------------


class Phone:
    """One phone: one cookie jar, each request sent to either instance (``rng`` chooses),
    every answer checked against the database."""

    def __init__(self, instances: tuple[list[Flask], Engine], rng: random.Random) -> None:
        apps, self.engine = instances
        self.clients = [app.test_client(use_cookies=False) for app in apps]
        self.rng = rng
        self.jar: dict[str, str] = {}
        self.token = ""
        self.log: list[str] = []
        self.match_id = ""
        self.last: Truth | None = None

    def open(self, method: str, url: str, data: dict[str, Any] | None = None, *,
             headers: dict[str, str] | None = None, quiet: bool = False,
             where: int | None = None) -> Any:
        """The request sent to instance ``where`` (by default either) with the phone's
        cookies; the cookies it sets kept in the phone's jar."""
        index = self.rng.randrange(len(self.clients)) if where is None else where
        sent = dict(headers or {})
        if self.jar:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.jar.items())
        response = self.clients[index].open(url, method=method, data=data, headers=sent)
        for header in response.headers.getlist("Set-Cookie"):
            cookie: SimpleCookie = SimpleCookie()
            cookie.load(header)
            for name, morsel in cookie.items():
                if morsel["max-age"] == "0" or "1970" in morsel["expires"]:
                    self.jar.pop(name, None)
                else:
                    self.jar[name] = morsel.value
        if not quiet:
            shown_data = {k: v for k, v in (data or {}).items() if k != "csrf_token"}
            self.log.append(f"{'AB'[index]} {method} {url} {shown_data} -> "
                            f"{response.status_code}")
        return response

    def csrf(self) -> str:
        if not self.token:
            page = self.open("GET", "/matches/new").get_data(as_text=True)
            self.token = CSRF.search(page).group(1)
        return self.token

    def steps(self) -> str:
        return "the phone's last requests (A, B: the instance):\n  " + "\n  ".join(
            self.log[-12:])

    def send(self, method: str, url: str, data: dict[str, Any] | None, status: int, *,
             headers: dict[str, str] | None = None, where: int | None = None) -> Any:
        """A request expected to answer ``status``, then both instances checked against
        the database."""
        if method == "POST":
            data = {"csrf_token": self.csrf(), **(data or {})}
        response = self.open(method, url, data, headers=headers, where=where)
        assert response.status_code == status, (
            f"expected {status}\n{self.steps()}\n"
            f"{response.get_data(as_text=True)[-1500:]}")
        self.check()
        return response

    def check(self) -> Truth:
        """Each instance's JSON sheet equals the other's and the rules' sheet of the
        database's hands."""
        truth = read_database(self.engine, self.match_id)
        sheets = []
        for where in range(len(self.clients)):
            response = self.open("GET", f"/matches/{self.match_id}.json", quiet=True,
                                 where=where)
            assert response.status_code == 200, self.steps()
            sheets.append(response.get_json())
        expected = truth.expected()
        for where, sheet in enumerate(sheets):
            assert shown(sheet) == expected, (
                f"instance {'AB'[where]} disagrees with the database "
                f"({len(sheet['hands'])} hands shown, {len(truth.hands)} stored; version "
                f"{sheet['version']} shown, {truth.version} stored)\n{self.steps()}")
        assert sheets[0] == sheets[1], f"the instances disagree\n{self.steps()}"
        self.last = truth
        return truth

    def save(self, url: str, data: dict[str, Any], stored: bool, *, refused: int = 422,
             headers: dict[str, str] | None = None) -> Any:
        """A post that stores one change (303), or none (``refused``): nothing stored."""
        before = self.last
        response = self.send("POST", url, data, 303 if stored else refused, headers=headers)
        after = self.last
        assert after.version == before.version + stored, self.steps()
        if not stored:
            assert (after.hands, after.roster) == (before.hands, before.roster), self.steps()
        return response

    def new_match(self, game: str, players: int, first_dealer: int,
                  options: dict[str, Any]) -> str:
        data: dict[str, Any] = {"game": game, "first_dealer": first_dealer, "action": "start"}
        data.update({f"players-{i}": name for i, name in enumerate(NAMES[:players])})
        chosen = {o.key: o.default for o in GAMES[game].options} | options
        # An unticked checkbox is not sent.
        data.update({f"opt_{k}": ("y" if v is True else v) for k, v in chosen.items()
                     if v is not False and v is not None})
        response = self.open("POST", "/matches/new", {"csrf_token": self.csrf(), **data})
        assert response.status_code == 303, response.get_data(as_text=True)[-1500:]
        self.match_id = response.headers["Location"].rsplit("/", 1)[1]
        self.check()
        return self.match_id


def hidden(page: str, name: str) -> str:
    """The value of the hidden input ``name`` in a page or fragment."""
    return re.search(rf'type="hidden" name="{name}" value="([^"]*)"', page).group(1)


def pad_text(page: str, seat: int) -> str:
    """The entry text of ``seat``'s card keypad in a page or fragment."""
    return re.search(rf'name="values-{seat}" id="values-{seat}" value="([^"]*)"',
                     page).group(1)


# --- the games -----------------------------------------------------------------------


class Driver:
    """What a game's matches need: players and options, and its steps through the web."""

    game = ""

    def __init__(self, phone: Phone, rng: random.Random) -> None:
        self.phone, self.rng = phone, rng

    @property
    def base(self) -> str:
        return f"/matches/{self.phone.match_id}"

    @property
    def truth(self) -> Truth:
        return self.phone.last

    def setup(self) -> tuple[int, dict[str, Any]]:
        raise NotImplementedError

    def enter(self, legal: bool) -> int:
        """Enter the next hand (legal or one the rules refuse); the changes stored."""
        raise NotImplementedError

    def correct(self) -> int:
        """Correct a stored hand (now and then with inputs the rules refuse)."""
        raise NotImplementedError

    def finished(self) -> bool:
        """True when the match takes no more hands: an entry is then a conflict."""
        return self.truth.sheet.next is None

    def stored_number(self) -> int | None:
        """A stored hand to correct, None when there is none."""
        return self.rng.randint(1, len(self.truth.hands)) if self.truth.hands else None

    def correcting(self, number: int, data: dict[str, Any], legal: bool) -> bool:
        """Whether a correction of hand ``number`` to ``data`` is to be stored."""
        return legal and not self.truth.locked and self.truth.accepts(number, data)

    def people(self, kind: str) -> int:
        """A change of who plays of ``kind`` (docs/rules.md, "People who come and go"), for
        any seat (one more than the table has too), by a newcomer or by someone who holds or
        held a seat: stored when the rules take it, refused (nothing stored) otherwise."""
        truth, rng = self.truth, self.rng
        change: dict[str, Any] = {"kind": kind}
        form: dict[str, Any] = {"version": truth.version, "action": kind}
        seats = len(truth.sheet.roster.order)
        if kind == "join":
            if rng.random() < 0.3:
                change["at"] = form["at"] = rng.randint(0, seats + 1)
        else:
            change["seat"] = form["seat"] = rng.choice([*range(seats), seats] if
                                                       rng.random() < 0.1 else range(seats))
        named = True
        if kind in ("join", "substitute"):
            fresh = [n for n in NEWCOMERS if n not in truth.held]
            # Someone who holds a seat of the match, or held one, is refused.
            if rng.random() < 0.15 or not fresh:
                form["name"] = rng.choice(sorted(truth.held))
                named = False
            else:
                form["name"] = rng.choice(fresh)
            change["person"] = -1  # a person the roster does not name yet
        # A finished match takes no change (but an undo) whatever the rules say of it.
        stored = named and not truth.locked and truth.changes(change)
        self.phone.save(f"{self.base}/players", form, stored)
        return int(stored)


def spread(rng: random.Random, total: int, parts: int) -> list[int]:
    """``total`` split at random among ``parts``."""
    counts = [0] * parts
    for _ in range(total):
        counts[rng.randrange(parts)] += 1
    return counts


class FortyFive(Driver):
    game = "fortyfive"

    def setup(self) -> tuple[int, dict[str, Any]]:
        players = self.rng.choice([2, 3, 4, 4, 5, 6])
        options = {"target": self.rng.choice([45, 45, 120]), "jink": self.rng.random() < 0.2}
        if players == 6:
            options["three_pairs"] = self.rng.random() < 0.5
        return players, options

    def hand(self, number: int, legal: bool) -> tuple[str, dict[str, Any], dict[str, Any]]:
        """A hand as the mode it is entered in, the rules' inputs and the form's fields."""
        rng = self.rng
        before = self.truth.before(number)
        dealt = list(before.next.seats)
        players = len(dealt)
        columns = [list(c) for c in before.columns]
        mode = rng.choice(["winners", "sides", "cards"] if legal else ["winners", "sides"])
        if mode == "cards":
            trump = rng.choice(SUITS)
            leader = before.next.info.leader
            cards = rng.sample([rank + suit for suit in SUITS for rank in RANKS], players * 5)
            plays = [" ".join(cards[i:i + players]) for i in range(0, len(cards), players)]
            return mode, {"trump": trump, "plays": plays, "leader": leader}, {
                "trump": trump, "leader": leader, "cards": cards}
        if mode == "winners":
            winners = [rng.choice(dealt) for _ in range(5)]
            if legal:
                bonus = rng.choice([*winners, None])
            else:  # the bonus to a player without a trick
                winners = [dealt[0]] * 5
                bonus = rng.choice(dealt[1:])
            return mode, {"trick_winners": winners, "bonus_seat": bonus}, {
                "winners": winners, "bonus": "none" if bonus is None else str(bonus)}
        # The sides with a seat dealt in; the others' counts are None.
        offered = [c for c, side in enumerate(columns) if set(side) & set(dealt)]
        counts = spread(rng, 5, len(offered))
        if legal:
            bonus = rng.choice([*(c for c, t in zip(offered, counts, strict=True) if t), None])
        elif rng.random() < 0.5:  # the bonus to a side without a trick
            counts = [5] + [0] * (len(offered) - 1)
            bonus = rng.choice(offered[1:])
        else:  # tricks that do not add up to five
            counts[rng.randrange(len(offered))] += rng.choice([-1, 1]) if counts[0] else 1
            bonus = None
        tricks: list[int | None] = [None] * len(columns)
        for c, count in zip(offered, counts, strict=True):
            tricks[c] = count
        fields = {f"side-{c}": tricks[c] for c in offered}
        fields["bonus_side"] = "none" if bonus is None else str(bonus)
        return mode, {"side_tricks": tricks, "bonus_side": bonus}, fields

    def tap(self, state: dict[str, Any], action: str, htmx: bool, status: int = 200,
            **extra: Any) -> str:
        """A tap on the entry form (htmx, or a plain post and the page it leads to)."""
        url = f"{self.base}/fortyfive/hand"
        data = {**state, **extra, "action": action}
        if htmx:
            return self.phone.send("POST", url, data, status, headers=HTMX).get_data(
                as_text=True)
        response = self.phone.send("POST", url, data, 303 if status == 200 else status)
        if status != 200:
            return response.get_data(as_text=True)
        return self.phone.send("GET", response.headers["Location"], None, 200).get_data(
            as_text=True)

    def enter(self, legal: bool) -> int:
        truth, rng = self.truth, self.rng
        url = f"{self.base}/fortyfive/hand"
        if self.finished():
            self.phone.save(url, {"version": truth.version, "number": len(truth.hands) + 1,
                                  "mode": "sides", "side-0": 5, "bonus_side": 0,
                                  "action": "save"}, False, refused=409)
            return 0
        number = truth.sheet.next.number
        mode, data, fields = self.hand(number, legal)
        state = {"version": truth.version, "number": number, "mode": mode}
        htmx = rng.random() < 0.5
        if mode == "winners":
            for i, seat in enumerate(fields["winners"]):
                page = self.tap({**state, "winners": ",".join(map(str, fields["winners"][:i]))},
                                f"tap:{seat}", htmx)
                assert hidden(page, "winners") == ",".join(map(str, fields["winners"][:i + 1]))
            fields = {"winners": ",".join(map(str, fields["winners"])),
                      "bonus": fields["bonus"]}
        elif mode == "cards":
            cards = fields["cards"]
            state.update(trump=fields["trump"], leader=fields["leader"])
            for i, card in enumerate(cards):
                if i and rng.random() < 0.05:  # a card played already: refused, kept as it was
                    again = rng.choice(cards[:i])
                    page = self.tap({**state, "cards": " ".join(cards[:i])},
                                    f"card:{again[:-1]}", htmx, 422, suit=again[-1])
                    assert hidden(page, "cards") == " ".join(cards[:i])
                page = self.tap({**state, "cards": " ".join(cards[:i])}, f"card:{card[:-1]}",
                                htmx, suit=card[-1])
                assert hidden(page, "cards") == " ".join(cards[: i + 1])
            fields = {"cards": " ".join(cards)}
        stored = truth.accepts(number, data)
        assert stored == legal, (data, self.phone.steps())
        self.phone.save(url, {**state, **fields, "action": "save"}, stored)
        return int(stored)

    def correct(self) -> int:
        number = self.stored_number()
        if number is None:
            return self.enter(True)
        legal = self.rng.random() < 0.75
        mode, data, fields = self.hand(number, legal)
        if mode == "winners":
            fields["winners"] = ",".join(map(str, fields["winners"]))
        if mode == "cards":
            fields["cards"] = " ".join(fields["cards"])
        stored = self.correcting(number, data, legal)
        self.phone.save(f"{self.base}/fortyfive/{number}/edit", {
            "version": self.truth.version, "number": number, "mode": mode, **fields,
            "action": "save"}, stored)
        return int(stored)


class Navawhist(Driver):
    game = "navawhist"

    def setup(self) -> tuple[int, dict[str, Any]]:
        return self.rng.choice([2, 3, 4, 5]), {"hook": self.rng.random() < 0.8}

    def pending(self, number: int) -> dict[str, Any]:
        hands = self.truth.hands
        if number <= len(hands):
            return dict(hands[number - 1])
        return {"bids": [None] * self.truth.table(number)[0], "tricks": None}

    def bid(self, legal: bool, *, change: bool) -> int:
        """One bid, the next bidder's or (``change``) a change of an earlier one."""
        truth, rng = self.truth, self.rng
        nxt = truth.sheet.next
        info = nxt.info
        seat = info.bidder
        if change and info.changeable:
            seat = rng.choice(info.changeable)
        if legal:
            bid = rng.choice([b for b in range(info.cards + 1)
                              if not (seat == nxt.dealer and b == info.forbidden)])
        elif seat == nxt.dealer and info.forbidden is not None and rng.random() < 0.7:
            bid = info.forbidden
        else:
            bid = info.cards + 1
        data = self.pending(nxt.number)
        data["bids"] = [bid if s == seat else b for s, b in enumerate(data["bids"])]
        stored = truth.accepts(nxt.number, data)
        assert stored == legal, (data, self.phone.steps())
        self.phone.save(f"{self.base}/navawhist/bid", {
            "version": truth.version, "number": nxt.number, "seat": seat, "bid": bid}, stored)
        return int(stored)

    def tricks(self, legal: bool) -> int:
        truth, rng = self.truth, self.rng
        nxt = truth.sheet.next
        cards, dealt = nxt.info.cards, list(nxt.seats)
        tricks = spread(rng, cards, len(dealt))
        if not legal:
            tricks[rng.randrange(len(dealt))] += 1
        values: list[Any] = list(tricks)
        if legal and rng.random() < 0.3:  # the last one left is filled in
            values[rng.randrange(len(dealt))] = ""
        trump = rng.choice(["", *SUITS])
        form = {"version": truth.version, "number": nxt.number, "trump": trump,
                **{f"values-{s}": v for s, v in zip(dealt, values, strict=True)}}
        url = f"{self.base}/navawhist/tricks"
        if rng.random() < 0.3:  # the points shown before saving
            self.phone.save(url, {**form, "action": "preview"}, False, refused=200,
                            headers=HTMX)
        data = self.pending(nxt.number)
        filled = navawhist.complete_tricks(cards, [None if v == "" else v for v in values])
        by_seat = dict(zip(dealt, filled, strict=True))
        data["tricks"] = [by_seat.get(s) for s in range(len(data["bids"]))]
        data["trump"] = trump or None
        stored = truth.accepts(nxt.number, data)
        assert stored == legal, (data, self.phone.steps())
        self.phone.save(url, {**form, "action": "save"}, stored)
        return int(stored)

    def enter(self, legal: bool) -> int:
        truth = self.truth
        if self.finished():  # over, or waiting for a sitter to come back
            self.phone.save(f"{self.base}/navawhist/bid", {
                "version": truth.version, "number": len(truth.hands) + 1, "seat": 0,
                "bid": 0}, False, refused=409)
            return 0
        if not legal:
            phase = self.truth.sheet.next.info.phase
            return self.bid(False, change=False) if phase == "bids" else self.tricks(False)
        if self.rng.random() < 0.25:  # the hand left half bid, for the next step
            return self.step()
        stored = 0
        while self.truth.sheet.next.info.phase == "bids":
            stored += self.bid(True, change=self.rng.random() < 0.15)
        return stored + self.tricks(True)

    def step(self) -> int:
        """A single bid (or the tricks once every bid is in)."""
        if self.truth.sheet.next.info.phase == "bids":
            return self.bid(True, change=self.rng.random() < 0.3)
        return self.tricks(True)

    def correct(self) -> int:
        rng, truth = self.rng, self.truth
        complete = [n for n, h in enumerate(truth.hands, start=1) if h.get("tricks") is not None]
        if not complete:
            return self.enter(True)
        number = rng.choice(complete)
        seats, dealt = truth.table(number)
        before = truth.before(number).next
        cards, dealer = before.info.cards, before.dealer
        bids: list[int | None] = [rng.randint(0, cards) if s in dealt else None
                                  for s in range(seats)]
        forbidden = navawhist.forbidden_bid(cards, [bids[s] for s in before.info.order[:-1]])
        if truth.options.get("hook", True) and bids[dealer] == forbidden:
            bids[dealer] = (forbidden + 1) % (cards + 1)
        tricks: list[int | None] = [None] * seats
        for seat, count in zip(dealt, spread(rng, cards, len(dealt)), strict=True):
            tricks[seat] = count
        legal = rng.random() < 0.75
        if not legal:
            tricks[rng.choice(dealt)] += 1
        trump = rng.choice(["", *SUITS])
        data = {"bids": bids, "tricks": tricks, "trump": trump or None}
        stored = self.correcting(number, data, legal)
        self.phone.save(f"{self.base}/navawhist/{number}/edit", {
            "version": truth.version, "number": number, "trump": trump,
            **{f"bids-{s}": bids[s] for s in dealt},
            **{f"values-{s}": tricks[s] for s in dealt}}, stored)
        return int(stored)


class Rummy(Driver):
    """Quarantotto and Scala 40: one form a hand, each player's cards on the card keypad."""

    keys: tuple[str, ...] = RANKS
    url = ""  # the entry's address, after the match's

    def entry(self, seat: int, closer: Any) -> str:
        """One player's cards left in hand, tapped on the keypad (through either instance),
        or typed as cards, a sum or a total."""
        rng = self.rng
        kind = rng.choice(["tapped", "tapped", "cards", "sum", "total"])
        if kind == "total":
            return str(rng.randint(2, 60))
        if kind == "sum":
            return f"{rng.randint(2, 20)}+{rng.randint(2, 20)}"
        cards = [rng.choice(self.keys) for _ in range(rng.randint(1, 4))]
        if kind == "cards":
            return " ".join(cards)
        text = ""
        for key in cards + (["back", cards[-1]] if rng.random() < 0.3 else []):
            page = self.phone.send("POST", f"{self.base}/{self.game}/cards", {
                f"values-{seat}": text, "tap": f"{seat}:{key}", "closer": closer}, 200,
                headers=HTMX).get_data(as_text=True)
            text = pad_text(page, seat)
        return text

    def plain_tap(self, form: dict[str, Any]) -> None:
        """A key tapped without JavaScript: the form at an address, nothing stored."""
        seats = [s for s in range(len(self.truth.sheet.roster.order)) if form.get(f"values-{s}")]
        if not seats:
            return
        tap = {k: v for k, v in form.items() if k != "action"}
        tap["tap"] = f"{self.rng.choice(seats)}:show"
        response = self.phone.send("POST", f"{self.base}/{self.url}", tap, 303)
        self.phone.send("GET", response.headers["Location"], None, 200)

    def hand(self, number: int, legal: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        """The rules' inputs of a hand and the form's fields for it."""
        raise NotImplementedError

    def enter(self, legal: bool) -> int:
        truth = self.truth
        url = f"{self.base}/{self.url}"
        if self.finished():
            self.phone.save(url, {"version": truth.version, "number": len(truth.hands) + 1,
                                  "action": "save", "closer": 0}, False, refused=409)
            return 0
        number = truth.sheet.next.number
        data, fields = self.hand(number, legal)
        form = {"version": truth.version, "number": number, "action": "save", **fields}
        if self.rng.random() < 0.2:
            self.plain_tap(form)
        stored = legal and truth.accepts(number, data)
        assert stored == legal, (data, self.phone.steps())
        self.phone.save(url, form, stored)
        return int(stored)

    def correct(self) -> int:
        number = self.stored_number()
        if number is None:
            return self.enter(True)
        legal = self.rng.random() < 0.75
        data, fields = self.hand(number, legal)
        stored = self.correcting(number, data, legal)
        self.phone.save(f"{self.base}/{self.game}/{number}/edit", {
            "version": self.truth.version, "number": number, "action": "save", **fields},
            stored)
        return int(stored)


class Quarantotto(Rummy):
    game = "quarantotto"
    url = "quarantotto/game"

    def setup(self) -> tuple[int, dict[str, Any]]:
        options = self.rng.choice([{}, {"length": "games", "games": self.rng.randint(4, 8)},
                                   {"length": "target", "target": 200}])
        return self.rng.choice([2, 3, 4, 5]), options

    def hand(self, number: int, legal: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        rng = self.rng
        players, dealt = self.truth.table(number)
        closer = rng.choice([*dealt, "stock"])
        texts = {s: "" if s == closer else self.entry(s, closer) for s in dealt}
        if not legal:
            others = [s for s in dealt if s != closer]
            wrong = rng.choice(["one", "joker", "missing", "closer", "nobody"])
            if wrong == "closer" and closer != "stock":
                texts[closer] = "7"
            elif wrong == "nobody":
                closer = ""
            else:
                texts[rng.choice(others)] = {"one": "1", "joker": "7 *", "missing": "",
                                              "closer": "1"}[wrong]
        data = {"closer": None if closer in ("stock", "") else closer,
                "points": [texts.get(s) or None for s in range(players)]}
        return data, {"closer": closer, **{f"values-{s}": t for s, t in texts.items()}}


class Scala40(Rummy):
    game = "scala40"
    url = "scala40/deal"
    keys = (*RANKS, "Jolly")

    def setup(self) -> tuple[int, dict[str, Any]]:
        players = self.rng.choice([2, 3, 4, 4, 5])
        options: dict[str, Any] = self.rng.choice([
            {"reentry": True}, {}, {"end": "deals", "deals": 6}])
        if players == 4 and self.rng.random() < 0.4:
            options["pairs"] = True
        options["in_hand_doubles"] = self.rng.random() < 0.8
        return players, options

    def hand(self, number: int, legal: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        rng = self.rng
        players = self.truth.table(number)[0]
        offered = self.truth.before(number).next
        may = [entry["seat"] for entry in offered.info.may_reenter]
        reentries = [s for s in may if rng.random() < 0.6]
        playing = sorted(set(offered.seats) | set(reentries))
        if legal and rng.random() < 0.1:  # a stalemate
            data = {"annulled": True, **({"reentries": reentries} if reentries else {})}
            return data, {"action": "annul", "reentries": reentries}
        closer = rng.choice(playing)
        never = [s for s in playing if s != closer and rng.random() < 0.15]
        in_hand = rng.random() < 0.15
        skip = scala40.uncounted(self.truth.sheet.columns, closer, never)
        texts = {s: self.entry(s, closer) for s in playing if s != closer and s not in skip}
        if not legal:
            wrong = rng.choice(["nobody", "never", "zero", "out"])
            out = [s for s in range(players) if s not in playing]
            if wrong == "never":
                never = [*never, closer]
            elif wrong == "zero" and texts:
                texts[rng.choice(list(texts))] = "0"
            elif wrong == "out" and out:
                texts[rng.choice(out)] = "K"
            else:
                closer = ""
        data = {"closer": closer if closer != "" else None,
                "points": [texts.get(s) for s in range(players)], "never_opened": never,
                "closed_in_hand": in_hand, "reentries": reentries}
        fields = {"closer": closer, "never": never, "reentries": reentries,
                  **{f"values-{s}": t for s, t in texts.items()}}
        if in_hand:
            fields["closed_in_hand"] = "y"
        return data, fields


class CavalloRe(Driver):
    game = "cavallore"

    def setup(self) -> tuple[int, dict[str, Any]]:
        return self.rng.choice([1, 1, 2, 3]), {}

    def deal(self, number: int, legal: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        rng = self.rng
        seat = rng.choice(self.truth.table(number)[1])
        placed: Any = rng.choice([36, rng.randint(0, 35)])
        if not legal:
            placed = rng.choice([37, -1, "x", ""])
        return {"placed": placed, "seat": seat}, {"placed": placed, "seat": seat}

    def enter(self, legal: bool) -> int:
        truth = self.truth
        number = truth.sheet.next.number
        data, fields = self.deal(number, legal)
        stored = truth.accepts(number, data)
        assert stored == legal, (data, self.phone.steps())
        self.phone.save(f"{self.base}/cavallore/deal",
                        {"version": truth.version, "number": number, **fields}, stored)
        return int(stored)

    def correct(self) -> int:
        number = self.stored_number()
        if number is None:
            return self.enter(True)
        legal = self.rng.random() < 0.75
        data, fields = self.deal(number, legal)
        stored = self.correcting(number, data, legal)
        self.phone.save(f"{self.base}/cavallore/{number}/edit",
                        {"version": self.truth.version, "number": number, **fields}, stored)
        return int(stored)


DRIVERS = {driver.game: driver for driver in (Navawhist, Quarantotto, Scala40, FortyFive,
                                                CavalloRe)}


@dataclass
class Steps:
    """What Undo and Redo can take back: the changes stored and not undone, the undone
    ones a Redo can put back (a new change ends those)."""

    done: int = 0
    undone: int = 0

    def stored(self, changes: int) -> None:
        if changes:
            self.done, self.undone = self.done + changes, 0


def play(phone: Phone, driver: Driver, steps: list[str]) -> None:
    players, options = driver.setup()
    phone.new_match(driver.game, players, phone.rng.randrange(players), options)
    stack = Steps()
    for kind in steps:
        if kind in ("undo", "redo"):
            possible = stack.done if kind == "undo" else stack.undone
            phone.save(f"{driver.base}/{kind}", {"version": phone.last.version}, bool(possible))
            if possible:
                moved = 1 if kind == "undo" else -1
                stack.done, stack.undone = stack.done - moved, stack.undone + moved
        elif kind == "correct":
            stack.stored(driver.correct())
        elif kind == "people":  # a change of who plays of any kind
            stack.stored(driver.people(phone.rng.choice(KINDS)))
        elif kind in KINDS:
            stack.stored(driver.people(kind))
        else:
            stack.stored(driver.enter(kind == "enter"))


@pytest.mark.slow
@pytest.mark.parametrize("game", list(DRIVERS))
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          phases=(Phase.explicit, Phase.generate),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(steps=st.lists(st.sampled_from(STEPS), min_size=5, max_size=8),
       seed=st.integers(0, 2**32 - 1))
@example(steps=["enter", "refuse", "enter", "correct", "undo", "redo", "refuse", "enter"],
         seed=41)
# A join, a sit-out, a substitute and a leave, each stored where the game takes it (Scala 40
# has nobody sit out, Cavallo Re only joins), then undone and redone among entries.
@example(steps=["enter", "join", "sit_out", "enter", "substitute", "correct", "undo", "redo",
                "leave", "enter"], seed=15)
def test_two_instances_show_what_the_database_holds(instances, game, steps, seed):
    assert set(DRIVERS) == set(BUILT_IN)  # every game is played
    rng = random.Random(seed)
    phone = Phone(instances, rng)
    play(phone, DRIVERS[game](phone, rng), steps)
