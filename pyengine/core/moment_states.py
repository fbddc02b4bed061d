"""The state of a game over moments after some of its actions, kept in the process for the next question on the
same game, so that the question grounds only the moments after it: a game followed action by action (the
explorer, an engine asking which plays are open after each move) asks `plays` after every action, and each question
would otherwise ground every moment from the start again (benchmarks/README.md, issue 46: 1.1 s after 67 actions
of a real-card game, 0.2 s from the state kept at its moment).

A state is the next/2 atoms of a moment: everything a later moment reads of the earlier ones (a game's state.lp
carries its fluents and what the steps before rested on through next/2 alone), kept only where every one of them
is a fact. It serves only questions whose answers read nothing before the last moment (`plays` and
`outcomes`: Game LISTING_KINDS), and is keyed by everything that made it: the game, the question kinds (which
encodings were grounded), and every fact but `last_step/1` and the action facts (act/3, choice/3) of the steps
from that moment on; the reading choices are facts among them. A state is never written to disk; at most KEPT are
kept, the least recently used dropped first."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

import clingo

from pyengine.core.asp import Fact, fact

# How many states a process keeps (each some 150-600 facts of about 60 bytes).
KEPT = 64
# The facts of one step: their first argument is the step's number.
STEP_PREDICATES = frozenset({"act", "choice"})

_states: OrderedDict[str, tuple[Fact, ...]] = OrderedDict()
_lock = threading.Lock()


def _step(found: Fact) -> int | None:
    """The step a fact belongs to, or None for a fact of the whole scenario."""
    if found.name not in STEP_PREDICATES or not found.arity:
        return None
    first = found.arguments.split(",", 1)[0]
    return int(first) if first.isdigit() else None


def keys(identity: Sequence[str], facts: Sequence[Fact]) -> list[str]:
    """For each moment m from 0 to the last step (last_step/1), the key of the state at moment m: a digest of
    `identity` (the game and the question kinds) and of every fact but last_step/1 and those of step m and after;
    none where the facts give no last step."""
    whole: list[str] = []
    by_step: dict[int, list[str]] = {}
    count = None
    for found in facts:
        step = _step(found)
        if step is not None:
            by_step.setdefault(step, []).append(found)
        elif found.name == "last_step" and found.arity == 1:
            count = int(found.arguments)
        else:
            whole.append(found)
    if count is None:
        return []
    digest = hashlib.sha256("\0".join([*identity, "", *sorted(whole)]).encode())
    found_keys = [digest.hexdigest()]
    for step in range(count):
        digest.update(("\0step\0" + "\0".join(sorted(by_step.get(step, [])))).encode())
        found_keys.append(digest.hexdigest())
    return found_keys


def find(moment_keys: Sequence[str]) -> tuple[int, tuple[Fact, ...]]:
    """The latest moment after the start whose state is kept, with that state's facts; else (0, ())."""
    with _lock:
        for moment in range(len(moment_keys) - 1, 0, -1):
            state = _states.get(moment_keys[moment])
            if state is not None:
                _states.move_to_end(moment_keys[moment])
                return moment, state
    return 0, ()


def keep(key: str, moment: int, atoms: Sequence[clingo.Symbol]) -> None:
    """Keep the state at `moment` (its next/2 atoms' first arguments) under its key."""
    state = tuple(fact("next", atom, moment) for atom in atoms)
    with _lock:
        _states[key] = state
        _states.move_to_end(key)
        while len(_states) > KEPT:
            _states.popitem(last=False)


def clear() -> None:
    """Forget every state kept (a test that grounds from the start)."""
    with _lock:
        _states.clear()
