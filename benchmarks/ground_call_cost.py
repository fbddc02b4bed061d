"""What one ground call of a part costs for each statement the part holds, whether or not anything matches it
(issue 46: why a Duel game on its real cards grounds 3-5 times slower than on abstract cards). A part of
`--rules` statements of one shape, grounded for one moment per call over `--calls` calls, and for ten moments per
call; then, for the Duel, the statements and aggregates of every part and how many times a real playout's file
grounds each (the sum of statements over calls is what a game pays).

    python benchmarks/ground_call_cost.py [--rules 200] [--calls 30] [--playout FILE]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import clingo
from clingo import ast

# Statement shapes, each written for a rule number i over the part's parameter t; none matches anything but at/2.
SHAPES = {
    "a fact": "x{i}(t).",
    "a rule whose body fails": "x{i}(T) :- at(T, t), never{i}(T, X).",
    "a #count aggregate": "x{i}(T, N) :- at(T, t), N = #count {{ X: never{i}(T, X) }}.",
    "a #min aggregate": "x{i}(T, N) :- at(T, t), N = #min {{ 3; X: never{i}(T, X) }}.",
}


def per_call(shape: str, rules: int, calls: int, moments_a_call: int) -> float:
    """The mean milliseconds of a ground call of a part of `rules` statements of this shape, each call grounding
    the part for `moments_a_call` moments."""
    control = clingo.Control(["--warn=none"])
    control.add("p", ["t"], "at(t, t).\n" + "\n".join(shape.format(i=i) for i in range(rules)))
    control.ground([("base", [])])
    started = time.perf_counter()
    for call in range(calls):
        control.ground([("p", [clingo.Number(call * moments_a_call + k)]) for k in range(moments_a_call)])
    return (time.perf_counter() - started) / calls * 1000


def duel_parts(playout: Path | None) -> None:
    """Each Duel part's statements and aggregates; with a playout file, how many calls ground each part in its
    answer, and the statements they hold together."""
    from pyengine import api
    from pyengine.core import engine

    fixed, by_part = engine.timeline_program("dfm", frozenset({"plays"}))
    parts: dict[str, list[ast.AST]] = {name: statements[1:] for name, statements in by_part.items()}
    name = "base"
    for statement in fixed:
        if statement.ast_type == ast.ASTType.Program:
            name = statement.name
        else:
            parts.setdefault(name, []).append(statement)
    aggregates = {name: sum(1 for s in statements if any(f"#{a}" in str(s) for a in ("count", "sum", "min", "max")))
                  for name, statements in parts.items()}
    calls: Counter[str] = Counter()
    if playout is not None:
        original = clingo.Control.ground

        def counted(control: clingo.Control, wanted: list[tuple[str, list[clingo.Symbol]]], *args: object) -> None:
            original(control, wanted, *args)  # type: ignore[arg-type]
            calls.update({part for part, _ in wanted})

        clingo.Control.ground = counted  # type: ignore[method-assign]
        try:
            api.answer(playout)
        finally:
            clingo.Control.ground = original  # type: ignore[method-assign]
    print(f"{'part':14s} {'statements':>10s} {'aggregates':>10s} {'calls':>6s} {'statements x calls':>18s}")
    for name in sorted(parts, key=lambda n: -len(parts[n]) * max(calls[n], 1)):
        print(f"{name:14s} {len(parts[name]):10d} {aggregates[name]:10d} {calls[name]:6d} "
              f"{len(parts[name]) * calls[name]:18d}")
    if calls:
        print(f"statements over every call: {sum(len(parts[n]) * calls[n] for n in parts)}")


def main() -> int:
    parser = argparse.ArgumentParser(description="what a ground call costs for each statement of its part")
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--playout", type=Path, help="a Duel playout file to count the ground calls of")
    args = parser.parse_args()
    for label, shape in SHAPES.items():
        one = per_call(shape, args.rules, args.calls, 1)
        ten = per_call(shape, args.rules, args.calls, 10)
        print(f"{label:26s} {one / args.rules * 1000:7.1f} us a statement a call (one moment a call); "
              f"{ten / args.rules / 10 * 1000:6.1f} us a statement a moment (ten a call)")
    duel_parts(args.playout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
