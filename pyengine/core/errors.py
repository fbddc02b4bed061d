"""Input errors: one message per problem, naming the file, line, column and field, what was expected, and a
suggestion where one exists. The command line prints them and exits with the error's code: 2 for bad input or
usage, 3 for work stopped at a time or memory bound (BoundError), 4 for a defect of pyengine (DefectError)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar

from pyengine.core.text import printable

# The command line's exit codes (README "Exit codes"): the worst outcome of a run decides.
EXIT_HOLDS = 0
EXIT_FAILED = 1
EXIT_INPUT = 2
EXIT_BOUND = 3
EXIT_DEFECT = 4


@dataclass
class InputError(Exception):
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    field: str | None = None
    expected: str | None = None
    suggestion: str | None = None
    # The exit code of a run this error ends (the worst of its errors for several).
    exit_code: ClassVar[int] = EXIT_INPUT

    def __post_init__(self) -> None:
        # Data built in memory has no lines: a place of 0 is no place (errors name the field path instead).
        self.line = self.line or None
        self.column = self.column or None

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

    @property  # type: ignore[override]
    def exit_code(self) -> int:  # type: ignore[override]
        return max(e.exit_code for e in self.errors)


class Unread(InputError):
    """A part names another part that was not read because of its own error, gathered already: the one error
    says it, so this one is never reported beside it (pyengine.core.errors.Collected)."""


class BoundError(InputError):
    """Work stopped at a bound of the run: its time (--timeout) or its memory (--memory)."""

    exit_code = EXIT_BOUND


class DefectError(InputError):
    """A defect of pyengine (an unexpected exception), reported in one line instead of a traceback."""

    exit_code = EXIT_DEFECT


# The most errors one file reports; past it the rest of the file is not read.
MAX_FILE_ERRORS = 20


class Collected:
    """The input errors of one file, gathered as the parts that can be read apart are read (the title, each card,
    instance and deck of the state, each action, each question); raised together at the end, or at once past
    MAX_FILE_ERRORS. A bound of the run (BoundError) is never gathered: it stops the reading where it is."""

    def __init__(self) -> None:
        self.errors: list[InputError] = []

    def add(self, error: InputError) -> None:
        """Gather an error (each of several); one that follows from a part not read is dropped beside the error
        that part had."""
        self.errors.extend(e for e in error.all() if not (isinstance(e, Unread) and self.errors))
        if len(self.errors) >= MAX_FILE_ERRORS:
            self.raise_any()

    @contextmanager
    def part(self) -> Iterator[None]:
        """Read one part that can be read apart: its input error is gathered and the reading goes on after it."""
        try:
            yield
        except BoundError:
            raise
        except InputError as error:
            self.add(error)

    def raise_any(self) -> None:
        """Raise what was gathered: the one error, or all of them (up to MAX_FILE_ERRORS) together."""
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise InputErrors(self.errors[:MAX_FILE_ERRORS])


def closest(word: str, choices: Iterable[str], n: int = 3) -> str | None:
    """The closest few choices to a misspelt word, quoted and joined, or None."""
    found = difflib.get_close_matches(word, list(dict.fromkeys(choices)), n=n, cutoff=0.6)
    return " or ".join(repr(f) for f in found) if found else None
