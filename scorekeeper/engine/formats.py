"""Numbers and times as the user's language writes them: 27.8 and 27,8; 12/3/26, 9:05 PM and
03/12/26, 21:05; Thu 21:05 and gio 21:05.

Babel would write them from CLDR, but its first use loads the whole of a language's CLDR data
to read the few patterns the app uses: every language's, territory's, currency's and time
zone's name, 3.3 MB in each worker for English and 0.7 MB more for Italian. So each language
the app speaks (``LANGUAGES``) has its patterns here, copied from CLDR; a test checks that they
write what Babel writes for every language the app offers. A language without its own writes
as English does.

Rounding is Babel's: half to even on the number as it is printed (27.85 is 27.8).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_EVEN, Decimal

from flask_babel import get_locale


@dataclass(frozen=True)
class Writing:
    """How one language writes numbers and times."""

    decimal: str
    group: str
    moment: str
    """A date and time, short, as :meth:`str.format` fields of :func:`moment`'s."""
    weekdays: tuple[str, ...]
    """Abbreviated, Monday first."""


WRITINGS = {
    "en": Writing(".", ",", "{month}/{day}/{yy:02}, {hour12}:{minute:02}\u202f{ampm}",
                  ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")),
    "it": Writing(",", ".", "{day:02}/{month:02}/{yy:02}, {hour:02}:{minute:02}",
                  ("lun", "mar", "mer", "gio", "ven", "sab", "dom")),
}


def writing() -> Writing:
    """The user's language's way of writing."""
    locale = get_locale()
    return WRITINGS.get(locale.language if locale else "en", WRITINGS["en"])


def decimal(value: float | Decimal, *, grouped: bool = False, trim: bool = False) -> str:
    """``value`` with one decimal (``trim``: none when it is a zero),
    its thousands grouped when ``grouped``: 1,234.6 in English, 1.234,6 in Italian."""
    ways = writing()
    exact = value if isinstance(value, Decimal) else Decimal(repr(value))
    rounded = exact.quantize(Decimal("0.1"), ROUND_HALF_EVEN)
    whole, _, part = f"{abs(rounded):f}".partition(".")
    if grouped:
        whole = f"{int(whole):,}".replace(",", ways.group)
    if trim:
        part = part.rstrip("0")
    sign = "-" if rounded < 0 else ""
    return f"{sign}{whole}{ways.decimal}{part}" if part else f"{sign}{whole}"


def percent(share: float) -> str:
    """``share`` (0.125) as a percentage with at most one decimal: 12.5%."""
    return f"{decimal(Decimal(repr(share)) * 100, grouped=True, trim=True)}%"


def moment(when: datetime) -> str:
    """``when`` (aware, in the viewer's zone) as a short date and time."""
    return writing().moment.format(
        month=when.month, day=when.day, yy=when.year % 100, hour=when.hour,
        hour12=when.hour % 12 or 12, minute=when.minute, ampm="AM" if when.hour < 12 else "PM")


def clock(when: datetime, *, weekday: bool = False) -> str:
    """``when``'s hour and minute, 24-hour, after its weekday when ``weekday``: Thu 21:05."""
    text = f"{when.hour:02}:{when.minute:02}"
    return f"{writing().weekdays[when.weekday()]} {text}" if weekday else text
