"""Plain words on the match pages: English without Italian asides, the Italian vocabulary of
the table, the home page's progress line, "Correct a hand" on a finished match, and one meaning
for the star."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po

from .test_navawhist_web import NAMES

IT = {"Accept-Language": "it"}


def test_english_pages_speak_english(table, client):
    for game in ("navawhist", "quarantotto", "scala40", "fortyfive"):
        match_id = table.new_match(game, NAMES)
        page = client.get(f"/matches/{match_id}").get_data(as_text=True)
        assert "Dealer: Anna" in page, game
        for aside in ("mazziere", "briscola", "chiusura in mano"):
            assert aside not in page, (game, aside)


def test_italian_undo_and_navawhist_words(table, client):
    match_id = table.new_match("navawhist", NAMES)
    table.bid(match_id, 1)
    page = client.get(f"/matches/{match_id}", headers=IT).get_data(as_text=True)
    assert "Annulla: " in page
    for bid in (0, 0, 1):  # the dealer may not bid 0: the bids would add up to the 1 card
        assert table.bid(match_id, bid).status_code == 303
    page = client.get(f"/matches/{match_id}", headers=IT).get_data(as_text=True)
    assert "(ha dichiarato 1)" in page


def test_the_home_page_has_no_dot_with_nothing_after_it(table, client):
    match_id = table.new_match("navawhist", NAMES)
    client.get(f"/matches/{match_id}")
    text = re.sub(r"\s+", " ", client.get("/").get_data(as_text=True))
    assert "Hand 1 of 16 </span>" in text
    table.play_navawhist(match_id, [1, 0, 1, 1], [1, 0, 0, 0])
    text = re.sub(r"\s+", " ", client.get("/").get_data(as_text=True))
    assert re.search(r"Hand 2 of 16 · Leading: \w+", text)


def test_correct_a_hand_says_what_to_do_next(table, client):
    match_id = table.new_match("quarantotto", ["Anna", "Bruno"], length="games", games=1)
    sheet = table.sheet(match_id)
    response = table.post(f"/matches/{match_id}/quarantotto/game", {
        "version": sheet["version"], "number": 1, "action": "save", "closer": 0,
        "values-1": "K"})
    assert response.status_code == 303
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Correct a hand" in page and "Reopen" not in page
    assert 'id="correcting"' not in page
    version = table.sheet(match_id)["version"]
    assert table.post(f"/matches/{match_id}/reopen", {"version": version}).status_code == 303
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Tap a number in the # column below to correct that row" in page
    assert f'href="/matches/{match_id}/quarantotto/1/edit"' in page


def test_the_star_marks_the_leader_only(table, client):
    """★ marks who leads; a Quarantotto game's winner is ✓, Forty-Five's bonus trick ▲,
    each with its words for a screen reader."""
    played = {}
    match_id = table.new_match("quarantotto", NAMES)
    sheet = table.sheet(match_id)
    assert table.post(f"/matches/{match_id}/quarantotto/game", {
        "version": sheet["version"], "number": 1, "action": "save", "closer": 0,
        "values-0": "", "values-1": "A K", "values-2": "7", "values-3": "5"}).status_code == 303
    played["quarantotto"] = match_id
    match_id = table.new_match("fortyfive", NAMES)
    sheet = table.sheet(match_id)
    assert table.post(f"/matches/{match_id}/fortyfive/hand", {
        "version": sheet["version"], "number": 1, "action": "save", "mode": "sides",
        "side-0": 3, "side-1": 2, "bonus_side": 1}).status_code == 303
    played["fortyfive"] = match_id
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 0, 1, 1], [1, 0, 0, 0])
    played["navawhist"] = match_id
    for game, match_id in played.items():
        page = client.get(f"/matches/{match_id}").get_data(as_text=True)
        stars = re.findall(r'<span class="[^"]*"[^>]*>★</span>', page)
        assert stars and all('class="crown" aria-label="leading"' in s for s in stars), game
        assert page.count("★") == len(stars), game  # nor in the legend
    page = client.get(f"/matches/{played['quarantotto']}").get_data(as_text=True)
    assert '<span class="mark" role="img" aria-label="closed">✓</span>' in page
    page = client.get(f"/matches/{played['fortyfive']}").get_data(as_text=True)
    assert 'aria-label="bonus trick"> ▲</span>' in page and "▲ the bonus trick" in page


def test_italian_names_a_quarantotto_game_a_giro_and_the_match_a_partita(table, client):
    match_id = table.new_match("quarantotto", NAMES)
    page = client.get(f"/matches/{match_id}", headers=IT).get_data(as_text=True)
    assert "Giro 1 di 4" in page and "Salva il giro" in page
    assert "Abbandona la partita" in page and "serie" not in page
    sheet = table.sheet(match_id)
    assert table.post(f"/matches/{match_id}/quarantotto/game", {
        "version": sheet["version"], "number": 1, "action": "save", "closer": 0,
        "values-0": "", "values-1": "A K", "values-2": "7", "values-3": "5"},
        headers=IT).status_code == 303
    page = client.get(f"/matches/{match_id}?saved=1", headers=IT).get_data(as_text=True)
    assert "Giro 1 salvato." in page and "ha vinto il giro" in page
    page = client.get(f"/matches/{match_id}/history", headers=IT).get_data(as_text=True)
    assert "Giro 1" in page and "Giro 1 inserita" not in page
    page = client.get("/matches/new?game=quarantotto", headers=IT).get_data(as_text=True)
    assert "Durata della partita" in page and "Numero di giri" in page


def test_every_marked_string_has_its_italian(tmp_path):
    """What `make babel` extracts (with the Makefile's own keywords) is all in the Italian
    catalog and translated: a message marked with a keyword the Makefile does not name, or
    appended by hand and dropped by the next extraction, shows up here."""
    root = Path(__file__).resolve().parent.parent
    command = next(line for line in (root / "Makefile").read_text().splitlines()
                   if "pybabel extract" in line)
    keywords = re.findall(r"-k (\S+)", command)
    template = tmp_path / "messages.pot"
    subprocess.run([str(Path(sys.executable).parent / "pybabel"), "-q", "extract", "-F",
                    "babel.cfg", *[f"-k{k}" for k in keywords], "-o", str(template), "."],
                   cwd=root, check=True)
    extracted = read_po(template.open("rb"))
    italian = read_po((root / "scorekeeper/translations/it/LC_MESSAGES/messages.po").open("rb"))
    missing = []
    for message in extracted:
        if not message.id:
            continue
        found = italian.get(message.id, message.context)
        strings = found.string if found else ""
        if not found or found.fuzzy or not all(strings if isinstance(strings, tuple)
                                               else [strings]):
            missing.append(message.id)
    assert missing == []


def test_every_translating_function_goes_by_a_name_make_babel_extracts():
    """flask_babel's functions are imported under names the extraction knows (Babel's own
    keywords and the Makefile's): ``lazy_gettext("...")`` called by its own name would be
    left out of the catalog and shown in English to everyone."""
    from babel.messages.extract import DEFAULT_KEYWORDS

    root = Path(__file__).resolve().parent.parent
    command = next(line for line in (root / "Makefile").read_text().splitlines()
                   if "pybabel extract" in line)
    known = set(DEFAULT_KEYWORDS) | {k.partition(":")[0] for k in re.findall(r"-k (\S+)",
                                                                             command)}
    translating = {"gettext", "ngettext", "pgettext", "npgettext", "lazy_gettext",
                   "lazy_ngettext", "lazy_pgettext", "lazy_npgettext"}
    unknown = []
    for source in sorted((root / "scorekeeper").rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "flask_babel":
                unknown += [f"{source.relative_to(root)}: {alias.name} as {alias.asname}"
                            for alias in node.names if alias.name in translating
                            and (alias.asname or alias.name) not in known]
    assert unknown == []
