"""String normalisation and escaping: titles become join keys, and every string reaches clingo as data."""

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


def asp_string(value: str) -> str:
    """A clingo string literal holding exactly `value` (the loaders refuse NUL, which clingo cannot hold)."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'
