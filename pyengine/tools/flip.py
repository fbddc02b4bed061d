"""`pyengine flip`: the smallest change to a scenario's state that turns a question's verdict around, found by
clingo's optimisation. The state's facts come in renamed to orig_*, a game's flip program
(rules/flip/<game>.lp) lets each be kept or changed at a cost, and the original verdict is forbidden."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import clingo
from clingo import ast

from pyengine.core import kb as kbase
from pyengine.core.answering import overrides, to_scenario, validate_choices
from pyengine.core.arguments import checked
from pyengine.core.asp import render, symbol, term
from pyengine.core.engine import Answer, answer, effective_readings, one_shot_parts, program, reading_facts
from pyengine.core.errors import InputError, closest
from pyengine.core.limits import bounded_solve
from pyengine.core.resources import rules_dir
from pyengine.core.results import (
    FlipResult,
    Progress,
    RuleStatement,
    VerdictRules,
)
from pyengine.core.scenario import Scenario
from pyengine.games import LISTING_KINDS
from pyengine.tools import search_view


@dataclass
class Flip:
    before: Answer
    changes: list[clingo.Symbol]
    verdict: str | None
    reasons: list[tuple[str, str]]


class _Prefix(ast.Transformer):
    """Rename the atoms of the given predicates to orig_<name>."""

    def __init__(self, names: set[str]):
        self.names = names

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:
        symbol = node.symbol
        if symbol.ast_type == ast.ASTType.Function and symbol.name in self.names:
            return node.update(symbol=symbol.update(name=f"orig_{symbol.name}"))
        return node


def flip(scenario: Scenario, question_id: str, overrides: dict[str, str],
         progress: Progress | None = None) -> Flip | None:
    """The smallest change that turns the verdict of one question, or None when no allowed change does
    (`progress` hears (0, 1) while the search runs, (1, 1) when it is done)."""
    questions = {q.id: q for q in scenario.questions}
    if question_id not in questions:
        raise InputError(f"no question {question_id!r} in {scenario.path}", field="--question",
                         expected="one of " + ", ".join(questions), suggestion=closest(question_id, questions))
    question = questions[question_id]
    if question.kind in LISTING_KINDS:
        each = "play" if question.kind == "plays" else "outcome"
        raise InputError(f"question {question_id!r} lists its tries: it has a verdict per {each}, not one to turn",
                         field="--question", expected="a question with one verdict (ask a play question of the play)")
    game = scenario.game
    view = search_view(game.name, "flip")
    refusal = view.flip_refusal(scenario.state)
    if refusal is not None:
        raise InputError(refusal, file=str(scenario.path), field="--question",
                         expected="a scenario on the cards it describes (no `catalog:`), or `pyengine explain` "
                                  "for this one's answers")
    flip_file = Path(rules_dir(), "flip", f"{game.name}.lp")
    [before] = [a for a in answer(scenario, overrides) if a.question.id == question_id]
    readings = effective_readings(scenario, question, overrides)
    facts = game.writer.facts(scenario.state, [(question.id, question.kind, question.params)])
    facts += reading_facts(readings)
    control = clingo.Control(["--warn=none", "--opt-mode=opt"])
    prefix = _Prefix(set(view.flip_predicates))
    with ast.ProgramBuilder(control) as builder:
        for statement in program(game.name, frozenset({question.kind})):
            builder.add(statement)
        ast.parse_string(flip_file.read_text(encoding="utf-8"), builder.add)
        ast.parse_string("\n".join(facts), lambda statement: builder.add(prefix(statement)))
    forbidden = render(term("verdict", question.id, symbol(before.verdict or "none")))
    control.add("base", [], ":- " + forbidden + ".\n#show change/1.\n#show verdict/2.\n#show reason/3.")
    steps = max((int(f.arguments) for f in facts if f.name == "last_step"), default=0)
    control.ground(one_shot_parts(game.name, frozenset({question.kind}), steps))
    satisfiable, best = bounded_solve(control, "the search for a change",
                                      tick=(lambda: progress(0, 1)) if progress else None)
    if progress:
        progress(1, 1)
    if not satisfiable:
        return None
    verdicts = [str(s.arguments[1]) for s in best if s.name == "verdict"]
    reasons = sorted({(str(s.arguments[1]), str(s.arguments[2])) for s in best if s.name == "reason"})
    changes = sorted((s.arguments[0] for s in best if s.name == "change"), key=str)
    return Flip(before, changes, verdicts[0] if verdicts else None, reasons)


@checked
def flip_question(source: Scenario | str | Path | dict[str, Any], question: str, readings: dict[str, str] | None = None,
                  profile: str | None = None, progress: Progress | None = None) -> FlipResult:
    """The smallest change to the state that turns the verdict of `question` around."""
    scenario = to_scenario(source)
    validate_choices(readings, profile)
    found = flip(scenario, question, overrides(scenario.game.name, readings, profile, scenario.path), progress)
    if found is None:
        return FlipResult(question, False)
    kb = kbase.load(scenario.game.name)
    return FlipResult(question, True, VerdictRules(found.before.verdict, found.before.rule_ids),
                      [scenario.game.words.describe_change(c, scenario.state) for c in found.changes],
                      VerdictRules(found.verdict, sorted({r for r, _ in found.reasons})),
                      [RuleStatement(r, kb.rules[r].text) for r in found.before.rule_ids],
                      [str(c) for c in found.changes])
