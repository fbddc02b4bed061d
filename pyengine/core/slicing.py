"""Which predicates the statements of an encoding mention and define, and the rules that facts of given predicates
can ever apply (a program slice).

clingo's grounder pays about 20 microseconds for every rule of a program, whether or not any atom matches its body
(benchmarks/README.md): most of a new small state's grounding. A rule with a positive body literal over a predicate
that no fact gives and no applicable rule derives can never apply, so leaving it out changes no stable model; the
slice leaves out exactly those rules (the `via` rules of a state that plays nothing through a card, the turn rules of
a state with no turn). Nothing is decided here: the slice is computed from the program's text and the predicates of
the facts alone, and the test suite compares every scenario file's answers with those of a table, which grounds the
whole program.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from clingo import ast

Signature = tuple[str, int]


class _Atoms(ast.Transformer):
    """Collects the signatures of the symbolic atoms below a node."""

    def __init__(self) -> None:
        self.found: set[Signature] = set()

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:
        self.found.update(signatures(node))
        return node


def functions(atom: ast.AST) -> list[ast.AST]:
    """The function terms of a symbolic atom (several for a pool such as p(X;Y))."""
    symbol = atom.symbol
    if symbol.ast_type == ast.ASTType.Pool:
        return list(symbol.arguments)
    return [symbol]


def signatures(atom: ast.AST) -> set[Signature]:
    """The predicates of a symbolic atom (a ValueError for an atom that is not a function term)."""
    found = set()
    for function in functions(atom):
        if function.ast_type != ast.ASTType.Function:
            raise ValueError(f"cannot read the predicate of the atom {atom} (line {atom.symbol.location.begin.line})")
        found.add((function.name, len(function.arguments)))
    return found


def atoms_below(nodes: Iterable[ast.AST]) -> set[Signature]:
    """The predicates of every symbolic atom below these nodes."""
    collector = _Atoms()
    for node in nodes:
        collector(node)
    return collector.found


def defined(head: ast.AST) -> set[Signature]:
    """The signatures a rule head defines (a choice's or a disjunction's conditions define nothing)."""
    if head.ast_type == ast.ASTType.Literal:
        return signatures(head.atom) if head.atom.ast_type == ast.ASTType.SymbolicAtom else set()
    if head.ast_type in (ast.ASTType.Aggregate, ast.ASTType.Disjunction):
        return atoms_below(element.literal for element in head.elements)
    raise ValueError(f"cannot read what the rule head {head} defines")


def _required(body: list[ast.AST]) -> set[Signature]:
    """The predicates a rule body needs an atom of: those of its plain positive literals (a pool's alternatives, a
    literal under `not`, in an aggregate or in a condition need none)."""
    return {(b.atom.symbol.name, len(b.atom.symbol.arguments)) for b in body
            if b.ast_type == ast.ASTType.Literal and b.sign == ast.Sign.NoSign
            and b.atom.ast_type == ast.ASTType.SymbolicAtom and b.atom.symbol.ast_type == ast.ASTType.Function}


@dataclass(frozen=True)
class Shape:
    """What the slice needs to know of one statement: its kind (rule, external, show, comment or other), the
    predicates it defines (a rule's head, an external's atom), those it needs an atom of (a rule's plain positive
    body literals) and every predicate it mentions (a #show's own included)."""

    kind: str
    defines: frozenset[Signature] = frozenset()
    needs: frozenset[Signature] = frozenset()
    mentions: frozenset[Signature] = frozenset()


def analyse(statements: Iterable[ast.AST]) -> tuple[Shape, ...]:
    """Each statement's shape (reading a statement's parts from clingo costs about 0.1 ms a rule, so a program's
    shapes are worked out once and kept: pyengine.core.engine.program_shapes)."""
    found = []
    for s in statements:
        kind = s.ast_type
        if kind == ast.ASTType.Rule:
            found.append(Shape("rule", frozenset(defined(s.head)), frozenset(_required(s.body)),
                               frozenset(atoms_below([s]))))
        elif kind == ast.ASTType.External:
            found.append(Shape("external", frozenset(signatures(s.atom)), frozenset(), frozenset(atoms_below([s]))))
        elif kind == ast.ASTType.ShowSignature:
            found.append(Shape("show", mentions=frozenset({(s.name, s.arity)})))
        elif kind == ast.ASTType.ShowTerm:
            found.append(Shape("show", mentions=frozenset(atoms_below([s]))))
        elif kind == ast.ASTType.Comment:
            found.append(Shape("comment"))
        else:
            found.append(Shape("other", mentions=frozenset(atoms_below([s]))))
    return tuple(found)


def shapes_to_json(shapes: tuple[Shape, ...]) -> str:
    return json.dumps([[s.kind, sorted(s.defines), sorted(s.needs), sorted(s.mentions)] for s in shapes])


def shapes_from_json(text: str) -> tuple[Shape, ...]:
    def signatures_of(items: list[list[object]]) -> frozenset[Signature]:
        if not all(isinstance(n, str) and isinstance(a, int) for n, a in items):
            raise ValueError("a predicate is a name and an arity")
        return frozenset((n, a) for n, a in items)  # type: ignore[misc]

    return tuple(Shape(kind, signatures_of(defines), signatures_of(needs), signatures_of(mentions))
                 for kind, defines, needs, mentions in json.loads(text))


def kept(shapes: tuple[Shape, ...], inputs: frozenset[Signature]) -> tuple[int, ...]:
    """The positions of the statements the slice keeps: all but comments and the rules that facts of the `inputs`
    predicates can never apply. A predicate can hold an atom when facts give it, an #external declares it, or a
    rule derives it whose needed predicates can hold atoms (to a fixpoint); a rule needing a predicate that cannot
    is left out."""
    rules = [s for s in shapes if s.kind == "rule"]
    possible = set(inputs).union(*(s.defines for s in shapes if s.kind == "external"))
    changed = True
    while changed:
        changed = False
        for rule in rules:
            if rule.needs <= possible and not rule.defines <= possible:
                possible |= rule.defines
                changed = True
    return tuple(i for i, s in enumerate(shapes)
                 if s.kind != "comment" and (s.kind != "rule" or s.needs <= possible))


def mentioned(shapes: Iterable[Shape]) -> frozenset[Signature] | None:
    """The predicates these statements mention anywhere (a rule, a condition, a #show): a fact of any other
    predicate changes neither what is derived nor what is shown. None when no statement says what to show (then
    clingo shows every atom, each fact's too)."""
    shapes = list(shapes)
    if not any(s.kind == "show" for s in shapes):
        return None
    return frozenset().union(*(s.mentions for s in shapes))
