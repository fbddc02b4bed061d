"""Many scenarios in one Control: the grounder's fixed cost for every rule is paid once per batch instead of once
per scenario. The encodings are written for one scenario (and stay runnable so with plain clingo); a batch
rewrites them, once per process, so that every atom whose truth can differ between scenarios carries the
number of its unit (pyengine.core.engine.Unit, one group of a scenario's questions) as a new first argument.

Which predicates are keyed: those of the units' facts (state, questions, named cards, reading choices) and, to
a fixpoint, every predicate a rule derives from a keyed atom; the game's own ground facts and what follows from
them alone are grounded once. A keyed rule whose body binds its unit nowhere (only unkeyed atoms, or keyed atoms
under `not` or inside an aggregate) gets `pyengine_unit(U)` to range over the units. Cards' facts are keyed
too, though a card's facts are the same in every state: shared once per batch, the rules that derive a card's
abilities under the unit's readings ranged over every card of the batch for every unit, and a batch of 32
scenarios took 40 times longer than alone (benchmarks/README.md). No verdict is decided here; the test suite
compares every scenario file's answers by both paths.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

import clingo
from clingo import ast

from pyengine.core.asp import fact
from pyengine.core.engine import (
    Answer,
    Unit,
    add_statements,
    answer,
    facts_used,
    kept_statements,
    program,
    program_shapes,
    read_answers,
    solve,
    units,
    used_predicates,
)
from pyengine.core.limits import bounded_solve
from pyengine.core.scenario import Scenario
from pyengine.core.slicing import Shape, Signature, atoms_below, functions, signatures

# The variable and the predicate the rewritten rules carry a unit in (no encoding uses either name).
UNIT_VARIABLE = "PYENGINE_UNIT"
UNIT_PREDICATE = "pyengine_unit"
# A batch holds at most this many facts, so that one batch's Control stays small whatever the inputs.
MAX_BATCH_FACTS = 60_000


def keyed_signatures(shapes: list[Shape], inputs: frozenset[Signature]) -> frozenset[Signature]:
    """The predicates whose atoms differ between units: the keyed inputs and what rules derive from them (read from
    the statements' shapes, pyengine.core.slicing)."""
    rules = [(shape.defines, shape.mentions) for shape in shapes if shape.kind == "rule"]
    keyed = set(inputs)
    changed = True
    while changed:
        changed = False
        for heads, mentioned in rules:
            if mentioned & keyed and not heads <= keyed:
                keyed |= heads
                changed = True
    return frozenset(keyed)


class _Key(ast.Transformer):
    """Gives every keyed atom the unit variable as its first argument."""

    def __init__(self, keyed: frozenset[Signature]):
        self.keyed = keyed

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:
        if not signatures(node) & self.keyed:
            return node
        unit = ast.Variable(node.symbol.location, UNIT_VARIABLE)
        keyed = [f.update(arguments=[unit, *f.arguments]) for f in functions(node)]
        if node.symbol.ast_type == ast.ASTType.Pool:
            return node.update(symbol=node.symbol.update(arguments=keyed))
        return node.update(symbol=keyed[0])


def _binds_unit(body: list[ast.AST], keyed: frozenset[Signature]) -> bool:
    """Whether a positive keyed literal of the body itself (not under `not`, an aggregate or a condition) binds
    the unit variable."""
    return any(b.ast_type == ast.ASTType.Literal and b.sign == ast.Sign.NoSign
               and b.atom.ast_type == ast.ASTType.SymbolicAtom and signatures(b.atom) & keyed for b in body)


def _key_statement(statement: ast.AST, keyed: frozenset[Signature]) -> ast.AST:
    kind = statement.ast_type
    if kind in (ast.ASTType.ShowSignature, ast.ASTType.Defined):
        if (statement.name, statement.arity) in keyed:
            return statement.update(arity=statement.arity + 1)
        return statement
    if kind in (ast.ASTType.Program, ast.ASTType.Definition, ast.ASTType.Comment):
        return statement
    if kind != ast.ASTType.Rule:
        raise ValueError(f"a batch cannot key the statement {statement}")
    if not atoms_below([statement]) & keyed:
        return statement
    rewritten = _Key(keyed)(statement)
    if not _binds_unit(statement.body, keyed):
        location = statement.location
        domain = ast.Function(location, UNIT_PREDICATE, [ast.Variable(location, UNIT_VARIABLE)], 0)
        literal = ast.Literal(location, ast.Sign.NoSign, ast.SymbolicAtom(domain))
        rewritten = rewritten.update(body=[*rewritten.body, literal])
    return rewritten


@cache
def keyed_program(game: str, kinds: frozenset[str], inputs: frozenset[Signature]) -> tuple[ast.AST, ...]:
    """The encodings for these question kinds with every atom that can differ between units keyed by its unit
    (worked out once per process for each set of input predicates; each statement's keyed form is kept by the
    keyed predicates it mentions, so that sets of inputs differing in a few predicates share the rest)."""
    statements, shapes = program(game, kinds), program_shapes(game, kinds)
    # An external exists only where its condition holds: one whose condition no unit of the batch gives (the open
    # reading choices of engine.solve_sides) has no instance here and is left out.
    kept = [i for i in kept_statements(game, kinds, inputs)
            if shapes[i].kind != "external" or atoms_below(statements[i].body) <= inputs]
    keyed = keyed_signatures([shapes[i] for i in kept], inputs)
    return tuple(_keyed_statement(game, kinds, i, keyed & _named(statements[i], shapes[i])) for i in kept)


def _named(statement: ast.AST, shape: Shape) -> frozenset[Signature]:
    """The predicates a statement names: those it mentions, and a #defined's own."""
    if statement.ast_type == ast.ASTType.Defined:
        return shape.mentions | {(statement.name, statement.arity)}
    return shape.mentions


@lru_cache(maxsize=4096)
def _keyed_statement(game: str, kinds: frozenset[str], index: int, keyed: frozenset[Signature]) -> ast.AST:
    """The keyed form of one statement of program(game, kinds), given the keyed predicates it names."""
    return _key_statement(program(game, kinds)[index], keyed)


@dataclass
class Batch:
    """Units of one game answered by one Control: each with the index of the scenario it belongs to."""

    game: str
    units: list[Unit] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)
    size: int = 0

    def fits(self, unit: Unit) -> bool:
        """Whether the unit's facts fit in what is left of the batch."""
        return self.size + len(unit.facts) <= MAX_BATCH_FACTS

    def add(self, owner: int, unit: Unit) -> None:
        self.units.append(unit)
        self.owners.append(owner)
        self.size += len(unit.facts)


class BatchFailed(Exception):
    """The batch's program has no model: some unit's state is one the encodings cannot answer."""


def solve_batch(batch: Batch) -> list[list[clingo.Symbol]]:
    """Ground and solve the batch's units in one Control; each unit's shown atoms, without their unit key."""
    inputs = {(f.name, f.arity) for u in batch.units for f in u.facts}
    kinds = frozenset().union(*(u.kinds for u in batch.units))
    statements = keyed_program(batch.game, kinds, frozenset(inputs))
    used = used_predicates(batch.game, kinds, frozenset(inputs))
    lines: list[str] = []
    for number, unit in enumerate(batch.units):
        lines.append(fact(UNIT_PREDICATE, number))
        lines.extend(f.keyed(number) for f in facts_used(unit.facts, used))
    control = clingo.Control(["--warn=none"])
    add_statements(control, statements)
    control.add("base", [], "\n".join(lines))
    control.ground([("base", [])])
    satisfiable, shown = bounded_solve(control, "solving")
    if not satisfiable:
        raise BatchFailed
    found: list[list[clingo.Symbol]] = [[] for _ in batch.units]
    for symbol in shown:
        found[symbol.arguments[0].number].append(clingo.Function(symbol.name, symbol.arguments[1:]))
    return found


def answer_many(items: list[tuple[Scenario, dict[str, str]]]) -> list[list[Answer] | Exception]:
    """Answer every question of many scenarios (each with its reading overrides), in batches of units; each
    scenario's answers, or the exception its own answer raised (a batch without a model is answered again a
    unit at a time, so that only the scenarios at fault fail)."""
    results: list[list[Answer] | Exception] = [[] for _ in items]
    answers: list[dict[str, Answer]] = [{} for _ in items]
    batches: list[Batch] = []
    open_batches: dict[str, Batch] = {}
    for index, (scenario, overrides) in enumerate(items):
        try:
            # A game over moments is grounded a moment at a time (pyengine.core.stepwise), each scenario's timelines
            # once for all its units (engine.answer), never keyed into a batch.
            if scenario.over_moments:
                results[index] = answer(scenario, overrides)
                continue
            found = units(scenario, overrides)
        except Exception as error:  # the scenario's own failure, reported in its place
            results[index] = error
            continue
        for unit in found:
            batch = open_batches.get(scenario.game.name)
            if batch is None or not batch.fits(unit):
                batch = open_batches[scenario.game.name] = Batch(scenario.game.name)
                batches.append(batch)
            batch.add(index, unit)
    for batch in batches:
        try:  # a batch of one unit needs no keys: the plain encodings, as a one-scenario answer uses them
            shown = solve_batch(batch) if len(batch.units) > 1 else None
        except BatchFailed:
            shown = None
        for position, (index, unit) in enumerate(zip(batch.owners, batch.units, strict=True)):
            if isinstance(results[index], Exception):
                continue
            try:
                symbols = shown[position] if shown is not None else solve(batch.game, unit.facts, unit.kinds)
                answers[index].update(read_answers(unit, symbols))
            except Exception as error:  # this scenario's defect; the others' answers stand
                results[index] = error
    for index, (scenario, _) in enumerate(items):
        if not isinstance(results[index], Exception) and not scenario.over_moments:
            results[index] = [answers[index][q.id] for q in scenario.questions]
    return results


def batched(items: list[Any], size: int) -> list[list[Any]]:
    """Consecutive slices of at most `size` items."""
    return [items[start:start + size] for start in range(0, len(items), size)]
