"""String normalisation and escaping: titles become join keys, and control characters never reach a terminal."""

import re
import unicodedata

_PLAIN_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
                               "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
                               "\u00b4": "'", "`": "'", "\u2013": "-", "\u2014": "-", "\u2010": "-",
                               "\u2011": "-", "\u00a0": " "})


def title_key(title: str) -> str:
    """The key two titles share when they differ only in accents, case, typographic quotes or spacing."""
    decomposed = unicodedata.normalize("NFKD", title.translate(_PLAIN_QUOTES))
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.casefold().split())


def printable(text: str, keep: str = "") -> str:
    """`text` with every control character (C0, DEL, C1) and line or paragraph separator written as an escape
    (`\\u001b`), except those in `keep`: what reaches a terminal can never move the cursor or break a line."""
    return _CONTROL.sub(lambda m: m[0] if m[0] in keep else f"\\u{ord(m[0]):04x}", text)


# Unicode categories Cc (C0, DEL, C1), Zl and Zp.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
