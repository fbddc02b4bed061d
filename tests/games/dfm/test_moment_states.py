"""A game followed action by action: `plays` after an action starts from the state the process kept at the moment
before it (pyengine.core.moment_states), and answers exactly what it answers grounded from the start. The files of
tests/scenarios/dfm with two actions or more, every fifteenth (all of them with PYENGINE_EXHAUSTIVE=1), and the
files on real units where the Duel's data is at hand."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import DFM_DATA, ROOT
from pyengine import api
from pyengine.core import engine, moment_states, solve_records

FOLDER = ROOT / "tests" / "scenarios" / "dfm"


def _games() -> list[Path]:
    games = {p: yaml.safe_load(p.read_text(encoding="utf-8")) or {} for p in sorted(FOLDER.glob("*.yaml"))}
    # The files on real cards need the Duel's data, imported into the session's store where it exists.
    found = [p for p, game in games.items() if len(game.get("actions") or []) >= 2
             and (DFM_DATA.is_dir() or "catalog" not in game)]
    if os.environ.get("PYENGINE_EXHAUSTIVE"):
        return found
    return sorted({*found[::15], *(p for p in found if p.name.startswith("real_card_units"))})


def _cut(path: Path, count: int | None = None) -> dict[str, Any]:
    game = yaml.safe_load(path.read_text(encoding="utf-8"))
    actions = game["actions"] if count is None else game["actions"][:count]
    return {**game, "actions": actions, "questions": []}


def _plays(game: dict[str, Any], player: str | None = None) -> tuple[Any, list[int]]:
    """The plays' results as JSON, and the moment each solve's grounding started from."""
    with solve_records.recorded_solves() as solves:
        found = api.plays(game, player)
    return found.to_dict(), [s["from_moment"] for s in solves]


@pytest.mark.parametrize("path", _games(), ids=lambda p: p.stem)
def test_plays_after_the_last_action_from_the_state_before_it_are_the_plays_from_the_start(path: Path) -> None:
    whole = _cut(path)
    count = len(whole["actions"])
    moment_states.clear()
    cold, started = _plays(whole)
    assert started == [0]
    moment_states.clear()
    _plays(_cut(path, count - 1))
    warm, started = _plays(whole)
    assert started == [count - 1]
    assert warm == cold


def test_a_state_is_kept_for_the_same_earlier_actions_and_readings_only() -> None:
    path = FOLDER / "fellowship_allies.yaml"
    game = _cut(path)
    count = len(game["actions"])
    moment_states.clear()
    _plays(_cut(path, count - 2))
    # The same first actions: the grounding starts from the state kept after them, whatever the actions after.
    assert _plays(game)[1] == [count - 2]
    # A later moment is kept too, and asked again starts from itself.
    assert _plays(game)[1] == [count]
    # Another player's plays are other questions, another encoding's facts: grounded from the start.
    assert _plays(game, "sauron")[1] == [0]
    # An earlier action changed, or another reading chosen, makes another state: grounded from the start.
    changed = {**game, "actions": [*game["actions"][:1], {**game["actions"][0]}, *game["actions"][2:]]}
    assert _plays(changed)[1] == [0]
    with solve_records.recorded_solves() as solves:
        api.plays(game, readings={"dfm_tom_toll_payment": "per_token"})
    assert [s["from_moment"] for s in solves] == [0]


def test_questions_that_read_earlier_moments_never_start_from_a_kept_state() -> None:
    path = FOLDER / "fellowship_allies.yaml"
    game = _cut(path)
    moment_states.clear()
    _plays(game)
    with solve_records.recorded_solves() as solves:
        api.answer({**game, "questions": [{"id": "w", "ask": "winner", "after": len(game["actions"])}]})
    assert [s["from_moment"] for s in solves] == [0]


def test_a_grounding_with_the_reading_choices_open_keeps_no_state() -> None:
    path = FOLDER / "fellowship_allies.yaml"
    game = _cut(path)
    moment_states.clear()
    scenario = api.load({**game, "questions": [{"id": "p", "ask": "plays", "player": "fellowship"}]})
    with solve_records.recorded_solves() as solves:
        engine.answer_sides(scenario, [{}, {"dfm_tom_toll_payment": "per_token"}])
    assert [s["readings_open"] for s in solves] == [1, 1]
    assert _plays(game, "fellowship")[1] == [0]


def test_at_most_kept_states_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(moment_states, "KEPT", 2)
    path = FOLDER / "fellowship_allies.yaml"
    moment_states.clear()
    for count in (2, 3, 4):
        _plays(_cut(path, count), "fellowship")
    assert _plays(_cut(path, 3), "fellowship")[1] == [3]  # found at 3, the state at 2 not read
    assert _plays(_cut(path, 2), "fellowship")[1] == [0]  # the state at 2 was dropped, the oldest of three
