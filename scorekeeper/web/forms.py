"""WTForms classes. Values a rule governs stay raw here: the rules engine checks them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any
from zoneinfo import available_timezones

from babel.support import Translations
from flask import g, request
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from flask_babel import lazy_ngettext as _ln
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFProtect, validate_csrf
from wtforms import (
    BooleanField,
    FieldList,
    IntegerField,
    SelectField,
    StringField,
    TextAreaField,
    TimeField,
)
from wtforms.csrf.core import CSRF
from wtforms.fields.choices import SelectChoice
from wtforms.i18n import messages_path
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import HiddenInput

from ..engine.formats import figure
from ..models import (
    NAME_LENGTH,
    PLACE_LENGTH,
    ZONE_LENGTH,
    clean_name,
    look_alike,
    name_key,
    readable_name,
    refused_character,
    without_refused,
)
from ..rules import Game
from ..rules.cards import SUITS
from .pagecache import signed_token

csrf = CSRFProtect()
MAX_INT = 2**31 - 1  # what every database stores in an integer column


# A whole number as people type it: ASCII digits, one optional minus, short enough for any
# database column. Anything else ("--1", "1e999", "١٢", 400 digits) is not a number.
WHOLE = re.compile(r"-?[0-9]{1,9}")


def whole(value: Any) -> Any:
    """A clean whole number as an int; anything else unchanged, for the rules to refuse.

    >>> whole(" 3 "), whole("x"), whole(None), whole("--1"), whole("9" * 400) == "9" * 400
    (3, 'x', None, '--1', True)
    """
    if isinstance(value, str):
        text = value.strip()
        if WHOLE.fullmatch(text):
            return int(text)
        return text or None
    return value


class WholeField(IntegerField):
    """An IntegerField that takes only what :data:`WHOLE` accepts: no sign runs, exponents,
    other scripts' digits or numbers too long for a database column."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist and not (isinstance(valuelist[0], str)
                              and WHOLE.fullmatch(valuelist[0].strip())):
            self.data = None
            raise ValueError(self.gettext("Not a valid integer value."))
        super().process_formdata(valuelist)


@cache
def _wtforms_messages(locale: str) -> Translations:
    """WTForms' own messages in ``locale``, read once (Flask-WTF reads them per request)."""
    return Translations.load(messages_path(), [locale], domain="wtforms")


class _SignedOnce(CSRF):
    """A form's CSRF token as every page's: signed once a second per browser; checked as
    Flask-WTF checks a form's, not again when CSRFProtect checked the request already."""

    def setup_form(self, form: Any) -> Any:
        self.meta = form.meta
        return super().setup_form(form)

    def generate_csrf_token(self, csrf_token_field: Any) -> str:
        return signed_token()

    def validate_csrf_token(self, form: Any, field: Any) -> None:
        if g.get("csrf_valid", False):  # CSRFProtect's mark of a request it checked
            return
        validate_csrf(field.data, self.meta.csrf_secret, self.meta.csrf_time_limit,
                      self.meta.csrf_field_name)


class Form(FlaskForm):
    """Every form of the site: WTForms' messages in the user's language."""

    class Meta:
        csrf_class = _SignedOnce

        def get_translations(self, form: Any) -> Translations:
            return _wtforms_messages(str(get_locale()))


class StepForm(Form):
    """What every change to a match carries: the version of the sheet the user saw."""

    version = WholeField(widget=HiddenInput(),
                           validators=[InputRequired(), NumberRange(0, MAX_INT)])


class HandForm(StepForm):
    """A change to one hand: its number."""

    number = WholeField(widget=HiddenInput(),
                          validators=[InputRequired(), NumberRange(1, MAX_INT)])


class BidForm(HandForm):
    """One player's bid (Navawhist)."""

    seat = WholeField(widget=HiddenInput(), validators=[InputRequired(), NumberRange(0, 99)])
    bid = StringField(validators=[InputRequired()])


class SeatValuesForm(HandForm):
    """A hand with one value per seat (``values-0``, ``values-1``...), kept raw for the rules.

    The per-seat values are read by seat rather than through a FieldList, which would
    shift the seats after one left blank.
    """

    trump = SelectField(choices=[SelectChoice("", "—")] + [SelectChoice(s) for s in SUITS],
                        default="", validators=[Optional()])

    def seat_values(self, players: int, name: str = "values") -> list[Any]:
        """The posted ``name-<seat>`` values, whole numbers as ints, missing ones None."""
        return [whole(request.form.get(f"{name}-{seat}")) for seat in range(players)]


class PlayersForm(StepForm):
    """A change of who plays a match (scorekeeper.rules.roster): its kind, the seat it
    concerns (a sit-out, a return, a substitute, a leave), who takes a seat (a join, a
    substitute) and, for a join, the place in the turn order (none: last)."""

    action = SelectField(choices=[SelectChoice(kind) for kind in (
        "join", "sit_out", "back", "substitute", "leave")], validators=[InputRequired()])
    seat = WholeField(validators=[Optional(), NumberRange(0, 99)])
    at = WholeField(validators=[Optional(), NumberRange(0, 99)])
    name = StringField(_l("Name"), filters=[lambda text: clean_name(text or "")],
                       validators=[Optional(), Length(max=NAME_LENGTH)])

    def validate_name(self, field: Any) -> None:
        if self.action.data in ("join", "substitute"):
            if not field.data:
                raise ValidationError(_l("Give the name of who takes the seat."))
            refused = next((c for c in field.data if refused_character(c) is not None), None)
            if refused is not None:
                raise ValidationError(_l(
                    "A name cannot hold control, invisible or direction-changing characters: "
                    "“%(name)s” holds %(code)s.", name=field.data, code=f"U+{ord(refused):04X}"))

    def validate_seat(self, field: Any) -> None:
        if self.action.data != "join" and field.data is None:
            raise ValidationError(_l("Choose the player."))


class MatchForm(Form):
    """A new match: players in turn order, the first dealer, the place, the options."""

    players = FieldList(StringField(), min_entries=0, max_entries=30)
    first_dealer = WholeField(default=0, validators=[Optional()])
    place = StringField(_l("Place"), validators=[Optional(), Length(max=PLACE_LENGTH)])

    game: Game

    def names(self) -> list[str]:
        """The names typed, stripped and normalised, one per row, blank ones included."""
        return [clean_name(n or "") for n in self.players.data]

    def named(self) -> list[str]:
        """The players of the match, in turn order: the rows left blank do not count."""
        return [name for name in self.names() if name]

    def dealer(self) -> int:
        """The first dealer's seat among :meth:`named`: the row marked, or when it was left
        blank the next row with a name (the radio starts on the first row)."""
        rows = [row for row, name in enumerate(self.names()) if name]
        marked = self.first_dealer.data or 0
        return next((seat for seat, row in enumerate(rows) if row >= marked), 0)

    def validate_players(self, field: FieldList) -> None:
        """Names short enough, distinct, as many as the game allows; blank rows are left out."""
        names = self.named()
        for seat, name in enumerate(self.names(), start=1):
            if not name:
                continue
            refused = refused_character(name)
            if refused is not None:
                visible = "".join(c for c in name if refused_character(c) is None).strip()
                code = f"U+{ord(refused):04X}"
                if not visible:
                    raise ValidationError(_l(
                        "Player %(seat)s: a name cannot hold control, invisible or "
                        "direction-changing characters, and this one holds nothing else "
                        "(%(code)s).", seat=seat, code=code))
                raise ValidationError(_l(
                    "Player %(seat)s: a name cannot hold control, invisible or "
                    "direction-changing characters: “%(name)s” holds %(code)s.",
                    seat=seat, name=visible, code=code))
            if len(name) > NAME_LENGTH:
                raise ValidationError(_l("%(name)s: a name has at most %(n)s characters.",
                                         name=name[:NAME_LENGTH] + "…", n=NAME_LENGTH))
        keys = [name_key(n) for n in names]
        for name in names:
            if keys.count(name_key(name)) > 1:
                raise ValidationError(_l("%(name)s is in this match twice.", name=name))
        if len(names) < self.game.min_players:
            raise ValidationError(_ln(
                "%(game)s needs at least %(num)s player: %(named)s named.",
                "%(game)s needs at least %(num)s players: %(named)s named.",
                self.game.min_players, game=self.game.name, named=len(names)))
        if len(names) > self.game.max_players:
            raise ValidationError(_l("%(game)s is played by %(low)s to %(high)s players.",
                                     game=self.game.name, low=self.game.min_players,
                                     high=self.game.max_players))

    def validate_place(self, field: StringField) -> None:
        """The place is plain text, short enough once cleaned as it is stored."""
        if field.data and not readable_name(field.data):
            raise ValidationError(_l("The place cannot hold control, invisible or "
                                     "direction-changing characters."))
        if field.data and len(clean_name(field.data)) > PLACE_LENGTH:
            raise ValidationError(_l("The place has at most %(n)s characters.",
                                     n=PLACE_LENGTH))

    def look_alikes(self, known: Iterable[str]) -> list[tuple[str, str, str]]:
        """(name typed, the player it looks like, the characters that tell them apart) for
        each new player of the match whose name cannot be told from a player of the table
        (``known``) or another name typed before it: Anna with a Cyrillic A beside Anna."""
        known = list(known)
        players = {name_key(name) for name in known}
        names = self.named()
        return [(name, other, " ".join(f"{c} (U+{ord(c):04X})" for c in dict.fromkeys(name)
                                       if c not in other and c.casefold() not in
                                       other.casefold()))
                for index, name in enumerate(names) if name_key(name) not in players
                for other in dict.fromkeys(known + names[:index]) if look_alike(name, other)]

    def validate_first_dealer(self, field: IntegerField) -> None:
        """The first dealer is one of the players."""
        if field.data is not None and not 0 <= field.data < max(len(self.players.data), 1):
            raise ValidationError(_l("Choose the first dealer among the players."))


def _with_options(base: type, game: Game, defaults: dict[str, Any] | None = None) -> type:
    """A subclass of ``base`` with one field ``opt_<key>`` per option of ``game``, starting
    from ``defaults`` where given, else the option's own default."""

    class WithOptions(base):  # type: ignore[misc, valid-type]
        def option_values(self) -> dict[str, Any]:
            """The raw option values, by option key."""
            return {o.key: self[f"opt_{o.key}"].data for o in self.game.options}

    defaults = defaults or {}
    for option in game.options:
        label = _l(option.label)
        description = _l(option.help) if option.help else ""
        default = defaults.get(option.key, option.default)
        if option.kind == "bool":
            field = BooleanField(label, default=default, description=description)
        elif option.choices:
            choices = [SelectChoice(c, _l(option.word(c))) for c in option.choices]
            field = SelectField(label, default=default, description=description,
                                choices=choices, coerce=type(option.default))
        else:
            field = WholeField(label, default=default, description=description,
                                 validators=[Optional()])
        setattr(WithOptions, f"opt_{option.key}", field)
    WithOptions.game = game
    return WithOptions


def match_form(game: Game, **kwargs: Any) -> MatchForm:
    """A MatchForm with one field per option of ``game``."""
    return _with_options(MatchForm, game)(**kwargs)


FORMATS = {"danish": _l("Danish (by standing, fewest repeats)"),
           "groups": _l("Round robin in groups"), "knockout": _l("Knockout")}
ENTRANTS_LIMIT = 64
SIZE = 4  # the preferred size of a table (TOURNAMENTS.md, "Tables": *default* 4)
ROUND_MINUTES = (25, 90)  # the lengths a round's clock may run (docs/operating.md)
WARNING_MINUTES = 5  # "last deal" is announced this long before the end unless chosen


class CalendarForm(Form):
    """A table's calendar: its time zone (an IANA name) and its weekly card night, a
    weekday (none: no card night) with its start and an optional length in minutes. The
    weekdays' names come from Babel, in the user's language."""

    zone = StringField(_l("Time zone"), validators=[InputRequired(), Length(max=ZONE_LENGTH)])
    weekday = SelectField(_l("Card night"), choices=[SelectChoice(str(d)) for d in range(7)],
                          validate_choice=False, default="")
    start = TimeField(_l("Starts at"), validators=[Optional()])
    minutes = WholeField(_l("Length in minutes"), validators=[Optional(), NumberRange(15, 720)])

    def validate_zone(self, field: StringField) -> None:
        if field.data.strip() not in available_timezones():
            raise ValidationError(_l("Unknown time zone: write one such as Europe/Rome or "
                                     "America/New_York."))

    def validate_weekday(self, field: SelectField) -> None:
        if field.data not in ("", *(str(d) for d in range(7))):
            raise ValidationError(_l("Choose a weekday, or no card night."))
        if field.data and self.start.data is None:
            raise ValidationError(_l("Give the time the card night starts."))


class TournamentForm(Form):
    """A new tournament: its name, format, rounds, table size, entrants (one a line; a pair
    as "Anna + Bruno"), the seed of the draw and the game's options."""

    name = StringField(_l("Name of the evening"),
                       validators=[InputRequired(), Length(max=60)])
    format = SelectField(_l("Format"), choices=[SelectChoice(k, v) for k, v in FORMATS.items()],
                         default="danish")
    rounds = WholeField(_l("Rounds"), default=4, validators=[InputRequired(),
                                                              NumberRange(1, 20)])
    size = WholeField(_l("Entrants a table"), default=SIZE,
                      validators=[InputRequired(), NumberRange(2, 12)])
    go_on = WholeField(_l("Going on from each table (knockout)"), default=2,
                       validators=[InputRequired(), NumberRange(1, 10)])
    pairs = BooleanField(_l("Fixed pairs (write each pair as “Anna + Bruno”)"))
    seed = WholeField(_l("Seed of the draw"), validators=[InputRequired(),
                                                          NumberRange(0, MAX_INT)])
    entrants = TextAreaField(_l("Entrants, one a line"), validators=[InputRequired()])
    round_minutes = WholeField(_l("Minutes a round (empty: no clock)"), validators=[Optional()])
    warning_minutes = WholeField(_l("“Last deal”, minutes before the end"),
                                 default=WARNING_MINUTES, validators=[Optional()])
    accept = BooleanField(_l("Results the other side accepts: a hand saved at a table counts "
                             "once another player there accepts it"))

    game: Game

    @staticmethod
    def asks_size(game: Game) -> bool:
        """Whether the organiser chooses the size of a table (not where the game seats
        players alone at sizes of its own)."""
        return not game.tournament.alone

    def validate_name(self, field: StringField) -> None:
        """The name is plain text."""
        if not readable_name(field.data or "") or not clean_name(field.data or ""):
            raise ValidationError(_l("The name of the evening cannot be empty or hold control, "
                                     "invisible or direction-changing characters."))

    def validate_round_minutes(self, field: WholeField) -> None:
        """A round's clock runs from 25 to 90 minutes."""
        low, high = ROUND_MINUTES
        if field.data is not None and not low <= field.data <= high:
            raise ValidationError(_l("A round lasts from %(low)s to %(high)s minutes.",
                                     low=figure(low), high=figure(high)))

    def validate_warning_minutes(self, field: WholeField) -> None:
        """"Last deal" is announced at least a minute before the end, and after the start."""
        minutes = self.round_minutes.data
        if None not in (minutes, field.data) and not 1 <= field.data < minutes:
            raise ValidationError(_l("“Last deal” is announced from %(low)s to %(high)s "
                                     "minutes before the end of a round of %(minutes)s.",
                                     low=figure(1), high=figure(minutes - 1),
                                     minutes=figure(minutes)))

    def entrant_names(self) -> list[list[str]]:
        """Each entrant's names: one, or two for a pair; blank lines left out."""
        return [entrant_names(line, bool(self.pairs.data))
                for line in (self.entrants.data or "").splitlines() if line.strip()]

    def validate_entrants(self, field: TextAreaField) -> None:
        """Readable names, short enough, each once; two a pair; at most 64 entrants."""
        check_entrants(self.entrant_names(), bool(self.pairs.data))

def entrant_names(line: str, pairs: bool) -> list[str]:
    """The names of the entrant written on ``line``: a pair as "Anna + Bruno".

    >>> entrant_names(" Anna + Bruno ", True), entrant_names("Anna", False)
    (['Anna', 'Bruno'], ['Anna'])
    """
    return [clean_name(part) for part in line.split("+")] if pairs else [clean_name(line)]


def check_entrants(entrants: list[list[str]], pairs: bool, known: Iterable[str] = ()) -> None:
    """Raise ValidationError naming what is wrong with the entrants' names (``known``: the
    names already entered)."""
    seen = {name_key(name) for name in known}
    if len(entrants) + len(seen) // (2 if pairs else 1) > ENTRANTS_LIMIT:
        raise ValidationError(_l("A tournament has at most %(n)s entrants.",
                                 n=ENTRANTS_LIMIT))
    for names in entrants:
        if pairs and len(names) != 2:
            raise ValidationError(_l("“%(line)s”: a pair is two names joined by +, as "
                                     "“Anna + Bruno”.", line=" + ".join(names)))
        for name in names:
            if not name or not readable_name(name):
                raise ValidationError(_l("“%(line)s”: a name cannot be empty or hold control, "
                                         "invisible or direction-changing characters.",
                                         line=" + ".join(names)))
            if len(name) > NAME_LENGTH:
                raise ValidationError(_l("%(name)s: a name has at most %(n)s characters.",
                                         name=name[:NAME_LENGTH] + "…", n=NAME_LENGTH))
            if name_key(name) in seen:
                raise ValidationError(_l("%(name)s is entered twice.", name=name))
            seen.add(name_key(name))


def tournament_form(game: Game, **kwargs: Any) -> TournamentForm:
    """A TournamentForm with one field per option of ``game``, from the defaults a
    tournament's matches start with. A game that sits players alone at sizes of its own
    (Forty-Five) is not asked the size of a table: the field is not shown, nor required."""
    form = _with_options(TournamentForm, game, dict(game.tournament.options))
    if not form.asks_size(game):
        form.size = WholeField(_l("Entrants a table"), default=SIZE,
                               validators=[Optional(), NumberRange(2, 12)])
    return form(**kwargs)


class PhoneForm(Form):
    """Whose phone this is at a table, asked as it joins and changeable on the table page:
    a person's name ("Bruno", shown as "Bruno's phone"), cleaned of control and invisible
    characters; left empty, the phone goes by its number ("Phone 2")."""

    name = StringField(_l("Whose phone is this?"))

    def validate_name(self, field: StringField) -> None:
        field.data = without_refused(field.data or "")
        if len(field.data) > NAME_LENGTH:
            raise ValidationError(_l(
                "The phone's name can be at most %(n)s characters; the one typed has "
                "%(length)s.", n=NAME_LENGTH, length=len(field.data)))


class ReadTokenForm(Form):
    """A new read token of a table's API: the name its maker gives it ("Club website")."""

    name = StringField(_l("Name"), validators=[InputRequired(), Length(max=NAME_LENGTH)])

    def validate_name(self, field: StringField) -> None:
        field.data = clean_name(field.data)
        if not field.data or not readable_name(field.data):
            raise ValidationError(_l("Give the token a name in printable characters."))
