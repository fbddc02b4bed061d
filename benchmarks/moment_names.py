"""Why a moment's ground call slowed down as moments accumulated, and what the Duel does instead (issue 23): a
chain of `--steps` moments, each copying `--width` atoms to the next, grounded a moment at a time

  - as the Duel was: the state at t+1 derived from the state at t in the call that also reads what moment t
    shows, so the call derives the state from itself and the grounder indexes every earlier moment's atoms;
  - as it is (rules/dfm/state.lp, pyengine/stepwise.py): the step writes the state after it as next/2, and the
    next moment's call reads next/2 into the state, so no call derives a predicate from itself.

A third figure is the cost the grounder adds to every call for each body literal with an anonymous variable
held by the Control (`--anonymous` such rules, never grounded): the Duel's rules name theirs (`_P`).
Prints the mean ground call of the first and the last 20 moments of each.

    python benchmarks/moment_names.py [--steps 300] [--width 120] [--anonymous 300]
"""

from __future__ import annotations

import argparse
import time

import clingo

PARTS = {
    "one call deriving the state from itself": (
        "s(X, t + 1) :- s(X, t), not e(X, t).", "e(X, t) :- s(X, t), X = t \\ 997.", True),
    "next/2 written by the step, read in the next call": (
        "next(X, t + 1) :- s(X, t), not e(X, t).", "s(X, t) :- next(X, t). e(X, t) :- s(X, t), X = t \\ 997.", False),
}


def chain(advance: str, moment: str, together: bool, steps: int, width: int, held: str = "") -> tuple[float, float]:
    """The mean time (ms) of a moment's ground calls over the first and over the last 20 moments."""
    control = clingo.Control(["--warn=none"])
    control.add("base", [], f"s(1..{width}, 0). {held}")
    control.add("advance", ["t"], advance)
    control.add("moment", ["t"], moment)
    control.ground([("base", []), ("moment", [clingo.Number(0)])])
    calls = []
    for t in range(steps):
        parts = [("advance", [clingo.Number(t)]), ("moment", [clingo.Number(t + 1)])]
        started = time.perf_counter()
        for group in ([parts] if together else [[p] for p in parts]):
            control.ground(group)
        calls.append(time.perf_counter() - started)
    return sum(calls[:20]) / 20 * 1000, sum(calls[-20:]) / 20 * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--width", type=int, default=120)
    parser.add_argument("--anonymous", type=int, default=300)
    args = parser.parse_args()
    for label, (advance, moment, together) in PARTS.items():
        first, last = chain(advance, moment, together, args.steps, args.width)
        print(f"{label}: first 20 moments {first:.3f} ms a moment, last 20 {last:.3f} ms")
    advance, moment, _ = PARTS["next/2 written by the step, read in the next call"]
    held = "#program held(t). " + " ".join(f"f{i}(X, t) :- g(X, t), h{i}(X, _, t)." for i in range(args.anonymous))
    first, last = chain(advance, moment, False, args.steps, args.width, held)
    print(f"the same, beside {args.anonymous} held rules with an anonymous variable: first 20 moments {first:.3f} ms "
          f"a moment, last 20 {last:.3f} ms")


if __name__ == "__main__":
    main()
