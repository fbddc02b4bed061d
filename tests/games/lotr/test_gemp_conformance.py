"""The real GEMP engine's own verdicts (../shared/conformance/gemp, skipped where absent): every question of every
file answered under its `profile: gemp` as GEMP answered it, and, with the profile removed, the document's default
answers differing from GEMP's only where a reading the gemp profile chooses flips them, each answer naming that
reading in `rested_on`."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from conftest import ROOT
from pyengine.core import kb as kbase
from pyengine.core.engine import Answer, answer
from pyengine.core.scenario import Scenario, load_scenario

CONFORMANCE = ROOT.parent / "shared" / "conformance" / "gemp"
FILES = sorted(CONFORMANCE.glob("*.yaml")) if CONFORMANCE.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason=f"GEMP conformance files not found at {CONFORMANCE}")

# The questions where GEMP's verdict does not come from uniqueness, each with the rule that makes the knowledge
# base's answer say what it did not check. dead_pile_026 p6-x: GEMP refuses a non-unique Elven Warrior by its rule
# of nine (four active companions and five in the dead pile); the file's control removed a dead companion, which
# made room for a ninth, so it could not isolate uniqueness. The document has no rule of nine.
OUTSIDE_UNIQUENESS = {("dead_pile_026.yaml", "p6-x"): "lotr_rule_of_nine_unchecked"}


def _gemp_choices() -> dict[str, str]:
    """The reading choices the gemp profile makes that differ from the document's defaults."""
    kb = kbase.load("lotr")
    return {name: value for name, value in kb.profiles["gemp"].items() if kb.readings[name].default != value}


def _without_profile(scenario: Scenario) -> Scenario:
    """The scenario with every question's own reading choices (here, the gemp profile's) removed."""
    return replace(scenario, questions=[replace(q, readings={}) for q in scenario.questions])


@cache
def _answers(path: Path) -> tuple[Scenario, list[Answer]]:
    """A conformance file and its answers as written (under the gemp profile), shared by the two tests of it (a
    module's tests run on one worker)."""
    scenario = load_scenario(path)
    return scenario, answer(scenario)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_gemp_profile_gives_gemps_verdict(path: Path) -> None:
    scenario, answers = _answers(path)
    assert all(q.readings for q in scenario.questions), "every question of a conformance file names the profile"
    wrong = []
    for found in answers:
        q = found.question
        outside = OUTSIDE_UNIQUENESS.get((path.name, q.id))
        if outside is not None:
            assert outside in found.rule_ids, (q.id, found.rule_ids)
        elif found.verdict != q.expect:
            wrong.append(f"{q.id}: GEMP {q.expect}, knowledge base {found.verdict} ({', '.join(found.rule_ids)})")
    assert not wrong, wrong


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_default_departs_from_gemp_only_through_a_reading_the_profile_chooses(path: Path) -> None:
    scenario, answers = _answers(path)
    gemp = _gemp_choices()
    defaults = {name: reading.default for name, reading in kbase.load("lotr").readings.items()}
    plain = _without_profile(scenario)
    unexplained = []
    for under_gemp, default in zip(answers, answer(plain), strict=True):
        q = under_gemp.question
        if default.verdict == under_gemp.verdict or (path.name, q.id) in OUTSIDE_UNIQUENESS:
            continue
        # The readings the profile flips that both answers name, each with the choice in force there.
        named = {n for n, v in gemp.items()
                 if under_gemp.rested_on.get(n) == v and default.rested_on.get(n) == defaults[n]}
        if not named:
            unexplained.append(f"{q.id}: default {default.verdict} rests on {default.rested_on}, "
                               f"gemp {under_gemp.verdict} on {under_gemp.rested_on}")
            continue
        # Flipping only those readings from the default gives GEMP's verdict.
        [flipped] = [a for a in answer(plain, {n: gemp[n] for n in named}) if a.question.id == q.id]
        if flipped.verdict != under_gemp.verdict:
            unexplained.append(f"{q.id}: flipping {sorted(named)} gives {flipped.verdict}, not {under_gemp.verdict}")
    assert not unexplained, unexplained
