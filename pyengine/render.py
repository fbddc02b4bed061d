"""Answers as text and as data: verdict <- rule id <- document paragraph <- the state facts behind it."""

from __future__ import annotations

from typing import Any

from pyengine import kb as kbase
from pyengine.engine import Answer
from pyengine.scenario import Scenario


def answer_data(scenario: Scenario, answer: Answer) -> dict[str, Any]:
    kb = kbase.load(scenario.game.name)
    q = answer.question
    return {
        "question": q.id,
        "ask": q.kind,
        "expected": q.expect,
        "got": answer.verdict,
        "passed": not answer.failures(),
        "failures": answer.failures(),
        "rules": answer.rule_ids,
        "reasons": [{"rule": r.rule, "evidence": str(r.evidence),
                     "state": scenario.game.describe(r.evidence, scenario.state),
                     "sources": [{"document": d, "paragraph": p} for d, p in kb.rules[r.rule].sources]}
                    for r in answer.reasons],
        "rested_on": answer.rested_on,
        "readings": answer.readings,
    }


def _question_line(scenario: Scenario, answer: Answer) -> str:
    """The question in words: its kind and parameters, instances shown with their cards."""
    parts = []
    for key, value in answer.question.params.items():
        if key == "entries" or value in (None, False):
            continue
        text = scenario.game.describe_param(key, value, scenario.state)
        parts.append(f"{key}={text if text is not None else value}")
    return f"{answer.question.kind} " + " ".join(parts)


def explain(scenario: Scenario, answers: list[Answer]) -> str:
    """The explanation chain for every question of a scenario, for a judge to read."""
    kb = kbase.load(scenario.game.name)
    lines = [f"{scenario.path}: {scenario.title}"]
    for answer in answers:
        q = answer.question
        lines.append("")
        lines.append(f"[{q.id}] {_question_line(scenario, answer)}")
        status = "" if q.expect is None else ("  (as expected)" if not answer.failures()
                                               else "  (MISMATCH: " + "; ".join(answer.failures()) + ")")
        lines.append(f"  verdict: {answer.verdict}{status}")
        if not answer.reasons:
            lines.append("  reasons: none; no rule blocks it and no exception was needed")
        by_rule: dict[str, list[str]] = {}
        for reason in answer.reasons:
            by_rule.setdefault(reason.rule, []).append(scenario.game.describe(reason.evidence, scenario.state))
        for rule_id, evidence in by_rule.items():
            rule = kb.rules[rule_id]
            lines.append(f"  <- rule {rule_id}: {rule.text}")
            for document, para in rule.sources:
                entry = kb.paragraph(document, para)
                lines.append(f"       <- {document} {para}: {entry.paraphrase if entry else '(not in the source map)'}")
            for item in evidence:
                lines.append(f"       <- state: {item}")
        if answer.rested_on:
            rested = ", ".join(f"{n}={v}" for n, v in sorted(answer.rested_on.items()))
            lines.append(f"  rested on readings: {rested}")
        non_default = {n: v for n, v in answer.readings.items() if kb.readings[n].default != v}
        if non_default:
            lines.append("  readings chosen: " + ", ".join(f"{n}={v}" for n, v in sorted(non_default.items())))
    return "\n".join(lines)
