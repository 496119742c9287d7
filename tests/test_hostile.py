"""Hostile input: random and hostile values sent to every endpoint never give a 5xx.

Every rule of ``app.url_map`` that accepts POST gets forms drawn by hypothesis: huge and
negative numbers, text in number fields, unicode, NUL bytes, very long strings, missing
and repeated fields, unknown fields. Most requests carry the right CSRF token, a plausible
version and a match of the right game, so they reach the rules; some carry a wrong token,
a stale version, another game's match or an id that does not exist. Every rule accepting
GET gets hostile path values and query strings the same way.

The bugs the draws found are pinned by the named tests at the end.
"""

from __future__ import annotations

import hashlib
import io
import json
import reprlib
import secrets
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from werkzeug.routing import Rule

from scorekeeper import create_app, models
from scorekeeper.db import db
from scorekeeper.engine.sheets import compute_sheet
from scorekeeper.models import Invitation, Match
from scorekeeper.rules import GAMES

from .conftest import Table, database_url, drop_database, migrated_app, report
from .test_certificate import make_ca

pytestmark = pytest.mark.slow

MISSING_ID = "nOsUcHmAtCh0000000000000"
PLAYERS = {"navawhist": 4, "quarantotto": 4, "scala40": 4, "fortyfive": 4, "cavallore": 2}
NAMES = ["Anna", "Bruno", "Carla", "Dario"]
TABLE_NAMES = [*NAMES, "Elena", "Franco", "Gina", "Hugo", "Ilaria", "Luca", "Marta", "Nino",
               "anna"]
SEAT_FIELDS = 6
EXAMPLES = 40
GET_EXAMPLES = 20
PDF_EXAMPLES = 8  # a PDF takes WeasyPrint a good part of a second
REACHED = {200, 302, 303, 409, 422}  # the view ran: past the CSRF check, the guard and the loader


def _rules() -> list[Rule]:
    app = create_app({"TESTING": True, "SECRET_KEY": "rules",
                      "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return sorted(app.url_map.iter_rules(), key=lambda r: (r.rule, r.endpoint))


RULES = _rules()
POST_RULES = [r for r in RULES if "POST" in r.methods]
GET_RULES = [r for r in RULES if "GET" in r.methods]


def _values(prefix: str) -> list[str]:
    return [f"{prefix}-{seat}" for seat in range(SEAT_FIELDS)]


HAND = ["version", "number"]
OPTIONS = sorted({f"opt_{o.key}" for g in GAMES.values() for o in g.options})
FIELDS: dict[str, list[str]] = {
    "site.switch_language": ["next"],
    "site.switch_type": ["next"],
    "matches.new": ["game", "action", "add_name", "first_dealer", "place", *OPTIONS,
                    *[f"players-{i}" for i in range(12)]],
    "matches.undo_last": ["version"],
    "matches.reopen_match": ["version"],
    "backups.restore": [],  # the file: see backup_file()
    "navawhist.bid": [*HAND, "seat", "bid"],
    "navawhist.tricks": [*HAND, "trump", "action", *_values("values")],
    "navawhist.edit": [*HAND, "trump", *_values("values"), *_values("bids")],
    "quarantotto.cards": [*_values("values"), "tap"],
    "quarantotto.enter": [*HAND, "action", "closer", "tap", *_values("values")],
    "scala40.cards": [*_values("values"), "tap"],
    "scala40.enter": [*HAND, "action", "closer", "closed_in_hand", "never", "reentries", "tap",
                      *_values("values")],
    "fortyfive.hand": [*HAND, "action", "mode", "winners", "bonus", "bonus_side", "trump",
                       "leader", "cards", "suit", *_values("side")],
    "cavallore.deal": [*HAND, "placed", "seat"],
    "tables.rename": ["name"],
    "tables.name_phone": ["name"],
    "tables.invite": ["match"],
    "tables.remove_phone": [],
    "tables.name_keeper": ["keeper"],
    "tables.join_table": [],
    "tables.rematch": [],
    "tables.delete_match": [],
    "cards.make": ["until", "phones"],
    "cards.withdraw": [],
    "tokens.make": ["name"],
    "tokens.withdraw": [],
    "tournaments.new": ["game", "name", "entrants", "format", "rounds", "size", "go_on",
                        "pairs", "seed", *OPTIONS],
    "tournaments.add_entrant": ["entrant"],
    "tournaments.withdraw": [],
    "tournaments.seat": ["version"],
    "tournaments.close": ["confirm"],
    "tournaments.reopen": ["version"],
    "tournaments.publish": ["version"],
    "tournaments.swap": ["version", "first", "second"],
    "tournaments.claim_entrant": ["entrant"],
    "tournaments.keep": [],
    "reviews.review": ["verdict", "change", "name", "note"],
}
FIELDS["quarantotto.edit"] = FIELDS["quarantotto.enter"]
FIELDS["scala40.edit"] = FIELDS["scala40.enter"]
FIELDS["fortyfive.edit"] = FIELDS["fortyfive.hand"]
FIELDS["cavallore.edit"] = FIELDS["cavallore.deal"]
# A form endpoint added later still gets every field name the app knows.
EVERY_FIELD = sorted({name for names in FIELDS.values() for name in names})
# The query parameters each page reads; every page also gets these and random ones.
QUERY: dict[str, list[str]] = {
    "exports.blank_pdf": ["game", "players", "lang", "name"],
    "matches.new": ["game", "table"],
    "tournaments.new": ["game"],
    "tournaments.confirm_close": ["then"],
    "tournaments.standings": ["after"],
    "tournaments.where": ["since"],
    "tournaments.screen": ["since", "theme"],
    "tournaments.next_round": ["since"],
    "matches.home": ["page"],
    "tables.show": ["page"],
    "api.matches": ["page", "limit"],
    "tables.join_table": ["m"],
    "matches.show": ["entry", "seat"],
    "fortyfive.edit": ["entry"],
    "static": ["v"],
}
QUERY_KEYS = sorted({key for keys in QUERY.values() for key in keys} | {"next", "mode"})
QUERY_VALUES: dict[str, st.SearchStrategy[str]] = {
    "m": st.sampled_from([MISSING_ID, "x" * 25, "\x00", "a\x00b"]),
    "table": st.sampled_from([MISSING_ID, "\x00", "a\x00b", "9" * 5000]),
    "game": st.sampled_from(sorted(GAMES)),
    "players": st.integers(1, 10).map(str),
    "lang": st.sampled_from(["en", "it"]),
    "name": st.sampled_from([*NAMES, "Élodie", "李"]),
    "entry": st.sampled_from(["winners", "sides", "cards"]),
    "seat": st.integers(0, 5).map(str),
    "page": st.one_of(st.integers(1, 5).map(str), st.sampled_from(["9" * 5000, "\x00"])),
    "limit": st.one_of(st.integers(1, 100).map(str), st.sampled_from(["0", "101", "9" * 5000])),
    "v": st.just("0123456789ab"),
    "then": st.sampled_from(["seat", "close"]),
    "after": st.one_of(st.integers(-1, 4).map(str), st.sampled_from(["9" * 5000, "\x00"])),
    "since": st.one_of(st.integers(-1, 6).map(str), st.sampled_from(["9" * 5000, "\x00"])),
    "theme": st.sampled_from(["light", "dark"]),
}


ON_POSTGRES = database_url(Path()).startswith("postgresql")
INT32 = range(-(2**31), 2**31)


SPECIAL = [
    "", " ", "0", "-1", "-0", "+1", "1.5", "1e3", "1_000", "NaN", "inf", "0x1f", "١٢", "１２",
    str(2**31), str(2**63), str(-(2**63) - 1), str(10**40), "9" * 4000, "9" * 4301, "9" * 5000,
    "None", "null", "true",
    "[]", "{}", "<script>alert(1)</script>", '" onmouseover="alert(1)', "'; DROP TABLE hands;--",
    "\x00", "a\x00b", "\u202eevil", "\U0001f0a1\U0001f0b1", "é" * 40, "\r\n", "\t", "A" * 5000,
    "A♥ " * 2000, "+".join(["9"] * 2000), "10+", "+", "*", "Jolly " * 50, "stock", "none",
    "save", "annul", "preview", "tap:99", "tap:-1", "card:A", "card:", "up:99", "remove:-1",
    "pick:", "0:A", "99:A", "0:Z", ":", "%00", "../../etc/passwd", "//evil.example",
    "http://evil.example/", "javascript:alert(1)",
]
# Numbers as a hostile visitor writes them: runs of signs, hundreds or thousands of digits,
# exponents, other scripts' digits, NaN and infinity in their spellings.
DIGITS = st.text(alphabet="0123456789", min_size=1, max_size=6)
NUMBER = st.one_of(
    st.tuples(st.text(alphabet="+-", min_size=2, max_size=5), DIGITS).map("".join),
    st.integers(300, 5000).map(lambda n: "9" * n),
    st.tuples(st.sampled_from(["", "-", "+"]), st.integers(300, 500)).map(
        lambda p: p[0] + "1" * p[1]),
    st.tuples(DIGITS, st.sampled_from(["e", "E"]), st.sampled_from(["", "-", "+"]),
              st.sampled_from(["999", "308", "5", "99999"])).map("".join),
    st.text(alphabet="٠١٢٣٤٥٦٧٨٩०१२३४५६७८९０１２３４５６７８９߀߁𝟘𝟙", min_size=1, max_size=5),
    st.sampled_from(["NaN", "nan", "-nan", "inf", "-inf", "Infinity", "-Infinity", "1e999",
                     "-1e999", "1e-999", "0.0", "-0.0", "1_0", "0b1", "0o7", "½", "²", "Ⅻ"]),
)
TEXT = st.one_of(
    st.sampled_from(SPECIAL),
    NUMBER,
    st.tuples(NUMBER, st.sampled_from([":A", ":K", ":back"])).map("".join),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.text(max_size=30),
    st.text(min_size=1, max_size=3).map(lambda s: s * 3000),
)


@dataclass
class Context:
    """What a plausible form for one match looks like right now."""

    match_id: str
    game: str | None
    players: int
    version: int
    next_number: int
    number: int | None  # the hand number in the address, for corrections
    bidder: int | None = None  # Navawhist: whose bid is asked
    endpoint: str = ""


def plausible(name: str, ctx: Context) -> st.SearchStrategy[str | None]:
    """A value such as the page would post for the field ``name`` (None: not sent)."""
    seat = st.integers(0, max(ctx.players - 1, 0)).map(str)
    cards = st.sampled_from(["A", "K", "7", "10", "J", "Q", "5", "*", "Jolly", "A♥", "5♥",
                             "J♦", "K♣", "2♠", "10h", "qs"])
    if name == "version":
        v = ctx.version
        return st.sampled_from([v, v, v, v - 1, v + 1]).map(str)
    if name == "number":
        n = ctx.number or ctx.next_number
        return st.sampled_from([n, n, n, n, ctx.next_number - 1, ctx.next_number + 1]).map(str)
    if name == "seat" and ctx.bidder is not None:
        return st.one_of(st.just(str(ctx.bidder)), seat)
    if name in ("seat", "leader", "first_dealer"):
        return seat
    if name == "closer":
        return st.one_of(seat, st.just("stock"))
    if name.startswith(("values-", "bids-", "side-")):
        return st.one_of(st.integers(0, 40).map(str), st.lists(cards, max_size=5).map(" ".join),
                         st.sampled_from(["10+15+8", ""]))
    if name == "bid":
        return st.integers(0, 3).map(str)
    if name == "placed":
        return st.integers(0, 36).map(str)
    if name == "action":
        return st.one_of(
            st.sampled_from(["save", "save", "preview", "refresh", "annul", "start", "add",
                             "clear", "uncard"]),
            st.builds("{}:{}".format, st.sampled_from(["up", "remove", "tap", "pick"]), seat),
            st.builds("card:{}".format, st.sampled_from(["A", "5", "J", "10", "K"])))
    if name == "tap":  # sent only when a key of the card keypad is pressed
        keys = () if ctx.endpoint.endswith(".cards") else (st.just(None), st.just(None))
        return st.one_of(*keys, st.builds("{}:{}".format, seat,
                         st.sampled_from(["A", "K", "7", "10", "Jolly", "back", "clear", "show"])))
    if name == "mode":
        return st.sampled_from(["winners", "sides", "cards"])
    if name in ("trump", "suit"):
        return st.sampled_from(["♥", "♦", "♣", "♠", "H", "s", ""])
    if name == "winners":
        return st.lists(seat, max_size=6).map(",".join)
    if name in ("bonus", "bonus_side"):
        return st.one_of(seat, st.just("none"))
    if name == "cards":
        return st.lists(cards, max_size=21).map(" ".join)
    if name in ("never", "reentries"):
        return seat
    if name == "closed_in_hand":
        return st.sampled_from(["y", "on", "1"])
    if name == "game":
        return st.sampled_from(sorted(GAMES))
    if name.startswith("players-"):  # four rows at first, rarely more; distinct names mostly
        seat_number = int(name.partition("-")[2])
        own = st.just(TABLE_NAMES[seat_number])
        if seat_number < 4:
            return st.one_of(own, own, own, st.sampled_from(TABLE_NAMES))
        return st.one_of(st.none(), st.none(), st.none(), own)
    if name == "add_name":
        return st.sampled_from(TABLE_NAMES)
    if name == "place":
        return st.text(max_size=20)
    if name.startswith("opt_"):
        return st.sampled_from(["y", "", "players", "games", "target", "elimination", "deals",
                                "45", "120", "101", "501", "3", "10", "200"])
    if name == "next":
        return st.sampled_from(["/", "/matches/new", "/sheets"])
    if name == "entrants":  # a tournament's: 8 to 12 names, or pairs
        return st.integers(6, 13).map(lambda n: "\n".join(f"E{i}" for i in range(n))) | \
            st.just("A + B\nC + D\nE + F\nG + H\nI + J\nK + L\nM + N\nO + P")
    if name in ("name", "entrant"):
        return st.sampled_from(["Evening", "Zed", "A + B", "", "x" * 70])
    if name == "format":
        return st.sampled_from(["danish", "groups", "knockout", "swiss"])
    if name in ("rounds", "size", "go_on", "seed"):
        return st.sampled_from(["1", "3", "4", "5", "0", "99", "-1", "2147483648"])
    if name == "pairs":
        return st.sampled_from(["y", ""])
    if name == "until":
        return st.sampled_from(["2h", "6h", "midnight", "morning", "48h", ""])
    if name == "phones":
        return st.sampled_from(["1", "8", "12", "0", "13", "99999", "-1", "٣"])
    return TEXT


@st.composite
def field_value(draw: st.DrawFn, name: str, ctx: Context) -> str | list[str] | None:
    """A field as posted: mostly plausible, else hostile, missing or repeated."""
    kind = draw(st.sampled_from(["plausible"] * 8 + ["hostile"] * 2 + ["missing", "repeated"]))
    if kind == "plausible":
        return draw(plausible(name, ctx))
    if kind == "hostile":
        return draw(TEXT)
    if kind == "missing":
        return None
    values = draw(st.lists(st.one_of(plausible(name, ctx), TEXT), min_size=2, max_size=4))
    return [value for value in values if value is not None]


JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-(2**31), 2**31 - 1),
                      st.integers(10**300, 10**400), st.floats(-1e6, 1e6), TEXT)
JSON = st.recursive(JSON_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=12)
SMALL = st.one_of(st.integers(-3, 40), JSON_LEAF)
WHEN = st.one_of(st.just("2026-01-02T03:04:05"), st.just("2026-13-45"), TEXT, JSON_LEAF)
HAND_DATA = st.one_of(
    JSON,
    st.fixed_dictionaries({"placed": SMALL, "seat": SMALL}),
    st.fixed_dictionaries({"bids": st.lists(SMALL, max_size=5),
                           "tricks": st.one_of(st.none(), st.lists(SMALL, max_size=5))}),
    st.fixed_dictionaries({"closer": SMALL, "points": st.lists(st.one_of(SMALL, TEXT),
                                                               max_size=5)},
                          optional={"never_opened": st.lists(SMALL, max_size=3),
                                    "closed_in_hand": JSON_LEAF,
                                    "reentries": st.lists(SMALL, max_size=3),
                                    "annulled": JSON_LEAF}),
    st.fixed_dictionaries({}, optional={
        "trick_winners": st.lists(SMALL, max_size=6), "bonus_seat": SMALL,
        "side_tricks": st.lists(SMALL, max_size=4), "bonus_side": SMALL,
        "trump": JSON_LEAF, "plays": st.lists(TEXT, max_size=5), "leader": SMALL}),
)
# Names a match may hold: distinct once stripped and case-folded, as long as the column.
BACKUP_NAMES = st.lists(st.text(min_size=1, max_size=30),
                        max_size=8, unique_by=lambda s: s.strip().casefold())


@st.composite
def backup_entry(draw: st.DrawFn, existing: list[str]) -> Any:
    """One match of a backup file, with hostile values where the import must check them."""
    entry = {
        "id": draw(st.one_of(st.sampled_from(existing), st.text(min_size=1, max_size=24).filter(
            lambda s: s.strip()))),
        "game": draw(st.one_of(st.sampled_from(sorted(GAMES)), TEXT)),
        "options": draw(st.one_of(st.dictionaries(
            st.sampled_from([o[4:] for o in OPTIONS]), JSON_LEAF, max_size=3), JSON)),
        "first_dealer": draw(st.one_of(st.integers(-3, 12), JSON_LEAF)),
        "place": draw(st.one_of(st.none(), st.text(max_size=60))),
        "lang": draw(st.one_of(st.sampled_from(["en", "it"]), TEXT, JSON_LEAF)),
        "created_at": draw(WHEN),
        "updated_at": draw(WHEN),
        "locked": draw(JSON_LEAF),
        "players": draw(BACKUP_NAMES),
        "hands": draw(st.lists(st.fixed_dictionaries({
            "number": st.one_of(st.integers(-1, 4), JSON_LEAF), "data": HAND_DATA,
            "created_at": WHEN, "updated_at": WHEN}), max_size=4)),
        "history": draw(st.lists(st.fixed_dictionaries({
            "number": st.one_of(st.integers(-1, 4), JSON_LEAF),
            "kind": st.one_of(st.sampled_from(["enter", "correct", "undo"]),
                              TEXT.filter(lambda s: len(s) <= 10)),
            "old": st.one_of(st.none(), HAND_DATA), "new": st.one_of(st.none(), HAND_DATA),
            "undone": JSON_LEAF, "created_at": WHEN}), max_size=3)),
    }
    for key in draw(st.lists(st.sampled_from(sorted(entry)), max_size=2)):
        entry.pop(key, None)
    return entry


@st.composite
def backup_file(draw: st.DrawFn, existing: list[str]) -> bytes:
    """A backup file: a backup with hostile matches, other JSON, or no JSON at all."""
    kind = draw(st.sampled_from(["backup"] * 4 + ["json", "bytes", "text", "nested",
                                                   "number"]))
    if kind == "nested":
        return draw(st.sampled_from(["[", '{"a":', "[{\"b\":"])).encode() * draw(
            st.integers(500, 100_000))
    if kind in ("backup", "number"):
        data = {"format": draw(st.sampled_from(["scorekeeper-backup"] * 4 + ["other"])),
                "version": draw(st.one_of(st.just(1), JSON_LEAF)),
                "matches": draw(st.one_of(st.lists(backup_entry(existing), max_size=3),
                                          JSON))}
        text = json.dumps(data, ensure_ascii=draw(st.booleans()))
        if kind == "number":  # a number JSON can spell but no float holds, or NaN
            spelled = draw(st.sampled_from(["1e999", "-1e999", "NaN", "Infinity", "9" * 5000]))
            text = f'{text[:-1]}, "size": {spelled}}}'
        return text.encode()
    if kind == "json":
        return json.dumps(draw(JSON)).encode()
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    return draw(TEXT).encode("utf-8", "surrogatepass")


SHORT = reprlib.Repr()
SHORT.maxstring = SHORT.maxother = 160
SHORT.maxlist, SHORT.maxdict, SHORT.maxlevel = 20, 40, 4


@dataclass
class World:
    """One app for the module, a browser holding the right to edit its matches."""

    app: Flask
    client: FlaskClient
    table: Table
    statuses: dict[str, Counter] = field(default_factory=dict)

    def matches(self) -> dict[str, list[str]]:
        """Fresh matches of each game with one hand played, by game.

        Navawhist has two: one asking for a bid, one asking for the tricks.
        """
        t = self.table
        ids = {game: t.new_match(game, NAMES[:n]) for game, n in PLAYERS.items()}
        tricks = t.new_match("navawhist", NAMES)
        for match_id in (ids["navawhist"], tricks):
            t.play_navawhist(match_id, [0, 0, 0, 0], [1, 0, 0, 0])
        for seat in t.sheet(tricks)["next"]["info"]["order"]:
            assert t.bid(tricks, 0, seat=seat).status_code == 303
        plays = [
            ("quarantotto/game", {"closer": 0, "action": "save", "values-1": "A K 7",
                                  "values-2": "10+15", "values-3": 9}),
            ("scala40/deal", {"closer": 0, "action": "save", "values-1": "A",
                              "values-2": "Q Q 9", "values-3": "5"}),
            ("fortyfive/hand", {"mode": "winners", "winners": "0,1,0,1,0", "bonus": "0",
                                "action": "save"}),
            ("cavallore/deal", {"placed": 30, "seat": 0}),
        ]
        for path, data in plays:
            match_id = ids[path.split("/")[0]]
            sheet = t.sheet(match_id)
            response = t.post(f"/matches/{match_id}/{path}",
                              {"version": sheet["version"], "number": 1, **data})
            assert response.status_code == 303, response.get_data(as_text=True)[:2000]
        return {game: [match_id, tricks] if game == "navawhist" else [match_id]
                for game, match_id in ids.items()}

    def context(self, match_id: str, game: str | None, number: int | None) -> Context:
        """The match as it stands: its version and the number of its next hand."""
        with self.app.app_context():
            match = db.session.scalar(select(Match).where(Match.id == match_id))
            if match is None:
                return Context(match_id, game, 4, 0, 1, number)
            nxt = compute_sheet(match).next
            return Context(match_id, match.game, len(match.seats), match.version,
                           nxt.number if nxt else len(match.hands) + 1, number,
                           getattr(nxt.info, "bidder", None) if nxt else None)

    def table_id(self, match_id: str) -> str:
        with self.app.app_context():
            return db.session.scalar(select(Match.table_id).where(Match.id == match_id)) \
                or MISSING_ID

    def invitation(self, table_id: str) -> str:
        """The token of a fresh invitation to the table."""
        token = secrets.token_urlsafe(16)
        with self.app.app_context():
            db.session.add(Invitation(table_id=table_id,
                                      token_hash=hashlib.sha256(token.encode()).hexdigest(),
                                      expires_at=datetime(2100, 1, 1)))
            db.session.commit()
        return token

    def screen_token(self, table_id: str) -> str:
        """The read-only token in the address of the table's screen."""
        with self.app.app_context():
            token = db.session.scalar(select(models.Table.screen_token).where(
                models.Table.id == table_id))
        return token or MISSING_ID

    def calendar_token(self, table_id: str) -> str:
        """The read-only token in the address of the table's calendar."""
        with self.app.app_context():
            token = db.session.scalar(select(models.Table.calendar_token).where(
                models.Table.id == table_id))
        return token or MISSING_ID

    def shown_invitation(self, table_id: str) -> int:
        """The number of an invitation this browser made to the table: the one its page
        shows again."""
        made = self.table.post(f"/tables/{table_id}/invitations", {})
        assert made.status_code == 303, made.status_code
        return int(made.headers["Location"].rsplit("/", 1)[1])

    def shown_card(self, table_id: str) -> int:
        """The number of a table card this browser made: the one its pages show."""
        made = self.table.post(f"/tables/{table_id}/cards", {"until": "2h", "phones": "3"})
        assert made.status_code == 303, made.status_code
        return int(made.headers["Location"].rsplit("/", 1)[1])

    def read_token(self, table_id: str) -> int:
        """The number of a read token of the table this browser made on its page."""
        made = self.table.post(f"/tables/{table_id}/read-tokens", {"name": "Hostile"})
        assert made.status_code == 303, made.status_code
        with self.app.app_context():
            return db.session.scalar(select(func.max(models.ApiToken.id)))

    def tournament(self, table_id: str) -> str:
        """A tournament of the table, its round 1 seated; made once."""
        if not hasattr(self, "_tournament"):
            made = self.table.post(f"/tables/{table_id}/tournaments/new", {
                "game": "navawhist", "name": "Evening", "format": "danish", "rounds": 20,
                "size": 4, "go_on": 2, "seed": 1,
                "entrants": "\n".join(f"Entrant {n}" for n in range(8))})
            assert made.status_code == 303, made.get_data(as_text=True)[:2000]
            self._tournament = made.headers["Location"].rsplit("/", 1)[1]
            seated = self.table.post(f"/tournaments/{self._tournament}/rounds", {"version": 0})
            assert seated.status_code == 303, seated.status_code
            published = self.table.post(f"/tournaments/{self._tournament}/rounds/1/publish",
                                        {"version": 1})
            assert published.status_code == 303, published.status_code
        return self._tournament

    def keep_token(self, table_id: str) -> str:
        """The token of the code that keeps a tournament table's match, in a round still
        open (the fuzzing may have closed the one before)."""
        tournament = self.tournament(table_id)
        with self.app.app_context():
            row = db.session.scalar(select(models.TournamentRound).where(
                models.TournamentRound.tournament_id == tournament)
                .order_by(models.TournamentRound.number.desc()).limit(1))
            version = db.session.get(models.Tournament, tournament).version
            closed = row is not None and row.closed
            db.session.remove()
        if closed:
            self.table.post(f"/tournaments/{tournament}/rounds", {"version": version})
            self.table.post(f"/tournaments/{tournament}/rounds/{row.number + 1}/publish",
                            {"version": version + 1})
        with self.app.app_context():
            return db.session.scalar(select(models.TournamentTable.token).where(
                models.TournamentTable.tournament_id == tournament)
                .order_by(models.TournamentTable.round.desc()).limit(1)) or MISSING_ID

    def send(self, rule: Rule, method: str, path: str, **kwargs: Any) -> int:
        """The request's status; an exception or a 5xx fails the test with the request."""
        try:
            response = getattr(self.client, method.lower())(path, **kwargs)
        except Exception as error:  # the test client re-raises what the app did not handle
            raise AssertionError(f"{method} {path!r} {SHORT.repr(kwargs)} raised "
                                 f"{SHORT.repr(error)}") from error
        status = response.status_code
        assert status < 500, f"{method} {path!r} {SHORT.repr(kwargs)} gave {status}"
        if 300 <= status < 400:  # never sent off to another site, whatever ``next`` says
            location = urlsplit(response.headers["Location"])
            assert location.netloc in ("", "localhost"), response.headers["Location"]
        self.statuses.setdefault(f"{method} {rule.rule}", Counter())[status] += 1
        return status


@pytest.fixture(scope="module")
def world(tmp_path_factory, request) -> Iterator[World]:
    """An app on a migrated database (PostgreSQL when TEST_DATABASE_URL is set), with a
    local certificate authority of its own for the certificate pages to hand out."""
    app = migrated_app(database_url(tmp_path_factory.mktemp("hostile")))
    app.config["CADDY_DIR"] = str(tmp_path_factory.mktemp("caddy"))
    make_ca(Path(app.config["CADDY_DIR"]))
    client = app.test_client()
    world = World(app, client, Table(client))
    yield world
    report(request.config, "Hostile input: endpoints covered (method rule: statuses seen)", [
        f"{endpoint}: " + ", ".join(f"{code}x{n}" for code, n in sorted(counts.items()))
        for endpoint, counts in sorted(world.statuses.items())])
    drop_database(app)


def _game_of(rule: Rule) -> str | None:
    """The game whose matches a rule takes; None for the rules every game shares."""
    blueprint = rule.endpoint.partition(".")[0]
    return blueprint if blueprint in GAMES else None


@st.composite
def match_choice(draw: st.DrawFn, rule: Rule,
                 ids: dict[str, list[str]]) -> tuple[str, str | None]:
    """(match id, its game): mostly the rule's own game, else another, missing or hostile."""
    game = _game_of(rule) or draw(st.sampled_from(sorted(ids)))
    kind = draw(st.sampled_from(["right"] * 12 + ["wrong", "missing", "hostile"]))
    if kind == "right":
        return draw(st.sampled_from(ids[game])), game
    if kind == "wrong":
        other = draw(st.sampled_from(sorted(set(ids) - {game})))
        return ids[other][0], other
    if kind == "missing":
        return MISSING_ID, None
    return draw(TEXT.filter(lambda s: s.strip("./") and len(s) < 300)), None


@st.composite
def path_of(draw: st.DrawFn, world: World, rule: Rule, ids: dict[str, list[str]],
            method: str) -> tuple[str, Context]:
    """The request's path for ``rule``, and the context of the match it names."""
    values: dict[str, Any] = {}
    match_id, game = MISSING_ID, _game_of(rule)
    if "match_id" in rule.arguments:
        match_id, game = draw(match_choice(rule, ids))
        values["match_id"] = match_id
    if "number" in rule.arguments:
        values["number"] = draw(st.sampled_from([1] * 8 + [0, 2, 10**12]))
    if "table" in rule.arguments:  # a tournament's table number
        values["table"] = draw(st.sampled_from([1] * 4 + [0, 2, 10**12]))
    if "code" in rule.arguments:
        values["code"] = draw(st.one_of(st.sampled_from(["en", "it", "en", "it", "xx"]),
                                        TEXT.filter(lambda s: s.strip("./") and len(s) < 300)))
    if "choice" in rule.arguments:
        values["choice"] = draw(st.one_of(st.sampled_from(["large", "normal", "huge"]),
                                          TEXT.filter(lambda s: s.strip("./") and len(s) < 300)))
    if "table_id" in rule.arguments or "token" in rule.arguments:
        table_id = world.table_id(draw(st.sampled_from(sorted(i for v in ids.values()
                                                               for i in v))))
        if "table_id" in rule.arguments:
            kind = draw(st.sampled_from(["right"] * 6 + ["missing", "hostile"]))
            values["table_id"] = table_id if kind == "right" else MISSING_ID \
                if kind == "missing" else draw(TEXT.filter(lambda s: s.strip("./")
                                                           and len(s) < 300))
        if "token" in rule.arguments:
            right = {"screens.table": world.screen_token,
                     "calendars.feed": world.calendar_token,
                     "tournaments.keep": world.keep_token}.get(rule.endpoint, world.invitation)
            values["token"] = draw(st.one_of(st.just(table_id).map(right),
                                             TEXT.filter(lambda s: s.strip("./") and
                                                         len(s) < 300)))
    if "tournament_id" in rule.arguments:
        tournament = world.tournament(world.table_id(next(iter(ids.values()))[0]))
        values["tournament_id"] = draw(st.one_of(
            st.just(tournament), st.just(tournament), st.just(tournament), st.just(MISSING_ID),
            TEXT.filter(lambda s: s.strip("./") and len(s) < 300)))
    if rule.endpoint == "tables.invitation" and values["table_id"] == table_id \
            and values["number"] == 1:
        values["number"] = world.shown_invitation(table_id)
    if rule.endpoint.startswith("cards.") and "number" in values \
            and values["table_id"] == table_id and values["number"] == 1:
        values["number"] = world.shown_card(table_id)
    if rule.endpoint == "tokens.withdraw" and values["table_id"] == table_id \
            and values["number"] == 1:
        values["number"] = world.read_token(table_id)
    if "size" in rule.arguments:
        values["size"] = draw(st.sampled_from(["a6", "a4"]))
    if "device_id" in rule.arguments:  # never this browser's own: it would leave its table
        values["device_id"] = draw(st.sampled_from([0, 999_999, 10**12]))
    if "filename" in rule.arguments:
        values["filename"] = draw(st.one_of(
            st.sampled_from(["css/app.css", "favicon.svg", "../pyproject.toml", "nope.js"]),
            TEXT.filter(lambda s: s.strip("./") and len(s) < 300)))
    path = world.app.url_map.bind("localhost").build(rule.endpoint, values, method=method)
    ctx = world.context(match_id, game, values.get("number"))
    ctx.endpoint = rule.endpoint
    return path, ctx


def _settings(examples: int) -> Callable:
    # No shrinking: a failure already shows the whole request, and shrinking one takes minutes.
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("rule", POST_RULES, ids=lambda r: f"POST {r.rule}")
def test_hostile_forms_never_give_a_5xx(world: World, rule: Rule) -> None:
    ids = world.matches()
    token = world.table.csrf()
    names = FIELDS.get(rule.endpoint, EVERY_FIELD)

    @_settings(EXAMPLES)
    @given(data=st.data())
    def post(data: st.DataObject) -> None:
        path, ctx = data.draw(path_of(world, rule, ids, "POST"), label="path")
        form: dict[str, Any] = {}
        for name in names:
            value = data.draw(field_value(name, ctx), label=name)
            if value is not None:
                form[name] = value
        multipart = rule.endpoint == "backups.restore" or data.draw(st.booleans(),
                                                                    label="multipart")
        form.update(data.draw(st.dictionaries(TEXT.filter(lambda s: s and len(s) < 100),
                                              TEXT, max_size=2), label="unknown fields"))
        csrf = data.draw(st.sampled_from(["right"] * 8 + ["wrong", "missing"]), label="csrf")
        if csrf != "missing":
            form["csrf_token"] = token if csrf == "right" else "x" + token[1:]
        kwargs: dict[str, Any] = {}
        if multipart:
            kwargs["content_type"] = "multipart/form-data"
            if rule.endpoint == "backups.restore":
                upload = data.draw(st.sampled_from(["file"] * 6 + ["none", "no name"]),
                                   label="upload")
                content = data.draw(backup_file([i for v in ids.values() for i in v]),
                                    label="file")
                if upload != "none":
                    name = "backup.json" if upload == "file" else ""
                    form["file"] = (io.BytesIO(content), name)
        if data.draw(st.booleans(), label="htmx"):
            kwargs["headers"] = {"HX-Request": "true"}
        world.send(rule, "POST", path, data=form, **kwargs)

    post()
    counts = world.statuses[f"POST {rule.rule}"]
    # Enough requests must get past the token and the loaders to the view and the rules.
    assert sum(counts[code] for code in REACHED) >= EXAMPLES // 8, counts


@pytest.mark.parametrize("rule", GET_RULES, ids=lambda r: f"GET {r.rule}")
def test_hostile_query_strings_never_give_a_5xx(world: World, rule: Rule) -> None:
    ids = world.matches()
    world.table.csrf()
    pdf = rule.rule.endswith(".pdf")

    @_settings(PDF_EXAMPLES if pdf else GET_EXAMPLES)
    @given(data=st.data())
    def get(data: st.DataObject) -> None:
        path, ctx = data.draw(path_of(world, rule, ids, "GET"), label="path")
        query: list[tuple[str, str]] = []
        for key in QUERY.get(rule.endpoint, []):
            kind = data.draw(st.sampled_from(["plausible"] * 8 + ["hostile", "missing",
                                                                  "repeated"]), label=key)
            if kind == "repeated":
                query += [(key, value) for value in data.draw(st.lists(
                    st.one_of(QUERY_VALUES[key], TEXT), min_size=2, max_size=4), label=key)]
            elif kind != "missing":
                query.append((key, data.draw(QUERY_VALUES[key] if kind == "plausible"
                                             else TEXT, label=key)))
        query += data.draw(st.lists(st.tuples(st.one_of(st.sampled_from(QUERY_KEYS), TEXT),
                                              TEXT), max_size=3), label="other parameters")
        headers = {"HX-Request": "true"} if data.draw(st.booleans(), label="htmx") else {}
        if data.draw(st.booleans(), label="If-None-Match"):
            headers["If-None-Match"] = data.draw(TEXT.filter(lambda s: "\n" not in s
                                                             and "\r" not in s
                                                             and "\x00" not in s))
        world.send(rule, "GET", path, query_string=query, headers=headers)

    get()
    counts = world.statuses[f"GET {rule.rule}"]
    assert sum(counts[code] for code in (200, 303, 304)) >= 1, counts


# Bugs found by the draws above, pinned by name.

SUPERSCRIPT_TWO = "\u00b2"  # '²': str.isdigit() is True, int() refuses it


def _call(world: World, method: str, path: str, **kwargs: Any) -> int | str:
    """The status, or the exception that TESTING re-raises (a 500 in production)."""
    try:
        return world.client.open(path, method=method, **kwargs).status_code
    except Exception as error:
        return repr(error)


def _post(world: World, path: str, form: dict[str, Any]) -> int | str:
    return _call(world, "POST", path, data={"csrf_token": world.table.csrf(), **form})


def _first(world: World) -> dict[str, str]:
    """Fresh matches, one per game, each with one hand played."""
    return {game: ids[0] for game, ids in world.matches().items()}


@pytest.mark.parametrize("where", ["cavallore placed", "navawhist bid", "quarantotto tap",
                                   "new match row", "home page"])
def test_a_superscript_digit_is_refused_not_a_500(world: World, where: str) -> None:
    ids = _first(world)
    cavallore = world.context(ids["cavallore"], None, None)
    navawhist = world.context(ids["navawhist"], None, None)
    assert (cavallore.next_number, navawhist.bidder) == (2, 2)
    if where == "home page":
        status = _call(world, "GET", "/", query_string={"page": SUPERSCRIPT_TWO})
        assert status == 200, status
        return
    path, form = {
        "cavallore placed": (f"/matches/{ids['cavallore']}/cavallore/deal",
                             {"version": cavallore.version, "number": 2, "seat": 0,
                              "placed": SUPERSCRIPT_TWO}),
        "navawhist bid": (f"/matches/{ids['navawhist']}/navawhist/bid",
                          {"version": navawhist.version, "number": 2, "seat": 2,
                           "bid": SUPERSCRIPT_TWO}),
        "quarantotto tap": (f"/matches/{ids['quarantotto']}/quarantotto/cards",
                            {"tap": f"{SUPERSCRIPT_TWO}:A"}),
        "new match row": ("/matches/new", {"game": "navawhist", "players-0": "Anna",
                                           "players-1": "Bruno",
                                           "action": f"up:{SUPERSCRIPT_TWO}"}),
    }[where]
    status = _post(world, path, form)
    # A row button that names no row just draws the form again; the rest are refused.
    assert status in ((200,) if where == "new match row" else (400, 422)), status


def test_a_total_of_five_thousand_digits_is_refused_not_a_500(world: World) -> None:
    match_id = _first(world)["scala40"]
    ctx = world.context(match_id, None, None)
    status = _post(world, f"/matches/{match_id}/scala40/deal", {
        "version": ctx.version, "number": 2, "action": "save", "closer": 1,
        "values-0": "9" * 5000, "values-2": "5", "values-3": "5"})
    assert status == 422, status


@pytest.mark.parametrize("number", ["2", "99", "", "x"])
def test_a_refused_navawhist_correction_with_a_wrong_number_is_not_a_500(
        world: World, number: str) -> None:
    match_id = _first(world)["navawhist"]
    ctx = world.context(match_id, None, None)
    form = {"version": ctx.version, "number": number}
    form.update({f"values-{seat}": 0 for seat in range(4)})  # 0 tricks of 1: refused
    form.update({f"bids-{seat}": 0 for seat in range(4)})
    status = _post(world, f"/matches/{match_id}/navawhist/1/edit", form)
    assert status in (409, 422), status




@pytest.mark.parametrize("version", [
    2**63, 2**31,
])
@pytest.mark.parametrize("step", ["undo", "reopen"])
def test_a_version_beyond_the_database_integers_is_a_409(world: World, step: str,
                                                           version: int) -> None:
    match_id = _first(world)["cavallore"]
    assert _post(world, f"/matches/{match_id}/{step}", {"version": version}) == 409
    assert world.context(match_id, None, None).next_number == 2  # nothing undone




@pytest.mark.parametrize("suffix", ["", ".json", "/live", "/undo"])
def test_a_match_address_holding_nul_is_a_404(world: World, suffix: str) -> None:
    method = "POST" if suffix == "/undo" else "GET"
    data = {"csrf_token": world.table.csrf(), "version": 0} if method == "POST" else None
    assert _call(world, method, f"/matches/ab%00cd{suffix}", data=data) == 404


@pytest.mark.parametrize("field", ["players-0", "place"])
def test_a_new_match_with_nul_in_a_name_or_place_is_not_a_500(world: World,
                                                               field: str) -> None:
    form = {"game": "cavallore", "action": "start", "first_dealer": 0, "players-0": "Nul",
            field: "Nu\x00l"}
    assert _post(world, "/matches/new", form) in (400, 422)  # no database stores a NUL


def _backup(world: World, *entries: dict[str, Any]) -> int | str:
    data = json.dumps({"format": "scorekeeper-backup", "version": 1, "matches": list(entries)})
    form = {"csrf_token": world.table.csrf(),
            "file": (io.BytesIO(data.encode()), "backup.json")}
    return _call(world, "POST", "/backup", data=form, content_type="multipart/form-data")


def _entry(match_id: str, **changes: Any) -> dict[str, Any]:
    entry = {"id": match_id, "game": "cavallore", "options": {}, "first_dealer": 0,
             "place": None, "lang": "en", "players": ["Zoe"], "hands": [], "history": [],
             "created_at": "2026-01-02T03:04:05", "updated_at": "2026-01-02T03:04:05"}
    entry.update(changes)
    return entry


@pytest.mark.parametrize("case", [
    "id not text", "a name twice", "id over 24 characters", "huge number", "place not text",
    "kind over 10 characters",
])
def test_a_bad_backup_entry_is_a_problem_not_a_500(world: World, case: str) -> None:
    entries = {
        "kind over 10 characters": [_entry("kindkindkind", history=[{
            "number": 1, "kind": "k" * 11, "old": None, "new": {"placed": 3, "seat": 0},
            "undone": False, "created_at": "2026-01-02T03:04:05"}])],
        "id not text": [_entry({"a": 1})],  # type: ignore[arg-type]
        "a name twice": [_entry("twicetwicetwice", players=["Zoe", "zoe"])],
        "id over 24 characters": [_entry("L" * 40)],  # imported once, then a crash
        "huge number": [_entry("hugehugehuge", first_dealer=10**30)],
        "place not text": [_entry("placeplaceplace", place={"x": 1})],
    }[case]
    assert _backup(world, *entries) == 200
    assert _backup(world, *entries) == 200


@pytest.mark.parametrize("name", ["a\\", "a\rb", "\n"])
def test_a_multipart_part_without_a_readable_name_is_a_400(world: World, name: str) -> None:
    status = _call(world, "POST", "/lang/en", data={name: "x"},
                   content_type="multipart/form-data")
    assert status == 400, status
