"""`pyengine consistency` on the rules documents: counts, coverage, the findings a rules committee needs,
the drift demonstration on a copy with one sentence changed, and the baseline's exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import ROOT
from pyengine.cli import main
from tests.paths import DOCS, NOTES

pytestmark = pytest.mark.skipif(not DOCS.is_dir(), reason=f"the rules documents are not at {DOCS}")



# The documents whose report is searched for states here. The Duel's 18 reading searches take half a minute of
# solving; the states they find are checked in (tests/scenarios/generated/dfm/, answered as scenario files) and
# test_search.py checks that each of those holds its reading's disagreement, so its report here is not searched.
SEARCHED = ["lotr_unique", "marvel_unique"]


@pytest.fixture(scope="module")
def report() -> dict:
    import contextlib
    import io

    def run(*args: str) -> dict:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["consistency", *args, "--docs", str(DOCS), "--json", "--scenarios", str(ROOT / "examples"),
                         str(ROOT / "tests" / "scenarios")])
        assert code == 0
        return json.loads(out.getvalue())

    searched, unsearched = run(*SEARCHED), run("dfm_allies", "dfm_base", "--no-search")
    return {**searched, "documents": searched["documents"] + unsearched["documents"]}


def _document(report: dict, name: str) -> dict:
    return next(d for d in report["documents"] if d["document"] == name)


def _finding(document: dict, finding_id: str) -> dict:
    return next(f for f in document["findings"] if f["id"] == finding_id)


def test_four_documents_with_every_normative_paragraph_covered(report: dict) -> None:
    """The three rulebooks, and the Duel's base-game notes (dfm_base) its base-game rules cite."""
    counts = {d["document"]: (d["paragraphs"], d["normative"], d["covered"]) for d in report["documents"]}
    assert counts == {"lotr_unique": (74, 55, 55), "marvel_unique": (14, 11, 11), "dfm_allies": (86, 67, 67),
                      "dfm_base": (42, 20, 20)}
    assert not [f for d in report["documents"] for f in d["findings"] if f["kind"] in ("coverage", "drift")]


def test_the_notes_report_only_their_coverage_and_drift(report: dict) -> None:
    """A game's further document has no readings, tensions or lint of its own: its game's main document has them."""
    assert _document(report, "dfm_base")["findings"] == []
    assert _finding(_document(report, "dfm_allies"), "reading:dfm_board_connections")


def test_lotr_contradictions_come_with_their_paragraphs_and_a_state(report: dict) -> None:
    lotr = _document(report, "lotr_unique")
    mumak = _finding(lotr, "reading:lotr_mumak_direction")
    assert {"p3", "p27"} <= set(mumak["paragraphs"]) and mumak["state"]["questions"]
    palantir = _finding(lotr, "tension:lotr_palantir_cross_side:lotr_per_player_scope")
    assert {"p6", "p31"} <= set(palantir["paragraphs"])
    assert {q["expect"] for q in palantir["state"]["questions"]} == {"illegal"}
    for reading in ("lotr_heal_wounds", "lotr_heal_discard"):
        heal = _finding(lotr, f"reading:{reading}")
        assert {"p7", "p58"} <= set(heal["paragraphs"]) and heal["state"]


def test_marvel_open_clauses_are_findings(report: dict) -> None:
    marvel = _document(report, "marvel_unique")
    readings = {f["id"] for f in marvel["findings"] if f["id"].startswith("reading:")}
    assert len(readings) == 8 and "reading:marvel_person_spelling" in readings
    assert all(_finding(marvel, r)["state"] for r in readings)


def test_every_reading_has_a_state_where_its_two_choices_disagree(report: dict) -> None:
    from pyengine.core.engine import answer
    from pyengine.core.scenario import scenario_from_data

    for document in report["documents"]:
        if document["document"] == "dfm_base":  # the notes' readings are reported with the Duel's rulebook
            continue
        readings = [f for f in document["findings"] if f["id"].startswith("reading:")]
        assert readings, document["document"]
        if document["document"] not in SEARCHED:
            assert not [f for f in readings if f.get("state")]
            continue
        for finding in readings:
            state = finding["state"]
            assert state and state["questions"], finding["id"]
            results = answer(scenario_from_data(state, f"<{finding['id']}>"))
            assert results and not [r for r in results if r.failures()], finding["id"]
            pairs = zip(state["questions"][::2], state["questions"][1::2], strict=True)
            assert all(a["expect"] != b["expect"] for a, b in pairs), finding["id"]


def test_allies_lint(report: dict) -> None:
    dfm = _document(report, "dfm_allies")
    ids = {f["id"] for f in dfm["findings"]}
    assert {"lint:rows:lobelia", "lint:pairing:lobelia", "lint:terms:supply", "lint:terms:reveal effect",
            "lint:terms:discard effect", "lint:terms:Alliance token", "lint:tokens:count",
            "lint:tokens:all-allies"} <= ids
    assert "no player can" in _finding(dfm, "lint:tokens:all-allies")["statement"]
    assert _finding(dfm, "lint:pairing:tom_bombadil")["statement"].startswith("tom_bombadil: enter p64, exit p65")


def _revised_copy(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs)
    path = docs / "lotr-tcg-unique.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("Many character, possession"))
    lines[index] = lines[index].replace("you cannot play another card", "you may not play a second card")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return docs


def test_drift_names_what_must_be_reviewed(cli, tmp_path: Path) -> None:
    code, out, _ = cli("consistency", "lotr_unique", "--docs", str(_revised_copy(tmp_path)), "--no-search",
                       "--json", "--scenarios", str(ROOT / "examples"), str(ROOT / "tests" / "scenarios"))
    drift = [f for f in json.loads(out)["documents"][0]["findings"] if f["kind"] == "drift"]
    assert code == 1
    assert [f["id"] for f in drift] == ["drift:lotr_unique:p45"]
    assert {"lotr_unique_blocks_unique", "lotr_unique_blocks_nonunique", "lotr_inactive_does_not_block"} <= set(
        drift[0]["rules"])
    assert "lotr_mumak_direction" in drift[0]["statement"] and "unique_in_play.yaml" in drift[0]["statement"]


def _revised_notes(tmp_path: Path) -> Path:
    """A copy of the shared folder's documents and notes, the notes' coin row revised; the copy's docs folder."""
    shared = tmp_path / "shared"
    shutil.copytree(DOCS, shared / "docs")
    shutil.copytree(NOTES, shared / "notes")
    path = shared / "notes" / "dfm-base-game.md"
    text = path.read_text(encoding="utf-8")
    assert text.count("| Coins | 30 in total;") == 1
    path.write_text(text.replace("| Coins | 30 in total;", "| Coins | 40 in total;"), encoding="utf-8")
    return shared / "docs"


@pytest.mark.skipif(not NOTES.is_dir(), reason=f"the base-game notes are not at {NOTES}")
def test_a_revised_line_of_the_notes_is_drift_naming_its_rules(cli, tmp_path: Path) -> None:
    """The notes are a document of the Duel like its rulebook: a line changed there names the rules citing it and
    the scenarios to review."""
    code, out, _ = cli("consistency", "dfm_base", "--docs", str(_revised_notes(tmp_path)), "--no-search", "--json",
                       "--scenarios", str(ROOT / "examples"), str(ROOT / "tests" / "scenarios"))
    [notes] = json.loads(out)["documents"]
    drift = [f for f in notes["findings"] if f["kind"] == "drift"]
    assert code == 1 and notes["document"] == "dfm_base"
    assert [f["id"] for f in drift] == ["drift:dfm_base:p12"]
    assert {"dfm_discard_reserve_short", "dfm_card_coins", "dfm_card_enemy_coins", "dfm_card_cost"} <= set(
        drift[0]["rules"])
    assert "discard_reserve_short.yaml" in drift[0]["statement"]
    code, out, _ = cli("consistency", "dfm_allies", "--docs", str(_revised_notes(tmp_path / "again")), "--no-search",
                       "--json", "--scenarios", str(ROOT / "examples"), str(ROOT / "tests" / "scenarios"))
    assert code == 0 and not [f for f in json.loads(out)["documents"][0]["findings"] if f["kind"] == "drift"]


def test_a_missing_notes_file_is_an_input_error(cli, tmp_path: Path) -> None:
    shutil.copytree(DOCS, tmp_path / "docs")
    code, out, err = cli("consistency", "dfm_base", "--docs", str(tmp_path / "docs"), "--no-search")
    assert code == 2 and out == "" and "document dfm_base not found" in err and "notes" in err


def test_a_baseline_makes_only_new_findings_fail(cli, tmp_path: Path) -> None:
    baseline = tmp_path / "accepted.yaml"
    code, _, _ = cli("consistency", "lotr_unique", "--docs", str(DOCS), "--no-search",
                     "--write-baseline", str(baseline))
    assert code == 0 and baseline.exists()
    code, _, _ = cli("consistency", "lotr_unique", "--docs", str(DOCS), "--no-search", "--baseline",
                     str(baseline))
    assert code == 0
    code, out, _ = cli("consistency", "lotr_unique", "--docs", str(_revised_copy(tmp_path)), "--no-search",
                       "--baseline", str(baseline), "--json")
    assert code == 1 and json.loads(out)["new"] == ["drift:lotr_unique:p45"]


def test_missing_documents_folder_is_an_input_error(cli, tmp_path: Path) -> None:
    code, _, err = cli("consistency", "--docs", str(tmp_path / "nowhere"))
    assert code == 2 and "no rules documents folder" in err


def test_scenario_folders_come_from_the_package_and_a_missing_one_is_refused(cli, tmp_path: Path) -> None:
    import subprocess
    import sys

    elsewhere = subprocess.run([sys.executable, "-m", "pyengine", "consistency", "--docs", str(DOCS), "--no-search",
                                "--json"], capture_output=True, text=True, cwd=tmp_path, check=False)
    here = cli("consistency", "--docs", str(DOCS), "--no-search", "--json")
    assert json.loads(elsewhere.stdout) == json.loads(here[1])
    assert json.loads(here[1])["scenario_folders"] == [str(ROOT / "examples"), str(ROOT / "tests" / "scenarios")]
    code, out, err = cli("consistency", "--docs", str(DOCS), "--no-search", "--scenarios", "nowhere")
    assert code == 2 and out == "" and "nowhere: --scenarios: no such file or folder" in err


def test_deep_search_tells_explanatory_rules_from_deciding_ones() -> None:
    """On two rules that only explain and two that decide (the search for every rule of the document, `--deep`,
    takes a minute); and no rule of the document is dead: each fires in some state of the bounded search."""
    from pyengine.core import kb as kbase
    from pyengine.tools.consistency import deep_findings
    from pyengine.tools.edge_cases import firing_rules

    rules = ["lotr_stacked_not_in_play", "lotr_per_player_scope", "lotr_unique_blocks_unique", "lotr_dead_pile_blocks"]
    findings = {f.id: f for f in deep_findings("lotr_unique", rules)}
    assert sorted(findings) == ["explanatory:lotr_per_player_scope", "explanatory:lotr_stacked_not_in_play"]
    assert [r for r, fires in firing_rules("lotr", sorted(kbase.load("lotr").rules), 3, 3).items() if not fires] == []


def test_a_reading_finding_counts_its_choices() -> None:
    """Issue 47 item 6: "allows two readings" only where there are two; a reading of three choices says three."""
    from pyengine.core import kb as kbase
    from pyengine.tools.consistency import reading_findings

    choices = {r.name: len(r.choices) for r in kbase.load("lotr").readings.values()}
    for finding in reading_findings("lotr_unique", search_states=False):
        count = choices[finding.id.removeprefix("reading:")]
        assert f"allows {({2: 'two', 3: 'three'})[count]} readings" in finding.statement
    assert 3 in choices.values()
