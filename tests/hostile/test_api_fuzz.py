"""The API fuzz (issue 49, class 8): every public function of pyengine.api (and every method of a Table) is called
with each of its arguments in turn replaced by values of the wrong type or value (numbers, booleans, bytes, lists,
dicts, objects, NUL characters and lone surrogates, empty and missing paths, unknown names), the other arguments
valid. Each call must raise InputError, naming the argument where the value is of the wrong type: never another
exception (a bare TypeError, AttributeError, ValueError, RecursionError) and never an answer.

Which values are wrong for an argument is written here from its annotation's words, not from the checker's code
(pyengine.core.arguments), so the two can disagree."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pyengine import api
from pyengine.core.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
STING = ROOT / "examples" / "judge_second_sting.yaml"
DUEL = ROOT / "examples" / "dfm_warg_and_elrond.yaml"
DECK = ROOT / "examples" / "decks" / "sauron_eight.txt"


class Opaque:
    """An object of no type the API knows."""


# Values wrong for every argument, whatever its type.
NEVER = [Opaque(), b"bytes", bytearray(b"x"), {1, 2}, 1 + 2j]
TEXT_WRONG = [5, True, 2.5, [], ["a"], {}, {"a": "b"}, "a\x00b", "a\ud800b", *NEVER]
PATH_WRONG = [5, True, 2.5, [1], {}, {"a": "b"}, "", "a\x00b", "a\ud800", Path("a\x00b"), *NEVER]
NUMBER_WRONG = ["3", 2.5, True, False, [], {}, [3], 10**30, -(10**30), float("nan"), *NEVER]
FLAG_WRONG = [1, 0, "yes", [], 2.5, *NEVER]
CHOICES_WRONG = ["x", 5, ["a"], [("a", "b")], {"a": 5}, {5: "a"}, {"a": None}, {"a": "\x00"}, {"a\ud800": "b"},
                 *NEVER]
PROGRESS_WRONG = [5, "x", True, [], *NEVER]
SOURCE_WRONG = [5, True, 2.5, b"x", [], [1], object(), "", *NEVER]
PAIR_WRONG = ["ab", ["a"], [1, 2], ("a", "b", "c"), {"a": "b"}, 5, ("default", "\x00"), *NEVER]

# An annotation as written -> the values wrong for it (None is added where the annotation does not allow it).
WRONG_FOR: dict[str, list[Any]] = {
    "str": TEXT_WRONG, "str | None": TEXT_WRONG,
    "str | Path": PATH_WRONG, "str | Path | None": PATH_WRONG,
    "Iterable[str | Path]": [*PATH_WRONG, [5], ["a\x00"]],
    "list[str | Path] | None": [5, True, [5], ["a\x00"], {"a": 1}, *NEVER],
    "list[str] | None": [5, True, [5], [["a"]], ["\x00"], {"a": 1}, *NEVER],
    "dict[str, str] | None": CHOICES_WRONG,
    "list[dict[str, str]]": ["x", 5, [5], [{"a": 5}], [["a"]], *NEVER],
    "int": NUMBER_WRONG, "int | None": NUMBER_WRONG,
    "bool": FLAG_WRONG,
    "Progress | None": PROGRESS_WRONG, "StepProgress | None": PROGRESS_WRONG, "Any": [],
    "Scenario | str | Path | dict[str, Any]": SOURCE_WRONG,
    "str | Path | dict[str, Any]": SOURCE_WRONG,
    "str | Path | dict[str, Any] | None": [v for v in SOURCE_WRONG if v != ""],
    "tuple[str, str] | None": PAIR_WRONG,
    "Scenario": [5, "x", {}, STING, *NEVER],
}
# Values of the right type that name nothing there.
UNKNOWN: dict[str, list[Any]] = {
    "game": ["chess", ""], "profile": ["no_such_profile"], "catalog": ["no_such_catalog"], "question": ["no_such_q"],
    "player": ["nobody"], "reference": ["No Such Card At All"],
    "source": ["no_such_source", Path("/no/such/file.yaml"), {"game": 5}],
    "compare": [("default", "no_such_profile")], "decisive": ["no_such_rule"], "documents": [["no_such_doc"]],
    "moment": [10_000], "states": [0], "tries": [0], "max_cards": [0, 99], "limit": [0], "jobs": [0, 10_000],
    "max_instances": [0, 99], "max_tables": [0], "tables": [0], "pack_path": [Path("/no/such/pack.jsonl")],
    "verdicts_path": [Path("/no/such/verdicts.jsonl")], "docs": [Path("/no/such/folder")],
    "readings": [{"no_such_reading": "x"}, {"lotr_dead_pile_scope": "no_such_choice"}],
    "sides": [[{"no_such_reading": "x"}]],
}



def _valid(tmp: Path) -> dict[str, tuple[Callable[..., Any], dict[str, Any]]]:
    """Each public function with valid arguments (never all called as they are: one is always replaced)."""
    empty = tmp / "empty"
    empty.mkdir(exist_ok=True)
    pack = tmp / "pack.jsonl"
    pack.write_text("", encoding="utf-8")
    table = api.table(STING)
    return {
        "load": (api.load, {"source": STING, "name": "sting", "text": None}),
        "answer": (api.answer, {"source": STING, "readings": None, "profile": None}),
        "explain": (api.explain, {"source": STING, "question": None, "readings": None, "profile": None}),
        "plays": (api.plays, {"source": STING, "player": "alice", "readings": None, "profile": None}),
        "facts": (api.facts, {"source": STING, "readings": None, "profile": None}),
        "table": (api.table, {"source": STING}),
        "flip": (api.flip, {"source": STING, "question": api.load(STING).questions[0].id, "readings": None,
                            "profile": None, "progress": None}),
        "board": (api.board, {"source": DUEL, "readings": None, "profile": None, "moment": None}),
        "snapshot": (api.snapshot, {"source": STING, "moment": None, "readings": None, "profile": None}),
        "validate_deck": (api.validate_deck, {"source": DECK, "game": "lotr", "catalog": None, "readings": None,
                                              "profile": None}),
        "readings": (api.readings, {"game": "lotr"}),
        "rules": (api.rules, {"game": "lotr"}),
        "card": (api.card, {"game": "lotr", "reference": "Sting", "catalog": "builtin"}),
        "check": (api.check, {"paths": [STING], "readings": None, "profile": None, "jobs": 1, "progress": None,
                              "dask": None, "text": None, "first_failure": False, "only": None,
                              "catalog": None}),
        "check_decks": (api.check_decks, {"paths": [DECK], "game": "lotr", "catalog": None, "readings": None,
                                          "profile": None, "jobs": 1, "progress": None, "dask": None}),
        "census": (api.census, {"game": "lotr", "catalog": None, "compare": None, "out": None, "max_cards": 3,
                                "states": 40, "tries": 150, "max_tables": 4000, "tables": 5, "progress": None}),
        "edge_cases": (api.edge_cases, {"game": "lotr", "compare": ("default", "gemp"), "decisive": None,
                                        "all_shapes": False, "max_cards": 3, "max_instances": None, "limit": 20,
                                        "out": None, "progress": None}),
        "consistency": (api.consistency, {"documents": None, "docs": None, "scenarios": None, "search_states": True,
                                          "deep": False, "baseline": None, "write_baseline": None, "progress": None}),
        "conformance_export": (api.conformance_export, {"paths": [STING], "out": tmp / "out.jsonl",
                                                        "progress": None}),
        "conformance_compare": (api.conformance_compare, {"pack_path": pack, "verdicts_path": pack, "profile": None,
                                                          "out": None}),
        "import_source": (api.import_source, {"source": "gemp", "path": empty, "progress": None, "replace": False}),
        "Table": (api.Table, {"scenario": api.load(STING)}),
        "Table.answer": (table.answer, {"readings": None, "profile": None}),
        "Table.explain": (table.explain, {"readings": None, "profile": None}),
        "Table.plays": (table.plays, {"player": "alice", "readings": None, "profile": None}),
        "Table.compare": (table.compare, {"sides": [{}], "profile": None}),
    }


def _cases(function: Callable[..., Any], arguments: dict[str, Any]) -> list[tuple[str, Any, bool]]:
    """(argument, value, whether its type is wrong) for every fuzzed value of every argument."""
    signature = inspect.signature(function)
    assert set(arguments) == set(signature.parameters) - {"self"}, "the fuzz must try every argument"
    cases = []
    for name, parameter in signature.parameters.items():
        annotation = str(parameter.annotation)
        wrong = list(WRONG_FOR[annotation])
        if parameter.default is inspect.Parameter.empty and "None" not in annotation.split(" | "):
            wrong.append(None)
        cases += [(name, value, True) for value in wrong]
        cases += [(name, value, False) for value in UNKNOWN.get(name, [])]
    return cases


def test_every_wrong_argument_of_every_public_function_is_an_input_error(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "store.sqlite"))
    public = {n for n in api.__all__ if inspect.isfunction(getattr(api, n))} | {"Table"}
    valid = _valid(tmp_path)
    assert public | {"Table.answer", "Table.explain", "Table.plays", "Table.compare"} == set(valid)
    bare: list[str] = []
    accepted: list[str] = []
    unnamed: list[str] = []
    calls = 0
    for label, (function, arguments) in valid.items():
        for name, value, wrong_type in _cases(function, arguments):
            calls += 1
            shown = f"{label}({name}={value!r:.40})"
            try:
                function(**{**arguments, name: value})
            except InputError as error:
                if wrong_type and not (error.field or "").startswith(name):
                    unnamed.append(f"{shown}: {error}")
            except Exception as error:
                bare.append(f"{shown}: {type(error).__name__}: {error}")
            else:
                accepted.append(shown)
    print(f"{calls} calls over {len(valid)} functions: {len(bare)} bare exceptions, {len(accepted)} wrong values "
          f"accepted, {len(unnamed)} errors not naming their argument")
    assert calls > 800
    assert bare == []
    assert accepted == []
    assert unnamed == []


def test_one_path_alone_is_one_path() -> None:
    """A str is one path, never its characters, where a function takes paths."""
    assert api.check(str(STING)).passed == api.check([STING]).passed > 0
