"""Grounds an encoding written over moments one moment at a time (a game whose Game.timeline is set; its state.lp
lists its parts). Grounded so, everything before a moment is a fact when the moment's steps are grounded: a
scenario of any length grounds to facts only, in time and size linear in its number of actions, and a solve
makes no choices. A step grounds only the parts its action can fire (step_part/2, derived in the part `parts`),
and a Control holds only the step parts some moment fires. A search over states (edge cases, flips) grounds
every part in one call instead, so that its choices reach every moment (`parts`). No verdict is decided here.

What a ground call costs (measured for issue 23, benchmarks/README.md): a fixed part for every rule head the
Control has grounded before, and for every body literal with an anonymous variable in all the rules it holds
(the rules over moments have none: a test sees to it); 0.35 ms a call at the end of a 150-action game. So a moment
has as few calls as it can. And a call that derives a predicate from itself (the state at t+1 from the state at t)
indexes every earlier moment's atoms of it, so no call does: the part advance writes the state after a step as
next/2, which the part moment reads in the next call. Two calls a moment are the fewest: in one, the moment's
state would be derived from itself, and the steps' refusals from who has won at the moment, which reads the
step before it (a cycle through negation: nothing would be a fact)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import clingo
from clingo import ast

# The parts that are not a step's: which step parts a moment's steps fire, what the state at moment t shows, the
# state after step t, and the answers.
PARTS = "parts"
MOMENT = "moment"
ADVANCE = "advance"
ANSWERS = "answers"
FIXED = {"base", PARTS, MOMENT, ADVANCE, ANSWERS}


def steps(control: clingo.Control) -> int:
    """The number of actions of the scenario grounded in `control`'s base part (its last_step/1 fact)."""
    found = [a.symbol.arguments[0].number for a in control.symbolic_atoms.by_signature("last_step", 1)]
    return max(found, default=0)


def split(statements: Sequence[ast.AST]) -> tuple[list[ast.AST], dict[str, list[ast.AST]]]:
    """The statements of base and of the fixed parts; and those of each step part, its #program statement first.
    A scenario's Control is given the first at once and a step part only when some moment fires it (`ground`),
    which spares a short scenario adding the ~550 statements of step parts it never grounds."""
    fixed: list[ast.AST] = []
    by_part: dict[str, list[ast.AST]] = {}
    target = fixed
    for statement in statements:
        if statement.ast_type == ast.ASTType.Program:
            target = fixed if statement.name in FIXED or statement.name == "base" else \
                by_part.setdefault(statement.name, [])
        target.append(statement)
    return fixed, by_part


def step_part_names(statements: Sequence[ast.AST]) -> list[str]:
    """The names of the step parts of a program: every part but base and the fixed ones above."""
    return sorted({s.name for s in statements if s.ast_type == ast.ASTType.Program} - FIXED)


def step_parts(control: clingo.Control) -> dict[int, list[str]]:
    """For each moment, the parts its steps fire, as the part `parts` derived them (step_part/2), read once."""
    found: dict[int, set[str]] = {}
    for atom in control.symbolic_atoms.by_signature("step_part", 2):
        moment, part = atom.symbol.arguments
        found.setdefault(moment.number, set()).add(part.name)
    return {moment: sorted(names) for moment, names in found.items()}


def parts(count: int, step_names: list[str]) -> list[tuple[str, list[clingo.Symbol]]]:
    """Every part of a scenario of `count` actions after base, every step part at every moment, in the order
    they depend on each other; then the answers."""
    out: list[tuple[str, list[clingo.Symbol]]] = []
    for moment in range(count + 1):
        number = [clingo.Number(moment)]
        out += [(PARTS, number), (MOMENT, number), *((name, number) for name in step_names)]
        if moment < count:
            out.append((ADVANCE, number))
    return [*out, (ANSWERS, [])]


def ground(control: clingo.Control, add_parts: Callable[[list[str]], None] | None = None,
           answers: bool = True, start: int = 0) -> None:
    """Ground base and, in one call, which parts the steps of every moment from `start` fire (`add_parts`, where
    given, adds those parts' rules to the Control then: see `split`); then moment by moment, in two calls: the
    state at the moment, and then the parts its steps fire with the state after its step; then the answers (unless
    `answers` is False: a random playout reads only the plays open at the last moment). From a `start` after 0,
    base holds the state at that moment as next/2 facts (pyengine.core.moment_states) and no earlier moment is
    grounded."""
    control.ground([("base", [])])
    count = steps(control)
    control.ground([(PARTS, [clingo.Number(moment)]) for moment in range(start, count + 1)])
    fired = step_parts(control)
    if add_parts is not None:
        add_parts(sorted(set().union(*fired.values())))
    for moment in range(start, count + 1):
        number = [clingo.Number(moment)]
        control.ground([(MOMENT, number)])
        steps_and_after = [(name, number) for name in fired.get(moment, [])]
        if moment < count:
            steps_and_after.append((ADVANCE, number))
        if steps_and_after:
            control.ground(steps_and_after)
    if answers:
        control.ground([(ANSWERS, [])])


def state_at(control: clingo.Control, moment: int) -> list[clingo.Symbol] | None:
    """The state at a moment after the start as the step before it left it (the first arguments of its next/2
    atoms), or None where one of them is not a fact (reading choices left open)."""
    number = clingo.Number(moment)
    found = [atom for atom in control.symbolic_atoms.by_signature("next", 2) if atom.symbol.arguments[1] == number]
    if not found or not all(atom.is_fact for atom in found):
        return None
    return [atom.symbol.arguments[0] for atom in found]


def main(arguments: list[str] | None = None) -> int:
    """`python -m pyengine.core.stepwise [CLINGO OPTIONS] FILE...`: clingo's own command line with the Python
    scripts of encodings enabled, so that a game's rules/<game>/main.lp drives the grounding as pyengine does."""
    import sys

    import clingo.script
    from clingo.application import Application, clingo_main

    class Clingo(Application):
        program_name = "clingo"

    clingo.script.enable_python()
    return clingo_main(Clingo(), sys.argv[1:] if arguments is None else arguments)


if __name__ == "__main__":
    raise SystemExit(main())
