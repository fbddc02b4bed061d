"""Every answer lists every reading that decided it: over every scenario file of the repository (tests, examples,
the imported pools where the session has them) and every choice of every reading, when answering a question
under another choice changes its verdict (or, for `plays` and `outcomes`, its legal and illegal sets), the reading
is listed with the choice in force in the answers under both choices: in `rested_on`, or for the Duel, where a
step before the moment asked may have rested on it, in `rested_on_before`. And nothing is listed that did not take
part: a reading in `rested_on` has another choice under which the verdict or the rules giving it differ.

For the card games the answers under every side come from one Table (the scenario grounded once, every reading
choice left open), and each side's answers equal the one-scenario path's under the same choice: verdict, rule
ids, reasons with their evidence, the readings rested on and in force, and every play."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT, SCENARIO_FOLDERS, missing_data_reason
from pyengine.core import kb as kbase
from pyengine.core.engine import Answer, answer, answer_sides
from pyengine.core.errors import InputError
from pyengine.core.scenario import load_scenario, scenario_files

FILES = [p for p in scenario_files(list(SCENARIO_FOLDERS)) if "bad_input" not in p.parts]


def _whole(found: Answer) -> object:
    """Everything an answer says: verdict, reasons and their evidence, readings rested on and in force,
    assumptions, and each play with the same."""
    plays = None if found.plays is None else [(p.id, p.verdict, [(r.rule, str(r.evidence)) for r in p.reasons],
                                               p.rested_on, p.assumptions, p.activity) for p in found.plays]
    return (found.question.id, found.verdict, [(r.rule, str(r.evidence)) for r in found.reasons], found.rested_on,
            found.readings, found.assumptions, found.activity, plays)


def _outcome(answer: Answer) -> object:
    """What a reading may change: the verdict, or a listing's legal and illegal sets."""
    return answer.play_sets() if answer.plays is not None else answer.verdict


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
    together = answer_sides(scenario, sides)
    if not scenario.game.timeline:
        for side, answers in zip(sides, together, strict=True):
            assert [_whole(a) for a in answers] == [_whole(a) for a in answer(scenario, side)], side
    answered = dict(zip(((n, c) for side in sides for n, c in side.items()), together, strict=True))
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
