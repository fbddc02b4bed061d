"""Runs the encodings on a scenario: one fresh clingo Control per group of questions that share their
readings, fed the rules, the declarations and only the facts of the cards in the state. No legality is
decided here; verdicts and reasons are read back from the stable model, and the readings each verdict rested on
are the reading choices its reasons' rules are declared to depend on."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import clingo
from clingo import ast

from pyengine import kb as kbase
from pyengine.games import registry
from pyengine.limits import bounded_solve
from pyengine.resources import facts_dir, rules_dir
from pyengine.scenario import Question, Scenario
from pyengine.text import asp_string


@dataclass
class Reason:
    rule: str
    evidence: clingo.Symbol


@dataclass
class Answer:
    question: Question
    verdict: str | None
    reasons: list[Reason]
    rested_on: dict[str, str]
    readings: dict[str, str]
    facts: list[str] = field(default_factory=list, repr=False)

    @property
    def rule_ids(self) -> list[str]:
        return sorted({r.rule for r in self.reasons})

    def failures(self) -> list[str]:
        """What differs from the question's expectations (empty when they hold)."""
        problems = []
        q = self.question
        if q.expect is not None and self.verdict != q.expect:
            problems.append(f"expected {q.expect}, got {self.verdict}")
        if q.rules is not None and sorted(set(q.rules)) != self.rule_ids:
            problems.append(f"expected rules [{', '.join(sorted(set(q.rules)))}], got [{', '.join(self.rule_ids)}]")
        return problems


# The knowledge base's declarations: read by pyengine.kb for explanations, never needed to decide a verdict.
DECLARATION_FILES = {"rules.lp", "readings.lp", "paragraphs.lp"}


def program_files(game: str, kinds: frozenset[str]) -> list[Path]:
    """The encodings a set of question kinds needs: the shared ones, the game's base files, each kind's files,
    and the game's ground facts (not its declarations)."""
    module = registry()[game]
    names = list(module.base_files)
    for kind in sorted(kinds):
        names += [n for n in module.kind_files[kind] if n not in names]
    return [*sorted(Path(rules_dir(), "common").glob("*.lp")), *(Path(rules_dir(), game, n) for n in names),
            *(p for p in sorted(Path(facts_dir(), game).glob("*.lp")) if p.name not in DECLARATION_FILES)]


@cache
def program(game: str, kinds: frozenset[str]) -> tuple[ast.AST, ...]:
    """The parsed encodings for these question kinds, parsed once per process and replayed into each Control."""
    statements: list[ast.AST] = []
    for path in program_files(game, kinds):
        ast.parse_string(path.read_text(encoding="utf-8"), statements.append)
    return tuple(statements)


def effective_readings(scenario: Scenario, question: Question, overrides: dict[str, str]) -> dict[str, str]:
    """The choices in force for a question: defaults, then the scenario's, the question's, the command line's."""
    kb = kbase.load(scenario.game.name)
    readings = {name: r.default for name, r in kb.readings.items()}
    readings.update(scenario.readings)
    readings.update(question.readings)
    readings.update(overrides)
    return readings


def solve(game: str, facts: list[str], kinds: frozenset[str]) -> list[clingo.Symbol]:
    """Ground and solve the encodings these question kinds need, with these facts; the stable model's atoms."""
    control = clingo.Control(["--warn=none"])
    with ast.ProgramBuilder(control) as builder:
        for statement in program(game, kinds):
            builder.add(statement)
    control.add("base", [], "\n".join(facts))
    control.ground([("base", [])])
    satisfiable, shown = bounded_solve(control, "solving")
    if not satisfiable:
        raise RuntimeError("the encodings have no model for this state: a defect of the knowledge base")
    return shown


def answer(scenario: Scenario, overrides: dict[str, str] | None = None) -> list[Answer]:
    """Answer every question of a scenario."""
    overrides = overrides or {}
    groups: dict[tuple[Any, ...], list[Question]] = {}
    for question in scenario.questions:
        key = (tuple(sorted(effective_readings(scenario, question, overrides).items())),
               scenario.game.group_key(question.kind, question.params))
        groups.setdefault(key, []).append(question)
    answers: dict[str, Answer] = {}
    kb = kbase.load(scenario.game.name)
    for key, questions in groups.items():
        readings = dict(key[0])
        facts = scenario.game.facts(scenario.state, [(q.id, q.kind, q.params) for q in questions])
        facts.extend(f"reading_chosen({name},{value})." for name, value in readings.items())
        symbols = solve(scenario.game.name, facts, frozenset(q.kind for q in questions))
        undeclared = sorted({str(s.arguments[1]) for s in symbols if s.name == "reason"} - set(kb.rules))
        if undeclared:
            raise RuntimeError(f"rules without a declaration: {', '.join(undeclared)}")
        for q in questions:
            qid = asp_string(q.id)
            mine = [s for s in symbols if s.arguments and str(s.arguments[0]) == qid]
            verdicts = [str(s.arguments[1]) for s in mine if s.name == "verdict"]
            if len(verdicts) > 1:
                raise RuntimeError(f"question {q.id} got several verdicts {verdicts}: a defect of the encodings")
            reasons = sorted((Reason(str(s.arguments[1]), s.arguments[2]) for s in mine if s.name == "reason"),
                             key=lambda r: (r.rule, str(r.evidence)))
            rested = {name: value for r in reasons for name, value in kb.rules[r.rule].readings
                      if readings.get(name) == value}
            answers[q.id] = Answer(q, verdicts[0] if verdicts else None, reasons, rested, readings, facts)
    return [answers[q.id] for q in scenario.questions]
