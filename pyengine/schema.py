"""JSON Schemas, version 1: of scenario files (written by hand, for editors that validate and complete YAML: the
fields every game shares in pyengine/schemas/scenario.schema.json, each game's own in its package's
scenario.schema.json, assembled here from the registry), and of every command's `--json` output, derived from
the API's result dataclasses so that the schema and the output cannot drift apart."""

from __future__ import annotations

import json
import types
import typing
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from pyengine.core import results
from pyengine.games import SPECS, boards, game_file

SCHEMA_VERSION = 1
DIALECT = "https://json-schema.org/draft/2020-12/schema"

def _board_result(module: Any) -> type:
    """The result a game's board module gives (the type its board_of returns)."""
    return typing.get_type_hints(module.board_of)["return"]


# The result each command prints with --json (`answer` is `explain --json`, the answers to a scenario).
OUTPUTS: dict[str, type | tuple[type, ...]] = {
    "answer": results.Explanation, "check": results.CheckResult, "plays": results.Explanation,
    "deck": results.DecksResult,
    "flip": results.FlipResult, "readings": results.ReadingsResult, "rules": results.RulesResult,
    "edge-cases": results.EdgeCasesResult, "census": results.CensusResult, "consistency": results.ConsistencyResult,
    "import": results.ImportResult,
    "facts": results.FactsResult,
    # A board is a game's own: one result for each kind of board module (a drawn board's, the card games' tables).
    "board": tuple(dict.fromkeys(_board_result(m) for m in boards().values())),
    # The conformance kit: a pack's lines, and what `conformance export` and `conformance compare` print.
    "conformance-pack": results.PackEntry, "conformance-export": results.ExportResult,
    "conformance-compare": results.CompareResult,
}
SCALARS = {str: {"type": "string"}, int: {"type": "integer"}, bool: {"type": "boolean"}, float: {"type": "number"}}


def _type_schema(hint: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The schema of one type hint; dataclasses go to `$defs` and are referenced."""
    if hint is Any:
        return {}
    if hint in SCALARS:
        return dict(SCALARS[hint])
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_type_schema(a, defs) if a is not type(None) else {"type": "null"} for a in args]}
    if origin is list:
        return {"type": "array", "items": _type_schema(args[0], defs)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _type_schema(args[1], defs)}
    if is_dataclass(hint):
        _define(hint, defs)
        return {"$ref": f"#/$defs/{hint.__name__}"}
    raise TypeError(f"no JSON Schema for {hint!r}")


def _define(cls: type, defs: dict[str, Any]) -> None:
    """Add the object schema of a result dataclass (its JSON fields, the ones never left out required)."""
    if cls.__name__ in defs:
        return
    defs[cls.__name__] = {}
    hints = typing.get_type_hints(cls)
    properties, required = {}, []
    for f in fields(cls):
        if f.metadata.get("internal"):
            continue
        properties[f.name] = _type_schema(hints[f.name], defs)
        if not f.metadata.get("omit_none"):
            required.append(f.name)
    defs[cls.__name__] = {"type": "object", "description": " ".join((cls.__doc__ or "").split()),
                          "properties": properties, "required": required, "additionalProperties": False}


def _scenario_schema() -> dict[str, Any]:
    """The shared fields, then one `if game is G then ...` branch per game, with the game's own definitions."""
    shared = json.loads(Path(__file__).with_name("schemas").joinpath("scenario.schema.json").read_text("utf-8"))
    parts = {}
    for game in SPECS:
        path = game_file(game, "scenario.schema.json")
        if path is not None:
            parts[game] = json.loads(path.read_text("utf-8"))
    shared["properties"]["game"] = {"enum": list(parts),
                                    "description": "; ".join(f"{g}: {p['description']}" for g, p in parts.items())}
    branches = [{"if": {"properties": {"game": {"const": g}}}, "then": p["then"]} for g, p in parts.items()]
    definitions = {**shared.pop("$defs"), **{k: v for p in parts.values() for k, v in p["$defs"].items()}}
    closing = {"unevaluatedProperties": shared.pop("unevaluatedProperties")}
    return {**shared, "allOf": branches, **closing, "$defs": definitions}


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of scenario files (`scenario`) or of a command's --json output (its name)."""
    if name == "scenario":
        return _scenario_schema()
    defs: dict[str, Any] = {}
    output = OUTPUTS[name]
    if isinstance(output, tuple):  # one of several results, each in $defs
        for one in output:
            _define(one, defs)
        root = {"oneOf": [{"$ref": f"#/$defs/{one.__name__}"} for one in output]}
    else:
        _define(output, defs)
        root = defs.pop(output.__name__)
    return {"$schema": DIALECT, "$id": f"urn:pyengine:schema:{name}:{SCHEMA_VERSION}",
            "title": f"pyengine {name} --json output, version {SCHEMA_VERSION}", **root, "$defs": defs}
