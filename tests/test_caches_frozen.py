"""What a worker keeps from one request to the next is frozen data, never an object of a
session: after matches played, corrected and undone, pages, polls and statistics served,
every value in every in-process cache is walked and nothing in it can be changed."""

from __future__ import annotations

import dataclasses
import random
from types import MappingProxyType

from scorekeeper.engine.cache import FrozenDict, FrozenList

from .test_stats import ANNA_ALL, BRUNO_ALL, play, table_of
from .test_tournaments_web import NAVA, Organiser, play_quarantotto, table_phone

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def changeable(value, path: str = "value", seen: set[int] | None = None) -> list[str]:
    """Where in ``value`` something could be changed in place: a plain dict, list, set or
    bytearray, an object of a database session, or a dataclass that is not frozen."""
    seen = set() if seen is None else seen
    if id(value) in seen or isinstance(value, str | bytes | int | float | bool | None):
        return []
    seen.add(id(value))
    if hasattr(value, "_sa_instance_state"):
        return [f"{path}: an ORM object ({type(value).__name__})"]
    found = []
    if isinstance(value, FrozenDict | MappingProxyType):
        for key, item in value.items():
            found += changeable(item, f"{path}[{key!r}]", seen)
    elif isinstance(value, FrozenList | tuple | frozenset):
        for index, item in enumerate(value):
            found += changeable(item, f"{path}[{index}]", seen)
    elif isinstance(value, dict | list | set | bytearray):
        found.append(f"{path}: a plain {type(value).__name__}")
    elif dataclasses.is_dataclass(value):
        first = dataclasses.fields(value)[0].name
        try:
            setattr(value, first, getattr(value, first))
            found.append(f"{path}: a {type(value).__name__} whose fields can be set")
        except dataclasses.FrozenInstanceError:
            pass
        for field in dataclasses.fields(value):
            found += changeable(getattr(value, field.name), f"{path}.{field.name}", seen)
    return found


def test_every_kept_value_is_frozen(app, table, client):
    first = play(table, [ANNA_ALL, ANNA_ALL])
    play(table, [BRUNO_ALL, ANNA_ALL])
    navawhist = table.new_match("navawhist", NAMES)
    table.play_navawhist(navawhist, [1, 0, 0, 1], [1, 0, 0, 0])
    assert table.bid(navawhist, 1).status_code == 303
    assert table.post(f"/matches/{navawhist}/undo",
                      {"version": table.sheet(navawhist)["version"]}).status_code == 303
    assert table.post(f"/matches/{navawhist}/redo",
                      {"version": table.sheet(navawhist)["version"]}).status_code == 303
    for match_id in (first, navawhist):
        for address in (f"/matches/{match_id}", f"/matches/{match_id}/live",
                        f"/matches/{match_id}.json", f"/matches/{match_id}/history"):
            assert client.get(address).status_code == 200, address
        assert app.test_client().get(f"/matches/{match_id}/live?since=0",
                                     headers={"HX-Request": "true"}).status_code == 200
    assert client.get(f"/tables/{table_of(table, first)}/stats").status_code == 200
    # A tournament's round, played, its standings and pages served.
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("quarantotto", NAVA[:8], opt_games=1)
    for link in organiser.seat(tournament_id):
        play_quarantotto(table_phone(app, link), random.Random(3))
    for address in (f"/tournaments/{tournament_id}", f"/tournaments/{tournament_id}.json"):
        assert organiser.client.get(address).status_code == 200, address
    caches = app.extensions.get("scorekeeper.caches", {})
    if not app.config["CACHES"]:
        assert all(not cache.entries for cache in caches.values())
        return
    kept = {name: dict(cache.entries.items()) for name, cache in caches.items()}
    assert {"sheets", "inputs", "steps", "pages", "table-stats", "tournaments"} <= {
        name for name, entries in kept.items() if entries}
    problems = [problem for name, entries in kept.items() for key, value in entries.items()
                for problem in changeable(value, f"{name}[{key!r}]")]
    assert problems == []
