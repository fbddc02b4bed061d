"""The figures of clingo's solves: those `check --stats` shows of one solve (SOLVE_STATISTICS), and every solve's
figures recorded while a caller asks for them (recorded_solves), so that the tests read what the very Controls
that answered a file cost."""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import clingo


def figures(control: clingo.Control) -> dict[str, int]:
    """clingo's figures of a Control's last solve (SOLVE_STATISTICS)."""
    found = control.statistics
    return {name: int(found[part][group][key]) for name, (part, group, key) in SOLVE_STATISTICS.items()}


# The figures of every solve made while a caller records them (recorded_solves), else None.
_RECORDING: ContextVar[list[dict[str, int]] | None] = ContextVar("recorded_solves", default=None)
# A number for each Control a recorded solve used, while it lives: solves of one grounding share it (an id() may be
# reused by the next Control once the first is freed).
_GROUNDINGS: weakref.WeakKeyDictionary[clingo.Control, int] = weakref.WeakKeyDictionary()
_NUMBERS = itertools.count(1)
# The moment each Control of a game over moments was grounded from (0: the start; later: a kept state).
_STARTS: weakref.WeakKeyDictionary[clingo.Control, int] = weakref.WeakKeyDictionary()


def note_start(control: clingo.Control, moment: int) -> None:
    """The moment a Control of a game over moments was grounded from, for the figures of its solves."""
    _STARTS[control] = moment


@contextmanager
def recorded_solves() -> Iterator[list[dict[str, int]]]:
    """Within the block, each solve this thread makes appends its figures to the list yielded: clingo's
    (SOLVE_STATISTICS), `undecided_atoms` (ground atoms that are not facts), `readings_open` (1 when the
    grounding left the reading choices open, as externals, which are not facts), `grounding` (the same number
    for the solves of one Control) and `from_moment` (in a game over moments, the moment its grounding started
    from: 0, or that of a kept state). The tests read what the very Controls that answered a file cost, instead of
    grounding it again."""
    found: list[dict[str, int]] = []
    token = _RECORDING.set(found)
    try:
        yield found
    finally:
        _RECORDING.reset(token)


def record_solve(control: clingo.Control, readings_open: bool) -> None:
    """A solve's figures, when a caller records them (recorded_solves)."""
    found = _RECORDING.get()
    if found is not None:
        undecided = sum(1 for atom in control.symbolic_atoms if not atom.is_fact)
        grounding = _GROUNDINGS.setdefault(control, next(_NUMBERS))
        found.append({**figures(control), "undecided_atoms": undecided, "readings_open": int(readings_open),
                      "grounding": grounding, "from_moment": _STARTS.get(control, 0)})


# clingo's figures of a solve that `check --stats` shows, by name: where each sits in Control.statistics.
SOLVE_STATISTICS = {"ground_atoms": ("problem", "lp", "atoms"), "rules": ("problem", "lp", "rules"),
                    "choices": ("solving", "solvers", "choices"), "conflicts": ("solving", "solvers", "conflicts")}
