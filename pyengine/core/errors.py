"""Input errors: one message per problem, naming the file, line, column and field, what was expected, and a
suggestion where one exists. The command line prints them and exits with the error's code: 2 for bad input or
usage, 3 for work stopped at a time or memory bound (BoundError), 4 for a defect of pyengine (DefectError)."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from pyengine.core.text import printable

T = TypeVar("T")
D = TypeVar("D")

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
    """Several input errors found in one pass, reported together; it reads as the first, and `all()` gives each (one
    of several given is taken apart into its own)."""

    def __init__(self, errors: list[InputError]):
        errors = [single for error in errors for single in error.all()]
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


class TooMany(InputError):
    """An input holding more of something than one file may (card instances, hypothetical cards): reported with the
    errors found before it, and the rest of the file is not read (pyengine.core.errors.Collected)."""


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
    instance and deck of the state, each field of the state, each action, each question, and within each the fields
    that do not depend on one another); raised together at the end (`raise_any`), or at once past MAX_FILE_ERRORS.
    A part whose parts are read apart has a collection of its own (`apart`), sharing the file's errors: its
    `raise_any` stops only what depends on them. A bound of the run (BoundError) is never gathered: it stops the
    reading where it is."""

    def __init__(self, within: Collected | None = None) -> None:
        self.errors: list[InputError] = within.errors if within is not None else []
        self.within = within
        self.root: Collected = within.root if within is not None else self
        # Whether an error was gathered here or in a collection apart from this one (said or not).
        self.failed = False
        # The error that ended the reading of the file (its collection's), once one has.
        self.ended: InputError | None = None

    def add(self, error: InputError) -> None:
        """Gather an error (each of several); one that follows from a part not read is dropped beside the error
        that part had. Past MAX_FILE_ERRORS, or at an errors.TooMany, every error gathered is raised at once."""
        self.errors.extend(e for e in error.all() if not (isinstance(e, Unread) and self.errors))
        collection: Collected | None = self
        while collection is not None:
            collection.failed, collection = True, collection.within
        if len(self.errors) >= MAX_FILE_ERRORS or isinstance(error, TooMany):
            errors = _in_order(self.errors[:MAX_FILE_ERRORS])
            self.root.ended = errors[0] if len(errors) == 1 else InputErrors(errors)
            raise self.root.ended

    @contextmanager
    def part(self) -> Iterator[None]:
        """Read one part that can be read apart: its input error is gathered and the reading goes on after it (but
        for the error that ended the file's reading, which goes on up)."""
        try:
            yield
        except BoundError:
            raise
        except InputError as error:
            if error is self.root.ended:
                raise
            self.add(error)

    def value(self, read: Callable[[], T], default: D) -> T | D:
        """The value `read` gives, as a part read apart (`part`): `default` where its input error is gathered."""
        with self.part():
            return read()
        return default

    def apart(self) -> Collected:
        """A collection for the parts of one part that are read apart (the fields of an instance, of a question):
        their errors are gathered with this one's, and its `raise_any` stops what depends on them."""
        return Collected(self)

    def raise_any(self) -> None:
        """Raise what was gathered: for a file's collection the one error, or all of them (up to MAX_FILE_ERRORS)
        together; for one apart (`apart`), errors.Unread when any of its parts had an error, which stops the part
        it belongs to without saying anything more."""
        if self.within is not None:
            if self.failed:
                raise Unread("a part was not read for its own errors")
            return
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise InputErrors(_in_order(self.errors[:MAX_FILE_ERRORS]))


def _in_order(errors: list[InputError]) -> list[InputError]:
    """A file's errors in the order of their places in it (line, then column; those without a line last, in the
    order they were found)."""
    return sorted(errors, key=lambda e: (e.line is None, e.line or 0, e.column or 0))


def closest(word: str, choices: Iterable[str], n: int = 3) -> str | None:
    """The closest few choices to a misspelt word, quoted and joined, or None."""
    found = difflib.get_close_matches(word, list(dict.fromkeys(choices)), n=n, cutoff=0.6)
    return " or ".join(repr(f) for f in found) if found else None
