"""YAML loading that remembers where every key and item stood, so that errors can name the line.

Mappings load as `Mapping` (a dict with `.line`, `.column` and `.key_at(key)`), sequences as `Sequence`
(a list with `.line`, `.column` and `.item_at(index)`). Duplicate keys and NUL characters are errors.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import yaml

from pyengine.core.errors import InputError

try:
    _BaseLoader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _BaseLoader = yaml.SafeLoader

MAX_FILE_BYTES = 2_000_000
T = TypeVar("T")
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


class WrittenNumber(str):
    """A number with a fraction or an exponent (`1.10`, `2e3`), kept as the text its input wrote. No field of the
    formats is such a number (every number they read is whole), while identifiers can look like one: a card id
    `1.10`, read as the number 1.1, was the card 1.1. So a YAML scalar or a JSON number of that form is this text,
    never a float: an identifier field reads what was written, and a number field refuses it, its message showing
    it as written (its repr is the bare text)."""

    def __repr__(self) -> str:
        return str.__str__(self)


def _represent_written(dumper: yaml.SafeDumper, value: WrittenNumber) -> yaml.ScalarNode:
    """A written number dumped as the text it is (quoted where YAML would read it as a number)."""
    return dumper.represent_str(str.__str__(value))


for _dumper in (yaml.representer.SafeRepresenter, yaml.SafeDumper, yaml.representer.Representer, yaml.Dumper):
    _dumper.add_representer(WrittenNumber, _represent_written)


def _position(node: yaml.Node) -> Position:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _mapping(loader: _Loader, node: yaml.MappingNode) -> Mapping:
    loader.flatten_mapping(node)
    result = Mapping()
    result.line, result.column = _position(node)
    for key_node, value_node in node.value:
        # A plain key is a name, kept as written: `0E0:` names a player, it is not the number 0.0.
        plain = isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:null"
        key = key_node.value if plain else loader.construct_object(key_node, deep=True)
        line, column = _position(key_node)
        problem = _text_problem(key) if isinstance(key, str) else None
        if problem:
            raise InputError(f"a key {problem}", file=loader.source, line=line, column=column,
                             expected="keys without NUL characters or lone surrogates")
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
    problem = _text_problem(value)
    if problem:
        line, column = _position(node)
        raise InputError(f"a string {problem}", file=loader.source, line=line, column=column,
                         expected="text without NUL characters or lone surrogates")
    return value


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG, _string)
_Loader.add_constructor(_FLOAT, lambda loader, node: WrittenNumber(_string(loader, node)))


class _NeedsMarks(Exception):
    """The quick reading met something only the marked reading reports well (a duplicate key, a NUL)."""


class _PlainLoader(_Loader):
    """Reads plain dicts and lists without line marks (about half the time of the marked reading); anything
    that needs an error is left to the marked reading."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if node.tag not in _ACCEPTED_TAGS:  # a value YAML would read as a date or the like: refused there
            raise _NeedsMarks
        return super().construct_object(node, deep)


def _plain_mapping(loader: _PlainLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    result: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:null":
            raise _NeedsMarks
        if key_node.value in result:
            raise _NeedsMarks
        result[key_node.value] = loader.construct_object(value_node, deep=True)
    return result


def _plain_sequence(loader: _PlainLoader, node: yaml.SequenceNode) -> list[Any]:
    return [loader.construct_object(item, deep=True) for item in node.value]


def _plain_string(loader: _PlainLoader, node: yaml.ScalarNode) -> str:
    value = loader.construct_scalar(node)
    if "\x00" in value:  # an escaped NUL ("\0")
        raise _NeedsMarks
    return value


_PlainLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _plain_mapping)
_PlainLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _plain_sequence)
_PlainLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG, _plain_string)
_PlainLoader.add_constructor(_FLOAT, lambda loader, node: WrittenNumber(_plain_string(loader, node)))


# Tags a document may carry, all implicit: YAML's explicit tags (!!timestamp, !!binary, !!set...) are refused.
_ACCEPTED_TAGS = {"tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "map", "seq", "merge")}
# Nesting deeper than this, or more nodes than this once aliases are expanded, is refused before construction.
MAX_DEPTH = 64
MAX_NODES = 200_000


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


_MERGE = "tag:yaml.org,2002:merge"


def _children_at(node: yaml.Node, depth: int) -> list[tuple[yaml.Node, int]]:
    """A node's children with the depth each has in the data built from it: a merge key's mapping (or each of a
    merge key's list of mappings) is read into the mapping holding the key, so its entries sit at that mapping's
    own entries' depth, as check_data counts them in the data."""
    if not isinstance(node, yaml.MappingNode):
        return [(child, depth + 1) for child in _children(node)]
    found = []
    for key, value in node.value:
        found.append((key, depth + 1))
        if key.tag == _MERGE:
            found.append((value, depth if isinstance(value, yaml.MappingNode) else depth - 1))
        else:
            found.append((value, depth + 1))
    return found


def _check_nodes(root: yaml.Node, source: str) -> None:
    """Refuse explicit tags, nesting deeper than MAX_DEPTH, cycles, and documents whose aliases expand to more
    than MAX_NODES nodes (an alias bomb), before anything is built from them."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    aliased = False  # whether a node is met twice: an alias, which the size counts again where it is used
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        key = id(node)
        line, column = _position(node)
        if done:
            on_path.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in _children(node))
            if sizes[key] > MAX_NODES and aliased:
                raise InputError(f"the document expands to more than {MAX_NODES:,} values (through YAML aliases)",
                                 file=source, line=line, column=column, expected="a document without alias bombs")
            if sizes[key] > MAX_NODES:
                raise InputError(f"the document holds more than {MAX_NODES:,} values", file=source, line=line,
                                 column=column, expected="a smaller document")
            continue
        if key in sizes:
            aliased = True
            continue
        if key in on_path:
            raise InputError("a YAML alias refers to a value that contains it", file=source, line=line,
                             column=column, expected="a document without recursive aliases")
        if depth > MAX_DEPTH:
            raise InputError(f"values nested more than {MAX_DEPTH} levels deep", file=source, line=line,
                             column=column, expected="a flatter document")
        if node.tag not in _ACCEPTED_TAGS:
            raise InputError(f"the YAML tag {node.tag} is not accepted", file=source, line=line, column=column,
                             expected="plain values: text, numbers, true/false, lists and mappings")
        on_path.add(key)
        stack.append((node, depth, True))
        stack.extend((child, at, False) for child, at in _children_at(node, depth))


# A character no string of data may hold: NUL, or a lone surrogate.
_BAD_CHARACTER = re.compile("[\x00\ud800-\udfff]")


def _text_problem(text: str) -> str | None:
    """Why a string cannot be data here: a NUL (clingo cannot hold it) or a lone surrogate (valid JSON, but no
    character: it cannot be encoded), else None (one scan of the text; a check of every character in Python was
    a tenth of a batch's reading of its files)."""
    if _BAD_CHARACTER.search(text) is None:
        return None
    if "\x00" in text:
        return "holds a NUL character"
    return "holds a lone surrogate (\\ud800-\\udfff), which is not a character"


def check_data(data: Any, source: str, max_nodes: int = MAX_NODES, envelope: int = 0) -> None:
    """Refuse plain data (JSON from a request, a dict given to the API, a quickly read YAML file, a card
    database file) that the marked YAML reading would refuse: nested deeper than MAX_DEPTH (below the `envelope`
    levels that hold the document, such as a request's own object around its scenario), more than `max_nodes`
    values, or a key or string holding a NUL or a lone surrogate; the error names the field's path."""
    stack: list[tuple[Any, int, str]] = [(data, 1 - envelope, "")]
    count = 0
    while stack:
        value, depth, path = stack.pop()
        count += 1
        if count > max_nodes:
            raise InputError(f"the document holds more than {max_nodes:,} values", file=source,
                             expected="a smaller document")
        if depth > MAX_DEPTH:
            raise InputError(f"values nested more than {MAX_DEPTH} levels deep", file=source, field=path or None,
                             expected="a flatter document")
        if isinstance(value, str):
            problem = _text_problem(value)
            if problem:
                raise InputError(f"a text {problem}", file=source, field=path or None,
                                 expected="text without NUL characters or lone surrogates")
        elif isinstance(value, dict):
            for key, child in value.items():
                name = str(key)
                problem = _text_problem(name)
                if problem:
                    raise InputError(f"a key {problem}", file=source, field=path or None,
                                     expected="keys without NUL characters or lone surrogates")
                stack.append((child, depth + 1, f"{path}.{name}" if path else name))
        elif isinstance(value, list):
            stack.extend((child, depth + 1, f"{path}[{index}]") for index, child in enumerate(value))


def plain(data: Any) -> Any:
    """Loaded data (the marked reading's mappings and sequences among it) as plain dicts and lists, which `dump`
    writes."""
    if isinstance(data, dict):
        return {str(k): plain(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [plain(v) for v in data]
    return data


def dump(data: Any) -> str:
    """Plain data (a table, a scenario) as the YAML text a person reads and this module loads back: keys in their
    order, text as it is, long lines folded at 120 characters."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)


def load_plain(text: str, source: str) -> Any:
    """Parse YAML text into plain dicts and lists, without line marks, when that is safe and quick: a text with
    no anchor, alias or tag character (so no alias bomb or explicit tag can hide in it), whose mappings have no
    duplicate keys and whose strings hold no NUL. Otherwise, and on any error, the marked reading (`load_text`)."""
    if "&" in text or "*" in text or "!" in text:
        return load_text(text, source)
    loader = _PlainLoader(text)
    try:
        data = loader.get_single_data()
    except (_NeedsMarks, yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError):
        return load_text(text, source)
    finally:
        loader.dispose()
    check_data(data, source)
    return data


def load_text(text: str, source: str) -> Any:
    """Parse YAML text; syntax errors become an InputError with the parser's line and column, and the document
    is checked (tags, depth, alias expansion) before it is built."""
    loader = _Loader(text)
    loader.source = source
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_nodes(node, source)
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (None, None)
        problem = " ".join(p for p in (exc.context, exc.problem) if p)
        raise InputError(f"malformed YAML: {problem}", file=source, line=line, column=column) from None
    except yaml.YAMLError as exc:
        raise InputError(f"malformed YAML: {exc}", file=source) from None
    except (ValueError, TypeError, OverflowError, KeyError, AttributeError, IndexError) as exc:
        # A constructor's own error (an explicit tag given text it cannot read: `!!bool maybe`, `!!int x`).
        raise InputError(f"a value cannot be read: {type(exc).__name__} {exc}", file=source,
                         expected="a value its YAML tag can hold") from None
    except RecursionError:
        raise InputError(f"values nested too deeply (more than {MAX_DEPTH} levels)", file=source) from None
    finally:
        loader.dispose()


def read_input(path: Path, what: str = "file") -> str:
    """The text of an input file: a regular file (not a folder, pipe or device) of at most MAX_FILE_BYTES, read
    no further than that, in UTF-8 (a byte-order mark is dropped)."""
    source = str(path)
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise InputError(f"cannot read the {what}: {exc.strerror}", file=source) from None
    if stat.S_ISDIR(mode):
        raise InputError("is a folder, not a file", file=source)
    if not stat.S_ISREG(mode):
        raise InputError("is not a regular file (a pipe, a device or a socket)", file=source,
                         expected=f"a {what} saved on disk")
    try:
        with path.open("rb") as handle:
            return read_stream(handle, source, what)
    except OSError as exc:
        raise InputError(f"cannot read the {what}: {exc.strerror}", file=source) from None


def read_stream(handle: BinaryIO, source: str, what: str = "file") -> str:
    """The text of an open input (a file, or standard input as `check -` reads it): at most MAX_FILE_BYTES, read
    no further than that, in UTF-8 (a byte-order mark is dropped)."""
    raw = handle.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(f"the {what} is over the limit of {MAX_FILE_BYTES:,} bytes", file=source,
                         expected=f"a {what} of at most 2 MB")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", file=source) from None


def load_file(path: Path, marks: bool = True) -> Any:
    """Read and parse a YAML file, refusing unreadable, oversized, non-UTF-8 and empty files; without line marks
    (`load_plain`) when `marks` is false."""
    data = (load_text if marks else load_plain)(read_input(path), str(path))
    if data is None:
        raise InputError("the file is empty", file=str(path), expected="a YAML mapping")
    return data


def build_from_file(path: Path, build: Callable[[Any], T]) -> T:
    """`build` on a YAML file's data read without line marks (quicker); when that raises an input error, the
    file is read again with its marks and built again, so that the error names its line."""
    try:
        return build(load_file(path, marks=False))
    except InputError:
        return build(load_file(path))
