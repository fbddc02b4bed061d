"""The OpenAPI 3.1 description of the HTTP JSON API. Request bodies reuse the scenario file's JSON Schema and
responses the schemas of the command line's --json output (pyengine.schema), so the description cannot drift
from what the endpoints answer."""

from __future__ import annotations

from typing import Any

from pyengine.schema import schema

ERROR = {"type": "object", "required": ["error", "errors"],
         "properties": {"error": {"type": "string", "description": "the first one-line message"},
                        "errors": {"type": "array", "items": {"type": "string"}}}}
CHOICES = {"readings": {"type": "object", "additionalProperties": {"type": "string"}},
           "profile": {"type": "string"}, "name": {"type": "string", "description": "what answers call the table"}}
TABLE = {"scenario": {"oneOf": [{"$ref": "#/components/schemas/scenario"}, {"type": "string",
                                                                             "description": "scenario YAML"}]}}


def _post(summary: str, output: str | dict[str, Any], extra: dict[str, Any] | None = None,
          required: tuple[str, ...] = ("scenario",)) -> dict[str, Any]:
    body = {"type": "object", "required": list(required), "properties": {**TABLE, **CHOICES, **(extra or {})}}
    result = {"$ref": f"#/components/schemas/{output}"} if isinstance(output, str) else output
    return {"post": {"summary": summary, "requestBody": {"required": True,
                                                         "content": {"application/json": {"schema": body}}},
                     "responses": _responses(result)}}


def _responses(result: dict[str, Any]) -> dict[str, Any]:
    error = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/error"}}}}
    return {"200": {"description": "the answer", "content": {"application/json": {"schema": result}}},
            "400": {"description": "bad input: one line each, as the command line prints them", **error},
            "413": {"description": "the request body is too large", **error},
            "422": {"description": "stopped at the solve timeout or the memory ceiling", **error},
            "500": {"description": "a defect of pyengine, in one line", **error}}


def _get(summary: str, output: str | dict[str, Any], parameters: list[str]) -> dict[str, Any]:
    result = {"$ref": f"#/components/schemas/{output}"} if isinstance(output, str) else output
    return {"get": {"summary": summary, "responses": _responses(result),
                    "parameters": [{"name": p, "in": "query", "required": p == "game" and "q" in parameters,
                                    "schema": {"type": "string"}} for p in parameters]}}


def openapi_document() -> dict[str, Any]:
    """The API's OpenAPI description."""
    outputs = ("answer", "plays", "flip", "facts", "readings", "rules", "edge-cases", "census", "board")
    schemas = {name: schema(name) for name in ("scenario", *outputs)}
    schemas["error"] = ERROR
    loose = {"type": "object"}
    return {
        "openapi": "3.1.0",
        "info": {"title": "pyengine rules explorer API", "version": "1",
                 "description": "Answers are the command line's --json output (pyengine explain, plays, flip, "
                                "facts, readings, rules, edge-cases, census, board)."},
        "paths": {
            "/api/answer": _post("the table's questions with their reasons (pyengine explain --json)", "answer",
                                 {"question": {"type": "string"}}),
            "/api/plays": _post("every play open to a player (pyengine plays --json)", "plays",
                                {"player": {"type": "string"}}),
            "/api/flip": _post("the smallest change that turns a verdict (pyengine flip --json)", "flip",
                               {"question": {"type": "string"}}, ("scenario", "question")),
            "/api/board": _post("a table's board at one moment, as data and an SVG picture, with every moment's step, "
                                "for a game that draws one (pyengine board --json --svg)",
                                {"type": "object", "required": ["board", "svg", "steps"],
                                 "properties": {"board": {"$ref": "#/components/schemas/board"},
                                                "svg": {"type": "string"},
                                                "steps": {"type": "array", "items": {"type": "object"}}}},
                                {"moment": {"type": "integer"}}),
            "/api/facts": _post("the facts the table becomes (pyengine facts --json)", "facts"),
            "/api/compare": _post("the verdicts under the default beside every profile and reading choice", loose),
            "/api/edge-cases": _post("the smallest states where two sides disagree (pyengine edge-cases --json)",
                                     "edge-cases", {"game": {"type": "string"}, "max_cards": {"type": "integer"},
                                                    "compare": {"type": "array", "items": {"type": "string"}}},
                                     ("game", "compare")),
            "/api/census": _post("the real cards of an imported pool on which two sides disagree (pyengine census "
                                 "--compare A B --json)", "census",
                                 {"game": {"type": "string"}, "catalog": {"type": "string"},
                                  "compare": {"type": "array", "items": {"type": "string"}}}, ("game", "compare")),
            "/api/export": _post("the table as scenario YAML, with its input errors", loose),
            "/api/parse": _post("scenario YAML as a table", loose, {"yaml": {"type": "string"}}, ("yaml",)),
            "/api/cards": _get("cards for completion (q), or the one card a reference names (card)", loose,
                               ["game", "q", "catalog", "limit", "types", "card"]),
            "/api/catalogs": _get("the catalogs of each game", loose, []),
            "/api/readings": _get("every reading (pyengine readings --json)", "readings", ["game"]),
            "/api/rules": _get("every declared rule (pyengine rules --json)", "rules", ["game"]),
            "/api/documents": _get("the rules documents", loose, []),
            "/api/documents/{document}": {"get": {
                "summary": "one document's paragraphs with their rules, readings, scenarios and findings",
                "parameters": [{"name": "document", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": _responses(loose)}},
        },
        "components": {"schemas": schemas},
    }
