"""A LOTR sequence of N actions on GEMP's cards (issue 64): pairs of a play from hand and a kill of the card played,
every step asked (`ask: action`) and where its card lies after it (`ask: value`). Prints the seconds `answer` takes
(the scenario read beforehand) and clingo's figures (ground atoms, rules, choices) of its one grounding.

    PYENGINE_STORE=... python -m benchmarks.lotr_sequence [N ...]"""

from __future__ import annotations

import sys
import time
from typing import Any

from pyengine.core.engine import answer
from pyengine.core.scenario import Scenario, scenario_from_data
from pyengine.core.solve_records import recorded_solves

# Companions, allies and a possession of GEMP's first set, in hand; each is played and then killed.
CARDS = ("1_302", "1_311", "1_50", "1_13", "1_45", "1_40", "1_34", "1_301", "1_303", "1_12", "1_92")
# The cards in hand, whatever the number of actions (a state of one size: what grows is the steps).
HAND = 15


def sequence(steps: int) -> dict[str, Any]:
    """The scenario data of a sequence of `steps` actions (an even number up to 2 * HAND: play, kill, play, ...)."""
    hand = [{"id": f"c{k}", "card": CARDS[k % len(CARDS)]} for k in range(HAND)]
    actions: list[dict[str, str]] = []
    questions: list[dict[str, Any]] = []
    for k in range(steps // 2):
        card = f"c{k}"
        actions += [{"player": "alice", "play": card}, {"player": "alice", "kill": card}]
    for step, action in enumerate(actions, 1):
        instance = action.get("play") or action.get("kill")
        questions += [{"id": f"s{step}", "ask": "action", "step": step},
                      {"id": f"z{step}", "ask": "value", "after": step, "of": f"zone({instance})"}]
    return {"game": "lotr", "catalog": "gemp", "title": f"{steps} actions", "cites": ["p10"],
            "turn": {"player": "alice", "phase": "fellowship"},
            "players": {"alice": {"play": [{"id": "aragorn", "card": "1_89"}], "hand": hand}, "bob": {}},
            "actions": actions, "questions": questions}


def measure(steps: int) -> tuple[Scenario, float, dict[str, int]]:
    """The scenario, the seconds its answer took, and clingo's figures of its one solve."""
    scenario = scenario_from_data(sequence(steps), f"<{steps} actions>")
    with recorded_solves() as solves:
        started = time.perf_counter()
        answer(scenario)
        seconds = time.perf_counter() - started
    assert len(solves) == 1, "one grounding answers every question of the sequence"
    return scenario, seconds, solves[0]


def plays_after_last(steps: int) -> tuple[float, dict[str, int]]:
    """The seconds a `plays` listing after the last of `steps` actions takes, and its solve's figures, when the
    state after the step before was kept by the listing asked there (as the explorer asks after each action)."""
    from pyengine.core import moment_states

    moment_states.clear()
    data = sequence(steps)
    for after in (steps - 1, steps):
        asked = {**data, "questions": [{"id": "p", "ask": "plays", "player": "alice", "after": after}]}
        scenario = scenario_from_data(asked, f"<plays after {after}>")
        with recorded_solves() as solves:
            started = time.perf_counter()
            answer(scenario)
            seconds = time.perf_counter() - started
    assert solves[0]["from_moment"] == steps - 1, "the listing starts from the state kept at the moment before"
    return seconds, solves[0]


def main(arguments: list[str]) -> int:
    for steps in [int(a) for a in arguments] or [10, 20, 30]:
        measure(steps)  # the encodings parsed and rewritten once per process, as a server keeps them
        best = min((measure(steps) for _ in range(5)), key=lambda found: found[1])
        figures = best[2]
        print(f"{steps} actions: {1000 * best[1]:.0f} ms, {figures['ground_atoms']} ground atoms, "
              f"{figures['rules']} rules, {figures['choices']} choices, {figures['conflicts']} conflicts")
    for steps in [int(a) for a in arguments][-1:] or [30]:
        plays_after_last(steps)
        seconds, figures = min((plays_after_last(steps) for _ in range(5)), key=lambda found: found[0])
        print(f"plays after action {steps}, the state after action {steps - 1} kept: {1000 * seconds:.0f} ms, "
              f"{figures['ground_atoms']} ground atoms, {figures['choices']} choices")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
