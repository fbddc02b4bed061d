"""The batch path (pyengine.core.batch: many scenarios grounded in one Control, every atom keyed by its unit) gives the
same answers as the one-scenario path (pyengine.core.engine.answer) on every scenario file, down to each play's rules,
the readings each answer rested on and the Duel's assumptions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import clingo
import pytest
from clingo import ast

from conftest import SCENARIO_FOLDERS, thinned
from pyengine import api
from pyengine.core import batch
from pyengine.core.answering import overrides
from pyengine.core.engine import Answer, answer
from pyengine.core.errors import InputError
from pyengine.core.scenario import Scenario, load_scenario, scenario_files
from pyengine.core.slicing import analyse
from pyengine.run.bulk import BATCH_FILES


def _scenarios(game: str) -> list[Scenario]:
    """The scenario files of a game (the GEMP oracle's sequences sampled: conftest's `thinned`; a file with actions
    is answered by the one-scenario path in a batch too, so the batch's own keying is what most files test)."""
    found = []
    for path in thinned(scenario_files(list(SCENARIO_FOLDERS))):
        try:
            scenario = load_scenario(path)
        except InputError:  # a scenario on a card database this machine lacks (conftest skips it too)
            continue
        if scenario.game.name == game:
            found.append(scenario)
    return found


def _summary(answers: list[Answer]) -> list[tuple[Any, ...]]:
    return [(a.question.id, a.verdict, a.rule_ids, a.rested_on, a.readings, a.assumptions, a.failures(),
             [(p.id, p.verdict, p.rule_ids, p.rested_on, p.assumptions) for p in a.plays or []],
             [(r.rule, str(r.evidence)) for r in a.reasons])
            for a in answers]


@pytest.mark.parametrize("game", ["lotr", "marvel"])
def test_a_batch_of_every_scenario_file_answers_as_each_alone(game: str) -> None:
    scenarios = _scenarios(game)
    assert len(scenarios) >= 20
    together = batch.answer_many([(s, {}) for s in scenarios])
    for scenario, answers in zip(scenarios, together, strict=True):
        assert not isinstance(answers, Exception), (scenario.path, answers)
        assert _summary(answers) == _summary(answer(scenario)), scenario.path


def test_a_duel_file_in_a_batch_is_answered_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game over moments is never keyed into a batch: each of its files in a batch is answered by the
    one-scenario path (engine.answer, grounded a moment at a time), once, with its own overrides; the card
    games' files beside it are still batched."""
    duel = _scenarios("dfm")[:3]
    cards = _scenarios("lotr")[:3]
    asked: list[tuple[str, dict[str, str]]] = []
    real = batch.answer

    def alone(scenario: Any, overrides: dict[str, str] | None = None) -> list[Answer]:
        asked.append((scenario.path, dict(overrides or {})))
        return real(scenario, overrides)

    monkeypatch.setattr(batch, "answer", alone)
    chosen = {"dfm_partial_effect": "refused"}
    together = batch.answer_many([*((s, chosen) for s in duel), *((s, {}) for s in cards)])
    assert asked == [(s.path, chosen) for s in duel]
    for scenario, answers in zip([*duel, *cards], together, strict=True):
        assert not isinstance(answers, Exception), (scenario.path, answers)
        overrides = chosen if scenario.game.timeline else {}
        assert _summary(answers) == _summary(answer(scenario, overrides)), scenario.path


@pytest.mark.parametrize("game, profile", [("lotr", "gemp"), ("marvel", "marvelcdb")])
def test_a_batch_under_a_profile_answers_as_each_alone(game: str, profile: str) -> None:
    chosen = overrides(game, None, profile)
    assert chosen
    scenarios = _scenarios(game)
    together = batch.answer_many([(s, chosen) for s in scenarios])
    for scenario, answers in zip(scenarios, together, strict=True):
        assert not isinstance(answers, Exception), (scenario.path, answers)
        assert _summary(answers) == _summary(answer(scenario, chosen)), scenario.path


def test_scenarios_of_every_game_share_one_call() -> None:
    mixed = [s for game in ("dfm", "lotr", "marvel") for s in _scenarios(game)[:5]]
    together = batch.answer_many([(s, {}) for s in mixed])
    assert [_summary(a) for a in together] == [_summary(answer(s)) for s in mixed]  # type: ignore[arg-type]


def test_a_batch_without_a_model_is_answered_a_unit_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    scenarios = _scenarios("lotr")[:6]

    def failing(_: batch.Batch) -> list[list[clingo.Symbol]]:
        raise batch.BatchFailed

    monkeypatch.setattr(batch, "solve_batch", failing)
    together = batch.answer_many([(s, {}) for s in scenarios])
    assert [_summary(a) for a in together] == [_summary(answer(s)) for s in scenarios]  # type: ignore[arg-type]


def test_a_defect_in_one_scenario_leaves_the_others_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    scenarios = _scenarios("lotr")[:4]
    real = batch.read_answers

    def broken(unit: Any, symbols: list[clingo.Symbol]) -> dict[str, Answer]:
        if unit.scenario is scenarios[1]:
            raise RuntimeError("a defect")
        return real(unit, symbols)

    monkeypatch.setattr(batch, "read_answers", broken)
    together = batch.answer_many([(s, {}) for s in scenarios])
    assert isinstance(together[1], RuntimeError)
    for index in (0, 2, 3):
        assert _summary(together[index]) == _summary(answer(scenarios[index]))  # type: ignore[arg-type]


def _program(text: str) -> tuple[ast.AST, ...]:
    statements: list[ast.AST] = []
    ast.parse_string(text, statements.append)
    return tuple(statements)


def test_keying_follows_what_rules_derive_from_the_inputs() -> None:
    program = _program("""
        static(1). static(2).
        doubled(X, Y) :- static(X), Y = 2 * X.
        held(C) :- in_hand(C), static(C).
        missing(C) :- static(C), not held(C).
        counted(N) :- N = #count { C : held(C) }.
        #show missing/1.
    """)
    keyed = batch.keyed_signatures(list(analyse(program)), frozenset({("in_hand", 1)}))
    assert keyed == {("in_hand", 1), ("held", 1), ("missing", 1), ("counted", 1)}
    rewritten = [str(s) for s in (batch._key_statement(s, keyed) for s in program)]
    assert "doubled(X,Y) :- static(X); Y = (2*X)." in rewritten  # the static part is grounded once
    assert f"held({batch.UNIT_VARIABLE},C) :- in_hand({batch.UNIT_VARIABLE},C); static(C)." in rewritten
    # A unit bound only under `not`, or inside an aggregate, ranges over the units.
    assert any(r.startswith(f"missing({batch.UNIT_VARIABLE},C) :- static(C); not held(") and
               r.endswith(f"{batch.UNIT_PREDICATE}({batch.UNIT_VARIABLE}).") for r in rewritten)
    assert any(r.startswith(f"counted({batch.UNIT_VARIABLE},N)") and batch.UNIT_PREDICATE in r for r in rewritten)
    assert "#show missing/2." in rewritten


def test_a_statements_keyed_form_is_kept_by_the_keyed_predicates_it_names() -> None:
    """keyed_program keeps each statement's keyed form by the keyed predicates the statement names, so that two
    sets of inputs share what they key alike; every form equals the statement keyed by the whole keyed set."""
    from pyengine.core.engine import kept_statements, program, program_shapes, units

    unit = units(_scenarios("lotr")[0], {})[0]
    inputs = frozenset((f.name, f.arity) for f in unit.facts)
    kinds = frozenset({"play"})
    assert ("current_site", 1) not in inputs
    one = batch.keyed_program("lotr", kinds, inputs)
    other = batch.keyed_program("lotr", kinds, inputs | {("current_site", 1)})
    assert one != other and len(set(map(id, one)) & set(map(id, other))) > len(one) // 2
    statements, shapes = program("lotr", kinds), program_shapes("lotr", kinds)
    kept = [i for i in kept_statements("lotr", kinds, inputs) if shapes[i].kind != "external"]
    keyed = batch.keyed_signatures([shapes[i] for i in kept], inputs)
    assert [str(s) for s in one] == [str(batch._key_statement(statements[i], keyed)) for i in kept]


def test_two_scenarios_in_one_batch_do_not_see_each_other() -> None:
    """Alice's second Sting is illegal only where her first one is in play: the other unit's Sting in play must
    not leak into a state without it."""
    def table(in_play: bool) -> Scenario:
        alice = {"hand": ["Sting"], **({"play": ["Sting"]} if in_play else {})}
        return api.load({"game": "lotr", "players": {"alice": alice},
                         "questions": [{"id": "q", "ask": "play", "instance": "alice.hand.1"}]})

    blocked, free = batch.answer_many([(table(True), {}), (table(False), {})])
    assert [a.verdict for a in blocked] == ["illegal"]  # type: ignore[union-attr]
    assert [a.verdict for a in free] == ["legal"]  # type: ignore[union-attr]


def test_check_answers_a_folder_in_batches_as_one_file_at_a_time(tmp_path: Path) -> None:
    folder = Path(SCENARIO_FOLDERS[0], "lotr")
    files = scenario_files([folder])
    assert len(files) > BATCH_FILES // 4
    together = api.check([folder], jobs=2).to_dict()
    alone = [api.answer(load_scenario(f)).to_dict() for f in files]
    assert together["scenarios"] == alone


@pytest.mark.parametrize("game", ["lotr", "marvel", "dfm"])
def test_the_encodings_run_with_plain_clingo_on_one_scenarios_facts(game: str, tmp_path: Path) -> None:
    """README: `pyengine facts FILE > facts.lp`, then clingo on the game's entry file (rules/<game>/main.lp) and
    that file, gives each question's verdict (the encodings need no rewriting), for a scenario whose questions
    share their readings and timeline (one unit: pyengine.core.engine.units). The Duel's encodings run over
    moments: clingo's own command line with Python scripts enabled (`python -m pyengine.core.stepwise`) runs
    their driver, which is the Duel's entry file."""
    from pyengine.core.engine import units
    from pyengine.core.resources import rules_dir
    from pyengine.games import game as one_game

    module = one_game(game)
    files = [Path(rules_dir(), game, "main.lp")]
    single = [s for s in _scenarios(game) if len(units(s, {})) == 1]
    assert len(single) >= 8
    for scenario in single[:8]:
        facts = api.facts(scenario).facts
        if module.timeline:
            Path(tmp_path, "facts.lp").write_text("\n".join(facts), encoding="utf-8")
            run = subprocess.run([sys.executable, "-m", "pyengine.core.stepwise", "--warn=none", "--outf=2",
                                  *map(str, files), str(Path(tmp_path, "facts.lp"))], capture_output=True, text=True,
                                 timeout=60)
            [witness] = json.loads(run.stdout)["Call"][0]["Witnesses"]
            shown = [clingo.parse_term(atom) for atom in witness["Value"]]
        else:
            control = clingo.Control(["--warn=none"])
            for path in files:
                control.load(str(path))
            control.add("base", [], "\n".join(facts))
            control.ground([("base", [])])
            with control.solve(yield_=True) as models:
                shown = next(iter(models)).symbols(shown=True)
        verdicts = {s.arguments[0].string: str(s.arguments[1]) for s in shown
                    if s.name == "verdict" and s.arguments[0].type == clingo.SymbolType.String}
        assert verdicts == {a.question.id: a.verdict for a in answer(scenario) if a.verdict is not None}, \
            scenario.path


def test_a_duel_file_is_a_bounded_unit_of_its_own_and_the_card_games_files_share_batches(tmp_path: Path) -> None:
    """A file of a game over moments is answered on its own timeline whatever its batch, so check gives it a unit of
    work (and the whole --timeout) of its own, in input order between the batches of the others; a file whose
    `game:` line cannot be read is batched as any other (the worker reads it whole)."""
    from pyengine.run.bulk import _chunks

    lotr = sorted(Path(SCENARIO_FOLDERS[0], "lotr").glob("*.yaml"))[:3]
    dfm = sorted(Path(SCENARIO_FOLDERS[0], "dfm").glob("*.yaml"))[:2]
    unreadable = tmp_path / "gone.yaml"
    jobs = [(str(p), None, None, None) for p in [lotr[0], dfm[0], lotr[1], lotr[2], dfm[1], unreadable]]
    chunks = _chunks(jobs, 32)
    assert [[Path(j[0]).name for j in c] for c in chunks] == [
        [lotr[0].name], [dfm[0].name], [lotr[1].name, lotr[2].name], [dfm[1].name], ["gone.yaml"]]
    assert [len(c) for c in _chunks(jobs[:1] + jobs[2:4], 2)] == [2, 1]
