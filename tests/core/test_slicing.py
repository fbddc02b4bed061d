"""The program slice (pyengine.core.slicing): the rules facts of given predicates can never apply are left out, and
nothing else, and so are the facts of predicates the slice never mentions; on every LOTR and Marvel scenario file,
the slice and the facts a question is answered with have the same stable model as the whole program and facts."""

from __future__ import annotations

import clingo
import pytest
from clingo import ast

from conftest import SCENARIO_FOLDERS
from pyengine.core.engine import add_statements, applicable_program, facts_used, program, units, used_predicates
from pyengine.core.errors import InputError
from pyengine.core.limits import bounded_solve
from pyengine.core.scenario import load_scenario, scenario_files
from pyengine.core.slicing import analyse, kept, mentioned, shapes_from_json, shapes_to_json


def _statements(text: str) -> tuple[ast.AST, ...]:
    found: list[ast.AST] = []
    ast.parse_string(text, found.append)
    return tuple(found)


def _kept(text: str, inputs: set[tuple[str, int]]) -> list[str]:
    statements = _statements(text)
    return [str(statements[i]) for i in kept(analyse(statements), frozenset(inputs))
            if statements[i].ast_type == ast.ASTType.Rule]


def test_a_rule_needing_a_predicate_no_fact_gives_nor_rule_derives_is_left_out() -> None:
    text = """
    % a comment the slice drops
    a(X) :- given(X).
    b(X) :- a(X), absent(X).
    c(X) :- b(X).
    d(X) :- given(X), not absent(X).
    e(X) :- given(X), #count { Y : absent(Y) } = 0.
    f(X) :- pooled(X;Y), given(Y).
    """
    kept = _kept(text, {("given", 1)})
    # b needs absent/1, which nothing gives; c needs b/1, which no rule that can apply derives.
    assert kept == ["a(X) :- given(X).", "d(X) :- given(X); not absent(X).",
                    "e(X) :- given(X); 0 = #count { Y: absent(Y) }.", "f(X) :- pooled(X;Y); given(Y)."]
    # Given absent/1 too, every rule can apply.
    assert len(_kept(text, {("given", 1), ("absent", 1)})) == 6


def test_what_an_external_or_a_choice_may_make_true_keeps_the_rules_over_it() -> None:
    text = """
    #external open(X) : given(X).
    { picked(X) } :- given(X).
    uses(X) :- open(X).
    takes(X) :- picked(X).
    fact_of_the_encoding(1).
    from_fact(X) :- fact_of_the_encoding(X).
    """
    assert len(_kept(text, {("given", 1)})) == 5
    assert _kept(text, set()) == ["uses(X) :- open(X).", "fact_of_the_encoding(1).",
                                  "from_fact(X) :- fact_of_the_encoding(X)."]


def test_the_predicates_a_program_mentions_are_those_of_its_rules_conditions_and_shows() -> None:
    text = """
    a(X) :- given(X), #count { Y : counted(Y) } > 0, not missing(X).
    b(X) : c(X) :- a(X).
    #show a/1.
    #show shown_only/2.
    """
    assert mentioned(analyse(_statements(text))) == {("a", 1), ("given", 1), ("counted", 1), ("missing", 1), ("b", 1),
                                            ("c", 1), ("shown_only", 2)}
    # Without a #show, clingo shows every atom: every fact then counts.
    assert mentioned(analyse(_statements("a(X) :- given(X)."))) is None


def _shown(statements: tuple[ast.AST, ...], facts: list[str]) -> list[str]:
    control = clingo.Control(["--warn=none"])
    add_statements(control, statements)
    control.add("base", [], "\n".join(facts))
    control.ground([("base", [])])
    satisfiable, shown = bounded_solve(control, "solving")
    assert satisfiable
    return sorted(map(str, shown))


@pytest.mark.parametrize("game", ["lotr", "marvel"])
def test_every_scenario_file_has_the_same_model_under_the_slice_as_under_the_whole_program(game: str) -> None:
    compared = left_out = 0
    for path in scenario_files(list(SCENARIO_FOLDERS)):
        try:
            scenario = load_scenario(path)
        except InputError:  # a scenario on a card database this machine lacks (conftest skips it too)
            continue
        if scenario.game.name != game:
            continue
        for unit in units(scenario, {}):
            whole = program(game, unit.kinds)
            inputs = frozenset((f.name, f.arity) for f in unit.facts)
            sliced = applicable_program(game, unit.kinds, inputs)
            used = facts_used(unit.facts, used_predicates(game, unit.kinds, inputs))
            assert _shown(sliced, used) == _shown(whole, unit.facts), (path, unit.kinds)
            compared += 1
            left_out += sum(s.ast_type == ast.ASTType.Rule for s in whole) - sum(
                s.ast_type == ast.ASTType.Rule for s in sliced)
    assert compared > 20
    assert left_out > 0  # the slice leaves rules out somewhere, so the comparison compares something


def test_a_programs_shapes_read_back_from_their_cache_file_are_those_worked_out(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """program_shapes keeps the shapes between processes (pyengine.core.diskcache); read back they equal those
    worked out from the encodings, and an edited cache file is worked around."""
    from pyengine.core import engine

    monkeypatch.setenv("PYENGINE_CACHE", str(tmp_path))
    kinds = frozenset({"play"})

    def fresh() -> tuple:
        engine.program_shapes.cache_clear()
        engine._file_shapes.cache_clear()
        return engine.program_shapes("lotr", kinds)

    worked_out = analyse(program("lotr", kinds))
    assert fresh() == worked_out
    assert shapes_from_json(shapes_to_json(worked_out)) == worked_out
    # One cache file per encoding file, whatever the question kinds.
    assert {p.name.rsplit("-", 1)[0] for p in tmp_path.glob("shapes-*.json")} == {
        f"shapes-clingo{clingo.__version__}-{p.parent.name}-{p.stem}" for p in engine.program_files("lotr", kinds)}
    assert fresh() == worked_out
    [kept_file] = tmp_path.glob("shapes-*-lotr-state-*.json")
    kept_file.write_text(kept_file.read_text(encoding="utf-8").replace('"rule"', '"comment"'), encoding="utf-8")
    assert fresh() == worked_out  # the signature no longer matches: worked out again
    engine.program_shapes.cache_clear()
    engine._file_shapes.cache_clear()
