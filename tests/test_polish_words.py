"""Every success is said, in words people use: joining a table, removing a phone, a backup
that makes this phone a member again, a deal that puts a player out or ends the match, undo
and redo; the options of a new match, the joker, the minus sign, a follower's sheet and the
name a table gets from its players. In English and in Italian."""

from __future__ import annotations

import html
import io
import json
import re

import pytest

from .conftest import Table, pdf_text
from .test_access import invitation, table_of
from .test_cavallore_web import add as add_cavallore
from .test_scala40_web import ok
from .test_scala40_web import play as play_scala40

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
ITALIAN = {"Accept-Language": "it"}
HTMX = {"HX-Request": "true"}


def text(response) -> str:
    """The page as read: entities decoded, runs of white space as one space."""
    return " ".join(html.unescape(response.get_data(as_text=True)).split())


def shown(response) -> str:
    """What the page shows: its text without tags (nor the values they carry)."""
    return " ".join(html.unescape(re.sub(r"<[^>]*>", " ", response.get_data(as_text=True)))
                    .split())


def speaking(table: Table, lang: str) -> Table:
    """``table``'s phone with its pages in ``lang``."""
    table.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    return table


def landed(table: Table, response) -> str:
    """The page a redirect leads to."""
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return text(table.client.get(response.headers["Location"]))


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "You joined the table “Anna, Bruno, Carla, Dario”: this phone can now enter "
           "scores."),
    ("it", "Questo telefono ora fa parte del tavolo “Anna, Bruno, Carla, Dario”: può "
           "segnare i punti."),
])
def test_joining_says_what_the_phone_may_now_do(app, table, lang, said):
    match_id = table.new_match("navawhist", NAMES)
    phone = speaking(Table(app.test_client()), lang)
    page = landed(phone, phone.post(invitation(table, match_id) + f"?m={match_id}", {}))
    assert said in page
    # Joined from a link to the table, not to a match: the table's page says it.
    other = speaking(Table(app.test_client()), lang)
    page = landed(other, other.post(invitation(table, match_id), {}))
    assert said.split(":")[0] in page


def test_joining_a_finished_match_says_it_may_correct_it(app, table):
    match_id = table.new_match("scala40", ["Anna", "Bruno"])
    ok(play_scala40(table, match_id, 0, {1: 120}))
    phone = Table(app.test_client())
    page = landed(phone, phone.post(invitation(table, match_id) + f"?m={match_id}", {}))
    assert "this phone can now correct this match and start new ones." in page


@pytest.mark.parametrize(("lang", "ask", "said"), [
    ("en", "Remove Phone 2?", "Phone 2 removed: it can no longer enter scores here"),
    ("it", "Togliere Telefono 2?", "Telefono 2 tolto: non può più segnare punti qui"),
])
def test_removing_a_phone_asks_first_then_says_so(app, table, lang, ask, said):
    match_id = table.new_match("navawhist", NAMES)
    other = Table(app.test_client())
    assert other.post(invitation(table, match_id), {}).status_code == 303
    table_id = table_of(table, match_id)
    speaking(table, lang)
    page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    # The table's page links to a question; it posts nothing itself.
    link = re.search(r'href="(/tables/[^"]+/remove)" aria-label="[^"]+ (?:Phone|Telefono) 2"',
                     page).group(1)
    assert 'method="post" action="' + link not in page
    question = table.client.get(link)
    assert question.status_code == 200 and ask in text(question)
    assert other.bid(match_id, 0).status_code == 303  # asking removed nothing
    assert said in landed(table, table.post(link, {}))
    assert other.bid(match_id, 0).status_code == 403


def test_leaving_asks_first(app, table):
    match_id = table.new_match("navawhist", NAMES)
    other = Table(app.test_client())
    assert other.post(invitation(table, match_id), {}).status_code == 303
    table_id = table_of(table, match_id)
    page = other.client.get(f"/tables/{table_id}").get_data(as_text=True)
    link = re.search(r'href="(/tables/[^"]+/remove)">Leave the table', page).group(1)
    assert "Leave the table “Anna, Bruno, Carla, Dario”?" in text(other.client.get(link))
    assert other.post(link, {}).status_code == 303
    assert other.bid(match_id, 0).status_code == 403


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "This phone is again a member of the table “Anna, Bruno”: it can enter scores "
           "there."),
    ("it", "Questo telefono fa di nuovo parte del tavolo “Anna, Bruno”: può segnarvi i punti."),
])
def test_a_backup_says_it_made_the_phone_a_member_again(app, table, lang, said):
    match_id = table.new_match("navawhist", ["Anna", "Bruno"])
    backup = table.client.get("/backup.json").data
    phone = speaking(Table(app.test_client()), lang)  # the same person, a cleared cookie
    assert phone.bid(match_id, 0).status_code == 403
    page = text(phone.post("/backup", {"file": (io.BytesIO(backup), "backup.json")},
                           content_type="multipart/form-data"))
    assert said in page
    assert phone.bid(match_id, 0).status_code == 303
    # Again: a member already, nothing to say about it.
    again = text(phone.post("/backup", {"file": (io.BytesIO(backup), "backup.json")},
                            content_type="multipart/form-data"))
    assert said not in again and json.loads(backup)["matches"]


@pytest.mark.parametrize(("lang", "out", "won"), [
    ("en", "Deal 1 saved. Bruno is out (120).", "Deal 2 saved. Carla is out (104). Anna wins."),
    ("it", "Smazzata 1 salvata. Bruno è fuori (120).",
     "Smazzata 2 salvata. Carla è fuori (104). Vince Anna."),
])
def test_a_deal_that_puts_a_player_out_names_them(table, lang, out, won):
    match_id = table.new_match("scala40", ["Anna", "Bruno", "Carla"])
    speaking(table, lang)
    assert out in landed(table, play_scala40(table, match_id, 0, {1: 120, 2: 5}))
    page = landed(table, play_scala40(table, match_id, 0, {2: 99}))
    assert won in page
    # htmx gets the same notice in the live sheet.
    table.post(f"/matches/{match_id}/undo", {"version": table.sheet(match_id)["version"]})
    assert won in text(play_scala40(table, match_id, 0, {2: 99}, headers=HTMX))


@pytest.mark.parametrize(("lang", "undone", "redone"), [
    ("en", "Undone: Hand 1.", "Redone: Hand 1."),
    ("it", "Annullata: Mano 1.", "Ripristinata: Mano 1."),
])
def test_undo_and_redo_say_what(table, lang, undone, redone):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 0, 1, 1], [1, 0, 0, 0])
    speaking(table, lang)
    step = {"version": table.sheet(match_id)["version"]}
    assert undone in landed(table, table.post(f"/matches/{match_id}/undo", step))
    step = {"version": table.sheet(match_id)["version"]}
    assert redone in text(table.post(f"/matches/{match_id}/redo", step, headers=HTMX))
    # A bid alone is named by itself.
    table.bid(match_id, 1)
    step = {"version": table.sheet(match_id)["version"]}
    page = text(table.post(f"/matches/{match_id}/undo", step, headers=HTMX))
    assert re.search(r"(Undone|Annullata): Carla (bid|dichiara) 1\.", page)


@pytest.mark.parametrize(("game", "lang", "words", "codes"), [
    ("quarantotto", "en", ["One game per player", "A fixed number of games",
                           "Until a total reaches the target"], [">players<", ">games<",
                                                                  ">target<"]),
    ("quarantotto", "it", ["Un giro a testa", "Un numero fisso di giri",
                           "Finché un totale arriva al traguardo"], [">un giro a testa<"]),
    ("scala40", "en", ["By elimination", "After a fixed number of deals"],
     [">elimination<", ">deals<", "is “elimination”", "is “deals”"]),
    ("scala40", "it", ["A eliminazione", "Dopo un numero fisso di smazzate"],
     [">eliminazione<", ">numero di smazzate<"]),
])
def test_match_length_choices_are_words(client, game, lang, words, codes):
    page = text(client.get(f"/matches/new?game={game}", headers={"Accept-Language": lang}))
    for word in words:
        assert f">{word}<" in page
    for code in codes:
        assert code not in page


def test_english_scala40_says_joker_and_italian_jolly(table, client):
    match_id = table.new_match("scala40", NAMES)
    ok(play_scala40(table, match_id, 0, {1: "Jolly K", 2: "5", 3: "7"}))
    english = shown(client.get(f"/matches/{match_id}"))
    assert "Joker K" in english and "Joker 25" in english and "Jolly" not in english
    italian = shown(client.get(f"/matches/{match_id}", headers=ITALIAN))
    assert "Jolly K" in italian and "Joker" not in italian
    # What the English pad writes is read back by the rules.
    ok(play_scala40(table, match_id, 1, {0: "Joker", 2: "5", 3: "7"}))
    assert table.sheet(match_id)["hands"][1]["points"][0] == 25


def test_negative_totals_and_previews_use_the_minus_sign_and_the_red(table, client):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 0, 1, 1], [1, 0, 0, 0])
    table.play_navawhist(match_id, [2, 0, 1, 0], [0, 1, 0, 1])
    assert table.sheet(match_id)["totals"][0] == -2
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    sheet = page[page.index('<table class="sheet'):page.index("</table>")]
    assert not re.search(r">\s*-\d", sheet) and re.search(r">\s*−2\s*<", sheet)
    printed, _pages, _ = pdf_text(client.get(f"/matches/{match_id}.pdf"))
    assert "−4" in printed and not re.search(r"(?<![\d-])-\d", printed)
    # The preview of the tricks: Dario bid 2 and takes none, shown red as on the sheet.
    for seat in table.sheet(match_id)["next"]["info"]["order"]:
        table.bid(match_id, 2 if seat == 3 else 0, seat=seat)
    sheet = table.sheet(match_id)
    preview = table.post(f"/matches/{match_id}/navawhist/tricks", {
        "version": sheet["version"], "number": 3, "trump": "", "action": "preview",
        "values-0": 1, "values-1": 1, "values-2": 1, "values-3": 0}, headers=HTMX)
    shown = preview.get_data(as_text=True)
    assert re.search(r'class="preview neg">−\d', shown)
    assert not re.search(r'class="preview">−', shown)


@pytest.mark.parametrize("game", ["navawhist", "scala40", "cavallore"])
def test_a_follower_is_not_told_to_tap_a_number(app, table, game):
    hints = re.compile(r"Tap a (hand|deal|game) number|Tocca il numero")
    if game == "cavallore":
        match_id = table.new_match(game, ["Anna"])
        assert add_cavallore(table, match_id, 12).status_code == 303
    else:
        match_id = table.new_match(game, NAMES)
        if game == "navawhist":
            table.play_navawhist(match_id, [1, 0, 1, 1], [1, 0, 0, 0])
        else:
            ok(play_scala40(table, match_id, 0, {1: 5, 2: 5, 3: 5}))
    assert hints.search(text(table.client.get(f"/matches/{match_id}")))
    follower = Table(app.test_client())
    for headers in ({}, ITALIAN):
        page = text(follower.client.get(f"/matches/{match_id}", headers=headers))
        assert not hints.search(page)
        assert "following this sheet" in page or "Stai seguendo" in page


@pytest.mark.parametrize(("lang", "name"), [
    ("en", "Alessandra, Bartolomeo, Costantino, Donatella and 3 more"),
    ("it", "Alessandra, Bartolomeo, Costantino, Donatella e altri 3"),
])
def test_the_automatic_table_name_is_never_cut_mid_word(client, lang, name):
    phone = speaking(Table(client), lang)
    names = ["Alessandra", "Bartolomeo", "Costantino", "Donatella", "Francesco", "Gianmarco",
             "Matteo"]
    match_id = phone.new_match("navawhist", names)
    page = text(client.get(f"/tables/{table_of(phone, match_id)}"))
    assert f"<h1>{name}</h1>" in page
