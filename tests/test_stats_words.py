"""The statistics page in words: ratings a player can read, counts with their plurals, the
rating chart's legend naming the players and partners' lines told apart."""

from __future__ import annotations

import re

from .test_access import table_of
from .test_cavallore_web import add
from .test_stats import ANNA_ALL, BRUNO_ALL, play

IT = {"Accept-Language": "it"}
FOUR = ["Anna", "Bruno", "Carla", "Dario"]
SEATS_0_2 = {"winners": "0,2,0,2,0", "bonus": "0"}  # Anna and Carla take every trick: 30


def partners(table, times: int = 2) -> str:
    """Forty-Five matches of Anna and Carla against Bruno and Dario, won by Anna and Carla."""
    for _time in range(times):
        match_id = table.new_match("fortyfive", FOUR)
        for _hand in range(2):
            sheet = table.sheet(match_id)
            response = table.post(f"/matches/{match_id}/fortyfive/hand", {
                "version": sheet["version"], "number": sheet["next"]["number"],
                "mode": "winners", "action": "save", **SEATS_0_2})
            assert response.status_code == 303
    return match_id


def evening(table) -> str:
    """An evening at one table: Forty-Five alone and in partnerships, a Navawhist hand and
    a Cavallo Re log of four players; the id of the table."""
    first = play(table, [ANNA_ALL, ANNA_ALL])
    play(table, [BRUNO_ALL, BRUNO_ALL])
    partners(table)
    navawhist = table.new_match("navawhist", FOUR)
    table.play_navawhist(navawhist, [1, 0, 0, 1], [1, 0, 0, 0])
    cavallore = table.new_match("cavallore", FOUR)
    for placed in (36, 12, 29):
        assert add(table, cavallore, placed).status_code == 303
    return table_of(table, first)


def text_of(html: str) -> str:
    """The page's words, tags taken out and spaces joined."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_one_finished_match_is_one_match_in_english_and_italian(table):
    table_id = table_of(table, play(table, [ANNA_ALL, ANNA_ALL]))
    page = table.client.get(f"/tables/{table_id}/stats").get_data(as_text=True)
    words = text_of(page)
    assert "1 finished match " in words or "1 finished match." in words \
        or "1 finished match:" in words
    assert "1 finished matches" not in words and "1 matches" not in words
    italian = text_of(table.client.get(f"/tables/{table_id}/stats", headers=IT)
                      .get_data(as_text=True))
    assert "1 partita finita" in italian and "1 partite" not in italian
    play(table, [BRUNO_ALL, BRUNO_ALL])
    words = text_of(table.client.get(f"/tables/{table_id}/stats").get_data(as_text=True))
    assert "2 finished matches" in words
    italian = text_of(table.client.get(f"/tables/{table_id}/stats", headers=IT)
                      .get_data(as_text=True))
    assert "2 partite finite" in italian


def test_a_rating_reads_as_words_in_english_and_italian(table):
    table_id = table_of(table, play(table, [ANNA_ALL, ANNA_ALL]))
    words = text_of(table.client.get(f"/tables/{table_id}/stats").get_data(as_text=True))
    # The numbers alone in brackets, unexplained, are gone, and so are "±" and "ranked on".
    assert not re.search(r"-?\d+\.\d \(\d+\.\d ± \d+\.\d\)", words)
    assert "±" not in words and "ranked on" not in words
    rating = re.search(r"Anna: rating (\d+\.\d), still uncertain \(give or take (\d+\.\d)\): "
                       r"more matches will tell", words)
    assert rating, words
    assert float(rating.group(1)) > 25 > float(rating.group(2))
    # What the number the players are ranked by is, in plain words.
    assert "ranked by their rating less its uncertainty" in words
    italian = text_of(table.client.get(f"/tables/{table_id}/stats", headers=IT)
                      .get_data(as_text=True))
    assert re.search(r"Anna: punteggio (\d+,\d), ancora incerto \(più o meno (\d+,\d)\): "
                     r"altre partite lo diranno", italian), italian
    assert "±" not in italian and "in classifica con" not in italian
    assert "ordinati secondo il punteggio meno la sua incertezza" in italian


def later_ratings(monkeypatch, shown):
    """The statistics page shows ``shown`` (name: rating) as the Forty-Five ratings: a
    season's worth of matches, without playing them."""
    from scorekeeper.engine import stats as engine
    from scorekeeper.engine.cache import thawed
    from scorekeeper.views import tables

    def later(table):
        figures = thawed(engine.table_stats(table))  # what a worker keeps is frozen
        game = figures.games["fortyfive"]
        game.ratings = {p: engine.Rating(*shown[figures.names[p]]) for p in game.ratings}
        return figures

    monkeypatch.setattr(tables, "table_stats", later)


def test_a_rating_narrows_from_uncertain_to_settled(table, monkeypatch):
    table_id = table_of(table, play(table, [ANNA_ALL, ANNA_ALL]))
    later_ratings(monkeypatch, {"Anna": (26.04, 0.5), "Bruno": (23.96, 4.0)})
    words = text_of(table.client.get(f"/tables/{table_id}/stats").get_data(as_text=True))
    assert "Anna: rating 26.0, settled (give or take 1.5)" in words
    assert "Bruno: rating 24.0, taking shape (give or take 12.0)" in words
    assert "still uncertain" not in words
    italian = text_of(table.client.get(f"/tables/{table_id}/stats", headers=IT)
                      .get_data(as_text=True))
    assert "Anna: punteggio 26,0, stabile (più o meno 1,5)" in italian
    assert "Bruno: punteggio 24,0, si sta delineando (più o meno 12,0)" in italian


def test_players_are_listed_by_their_ranking(table, monkeypatch):
    table_id = table_of(table, play(table, [ANNA_ALL, ANNA_ALL]))
    # Anna's rating is the higher, but so uncertain that Bruno ranks first.
    later_ratings(monkeypatch, {"Anna": (30.0, 6.0), "Bruno": (27.0, 2.0)})
    words = text_of(table.client.get(f"/tables/{table_id}/stats").get_data(as_text=True))
    assert words.index("Bruno: rating 27.0,") < words.index("Anna: rating 30.0,")


def section_of(page: str, game: str) -> str:
    """The part of the statistics page about ``game``."""
    return page.split(f'id="game-{game}"', 1)[1].split("</section>", 1)[0]


def legend(page: str, game: str) -> list[str]:
    """The words of each entry of the rating chart's legend of ``game``."""
    caption = section_of(page, game).split('class="chart-legend"', 1)[1] \
        .split("</figcaption>", 1)[0]
    return [text_of(item).strip() for item in re.findall(r"<li[^>]*>(.*?)</li>", caption, re.S)]


def lines(page: str, game: str) -> list[str]:
    """The polylines of the rating chart of ``game``."""
    return re.findall(r"<polyline[^>]*>", section_of(page, game))


def test_the_rating_chart_names_the_players(table):
    table_id = table_of(table, play(table, [ANNA_ALL, ANNA_ALL]))
    play(table, [BRUNO_ALL, BRUNO_ALL])
    page = table.client.get(f"/tables/{table_id}/stats").get_data(as_text=True)
    # After a win and a loss each, both ratings are near 25: each entry names its player
    # and gives the rating, never a bare "1".
    entries = legend(page, "fortyfive")
    assert [re.sub(r" \d+\.\d$", "", entry) for entry in entries] == ["Anna", "Bruno"], entries
    assert all(20 < float(entry.rsplit(" ", 1)[1]) < 30 for entry in entries)
    italian = table.client.get(f"/tables/{table_id}/stats", headers=IT).get_data(as_text=True)
    assert all(re.fullmatch(r"(Anna|Bruno) \d+,\d", e) for e in legend(italian, "fortyfive"))


def test_partners_lines_are_told_apart(table):
    table_id = table_of(table, partners(table, times=2))
    page = table.client.get(f"/tables/{table_id}/stats").get_data(as_text=True)
    # Anna and Carla, Bruno and Dario only ever played together: their ratings are the same
    # after every match, one line each pair, named by both partners.
    entries = legend(page, "fortyfive")
    assert [re.sub(r" \d+\.\d$", "", entry) for entry in entries] == \
        ["Anna + Carla", "Bruno + Dario"], entries
    drawn = lines(page, "fortyfive")
    assert len(drawn) == 2 and len({re.search(r'points="([^"]+)"', d).group(1)
                                    for d in drawn}) == 2


def test_every_line_has_its_own_dashes_and_the_legend_draws_them(table):
    table_id = evening(table)
    page = table.client.get(f"/tables/{table_id}/stats").get_data(as_text=True)
    dashes = [re.search(r'stroke-dasharray="([^"]+)"|$', d).group(1)
              for d in lines(page, "fortyfive")]
    assert len(dashes) == 4 and len(set(dashes)) == 4, dashes
    caption = section_of(page, "fortyfive").split('class="chart-legend"', 1)[1]
    assert re.findall(r'stroke-dasharray="([^"]+)"', caption) == [d for d in dashes if d]


def test_every_count_of_the_statistics_page_has_its_plural(table):
    table_id = evening(table)
    for headers, wrong in (({}, r"\b1 (matches|deals|wins|hands)\b"),
                           (IT, r"\b1 (partite|mani|vittorie|smazzate)\b")):
        words = text_of(table.client.get(f"/tables/{table_id}/stats", headers=headers)
                        .get_data(as_text=True))
        assert not re.search(wrong, words), re.search(wrong, words).group(0)
    words = text_of(table.client.get(f"/tables/{table_id}/stats").get_data(as_text=True))
    assert "1 win in 3 deals" in words
    italian = text_of(table.client.get(f"/tables/{table_id}/stats", headers=IT)
                      .get_data(as_text=True))
    assert "1 vittoria in 3 smazzate" in italian
