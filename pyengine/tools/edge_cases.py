"""The edge-case search, done by clingo itself: a game's encodings are loaded twice, every derived predicate
renamed for world A or world B, over one state that a generator program (rules/search/<game>.lp) chooses from
a small abstract universe. A model is a state where some question gets different verdicts in the two worlds;
the optimisation finds the smallest, and each further model must show a shape of disagreement not seen yet.

The two worlds are two sets of readings (a profile, `default`, or NAME=VALUE choices), or, for `--decisive`,
the encodings with and without one rule.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import clingo
from clingo import ast

from pyengine.core import kb as kbase
from pyengine.core.answering import games_named
from pyengine.core.arguments import checked
from pyengine.core.asp import Const, Fact, fact, number, symbol
from pyengine.core.engine import one_shot_parts, program, reading_facts
from pyengine.core.errors import InputError, closest
from pyengine.core.files import check_out_folder, write_folder
from pyengine.core.limits import MAX_SEARCH_CARDS, LimitError, bounded_solve, limits
from pyengine.core.resources import rules_dir
from pyengine.core.results import (
    EdgeCasesResult,
    Progress,
)
from pyengine.games import registry
from pyengine.tools import search_view


@dataclass
class Side:
    """One world: its label and its reading choices (or the rule it leaves out)."""

    label: str
    readings: dict[str, str] = field(default_factory=dict)
    without_rule: str | None = None


@dataclass
class Finding:
    shapes: list[tuple[str, str, str, str]]
    facts: list[clingo.Symbol]
    verdicts: dict[str, dict[str, str]]
    reasons: dict[str, dict[str, list[str]]]
    differs: list[str]


def parse_side(game: str, text: str) -> Side:
    """`default`, a profile name, or NAME=VALUE[,NAME=VALUE...] choices of the game's readings."""
    kb = kbase.load(game)
    if text == "default":
        return Side(text)
    if text in kb.profiles:
        return Side(text, dict(kb.profiles[text]))
    readings: dict[str, str] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        if not sep:
            raise InputError(f"{text!r} is neither default, a profile nor NAME=VALUE", field="--compare",
                             expected="default, " + ", ".join(sorted(kb.profiles)) + ", or READING=CHOICE",
                             suggestion=closest(text, [*kb.profiles, "default"]))
        if name not in kb.readings:
            raise InputError(f"unknown reading {name!r} of game {game}", field="--compare",
                             suggestion=closest(name, kb.readings))
        if value not in kb.readings[name].choices:
            raise InputError(f"unknown choice {value!r} of reading {name}", field="--compare",
                             expected="one of " + ", ".join(kb.readings[name].choices))
        readings[name] = value
    return Side(text, readings)


class _Rename(ast.Transformer):
    """Rename every atom whose predicate is not an input of the game, for one world."""

    def __init__(self, suffix: str, inputs: frozenset[str]):
        self.suffix, self.inputs = suffix, inputs

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:
        symbol = node.symbol
        if symbol.ast_type == ast.ASTType.Function and symbol.name not in self.inputs:
            return node.update(symbol=symbol.update(name=f"{symbol.name}_{self.suffix}"))
        return node


def _mentions(node: Any, constant: str) -> bool:
    return constant in str(node)


def _kinds(game: str) -> frozenset[str]:
    """Every question kind of the game: the search asks them all."""
    return frozenset(registry()[game].kind_files)


# A searched state has one action (rules/search/<game>.lp): a game over moments grounds its parts for one step.
SEARCH_STEPS = 1


@cache
def _renamed(game: str, suffix: str) -> tuple[tuple[ast.AST, ast.AST], ...]:
    """Each statement of the game's encodings but #show, with its form for one world (its predicates renamed):
    built once per process for each world (0.35 s for the largest encodings; the consistency check's searches ask for
    120 worlds), from the encodings `program` parsed once per process."""
    inputs = frozenset(registry()[game].input_predicates)
    rename = _Rename(suffix, inputs)
    out = []
    for statement in program(game, _kinds(game)):
        kind = statement.ast_type
        if kind in (ast.ASTType.ShowSignature, ast.ASTType.ShowTerm):
            continue
        if kind == ast.ASTType.Defined:
            renamed = statement if statement.name in inputs else statement.update(name=f"{statement.name}_{suffix}")
        else:
            renamed = rename(statement)
        out.append((statement, renamed))
    return tuple(out)


@cache
def _world(game: str, suffix: str, without_rule: str | None) -> tuple[ast.AST, ...]:
    """The game's encodings for one world: renamed, without #show, and without the rules that derive
    a reason naming `without_rule`."""
    return tuple(renamed for statement, renamed in _renamed(game, suffix)
                 if not (without_rule and statement.ast_type == ast.ASTType.Rule
                         and _mentions(statement.head, without_rule)))


# How the search proves a state smallest: core-guided optimisation with minimal cores. Measured on the four
# slowest readings of the consistency report (those over moments): 44.6 s with the default model-guided
# branch-and-bound (184 152 choices for the slowest alone), 11.2 s with these.
OPTIMISE = ["--opt-mode=opt", "--opt-strategy=usc", "--opt-usc-shrink=min"]


def _bounds(max_cards: int, max_instances: int) -> list[str]:
    """The options that bound a search's state (range-checked numbers)."""
    return ["--warn=none", f"-c max_cards={number(max_cards)}", f"-c max_instances={number(max_instances)}"]


def _reading_facts(game: str, side: Side, suffix: str) -> str:
    kb = kbase.load(game)
    chosen = {name: r.default for name, r in kb.readings.items()} | side.readings
    return "\n".join(reading_facts(chosen, f"reading_chosen_{suffix}"))


def shape_rules(game: str, a: Side, b: Side) -> list[str]:
    """The rules that tell shapes of disagreement apart: those of the readings the sides choose differently,
    or the rule one side leaves out."""
    kb = kbase.load(game)
    chosen_a = {n: r.default for n, r in kb.readings.items()} | a.readings
    chosen_b = {n: r.default for n, r in kb.readings.items()} | b.readings
    differing = {n for n in chosen_a if chosen_a[n] != chosen_b[n]}
    rules = {r.id for r in kb.rules.values() if any(n in differing for n, _ in r.readings)}
    rules |= {x for x in (a.without_rule, b.without_rule) if x}
    return sorted(rules)


def _generator(game: str) -> Path:
    """The game's space of states (rules/search/<game>.lp)."""
    generator = Path(rules_dir(), "search", f"{game}.lp")
    if not generator.exists():
        raise InputError(f"no edge-case generator for game {game}", field="--game",
                         expected="a game with rules/search/<game>.lp")
    return generator


def search(game: str, a: Side, b: Side, max_cards: int, max_instances: int, limit: int,
           all_models: bool = False, progress: Callable[[int], None] | None = None) -> list[Finding]:
    """The smallest states where worlds A and B disagree, one per new shape of disagreement (at most `limit`);
    with `all_models`, every state up to the bounds, each counted once per new shape."""
    _generator(game)
    findings: list[Finding] = []
    known: list[tuple[str, str, str, str]] = []
    deadline = time.monotonic() + limits.solve_seconds
    while len(findings) < limit:
        control = _search_control(game, a, b, max_cards, max_instances, known)
        try:
            satisfiable, best = bounded_solve(control, "the search", max(0.1, deadline - time.monotonic()))
        except LimitError:
            if not findings:
                raise
            break
        if not satisfiable or not best:
            break
        finding = _finding(best)
        findings.append(finding)
        known.extend(s for s in finding.shapes if s not in known)
        if progress:
            progress(len(findings))
        if not all_models and not finding.shapes:
            break
    return findings


def census_search(game: str, a: Side, b: Side, max_cards: int, pool: Iterable[Fact],
                  accept: Callable[[Finding], bool], states: int, tries: int) -> str:
    """The census's search (pyengine.tools.census): states where worlds A and B disagree, drawn only from the
    kinds of card a pool has (`pool`: the pool_* inputs of rules/search/<game>.lp), each handed to `accept`,
    which says whether real cards show it. It asks first for new shapes, as the plain search does; then, shape by
    shape in turn (target_shape/4 of rules/search/compare.lp), for further configurations of cards showing it;
    then, every shape given up, for any further one. Each configuration drawn (each card-level atom of the
    generator, true or false) is a nogood from then on; a shape is given up after SHAPE_TRIES refused states.
    Why it stopped: `states` accepted, `tries` refused, `bounds` (no further state) or `time`."""
    _generator(game)
    pool_text = "\n".join(pool)
    card_level = search_view(game, "census").census.card_predicates
    deadline = time.monotonic() + limits.solve_seconds
    known: list[tuple[str, str, str, str]] = []
    drawn: list[frozenset[clingo.Symbol]] = []
    refusals: dict[tuple[str, str, str, str], int] = {}
    targets: list[tuple[str, str, str, str]] = []  # the shapes still asked for, the next first
    grounded: list[tuple[str, str, str, str]] = []  # the shapes the grounding holds as externals
    accepted = refused = 0
    new_shapes, control = True, None
    while accepted < states:
        if control is None:
            grounded = [] if new_shapes else list(targets)
            control = _search_control(game, a, b, max_cards, max_cards, known if new_shapes else [], pool_text,
                                      grounded)
            for configuration in drawn:
                _never_again(control, configuration, card_level)
        for shape in grounded:
            control.assign_external(clingo.Function("target_shape", [symbol(x) for x in shape]),
                                    bool(targets) and shape == targets[0])
        try:
            satisfiable, best = bounded_solve(control, "the census's search", max(0.1, deadline - time.monotonic()))
        except LimitError:
            return "time"
        if not satisfiable or not best:
            if new_shapes:
                new_shapes, control = False, None
                targets = [s for s in known if refusals.get(s, 0) < SHAPE_TRIES]
            elif targets:
                targets.pop(0)
            else:
                return "bounds"
            continue
        finding = _finding(best)
        drawn.append(frozenset(f for f in finding.facts if f.name in card_level))
        _never_again(control, drawn[-1], card_level)
        if accept(finding):
            accepted += 1
            if new_shapes:
                known.extend(s for s in finding.shapes if s not in known)
                control = None
            elif targets:
                targets.append(targets.pop(0))
            continue
        refused += 1
        if refused >= tries:
            return "tries"
        for shape in finding.shapes if new_shapes else targets[:1]:
            refusals[shape] = refusals.get(shape, 0) + 1
        if new_shapes and any(refusals[s] >= SHAPE_TRIES and s not in known for s in finding.shapes):
            known.extend(s for s in finding.shapes if refusals[s] >= SHAPE_TRIES and s not in known)
            control = None
        elif not new_shapes and targets and refusals[targets[0]] >= SHAPE_TRIES:
            targets.pop(0)
    return "states"


# How many refused states the census's search draws for one new shape before it stops asking for that shape.
SHAPE_TRIES = 6
# The most states one search reports (every shape, or --limit).
MAX_FINDINGS = 10_000


def _search_control(game: str, a: Side, b: Side, max_cards: int, max_instances: int,
                    known: list[tuple[str, str, str, str]], pool_text: str = "",
                    targets: Sequence[tuple[str, str, str, str]] = ()) -> clingo.Control:
    """The two worlds over the generator's states, grounded, each model to show a shape not in `known` (and,
    while one of the `targets` is set as an external, that shape)."""
    control = clingo.Control([*_bounds(max_cards, max_instances), *OPTIMISE])
    with ast.ProgramBuilder(control) as builder:
        for statement in [*_world(game, "a", a.without_rule), *_world(game, "b", b.without_rule)]:
            builder.add(statement)
    control.add("base", [], Path(rules_dir(), "search", "compare.lp").read_text(encoding="utf-8"))
    control.add("base", [], _generator(game).read_text(encoding="utf-8"))
    control.add("base", [], _reading_facts(game, a, "a") + "\n" + _reading_facts(game, b, "b"))
    control.add("base", [], "\n".join(fact("known_shape", *map(symbol, shape)) for shape in known))
    control.add("base", [], "\n".join(fact("shape_rule", Const(r)) for r in shape_rules(game, a, b)))
    control.add("base", [], pool_text)
    control.add("base", [], "\n".join(fact("census_target", *map(symbol, shape)) for shape in targets))
    control.ground(one_shot_parts(game, _kinds(game), SEARCH_STEPS))
    return control


def _never_again(control: clingo.Control, configuration: frozenset[clingo.Symbol], card_level: frozenset[str]) -> None:
    """A nogood, added through the backend after grounding: no model has exactly this configuration of cards."""
    body = [atom.literal if atom.symbol in configuration else -atom.literal
            for signature in control.symbolic_atoms.signatures if signature[0] in card_level
            for atom in control.symbolic_atoms.by_signature(signature[0], signature[1])]
    with control.backend() as backend:
        backend.add_rule([], body)


def _finding(symbols: Iterable[clingo.Symbol]) -> Finding:
    shapes: list[tuple[str, str, str, str]] = []
    verdicts: dict[str, dict[str, str]] = {"a": {}, "b": {}}
    reasons: dict[str, dict[str, list[str]]] = {"a": {}, "b": {}}
    facts, differs = [], []
    for atom in symbols:
        name = atom.name
        if name == "shape":
            shapes.append(tuple(str(a) for a in atom.arguments))  # type: ignore[arg-type]
        elif name in ("verdict_a", "verdict_b"):
            verdicts[name[-1]][str(atom.arguments[0])] = str(atom.arguments[1])
        elif name in ("reason_a", "reason_b"):
            reasons[name[-1]].setdefault(str(atom.arguments[0]), []).append(str(atom.arguments[1]))
        elif name == "differs":
            differs.append(str(atom.arguments[0]))
        else:
            facts.append(atom)
    for side in reasons.values():
        for key in side:
            side[key] = sorted(set(side[key]))
    return Finding(sorted(set(shapes)), facts, verdicts, reasons, sorted(differs))


def rule_sides(finding: Finding, rule: str) -> str:
    """Which side's answers name the rule of a shape in this state: "a", "b" or "both" (a reading's rule decides
    one side's verdict; the other side's may rest on another rule, or on none)."""
    sides = [side for side in ("a", "b") if any(rule in rules for rules in finding.reasons[side].values())]
    return "both" if len(sides) == 2 else sides[0] if sides else "both"


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text).strip("-")


def _side_fields(game: str, side: Side) -> dict[str, Any]:
    if side.label in kbase.load(game).profiles:
        return {"profile": side.label}
    return {"readings": dict(side.readings)} if side.readings else {}


def scenario_of(game: str, finding: Finding, a: Side, b: Side, title: str) -> dict[str, Any]:
    """A finding as a scenario file: its state, and each disagreeing question under both sides with the
    verdict and the rule ids each gives, ready for `pyengine check` and for another implementation's tests."""
    module = search_view(game, "edge-cases")
    data = module.search_state(finding.facts)
    data["title"] = title
    data["cites"] = sorted({p for side in finding.reasons.values() for q in finding.differs for r in side.get(q, [])
                            for d, p in kbase.load(game).rules[r].sources if d == registry()[game].document},
                           key=lambda p: int(p[1:]))
    questions = []
    terms = {str(f.arguments[0]): f.arguments[0] for f in finding.facts if f.name == "question"}
    for question in finding.differs:
        for key, side in (("a", a), ("b", b)):
            if side.without_rule:
                continue
            entry = {"id": f"{_slug(question)}-{_slug(side.label)}", **module.search_question(terms[question],
                                                                                             finding.facts)}
            entry |= _side_fields(game, side)
            entry["expect"] = finding.verdicts[key][question]
            entry["rules"] = finding.reasons[key].get(question, [])
            questions.append(entry)
    data["questions"] = questions
    return data


def firing_rules(game: str, rules: list[str], max_cards: int, max_instances: int) -> dict[str, bool]:
    """For each rule, whether some state of the bounded search gives a reason naming it, under the reading
    choice the rule depends on (if any). The rules that depend on the same choice share one grounding of the
    search: each is then one solve under the assumption that it fires."""
    kb = kbase.load(game)
    groups: dict[tuple[tuple[str, str], ...], list[str]] = {}
    fired: dict[str, bool] = {}
    for rule in rules:
        if kb.rules[rule].min_instances > max_instances or kb.rules[rule].data_only or kb.rules[rule].step_only:
            fired[rule] = True  # its state, its card data or its steps are beyond the search: not dead
            continue
        groups.setdefault(tuple(kb.rules[rule].readings[:1]), []).append(rule)
    generator = Path(rules_dir(), "search", f"{game}.lp").read_text(encoding="utf-8")
    for readings, members in groups.items():
        control = clingo.Control(_bounds(max_cards, max_instances))
        with ast.ProgramBuilder(control) as builder:
            for statement in _world(game, "a", None):
                builder.add(statement)
        control.add("base", [], re.sub(r"#minimize[^.]*\.", "", generator, flags=re.S))
        control.add("base", [], _reading_facts(game, Side("rule's reading", dict(readings)), "a"))
        control.add("base", [], "pyengine_fires(R) :- reason_a(_, R, _).")
        control.ground(one_shot_parts(game, _kinds(game), SEARCH_STEPS))
        for rule in members:
            fires = clingo.Function("pyengine_fires", [clingo.Function(rule)])
            try:
                fired[rule] = bounded_solve(control, "the search for a firing state", assumptions=[(fires, True)])[0]
            except LimitError:
                fired[rule] = True  # undecided within the limit: do not call the rule dead
    return fired


@checked
def edge_cases(game: str, compare: tuple[str, str] | None = None, decisive: str | None = None,
               all_shapes: bool = False, max_cards: int = 3, max_instances: int | None = None, limit: int = 20,
               out: str | Path | None = None, progress: Progress | None = None) -> EdgeCasesResult:
    """The smallest states where two sides (`default`, a profile, or READING=CHOICE[,...]) disagree, or where
    rule `decisive` alone decides a verdict; with `out`, each state is written there as a scenario file."""
    import yaml

    game = games_named(game)[0]
    instances = max_cards if max_instances is None else max_instances
    for name, value in (("--max-cards", max_cards), ("--max-instances", instances)):
        if not 1 <= value <= MAX_SEARCH_CARDS:
            raise InputError(f"{name} {value} is out of range", field=name,
                             expected=f"from 1 to {MAX_SEARCH_CARDS}: larger states need more memory than any ceiling")
    if not 1 <= limit <= MAX_FINDINGS:
        raise InputError(f"--limit {limit} is out of range", field="--limit", expected=f"from 1 to {MAX_FINDINGS:,}")
    folder = Path(out) if out else None
    if folder is not None:
        check_out_folder(folder)
    if (compare is None) == (decisive is None):
        raise InputError("say what to compare", field="--compare", expected="--compare A B, or --decisive RULE")
    if compare is not None:
        a, b = (parse_side(game, text) for text in compare)
    else:
        known = kbase.load(game).rules
        if decisive not in known:
            raise InputError(f"unknown rule {decisive!r}", field="--decisive", expected="a rule id (pyengine rules)",
                             suggestion=closest(str(decisive), known))
        a, b = Side("with"), Side(f"without {decisive}", without_rule=decisive)
    cap = MAX_FINDINGS if all_shapes else limit
    findings = search(game, a, b, max_cards, instances, cap, all_models=all_shapes,
                      progress=(lambda n: progress(n, cap)) if progress else None)
    shapes = sorted({s for f in findings for s in f.shapes})
    entries = []
    for count, finding in enumerate(findings, 1):
        scenario = scenario_of(game, finding, a, b, f"{game}: {a.label} against {b.label}, state {count}")
        entry: dict[str, Any] = {"shapes": [list(s) for s in finding.shapes],
                                 "shape_sides": [rule_sides(finding, s[3]) for s in finding.shapes],
                                 "scenario": scenario}
        if folder:
            entry["file"] = str(folder / f"{game}-{count:03d}.yaml")
        entries.append(entry)
    if folder:
        write_folder(folder, {Path(e["file"]).name: yaml.safe_dump(e["scenario"], sort_keys=False, allow_unicode=True)
                              for e in entries}, "edge-cases")
    return EdgeCasesResult(game, a.label, b.label, max_cards, len(findings), [list(s) for s in shapes], entries,
                           instances)
