"""Every answer lists every reading that decided it: over every scenario file of the repository (tests, examples,
the imported pools where the session has them) and every choice of every reading, when answering a question
under another choice changes its verdict (or, for `plays` and `outcomes`, its legal and illegal sets), the reading
is listed with the choice in force in the answers under both choices: in `rested_on`, or for the Duel, where a
step before the moment asked may have rested on it, in `rested_on_before`. And nothing is listed that did not take
part: a reading in `rested_on` has another choice under which the verdict or the rules giving it differ.

For the card games the answers under every side come from one Table (the scenario grounded once, every reading
choice left open), and a side's answers equal the one-scenario path's under the same choice: verdict, rule ids,
reasons with their evidence, the readings rested on and in force, and every play. The suite compares, for every
file, the answers without overrides and under every choice of each reading the file names, its answers rest on
(before the moment asked too) or differ under; `PYENGINE_EXHAUSTIVE=1` compares every choice of every reading.
Sides that leave every question the same readings in force are one answer of the one-scenario path (it depends on
the scenario and those readings alone), answered once.

The suite answers every file of the card games and of every folder but tests/scenarios/dfm, whose Duel files it
samples (every DFM_SAMPLE-th, in order), and of the GEMP oracle's sequences every GEMP_SEQ_SAMPLE-th (conftest's
`thinned`): the Duel's checked-in search states (tests/scenarios/generated/dfm) are one
for each of its readings, where that reading's choices disagree, so every reading of every game is answered
where it decides. `PYENGINE_EXHAUSTIVE=1` answers every file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import ROOT, SCENARIO_FOLDERS, missing_data_reason, thinned
from pyengine.core import kb as kbase
from pyengine.core.engine import Answer, answer, answer_sides, effective_readings
from pyengine.core.errors import InputError
from pyengine.core.scenario import Scenario, load_scenario, scenario_files

# Whether every file is answered, and by the one-scenario path under every choice of every reading.
EXHAUSTIVE = os.environ.get("PYENGINE_EXHAUSTIVE") == "1"
# The suite answers every so many of the Duel's hand-written files (its Table grounds every moment of a file once
# for each set of choices, 0.1 to 0.5 s a file).
DFM_SAMPLE = 4
DFM_FOLDER = ROOT / "tests" / "scenarios" / "dfm"
EVERY_FILE = [p for p in scenario_files(list(SCENARIO_FOLDERS)) if "bad_input" not in p.parts]
FILES = EVERY_FILE if EXHAUSTIVE else thinned([p for p in EVERY_FILE if p.parent != DFM_FOLDER]) + [
    p for p in EVERY_FILE if p.parent == DFM_FOLDER][::DFM_SAMPLE]


def _said(found: Answer) -> tuple[object, ...]:
    """Everything an answer says but the readings in force: verdict, reasons and their evidence, readings rested
    on, assumptions, and each play with the same."""
    plays = None if found.plays is None else [(p.id, p.verdict, [(r.rule, str(r.evidence)) for r in p.reasons],
                                               p.rested_on, p.assumptions, p.activity) for p in found.plays]
    return (found.question.id, found.verdict, [(r.rule, str(r.evidence)) for r in found.reasons], found.rested_on,
            found.assumptions, found.activity, plays)


def _whole(found: Answer) -> tuple[object, ...]:
    """Everything an answer says, the readings in force with the rest."""
    return (*_said(found), found.readings)


def _outcome(answer: Answer) -> object:
    """What a reading may change: the verdict, or a listing's legal and illegal sets."""
    return answer.play_sets() if answer.plays is not None else answer.verdict


def _touched(scenario: Scenario, answered: dict[tuple[str, str], list[Answer]]) -> set[str]:
    """The readings a file touches: those it names itself, those some answer (or play) rests on, before the moment
    asked too, and those under whose choices some answer says anything else than the readings in force."""
    named = {*scenario.readings, *(n for q in scenario.questions for n in q.readings)}
    rested = {n for answers in answered.values() for a in answers
              for found in [a, *(a.plays or [])] for n in [*found.rested_on, *found.rested_before]}
    said: dict[str, set[str]] = {}
    for (name, _), answers in answered.items():
        said.setdefault(name, set()).add(repr([_said(a) for a in answers]))
    return named | rested | {name for name, versions in said.items() if len(versions) > 1}


def _compare_with_one_path(scenario: Scenario, sides: list[tuple[dict[str, str], list[Answer]]]) -> None:
    """Each side's answers from the Table equal the one-scenario path's under the same overrides (answered once for
    every set of readings in force)."""
    one_path: dict[tuple[object, ...], list[object]] = {}
    for side, answers in sides:
        key = tuple(tuple(sorted(effective_readings(scenario, q, side).items())) for q in scenario.questions)
        if key not in one_path:
            one_path[key] = [_whole(a) for a in answer(scenario, side)]
        assert [_whole(a) for a in answers] == one_path[key], side


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_a_reading_whose_other_choice_changes_the_verdict_is_listed_under_both(path: Path) -> None:
    try:
        scenario = load_scenario(path)
    except InputError as error:
        reason = missing_data_reason(error)
        if reason is None:
            raise
        pytest.skip(reason)
    readings = kbase.load(scenario.game.name).readings
    sides = [{name: choice} for name, reading in sorted(readings.items()) for choice in reading.choices]
    if scenario.game.timeline:
        together = answer_sides(scenario, sides)
    else:  # with the file's own readings, no override, last
        *together, own = answer_sides(scenario, [*sides, {}])
    answered = dict(zip(((n, c) for side in sides for n, c in side.items()), together, strict=True))
    if not scenario.game.timeline:
        touched = set(readings) if EXHAUSTIVE else _touched(scenario, answered)
        compared = [(side, answers) for side, answers in zip(sides, together, strict=True) if touched & side.keys()]
        _compare_with_one_path(scenario, [({}, own), *compared])
    unlisted, idle = [], []
    for index, question in enumerate(scenario.questions):
        for name, reading in readings.items():
            under = {choice: answered[name, choice][index] for choice in reading.choices}
            # A reading listed in `rested_on` took part: under some other choice the verdict or its rules differ.
            if len({repr((_outcome(a), a.rule_ids)) for a in under.values()}) < 2:
                idle += [f"{question.id}: {name}={c}" for c, a in under.items() if a.rested_on.get(name) == c]
            if len({repr(_outcome(a)) for a in under.values()}) < 2:
                continue
            for choice, found in under.items():
                if {**found.rested_on, **found.rested_before}.get(name) != choice:
                    unlisted.append(f"{question.id}: {name}={choice}")
    assert not unlisted, unlisted
    assert not idle, f"listed though no choice changes the verdict or its rules: {idle}"
