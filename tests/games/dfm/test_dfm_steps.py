"""The Duel for Middle-earth grounded one moment at a time (pyengine.core.stepwise): every Duel scenario file answers
exactly as it did when the encodings were one program over all moments (tests/golden/dfm_answers.json, recorded
from that program: verdicts, rule ids, reasons, readings, assumptions, and every play of `plays`; a file added
since is recorded when it is added, its expectations checked by the scenario tests), and the very solves that
answer it ground to facts only (but for reading choices left open), with no solver choices. The suite checks the
files that between them exercise everything the recorded files do (CHECKED); `PYENGINE_EXHAUSTIVE=1` checks every
one."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import clingo
import pytest
from clingo import ast

from conftest import ROOT
from pyengine import api
from pyengine.core import kb, stepwise
from pyengine.core.answering import plays_table
from pyengine.core.engine import answer as engine_answer
from pyengine.core.engine import answer_sides, program, units
from pyengine.core.errors import InputError
from pyengine.core.solve_records import recorded_solves
from pyengine.core.yamlio import load_file
from pyengine.pytest_plugin import missing_catalog_reason

GOLDEN = ROOT / "tests" / "golden" / "dfm_answers.json"
RECORDED = json.loads(GOLDEN.read_text(encoding="utf-8"))
# `plays` on this file had no model under the one program (clasp's equivalence preprocessing on its size); it is
# answered now, so nothing was recorded to compare with.
NEWLY_ANSWERED = {"tests/scenarios/dfm/interactions_more.yaml"}


def _features(path: Path, data: dict[str, Any]) -> set[str]:
    """What a Duel file exercises: its folder, the real cards or not, its chapter, whether it chooses readings, each
    action's fields (its kind and choices, a call's ally and effect, a take's use) and each question's kind."""
    questions = data.get("questions") or []
    found = {f"folder {path.parent}", f"catalog {'catalog' in data}", f"chapter {data.get('chapter', 1)}",
             f"readings {bool(data.get('readings')) or any(q.get('readings') for q in questions)}"}
    for action in data.get("actions") or []:
        found |= {f"field {k}" for k in action if k != "player"}
        found |= {f"call {action['call']} {action.get('effect')}"} if "call" in action else set()
        found |= {f"use {action.get('use')}"} if "take" in action else set()
    return found | {f"ask {q.get('ask')}" for q in questions}


def _covering(paths: list[str]) -> list[str]:
    """A few of the files that together exercise every feature any of them does (_features), picked greedily: the
    file adding the most features not yet exercised, the one with fewest actions and questions on a tie."""
    files = {p: load_file(Path(p), marks=False) or {} for p in sorted(paths)}
    features = {p: _features(Path(p), data) for p, data in files.items()}
    size = {p: len(data.get("actions") or []) + len(data.get("questions") or []) for p, data in files.items()}
    left, chosen = set().union(*features.values()), []
    while left:
        best = min(files, key=lambda p: (-len(features[p] & left), size[p]))
        chosen.append(best)
        left -= features[best]
    return sorted(chosen)


# Every recorded file with PYENGINE_EXHAUSTIVE=1 (about a second a file, 137 files); else the files that between
# them exercise every action kind, ally effect, choice, question kind, chapter and folder the recorded files do
# (about a fifth of them), and the one answered anew.
CHECKED = sorted(RECORDED) if os.environ.get("PYENGINE_EXHAUSTIVE") else sorted(
    {*_covering(sorted(RECORDED)), *NEWLY_ANSWERED})


def compact(result: dict[str, Any]) -> list[dict[str, Any]]:
    """A result's answers as recorded: each question's verdict, rules, reasons, readings other than the defaults
    and assumptions; for `plays`, the legal plays, how many plays, and a digest of every play's details."""
    defaults = {n: r.default for n, r in kb.load("dfm").readings.items()}
    out = []
    for q in result["questions"]:
        item = {"question": q["question"], "got": q["got"], "rules": q["rules"], "rested_on": q["rested_on"],
                "readings": {k: v for k, v in q["readings"].items() if defaults.get(k) != v},
                "assumptions": q.get("assumptions"),
                "reasons": sorted(f'{r["rule"]} {r["facts"]}' for r in q["reasons"])}
        if q.get("plays") is not None:
            details = sorted(" | ".join([p["play"], str(p["verdict"]), ",".join(p["rules"]),
                                         ",".join(f"{k}={v}" for k, v in sorted(p["rested_on"].items())),
                                         ",".join(p.get("assumptions") or []),
                                         ";".join(sorted(r["facts"] for r in p["reasons"]))]) for p in q["plays"])
            item["legal"] = sorted(x["play"] for x in q["plays"] if x["verdict"] == "legal")
            item["plays"] = len(details)
            item["plays_digest"] = hashlib.sha256("\n".join(details).encode()).hexdigest()
            del item["got"]
        out.append(item)
    return out


@pytest.mark.parametrize("path", CHECKED)
def test_every_duel_file_answers_as_recorded_grounding_to_facts_with_no_choices(path: str) -> None:
    """The answers and every play as recorded, and each solve that gave them (recorded_solves) made no solver
    choice, its grounding all facts but the reading choices a timeline shared by several leaves open (the files
    of CHECKED: all of them with PYENGINE_EXHAUSTIVE=1)."""
    recorded = RECORDED[path]
    with recorded_solves() as solves:
        try:
            scenario = api.load(Path(path))
            answered = api.answer(scenario)
        except InputError as error:  # a file on the base game's real cards, where they are not imported
            reason = missing_catalog_reason(error)
            if reason is None:
                raise
            pytest.skip(reason)
        # One Control for each group of units that share a timeline, however many reading choices they need.
        assert len({s["grounding"] for s in solves}) == len({u.group for u in units(scenario, {})})
        plays = compact(api.plays(Path(path)).to_dict())
    assert compact(answered.to_dict()) == recorded["answer"]
    if path in NEWLY_ANSWERED:
        assert all(q["plays"] > 0 for q in plays)
    else:
        assert plays == recorded["plays"]
    assert solves and [s["choices"] for s in solves] == [0] * len(solves)
    assert [s["undecided_atoms"] for s in solves if not s["readings_open"]] == [0] * sum(
        not s["readings_open"] for s in solves)


def test_units_that_need_several_reading_choices_share_one_grounding() -> None:
    """A file whose questions need different reading choices on one timeline is grounded once with the choices left
    open and solved once per set of choices (the test above counts the Controls of every file)."""
    scenario = api.load(Path("tests/scenarios/dfm/chapter_end_turn.yaml"))
    with recorded_solves() as solves:
        api.answer(scenario)
    assert len(solves) == 2 and len({s["grounding"] for s in solves}) == 1
    assert all(s["readings_open"] for s in solves)


def test_the_record_covers_every_duel_file() -> None:
    files = {str(p) for p in [*Path("tests/scenarios/dfm").glob("*.yaml"), *Path("tests/scenarios/generated/dfm").glob(
        "*.yaml"), *Path("examples").glob("dfm*.yaml")]}
    assert files == set(RECORDED)


def test_a_plays_question_grounds_every_step_part() -> None:
    """After the last step a `plays` question tries every action, so step_part/2 must name every step part the
    encodings have (state.lp lists them by hand)."""
    names = set(stepwise.step_part_names(program("dfm", frozenset({"plays"}))))
    [unit] = units(plays_table(api.load(Path("examples/dfm_warg_and_elrond.yaml")), "sauron"), {})
    control = clingo.Control(["--warn=none"])
    with ast.ProgramBuilder(control) as builder:
        for statement in program("dfm", unit.kinds):
            builder.add(statement)
    control.add("base", [], "\n".join(unit.facts))
    control.ground([("base", [])])
    last = stepwise.steps(control)
    control.ground([(stepwise.PARTS, [clingo.Number(last)])])
    assert set(stepwise.step_parts(control)[last]) == names


# Tables whose answers turn on readings of several kinds (an exit, a toll, the chapter's end of turn), with the
# readings whose sides are compared: those each file's answers rest on (the example's Warg exit and its effects that
# fall short, the toll's, the chapter's end of turn); every reading with PYENGINE_EXHAUSTIVE=1 (each side alone
# answers the file again, 1 s a side: 20 sides for the example).
SIDES_FILES = {"examples/dfm_warg_and_elrond.yaml": ("dfm_warg_", "dfm_partial_effect"),
               "tests/scenarios/dfm/tom_toll.yaml": ("dfm_tom_",),
               "tests/scenarios/dfm/chapter_end_turn.yaml": ("dfm_chapter_end_turn",)}


@pytest.mark.parametrize("path", SIDES_FILES)
def test_every_reading_side_by_side_on_one_grounding_answers_as_each_side_alone(path: str) -> None:
    """engine.answer_sides grounds a Duel table once with the reading choices left open and solves once per
    side: each side's answers (the questions and both players' plays) equal that side answered alone."""
    table = plays_table(api.load(Path(path)), None, keep_questions=True)
    readings = kb.load("dfm").readings
    about = ("dfm_",) if os.environ.get("PYENGINE_EXHAUSTIVE") else SIDES_FILES[path]
    sides = [{}] + [{name: choice} for name, reading in sorted(readings.items()) for choice in reading.choices
                    if choice != reading.default and name.startswith(about)]
    assert len(sides) > 1
    together = answer_sides(table, sides)
    # Every reading the answers under the defaults rest on, before the moment asked about or at it, is compared.
    rested = {name for a in together[0] for found in (a, *(a.plays or []))
              for name in (*found.rested_on, *found.rested_before)}
    assert all(name.startswith(about) for name in rested), rested
    for side, answers in zip(sides, together, strict=True):
        alone = engine_answer(table, side)
        assert [_summary(a) for a in answers] == [_summary(a) for a in alone], (path, side)


def _summary(answer: Any) -> tuple[Any, ...]:
    plays = [(p.id, p.verdict, p.rule_ids, p.rested_on, p.assumptions) for p in answer.plays or []]
    return (answer.question.id, answer.verdict, [(r.rule, str(r.evidence)) for r in answer.reasons],
            answer.rested_on, answer.readings, answer.assumptions, plays)


def test_the_loaders_board_names_are_the_knowledge_bases() -> None:
    """The Duel's reader refuses region and tile names outside the board; its lists (pyengine.games.dfm.terms) are the
    board_region/1 and tile_region/2 facts of facts/dfm/base_game.lp, and the allies and races its ally/2 and race/2
    facts."""
    from pyengine.core.resources import facts_dir, rules_dir
    from pyengine.games.dfm import terms as dfm

    control = clingo.Control(["--warn=none"])
    control.load(str(Path(facts_dir(), "dfm", "base_game.lp")))
    control.load(str(Path(rules_dir(), "dfm", "calls.lp")))
    control.ground([("base", [])])

    def atoms(name: str, arity: int) -> list[clingo.Symbol]:
        return [a.symbol for a in control.symbolic_atoms.by_signature(name, arity)]

    assert sorted(a.arguments[0].string for a in atoms("board_region", 1)) == sorted(dfm.REGIONS)
    assert sorted(a.arguments[0].string for a in atoms("tile_region", 2)) == sorted(dfm.TILES)
    assert {a.arguments[0].name: a.arguments[1].name for a in atoms("ally", 2)} == dfm.ALLIES
    assert sorted(a.arguments[0].name for a in atoms("race", 2)) == sorted(dfm.RACES)


def test_an_answer_after_a_step_a_reading_shaped_lists_that_reading() -> None:
    """The second call after an extra turn is done or refused by whether the extra turn was a turn of its own, a
    reading the step before it (the end of the turn) rested on: the answer lists that reading and the choice in
    force, though none of its own reasons depends on it; at the start nothing before rests on anything."""
    path = Path("tests/scenarios/dfm/reading_through_earlier_step.yaml")
    answers = {q["question"]: q for q in api.answer(path).to_dict()["questions"]}
    assert answers["second-call"]["rested_on"] == {}
    assert answers["second-call"]["rested_on_before"] == {"dfm_extra_turn_call": "new_turn"}
    assert answers["second-call-same-turn"]["rested_on_before"] == {"dfm_extra_turn_call": "same_turn"}
    assert answers["extra-turn"]["rested_on_before"] == {}
    text = api.explain(path, "second-call").text
    assert "the steps before it rested on readings: dfm_extra_turn_call=new_turn" in text
