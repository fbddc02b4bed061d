"""What the card games' censuses of terms share: a field of a card record classified by the tables of a game."""

from __future__ import annotations


def field_row(name: str, read: dict[str, str], named: dict[str, str],
              no_bearing: dict[str, str]) -> tuple[str, str, str, str]:
    """The census row of field `name`: read (with the rule that reads it), named (with the rule an answer names it
    by), of no bearing (with why) or dropped."""
    for status, table in (("read", read), ("named", named), ("no bearing", no_bearing)):
        if name in table:
            return ("field", name, status, table[name])
    return ("field", name, "dropped", "")
