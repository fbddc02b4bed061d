"""The real engines' own verdicts (conformance/<engine> in the folder PYENGINE_SHARED names, skipped where
absent): GEMP's on LOTR states, MarvelCDB's deck validation on Marvel decks, Vermihunter's engine's moves and
states in whole Duel games. Every question of every file is answered under the profile it names as the engine
answered it, but the known exceptions below: a verdict from a check outside the document, with the rule by which
the answer says what it left unchecked; a question the file itself tags as decided by an engine defect
(`# engine defect: NAME`); an engine defect found since, listed here with the engine's code. And with the profile
removed, the document's default answers differ from the engine's only where a reading the profile chooses flips
them, each answer naming that reading in `rested_on`. The Duel's files are whole games (146, about a minute): by
default a deterministic part runs (every 40th, and for the engine's verdicts each file with a listed defect),
all under PYENGINE_EXHAUSTIVE=1."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import pytest

from pyengine.core import kb as kbase
from pyengine.core.engine import Answer, answer
from pyengine.core.errors import InputError
from pyengine.core.scenario import Scenario, load_scenario
from pyengine.pytest_plugin import missing_catalog_reason
from tests.paths import CONFORMANCE, not_found


@dataclass(frozen=True)
class Oracle:
    """An engine's conformance folder: the game and profile its files are answered under, and the questions whose
    verdict comes from a check outside the document (file, question) -> the rule that must name it."""

    engine: str
    game: str
    profile: str
    outside: tuple[tuple[tuple[str, str], str], ...]
    # Engine defects found after the files were written: (file, questions) -> the defect, with the engine's class
    # and method. The files' own tags (`# engine defect: NAME`) are read from the files.
    defects: tuple[tuple[tuple[str, str], str], ...] = ()
    # Every `step`-th file by default (all under PYENGINE_EXHAUSTIVE=1), and each file with a listed defect.
    step: int = 1


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
# Vermihunter's engine (Vermihunter/lotr-duel-for-middle-earth at 4afbb7be): defects its files do not tag.
ELVES_ANY_SKILL = ("Elves' any-skill token not applied: GainAttributeRaceEffect.action stores BENEFIT_FROM_ANY_SKILL "
                   "(PlayerState.addRaceEffectAttribute) and nothing reads it; Game.addChapterCardMoves and "
                   "Game.addLandmarkTileMoves price by ExtendedSkillSet.missingSkills without it, against the data "
                   "(Races Elves[2]) and the engine's own description (GainAttributeRaceEffectSerializer)")
VERMIHUNTER_DEFECTS = (
    # The take the untagged coin the defect gave made affordable, and what follows it (the file tags the coins).
    ("vh_seed0002_s03_ch2.yaml", "q70 q75 q76 q123", "Ring bonus counted on the Fellowship's moves "
     "(QuestOfTheRingTrack.movePlayer), untagged on the take it paid for"),
    ("vh_seed0015_s03_ch2.yaml", "q32", ELVES_ANY_SKILL),
    ("vh_seed0020_s04_ch2.yaml", "q3 q12", ELVES_ANY_SKILL),
    ("vh_seed0033_s05_ch3.yaml", "q14 q22 q28 q33 q41 q46 q52 q57 q65 q70", ELVES_ANY_SKILL),
    ("vh_seed0054_s05_ch3.yaml", "q8 q14 q20 q27", ELVES_ANY_SKILL),
    ("vh_seed0052_s03_ch2.yaml", "q110", "chosen token's result ignored: RevealAllianceTokensAndChooseSomeAction."
     "action drops the kept token's ActionResult (ents.1's extra turn, taken by Grey Havens)"),
    # Not the engine's: the file names no region for the red card Barad-dur plays from the pile (its format had
    # no field for that choice); the answer names the choice missing (dfm_effect_choice_unnamed) and places nothing.
    ("vh_seed0051_s03_ch2.yaml", "q39", "file: no region named for the pile card's units"),
)
ORACLES.append(Oracle("vermihunter", "dfm", "vermihunter", (), tuple(
    ((name, question), defect) for name, questions, defect in VERMIHUNTER_DEFECTS for question in questions.split()),
    step=1 if os.environ.get("PYENGINE_EXHAUSTIVE") else 40))


def _cases(oracle: Oracle, listed: bool = True) -> list[Path]:
    """The oracle's files this run checks: every `step`-th, and (`listed`) each with a listed defect or outside
    check."""
    files = sorted((CONFORMANCE / oracle.engine).glob("*.yaml"))
    named = {name for (name, _), _ in oracle.outside + oracle.defects} if listed else set()
    return [p for n, p in enumerate(files) if n % oracle.step == 0 or p.name in named]


CASES = [(oracle, path) for oracle in ORACLES for path in _cases(oracle)]
# The default's departures are a property of every file alike: the listed ones need not be among them.
DEFAULT_CASES = [(oracle, path) for oracle in ORACLES for path in _cases(oracle, listed=False)]
# A question's tag in an oracle file: the comment on its line.
TAG = re.compile(r"#\s*engine defect:\s*(.+)$")


@cache
def _tagged(path: Path) -> frozenset[str]:
    """The ids (q1, q2, ... by place) of the questions the file tags as decided by an engine defect."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = lines.index("questions:") + 1
    items = [line for line in lines[start:] if line.startswith("  - ")]
    return frozenset(f"q{n}" for n, line in enumerate(items, 1) if TAG.search(line))


# Each case as a test, or one skipped test that says where the files were looked for.
ABSENT = [pytest.param(None, None, id="absent",
                       marks=pytest.mark.skip(reason=not_found("the engines' files", CONFORMANCE)))]
PARAMS = [pytest.param(o, p, id=f"{o.engine}/{p.name}") for o, p in CASES] or ABSENT
DEFAULT_PARAMS = [pytest.param(o, p, id=f"{o.engine}/{p.name}") for o, p in DEFAULT_CASES] or ABSENT


@cache
def _answers(path: Path) -> tuple[Scenario, list[Answer]]:
    """A conformance file and its answers as written (under the engine's profile), shared by the two tests of it
    (a module's tests run on one worker)."""
    try:
        scenario = load_scenario(path)
    except InputError as error:  # a file on a card pool not imported here
        reason = missing_catalog_reason(error)
        if reason is None:
            raise
        pytest.skip(reason)
    return scenario, answer(scenario)


def _flipped_answers(plain: Scenario, choices: tuple[tuple[str, str], ...]) -> list[Answer]:
    """A file's answers with some readings flipped from the default, once for each set of flips (a Duel file is a
    whole game: answered again for every question would take minutes)."""
    key = (plain.path, choices)
    if key not in _FLIPPED:
        _FLIPPED[key] = answer(plain, dict(choices))
    return _FLIPPED[key]


_FLIPPED: dict[tuple[object, tuple[tuple[str, str], ...]], list[Answer]] = {}


def _flipped(oracle: Oracle) -> dict[str, str]:
    """The reading choices the engine's profile makes that differ from the document's defaults."""
    kb = kbase.load(oracle.game)
    return {name: value for name, value in kb.profiles[oracle.profile].items() if kb.readings[name].default != value}


@pytest.mark.parametrize(("oracle", "path"), PARAMS)
def test_the_profile_gives_the_engines_own_verdict(oracle: Oracle, path: Path) -> None:
    scenario, answers = _answers(path)
    assert scenario.game.name == oracle.game
    assert all(q.readings for q in scenario.questions), "every question of a conformance file names the profile"
    outside, defects, tagged = dict(oracle.outside), dict(oracle.defects), _tagged(path)
    wrong = []
    for found in answers:
        q = found.question
        if (path.name, q.id) in outside:
            assert found.verdict != q.expect and outside[path.name, q.id] in found.rule_ids, (q.id, found.rule_ids)
        elif (path.name, q.id) in defects:  # a listed defect still decides it, or the list is stale
            assert found.verdict != q.expect, f"{q.id} now agrees with the engine: no longer {defects[path.name, q.id]}"
        elif found.verdict != q.expect and q.id not in tagged:
            wrong.append(f"{q.id}: {oracle.engine} {q.expect}, knowledge base {found.verdict} "
                         f"({', '.join(found.rule_ids)})")
    assert not wrong, wrong


@pytest.mark.parametrize(("oracle", "path"), DEFAULT_PARAMS)
def test_the_default_departs_from_the_engine_only_through_a_reading_the_profile_chooses(oracle: Oracle,
                                                                                        path: Path) -> None:
    scenario, answers = _answers(path)
    flipped = _flipped(oracle)
    defaults = {name: reading.default for name, reading in kbase.load(oracle.game).readings.items()}
    plain = replace(scenario, readings={}, questions=[replace(q, readings={}) for q in scenario.questions])
    outside = {**dict(oracle.outside), **dict(oracle.defects)}
    unexplained = []
    for under_profile, default in zip(answers, answer(plain), strict=True):
        q = under_profile.question
        if default.verdict == under_profile.verdict or (path.name, q.id) in outside:
            continue
        # The readings the profile flips that both answers name, each with the choice in force there: as the
        # answer's own, or (a game over moments) as one a step before the moment asked about rested on.
        named = {n for n, v in flipped.items()
                 if {**under_profile.rested_before, **under_profile.rested_on}.get(n) == v
                 and {**default.rested_before, **default.rested_on}.get(n) == defaults[n]}
        if not named:
            unexplained.append(f"{q.id}: default {default.verdict} rests on {default.rested_on} (before: "
                               f"{default.rested_before}), {oracle.profile} {under_profile.verdict} on "
                               f"{under_profile.rested_on} (before: {under_profile.rested_before})")
            continue
        # Flipping only those readings from the default gives the engine's verdict.
        [again] = [a for a in _flipped_answers(plain, tuple(sorted((n, flipped[n]) for n in named)))
                   if a.question.id == q.id]
        if again.verdict != under_profile.verdict:
            unexplained.append(f"{q.id}: flipping {sorted(named)} gives {again.verdict}, not {under_profile.verdict}")
    assert not unexplained, unexplained


def test_every_engine_folder_is_checked_where_it_exists() -> None:
    for oracle in ORACLES:
        folder = CONFORMANCE / oracle.engine
        if folder.is_dir():
            assert any(o is oracle for o, _ in CASES), oracle.engine
            assert all((folder / name).is_file() for (name, _), _ in oracle.outside + oracle.defects), oracle.engine
