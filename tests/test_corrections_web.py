"""A correction looks like entry (issue 45): each past hand's row offers "Correct hand 3", the
correction page of each game has the entry's keys, prefilled, in the entry's order, and a
tap another phone overtook says what was not saved and why."""

from __future__ import annotations

import re

import pytest

from .test_fortyfive_web import FortyFive
from .test_quarantotto_web import play as play_quarantotto

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
ITALIAN = {"Accept-Language": "it"}


def played(table, game: str) -> str:
    """A match of ``game`` with one hand played, and the endpoint of its corrections."""
    match_id = table.new_match(game, NAMES[:2] if game == "cavallore" else NAMES)
    sheet = table.sheet(match_id)
    if game == "navawhist":
        table.play_navawhist(match_id, [1, 0, 0, 1], [1, 0, 0, 0])
    elif game == "quarantotto":
        assert play_quarantotto(table, match_id, 0, [None, 20, 15, 9]).status_code == 303
    elif game == "scala40":
        assert table.post(f"/matches/{match_id}/scala40/deal", {
            "version": sheet["version"], "number": 1, "closer": 0, "action": "save",
            "values-1": 20, "values-2": 15, "values-3": 9}).status_code == 303
    elif game == "fortyfive":
        assert FortyFive(table, match_id).tap_winners([0, 1, 2, 0, 3], bonus=1)\
            .status_code == 303
    else:
        assert table.post(f"/matches/{match_id}/cavallore/deal", {
            "version": sheet["version"], "number": 1, "placed": 30, "seat": 0}).status_code == 303
    return match_id


ROW_WORD = {"navawhist": ("hand", "la mano"), "fortyfive": ("hand", "la mano"),
            "quarantotto": ("game", "il giro"), "scala40": ("deal", "la smazzata"),
            "cavallore": ("deal", "la smazzata")}


@pytest.mark.parametrize("game", list(ROW_WORD))
def test_each_row_offers_a_named_correct_control(table, game):
    match_id = played(table, game)
    english, italian = ROW_WORD[game]
    for headers, words in (({}, f"Correct {english} 1"), (ITALIAN, f"Correggi {italian} 1")):
        page = table.client.get(f"/matches/{match_id}", headers=headers).get_data(as_text=True)
        link = re.search(r'<a class="correct-hand"[^>]*>', page)
        assert link, game
        assert f'href="/matches/{match_id}/{game}/1/edit"' in link.group(0)
        assert f'aria-label="{words}"' in link.group(0)
    # A follower (no right to edit) sees the number alone.
    follower = table.client.application.test_client()
    assert 'class="correct-hand"' not in follower.get(f"/matches/{match_id}").get_data(as_text=True)
