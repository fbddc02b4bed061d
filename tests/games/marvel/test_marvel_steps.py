"""A Marvel scenario with actions is answered over moments (rules/marvel/steps/, pyengine.core.moments) in one
grounding of facts only; a scenario without actions keeps the static path; an action that names what the table
does not hold is an input error located at its field."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pyengine.core import engine, kb
from pyengine.core.engine import GroundedTable, answer
from pyengine.core.errors import InputError
from pyengine.core.scenario import load_scenario, scenario_from_data
from pyengine.core.solve_records import recorded_solves

ROOT = Path(__file__).resolve().parents[3]
STEPS = ROOT / "tests" / "scenarios" / "marvel_steps"
STATIC = ROOT / "tests" / "scenarios" / "marvel" / "minions.yaml"


def test_every_step_file_is_answered_over_moments_without_choices() -> None:
    for path in sorted(STEPS.glob("*.yaml")):
        scenario = load_scenario(path)
        assert scenario.over_moments, path
        with recorded_solves() as solves:
            found = answer(scenario)
        assert all(s["choices"] == 0 for s in solves), path
        assert [a.question.id for a in found if a.failures()] == [], path


def test_a_refused_step_changes_nothing() -> None:
    answers = {a.question.id: a for a in answer(load_scenario(STEPS / "leave.yaml"))}
    assert answers["no-discard-from-deck"].verdict == "refused"
    assert answers["spider-woman-in-deck"].verdict == "deck"


def test_a_reveal_walks_its_cards_within_one_step() -> None:
    answers = {a.question.id: a for a in answer(load_scenario(STEPS / "reveal.yaml"))}
    zones = [answers[q].verdict for q in ("first-minion-discarded", "second-minion-discarded",
                                          "hydra-mercenary-in-play", "weapons-runner-still-in-the-deck")]
    assert zones == ["discard", "discard", "play", "deck"]


def test_a_file_without_actions_keeps_the_static_path() -> None:
    scenario = load_scenario(STATIC)
    assert not scenario.over_moments
    unit = engine.units(scenario, {})[0]
    assert not engine.over_moments("marvel", unit.facts)
    assert not any(f.name in ("last_step", "act", "q_at", "linked_face") for f in unit.facts)
    table = GroundedTable(scenario)
    assert [a.verdict for a in table.answers()] == [a.verdict for a in answer(scenario)]


def test_every_rule_only_steps_fire_is_expected_in_some_scenario_file() -> None:
    """A rule the edge-case search cannot draw (rule_step_only/1) is named in the expected reasons of some file."""
    step_only = sorted(r.id for r in kb.load("marvel").rules.values() if r.step_only)
    expected = " ".join(p.read_text(encoding="utf-8") for p in STEPS.glob("*.yaml"))
    assert len(step_only) == 15
    assert [rule for rule in step_only if not re.search(rf"rules: \[[^\]]*\b{rule}\b", expected)] == []


def _table(actions: list[Any], questions: list[Any] | None = None) -> dict[str, Any]:
    """A small table on the built-in catalog: Spider-Man, an ally in hand and a minion in the encounter deck."""
    return {"game": "marvel", "catalog": "marvelsdb",
            "players": {"alice": {"identity": {"id": "peter", "card": "01001a"},
                                  "hand": [{"id": "black-cat", "card": "01002"}]}},
            "encounter": {"deck": [{"id": "minion", "card": "56180"}]},
            "actions": actions,
            "questions": questions or [{"id": "q", "ask": "action", "step": 1, "expect": "done"}]}


@pytest.mark.parametrize(("action", "field", "expected"), [
    ({"player": "alice", "play": "black-cat", "via": "peter"}, "via", "only with put_into_play"),
    ({"player": "alice", "put_into_play": "minion"}, "via", "instance whose effect"),
    ({"player": "alice", "discard": "blak-cat"}, "discard", "instance id"),
    ({"player": "alice", "play": "black-cat", "flip": "peter"}, "flip", "exactly one of"),
    ({"player": "alice", "reveal": ["minion", "minion"]}, "reveal", "each once"),
])
def test_a_bad_action_is_a_located_input_error(action: dict[str, Any], field: str, expected: str) -> None:
    with pytest.raises(InputError) as raised:
        scenario_from_data(_table([action]), "<actions>")
    errors = raised.value.all()
    assert any(field in (e.field or "") and expected in (e.expected or "") for e in errors), \
        [(e.field, e.expected) for e in errors]


@pytest.mark.parametrize(("action", "rule"), [
    ({"player": "alice", "reveal": "black-cat"}, "marvel_reveal_from_encounter_deck"),
    ({"player": "bob", "play": "black-cat"}, "marvel_play_own_card"),
    ({"player": "bob", "flip": "peter"}, "marvel_flip_own_identity"),
])
def test_whose_card_it_is_is_the_rules_to_refuse_not_an_input_error(action: dict[str, Any], rule: str) -> None:
    """A reveal of a player's card, a play of another player's card and a flip of another player's identity are read
    as any action, and refused by a rule of rules/marvel/steps/ (no legality decided in Python)."""
    data = _table([action], [{"id": "q", "ask": "action", "step": 1}])
    data["players"]["bob"] = {"identity": {"id": "carol", "card": "01010a"}}
    found = answer(scenario_from_data(data, "<hostile action>"))[0]
    assert found.verdict == "refused" and found.rule_ids == [rule]


def test_a_value_question_names_a_moment_of_the_scenario() -> None:
    data = _table([{"player": "alice", "flip": "peter"}],
                  [{"id": "q", "ask": "value", "after": 2, "of": "face(peter)", "expect": "01001b"}])
    with pytest.raises(InputError, match="1 actions"):
        scenario_from_data(data, "<after>")


def test_plays_after_a_step_see_the_state_it_left() -> None:
    data = _table([{"player": "alice", "flip": "peter"}, {"player": "alice", "reveal": "minion"}],
                  [{"id": "p", "ask": "plays", "player": "alice", "after": 2},
                   {"id": "z", "ask": "value", "after": 2, "of": "zone(minion)", "expect": "play"}])
    found = {a.question.id: a for a in answer(scenario_from_data(data, "<plays>"))}
    assert found["z"].verdict == "play"  # Peter Parker up after the flip: the minion Spider-Man enters (p4)
    assert found["p"].play_sets() == {"legal": ["black-cat"], "illegal": []}


def _sequence(steps: int) -> dict[str, Any]:
    """Peter Parker flipped and a minion Spider-Man (56180) revealed in turn, `steps` actions on one table of 30
    minions, each step's verdict and the revealed minion's zone after it asked."""
    minions = [{"id": f"m{k}", "card": "56180"} for k in range(30)]
    actions = [{"player": "alice", "flip": "peter"} if k % 2 == 0 else {"player": "alice", "reveal": f"m{k}"}
               for k in range(steps)]
    questions = [{"id": f"s{k + 1}", "ask": "action", "step": k + 1} for k in range(steps)]
    questions += [{"id": f"z{k + 1}", "ask": "value", "after": k + 1, "of": f"zone(m{k})"} for k in range(steps)]
    return {"game": "marvel", "catalog": "marvelsdb",
            "players": {"alice": {"identity": {"id": "peter", "card": "01001a", "face": "alter_ego"}}},
            "encounter": {"deck": minions}, "actions": actions, "questions": questions}


def test_a_30_step_sequence_grounds_to_facts_growing_linearly() -> None:
    found = {}
    for steps in (10, 20, 30):
        with recorded_solves() as solves:
            answers = {a.question.id: a.verdict for a in answer(scenario_from_data(_sequence(steps), "<steps>"))}
        assert len(solves) == 1 and solves[0]["choices"] == 0
        found[steps] = solves[0]["ground_atoms"]
        # Each flip turns Spider-Man up or down: a minion revealed under the hero side is discarded (p12), under the
        # alter ego it enters play, and, a unique Spider-Man then in play, the next one is discarded too.
        assert answers["z2"] == "discard" and all(answers[f"s{k}"] == "done" for k in range(1, steps + 1))
    first, second = found[20] - found[10], found[30] - found[20]
    assert first > 0 and abs(second - first) <= 0.1 * first, (first, second)
