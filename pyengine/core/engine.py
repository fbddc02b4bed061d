"""Runs the encodings on a scenario: one fresh clingo Control per group of questions that share their
readings, fed the rules, the declarations and only the facts of the cards in the state. No legality is
decided here; verdicts and reasons are read back from the stable model, and the readings each verdict rested on
are the reading choices its reasons' rules are declared to depend on."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import clingo
from clingo import ast

from pyengine.core import kb as kbase
from pyengine.core import moment_states, moments, slicing, stepwise
from pyengine.core.asp import Const, Fact, fact
from pyengine.core.diskcache import cached
from pyengine.core.limits import bounded_solve
from pyengine.core.resources import facts_dir, rules_dir
from pyengine.core.scenario import Question, Scenario
from pyengine.core.slicing import Shape, Signature, analyse, kept, mentioned, shapes_from_json, shapes_to_json
from pyengine.core.solve_records import figures, note_start, record_solve
from pyengine.games import LISTING_KINDS
from pyengine.games import game as one_game


@dataclass
class Reason:
    rule: str
    evidence: clingo.Symbol


@dataclass
class Play:
    """One play a `plays` question considered: its id (the instance, or `INSTANCE via SOURCE` for a play through
    the ability of the instance SOURCE, or an action's words), the verdict and its reasons."""

    id: str
    term: clingo.Symbol
    verdict: str | None
    reasons: list[Reason]
    rested_on: dict[str, str]
    assumptions: list[str] = field(default_factory=list)
    rested_before: dict[str, str] = field(default_factory=dict)
    activity: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def rule_ids(self) -> list[str]:
        return sorted({r.rule for r in self.reasons})


@dataclass
class Answer:
    question: Question
    verdict: str | None
    reasons: list[Reason]
    rested_on: dict[str, str]
    readings: dict[str, str]
    facts: list[str] = field(default_factory=list, repr=False)
    plays: list[Play] | None = None
    # The base-game assumptions the answer rested on (for games that keep some).
    assumptions: list[str] = field(default_factory=list)
    # The readings that steps before the moment asked about rested on (games over moments), beyond rested_on.
    rested_before: dict[str, str] = field(default_factory=dict)
    # Of the instances its reasons cite, which the rules found active or not, and why (cited_activity/4, where a
    # game's rules derive it).
    activity: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def rule_ids(self) -> list[str]:
        """The rules of the answer's reasons (for a `plays` answer, those of every play)."""
        return sorted({r.rule for r in self.reasons} | {r for p in self.plays or [] for r in p.rule_ids})

    def play_sets(self) -> dict[str, list[str]]:
        """A `plays` answer as the ids of its legal and its illegal plays."""
        plays = self.plays or []
        return {"legal": sorted(p.id for p in plays if p.verdict == "legal"),
                "illegal": sorted(p.id for p in plays if p.verdict != "legal")}

    def failures(self) -> list[str]:
        """What differs from the question's expectations (empty when they hold)."""
        problems = []
        q = self.question
        if isinstance(q.expect, dict):
            got = self.play_sets()
            for key, wanted in sorted(q.expect.items()):
                if sorted(set(wanted)) != got[key]:
                    problems.append(f"expected {key} [{', '.join(sorted(set(wanted)))}], got [{', '.join(got[key])}]")
        elif q.expect is not None and self.verdict != q.expect:
            problems.append(f"expected {q.expect}, got {self.verdict}")
        if q.rules is not None and sorted(set(q.rules)) != self.rule_ids:
            problems.append(f"expected rules [{', '.join(sorted(set(q.rules)))}], got [{', '.join(self.rule_ids)}]")
        return problems


# The knowledge base's declarations: read by pyengine.core.kb for explanations, never needed to decide a verdict
# (with the source map of a game's further document, <name>_paragraphs.lp: is_declaration).
DECLARATION_FILES = {"rules.lp", "readings.lp", "paragraphs.lp", "open_questions.lp"}


def is_declaration(path: Path) -> bool:
    """Whether a file of facts/<game>/ holds declarations, not ground facts the encodings read."""
    return path.name in DECLARATION_FILES or path.name.endswith("_paragraphs.lp")


def program_files(game: str, kinds: frozenset[str]) -> list[Path]:
    """The encodings a set of question kinds needs: the shared ones the game loads, the game's base files, each
    kind's files, and the game's ground facts (not its declarations)."""
    module = one_game(game)
    names = list(module.base_files)
    for kind in sorted(kinds):
        names += [n for n in module.kind_files[kind] if n not in names]
    return [*(Path(rules_dir(), "common", n) for n in module.common_files),
            *(Path(rules_dir(), game, n) for n in names),
            *(p for p in sorted(Path(facts_dir(), game).glob("*.lp")) if not is_declaration(p))]


@cache
def program(game: str, kinds: frozenset[str]) -> tuple[ast.AST, ...]:
    """The parsed encodings for these question kinds, parsed once per process and replayed into each Control
    (an #include is read relative to the file that names it)."""
    return _parsed(tuple(program_files(game, kinds)))


@cache
def program_shapes(game: str, kinds: frozenset[str]) -> tuple[Shape, ...]:
    """The shape of each statement of program(game, kinds) (pyengine.core.slicing): its files' shapes in order."""
    return tuple(shape for path in program_files(game, kinds) for shape in _file_shapes(path))


@cache
def _file_shapes(path: Path) -> tuple[Shape, ...]:
    """The shapes of one encoding file's statements, worked out once and kept between processes
    (pyengine.core.diskcache: one cache file per encoding file and clingo version, whose parser makes the
    statements, named by the file's digest and the slicing code's)."""
    return cached(f"shapes-clingo{clingo.__version__}-{path.parent.name}-{path.stem}", [Path(slicing.__file__), path],
                  lambda: analyse(_parsed((path,))), shapes_to_json, shapes_from_json)


@lru_cache(maxsize=256)
def kept_statements(game: str, kinds: frozenset[str], inputs: frozenset[Signature]) -> tuple[int, ...]:
    """The positions in program(game, kinds) of the statements the slice keeps for facts of the `inputs`
    predicates (pyengine.core.slicing.kept)."""
    shapes = program_shapes(game, kinds)
    if len(shapes) != len(program(game, kinds)):  # kept shapes of other encodings: a defect, not a slice
        raise RuntimeError(f"the kept statement shapes of {game} do not match its encodings")
    return kept(shapes, inputs)


def applicable_program(game: str, kinds: frozenset[str], inputs: frozenset[Signature]) -> tuple[ast.AST, ...]:
    """The encodings for these question kinds without the rules that facts of the `inputs` predicates can never
    apply (pyengine.core.slicing), sliced once per process for each set of input predicates."""
    statements = program(game, kinds)
    return tuple(statements[i] for i in kept_statements(game, kinds, inputs))


@lru_cache(maxsize=256)
def used_predicates(game: str, kinds: frozenset[str], inputs: frozenset[Signature]) -> frozenset[Signature] | None:
    """The predicates applicable_program mentions: facts of the others are left out of its Control (None: keep
    every fact)."""
    shapes = program_shapes(game, kinds)
    return mentioned(shapes[i] for i in kept_statements(game, kinds, inputs))


def facts_used(facts: list[Fact], used: frozenset[Signature] | None) -> list[Fact]:
    """The facts of the predicates a program uses (all of them, where `used` is None)."""
    return facts if used is None else [f for f in facts if (f.name, f.arity) in used]


def _parsed(paths: tuple[Path, ...]) -> tuple[ast.AST, ...]:
    """The statements of encoding files, in order."""
    statements: list[ast.AST] = []
    for path in paths:
        ast.parse_files([str(path)], statements.append)
    return tuple(statements)


def one_shot_parts(game: str, kinds: frozenset[str], steps: int) -> list[tuple[str, list[clingo.Symbol]]]:
    """The program parts a search over states grounds in one call: base, and for a game over moments every part
    of a scenario of `steps` actions, each step part at every moment (pyengine.core.stepwise)."""
    if not one_game(game).timeline:
        return [("base", [])]
    return [("base", []), *stepwise.parts(steps, stepwise.step_part_names(program(game, kinds)))]


def effective_readings(scenario: Scenario, question: Question | None, overrides: dict[str, str]) -> dict[str, str]:
    """The choices in force for a question (or, without one, for the table): defaults, then the scenario's, the
    question's, the command line's."""
    kb = kbase.load(scenario.game.name)
    readings = {name: r.default for name, r in kb.readings.items()}
    readings.update(scenario.readings)
    readings.update(question.readings if question is not None else {})
    readings.update(overrides)
    return readings


def reading_facts(readings: dict[str, str], predicate: str = "reading_chosen") -> list[Fact]:
    """The reading choices in force, as facts (named readings and choices, checked when they were read)."""
    return list(_reading_facts(tuple(readings.items()), predicate))


@lru_cache(maxsize=1024)
def _reading_facts(readings: tuple[tuple[str, str], ...], predicate: str) -> tuple[Fact, ...]:
    """reading_facts, built once per set of choices in their order (a table's answers share a few sets)."""
    return tuple(fact(predicate, Const(name), Const(value)) for name, value in readings)


@cache
def timeline_program(game: str, kinds: frozenset[str]) -> tuple[list[ast.AST], dict[str, list[ast.AST]]]:
    """The encodings of a game over moments split once per process: base and the fixed parts, and each step
    part's statements (pyengine.core.stepwise.split); of a game written for one state, its encodings rewritten over
    moments with its step rules (moment_program)."""
    if one_game(game).timeline:
        return stepwise.split(program(game, kinds))
    return moments.moment_program(game, kinds)


def over_moments(game: str, facts: Iterable[Fact]) -> bool:
    """Whether facts are answered over moments: those of a game written over moments, or of a scenario with actions
    (its facts give the number of its steps, last_step/1)."""
    return one_game(game).timeline or any(f.name == "last_step" and f.arity == 1 for f in facts)


def add_statements(control: clingo.Control, statements: Iterable[ast.AST]) -> None:
    """Add parsed statements to a Control (as they are: the parts they name are their own)."""
    with ast.ProgramBuilder(control) as builder:
        for statement in statements:
            builder.add(statement)


@cache
def view_program(path: Path) -> tuple[ast.AST, ...]:
    """A file of #show statements a view of the answers adds to the encodings (a board's, for one), parsed once."""
    return _parsed((path,))


def ground_timeline(control: clingo.Control, game: str, kinds: frozenset[str], facts: list[Fact],
                    views: tuple[Path, ...] = (), answers: bool = True) -> None:
    """Ground a scenario of a game over moments in `control` step by step (pyengine.core.stepwise), the Control given
    only the step parts some moment of it fires, and the #show statements of `views`. Questions that read only the
    moment after the last step (LISTING_KINDS) start from the latest state the process keeps for their actions, and
    keep the state at their last moment for the next question (pyengine.core.moment_states). Without `answers`
    the answers are not grounded (a random playout reads only the plays open at the last moment)."""
    fixed, by_part = timeline_program(game, kinds)
    add_statements(control, fixed)
    for view in views:
        add_statements(control, view_program(view))
    # Questions that read only the last moment start from the latest moment whose state the process keeps.
    keys = moment_states.keys((game, *sorted(kinds)), facts) if kinds and kinds <= LISTING_KINDS else []
    start, state = moment_states.find(keys)
    note_start(control, start)
    control.add("base", [], "\n".join([*facts, *state]))
    stepwise.ground(control, lambda names: add_statements(control, (s for n in names for s in by_part.get(n, []))),
                    answers=answers, start=start)
    last = len(keys) - 1
    kept = stepwise.state_at(control, last) if last > start else None
    if kept is not None:
        moment_states.keep(keys[last], last, kept)


def solve(game: str, facts: list[Fact], kinds: frozenset[str], views: tuple[Path, ...] = (),
          statistics: dict[str, float] | None = None) -> list[clingo.Symbol]:
    """Ground and solve the encodings these question kinds need, with these facts (of a card game: only the rules
    they can apply); the stable model's shown atoms (and those the #show statements of `views` show). A
    `statistics` dict is filled with clingo's figures of this solve (solve_records.SOLVE_STATISTICS) and the
    seconds taken."""
    started = time.perf_counter()
    control = clingo.Control(["--warn=none"])
    if over_moments(game, facts):
        ground_timeline(control, game, kinds, facts, views)
    else:
        inputs = frozenset((f.name, f.arity) for f in facts)
        add_statements(control, applicable_program(game, kinds, inputs))
        for view in views:
            add_statements(control, view_program(view))
        control.add("base", [], "\n".join(facts_used(facts, None if views else used_predicates(game, kinds, inputs))))
        control.ground([("base", [])])
    satisfiable, shown = bounded_solve(control, "solving")
    if not satisfiable:
        raise RuntimeError("the encodings have no model for this state: a defect of the knowledge base")
    record_solve(control, readings_open=False)
    if statistics is not None:
        statistics.update(figures(control))
        statistics["seconds"] = round(time.perf_counter() - started, 4)
    return shown


def unit_statistics(scenario: Scenario, overrides: dict[str, str]) -> dict[str, dict[str, float]]:
    """Each question's figures: its unit (the questions one Control answers) ground and solved alone, with
    clingo's statistics, the seconds taken and how many questions the unit holds."""
    found: dict[str, dict[str, float]] = {}
    for unit in units(scenario, overrides):
        figures: dict[str, float] = {}
        solve(scenario.game.name, unit.facts, unit.kinds, statistics=figures)
        figures["questions"] = len(unit.questions)
        found.update({q.id: figures for q in unit.questions})
    return found


@dataclass
class Unit:
    """One group of a scenario's questions that share their readings (and, for a game over moments, their
    timeline): what one Control answers alone, or a batch answers keyed by the unit's number (pyengine.core.batch)."""

    scenario: Scenario
    readings: dict[str, str]
    questions: list[Question]
    # The state's and the questions' facts.
    state_facts: list[Fact]
    # The game's group of the questions (pyengine.games.Game.group_key): units of one group differ only in their
    # readings, and in a game over moments share their timeline.
    group: Any = None

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(q.kind for q in self.questions)

    @property
    def facts(self) -> list[Fact]:
        """The state's and the questions' facts, then the reading choices in force."""
        return [*self.state_facts, *reading_facts(self.readings)]


def units(scenario: Scenario, overrides: dict[str, str]) -> list[Unit]:
    """A scenario's questions in groups that can share one solve: the same readings and the same group key."""
    groups: dict[tuple[Any, ...], list[Question]] = {}
    for question in scenario.questions:
        key = (tuple(sorted(effective_readings(scenario, question, overrides).items())),
               scenario.game.writer.group_key(question.kind, question.params))
        groups.setdefault(key, []).append(question)
    found = []
    for key, questions in groups.items():
        readings = dict(key[0])
        facts = scenario.game.writer.facts(scenario.state, [(q.id, q.kind, q.params) for q in questions])
        found.append(Unit(scenario, readings, questions, facts, key[1]))
    return found


# A shown atom as its name and arguments, read from clingo once (each read of a Symbol's parts builds new objects).
Atom = tuple[str, tuple[clingo.Symbol, ...]]


@lru_cache(maxsize=1 << 17)
def _atom(symbol: clingo.Symbol) -> Atom:
    """A function symbol's name and arguments (a symbol is a value: the same symbol always reads the same; the
    models of one table under many sides share most of theirs)."""
    return symbol.name, tuple(symbol.arguments)


@lru_cache(maxsize=1 << 17)
def _text(symbol: clingo.Symbol) -> str:
    return str(symbol)


def _is_play_of(symbol: clingo.Symbol, question: clingo.Symbol) -> bool:
    """Whether a question term is play(Q, ...) of the question term Q."""
    if symbol.type != clingo.SymbolType.Function:
        return False
    name, arguments = _atom(symbol)
    return name == "play" and arguments[:1] == (question,)


def read_answers(unit: Unit, symbols: list[clingo.Symbol], play_ids: dict[clingo.Symbol, str] | None = None
                 ) -> dict[str, Answer]:
    """The answers of one unit's questions, read from the shown atoms of its stable model (`play_ids`: the ids
    of plays already read for the same table)."""
    kb = kbase.load(unit.scenario.game.name)
    atoms: list[Atom] = [_atom(s) for s in symbols]
    undeclared = sorted({_text(args[1]) for name, args in atoms if name == "reason"} - set(kb.rules))
    if undeclared:
        raise RuntimeError(f"rules without a declaration: {', '.join(undeclared)}")
    by_term: dict[clingo.Symbol, list[Atom]] = {}
    for atom in atoms:
        if atom[1]:
            by_term.setdefault(atom[1][0], []).append(atom)
    answers: dict[str, Answer] = {}
    facts = unit.facts
    for q in unit.questions:
        term = clingo.String(q.id)
        verdict, reasons = _verdict(q.id, by_term.get(term, []))
        rested = _rested(kb, reasons, unit.readings)
        answers[q.id] = Answer(q, verdict, reasons, rested, unit.readings, facts,
                               assumptions=_assumed(by_term.get(term, [])),
                               rested_before=_rested_before(kb, by_term.get(term, []), unit.readings, rested),
                               activity=_activity(by_term.get(term, [])))
        if q.kind in LISTING_KINDS:
            found = answers[q.id]
            found.plays = _plays(unit.scenario, term, by_term, kb, unit.readings, {} if play_ids is None else play_ids)
            # A listing rests on what each of its tries rested on: a reading that opens or closes one of them.
            found.rested_on = dict(sorted({**found.rested_on, **{k: v for p in found.plays
                                                                 for k, v in p.rested_on.items()}}.items()))
            found.rested_before = dict(sorted({k: v for p in found.plays for k, v in p.rested_before.items()
                                               if k not in found.rested_on}.items()))
    return answers


def answer(scenario: Scenario, overrides: dict[str, str] | None = None) -> list[Answer]:
    """Answer every question of a scenario (answer_sides with one side)."""
    return answer_sides(scenario, [overrides or {}])[0]


def answer_sides(scenario: Scenario, sides: list[dict[str, str]]) -> list[list[Answer]]:
    """Every question of a scenario answered under each side (reading overrides). Under one side, a card game
    answers each unit in a Control of its own; under several, one GroundedTable grounds the scenario once and
    solves once per set of reading choices. In a game over moments, the units of one group (under one side or
    several) share their timeline: it is grounded once with all their questions and, where their readings differ,
    with the reading choices left open (reading_option/2), then solved once per set of reading choices."""
    if not scenario.over_moments and len(sides) > 1:
        table = GroundedTable(scenario)
        return [table.answers(side) for side in sides]
    found: list[dict[str, Answer]] = [{} for _ in sides]
    groups: dict[Any, list[tuple[int, Unit]]] = {}
    for index, side in enumerate(sides):
        for unit in units(scenario, side):
            groups.setdefault(unit.group if scenario.over_moments else id(unit), []).append((index, unit))
    for members in groups.values():
        play_ids: dict[clingo.Symbol, str] = {}
        for (index, unit), symbols in zip(members, _models([u for _, u in members]), strict=True):
            found[index].update(read_answers(unit, symbols, play_ids))
    return [[answers[q.id] for q in scenario.questions] for answers in found]


class GroundedTable:
    """A card game's scenario grounded once, with every question it asks and every choice of every reading left
    open (reading_option/2), then answered under any readings by assigning those choices and solving: the
    verdicts, reasons and readings are those of `answer` under the same overrides. A stable model is kept per set
    of reading choices (the only thing a model of one grounding depends on). A game over moments grounds per
    state and has none."""

    def __init__(self, scenario: Scenario):
        game = scenario.game
        if scenario.over_moments:
            raise ValueError(f"a {game.name} scenario over moments is grounded a moment at a time: answer it with "
                             "answer_sides")
        self.scenario = scenario
        self.options = reading_options(game.name)
        # The reading choices as assigned for the last solve: a solve assigns only the ones that change.
        self.assigned: dict[clingo.Symbol, bool] = {}
        questions = scenario.questions
        self.facts = game.writer.facts(scenario.state, [(q.id, q.kind, q.params) for q in questions])
        self.control = clingo.Control(["--warn=none"])
        add_statements(self.control, program(game.name, frozenset(q.kind for q in questions)))
        self.control.add("base", [], "\n".join([*self.facts, *open_choices(self.options)]))
        self.control.ground([("base", [])])
        self.play_ids: dict[clingo.Symbol, str] = {}
        self.models: dict[tuple[tuple[str, str], ...], list[clingo.Symbol]] = {}

    def answers(self, overrides: dict[str, str] | None = None, only: set[str] | None = None) -> list[Answer]:
        """Every question of the table (those whose ids are in `only`, when given) answered under `overrides`
        (over the scenario's and the questions' own readings), as `answer` would."""
        asked = [q for q in self.scenario.questions if only is None or q.id in only]
        groups: dict[tuple[tuple[str, str], ...], list[Question]] = {}
        for question in asked:
            chosen = effective_readings(self.scenario, question, overrides or {})
            groups.setdefault(tuple(sorted(chosen.items())), []).append(question)
        found: dict[str, Answer] = {}
        for key, questions in groups.items():
            unit = Unit(self.scenario, dict(key), questions, self.facts)
            found.update(read_answers(unit, self.model(unit.readings), self.play_ids))
        return [found[q.id] for q in asked]

    def model(self, readings: dict[str, str]) -> list[clingo.Symbol]:
        """The stable model's shown atoms under these reading choices (every reading's choice given)."""
        key = tuple(sorted(readings.items()))
        if key not in self.models:
            self.models[key] = solve_choosing(self.control, self.options, readings, self.assigned)
        return self.models[key]


def _models(group: list[Unit]) -> list[list[clingo.Symbol]]:
    """The stable model each unit of a group is read from: its own, or for units over one timeline one grounding
    of all their questions, solved once per set of reading choices."""
    first = group[0]
    game = first.scenario.game
    if len(group) == 1:
        return [solve(game.name, first.facts, first.kinds)]
    questions = list({q.id: q for unit in group for q in unit.questions}.values())
    facts = game.writer.facts(first.scenario.state, [(q.id, q.kind, q.params) for q in questions])
    kinds = frozenset(q.kind for q in questions)
    choices = list(dict.fromkeys(tuple(sorted(u.readings.items())) for u in group))
    if len(choices) == 1:
        shown = solve(game.name, [*facts, *reading_facts(first.readings)], kinds)
        return [shown] * len(group)
    models = dict(zip(choices, solve_sides(game.name, facts, kinds, [dict(c) for c in choices]), strict=True))
    return [models[tuple(sorted(u.readings.items()))] for u in group]


def solve_sides(game: str, facts: list[Fact], kinds: frozenset[str],
                sides: list[dict[str, str]]) -> list[list[clingo.Symbol]]:
    """The stable model's atoms under each side's reading choices (every reading's choice given), from one
    grounding of a game over moments with every choice left open (external) and assigned for each solve."""
    options = reading_options(game)
    control = clingo.Control(["--warn=none"])
    ground_timeline(control, game, kinds, [*facts, *open_choices(options)])
    return [solve_choosing(control, options, side) for side in sides]


@cache
def reading_options(game: str) -> tuple[tuple[str, str, clingo.Symbol], ...]:
    """Every choice of every reading of a game, in a stable order: the reading, the choice, and its external
    atom reading_chosen(N, V)."""
    return tuple((name, value, clingo.Function("reading_chosen", [clingo.Function(name), clingo.Function(value)]))
                 for name, reading in sorted(kbase.load(game).readings.items()) for value in reading.choices)


def open_choices(options: tuple[tuple[str, str, clingo.Symbol], ...]) -> list[Fact]:
    """The facts that leave every reading choice open, to be assigned before each solve (reading_option/2)."""
    return [fact("reading_option", Const(name), Const(value)) for name, value, _ in options]


def solve_choosing(control: clingo.Control, options: tuple[tuple[str, str, clingo.Symbol], ...],
                   readings: dict[str, str], assigned: dict[clingo.Symbol, bool] | None = None) -> list[clingo.Symbol]:
    """The shown atoms of a grounding with every reading choice left open (`options`), solved with the
    choices of `readings` (every reading's choice given) assigned; `assigned` holds what the Control's externals
    were last assigned, so that only those that change are assigned again."""
    for name, value, chosen in options:  # an external is false until assigned, and an assumption cannot lift that
        truth = readings[name] == value
        if assigned is None or assigned.get(chosen) is not truth:
            control.assign_external(chosen, truth)
            if assigned is not None:
                assigned[chosen] = truth
    satisfiable, shown = bounded_solve(control, "solving")
    if not satisfiable:
        raise RuntimeError("the encodings have no model for this state: a defect of the knowledge base")
    record_solve(control, readings_open=True)
    return shown


def _verdict(name: str, atoms: list[Atom]) -> tuple[str | None, list[Reason]]:
    """The verdict and the reasons among the atoms of one question (or one play of a `plays` question)."""
    # A verdict that names an instance (its id, a string) reads as the id.
    verdicts = [args[1].string if args[1].type == clingo.SymbolType.String else _text(args[1])
                for kind, args in atoms if kind == "verdict"]
    if len(verdicts) > 1:
        raise RuntimeError(f"question {name} got several verdicts {verdicts}: a defect of the encodings")
    reasons = sorted((Reason(_text(args[1]), args[2]) for kind, args in atoms if kind == "reason"),
                     key=lambda r: (r.rule, _text(r.evidence)))
    return (verdicts[0] if verdicts else None), reasons


def _assumed(atoms: list[Atom], kind_shown: str = "assumed", listing: frozenset[str] = frozenset()) -> list[str]:
    """The base-game assumptions among the atoms of one question (or one play: its own, and those of its listing,
    `listing`, which the encodings show once for all its plays: listing_assumed/2)."""
    return sorted(listing.union(_text(args[1]) for kind, args in atoms if kind == kind_shown))


def _activity(atoms: list[Atom]) -> dict[str, tuple[str, str]]:
    """The cited instances the rules found active or not, and why, among the atoms of one question (or play)."""
    return {args[1].string: (args[2].name, args[3].name) for kind, args in atoms if kind == "cited_activity"}


def _rested_before(kb: kbase.KnowledgeBase, atoms: list[Atom], readings: dict[str, str],
                   rested: dict[str, str]) -> dict[str, str]:
    """The reading choices in force that rules which shaped the steps before the moment asked about
    (ruled_before/2) depend on, other than those the answer's own reasons rested on."""
    rules = sorted({_text(args[1]) for kind, args in atoms if kind == "ruled_before"})
    return dict(sorted((name, value) for rule in rules for name, value in kb.rules[rule].readings
                       if readings.get(name) == value and name not in rested))


def _rested(kb: kbase.KnowledgeBase, reasons: list[Reason], readings: dict[str, str]) -> dict[str, str]:
    """The reading choices in force that the reasons' rules are declared to depend on."""
    return {name: value for r in reasons for name, value in kb.rules[r.rule].readings if readings.get(name) == value}


def _plays(scenario: Scenario, term: clingo.Symbol, by_term: dict[clingo.Symbol, list[Atom]],
           kb: kbase.KnowledgeBase, readings: dict[str, str], play_ids: dict[clingo.Symbol, str]) -> list[Play]:
    """The plays a `plays` question unfolded into (question terms play(Q, ...) in the encodings); `play_ids`
    keeps each play's id for the next model of the same table."""
    plays = []
    listing = frozenset(_assumed(by_term.get(term, []), "listing_assumed"))
    for sub, atoms in by_term.items():
        if _is_play_of(sub, term):
            verdict, reasons = _verdict(_text(sub), atoms)
            if sub not in play_ids:
                play_ids[sub] = scenario.game.words.play_id(sub, scenario.state)
            rested = _rested(kb, reasons, readings)
            plays.append(Play(play_ids[sub], sub, verdict, reasons, rested, _assumed(atoms, listing=listing),
                              _rested_before(kb, atoms, readings, rested), _activity(atoms)))
    return sorted(plays, key=lambda p: p.id)
