"""Answers as text and as data: verdict <- rule id <- document paragraph <- the state facts behind it."""

from __future__ import annotations

from typing import Any

from pyengine.core import kb as kbase
from pyengine.core.engine import Answer
from pyengine.core.scenario import Scenario

# Why an instance in play was found active or not (a game's activity/3, where its rules keep one).
ACTIVITY_WHY = {"marked": "as the scenario marks it", "turn": "by whose turn it is (p5)",
                "in_play": "as cards in play are, no turn given (p45)"}


def evidence_words(scenario: Scenario, evidence: Any, activity: dict[str, tuple[str, str]]) -> str:
    """A reason's evidence in words, with, for an instance in play, whether the rules found it active and why."""
    text = scenario.game.words.describe(evidence, scenario.state)
    found = activity.get(evidence.arguments[0].string) if evidence.name == "inst" and evidence.arguments else None
    if found is not None:
        text += f"; found {found[0]} {ACTIVITY_WHY[found[1]]}"
    return text


def _question_line(scenario: Scenario, answer: Answer) -> str:
    """The question in words: its kind and parameters, instances shown with their cards."""
    parts = []
    for key, value in answer.question.params.items():
        if key == "entries" or value in (None, False):
            continue
        text = scenario.game.words.describe_param(key, value, scenario.state)
        parts.append(f"{key}={text if text is not None else value}")
    return f"{answer.question.kind} " + " ".join(parts)


def _play_lines(scenario: Scenario, answer: Answer) -> list[str]:
    """Each play of a `plays` answer: its verdict and what it is, then each reason's rule, paragraphs and state."""
    kb = kbase.load(scenario.game.name)
    lines = []
    for play in answer.plays or []:
        words = scenario.game.words.describe_play(play.term, scenario.state)
        lines.append(f"  {play.verdict}: {play.id}" + (f": {words}" if words != play.id else ""))
        for reason in play.reasons:
            paras = ", ".join(f"{d} {p}" for d, p in kb.rules[reason.rule].sources)
            words = evidence_words(scenario, reason.evidence, play.activity)
            lines.append(f"      <- {reason.rule} ({paras}): {words}")
    return lines


def explain(scenario: Scenario, answers: list[Answer]) -> str:
    """The explanation chain for every question of a scenario, for a judge to read."""
    kb = kbase.load(scenario.game.name)
    lines = [f"{scenario.path}: {scenario.title}"]
    lines += [f"card name: {words}" for words in scenario.printings or []]
    for answer in answers:
        q = answer.question
        lines.append("")
        lines.append(f"[{q.id}] {_question_line(scenario, answer)}")
        status = "" if q.expect is None else ("  (as expected)" if not answer.failures()
                                               else "  (MISMATCH: " + "; ".join(answer.failures()) + ")")
        if answer.plays is not None:
            sets = answer.play_sets()
            lines.append(f"  plays: {len(sets['legal'])} legal, {len(sets['illegal'])} illegal{status}")
            lines.append(f"  tried: {scenario.game.listing_covers[q.kind]}")
            lines.extend(_play_lines(scenario, answer))
            if kb.assumptions:  # those of every play: the listing's own (listing_assumed/2) and any all share
                shared = sorted(set.intersection(*(set(p.assumptions) for p in answer.plays))) if answer.plays \
                    else answer.assumptions
                lines.append("  every play rested on base-game assumptions: " + (", ".join(shared) or "none"))
                lines.extend(f"       <- {name}: {kb.assumptions[name]}" for name in shared)
            continue
        lines.append(f"  verdict: {answer.verdict}{status}")
        if not answer.reasons:
            lines.append("  reasons: none; no rule blocks it and no exception was needed")
        by_rule: dict[str, list[str]] = {}
        for reason in answer.reasons:
            by_rule.setdefault(reason.rule, []).append(evidence_words(scenario, reason.evidence, answer.activity))
        for rule_id, evidence in by_rule.items():
            rule = kb.rules[rule_id]
            lines.append(f"  <- rule {rule_id}: {rule.text}")
            if rule.basis:
                lines.append(f"       <- basis: {rule.basis}")
            beside = "beside " if rule.basis else ""
            for document, para in rule.sources:
                entry = kb.paragraph(document, para)
                lines.append(f"       <- {beside}{document} {para}: "
                             f"{entry.paraphrase if entry else '(not in the source map)'}")
            for item in evidence:
                lines.append(f"       <- state: {item}")
        if answer.rested_on:
            rested = ", ".join(f"{n}={v}" for n, v in sorted(answer.rested_on.items()))
            lines.append(f"  rested on readings: {rested}")
        if answer.rested_before:
            rested = ", ".join(f"{n}={v}" for n, v in sorted(answer.rested_before.items()))
            lines.append(f"  the steps before it rested on readings: {rested}")
        if kb.assumptions:
            lines.append("  rested on base-game assumptions: " + (", ".join(answer.assumptions) or "none"))
            for name in answer.assumptions:
                lines.append(f"       <- {name}: {kb.assumptions[name]}")
        non_default = {n: v for n, v in answer.readings.items() if kb.readings[n].default != v}
        if non_default:
            lines.append("  readings chosen: " + ", ".join(f"{n}={v}" for n, v in sorted(non_default.items())))
    return "\n".join(lines)
