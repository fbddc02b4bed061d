"""The Python API as a program embedding it uses it, checked by mypy in the test suite (tests/faces/test_api_types.py)
and run there: a game server asking which cards a player may play, a table asked under two readings, a deck."""

from __future__ import annotations

from pathlib import Path

import pyengine
from pyengine.api import Explanation, InputError, PlayResult, ScenarioResult

EXAMPLES = Path(__file__).resolve().parents[1]


def open_plays(player: str) -> list[PlayResult]:
    """Every play open to `player` at the judge's Sting table."""
    answer: Explanation = pyengine.plays(EXAMPLES / "judge_second_sting.yaml", player=player)
    return answer.questions[0].plays or []


def both_readings() -> list[ScenarioResult]:
    """The table's own questions under the default and under the dead pile counted for every player."""
    table = pyengine.table(EXAMPLES / "judge_second_sting.yaml")
    return table.compare([{}, {"lotr_dead_pile_scope": "any_player"}])


def refused() -> str:
    """A misspelt reading is an InputError naming it."""
    try:
        pyengine.answer(EXAMPLES / "judge_second_sting.yaml", readings={"lotr_dead_pile_scop": "own"})
    except InputError as error:
        return str(error)
    return "accepted"


if __name__ == "__main__":
    for play in open_plays("alice"):
        print(play.play, play.verdict, play.rules)
    print([[q.got for q in side.questions] for side in both_readings()])
    print(refused())
