"""Calendars: a table's evenings and card night as a feed a calendar app subscribes to, and a
tournament's evening with its rounds as a file; each parsed back with icalendar and read in
the table's time zone."""

from __future__ import annotations

import re
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr
from icalendar import Calendar

from scorekeeper.db import db
from scorekeeper.models import Device, Hand, Match, Membership, Table, TournamentTable

from .test_quarantotto_web import play
from .test_tournaments_web import Organiser

ROME = ZoneInfo("Europe/Rome")
FEED = re.compile(r'href="https?://[^/"]+(/tables/[^/"]+/calendar/[^/"?]+\.ics)\?lang=(\w+)"')


def finished_quarantotto(table, names: list[str]) -> str:
    """A Quarantotto match of two, played to its end: the first player wins."""
    match_id = table.new_match("quarantotto", names)
    for closer, hands in ((0, [None, "A K 7"]), (1, ["Q 5", None])):
        assert play(table, match_id, closer, hands).status_code == 303
    assert table.sheet(match_id)["status"] == "finished"
    return match_id


def saved_at(app, match_id: str, *moments: datetime) -> str:
    """Record the match's hands as saved at ``moments`` (UTC), in order; its table's id."""
    with app.app_context():
        hands = db.session.scalars(db.select(Hand).where(Hand.match_id == match_id)
                                   .order_by(Hand.number)).all()
        for hand, moment in zip(hands, moments, strict=True):
            hand.created_at = moment
        db.session.commit()
        return db.session.get(Match, match_id).table_id


def feed_of(client, table_id: str) -> tuple[str, str]:
    """The address of the table's feed as its page gives it (without the language), and
    the language it names."""
    page = client.get(f"/tables/{table_id}").get_data(as_text=True)
    found = FEED.search(page)
    assert found, page
    assert 'href="webcal://' in page
    return found.group(1), found.group(2)


def calendar(client, address: str, **query) -> Calendar:
    response = client.get(address, query_string=query)
    assert response.status_code == 200, response.get_data(as_text=True)[:1000]
    assert response.mimetype == "text/calendar"
    return Calendar.from_ical(response.data)


def events(parsed: Calendar) -> dict[str, object]:
    return {str(event["UID"]): event for event in parsed.walk("VEVENT")}


def test_each_evening_is_one_event_in_the_table_s_zone_across_summer_time(app, table, client):
    # Rome moves its clocks from 02:00 to 03:00 on the night of 28 to 29 March 2026: an
    # evening from 22:30 to 03:30 by the clock on the wall lasted four hours.
    won = finished_quarantotto(table, ["Anna", "Bruno"])
    table_id = saved_at(app, won, datetime(2026, 3, 28, 21, 30), datetime(2026, 3, 29, 1, 30))
    late = table.new_match("quarantotto", ["Carla", "Dario"])
    assert play(table, late, 0, [None, "A K 7"]).status_code == 303
    saved_at(app, late, datetime(2026, 3, 28, 23, 0))  # 00:00 in Rome: the same evening
    summer = table.new_match("quarantotto", ["Anna", "Carla"])
    assert play(table, summer, 0, [None, "Q 5"]).status_code == 303
    saved_at(app, summer, datetime(2026, 7, 2, 19, 0))
    table.new_match("quarantotto", ["Anna", "Dario"])  # no hand saved: no evening

    address, lang = feed_of(client, table_id)
    assert lang == "en"
    parsed = calendar(client, address, lang=lang)
    assert str(parsed["X-WR-TIMEZONE"]) == "Europe/Rome"
    assert [str(z["TZID"]) for z in parsed.walk("VTIMEZONE")] == ["Europe/Rome"]
    found = events(parsed)
    assert set(found) == {f"{table_id}-2026-03-28@scorekeeper",
                          f"{table_id}-2026-07-02@scorekeeper"}
    march = found[f"{table_id}-2026-03-28@scorekeeper"]
    start, end = march.decoded("DTSTART"), march.decoded("DTEND")
    assert start.tzinfo.key == "Europe/Rome"
    assert start.replace(tzinfo=None) == datetime(2026, 3, 28, 22, 30)
    assert end.astimezone(ROME).replace(tzinfo=None) == datetime(2026, 3, 29, 3, 30)
    assert (start.utcoffset(), end.utcoffset()) == (timedelta(hours=1), timedelta(hours=2))
    assert end.astimezone(UTC) - start.astimezone(UTC) == timedelta(hours=4)
    assert str(march["SUMMARY"]).endswith(": Quarantotto (Anna), Quarantotto")
    assert str(march["DESCRIPTION"]).splitlines() == [
        "Quarantotto 22:30–03:30 · Anna, Bruno · Won by Anna",
        "Quarantotto 00:00–00:00 · Carla, Dario · In progress"]
    july = found[f"{table_id}-2026-07-02@scorekeeper"]
    assert july.decoded("DTSTART").astimezone(ROME).hour == 21
    assert "Anna, Carla" in str(july["DESCRIPTION"])

    # In another zone the same moments read another hour; the UIDs stay.
    assert table.post(f"/tables/{table_id}/calendar", {"zone": "America/New_York",
                                                       "weekday": ""}).status_code == 303
    again = events(calendar(client, address, lang=lang))
    assert set(again) == set(found)
    start = again[f"{table_id}-2026-03-28@scorekeeper"].decoded("DTSTART")
    assert start.tzinfo.key == "America/New_York" and start.hour == 17


def test_the_card_night_recurs_weekly_at_its_hour_in_the_table_s_zone(app, table, client):
    table_id = saved_at(app, table.new_match("quarantotto", ["Anna", "Bruno"]))
    response = table.post(f"/tables/{table_id}/calendar", {
        "zone": "Europe/Rome", "weekday": "3", "start": "21:00", "minutes": "180"})
    assert response.status_code == 303
    address, lang = feed_of(client, table_id)
    night = events(calendar(client, address, lang=lang))[f"{table_id}-night@scorekeeper"]
    assert night["RRULE"]["FREQ"] == ["WEEKLY"] and night["RRULE"]["BYDAY"] == ["TH"]
    start = night.decoded("DTSTART")
    assert start.tzinfo.key == "Europe/Rome" and start.weekday() == 3
    assert (start.hour, start.minute) == (21, 0)
    assert night.decoded("DTEND") - start == timedelta(hours=3)
    # Every Thursday at 21:00 in Rome, in winter (UTC+1) as in summer (UTC+2).
    rule = rrulestr(night["RRULE"].to_ical().decode(), dtstart=start)
    thursdays = rule.between(datetime(2027, 1, 1, tzinfo=ROME), datetime(2027, 12, 31,
                                                                         tzinfo=ROME))
    assert len(thursdays) == 52
    assert {(d.weekday(), d.time()) for d in thursdays} == {(3, time(21))}
    assert {d.utcoffset() for d in thursdays} == {timedelta(hours=1), timedelta(hours=2)}
    # The page shows what is set; no card night, no recurring event.
    page = client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert '<option value="3" selected>Thursday</option>' in page and 'value="21:00"' in page
    assert table.post(f"/tables/{table_id}/calendar", {"zone": "Europe/Rome",
                                                       "weekday": ""}).status_code == 303
    assert not events(calendar(client, address, lang=lang))


def test_wrong_settings_are_refused_saying_why_and_nothing_is_stored(app, table, client):
    table_id = saved_at(app, table.new_match("quarantotto", ["Anna", "Bruno"]))
    wrong = [({"zone": "Mars/Olympus", "weekday": ""}, "Unknown time zone"),
             ({"zone": "../../etc/passwd", "weekday": ""}, "Unknown time zone"),
             ({"zone": "Europe/Rome", "weekday": "3"}, "Give the time the card night starts."),
             ({"zone": "Europe/Rome", "weekday": "9", "start": "21:00"}, "Choose a weekday"),
             ({"zone": "Europe/Rome", "weekday": "3", "start": "25:00"}, "Starts at:"),
             ({"zone": "Europe/Rome", "weekday": "3", "start": "21:00", "minutes": "5"},
              "Length in minutes: Number must be between 15 and 720.")]
    for data, message in wrong:
        response = table.post(f"/tables/{table_id}/calendar", data)
        assert response.status_code == 422, data
        assert message in response.get_data(as_text=True), data
    client.set_cookie("lang", "it")
    response = table.post(f"/tables/{table_id}/calendar", {"zone": "Marte/Olimpo"})
    assert response.status_code == 422
    assert "Fuso orario sconosciuto" in response.get_data(as_text=True)
    with app.app_context():
        stored = db.session.get(Table, table_id)
        assert (stored.zone, stored.night_weekday, stored.night_start) == (
            "Europe/Rome", None, None)
    # A form without its CSRF token changes nothing either.
    assert client.post(f"/tables/{table_id}/calendar",
                       data={"zone": "Asia/Tokyo"}).status_code == 400


def test_only_members_change_the_calendar_and_a_new_address_stops_the_old(app, table,
                                                                         client):
    table_id = saved_at(app, table.new_match("quarantotto", ["Anna", "Bruno"]))
    address, lang = feed_of(client, table_id)
    stranger = type(table)(app.test_client())
    assert stranger.post(f"/tables/{table_id}/calendar",
                         {"zone": "Asia/Tokyo", "weekday": ""}).status_code == 403
    assert stranger.post(f"/tables/{table_id}/calendar/address", {}).status_code == 403
    # The address alone reads the calendar, and nothing else of the table.
    assert stranger.client.get(address).status_code == 200
    assert stranger.client.get(f"/tables/{table_id}").status_code == 403
    wrong = address.replace("/calendar/", "/calendar/x")
    assert client.get(wrong).status_code == 404
    assert table.post(f"/tables/{table_id}/calendar/address", {}).status_code == 303
    assert client.get(address).status_code == 404
    renewed, _lang = feed_of(client, table_id)
    assert renewed != address and client.get(renewed).status_code == 200
    with app.app_context():
        assert db.session.get(Table, table_id).zone == "Europe/Rome"
    # A phone taken off the table goes with whatever address it copied.
    stranger.new_match("quarantotto", ["Ugo", "Vera"])  # it has a device now
    with app.app_context():
        device_id = db.session.scalars(db.select(Device.id).order_by(Device.id.desc())).first()
        db.session.add(Membership(table_id=table_id, device_id=device_id))
        db.session.commit()
    assert table.post(f"/tables/{table_id}/phones/{device_id}/remove", {}).status_code == 303
    assert client.get(renewed).status_code == 404


def test_the_feed_and_the_form_speak_italian(app, table, client):
    won = finished_quarantotto(table, ["Anna", "Bruno"])
    table_id = saved_at(app, won, datetime(2026, 7, 2, 19, 0), datetime(2026, 7, 2, 20, 0))
    client.set_cookie("lang", "it")
    page = client.get(f"/tables/{table_id}").get_data(as_text=True)
    for words in ("Calendario", "Iscriviti da un’app di calendario", "Fuso orario",
                  "Serata di carte", "Nessuna serata di carte", ">giovedì<", "Durata in minuti",
                  "Nuovo indirizzo del calendario"):
        assert words in page, words
    assert table.post(f"/tables/{table_id}/calendar", {
        "zone": "Europe/Rome", "weekday": "4", "start": "20:30"}).status_code == 303
    address, lang = feed_of(client, table_id)
    assert lang == "it"
    client.set_cookie("lang", "en")  # the address, not the app's own language, says which
    found = events(calendar(client, address, lang=lang))
    evening = found[f"{table_id}-2026-07-02@scorekeeper"]
    assert "Vinta da Anna" in str(evening["DESCRIPTION"])
    night = found[f"{table_id}-night@scorekeeper"]
    assert str(night["SUMMARY"]).endswith(": serata di carte")
    assert "DTEND" not in night  # no length given


def test_a_tournament_s_evening_and_rounds_as_recorded(app, client):
    organiser = Organiser(client, app)
    tournament_id = organiser.create("quarantotto", [
        "Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"], rounds=2)
    organiser.seat(tournament_id)
    with app.app_context():
        seated = db.session.scalars(db.select(TournamentTable.match_id).where(
            TournamentTable.tournament_id == tournament_id)).all()
    # Seated at 20:00 in Rome on 24 October 2026 (summer time, UTC+2); each table's hand
    # saved after Rome left summer time at 03:00 (01:00 UTC) on the 25th.
    for number, match_id in enumerate(seated, start=1):
        assert play(organiser, match_id, 0, [None, "A K 7", "Q 5", 9]).status_code == 303
        saved_at(app, match_id, datetime(2026, 10, 25, number, 15))
        with app.app_context():
            db.session.get(Match, match_id).created_at = datetime(2026, 10, 24, 18, 0)
            db.session.commit()
    page = client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert f'href="/tournaments/{tournament_id}.ics"' in page
    response = client.get(f"/tournaments/{tournament_id}.ics")
    assert response.headers["Content-Disposition"].endswith(f'"{tournament_id}.ics"')
    found = events(calendar(client, f"/tournaments/{tournament_id}.ics"))
    assert set(found) == {f"{tournament_id}-evening@scorekeeper",
                          f"{tournament_id}-round-1@scorekeeper"}
    round_1 = found[f"{tournament_id}-round-1@scorekeeper"]
    assert str(round_1["SUMMARY"]) == "Round 1 · Friday evening"
    start, end = round_1.decoded("DTSTART"), round_1.decoded("DTEND")
    assert start.tzinfo.key == "Europe/Rome" and (start.hour, start.minute) == (20, 0)
    assert start.utcoffset() == timedelta(hours=2)
    last = len(seated)  # the last table's hand: 03:15 by winter time (UTC+1)
    assert end.astimezone(ROME).replace(tzinfo=None) == datetime(2026, 10, 25, last + 1, 15)
    assert end.astimezone(ROME).utcoffset() == timedelta(hours=1)
    assert end.astimezone(UTC) - start.astimezone(UTC) == timedelta(hours=6 + last,
                                                                     minutes=15)
    lines = str(round_1["DESCRIPTION"]).splitlines()
    assert lines[0].startswith("Table 1: ") and len(lines) == len(seated)
    evening = found[f"{tournament_id}-evening@scorekeeper"]
    assert str(evening["SUMMARY"]) == "Friday evening"
    assert evening.decoded("DTEND") == end
    assert evening.decoded("DTSTART").tzinfo.key == "Europe/Rome"
    client.set_cookie("lang", "it")
    italian = events(calendar(client, f"/tournaments/{tournament_id}.ics"))
    assert str(italian[f"{tournament_id}-round-1@scorekeeper"]["SUMMARY"]).startswith("Turno 1")
    assert client.get("/tournaments/nosuchtournament.ics").status_code == 404
