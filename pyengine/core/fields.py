"""Typed, located access to the fields of a YAML mapping: every wrong field becomes an InputError naming the
file, line, column and field path, what was expected, and the closest valid key for an unknown one."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from pyengine.core.asp import MAX_NUMBER
from pyengine.core.errors import Collected, InputError, InputErrors, Unread, closest
from pyengine.core.text import invisible_characters
from pyengine.core.yamlio import Mapping, Sequence


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, int | float):
        return "a number"
    return "nothing" if value is None else type(value).__name__


class Fields:
    """The fields of one mapping, read by name. An unknown key is an error naming the closest allowed one: raised at
    once (every unknown key together), or, for fields read into a file's collection of errors (`collected`), gathered
    there while the known fields are read; a field then missing is not said to be, as a key misspelt may be it."""

    def __init__(self, data: Any, file: str, path: str, allowed: set[str], line: int = 0, column: int = 0,
                 collected: Collected | None = None):
        self.file, self.path, self.allowed, self.collected = file, path, allowed, collected
        if not isinstance(data, dict):
            raise InputError(f"got {_type_name(data)}", file=file, line=line or None, column=column or None,
                             field=path or None, expected="a mapping of fields")
        self.data: dict = data
        self.unknown: list[str] = []
        self._refuse_unknown(set())

    def _refuse_unknown(self, known: set[str]) -> None:
        """Every key neither allowed nor `known` (said already) is an unknown field: gathered in the collection, or
        raised together."""
        unknown = [key for key in self.data if key not in self.allowed and key not in known]
        self.unknown += [str(key) for key in unknown]
        errors = [self.error(str(key), f"unknown field {key!r}", expected="one of " + ", ".join(sorted(self.allowed)),
                             suggestion=closest(str(key), self.allowed), at=key) for key in unknown]
        if not errors:
            return
        if self.collected is None:
            raise errors[0] if len(errors) == 1 else InputErrors(errors)
        for error in errors:
            self.collected.add(error)

    def narrowed(self, allowed: set[str]) -> Fields:
        """The same fields with fewer allowed (a question's, once its kind is known): a key allowed before and not
        now is an unknown field; one unknown before was said already."""
        view = copy.copy(self)
        view.allowed, view.unknown = allowed, list(self.unknown)
        view._refuse_unknown(set(self.unknown))
        return view

    def entry(self, data: Any, path: str, allowed: set[str], line: int | None = 0, column: int | None = 0) -> Fields:
        """The fields of an entry of this mapping (an item of one of its lists, at its line and column), of the
        same file and collection of errors."""
        return Fields(data, self.file, path, allowed, line or 0, column or 0, self.collected)

    def apart(self) -> Collected:
        """A collection for the fields of this mapping read apart (errors.Collected.apart), within the file's
        collection, or on its own (raising every error it gathered) where the fields have none."""
        return self.collected.apart() if self.collected is not None else Collected()

    def _key_at(self, key: Any) -> tuple[int | None, int | None]:
        if isinstance(self.data, Mapping):
            return self.data.key_at(key)
        return None, None

    def position(self, key: str) -> tuple[int, int]:
        """Where a key of this mapping is in its file (line, column; 0 where unknown), for a Fields read from it."""
        line, column = self._key_at(key)
        return line or 0, column or 0

    def name(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def error(self, key: str, message: str, expected: str | None = None, suggestion: str | None = None,
              at: Any = None) -> InputError:
        """An error of the field `key`, at its place in the file (that of the key `at` where it is given)."""
        line, column = self._key_at(key if at is None else at)
        return InputError(message, file=self.file, line=line, column=column, field=self.name(key),
                          expected=expected, suggestion=suggestion)

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def require(self, key: str, expected: str) -> Any:
        """The value of a field that must be given; missing beside an unknown field (said already, and perhaps this
        one misspelt), it is errors.Unread."""
        if key not in self.data and self.unknown:
            raise Unread(f"missing field {key!r} beside unknown fields", file=self.file, field=self.name(key))
        if key not in self.data or self.data[key] is None:
            line, column = (self.data.line, self.data.column) if isinstance(self.data, Mapping) else (None, None)
            raise InputError(f"missing field {key!r}", file=self.file, line=line, column=column,
                             field=self.name(key), expected=expected)
        return self.data[key]

    def text(self, key: str, required: bool = False, default: str | None = None) -> str | None:
        if required:
            self.require(key, "a string")
        value = self.data.get(key, default)
        if value is None:
            return default
        if isinstance(value, float):  # given as a float by a caller of the API, never by a file or a request
            raise self.error(key, f"got the number {value!r}, which may not be the text meant (1.10 is 1.1)",
                             expected="text: the identifier as a string, in quotes")
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise self.error(key, f"got {_type_name(value)}", expected="a string")
        value = str(value)
        if not value.strip():
            raise self.error(key, "is empty", expected="a non-empty string")
        return value

    def title(self, key: str, required: bool = False) -> str | None:
        """A card's title, subtitle or name: text without invisible characters (pyengine.core.text.invisible),
        which would print as another card's title while keying as it (a soft hyphen or a zero-width space copied
        from a web page): refused where a card is defined, so that it can never make a second card of a title."""
        value = self.text(key, required=required)
        found = invisible_characters(value or "")
        if found:
            raise self.error(key, f"{value!r} holds invisible characters ({', '.join(found)})",
                             expected="the title as printed, without format characters (retype it, or remove them)")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.error(key, f"got {value!r}", expected="true or false")
        return value

    def whole(self, key: str, default: int, minimum: int = 0, maximum: int = MAX_NUMBER) -> int:
        """A whole number from `minimum` to `maximum` (every number of an input is bounded: see pyengine.core.asp)."""
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"got {value!r}", expected="a whole number")
        if not minimum <= value <= maximum:
            raise self.error(key, f"got {value}", expected=f"a whole number from {minimum} to {maximum}")
        return value

    def choice(self, key: str, choices: list[str] | tuple[str, ...], default: str | None = None,
               required: bool = False) -> str | None:
        value = self.text(key, required=required, default=default)
        if value is not None and value not in choices:
            raise self.error(key, f"unknown value {value!r}", expected="one of " + ", ".join(choices),
                             suggestion=closest(value, choices))
        return value

    def items(self, key: str) -> Iterator[tuple[Any, int | None, int | None, str]]:
        """The items of a list field, each with its line, column and field path."""
        value = self.data.get(key)
        if value is None:
            return
        if not isinstance(value, list):
            raise self.error(key, f"got {_type_name(value)}", expected="a list")
        for index, item in enumerate(value):
            line, column = value.item_at(index) if isinstance(value, Sequence) else (None, None)
            yield item, line, column, f"{self.name(key)}[{index}]"

    def mapping(self, key: str) -> dict:
        value = self.data.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.error(key, f"got {_type_name(value)}", expected="a mapping")
        return value

    def only(self, keys: set[str]) -> Fields:
        """The same fields with only `keys`, their lines kept: for reading the parts of one mapping apart."""
        view = Mapping()
        view.update((k, v) for k, v in self.data.items() if k in keys)
        if isinstance(self.data, Mapping):
            view.line, view.column, view.key_positions = self.data.line, self.data.column, self.data.key_positions
        part = copy.copy(self)
        part.data = view
        return part

    def sub(self, key: str, allowed: set[str]) -> Fields:
        value = self.data.get(key)
        line, column = self._key_at(key)
        return Fields(value if value is not None else Mapping(), self.file, self.name(key), allowed,
                      line or 0, column or 0, self.collected)
