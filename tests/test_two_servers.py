"""Two app servers on one database, as behind the load balancer of docs/operating.md: two
``scorekeeper serve`` processes (two gunicorn workers each) on the test database
(PostgreSQL when TEST_DATABASE_URL is set). A phone's every request goes to either server,
as a load balancer without sticky sessions sends it; after every write, both servers serve
the same sheet, and the live sheet a follower polls changes on both at once."""

from __future__ import annotations

import random
from collections.abc import Iterator
from http.cookiejar import CookieJar

import pytest

from bench.served import served

from .test_stress import Phone

pytestmark = pytest.mark.slow
NAMES = ["Anna", "Bruno", "Carla", "Dario"]


class Balanced:
    """One phone (one cookie jar) whose requests a load balancer spreads over ``bases``."""

    def __init__(self, bases: list[str], seed: int) -> None:
        jar = CookieJar()
        self.servers = [Phone(base, jar=jar) for base in bases]
        self.rng = random.Random(seed)
        self.reached: list[int] = []

    def any(self) -> Phone:
        index = self.rng.randrange(len(self.servers))
        self.reached.append(index)
        phone = self.servers[index]
        phone.token = next((p.token for p in self.servers if p.token), "")
        return phone

    def post(self, path: str, data: dict) -> int:
        reply = self.any().post(path, data)
        assert reply.status == 303, (path, data, reply.status, reply.body.decode()[-800:])
        return reply.status

    def sheet(self, match_id: str) -> dict:
        return self.any().sheet(match_id)


@pytest.fixture
def servers(app, tmp_path) -> Iterator[list[str]]:
    """The base URLs of two servers on the migrated test database of ``app``."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    with served(tmp_path / "unused.db", 2, DATABASE_URL=url) as first, \
            served(tmp_path / "unused.db", 2, DATABASE_URL=url) as second:
        yield [f"http://127.0.0.1:{first.port}", f"http://127.0.0.1:{second.port}"]


def same_everywhere(bases: list[str], match_id: str, etags: list[str]) -> dict:
    """The sheet as each server serves it to a follower, checked equal; ``etags`` (the live
    sheet's, one per server) must all have changed and are replaced by the new ones."""
    follower = [Phone(base) for base in bases]
    sheets = [phone.sheet(match_id) for phone in follower]
    assert all(sheet == sheets[0] for sheet in sheets), "the servers disagree"
    lives = [phone.get(f"/matches/{match_id}/live", {"If-None-Match": etag})
             for phone, etag in zip(follower, etags, strict=True)]
    assert [live.status for live in lives] == [200] * len(bases), "a server still had it"
    bodies = {live.body for live in lives}
    assert len(bodies) == 1, "the live sheets differ"
    etags[:] = [live.headers["ETag"] for live in lives]
    assert len(set(etags)) == 1
    for phone, etag in zip(follower, etags, strict=True):  # and nothing changed since
        assert phone.get(f"/matches/{match_id}/live", {"If-None-Match": etag}).status == 304
    return sheets[0]


def test_two_servers_serve_the_same_sheet_after_every_write(servers) -> None:
    phone = Balanced(servers, seed=45)
    match_id = phone.any().new_match("navawhist", NAMES)
    etags = ["", ""]
    sheet = same_everywhere(servers, match_id, etags)
    plays = [([1, 0, 1, 1], [1, 0, 0, 0]), ([0, 1, 1, 1], [0, 1, 1, 0]),
             ([1, 1, 0, 0], [1, 1, 0, 1])]
    writes = 0
    for bids, tricks in plays:
        for seat in sheet["next"]["info"]["order"]:
            phone.post(f"/matches/{match_id}/navawhist/bid", {
                "version": sheet["version"], "number": sheet["next"]["number"], "seat": seat,
                "bid": bids[seat]})
            sheet = same_everywhere(servers, match_id, etags)
            writes += 1
            assert sheet["next"]["info"]["bids"][seat] == bids[seat]
        phone.post(f"/matches/{match_id}/navawhist/tricks", {
            "version": sheet["version"], "number": sheet["next"]["number"], "trump": "",
            "action": "save", **{f"values-{i}": t for i, t in enumerate(tricks)}})
        sheet = same_everywhere(servers, match_id, etags)
        writes += 1
        assert sheet["hands"][-1]["inputs"]["tricks"] == tricks
    played = len(plays)
    assert len(sheet["hands"]) == played
    # A correction of hand 2's tricks, an undo of it and a redo, each through either server.
    hand = sheet["hands"][1]["inputs"]
    fixed = [1, 0, 1, 0]
    phone.post(f"/matches/{match_id}/navawhist/2/edit", {
        "version": sheet["version"], "number": 2, "trump": "",
        **{f"bids-{i}": b for i, b in enumerate(hand["bids"])},
        **{f"values-{i}": t for i, t in enumerate(fixed)}})
    corrected = same_everywhere(servers, match_id, etags)
    assert corrected["hands"][1]["inputs"]["tricks"] == fixed
    assert corrected["totals"] != sheet["totals"]
    phone.post(f"/matches/{match_id}/undo", {"version": corrected["version"]})
    undone = same_everywhere(servers, match_id, etags)
    assert undone["hands"][1]["inputs"]["tricks"] == hand["tricks"]
    assert undone["totals"] == sheet["totals"]
    phone.post(f"/matches/{match_id}/redo", {"version": undone["version"]})
    redone = same_everywhere(servers, match_id, etags)
    assert redone["totals"] == corrected["totals"]
    # The balancer did spread the phone's requests over both servers.
    assert writes == 15 and set(phone.reached) == {0, 1}
