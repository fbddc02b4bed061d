"""Bounds on the work one command may do, so that a state or search too large to answer quickly is refused
or stopped with a clear message instead of hanging. The command line sets them (--max-instances, --timeout)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pyengine.core.errors import BoundError

if TYPE_CHECKING:
    import clingo


@dataclass
class Limits:
    """The bounds of one run; README's robustness section states them and what happens past each."""

    max_instances: int = 2000
    solve_seconds: float = 30.0
    memory_mb: int = 1024
    max_questions: int = 2000
    max_cards: int = 2000
    # The largest reply a server's worker sends back (JSON text, bytes).
    max_reply_bytes: int = 8_000_000
    # Whether a run of one unit of work may do it in this process, bounded there (pyengine.run.runner.run_here):
    # the command line sets it, as its process ends with the command; a program using the API keeps its own
    # process's limits untouched and its units in workers.
    one_unit_here: bool = False


# The longest --timeout accepted, and the largest memory ceiling (MB).
MAX_SECONDS = 86_400.0
MAX_MEMORY_MB = 65_536
# The edge-case search's largest state (cards); larger ones need more memory than any ceiling allows.
MAX_SEARCH_CARDS = 8
# Commands whose whole run is one unit of work, and their default time (seconds) when --timeout is not given.
LONG_COMMANDS = {"edge-cases": 600.0, "consistency": 600.0, "import": 600.0, "census": 1800.0, "conformance": 600.0}


def processors() -> int:
    """The processors this process may run on: the most worker processes a run of files starts (--jobs)."""
    import os

    return len(os.sched_getaffinity(0))


DEFAULT_LIMITS = Limits()
limits = Limits()


class LimitError(BoundError):
    """A time limit was reached (exit 3), reported with the option that raises it."""

    def __init__(self, message: str):
        super().__init__(message, expected="a smaller state, or a higher limit")


# How often a long solve reports that it is still going (bounded_solve's `tick`).
TICK_SECONDS = 0.25


def bounded_solve(control: clingo.Control, what: str, seconds: float | None = None,
                  assumptions: list[tuple[clingo.Symbol, bool]] | None = None,
                  tick: Callable[[], None] | None = None) -> tuple[bool, list[clingo.Symbol]]:
    """Solve within the time limit (under `assumptions`, atoms taken true or false for this solve only):
    whether a model exists, and the shown atoms of the last (best) one; `tick` is called every TICK_SECONDS
    while it runs. Raises LimitError, naming `what` was stopped, when the limit runs out."""
    last: list[clingo.Symbol] = []
    limit = limits.solve_seconds if seconds is None else seconds
    deadline = time.monotonic() + limit

    def on_model(model: clingo.Model) -> None:
        last[:] = model.symbols(shown=True)

    with control.solve(assumptions=assumptions or [], on_model=on_model, async_=True) as handle:
        # A wait may come back early (a signal): only the deadline itself stops the solve.
        while not handle.wait(min(TICK_SECONDS if tick else limit, max(0.0, deadline - time.monotonic()))):
            if time.monotonic() >= deadline:
                handle.cancel()
                raise LimitError(f"{what} stopped after {limit:g} s; the limit is set by --timeout")
            if tick:
                tick()
        return bool(handle.get().satisfiable), last
