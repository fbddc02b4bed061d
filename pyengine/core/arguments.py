"""The arguments of every public API function checked against its annotations before it runs (`@checked`): a value
of another type, a number out of its range, text holding a NUL or a lone surrogate, is an InputError naming the
function and the argument, never a TypeError or AttributeError from deep inside, nor a value used as it is.

The annotations are read as written (the source's strings, `from __future__ import annotations`), in the small
grammar the API uses: `A | B`, `None`, `str`, `int`, `float`, `bool`, `Path`, `Any`, `Scenario`, a progress
callback (`Progress`, `StepProgress`, `Callable`), `dict[K, V]`, `list[T]`, `tuple[A, B]` and `Iterable[T]` (a list
or a tuple, or for paths one path alone: a `str` is one path, never its characters). An annotation outside that
grammar is a defect found at the function's first call."""

from __future__ import annotations

import functools
import inspect
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from pyengine.core.asp import MAX_NUMBER
from pyengine.core.errors import InputError
from pyengine.core.text import printable
from pyengine.core.yamlio import _text_problem

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Kind:
    """One annotation parsed: its name and the kinds inside its brackets (a union's name is "|")."""

    name: str
    inner: tuple[Kind, ...] = ()


def parse(annotation: str) -> Kind:
    """The Kind of an annotation string."""
    kind, rest = _union(annotation.replace(" ", ""))
    if rest:
        raise ValueError(f"cannot read the annotation {annotation!r}")
    return kind


def _union(text: str) -> tuple[Kind, str]:
    options = []
    while True:
        option, text = _single(text)
        options.append(option)
        if not text.startswith("|"):
            break
        text = text[1:]
    return (options[0] if len(options) == 1 else Kind("|", tuple(options))), text


def _single(text: str) -> tuple[Kind, str]:
    length = 0
    while length < len(text) and (text[length].isalnum() or text[length] in "_."):
        length += 1
    name, text = text[:length].rsplit(".", 1)[-1], text[length:]
    if not name:
        raise ValueError(f"cannot read an annotation at {text!r}")
    inner: list[Kind] = []
    if text.startswith("["):
        text = text[1:]
        while True:
            part, text = _union(text)
            inner.append(part)
            if text.startswith(","):
                text = text[1:]
                continue
            if not text.startswith("]"):
                raise ValueError(f"cannot read an annotation at {text!r}")
            text = text[1:]
            break
    return Kind(name, tuple(inner)), text


def _admits_text(kind: Kind) -> bool:
    return kind.name == "str" or (kind.name == "|" and any(_admits_text(k) for k in kind.inner))


def describe(kind: Kind, bounds: tuple[int, int] | None = None) -> str:
    """What a value of this kind is, in words."""
    low, high = bounds or (-MAX_NUMBER, MAX_NUMBER)
    words = {
        "str": "text", "bool": "True or False", "None": "None", "Any": "anything", "Path": "a pathlib.Path",
        "int": f"a whole number from {low:,} to {high:,}", "float": f"a number from {low:,} to {high:,}",
        "Scenario": "a scenario (pyengine.load)", "Progress": "a function", "StepProgress": "a function",
        "Callable": "a function",
    }
    if kind.name == "|":
        return " or ".join(describe(k, bounds) for k in kind.inner)
    if kind.name == "dict":
        return f"a dict of {describe(kind.inner[0])} to {describe(kind.inner[1])}"
    if kind.name in ("list", "Iterable"):
        return f"a list of {describe(kind.inner[0], bounds)}" + (" (or one alone)" if kind.name == "Iterable"
                                                                 and _admits_text(kind.inner[0]) else "")
    if kind.name == "tuple":
        return "a pair (" + ", ".join(describe(k) for k in kind.inner) + ")"
    return words[kind.name]


class _Wrong(Exception):
    """A value that is not of its kind, and where in the argument it sits."""

    def __init__(self, where: str, value: Any):
        super().__init__(where)
        self.where, self.value = where, value


def conform(value: Any, kind: Kind, where: str, bounds: tuple[int, int] | None) -> Any:
    """The value as the function receives it (an iterable made a list, one path alone a list of it), or _Wrong."""
    name = kind.name
    if name == "|":
        if value == "" and any(option.name == "Path" for option in kind.inner):  # text naming a path names one
            raise _Wrong(where, value)
        for option in sorted(kind.inner, key=lambda k: k.name != "None"):  # None first, then in order
            try:
                return conform(value, option, where, bounds)
            except _Wrong:
                continue
        raise _Wrong(where, value)
    if name == "Any":
        return value
    if name == "None":
        if value is None:
            return value
    elif name == "str":
        if isinstance(value, str):
            if _text_problem(value):
                raise _Wrong(where, value)
            return value
    elif name == "bool":
        if isinstance(value, bool):
            return value
    elif name in ("int", "float"):
        numeric = isinstance(value, int) or (name == "float" and isinstance(value, float) and math.isfinite(value))
        low, high = bounds or (-MAX_NUMBER, MAX_NUMBER)
        if numeric and not isinstance(value, bool) and low <= value <= high:
            return value
    elif name == "Path":
        if isinstance(value, os.PathLike):
            text = os.fspath(value)
            if isinstance(text, str) and text and not _text_problem(text):
                return value
    elif name == "Scenario":
        from pyengine.core.scenario import Scenario

        if isinstance(value, Scenario):
            return value
    elif name in ("Progress", "StepProgress", "Callable"):
        if callable(value):
            return value
    elif name == "dict":
        if isinstance(value, dict):
            key_kind, value_kind = kind.inner
            return {conform(k, key_kind, f"{where} key", None): conform(v, value_kind, f"{where}[{k!r}]", None)
                    for k, v in value.items()}
    elif name in ("list", "Iterable"):
        if name == "Iterable" and isinstance(value, str | os.PathLike) and _admits_text(kind.inner[0]):
            value = [value]
        if name == "Iterable" and not isinstance(value, str | bytes | bytearray | dict) and _iterable(value):
            value = list(value)
        if isinstance(value, list | tuple):
            return [conform(item, kind.inner[0], f"{where}[{index}]", bounds) for index, item in enumerate(value)]
    elif name == "tuple":
        if isinstance(value, list | tuple) and len(value) == len(kind.inner):
            return tuple(conform(item, inner, f"{where}[{index}]", None)
                         for index, (item, inner) in enumerate(zip(value, kind.inner, strict=True)))
    else:
        raise ValueError(f"no check for the annotation {name!r}")
    raise _Wrong(where, value)


def _iterable(value: Any) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True


def _shown(value: Any) -> str:
    if isinstance(value, str | int | float | bool | bytes) or value is None:
        return printable(repr(value)[:60])
    return f"a {type(value).__name__}"


@overload
def checked(function: F) -> F: ...


@overload
def checked(function: None = None, **bounds: tuple[int, int]) -> Callable[[F], F]: ...


def checked(function: F | None = None, **bounds: tuple[int, int]) -> Any:
    """Check a public function's arguments against its annotations at every call (`bounds`: the range of an
    int argument, by name, else -MAX_NUMBER to MAX_NUMBER); an argument that does not conform is an InputError
    naming the function and the argument. `@checked` or `@checked(jobs=(1, 64))`."""

    def wrap(function: F) -> F:
        signature = inspect.signature(function)

        @functools.lru_cache(maxsize=1)
        def kinds() -> dict[str, Kind]:
            return {name: parse(str(p.annotation)) for name, p in signature.parameters.items()
                    if p.annotation is not inspect.Parameter.empty}

        @functools.wraps(function)
        def call(*args: Any, **kwargs: Any) -> Any:
            title = function.__qualname__
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as error:
                raise InputError(f"{title}: {error}", field=title, expected=f"the arguments {signature}") from None
            for name, value in bound.arguments.items():
                kind = kinds().get(name)
                if kind is None or name == "self":
                    continue
                try:
                    bound.arguments[name] = conform(value, kind, name, bounds.get(name))
                except _Wrong as wrong:
                    raise InputError(f"{title}: {wrong.where} is {_shown(wrong.value)}", field=wrong.where,
                                     expected=describe(kind, bounds.get(name))) from None
            return function(*bound.args, **bound.kwargs)

        return call  # type: ignore[return-value]

    return wrap(function) if function is not None else wrap
