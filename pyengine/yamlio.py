"""YAML loading that remembers where every key and item stood, so that errors can name the line.

Mappings load as `Mapping` (a dict with `.line`, `.column` and `.key_at(key)`), sequences as `Sequence`
(a list with `.line`, `.column` and `.item_at(index)`). Duplicate keys and NUL characters are errors.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from pyengine.errors import InputError

try:
    _BaseLoader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _BaseLoader = yaml.SafeLoader

MAX_FILE_BYTES = 2_000_000
Position = tuple[int, int]


class Mapping(dict):
    line = 0
    column = 0

    def __init__(self) -> None:
        super().__init__()
        self.key_positions: dict[Any, Position] = {}

    def key_at(self, key: Any) -> Position:
        return self.key_positions.get(key, (self.line, self.column))


class Sequence(list):
    line = 0
    column = 0

    def __init__(self) -> None:
        super().__init__()
        self.item_positions: list[Position] = []

    def item_at(self, index: int) -> Position:
        if 0 <= index < len(self.item_positions):
            return self.item_positions[index]
        return (self.line, self.column)


class _Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    source = "<input>"


# Booleans and numbers as in YAML 1.2's core schema. YAML 1.1 would read `expect: yes` or `on: shards` as
# booleans, and the card id `1_364` as the number 1364. A number with a leading zero (the card code `04045`)
# stays a string.
_BOOL, _INT, _FLOAT = "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"
_Loader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag not in (_BOOL, _INT, _FLOAT)]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
_Loader.add_implicit_resolver(_INT, re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$"), list("-+0123456789"))
_FLOAT_TEXT = r"^[-+]?(?:\.[0-9]+|(?:0|[1-9][0-9]*)(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$"
_Loader.add_implicit_resolver(_FLOAT, re.compile(_FLOAT_TEXT), list("-+.0123456789"))


def _position(node: yaml.Node) -> Position:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _mapping(loader: _Loader, node: yaml.MappingNode) -> Mapping:
    loader.flatten_mapping(node)
    result = Mapping()
    result.line, result.column = _position(node)
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line, column = _position(key_node)
        try:
            duplicate = key in result
        except TypeError:
            raise InputError("a mapping key must be a plain value", file=loader.source, line=line,
                             column=column) from None
        if duplicate:
            raise InputError(f"key {key!r} appears twice in one mapping", file=loader.source, line=line,
                             column=column, field=str(key))
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_positions[key] = (line, column)
    return result


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> Sequence:
    result = Sequence()
    result.line, result.column = _position(node)
    for item in node.value:
        result.append(loader.construct_object(item, deep=True))
        result.item_positions.append(_position(item))
    return result


def _string(loader: _Loader, node: yaml.ScalarNode) -> str:
    value = loader.construct_scalar(node)
    if "\x00" in value:
        line, column = _position(node)
        raise InputError("a string holds a NUL character", file=loader.source, line=line, column=column,
                         expected="text without NUL characters")
    return value


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG, _string)


def load_text(text: str, source: str) -> Any:
    """Parse YAML text; syntax errors become an InputError with the parser's line and column."""
    loader = _Loader(text)
    loader.source = source
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (None, None)
        problem = " ".join(p for p in (exc.context, exc.problem) if p)
        raise InputError(f"malformed YAML: {problem}", file=source, line=line, column=column) from None
    except yaml.YAMLError as exc:
        raise InputError(f"malformed YAML: {exc}", file=source) from None
    finally:
        loader.dispose()


def load_file(path: Path) -> Any:
    """Read and parse a YAML file, refusing unreadable, oversized, non-UTF-8 and empty files."""
    source = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", file=source) from None
    if path.is_dir():
        raise InputError("is a folder, not a file", file=source)
    if size > MAX_FILE_BYTES:
        raise InputError(f"the file is {size:,} bytes, over the limit of {MAX_FILE_BYTES:,}", file=source,
                         expected="a scenario file of at most 2 MB")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", file=source) from None
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", file=source) from None
    data = load_text(text, source)
    if data is None:
        raise InputError("the file is empty", file=source, expected="a YAML mapping")
    return data
