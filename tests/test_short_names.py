"""Names at 10 players told apart: the short names a narrow column shows
(``web.templating.short_names``), and the sheet that shows them."""

from __future__ import annotations

import pytest

from scorekeeper.web.templating import short_names

from .conftest import Table

ALIKE = ["Anna", "Francesco", "Maria Grazia", "Dario", "Elena", "Franco", "Gina",
         "Maria Luisa", "Bartolomeo", "Nico"]


@pytest.mark.parametrize("room", [5, 6, 7, 8])
def test_short_names_are_all_different_fit_and_no_other_name_reads_in_them(room):
    shown = short_names(ALIKE, room)
    assert len(set(shown)) == len(ALIKE)
    assert all(len(name) <= room for name in shown)
    for name, short in zip(ALIKE, shown, strict=True):
        if len(name) <= room:
            assert short == name
            continue
        head, _cut, tail = short.partition("…")
        assert name.startswith(head) and name.endswith(tail)
        # No other name starts as this one does (even one letter shorter) and ends alike.
        assert not [other for other in ALIKE if other != name
                    and other.startswith(head[:-1]) and other.endswith(tail)], short


def test_franco_and_francesco_maria_grazia_and_maria_luisa():
    assert short_names(ALIKE, 6) == ["Anna", "Fr…sco", "Mar…ia", "Dario", "Elena", "Franco",
                                     "Gina", "Mar…sa", "Barto…", "Nico"]
    # Without a name like it, a name is cut at its end; with room for all, none is cut.
    assert short_names(["Francesco", "Anna"], 6) == ["Franc…", "Anna"]
    assert short_names(["FRANCO", "francesco"], 6) == ["FRANCO", "fr…sco"]  # any case
    assert short_names(ALIKE, None) == ALIKE


def test_a_ten_player_sheet_shows_them_apart_and_says_them_whole(table: Table):
    match_id = table.new_match("navawhist", ALIKE)
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    head = page[page.index('id="names-row"'):page.index("</tr>", page.index('id="names-row"'))]
    assert ('<span class="short" aria-hidden="true" title="Francesco">Fr…sco</span>'
            '<span class="visually-hidden">Francesco</span>') in head
    assert '<span class="name">Franco' in head
    strip = page[page.index('id="strip"'):page.index("</ol>", page.index('id="strip"'))]
    assert 'title="Maria Grazia">Mari…ia</span>' in strip
    # Four players: every name whole.
    few = table.new_match("navawhist", ALIKE[:4])
    page = table.client.get(f"/matches/{few}").get_data(as_text=True)
    assert 'class="short"' not in page and "Francesco" in page
