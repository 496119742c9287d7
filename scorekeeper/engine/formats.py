"""Numbers and times as the user's language writes them: 27.8 and 27,8; 12/3/26, 9:05 PM and
03/12/26, 21:05; Thu 21:05 and gio 21:05. The one way the app writes a figure or a moment
for the viewer: Babel's public functions, with the request's language (Flask-Babel's
``get_locale``; English outside a request). Every figure a page or a PDF prints goes through
:func:`figure` (the templates' ``number`` and ``decimal`` filters).

Rounding is Babel's: half to even on the number as it is printed (27.85 is 27.8); a
tournament's exact points (fractions) are rounded as the rules show them
(:func:`scorekeeper.rules.tournaments.display`, a half tenth away from zero).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from babel import Locale
from babel.dates import format_datetime, format_skeleton
from babel.numbers import format_decimal, format_percent, get_decimal_symbol
from flask_babel import get_locale

from ..rules.tournaments import display

MINUS = "−"


def language() -> Locale | str:
    """The viewer's language, English outside a request."""
    return get_locale() or "en"


def decimal(value: float | Decimal, *, grouped: bool = False, trim: bool = False) -> str:
    """``value`` with one decimal (``trim``: none when it is a zero),
    its thousands grouped when ``grouped``: 1,234.6 in English, 1.234,6 in Italian."""
    pattern = ("#,##0" if grouped else "0") + (".#" if trim else ".0")
    return format_decimal(value, pattern, locale=language())


def figure(value: int | float | Decimal | Fraction | None, *, minus: str = MINUS) -> str:
    """A figure as printed: a whole number as it is, any other with one decimal in the
    viewer's language (26.8, 26,8 in Italian; a fraction as the rules round it), a negative
    one with a real minus sign (U+2212; ``minus="-"`` for a file a spreadsheet reads, which
    takes U+2212 for text), nothing for None.

    >>> figure(-12), figure(5.0), figure(Fraction(-9, 4)), figure(None), figure(-3, minus="-")
    ('−12', '5.0', '−2.3', '', '-3')
    """
    if value is None:
        return ""
    if isinstance(value, Fraction):
        value = Decimal(display(value))
    text = str(abs(value)) if isinstance(value, int) else decimal(abs(value))
    return f"{minus}{text}" if value < 0 and text.strip("0.,") else text


def list_separator() -> str:
    """What separates a CSV's fields in the viewer's language: a comma, or a semicolon
    where the comma is the decimal sign (as Italian spreadsheets expect).

    >>> list_separator()
    ','
    """
    return ";" if get_decimal_symbol(language()) == "," else ","


def percent(share: float) -> str:
    """``share`` (0.125) as a percentage with at most one decimal: 12.5%."""
    return format_percent(share, "#,##0.#%", locale=language())


def moment(when: datetime) -> str:
    """``when`` (aware, in the viewer's zone) as a short date and time."""
    return format_datetime(when, "short", tzinfo=when.tzinfo, locale=language())


def clock(when: datetime, *, weekday: bool = False) -> str:
    """``when``'s hour and minute, 24-hour, after its weekday when ``weekday``: Thu 21:05."""
    return format_skeleton("EEEHm" if weekday else "Hm", when, tzinfo=when.tzinfo,
                           locale=language())
