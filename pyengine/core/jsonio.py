"""The one JSON reader of every input that arrives as JSON (a request to the server, a line of a conformance pack
or of an engine's verdicts): a key repeated in one object is refused with its path, as the YAML reader refuses it,
never silently resolved to its last value."""

from __future__ import annotations

import json
from typing import Any

from pyengine.core.errors import InputError
from pyengine.core.text import printable
from pyengine.core.yamlio import WrittenNumber


class _Pairs(list):  # type: ignore[type-arg]
    """An object's (key, value) pairs as the parser met them, turned into a dict once checked."""


def loads(text: str | bytes, source: str, line: int | None = None) -> Any:
    """Parse JSON text; a syntax error, a nesting too deep for the parser or a repeated key is an InputError naming
    `source` (and `line`), a repeated key with its path (`players.alice`). A number with a fraction or an exponent
    is the text written (pyengine.core.yamlio.WrittenNumber), as in YAML: `{"card": 1.10}` names the card 1.10."""
    try:
        raw = json.loads(text, object_pairs_hook=_Pairs, parse_float=WrittenNumber)
    except json.JSONDecodeError as exc:
        where = f" of line {exc.lineno}" if exc.lineno > 1 else ""
        raise InputError(f"not JSON: {exc.msg.removesuffix(' at')} at column {exc.colno}{where}", file=source,
                         line=line, expected="JSON text") from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"not JSON: {printable(str(exc)) or 'nested too deeply'}", file=source, line=line,
                         expected="JSON text") from None
    return _checked(raw, source, line)


def _checked(raw: Any, source: str, line: int | None) -> Any:
    """The parsed value with every object a dict, walked without recursion (the parser's own depth bounds it)."""
    holder: list[Any] = [raw]
    # (container, key in it, value, path): each value is converted where it sits.
    pending: list[tuple[Any, Any, Any, str]] = [(holder, 0, raw, "")]
    while pending:
        container, key, value, path = pending.pop()
        if isinstance(value, _Pairs):
            converted: dict[str, Any] = {}
            for name, item in value:
                where = f"{path}.{name}" if path else str(name)
                if name in converted:
                    raise InputError(f"key {printable(repr(name))} appears twice", file=source, line=line,
                                     field=printable(where), expected="each key once in an object")
                converted[name] = item
                pending.append((converted, name, item, where))
            container[key] = converted
        elif isinstance(value, list):
            copy = list(value)
            container[key] = copy
            pending.extend((copy, index, item, f"{path}[{index}]") for index, item in enumerate(copy))
    return holder[0]
