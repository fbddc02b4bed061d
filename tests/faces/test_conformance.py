"""The conformance kit for engine developers (`pyengine conformance export` and `compare`): a pack exported from
scenario files, compared with an engine's verdicts; each disagreement printed and written as a scenario file that
fails under the knowledge base and expects the engine's verdict; and every bad input a located error, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from conftest import ROOT
from pyengine.core.yamlio import load_file
from pyengine.schema import schema

TABLES = [ROOT / "tests" / "scenarios" / "lotr" / name for name in ("per_player.yaml", "at_most.yaml")]


@pytest.fixture
def pack(cli, tmp_path: Path) -> Path:
    target = tmp_path / "pack.jsonl"
    code, out, err = cli("conformance", "export", *map(str, TABLES), "--out", str(target))
    assert (code, err) == (0, ""), err
    count = len(_lines(target))
    assert out == f"wrote {count} questions of 2 files ({count} lotr) to {target}\n"
    return target


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _verdicts(path: Path, entries: list[dict], side: str, changed: dict[str, str]) -> Path:
    """An engine's verdicts file: the knowledge base's own under `side`, but for the ids in `changed`."""
    path.write_text("".join(json.dumps({"id": e["id"], "verdict": changed.get(e["id"], e["verdicts"][side]["verdict"])})
                            + "\n" for e in entries), encoding="utf-8")
    return path


def test_a_pack_line_holds_the_resolved_state_and_every_sides_verdict(pack: Path) -> None:
    entries = _lines(pack)
    line_schema = schema("conformance-pack")
    for entry in entries:
        jsonschema.validate(entry, line_schema)
    [frodo] = [e for e in entries if e["question"] == "both-players-field-frodo"]
    assert frodo["format"] == "pyengine-conformance-pack/1" and frodo["ask"] == "play"
    assert set(frodo["verdicts"]) == {"default", "comprehensive_rules", "gemp", "wiki"}
    assert frodo["verdicts"]["default"] == {"verdict": "legal", "rules": ["lotr_per_player_scope"],
                                            "paragraphs": ["lotr_unique:p5", "lotr_unique:p6", "lotr_unique:p46"],
                                            "rested_on": {"lotr_play_scope": "own"}}
    assert frodo["verdicts"]["gemp"]["verdict"] == "illegal"
    bob_frodo = next(i for i in frodo["state"]["instances"] if i["id"] == "bob-frodo")
    assert bob_frodo == {"id": "bob-frodo", "owner": "bob", "zone": "play", "card": "1_290", "title": "Frodo",
                         "subtitle": "Son of Drogo", "type": "companion", "side": "free_peoples", "collinfo": "1C290",
                         "unique": True, "active": True, "active_because": "in_play", "wounds": 0}
    [limited] = [e for e in entries if e["question"] == "third-copy-counted"]
    played = next(i for i in limited["state"]["instances"] if i["id"] == limited["params"]["instance"])
    assert (played["unique"], played["unique_limit"]) == (True, 2)


def test_compare_prints_the_disagreement_and_writes_it_as_a_failing_scenario(cli, pack: Path, tmp_path: Path) -> None:
    entries = _lines(pack)
    [frodo] = [e for e in entries if e["question"] == "both-players-field-frodo"]
    verdicts = _verdicts(tmp_path / "engine.jsonl", entries, "gemp", {frodo["id"]: "legal"})
    out = tmp_path / "disagreements"
    code, text, err = cli("conformance", "compare", str(pack), str(verdicts), "--out", str(out))
    assert (code, err) == (1, "")
    total = len(entries)
    assert f"  gemp: {total - 1}/{total} agree" in text and "compared with gemp:" in text
    assert "  rule lotr_every_player_scope: " in text and "  reading lotr_play_scope=every_player: " in text
    written = out / "per_player-both-players-field-frodo.yaml"
    assert (f'DISAGREE {frodo["id"]}: engine "legal", knowledge base "illegal" (lotr_every_player_scope) -> '
            f"{written}") in text
    assert text.rstrip().endswith("1 disagreement")
    # The file written expects the engine's verdict under the side compared, and the knowledge base fails it.
    code, checked, _ = cli("check", "--json", str(written))
    result = json.loads(checked)
    [question] = result["scenarios"][0]["questions"]
    assert (code, question["question"], question["expected"], question["got"]) == (1, frodo["question"], "legal",
                                                                                  "illegal")
    assert question["readings"]["lotr_play_scope"] == "every_player"
    # The same verdicts as the knowledge base's: exit 0, and a second run replaces its own folder.
    same = _verdicts(tmp_path / "same.jsonl", entries, "gemp", {})
    code, text, _ = cli("conformance", "compare", str(pack), str(same), "--out", str(out), "--json")
    data = json.loads(text)
    jsonschema.validate(data, schema("conformance-compare"))
    assert (code, data["reference"], data["disagreements"], data["per_side"]["gemp"]) == (
        0, "gemp", [], {"agree": total, "total": total, "games": {"lotr": total}})


@pytest.mark.parametrize(("line", "message"), [
    ('{"id": "x", "verdict": "legal"', "1: not JSON: Expecting ',' delimiter at column 31"),
    ('{"id": "nowhere::q", "verdict": "legal"}', "1: id: question 'nowhere::q' is not in the pack"),
    ('["legal"]', "1: a JSON list, not an object; expected one JSON object per line"),
    ('{"id": "ID", "verdict": "maybe"}', "1: verdict: verdict 'maybe' for a play question; expected legal or illegal"),
    ('{"id": "ID", "verdict": "legal", "id": "ID"}', "1: id: key 'id' appears twice"),
    ('{"id": "ID", "verdict": "legal", "engine": "x"}', "1: engine: unknown field 'engine'"),
    ('{"id": "ID", "verdict": "legal"}\n{"id": "ID", "verdict": "illegal"}',
     "2: id: question 'ID' is answered twice (first on line 1)"),
])
def test_a_bad_verdicts_file_is_a_located_error(cli, pack: Path, tmp_path: Path, line: str, message: str) -> None:
    first = _lines(pack)[0]["id"]
    verdicts = tmp_path / "engine.jsonl"
    verdicts.write_text(line.replace("ID", first) + "\n", encoding="utf-8")
    code, out, err = cli("conformance", "compare", str(pack), str(verdicts))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {verdicts}:{message.replace('ID', first)}"), err


def test_a_pack_of_another_format_or_with_a_question_twice_is_refused(cli, pack: Path, tmp_path: Path) -> None:
    lines = pack.read_text(encoding="utf-8").splitlines()
    verdicts = tmp_path / "engine.jsonl"
    verdicts.write_text("", encoding="utf-8")
    older = tmp_path / "older.jsonl"
    older.write_text("\n".join([lines[0].replace("pyengine-conformance-pack/1", "pyengine-conformance-pack/0"),
                                *lines[1:]]) + "\n", encoding="utf-8")
    code, _, err = cli("conformance", "compare", str(older), str(verdicts))
    assert code == 2 and err.startswith(f"error: {older}:1: format: format 'pyengine-conformance-pack/0'; expected "
                                        "'pyengine-conformance-pack/1' (export the pack again with this pyengine)")
    twice = tmp_path / "twice.jsonl"
    twice.write_text("\n".join([lines[0], lines[0]]) + "\n", encoding="utf-8")
    code, _, err = cli("conformance", "compare", str(twice), str(verdicts))
    assert code == 2 and err.startswith(f"error: {twice}:2: id: question ") and "is in the pack twice" in err


def test_export_of_a_bad_file_writes_nothing(cli, tmp_path: Path) -> None:
    bad = ROOT / "tests" / "bad_input" / "misspelt_card.yaml"
    target = tmp_path / "pack.jsonl"
    code, out, err = cli("conformance", "export", str(TABLES[0]), str(bad), "--out", str(target))
    assert (code, out) == (2, "") and f"error: {bad}:" in err
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_a_scenario_with_actions_is_a_trace_compared_step_by_step(cli, tmp_path: Path) -> None:
    sequence = ROOT / "tests" / "scenarios" / "lotr_steps" / "turn.yaml"
    target = tmp_path / "pack.jsonl"
    code, out, err = cli("conformance", "export", str(TABLES[0]), str(sequence), "--out", str(target))
    assert code == 0 and "of 2 files" in out and "skipped" not in out, err
    entries = [e for e in _lines(target) if e["file"] == str(sequence)]
    steps = {e["params"]["step"]: e for e in entries if e["ask"] == "action"}
    actions = load_file(sequence, marks=False)["actions"]
    # A line for every step, whether the file asks about it or not; each holds the actions up to it and, under
    # every side, the state they left.
    assert sorted(steps) == list(range(1, len(actions) + 1))
    for step, entry in steps.items():
        assert entry["trace"]["moment"] == step and entry["trace"]["actions"] == actions[:step]
        assert set(entry["trace"]["after"]) == set(entry["verdicts"])
        jsonschema.Draft202012Validator(schema("conformance-pack")).validate(entry)
    site = {e["question"]: e for e in entries}["site-after-5"]
    assert site["trace"]["after"]["default"]["current_site"] == site["verdicts"]["default"]["verdict"] == "site-2"
    assert site["state"].get("current_site") != "site-2"
    # An engine that refuses a step the knowledge base does is told so, step by step, and the step is written back.
    done = next(e for e in steps.values() if e["verdicts"]["default"]["verdict"] == "done")
    verdicts = _verdicts(tmp_path / "engine.jsonl", _lines(target), "default", {done["id"]: "refused"})
    code, out, _ = cli("conformance", "compare", str(target), str(verdicts), "--profile", "default", "--out",
                       str(tmp_path / "found"))
    assert code == 1 and f"DISAGREE {done['id']}: engine \"refused\"" in out
    written = next((tmp_path / "found").glob("*.yaml"))
    assert "actions:" in written.read_text(encoding="utf-8")
    code, out, _ = cli("check", str(written))
    assert code == 1 and "expected refused, got done" in out


def test_a_damaged_trace_is_a_located_line(cli, tmp_path: Path) -> None:
    sequence = ROOT / "tests" / "scenarios" / "lotr_steps" / "kill.yaml"
    target = tmp_path / "pack.jsonl"
    assert cli("conformance", "export", str(sequence), "--out", str(target))[0] == 0
    lines = _lines(target)
    lines[1]["trace"]["actions"] = [*lines[1]["trace"]["actions"][:-1], {}, {}]
    target.write_text("".join(json.dumps(e) + "\n" for e in lines), encoding="utf-8")
    verdicts = _verdicts(tmp_path / "engine.jsonl", lines, "default", {})
    code, _, err = cli("conformance", "compare", str(target), str(verdicts))
    assert code == 2 and f"{target}:2:" in err and "trace.actions" in err


def test_a_step_keeps_its_line_when_a_question_has_its_id(cli, tmp_path: Path) -> None:
    data = load_file(ROOT / "tests" / "scenarios" / "lotr_steps" / "turn.yaml", marks=False)
    data["questions"] = [{"id": "step-1", "ask": "value", "after": 1, "of": "phase"},
                         *[q for q in data["questions"] if q.get("ask") != "action" or q.get("step") != 1]]
    sequence = tmp_path / "clash.yaml"
    sequence.write_text(json.dumps(data), encoding="utf-8")
    target = tmp_path / "pack.jsonl"
    assert cli("conformance", "export", str(sequence), "--out", str(target))[0] == 0
    steps = {e["params"]["step"]: e["question"] for e in _lines(target) if e["ask"] == "action"}
    assert steps[1] == "step-1-step" and "step-1" in {e["question"] for e in _lines(target) if e["ask"] == "value"}
