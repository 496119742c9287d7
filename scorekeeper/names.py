"""Names people type: players and places, checked and compared one way everywhere."""

from __future__ import annotations

import unicodedata

# Control characters, surrogates, and the invisible or direction-changing ones (U+202E,
# U+200B, BOM, soft hyphen: category Cf; U+2028 and U+2029: Zl and Zp) that make two
# names look alike or turn the text around them.
REFUSED = ("Cc", "Cs", "Cf", "Zl", "Zp")


def clean(text: str) -> str:
    """``text`` stripped and in Unicode normal form C (a composed é, never e + accent).

    >>> clean(" Rene\\u0301 ") == "René"
    True
    """
    return unicodedata.normalize("NFC", text.strip())


def readable(text: str) -> bool:
    """True when ``text`` holds no control, invisible or direction-changing character.

    >>> readable("Anna Maria"), readable("Anna\\u202e"), readable("An\\u00adna")
    (True, False, False)
    """
    return not any(unicodedata.category(c) in REFUSED for c in text)


def key(name: str) -> str:
    """What makes two names the same player: equal once cleaned, without invisible
    characters, and case-folded.

    >>> key("ANNA") == key("anna") == key("An\\u200bna ")
    True
    """
    visible = "".join(c for c in name if unicodedata.category(c) not in REFUSED)
    return clean(visible).casefold()
