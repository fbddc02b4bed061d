"""The real engines' own verdicts (conformance/<engine> in the folder PYENGINE_SHARED names, skipped where
absent): GEMP's on LOTR states, MarvelCDB's deck validation on Marvel decks. Every question of every file is
answered under the profile it names as the engine answered it, but the known exceptions below, each with the rule
by which the answer says what it left unchecked; and with the profile removed, the document's default answers
differ from the engine's only where a reading the profile chooses flips them, each answer naming that reading in
`rested_on`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import pytest

from pyengine.core import kb as kbase
from pyengine.core.engine import Answer, answer
from pyengine.core.scenario import Scenario, load_scenario
from tests.paths import CONFORMANCE, not_found


@dataclass(frozen=True)
class Oracle:
    """An engine's conformance folder: the game and profile its files are answered under, and the questions whose
    verdict comes from a check outside the document (file, question) -> the rule that must name it."""

    engine: str
    game: str
    profile: str
    outside: tuple[tuple[tuple[str, str], str], ...]


ORACLES = [
    # dead_pile_026 p6-x: GEMP refuses a non-unique Elven Warrior by its rule of nine (four active companions and
    # five in the dead pile); the file's control removed a dead companion, which made room for a ninth, so it
    # could not isolate uniqueness. The document has no rule of nine.
    Oracle("gemp", "lotr", "gemp", ((("dead_pile_026.yaml", "p6-x"), "lotr_rule_of_nine_unchecked"),)),
    # frostbite-x7: MarvelCDB's problem invalid_cards (Frostbite 46002 lies in a hero_special set, not the hero's
    # own): a deck-building check outside uniqueness, which the deck answer says it does not cover.
    Oracle("marvelcdb", "marvel", "marvelcdb",
           ((("mcdb2_deck_limit_odd.yaml", "frostbite-x7"), "marvel_deck_uniqueness_only"),)),
]
CASES = [(oracle, path) for oracle in ORACLES for path in sorted((CONFORMANCE / oracle.engine).glob("*.yaml"))]
# Each case as a test, or one skipped test that says where the files were looked for.
PARAMS = [pytest.param(o, p, id=f"{o.engine}/{p.name}") for o, p in CASES] or [
    pytest.param(None, None, id="absent", marks=pytest.mark.skip(reason=not_found("the engines' files", CONFORMANCE)))]


@cache
def _answers(path: Path) -> tuple[Scenario, list[Answer]]:
    """A conformance file and its answers as written (under the engine's profile), shared by the two tests of it
    (a module's tests run on one worker)."""
    scenario = load_scenario(path)
    return scenario, answer(scenario)


def _flipped(oracle: Oracle) -> dict[str, str]:
    """The reading choices the engine's profile makes that differ from the document's defaults."""
    kb = kbase.load(oracle.game)
    return {name: value for name, value in kb.profiles[oracle.profile].items() if kb.readings[name].default != value}


@pytest.mark.parametrize(("oracle", "path"), PARAMS)
def test_the_profile_gives_the_engines_own_verdict(oracle: Oracle, path: Path) -> None:
    scenario, answers = _answers(path)
    assert scenario.game.name == oracle.game
    assert all(q.readings for q in scenario.questions), "every question of a conformance file names the profile"
    outside = dict(oracle.outside)
    wrong = []
    for found in answers:
        q = found.question
        if (path.name, q.id) in outside:
            assert found.verdict != q.expect and outside[path.name, q.id] in found.rule_ids, (q.id, found.rule_ids)
        elif found.verdict != q.expect:
            wrong.append(f"{q.id}: {oracle.engine} {q.expect}, knowledge base {found.verdict} "
                         f"({', '.join(found.rule_ids)})")
    assert not wrong, wrong


@pytest.mark.parametrize(("oracle", "path"), PARAMS)
def test_the_default_departs_from_the_engine_only_through_a_reading_the_profile_chooses(oracle: Oracle,
                                                                                        path: Path) -> None:
    scenario, answers = _answers(path)
    flipped = _flipped(oracle)
    defaults = {name: reading.default for name, reading in kbase.load(oracle.game).readings.items()}
    plain = replace(scenario, readings={}, questions=[replace(q, readings={}) for q in scenario.questions])
    outside = dict(oracle.outside)
    unexplained = []
    for under_profile, default in zip(answers, answer(plain), strict=True):
        q = under_profile.question
        if default.verdict == under_profile.verdict or (path.name, q.id) in outside:
            continue
        # The readings the profile flips that both answers name, each with the choice in force there.
        named = {n for n, v in flipped.items()
                 if under_profile.rested_on.get(n) == v and default.rested_on.get(n) == defaults[n]}
        if not named:
            unexplained.append(f"{q.id}: default {default.verdict} rests on {default.rested_on}, "
                               f"{oracle.profile} {under_profile.verdict} on {under_profile.rested_on}")
            continue
        # Flipping only those readings from the default gives the engine's verdict.
        [again] = [a for a in answer(plain, {n: flipped[n] for n in named}) if a.question.id == q.id]
        if again.verdict != under_profile.verdict:
            unexplained.append(f"{q.id}: flipping {sorted(named)} gives {again.verdict}, not {under_profile.verdict}")
    assert not unexplained, unexplained


def test_every_engine_folder_is_checked_where_it_exists() -> None:
    for oracle in ORACLES:
        folder = CONFORMANCE / oracle.engine
        if folder.is_dir():
            assert any(o is oracle for o, _ in CASES), oracle.engine
            assert all((folder / name).is_file() for (name, _), _ in oracle.outside), oracle.engine
