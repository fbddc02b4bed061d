"""A static encoding rewritten over moments at load time, so that a game written for one frozen state answers a
sequence of actions through the one model of time (pyengine.core.stepwise): the static files stay the only source
of the game's rules, and a scenario without actions never comes here.

The rewrite: the game's fluents (the input predicates a step can change) and the question inputs (question/2 and
the q_* predicates) seed a closure: every predicate a rule derives from a predicate of the closure joins it. Each
rule that mentions a predicate of the closure gets the moment `t` as a last argument on every atom of the closure
and goes into a part over moments: the part `moment` (grounded at every moment) where it is a rule of one of the
game's moment files and reads only what the part itself derives, otherwise the part `ask_<file>` of its file, which a
moment fires only where a question is asked at it (q_at/2) and the question's kind needs the file. Every other rule
stays in base. The state at moment 0 is the input's (next/2 atoms written in base), a fluent at moment t is read
from next/2, and a question's inputs hold at the moment it is asked at. A #show of a predicate of the closure shows
the atom without its moment, so that the answers read as the static program's. What a step changes is the game's
own step files (rules/<game>/steps/), which write next/2 in the part `advance`; nothing is decided here."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from clingo import Number, ast

from pyengine.core import stepwise
from pyengine.core.resources import rules_dir
from pyengine.core.slicing import Shape, Signature, analyse
from pyengine.games import game as one_game

# The moment, the parameter of every part over moments (an encoding never uses it as a constant: a test sees to it).
MOMENT = "t"
# The part holding the bridges of question inputs and the #show statements of the closure, fired with any question.
ASK = "ask"
# The question inputs besides the q_* predicates, which hold at the moment their question is asked at.
QUESTION_INPUTS = frozenset({"question"})


def ask_part(path: str | Path) -> str:
    """The part over moments holding the rewritten rules of one encoding file."""
    return f"ask_{Path(path).stem}"


def seeds(shapes: Iterable[Shape], fluents: frozenset[Signature], inputs: set[str]) -> set[Signature]:
    """The fluents and the question inputs the program mentions (the predicates of the closure's start)."""
    mentioned = set().union(*(shape.mentions for shape in shapes))
    return set(fluents) | {p for p in mentioned
                            if p[0] in inputs and (p[0].startswith("q_") or p[0] in QUESTION_INPUTS)}


def closure(shapes: Sequence[Shape], start: set[Signature]) -> set[Signature]:
    """The predicates that depend on the start: every predicate a rule defines from one of the closure."""
    found = set(start)
    changed = True
    while changed:
        changed = False
        for shape in shapes:
            if shape.kind == "rule" and (shape.mentions - shape.defines) & found and not shape.defines <= found:
                found |= shape.defines
                changed = True
    return found


def moment_predicates(shapes: Sequence[Shape], files: Sequence[str], temporal: set[Signature],
                      fluents: frozenset[Signature], moment_files: set[str]) -> set[Signature]:
    """The predicates of the closure the part `moment` derives whole: every rule defining one is of a moment file
    and reads, of the closure, only fluents and predicates of the part (the largest such set)."""
    defining: dict[Signature, list[int]] = {}
    for index, shape in enumerate(shapes):
        if shape.kind == "rule":
            for signature in shape.defines & temporal:
                defining.setdefault(signature, []).append(index)
    found = {s for s, rules in defining.items() if all(files[i] in moment_files for i in rules)} - set(fluents)
    changed = True
    while changed:
        changed = False
        for signature in sorted(found):
            reads = set().union(*(shapes[i].mentions for i in defining[signature])) & temporal
            if not reads <= found | set(fluents) or any(len(shapes[i].defines) != 1 for i in defining[signature]):
                found.discard(signature)
                changed = True
    return found


class _AddMoment(ast.Transformer):
    """Appends the moment `t` to every atom of the closure below a node."""

    def __init__(self, temporal: set[Signature]):
        self.temporal = temporal

    def _function(self, function: ast.AST) -> ast.AST:
        if function.ast_type == ast.ASTType.Function and (function.name, len(function.arguments)) in self.temporal:
            moment = ast.Function(function.location, MOMENT, [], False)
            return function.update(arguments=[*function.arguments, moment])
        return function

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:
        symbol = node.symbol
        if symbol.ast_type == ast.ASTType.Pool:
            return node.update(symbol=symbol.update(arguments=[self._function(a) for a in symbol.arguments]))
        return node.update(symbol=self._function(symbol))


# Where the statements the rewrite adds say they come from.
_HERE = ast.Location(ast.Position("<moments>", 1, 1), ast.Position("<moments>", 1, 1))


def _term(name: str, arguments: Sequence[ast.AST] = ()) -> ast.AST:
    """A function term (a constant without arguments)."""
    return ast.Function(_HERE, name, list(arguments), False)


def _fresh(arity: int) -> list[ast.AST]:
    """Fresh variables X0, X1, ... for the arguments of a predicate."""
    return [ast.Variable(_HERE, f"X{i}") for i in range(arity)]


def _atom(name: str, arity: int, moment: bool = False) -> ast.AST:
    """An atom of a predicate over fresh variables, with the moment last where asked."""
    return _term(name, [*_fresh(arity), *([_term(MOMENT)] if moment else [])])


def _literal(atom: ast.AST) -> ast.AST:
    return ast.Literal(_HERE, ast.Sign.NoSign, ast.SymbolicAtom(atom))


def _rule(head: ast.AST, *body: ast.AST) -> ast.AST:
    """A rule `head :- body.` of atoms."""
    return ast.Rule(_HERE, _literal(head), [_literal(b) for b in body])


def _part(name: str) -> ast.AST:
    """The #program statement of a part over moments."""
    return ast.Program(_HERE, name, [ast.Id(_HERE, MOMENT)])


def _shown(name: str, arity: int) -> ast.AST:
    """`#show p(X0, ...) : p(X0, ..., t).`: an atom of the closure shown without its moment."""
    return ast.ShowTerm(_HERE, _atom(name, arity), [_literal(_atom(name, arity, moment=True))])


def bridges(fluents: frozenset[Signature], question_inputs: set[Signature], kind_parts: dict[str, list[str]],
            always: list[str]) -> tuple[list[ast.AST], list[ast.AST]]:
    """What joins the rewritten program to the input and to the moments: in base, the input fluents as the state
    at moment 0 (next/2); the parts `parts`, `moment` and `ask` (a fluent at moment t read from next/2, a question's
    inputs at the moment it is asked at, q_at/2: their first argument is the question, and which parts a question
    asked at a moment fires)."""
    t = _term(MOMENT)
    zero = ast.SymbolicTerm(_HERE, Number(0))
    question, any_question = ast.Variable(_HERE, "Q"), ast.Variable(_HERE, "_Q")
    base = [ast.Program(_HERE, "base", []), ast.ShowSignature(_HERE, "", 0, True),
            ast.Defined(_HERE, "q_at", 2, True), *(ast.Defined(_HERE, n, a, True) for n, a in sorted(fluents)),
            *(_rule(_term("next", [_atom(n, a), zero]), _atom(n, a)) for n, a in sorted(fluents))]
    fired = [_rule(_term("step_part", [t, _term(part)]), _term("q_at", [any_question, t])) for part in [ASK, *always]]
    fired += [_rule(_term("step_part", [t, _term(part)]), _term("q_at", [question, t]),
                    _term("question", [question, _term(kind)]))
              for kind, parts in sorted(kind_parts.items()) for part in parts]
    moment = [_rule(_atom(n, a, moment=True), _term("next", [_atom(n, a), t])) for n, a in sorted(fluents)]
    ask = [_rule(_atom(n, a, moment=True), _atom(n, a), _term("q_at", [_fresh(1)[0], t]))
           for n, a in sorted(question_inputs) if a]
    return [*base, _part(stepwise.PARTS), *fired, _part(stepwise.MOMENT), *moment], ask


def rewrite(statements: Sequence[ast.AST], fluents: frozenset[Signature], inputs: set[str], moment_files: set[str],
            kind_files: dict[str, list[str]], always_files: list[str], outputs: frozenset[Signature] = frozenset()
            ) -> tuple[list[ast.AST], dict[str, list[ast.AST]]]:
    """A static program over moments, as stepwise.split gives a program written over moments: base and the fixed
    parts, and each part a moment may fire (its #program statement first). `moment_files` are the files whose rules
    may be grounded at every moment, `kind_files` the files each question kind needs, `always_files` those every
    question needs (file paths as the statements' locations name them). `outputs` are predicates the step rules
    derive at a moment that no static rule derives from the fluents (a value a question asks after a step): they
    are put over moments too, so that a static rule reading them reads them at its own moment only."""
    statements = [s for s in statements if s.ast_type != ast.ASTType.Program]
    shapes = analyse(statements)
    files = [s.location.begin.filename for s in statements]
    start = seeds(shapes, fluents, inputs) | set(outputs)
    temporal = closure(shapes, start)
    derived_inputs = {p for p in temporal - start if p[0] in inputs}
    if derived_inputs:
        raise ValueError(f"rules derive input predicates from the state's fluents: {sorted(derived_inputs)}")
    in_moment = moment_predicates(shapes, files, temporal, fluents, moment_files)
    add = _AddMoment(temporal)
    location = statements[0].location
    fixed: list[ast.AST] = [ast.Program(location, "base", [])]
    moment: list[ast.AST] = []
    parts: dict[str, list[ast.AST]] = {ASK: []}
    for statement, shape, file in zip(statements, shapes, files, strict=True):
        kind = statement.ast_type
        if kind == ast.ASTType.ShowSignature and (statement.name, statement.arity) in temporal:
            parts[ASK].append(_shown(statement.name, statement.arity))
        elif kind == ast.ASTType.ShowTerm and shape.mentions & temporal:
            parts[ASK].append(add(statement))
        elif kind == ast.ASTType.Defined and (statement.name, statement.arity) in temporal:
            fixed.append(statement)
            fixed.append(statement.update(arity=statement.arity + 1))
        elif kind == ast.ASTType.External and shape.mentions & temporal:
            raise ValueError(f"an #external over the state's fluents cannot be put over moments: {statement}")
        elif kind == ast.ASTType.Rule and shape.mentions & temporal:
            if shape.defines and shape.defines <= in_moment:
                moment.append(add(statement))
            else:
                parts.setdefault(ask_part(file), []).append(add(statement))
        else:
            fixed.append(statement)
    question_inputs = {p for p in start if p not in fluents and p not in outputs}
    kind_parts = {kind: sorted({ask_part(f) for f in names} & set(parts)) for kind, names in kind_files.items()}
    always = sorted({ask_part(f) for f in always_files} & set(parts))
    joined, ask = bridges(fluents, question_inputs, kind_parts, always)
    by_part = {name: [_part(name), *body] for name, body in parts.items()}
    by_part[ASK] = [*by_part[ASK], *ask]
    fixed_parts = [*fixed, *joined, _part(stepwise.MOMENT), *moment]
    return fixed_parts, by_part


def rewritten_program(game: str, kinds: frozenset[str]) -> tuple[list[ast.AST], dict[str, list[ast.AST]]]:
    """A game's static encodings for these question kinds (pyengine.core.engine.program) rewritten over moments,
    without its step rules: the moment 0 of a scenario answers as the static encodings do."""
    from pyengine.core import engine  # the engine asks for this program: imported when it is first built

    module = one_game(game)
    rules = Path(rules_dir(), game)
    kind_files = {kind: [str(rules / name) for name in module.kind_files[kind]] for kind in kinds}
    always = [str(path) for path in engine.program_files(game, kinds) if path.parent.name == "common" or
              (path.parent == rules and path.name in module.base_files)]
    return rewrite(engine.program(game, kinds), module.fluents, module.input_predicates,
                   {str(rules / name) for name in module.moment_files}, kind_files, always, module.moment_outputs)


def moment_program(game: str, kinds: frozenset[str]) -> tuple[list[ast.AST], dict[str, list[ast.AST]]]:
    """A game's static encodings for these question kinds and those its step rules read, rewritten over moments,
    and its step rules (rules/<game>/steps/), as stepwise.split gives a program written over moments."""
    module = one_game(game)
    fixed, by_part = rewritten_program(game, kinds | module.step_kinds)
    steps: list[ast.AST] = []
    for name in module.step_files:
        ast.parse_files([str(Path(rules_dir(), game, "steps", name))], steps.append)
    step_fixed, step_parts = stepwise.split(steps)
    for name, statements in step_parts.items():
        by_part[name] = [*by_part.get(name, []), *statements]
    return [*fixed, *step_fixed], by_part
