"""Backup files for the import figures and tests: valid matches of every size, written as
``scorekeeper export`` writes them (each hand with its entry in the history)."""

from __future__ import annotations

import json
import random
from typing import Any

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
WHEN = "2026-03-01T20:15:00"


def quarantotto_hands(games: int, players: int, rng: random.Random) -> list[dict[str, Any]]:
    """``games`` Quarantotto games: a closer and the others' points."""
    hands = []
    for _game in range(games):
        closer = rng.randrange(players)
        hands.append({"closer": closer, "points": [
            None if seat == closer else rng.randint(2, 60) for seat in range(players)]})
    return hands


def match_entry(number: int, hands: list[dict[str, Any]], table: str | None,
                players: int = 4) -> dict[str, Any]:
    """One match of a backup: a Quarantotto match of ``len(hands)`` games."""
    return {
        "id": f"imported-{number:06d}", "table": table, "game": "quarantotto",
        "options": {"length": "games", "games": len(hands), "target": 200},
        "first_dealer": 0, "place": "Bar Sport", "lang": "it", "finished": True,
        "locked": True, "abandoned": False, "created_at": WHEN, "updated_at": WHEN,
        "players": NAMES[:players],
        "hands": [{"number": n, "data": data, "created_at": WHEN, "updated_at": WHEN}
                  for n, data in enumerate(hands, start=1)],
        "history": [{"number": n, "kind": "enter", "old": None, "new": data, "undone": False,
                     "created_at": WHEN} for n, data in enumerate(hands, start=1)],
    }


def backup(matches: int, hands: int, *, seed: int = 1, phones: int = 0,
           table: str = "importedtable01") -> dict[str, Any]:
    """A backup of one table holding ``matches`` matches of ``hands`` games each and
    ``phones`` phones."""
    rng = random.Random(seed)
    entry = {"id": table, "name": "Bar Sport", "secret": "s" * 22, "created_at": WHEN,
             "phones": [{"device": f"device{n:016d}", "name": None, "joined_at": WHEN,
                         "last_seen": WHEN} for n in range(phones)]}
    return {"format": "scorekeeper/2", "tables": [entry], "matches": [
        match_entry(n, quarantotto_hands(hands, 4, rng), table) for n in range(matches)]}


def backup_bytes(matches: int, hands: int, **kwargs: Any) -> bytes:
    return json.dumps(backup(matches, hands, **kwargs), ensure_ascii=False).encode()


def at_caps(caps: Any, seed: int = 1) -> dict[str, Any]:
    """A valid backup at every cap of ``caps`` (a :class:`~scorekeeper.engine.backups.Caps`)
    at once: its tables, their phones, its matches spread over the tables, its hands spread
    over the matches, each hand entered and then corrected in the history."""
    rng = random.Random(seed)
    per_table = caps.phones // caps.tables
    tables = [{"id": f"benchtable{t:05d}", "name": f"Table {t}", "secret": f"secret{t:016d}",
               "created_at": WHEN,
               "phones": [{"device": f"d{t:05d}p{p:04d}", "name": f"Phone {p}",
                           "joined_at": WHEN, "last_seen": WHEN} for p in range(per_table)]}
              for t in range(caps.tables)]
    per_match = caps.hands // caps.matches
    changes = caps.changes // caps.matches
    matches = []
    for number in range(caps.matches):
        entry = match_entry(number, quarantotto_hands(per_match, 4, rng),
                            tables[number % caps.tables]["id"])
        history = entry["history"]
        for index in range(changes - len(history)):
            change = history[index % per_match]
            history.append({**change, "kind": "correct", "old": change["new"]})
        matches.append(entry)
    return {"format": "scorekeeper/2", "tables": tables, "matches": matches}
