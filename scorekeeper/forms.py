"""WTForms classes. Values a rule governs stay raw here: the rules engine checks them."""

from __future__ import annotations

import unicodedata
from typing import Any

from flask import request
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFProtect
from wtforms import BooleanField, FieldList, IntegerField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import HiddenInput

from .models import NAME_LENGTH, name_key
from .rules import Game
from .rules.cards import SUITS

csrf = CSRFProtect()
PLACE_LENGTH = 60
MAX_INT = 2**31 - 1  # what every database stores in an integer column


def printable(text: str) -> bool:
    r"""True when ``text`` holds no control character (NUL, escape, line breaks...).

    >>> printable("Anna Maria"), printable("Anna\x00")
    (True, False)
    """
    return not any(unicodedata.category(c) in ("Cc", "Cs") for c in text)


def whole(value: Any) -> Any:
    """A clean whole number as an int; anything else unchanged, for the rules to refuse.

    >>> whole(" 3 "), whole("x"), whole(None)
    (3, 'x', None)
    """
    if isinstance(value, str):
        text = value.strip()
        if text.lstrip("-").isdecimal() and len(text) < 10:
            return int(text)
        return text or None
    return value


class StepForm(FlaskForm):
    """What every change to a match carries: the version of the sheet the user saw."""

    version = IntegerField(widget=HiddenInput(),
                           validators=[InputRequired(), NumberRange(0, MAX_INT)])


class HandForm(StepForm):
    """A change to one hand: its number."""

    number = IntegerField(widget=HiddenInput(),
                          validators=[InputRequired(), NumberRange(1, MAX_INT)])


class BidForm(HandForm):
    """One player's bid (Navawhist)."""

    seat = IntegerField(widget=HiddenInput(), validators=[InputRequired(), NumberRange(0, 99)])
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


class MatchForm(FlaskForm):
    """A new match: players in turn order, the first dealer, the place, the options."""

    players = FieldList(StringField(), min_entries=0, max_entries=30)
    first_dealer = IntegerField(default=0, validators=[Optional()])
    place = StringField(_l("Place"), validators=[Optional(), Length(max=PLACE_LENGTH)])

    game: Game

    def names(self) -> list[str]:
        """The names typed, stripped, blank ones included."""
        return [(n or "").strip() for n in self.players.data]

    def validate_players(self, field: FieldList) -> None:
        """Names present, short enough, distinct, as many as the game allows."""
        names = self.names()
        for seat, name in enumerate(names, start=1):
            if not name:
                raise ValidationError(_l("Player %(seat)s: type a name or remove the row.",
                                         seat=seat))
            if not printable(name):
                raise ValidationError(_l("Player %(seat)s: a name cannot hold control "
                                         "characters.", seat=seat))
            if len(name) > NAME_LENGTH:
                raise ValidationError(_l("%(name)s: a name has at most %(n)s characters.",
                                         name=name[:NAME_LENGTH] + "…", n=NAME_LENGTH))
        folded = [name_key(n) for n in names]
        for name in names:
            if folded.count(name_key(name)) > 1:
                raise ValidationError(_l("%(name)s is in this match twice.", name=name))
        if not self.game.min_players <= len(names) <= self.game.max_players:
            raise ValidationError(_l("%(game)s is played by %(low)s to %(high)s players.",
                                     game=self.game.name, low=self.game.min_players,
                                     high=self.game.max_players))

    def validate_place(self, field: StringField) -> None:
        """The place is plain text."""
        if field.data and not printable(field.data):
            raise ValidationError(_l("The place cannot hold control characters."))

    def validate_first_dealer(self, field: IntegerField) -> None:
        """The first dealer is one of the players."""
        if field.data is not None and not 0 <= field.data < max(len(self.players.data), 1):
            raise ValidationError(_l("Choose the first dealer among the players."))

    def option_values(self) -> dict[str, Any]:
        """The raw option values, by option key."""
        return {o.key: self[f"opt_{o.key}"].data for o in self.game.options}


def match_form(game: Game, **kwargs: Any) -> MatchForm:
    """A MatchForm with one field per option of ``game``."""

    class GameMatchForm(MatchForm):
        pass

    for option in game.options:
        label = _l(option.label)
        description = _l(option.help) if option.help else ""
        if option.kind == "bool":
            field = BooleanField(label, default=option.default, description=description)
        elif option.choices:
            field = SelectField(label, default=option.default, description=description,
                                choices=[SelectChoice(c, _l(str(c))) for c in option.choices],
                                coerce=type(option.default))
        else:
            field = IntegerField(label, default=option.default, description=description,
                                 validators=[Optional()])
        setattr(GameMatchForm, f"opt_{option.key}", field)
    GameMatchForm.game = game
    return GameMatchForm(**kwargs)
