"""The statistics page opens on what the table has played: the games with finished matches,
the most finished first; a game without any is one line, a player without any no row of
zeros; every figure says in plain words what it counts, in English and Italian, and every
number is written in the viewer's language."""

from __future__ import annotations

import re

from .test_access import table_of
from .test_quarantotto_web import play as play_quarantotto
from .test_stats import ANNA_ALL, play
from .test_stats_words import FOUR, IT, evening, section_of, text_of

# What the page once said in jargon, and what must not come back (English, then Italian).
JARGON = ("Case-4", "ranked on", "±", "95% interval", "exact odds 10%")
GERGO = ("Mani caso 4", "caso 4", "in classifica con", "±", "intervallo al 95%")


def page(table, table_id: str, headers=None) -> str:
    response = table.client.get(f"/tables/{table_id}/stats", headers=headers or {})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def week(table) -> str:
    """A week at one table: two short Quarantotto matches, one Forty-Five match of Anna and
    Bruno and one of Anna and Carla not finished, a Navawhist hand; the table's id."""
    for _time in range(2):
        match_id = table.new_match("quarantotto", ["Anna", "Bruno"], length="games", games=1)
        assert play_quarantotto(table, match_id, 0, [None, 20]).status_code == 303
        assert table.sheet(match_id)["status"] == "finished"
    table_id = table_of(table, play(table, [ANNA_ALL, ANNA_ALL]))
    table.new_match("fortyfive", ["Anna", "Carla"])
    navawhist = table.new_match("navawhist", ["Anna", "Bruno"])
    table.play_navawhist(navawhist, [2, 1], [2, 0])
    return table_id


def test_the_page_opens_on_the_games_with_finished_matches(table):
    table_id = week(table)
    html = page(table, table_id)
    # The most finished matches first: Quarantotto (2), then Forty-Five (1).
    sections = re.findall(r'<h2 id="game-(\w+)"', html)
    assert sections == ["quarantotto", "fortyfive"], sections
    # Navawhist, no match finished, is one line and no table of zeros.
    assert 'id="game-navawhist"' not in html
    assert "No finished match of Navawhist yet." in text_of(html)
    assert "Ancora nessuna partita finita a Navawhist." in text_of(page(table, table_id, IT))
    # Carla has played no finished match: no row of zeros for her.
    players = section_of(html, "fortyfive").split("</table>", 1)[0]
    assert re.findall(r'<th scope="row">(\w+)</th>', players) == ["Anna", "Bruno"]
    assert "Carla" not in section_of(html, "fortyfive")


def test_a_table_without_a_finished_match_shows_no_zeros(table):
    match_id = table.new_match("fortyfive", ["Anna", "Bruno"])
    table_id = table_of(table, match_id)
    html = page(table, table_id)
    assert "<table" not in html.split("<h1>", 1)[1]
    assert "No finished match of Forty-Five yet." in text_of(html)


def described(html: str, game: str) -> list[tuple[str, str]]:
    """Each column heading of ``game``'s figures (not the column of who the row is, nor a
    column of one player's figures) and the sentence it is described by; a heading without
    one is paired with ''."""
    section = section_of(html, game)
    out = []
    for head in re.findall(r"<thead>(.*?)</thead>", section, re.S):
        for cell in re.findall(r'<th scope="col"([^>]*)>(.*?)</th>', head, re.S)[1:]:
            if cell[1] in FOUR:
                continue
            target = re.search(r'aria-describedby="([^"]+)"', cell[0])
            sentence = re.search(rf'id="{target.group(1)}">(.*?)</(?:dd|p)>', section,
                                 re.S) if target else None
            out.append((text_of(cell[1]).strip(),
                        text_of(sentence.group(1)).strip() if sentence else ""))
    return out


def test_every_figure_has_its_help_line_in_english_and_italian(table):
    table_id = evening(table)
    match_id = table.new_match("quarantotto", ["Anna", "Bruno"], length="games", games=1)
    assert play_quarantotto(table, match_id, 1, [20, None]).status_code == 303
    for headers, summary in (({}, "What these figures mean"), (IT, "Cosa dicono questi numeri")):
        html = page(table, table_id, headers)
        for game in ("quarantotto", "fortyfive", "cavallore"):
            pairs = described(html, game)
            assert len(pairs) >= 4, (game, pairs)
            assert all(sentence for _heading, sentence in pairs), (game, pairs)
            section = section_of(html, game)
            assert f"<summary>{summary}</summary>" in section
            # Each figure's sentence follows its heading in the list, in words to read.
            for heading, sentence in pairs:
                if heading in text_of(section.split('class="stats-help"', 1)[1]):
                    assert len(sentence) > len(heading), (heading, sentence)
    italian = text_of(page(table, table_id, IT))
    assert "Partite finite vinte, compreso un primo posto condiviso." in italian
    assert "Mani in cui chi gioca, da solo o in coppia, ha preso tutte e cinque le prese." \
        in italian


def test_no_jargon_is_left(table, monkeypatch):
    table_id = evening(table)
    # Navawhist's figures, shown as if its match had finished.
    from scorekeeper.engine import stats as engine
    from scorekeeper.engine.cache import thawed
    from scorekeeper.views import tables

    def finished(table):
        figures = thawed(engine.table_stats(table))
        figures.games["navawhist"].finished = 1
        return figures

    monkeypatch.setattr(tables, "table_stats", finished)
    english, italian = page(table, table_id), page(table, table_id, IT)
    assert 'id="game-navawhist"' in english
    for old in JARGON:
        assert old not in english, old
    for old in GERGO:
        assert old not in italian, old
    words = text_of(english)
    assert "Hands everybody missed" in words
    assert "every player missed their bid by two tricks or more" in words
    assert "Mani sbagliate da tutti" in text_of(italian)
    # Cavallo Re's interval in words
    assert re.search(r"likely to win \d+(\.\d)?% to \d+(\.\d)?% of deals in the long run",
                     words), words


def test_numbers_in_italian_have_a_decimal_comma(table):
    table_id = evening(table)
    italian = text_of(page(table, table_id, IT))
    assert re.search(r"\d,\d", italian)
    # No decimal point anywhere in the Italian page's words.
    assert not re.search(r"\d\.\d", italian), re.search(r".{30}\d\.\d.{30}", italian)
    # The new words carry their numbers in Italian too: the rating, its margin, the range.
    assert re.search(r"punteggio \d+,\d, ancora incerto \(più o meno \d+,\d\)", italian)
    assert re.search(r"probabilmente tra \d+(,\d)?% e \d+(,\d)?% delle smazzate vinte", italian)
    english = text_of(page(table, table_id))
    assert re.search(r"\d\.\d", english) and not re.search(r"\d,\d(?!\d\d)", english)
    # A log that never finishes (Cavallo Re) does not say "0 finished".
    assert "0 finished" not in english and "0 finite" not in italian
