"""The Python API of pyengine, for programs that embed it (a game server, a deck builder, a judge's tool).

Load a scenario from a file path (`Path` or `str`, in every function alike), a plain dict, or YAML text given
as `load(text=...)`; ask its questions (`answer`), every play open to a
player (`plays`), the explanation chain (`explain`), the smallest change that turns a verdict (`flip`), the
board at every moment (with its picture, for a game that draws one: `board`) and a moment written as a table of
its own (`snapshot`); ground a
card game's table once and ask it many times under any readings (`table`); validate
decklists built in memory (`validate_deck`); list `readings` and `rules`; look cards up (`card`); export a
conformance pack and compare an engine's verdicts with it (`conformance_export`, `conformance_compare`). Readings and
profiles are arguments. Results are typed dataclasses whose `to_json()` is exactly what the command line's
`--json` prints (the command line is a thin layer over these functions). Every bad input raises `InputError`,
which carries the file, line, column, field, what was expected and a suggestion; `error.all()` lists each
error when several were found in one pass. `check` and `check_decks` answer every file they can and report
the others with their errors (`result.errors`, `result.exit_code`).

    import pyengine
    table = pyengine.load(Path("examples/judge_second_sting.yaml"))
    for play in pyengine.plays(table, player="alice").questions[0].plays:
        print(play.play, play.verdict, play.rules)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__all__ = [
    "CardInfo", "CensusResult", "CheckResult", "ChoiceInfo", "CompareResult", "ConsistencyResult", "DeckResult",
    "DecksResult", "EdgeCasesResult", "Explanation", "ExportResult", "FactsResult", "FlipResult", "ImportResult",
    "InputError", "PackEntry", "PlayResult", "QuestionResult", "ReadingChoice", "ReadingInfo", "ReadingsResult",
    "ReasonResult", "Result", "RuleInfo", "RuleStatement", "RulesResult", "ScenarioResult", "SnapshotResult", "Source",
    "Table", "VerdictRules", "answer", "board", "card", "census", "check", "check_decks", "conformance_compare",
    "conformance_export", "consistency", "edge_cases", "explain", "facts", "flip", "import_source", "load", "plays",
    "readings", "rules", "snapshot", "table", "validate_deck",
]

if TYPE_CHECKING:  # what an editor and a type checker see: every public name with its own signature
    from pyengine.core.answering import (
        Table,
        answer,
        board,
        card,
        explain,
        facts,
        load,
        plays,
        readings,
        rules,
        snapshot,
        table,
        validate_deck,
    )
    from pyengine.core.errors import InputError
    from pyengine.core.results import (
        CardInfo,
        CensusResult,
        CheckResult,
        ChoiceInfo,
        CompareResult,
        ConsistencyResult,
        DeckResult,
        DecksResult,
        EdgeCasesResult,
        Explanation,
        ExportResult,
        FactsResult,
        FlipResult,
        ImportResult,
        PackEntry,
        PlayResult,
        QuestionResult,
        ReadingChoice,
        ReadingInfo,
        ReadingsResult,
        ReasonResult,
        Result,
        RuleInfo,
        RulesResult,
        RuleStatement,
        ScenarioResult,
        SnapshotResult,
        Source,
        VerdictRules,
    )
    from pyengine.run.bulk import check, check_decks
    from pyengine.tools.census import census
    from pyengine.tools.conformance import compare as conformance_compare
    from pyengine.tools.conformance import export as conformance_export
    from pyengine.tools.consistency import consistency
    from pyengine.tools.edge_cases import edge_cases
    from pyengine.tools.flip import flip_question as flip
    from pyengine.tools.importing import import_source

# Each public name -> the module that defines it and its name there; imported on first use, so that
# `import pyengine.api` stays cheap (a command imports only what it runs).
_HOME: dict[str, tuple[str, str]] = {
    "CardInfo": ("pyengine.core.results", "CardInfo"),
    "CensusResult": ("pyengine.core.results", "CensusResult"),
    "CheckResult": ("pyengine.core.results", "CheckResult"),
    "ChoiceInfo": ("pyengine.core.results", "ChoiceInfo"),
    "CompareResult": ("pyengine.core.results", "CompareResult"),
    "ConsistencyResult": ("pyengine.core.results", "ConsistencyResult"),
    "DeckResult": ("pyengine.core.results", "DeckResult"),
    "DecksResult": ("pyengine.core.results", "DecksResult"),
    "EdgeCasesResult": ("pyengine.core.results", "EdgeCasesResult"),
    "Explanation": ("pyengine.core.results", "Explanation"),
    "ExportResult": ("pyengine.core.results", "ExportResult"),
    "FactsResult": ("pyengine.core.results", "FactsResult"),
    "FlipResult": ("pyengine.core.results", "FlipResult"),
    "ImportResult": ("pyengine.core.results", "ImportResult"),
    "InputError": ("pyengine.core.errors", "InputError"),
    "PackEntry": ("pyengine.core.results", "PackEntry"),
    "PlayResult": ("pyengine.core.results", "PlayResult"),
    "QuestionResult": ("pyengine.core.results", "QuestionResult"),
    "ReadingChoice": ("pyengine.core.results", "ReadingChoice"),
    "ReadingInfo": ("pyengine.core.results", "ReadingInfo"),
    "ReadingsResult": ("pyengine.core.results", "ReadingsResult"),
    "ReasonResult": ("pyengine.core.results", "ReasonResult"),
    "Result": ("pyengine.core.results", "Result"),
    "RuleInfo": ("pyengine.core.results", "RuleInfo"),
    "RuleStatement": ("pyengine.core.results", "RuleStatement"),
    "RulesResult": ("pyengine.core.results", "RulesResult"),
    "ScenarioResult": ("pyengine.core.results", "ScenarioResult"),
    "SnapshotResult": ("pyengine.core.results", "SnapshotResult"),
    "Source": ("pyengine.core.results", "Source"),
    "Table": ("pyengine.core.answering", "Table"),
    "VerdictRules": ("pyengine.core.results", "VerdictRules"),
    "answer": ("pyengine.core.answering", "answer"),
    "board": ("pyengine.core.answering", "board"),
    "card": ("pyengine.core.answering", "card"),
    "census": ("pyengine.tools.census", "census"),
    "check": ("pyengine.run.bulk", "check"),
    "check_decks": ("pyengine.run.bulk", "check_decks"),
    "conformance_compare": ("pyengine.tools.conformance", "compare"),
    "conformance_export": ("pyengine.tools.conformance", "export"),
    "consistency": ("pyengine.tools.consistency", "consistency"),
    "edge_cases": ("pyengine.tools.edge_cases", "edge_cases"),
    "explain": ("pyengine.core.answering", "explain"),
    "facts": ("pyengine.core.answering", "facts"),
    "flip": ("pyengine.tools.flip", "flip_question"),
    "import_source": ("pyengine.tools.importing", "import_source"),
    "load": ("pyengine.core.answering", "load"),
    "plays": ("pyengine.core.answering", "plays"),
    "readings": ("pyengine.core.answering", "readings"),
    "rules": ("pyengine.core.answering", "rules"),
    "snapshot": ("pyengine.core.answering", "snapshot"),
    "table": ("pyengine.core.answering", "table"),
    "validate_deck": ("pyengine.core.answering", "validate_deck"),
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _HOME[name]
    return getattr(import_module(module), attribute)


def __dir__() -> list[str]:
    return sorted(__all__)
