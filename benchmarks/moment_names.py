"""Why a part grounded for each new moment slows down as moments accumulate, and what predicate names per moment
would save (issue 23's next step): a chain of `--steps` moments, each copying `--width` atoms to the next,
grounded one moment a call, once with one predicate over all moments (as rules/dfm/state.lp writes the state)
and once with a predicate per moment plus one bridge rule to the generic predicate. Prints the mean ground call
of the first and the last 20 moments of each.

    python benchmarks/moment_names.py [--steps 300] [--width 120]
"""

from __future__ import annotations

import argparse
import time

import clingo


def chain(per_moment: bool, steps: int, width: int) -> tuple[float, float]:
    """The mean ground call (ms) of the first and of the last 20 moments."""
    control = clingo.Control(["--warn=none"])
    control.add("base", [], f"s(1..{width}, 0). s0(X) :- s(X, 0).")
    control.add("generic", ["t"], "s(X, t + 1) :- s(X, t), not e(X, t). e(X, t) :- s(X, t), X = t \\ 997.")
    control.ground([("base", [])])
    calls = []
    for t in range(steps):
        if per_moment:
            control.add(f"m{t}", [], f"s{t + 1}(X) :- s{t}(X), not e{t}(X). e{t}(X) :- s{t}(X), X = {t} \\ 997. "
                                     f"s(X, {t + 1}) :- s{t + 1}(X).")
            part = (f"m{t}", [])
        else:
            part = ("generic", [clingo.Number(t)])
        started = time.perf_counter()
        control.ground([part])
        calls.append(time.perf_counter() - started)
    return sum(calls[:20]) / 20 * 1000, sum(calls[-20:]) / 20 * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--width", type=int, default=120)
    args = parser.parse_args()
    for label, per_moment in (("one predicate over all moments", False), ("a predicate per moment", True)):
        first, last = chain(per_moment, args.steps, args.width)
        print(f"{label}: first 20 moments {first:.3f} ms a call, last 20 {last:.3f} ms a call")


if __name__ == "__main__":
    main()
