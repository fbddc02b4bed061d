"""A LOTR scenario with actions is answered over moments (rules/lotr/steps/, pyengine.core.moments) in one grounding
of facts only, its size growing linearly with the actions; a scenario without actions keeps the static path (one
moment, sliced, batched, a GroundedTable)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.lotr_sequence import measure, plays_after_last, sequence
from pyengine.core import engine, kb, moment_states
from pyengine.core.engine import GroundedTable, answer
from pyengine.core.scenario import load_scenario, scenario_from_data
from pyengine.core.solve_records import recorded_solves
from pyengine.core.yamlio import load_file

ROOT = Path(__file__).resolve().parents[3]
STEPS = ROOT / "tests" / "scenarios" / "lotr_steps"
STATIC = ROOT / "tests" / "scenarios" / "lotr_gemp" / "ends_in.yaml"


def test_a_30_step_sequence_grounds_to_facts_growing_linearly() -> None:
    found = {steps: measure(steps)[2] for steps in (10, 20, 30)}
    assert all(figures["choices"] == 0 and figures["conflicts"] == 0 for figures in found.values())
    first = found[20]["ground_atoms"] - found[10]["ground_atoms"]
    second = found[30]["ground_atoms"] - found[20]["ground_atoms"]
    assert first > 0 and abs(second - first) <= 0.1 * first, (first, second)


def test_every_step_of_a_30_step_sequence_gets_its_verdict_and_its_card_its_zone() -> None:
    scenario = scenario_from_data(sequence(30), "<30 actions>")
    answers = {a.question.id: a for a in answer(scenario)}
    verdicts = [answers[f"s{step}"].verdict for step in range(1, 31)]
    zones = [answers[f"z{step}"].verdict for step in range(1, 31)]
    assert set(verdicts) <= {"done", "refused"} and "done" in verdicts
    # A card played and then killed: in play after its play, in the dead pile after its kill (every card is a
    # companion or ally but the Armor, which goes on no bearer named and so to the support area, then discarded).
    for step in range(1, 31, 2):
        if verdicts[step - 1] == "done" and verdicts[step] == "done":
            assert zones[step - 1] in ("play", "support") and zones[step] in ("dead_pile", "discard")


def test_a_refused_step_changes_nothing() -> None:
    scenario = load_scenario(STEPS / "kill.yaml")
    answers = {a.question.id: a for a in answer(scenario)}
    assert answers["no-kill-from-hand"].verdict == "refused"
    assert answers["still-in-hand"].verdict == "hand"


@pytest.mark.parametrize(("name", "refused", "unchanged", "value"), [
    ("discard.yaml", "no-discard-from-the-pile", "merry-still-in-the-pile", "discard"),
    ("heal.yaml", "other-title-refused", "merry-still-wounded", "1"),
    ("cost.yaml", "card-in-hand-cannot-exert", "merry-not-exerted-again", "1"),
    ("stack.yaml", "merry-not-stacked", "merry-kept", "hand"),
    ("stack.yaml", "nothing-to-take", "copy-still-stacked", "stacked"),
    ("leave.yaml", "card-in-hand-not-returned", "aragorn-in-hand", "hand"),
    ("turn.yaml", "no-move-to-a-card-in-hand", "site-after-5", "site-2"),
    ("turn.yaml", "alice-moves-nothing-in-bobs-turn", "site-after-11", "site-2"),
    ("no_turn.yaml", "no-move-without-a-turn", "site-unchanged", "site-1"),
    ("stack.yaml", "bob-does-not-take-alices-card", "copy-stacked-still", "stacked"),
    ("play.yaml", "site-not-played", "site-still-in-the-adventure-deck", "adventure_deck"),
])
def test_a_refused_step_of_each_family_changes_nothing(name: str, refused: str, unchanged: str, value: str) -> None:
    """The value a refused step's question asks after it is the one before it, every other fluent unchanged too."""
    scenario = load_scenario(STEPS / name)
    answers = {a.question.id: a for a in answer(scenario)}
    assert answers[refused].verdict == "refused"
    assert answers[unchanged].verdict == value
    step = answers[refused].question.params["step"]
    data = scenario_data(STEPS / name)
    before, after = (fluents(data, n) for n in (step - 1, step))
    assert before == after


@pytest.mark.parametrize(("action", "rule"), [
    ({"player": "bob", "play": "merry"}, "lotr_own_card_only"),
    ({"player": "bob", "take": "stacked-merry"}, "lotr_own_card_only"),
    ({"player": "bob", "stack": "merry", "on": "shards"}, "lotr_own_card_only"),
    ({"player": "alice", "play": "site"}, "lotr_site_not_played"),
    ({"player": "bob", "phase": "shadow"}, "lotr_turn_player_acts"),
])
def test_whose_card_or_turn_it_is_is_the_rules_to_refuse_not_an_input_error(action: dict, rule: str) -> None:
    """A play, take or stack of another player's card, a play of a site, and a phase passed by a player whose turn
    it is not are read as any action, and refused by a rule of rules/lotr/steps/ (no legality decided in Python)."""
    data = {"game": "lotr", "catalog": "gemp", "turn": {"player": "alice", "phase": "fellowship"},
            "players": {"alice": {"hand": [{"id": "merry", "card": "1_302"}],
                                  "support": [{"id": "shards", "card": "3_44"}],
                                  "stacked": [{"id": "stacked-merry", "card": "1_302", "on": "shards"}],
                                  "adventure_deck": [{"id": "site", "card": "7_335"}]}, "bob": {}},
            "actions": [action], "questions": [{"id": "q", "ask": "action", "step": 1}]}
    found = answer(scenario_from_data(data, "<hostile action>"))[0]
    assert found.verdict == "refused" and found.rule_ids == [rule]


def scenario_data(path: Path) -> dict:
    """A scenario file's data, read as the scenario reader reads it (YAML 1.2)."""
    return load_file(path, marks=False)


def fluents(data: dict, steps: int) -> list[str]:
    """Every instance's zone, wounds and bearer, the phase, whose turn it is and the current site after `steps`
    actions of a scenario, as its value questions say."""
    ids = [i["id"] for p in data["players"].values() for zone in (p or {}).values() for i in zone]
    asked = [{"id": f"{name}-{i}", "ask": "value", "after": steps, "of": f"{name}({i})"}
             for i in ids for name in ("zone", "wounds", "bearer")]
    asked += [{"id": name, "ask": "value", "after": steps, "of": name} for name in ("phase", "turn", "site")]
    found = answer(scenario_from_data({**data, "questions": asked}, "<fluents>"))
    return [f"{a.question.id}={a.verdict}" for a in found]


def test_a_file_without_actions_keeps_the_static_path() -> None:
    scenario = load_scenario(STATIC)
    assert not scenario.over_moments
    unit = engine.units(scenario, {})[0]
    assert not engine.over_moments("lotr", unit.facts)
    assert not any(f.name in ("last_step", "act", "q_at") for f in unit.facts)
    table = GroundedTable(scenario)  # one grounding of every reading choice: refused to a game over moments
    assert [a.verdict for a in table.answers()] == [a.verdict for a in answer(scenario)]


def test_a_sequence_is_answered_over_moments_and_has_no_grounded_table() -> None:
    scenario = load_scenario(STEPS / "play.yaml")
    assert scenario.over_moments
    with pytest.raises(ValueError, match="moment at a time"):
        GroundedTable(scenario)
    with recorded_solves() as solves:
        answer(scenario)
    # One timeline for the steps' questions, and one for each `plays` listing, cut at its moment.
    assert len(solves) == 3 and all(s["choices"] == 0 for s in solves)


def test_every_rule_only_steps_fire_is_expected_in_some_scenario_file() -> None:
    """A rule the edge-case search cannot draw (rule_step_only/1) is named in the expected reasons of some file."""
    step_only = sorted(r.id for r in kb.load("lotr").rules.values() if r.step_only)
    expected = " ".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests" / "scenarios").rglob("*.yaml"))
    assert len(step_only) == 24
    assert [rule for rule in step_only if not re.search(rf"rules: \[[^\]]*\b{rule}\b", expected)] == []


def test_plays_after_the_last_action_from_the_state_kept_answers_as_from_the_start() -> None:
    moment_states.clear()
    fresh = measure_plays(30)
    _seconds, figures = plays_after_last(30)  # the listing after action 29 keeps its state; the next starts there
    assert figures["from_moment"] == 29 and figures["choices"] == 0
    assert measure_plays(30, keep=True) == fresh


def measure_plays(steps: int, keep: bool = False) -> dict[str, list[str]]:
    """The legal and illegal plays of alice after the last of `steps` actions (from the start, unless `keep`)."""
    if not keep:
        moment_states.clear()
    data = sequence(steps)
    asked = {**data, "questions": [{"id": "p", "ask": "plays", "player": "alice", "after": steps}]}
    found = answer(scenario_from_data(asked, "<plays>"))[0]
    assert found.plays
    return found.play_sets()


def test_the_questions_of_a_file_without_actions_share_one_grounding_as_before() -> None:
    files = [p for p in (ROOT / "tests" / "scenarios").rglob("*.yaml")
             if "lotr" in p.parent.name and "\nactions:" not in p.read_text(encoding="utf-8")
             and "ask: value" not in p.read_text(encoding="utf-8")]
    assert len(files) > 50
    for path in files:
        scenario = load_scenario(path)
        assert all(scenario.game.writer.group_key(q.kind, q.params) is None for q in scenario.questions), path
        assert all("after" not in q.params for q in scenario.questions), path
