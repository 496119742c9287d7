"""The Italian said of a player does not guess their gender: "Anna · fuori", "rientro",
"ha lasciato la partita", "chi vince la presa", never "eliminato" or "uscito" for a woman.
(Role nouns such as "giocatore" and "mazziere" name the role, not the person, and stay.)"""

from __future__ import annotations

import html
import re
from pathlib import Path

from babel.messages.pofile import read_po

from scorekeeper.rules.core import NOTE_LABELS
from scorekeeper.rules.roster import PRESENCE_LABELS, STATE_LABELS

from .test_scala40_web import ok, play

CATALOG = Path(__file__).parent.parent / "scorekeeper/translations/it/LC_MESSAGES/messages.po"
IT = {"Accept-Language": "it"}
# A message names a player, a person or an entrant by one of these placeholders...
NAMED = re.compile(r"%\((?:player|person|name|names|entrant)\)s")
# ...or is a label put beside a player's name (a cell's note, a seat's state, a place's
# reason, a standing's mark, a field of who did what).
LABELS = {*NOTE_LABELS.values(), *PRESENCE_LABELS.values(), *STATE_LABELS.values(),
          "left after deal %(n)s", "out in deal %(n)s", "winner", "withdrawn", "leading",
          "trick winner", "trick winners", "Trick winners", "bonus trick's winner",
          "First lead", "Last, after %(name)s", "closer"} - {""}
# Masculine participles and adjectives that agree with the player, and the masculine
# pronoun standing for one ("ritiralo").
GENDERED = re.compile(
    r"\b(?:eliminat|uscit|rientrat|entrat|sedut|ritirat|arrivat|tornat|iscritt|sostituit"
    r"|esclus|ultim|da sol)o\b|\bvincitor[ei]\b|\bprimo di\b|\b\w+lo\b(?= quando)",
    re.IGNORECASE)
# What a sheet once said of a player out of a Scala 40 match or back in it, in either gender.
OUT_OR_BACK = re.compile(r"\b(?:eliminat|uscit|rientrat)[oa]\b", re.IGNORECASE)


def said_of_a_player() -> dict[str, str]:
    """Each Italian message said of a player, by its English id."""
    with CATALOG.open("rb") as file:
        catalog = read_po(file)
    said = {}
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if ids[0] and (ids[0] in LABELS or NAMED.search(ids[0])):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            said[ids[0]] = " | ".join(strings)
    return said


def test_the_check_catches_the_old_masculine_wording() -> None:
    for old in ("eliminato", "rientrato", "uscito dopo la smazzata 2", "vincitore della presa",
                "%(player)s è uscito dalla partita.", "Ultimo, dopo Bruno", "ritirato",
                "Primo di mano", "ritiralo quando il turno è finito", "è iscritto due volte"):
        assert GENDERED.search(old), old
    for neutral in ("fuori", "rientro", "ha lasciato la partita", "chi vince la presa",
                    "Di mano alla prima presa", "fuori dal torneo", "primo mazziere: Anna",
                    "compare due volte tra gli iscritti"):
        assert not GENDERED.search(neutral), neutral


def test_no_italian_message_said_of_a_player_guesses_their_gender() -> None:
    said = said_of_a_player()
    assert {"out", "re-entered", "left", "%(player)s has left the match."} <= said.keys()
    gendered = {english: italian for english, italian in said.items()
                if GENDERED.search(italian)}
    assert not gendered


def test_no_italian_message_to_the_reader_guesses_their_gender() -> None:
    """What the page says to whoever holds the phone ("You joined the table") is neutral
    too: "Questo telefono ora fa parte del tavolo", not "Sei entrato"."""
    with CATALOG.open("rb") as file:
        catalog = read_po(file)
    to_the_reader = {message.id: message.string for message in catalog
                     if isinstance(message.id, str) and re.search(r"\byou\b", message.id, re.I)}
    assert "You joined the table “%(table)s”: this phone can now enter scores." in to_the_reader
    assert not {english: italian for english, italian in to_the_reader.items()
                if GENDERED.search(italian)}


def test_a_woman_out_of_an_italian_scala40_sheet(table, client) -> None:
    """Anna goes out in deal 1 and re-enters: her sheet says so without a masculine."""
    match_id = table.new_match("scala40", ["Anna", "Bruno", "Carla", "Dario"], reentry=True)
    ok(play(table, match_id, 1, {0: 120, 2: "Q Q 9", 3: "A"}))
    for url in (f"/matches/{match_id}", f"/matches/{match_id}/screen"):
        page = client.get(url, headers=IT).get_data(as_text=True)
        text = html.unescape(re.sub(r"<[^>]*>", " ", page))
        assert "fuori" in text and not OUT_OR_BACK.search(text), url
    ok(play(table, match_id, 2, {0: "K", 1: "7 3", 3: "5"}, reentries=(0,)))
    page = client.get(f"/matches/{match_id}", headers=IT).get_data(as_text=True)
    text = html.unescape(re.sub(r"<[^>]*>", " ", page))
    assert "rientro" in text and not OUT_OR_BACK.search(text)
