"""The one builder of the facts pyengine hands to clingo. Every value is typed: a Python `str` is always data
(a clingo string, escaped), a `Const` is a name the knowledge base defines (checked to be a plain lowercase
identifier, so it can never carry code), an `int` is range-checked against MAX_NUMBER, and a `Term` nests
them. No other module formats a value into program text; tests/hostile/test_hostile.py scans the code for that.

Numbers: every number of an input is at most MAX_NUMBER in absolute value, checked where the input is read
(with its file and line); here again as the last line of defence. A clingo.Symbol (read back from a model)
is printed by clingo itself. With at most `--max-instances` items per
state, no sum the encodings form can leave clingo's 32-bit integers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Union

import clingo

from pyengine.core.errors import InputError

MAX_NUMBER = 100_000
_CONST = re.compile(r"[a-z][A-Za-z0-9_]*")
# The one lowercase word clingo's grammar reserves: `p(not)` does not parse (checked against clingo for every word
# of its language; the others are written with `#`).
RESERVED = frozenset({"not"})


def is_const(value: object) -> bool:
    """Whether `value` can be a constant of the encodings: a plain lowercase identifier that clingo does not
    reserve (an importer keeping a name of its data as one asks this first)."""
    return isinstance(value, str) and _CONST.fullmatch(value) is not None and value not in RESERVED


class Const(str):
    """A constant of the encodings (a zone, a card type, a reading choice...): a plain lowercase identifier."""

    def __new__(cls, value: str) -> Const:
        if not is_const(value):
            raise InputError(f"{value!r} is not a name the knowledge base knows",
                             expected="a lowercase name made of letters, digits and underscores, not `not`")
        return super().__new__(cls, value)


@dataclass(frozen=True)
class Term:
    """A function term name(args...), its name a Const and its arguments typed values."""

    name: str
    args: tuple[Value, ...] = ()


Value = Union[str, int, Const, Term, clingo.Symbol]  # noqa: UP007 - a recursive alias needs the runtime Union


def text(value: str) -> str:
    """A clingo string literal holding exactly `value` (NUL, which clingo cannot hold, is refused)."""
    if "\x00" in value:
        raise InputError("a text holds a NUL character", expected="text without NUL characters")
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def number(value: int) -> str:
    """A whole number within the documented bound."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"got {value!r}", expected="a whole number")
    if abs(value) > MAX_NUMBER:
        raise InputError(f"the number {value} is out of range", expected=f"a number from {-MAX_NUMBER} to {MAX_NUMBER}")
    return str(value)


def render(value: Value) -> str:
    """One typed value as program text."""
    kind = type(value)  # the common exact types first: a batch renders some 200,000 values a second
    if kind is str:
        return text(value)  # type: ignore[arg-type]
    if kind is Const:
        return value  # type: ignore[return-value]
    if kind is int:
        return number(value)  # type: ignore[arg-type]
    if isinstance(value, Const):
        return str(value)
    if isinstance(value, str):
        return text(value)
    if isinstance(value, Term):
        name = Const(value.name)
        return f"{name}({','.join(render(a) for a in value.args)})" if value.args else name
    if isinstance(value, clingo.Symbol):
        return str(value)
    return number(value)


def symbol(value: str) -> clingo.Symbol:
    """A term clingo itself printed (a verdict, a rule id, a shape read back from a model) as a symbol."""
    return clingo.parse_term(value)


def python_value(symbol: clingo.Symbol) -> object:
    """An atom's argument as a Python value: a number, a text, a name, or a compound term as a tuple of its name and
    its arguments' values."""
    if symbol.type == clingo.SymbolType.Number:
        return symbol.number
    if symbol.type == clingo.SymbolType.String:
        return symbol.string
    if not symbol.arguments:
        return symbol.name
    return (symbol.name, *(python_value(a) for a in symbol.arguments))


def term(name: str, *args: Value) -> Term:
    """The term name(args...)."""
    return Term(name, tuple(args))


class Fact(str):
    """A fact's program text, name(args...)., that also knows its predicate and its arguments' text, so that a
    batch can give it the key of the unit it belongs to (pyengine.core.batch) without reading the text again."""

    name: str
    arity: int
    arguments: str

    def __new__(cls, name: str, args: tuple[Value, ...]) -> Fact:
        predicate = _predicate(name)
        arguments = ",".join(render(a) for a in args)
        made = super().__new__(cls, f"{predicate}({arguments})." if args else f"{predicate}.")
        made.name, made.arity, made.arguments = predicate, len(args), arguments
        return made

    def keyed(self, unit: int) -> str:
        """The fact with the unit's number as a new first argument."""
        return f"{self.name}({unit},{self.arguments})." if self.arity else f"{self.name}({unit})."


@lru_cache(maxsize=1024)
def _predicate(name: str) -> Const:
    """A fact's predicate name, checked once per name (the encodings have a few hundred; a batch builds some
    45,000 facts a second)."""
    return Const(name)


def fact(name: str, *args: Value) -> Fact:
    """The fact name(args...). as program text."""
    return Fact(name, tuple(args))
