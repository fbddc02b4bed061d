"""The static encodings rewritten over moments (pyengine.core.moments) answer at moment 0 as the static encodings do:
every third LOTR and Marvel scenario file of the repository (every one with PYENGINE_EXHAUSTIVE=1), and a sample of
the shared GEMP conformance files, give the same shown atoms both ways; no encoding uses the moment's name as a
constant, and every fluent is an input."""

from __future__ import annotations

import os
from pathlib import Path

import clingo
import pytest
from clingo import ast

from pyengine.core import engine, moments, stepwise
from pyengine.core.asp import fact
from pyengine.core.scenario import load_scenario
from pyengine.games import game as one_game
from tests.paths import CONFORMANCE, not_found

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
GAMES = ("lotr", "marvel")
# With PYENGINE_EXHAUSTIVE=1 every file below; else every third repository file and every 60th GEMP state (the
# suite's time: each comparison grounds a file twice; every sequence file answers over moments besides, and its
# snapshots as one state, tests/games/test_card_snapshots.py).
EVERY = 1 if os.environ.get("PYENGINE_EXHAUSTIVE") == "1" else 3
# The files of one state (a file with actions, or asking a value, is answered over moments from the start:
# tests/games/lotr/test_steps.py).
FILES = sorted(p for p in SCENARIOS.rglob("*.yaml")
               if any(part.startswith(GAMES) for part in p.relative_to(SCENARIOS).parts[:-1])
               and not any(w in p.read_text(encoding="utf-8") for w in ("\nactions:", "ask: value")))[::EVERY]
# The GEMP oracle's states (those of round 2 and 3 among them).
GEMP = sorted((CONFORMANCE / "gemp").rglob("*.yaml"))[::20 * EVERY] if (CONFORMANCE / "gemp").is_dir() else []


def _shown_at_zero(path: Path) -> list[tuple[set[str], set[str]]]:
    """For each unit of a scenario: the shown atoms of the static program, and those of the rewritten program
    grounded over moments with no step and every question asked at moment 0."""
    scenario = load_scenario(path)
    found = []
    for unit in engine.units(scenario, {}):
        name = scenario.game.name
        static = {str(s) for s in engine.solve(name, unit.facts, unit.kinds)}
        fixed, by_part = moments.rewritten_program(name, unit.kinds)
        control = clingo.Control(["--warn=none"])
        engine.add_statements(control, fixed)
        at_zero = [fact("last_step", 0), *(fact("q_at", q.id, 0) for q in unit.questions)]
        control.add("base", [], "\n".join([*unit.facts, *at_zero]))
        stepwise.ground(control, lambda names, c=control, p=by_part: engine.add_statements(
            c, (s for n in names for s in p.get(n, []))))
        shown: set[str] = set()
        control.solve(on_model=lambda m, s=shown: s.update(str(x) for x in m.symbols(shown=True)))
        found.append((static, shown))
    return found


def test_the_repository_has_files_of_both_games() -> None:
    assert any("lotr" in str(p) for p in FILES) and any("marvel" in str(p) for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SCENARIOS)))
def test_moment_zero_answers_as_the_static_program(path: Path) -> None:
    for static, shown in _shown_at_zero(path):
        assert static, "the static program shows nothing: the comparison would prove nothing"
        assert shown == static


@pytest.mark.parametrize("path", GEMP, ids=lambda p: p.name)
def test_moment_zero_answers_as_the_static_program_on_gemp_states(path: Path) -> None:
    for static, shown in _shown_at_zero(path):
        assert shown == static


def test_the_gemp_sample_is_there() -> None:
    if not GEMP:
        pytest.skip(not_found("the GEMP conformance files", CONFORMANCE / "gemp"))
    assert len(GEMP) >= 12


class _Constants(ast.Transformer):
    """Collects the constants (functions without arguments) below a node."""

    def __init__(self) -> None:
        self.found: set[str] = set()

    def visit_Function(self, node: ast.AST) -> ast.AST:
        if not node.arguments:
            self.found.add(node.name)
        node.arguments = [self(a) for a in node.arguments]
        return node

    def visit_SymbolicTerm(self, node: ast.AST) -> ast.AST:
        symbol = node.symbol
        if symbol.type == clingo.SymbolType.Function and not symbol.arguments:
            self.found.add(symbol.name)
        return node


@pytest.mark.parametrize("name", GAMES)
def test_no_encoding_uses_the_moment_as_a_constant(name: str) -> None:
    module = one_game(name)
    constants = _Constants()
    for statement in engine.program(name, frozenset(module.kind_files)):
        constants(statement)
    assert constants.found, "no constant found: the search would prove nothing"
    assert moments.MOMENT not in constants.found


@pytest.mark.parametrize("name", GAMES)
def test_every_fluent_is_an_input_predicate(name: str) -> None:
    module = one_game(name)
    assert module.fluents
    assert {f for f, _ in module.fluents} <= module.input_predicates


def test_a_rule_deriving_an_input_from_a_fluent_is_refused() -> None:
    statements: list[ast.AST] = []
    ast.parse_string("card(X) :- in_zone(X, play).", statements.append)
    with pytest.raises(ValueError, match="input predicates"):
        moments.rewrite(statements, frozenset({("in_zone", 2)}), {"card", "in_zone"}, set(), {}, [])


def test_a_rule_reading_only_the_moment_part_goes_there_and_one_reading_an_asked_part_does_not(
        tmp_path: Path) -> None:
    path = tmp_path / "rules.lp"
    path.write_text("in_play(I) :- in_zone(I, play). seen(Q, I) :- q_x(Q, I), in_play(I). late(I) :- seen(_Q, I).")
    statements: list[ast.AST] = []
    ast.parse_files([str(path)], statements.append)
    fixed, by_part = moments.rewrite(statements, frozenset({("in_zone", 2)}), {"in_zone", "q_x"}, {str(path)}, {},
                                     [])
    moment = [str(s) for s in fixed]
    assert "in_play(I,t) :- in_zone(I,play,t)." in moment
    assert not any(s.startswith(("seen", "late")) for s in moment)
    assert "late(I,t) :- seen(_Q,I,t)." in [str(s) for s in by_part["ask_rules"]]
