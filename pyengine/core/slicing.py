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

from collections.abc import Iterable

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


def applicable(statements: tuple[ast.AST, ...], inputs: frozenset[Signature]) -> tuple[ast.AST, ...]:
    """The statements without the rules that facts of the `inputs` predicates can never apply, and without comments:
    a predicate can hold an atom when facts give it, an #external declares it, or a rule derives it whose needed
    predicates can hold atoms (to a fixpoint); a rule needing a predicate that cannot is left out."""
    rules = [(s, defined(s.head), _required(s.body)) for s in statements if s.ast_type == ast.ASTType.Rule]
    possible = set(inputs).union(*(signatures(s.atom) for s in statements if s.ast_type == ast.ASTType.External))
    changed = True
    while changed:
        changed = False
        for _, heads, needed in rules:
            if needed <= possible and not heads <= possible:
                possible |= heads
                changed = True
    never = {id(s) for s, _, needed in rules if not needed <= possible}
    return tuple(s for s in statements if id(s) not in never and s.ast_type != ast.ASTType.Comment)


def mentioned(statements: Iterable[ast.AST]) -> frozenset[Signature] | None:
    """The predicates the statements mention anywhere (a rule, a condition, a #show): a fact of any other predicate
    changes neither what is derived nor what is shown. None when no statement says what to show (then clingo shows
    every atom, each fact's too)."""
    statements = list(statements)
    shown = {(s.name, s.arity) for s in statements if s.ast_type == ast.ASTType.ShowSignature}
    if not shown and not any(s.ast_type == ast.ASTType.ShowTerm for s in statements):
        return None
    return frozenset(atoms_below(statements) | shown)
