"""Bounds on the work one command may do, so that a state or search too large to answer quickly is refused
or stopped with a clear message instead of hanging. The command line sets them (--max-instances, --timeout)."""

from __future__ import annotations

from dataclasses import dataclass

import clingo

from pyengine.errors import InputError


@dataclass
class Limits:
    max_instances: int = 2000
    solve_seconds: float = 30.0


DEFAULT_LIMITS = Limits()
limits = Limits()


class LimitError(InputError):
    """A limit was reached; reported like bad input (exit 2), with the option that raises the limit."""

    def __init__(self, message: str):
        super().__init__(message, expected="a smaller state, or a higher limit")


def bounded_solve(control: clingo.Control, what: str, seconds: float | None = None) -> tuple[bool, list[clingo.Symbol]]:
    """Solve within the time limit: whether a model exists, and the shown atoms of the last (best) one.
    Raises LimitError, naming `what` was stopped, when the limit runs out."""
    last: list[clingo.Symbol] = []
    limit = limits.solve_seconds if seconds is None else seconds

    def on_model(model: clingo.Model) -> None:
        last[:] = model.symbols(shown=True)

    with control.solve(on_model=on_model, async_=True) as handle:
        if not handle.wait(limit):
            handle.cancel()
            raise LimitError(f"{what} stopped after {limit:g} s; the limit is set by --timeout")
        return bool(handle.get().satisfiable), last
