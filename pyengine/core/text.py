"""String normalisation and escaping: titles become join keys, and control characters never reach a terminal."""

import re
import unicodedata

_PLAIN_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
                               "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
                               "\u00b4": "'", "`": "'", "\u2013": "-", "\u2014": "-", "\u2010": "-",
                               "\u2011": "-", "\u00a0": " "})


def invisible(ch: str) -> bool:
    """Whether a character prints nothing of its own: a format character (soft hyphen, zero-width space and
    joiners, direction marks and overrides, byte-order mark, word joiner: category Cf), a variation selector or
    the combining grapheme joiner. Titles copied from a web page or a PDF carry them."""
    code = ord(ch)
    return (unicodedata.category(ch) == "Cf" or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF
            or code == 0x034F)


def invisible_characters(text: str) -> list[str]:
    """The invisible characters of a text, each as U+XXXX, in order of first appearance."""
    return list(dict.fromkeys(f"U+{ord(ch):04X}" for ch in text if invisible(ch)))


def title_key(title: str) -> str:
    """The key two titles share when they differ only in accents, case, typographic quotes, spacing or invisible
    characters (which are removed: a title holding one is the same title)."""
    decomposed = unicodedata.normalize("NFKD", title.translate(_PLAIN_QUOTES))
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch) and not invisible(ch)
                       and unicodedata.category(ch) not in ("Mn", "Me"))
    return " ".join(stripped.casefold().split())


def exact_title(title: str) -> str:
    """A title as printed, for the readings that compare exact titles: composed (NFC), invisible characters
    removed, and trimmed, so that the same printed title typed or copied another way is the same text."""
    return unicodedata.normalize("NFC", "".join(ch for ch in title if not invisible(ch))).strip()


def printable(text: str, keep: str = "") -> str:
    """`text` with every control character (C0, DEL, C1), line or paragraph separator and invisible format
    character (direction marks and overrides, zero-width characters, soft hyphen, byte-order mark, variation
    selectors) written as an escape (`\\u001b`), except those in `keep`: what reaches a terminal can never move the
    cursor, break a line, reorder a line in a bidi-aware viewer or hide a character."""
    return _CONTROL.sub(lambda m: m[0] if m[0] in keep else _escape(m[0]), text)


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


# Unicode categories Cc (C0, DEL, C1), Zl and Zp, and the format characters and selectors that print nothing.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u00ad\u034f\u061c\u180e\u200b-\u200f\u202a-\u202e"
                      "\u2060-\u2064\u2066-\u206f\ufe00-\ufe0f\ufeff\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f"
                      "\U000e0100-\U000e01ef]")
