"""Input errors: one message per problem, naming the file, line, column and field, what was expected, and a
suggestion where one exists. The command line prints them and exits with code 2."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from pyengine.core.text import printable


@dataclass
class InputError(Exception):
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    field: str | None = None
    expected: str | None = None
    suggestion: str | None = None

    def __str__(self) -> str:
        where = ":".join(str(p) for p in (self.file, self.line, self.column) if p is not None)
        text = f"{where}: " if where else ""
        if self.field:
            text += f"{self.field}: "
        text += self.message
        if self.expected:
            text += f"; expected {self.expected}"
        if self.suggestion:
            text += f"; did you mean {self.suggestion}?"
        return printable(text)

    def as_dict(self) -> dict[str, object]:
        """The error's parts that are known, by name (file, line, column, field, message, expected, suggestion)."""
        return {k: getattr(self, k) for k in ("message", "file", "line", "column", "field", "expected", "suggestion")
                if getattr(self, k) is not None}

    def all(self) -> list[InputError]:
        """Every single error this one stands for (itself, or each of several found in one pass)."""
        return [self]


class InputErrors(InputError):
    """Several input errors found in one pass, reported together; it reads as the first, and `all()` gives each."""

    def __init__(self, errors: list[InputError]):
        first = errors[0]
        super().__init__(first.message, first.file, first.line, first.column, first.field, first.expected,
                         first.suggestion)
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)

    def all(self) -> list[InputError]:
        return list(self.errors)


def closest(word: str, choices: Iterable[str], n: int = 3) -> str | None:
    """The closest few choices to a misspelt word, quoted and joined, or None."""
    found = difflib.get_close_matches(word, list(dict.fromkeys(choices)), n=n, cutoff=0.6)
    return " or ".join(repr(f) for f in found) if found else None
