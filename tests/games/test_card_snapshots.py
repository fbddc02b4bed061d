"""Both views agree (issue 64, Build 5): for every LOTR and Marvel scenario file of the repository with actions, the
table after step N written out as a snapshot (`pyengine board --snapshot`, pyengine/games/common/board.py) and
answered as a table of its own, without actions, gives every question the sequence asks after N the verdict the
sequence gives it (for a `plays` question, the same plays each with the same verdict), and rests on no rule the
sequence's answer does not name besides the steps' own. Of the GEMP oracle's 57 sequences every sixth is taken
(conftest's `thinned`), every one with PYENGINE_EXHAUSTIVE=1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import thinned
from pyengine.core import answering, engine, kb
from pyengine.core.errors import InputError
from pyengine.core.scenario import Scenario, load_scenario, scenario_from_data
from pyengine.core.yamlio import load_text

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
GAMES = ("lotr", "marvel")
SEQUENCES = thinned(sorted(p for p in SCENARIOS.rglob("*.yaml")
                           if p.relative_to(SCENARIOS).parts[0].startswith(GAMES)
                           and "\nactions:" in p.read_text(encoding="utf-8")))
# The rules by which a sequence answers illegal the play of a card a step put in play: the reader refuses the same
# question in a table as written (an input error naming the instance), so a snapshot cannot ask it.
MIRRORED = {"lotr_play_not_out_of_play", "marvel_play_from_hand"}


def _view(answer: engine.Answer) -> tuple[str | None, list[tuple[str, str | None]]]:
    """What both views must agree on: the verdict, and each play with its verdict."""
    return answer.verdict, sorted((p.id, p.verdict) for p in answer.plays or [])


def _step_rules(game: str) -> set[str]:
    """The rules of the steps (rule_step_only): the sequence's answers name them, a snapshot has no steps."""
    return {r.id for r in kb.load(game).rules.values() if r.step_only}


def _loaded(path: Path, moment: int, sequence: dict[str, engine.Answer]) -> Scenario:
    """The snapshot of a moment loaded as a table of its own. A play of a card a step put in play is a question the
    reader refuses in a table as written, where the sequence's rule answers it illegal (MIRRORED): such a question
    is checked to be refused both ways, then left out."""
    data = load_text(answering.snapshot(path, moment).yaml, f"{path.name}@{moment}")
    try:
        return scenario_from_data(data, f"{path.name}@{moment}")
    except InputError as error:
        refused = {int(e.field.split("[")[1].split("]")[0]) for e in error.all()
                   if e.field and e.field.startswith("questions[") and e.field.endswith("].instance")}
        assert refused and len(refused) == len(error.all()), f"{path.name} after {moment}: {error}"
        for index in refused:
            answer = sequence[data["questions"][index]["id"]]
            assert answer.verdict == "illegal" and set(answer.rule_ids) & MIRRORED, f"{path.name} [{index}]"
        data["questions"] = [q for i, q in enumerate(data["questions"]) if i not in refused]
        return scenario_from_data(data, f"{path.name}@{moment}", questions_required=False)


def _compare(path: Path) -> int:
    """Every question of a sequence file asked after a step, answered on the snapshot of that moment as the sequence
    answers it; the number of questions compared."""
    scenario = load_scenario(path)
    sequence = {a.question.id: a for a in engine.answer(scenario, {})}
    board = answering.board(scenario)
    steps = _step_rules(scenario.game.name)
    compared = 0
    for moment in sorted({at for at, _ in board.asked if at is not None}):
        table = _loaded(path, moment, sequence)
        for answer in engine.answer(table, {}):
            asked = answer.question.id
            assert _view(answer) == _view(sequence[asked]), f"{path.name} after {moment} [{asked}]"
            extra = set(answer.rule_ids) - set(sequence[asked].rule_ids) - steps
            assert not extra, f"{path.name} after {moment} [{asked}]: the snapshot rests on {sorted(extra)} besides"
            compared += 1
    return compared


def test_the_repository_has_sequences_of_both_games() -> None:
    assert {p.relative_to(SCENARIOS).parts[0].split("_")[0] for p in SEQUENCES} == set(GAMES)
    assert len(SEQUENCES) >= 25


@pytest.mark.parametrize("path", SEQUENCES, ids=lambda p: str(p.relative_to(SCENARIOS)))
def test_the_snapshot_after_each_step_answers_as_the_sequence(path: Path) -> None:
    _compare(path)


def test_the_comparison_compares_questions_after_steps_that_moved_cards() -> None:
    path = SCENARIOS / "lotr_steps" / "kill.yaml"
    assert _compare(path) >= 10
    moved = answering.snapshot(path, 1).table["players"]["alice"]
    assert [e["id"] for e in moved["dead_pile"]] == ["merry"]
    assert "armor" in [e["id"] for e in moved["discard"]]


def test_a_snapshot_left_as_it_was_before_the_step_answers_otherwise() -> None:
    # The table at the start asked the questions of moment 1: Merry is not yet in the dead pile, so the comparison
    # would fail on it.
    path = SCENARIOS / "lotr_steps" / "kill.yaml"
    board = answering.board(path)
    stale = {**board.snapshot(1), **{k: v for k, v in board.snapshot(0).items() if k in ("players", "turn")}}
    answers = {a.question.id: a.verdict for a in engine.answer(scenario_from_data(stale, "<stale>"), {})}
    assert answers["merry-in-the-dead-pile"] == "play"


def test_the_snapshot_names_the_readings_the_steps_rested_on_and_keeps_the_table_as_written(tmp_path: Path) -> None:
    path = SCENARIOS / "lotr_steps" / "kill.yaml"
    snapshot = answering.snapshot(path, 5)
    written = load_scenario(path).data
    assert {k: snapshot.table[k] for k in ("game", "catalog", "cites")} == {k: written[k] for k in
                                                                             ("game", "catalog", "cites")}
    assert "actions" not in snapshot.table
    assert all("after" not in q and "rules" not in q for q in snapshot.table["questions"])
    assert snapshot.yaml.startswith("# The table of")


def test_the_board_command_writes_a_snapshot_that_passes_its_own_check(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    written = tmp_path / "after-3.yaml"
    code, out, _ = cli("board", str(SCENARIOS / "lotr_steps" / "kill.yaml"), "--moment", "3", "--snapshot",
                       str(written))
    assert code == 0 and "moment 3" in out and written.is_file()
    code, out, err = cli("check", str(written))
    assert code == 0, out + err
    assert "2 passed, 0 failed" in out
    code, out, _ = cli("board", str(SCENARIOS / "marvel_steps" / "reveal.yaml"), "--snapshot", str(written), "--json")
    data = json.loads(out)
    steps = len(load_scenario(SCENARIOS / "marvel_steps" / "reveal.yaml").state.actions)
    assert code == 0 and data["moment"] == steps and "actions" not in data["table"]
    code, _, err = cli("board", str(SCENARIOS / "lotr_steps" / "kill.yaml"), "--moment", "9", "--snapshot",
                       str(tmp_path / "none.yaml"))
    assert code == 2 and "no moment 9" in err and not (tmp_path / "none.yaml").exists()


def test_a_table_without_actions_is_its_own_snapshot() -> None:
    for path in (SCENARIOS / "lotr_steps" / "values_of_a_table.yaml",
                 SCENARIOS / "marvel_steps" / "values_of_a_table.yaml"):
        table = load_scenario(path)
        snapshot = scenario_from_data(answering.snapshot(path).table, f"{path.name}@0")
        assert answering.snapshot(path).moment == 0 and not table.state.actions
        mine = {a.question.id: _view(a) for a in engine.answer(table, {})}
        assert mine and {a.question.id: _view(a) for a in engine.answer(snapshot, {})} == mine


def test_a_table_read_with_marks_is_written_plainly(tmp_path: Path) -> None:
    # An `&`, `*` or `!` anywhere in the text makes the reader keep its marks: the snapshot writes plain data all the
    # same (it was an internal error).
    marked = tmp_path / "marked.yaml"
    marked.write_text("# Merry & Pippin\n" + (SCENARIOS / "lotr_steps" / "kill.yaml").read_text(encoding="utf-8"),
                      encoding="utf-8")
    written = answering.snapshot(marked, 1).yaml
    assert scenario_from_data(load_text(written, "<snapshot>"), "<snapshot>").questions


def test_a_zone_an_owner_has_not_is_refused_in_a_size(tmp_path: Path) -> None:
    data = load_scenario(SCENARIOS / "marvel_steps" / "values_of_a_table.yaml").data
    for of in ("size(encounter, identity)", "size(alice, villain_deck)"):
        with pytest.raises(InputError, match="no zone"):
            scenario_from_data({**data, "questions": [{"id": "q", "ask": "value", "of": of, "expect": "0"}]}, "<t>")


def test_the_board_command_writes_one_file_at_a_time(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("board", str(SCENARIOS / "lotr_steps" / "kill.yaml"), "--snapshot", str(tmp_path / "s.yaml"),
                       "--svg", str(tmp_path / "s.svg"))
    assert code == 2 and "--snapshot and --svg" in err and list(tmp_path.iterdir()) == []
