"""The pytest plugin (entry point `pytest11`): `pytest my_tables/` collects every scenario file in the folders a
user names, a test item per question, answered by pyengine; a file with input errors is one failing item naming
each error. Which folders: those of the ini option `pyengine_scenarios` when it is set, else those given on the
command line. A YAML file is a scenario file when a line of it starts with `game:`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pyengine.core.engine import Answer, answer
from pyengine.core.errors import InputError
from pyengine.core.scenario import Question, load_scenario

# A top-level `game:` line: what tells a scenario file from other YAML in the folders named.
_GAME_LINE = re.compile(rb"^game:", re.MULTILINE)
# How much of a file is read to tell (a scenario file says its game near its start).
_PEEK_BYTES = 65_536


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("pyengine_scenarios", type="paths", default=[],
                  help="folders whose YAML scenario files pyengine collects (default: the paths given to pytest)")


def _folders(config: pytest.Config) -> list[Path]:
    named = config.getini("pyengine_scenarios")
    if named:
        return [Path(p).resolve() for p in named]
    return [Path(config.invocation_params.dir, a.split("::")[0]).resolve() for a in config.args]


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix not in {".yaml", ".yml"}:
        return None
    resolved = file_path.resolve()
    if not any(resolved == f or f in resolved.parents for f in _folders(parent.config)):
        return None
    try:
        with open(file_path, "rb") as stream:
            if not _GAME_LINE.search(stream.read(_PEEK_BYTES)):
                return None
    except OSError:
        return None
    return ScenarioFile.from_parent(parent, path=file_path)


def missing_catalog_reason(error: InputError) -> str | None:
    """Why a scenario on an imported catalog cannot run on this machine, or None when its error is a real one."""
    if error.field == "catalog" and "no imported catalog" in error.message:
        return f"the scenario's catalog is not imported here: {error.message}"
    return None


class ScenarioFile(pytest.File):
    """A scenario file: read when collected (an item per question), answered when its first question runs, by
    each worker that runs one of its questions (collecting is done by every worker; answering, once a worker)."""

    def collect(self) -> Any:
        try:
            self.scenario = load_scenario(self.path)
        except InputError as error:
            reason = missing_catalog_reason(error)
            if reason is not None:
                pytest.skip(reason)
            yield InputErrorsItem.from_parent(self, name="input", error=error)
            return
        self._answers: dict[str, Answer] | None = None
        for question in self.scenario.questions:
            yield QuestionItem.from_parent(self, name=question.id, question=question)

    def answer(self, question_id: str) -> Answer:
        if self._answers is None:
            self._answers = {a.question.id: a for a in answer(self.scenario)}
        return self._answers[question_id]


class QuestionItem(pytest.Item):
    """One question: it passes when every expectation it states holds."""

    def __init__(self, *, question: Question, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.question = question

    def runtest(self) -> None:
        if self.question.expect is None and self.question.rules is None:
            raise QuestionFailure(["the question states no expectation (expect: or rules:)"])
        failures = self.parent.answer(self.question.id).failures()  # type: ignore[union-attr]
        if failures:
            raise QuestionFailure(failures)

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        if isinstance(excinfo.value, QuestionFailure):
            return f"{self.path}: question {self.name}: " + "; ".join(excinfo.value.args[0])
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, self.question.line, f"{self.path.name}::{self.name}"


class InputErrorsItem(pytest.Item):
    """A scenario file that cannot be read: one failing item, each of its errors a line."""

    def __init__(self, *, error: InputError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def runtest(self) -> None:
        raise QuestionFailure([str(e) for e in self.error.all()])

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        if isinstance(excinfo.value, QuestionFailure):
            return "\n".join(excinfo.value.args[0])
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, self.error.line, f"{self.path.name}::input"


class QuestionFailure(Exception):
    """What did not hold, a line each."""
