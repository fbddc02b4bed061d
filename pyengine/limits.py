"""Bounds on the work one command may do, so that a state or search too large to answer quickly is refused
or stopped with a clear message instead of hanging. The command line sets them (--max-instances, --timeout)."""

from __future__ import annotations

from dataclasses import dataclass

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
