"""`pyengine check` with the conventions of the test runners judges' and implementers' suites already use (issue
47, item 5): a scenario from standard input (`-`), stopping at the first failing file (`-x`), the last run's
failures again (`--last-failed`), and the answers written back as expectations (`--reset`, as Catala's
`clerk test --reset`: each file whole or not at all, comments kept)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GEMP_CARDS, ROOT

STING = ROOT / "examples" / "judge_second_sting.yaml"


def _failing_copy(folder: Path, name: str = "sting.yaml") -> Path:
    """The second-Sting table with one expectation turned wrong (bob-sting: legal, here expected illegal)."""
    text = STING.read_text(encoding="utf-8")
    right = "    instance: bob-sting\n    expect: legal\n"
    assert text.count(right) == 1
    path = folder / name
    path.write_text(text.replace(right, right.replace("legal", "illegal")), encoding="utf-8")
    return path


def _run(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pyengine", "check", *args], input=stdin, capture_output=True,
                          text=True, cwd=cwd, timeout=120, check=False)


def test_a_scenario_from_standard_input_is_checked_as_stdin() -> None:
    done = _run("-", str(ROOT / "examples" / "reading_heal_wounds.yaml"), stdin=STING.read_text(encoding="utf-8"))
    assert done.returncode == 0 and "(2 scenario files)" in done.stdout
    bad = _run("-", stdin="game: lotr\nplayers: {a: {hand: [{id: x, card: Stingg}]}}\n"
                          "questions: [{ask: play, instance: x}]\n")
    assert bad.returncode == 2 and bad.stderr.startswith("error: <stdin>:2:") and "did you mean 'Sting'" in bad.stderr
    empty = _run("-", stdin="")
    assert empty.returncode == 2 and "<stdin>: the scenario is empty" in empty.stderr


def test_exitfirst_stops_after_the_first_failing_file(cli, tmp_path: Path) -> None:
    first = _failing_copy(tmp_path, "a_sting.yaml")
    (tmp_path / "b_heal.yaml").write_text((ROOT / "examples" / "reading_heal_wounds.yaml").read_text("utf-8"), "utf-8")
    code, out, _ = cli("check", "-x", str(tmp_path))
    assert code == 1 and f"FAIL {first}" in out
    assert "(1 scenario files)" in out and "stopped at the first failing file (-x): 1 files not checked" in out
    code, out, _ = cli("check", "-x", "--json", str(tmp_path))
    assert code == 1 and '"not_checked": 1' in out


def test_last_failed_runs_the_failures_of_the_last_check_again(cli, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PYENGINE_CACHE_DIR", str(tmp_path / "cache"))
    tables = tmp_path / "tables"
    tables.mkdir()
    failing = _failing_copy(tables)
    (tables / "heal.yaml").write_text((ROOT / "examples" / "reading_heal_wounds.yaml").read_text("utf-8"), "utf-8")
    code, out, _ = cli("check", str(tables))
    assert code == 1 and "(2 scenario files)" in out
    # Only the question that failed, of the only file that failed.
    code, out, _ = cli("check", "--last-failed", str(tables))
    assert code == 1 and "0 passed, 1 failed (1 scenario files)" in out and "[bob-sting]" in out
    # Mended, it passes once more, and then nothing is recorded: every file is checked.
    failing.write_text(STING.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = cli("check", "--lf", str(tables))
    assert code == 0 and "1 passed, 0 failed (1 scenario files)" in out
    code, out, err = cli("check", "--lf", str(tables))
    assert code == 0 and "(2 scenario files)" in out and "no failures recorded" in err


def test_reset_writes_the_answers_as_expectations_keeping_comments(cli, tmp_path: Path) -> None:
    table = tmp_path / "reset_me.yaml"
    table.write_text("""game: lotr
title: A table to reset
players:
  alice:
    hand:
      - {id: sting, card: 1_313}   # a comment that stays
    play:
      - {id: sting-1, card: 1_313}
questions:
  # a flow question without an expectation
  - {id: q-flow, ask: play, instance: sting}
  - id: q-block
    ask: play
    instance: sting
    expect: legal      # wrong on purpose
    rules: [lotr_per_player_scope]
  - {id: q-plays, ask: plays, player: alice, expect: {legal: [], illegal: []}}
  - id: q-fine
    ask: play
    instance: sting
    expect: illegal
""", encoding="utf-8")
    code, out, _ = cli("check", str(table))
    assert code == 1 and "2 failed, 1 answered without an expectation" in out
    code, out, _ = cli("check", "--reset", str(table))
    assert code == 0 and "reset 3 questions in 1 files" in out
    text = table.read_text(encoding="utf-8")
    assert "# a comment that stays" in text and "# wrong on purpose" in text and "# a flow question" in text
    assert "- {id: q-flow, ask: play, instance: sting, expect: illegal}" in text
    assert "    expect: illegal      # wrong on purpose\n    rules: [lotr_unique_blocks_unique]\n" in text
    assert "expect: {legal: [], illegal: [sting]}}" in text
    code, out, _ = cli("check", str(table))
    assert code == 0 and "4 passed, 0 failed (1 scenario files)" in out
    # A file already holding every expectation is left byte for byte.
    before = table.read_bytes()
    code, out, _ = cli("check", "--reset", str(table))
    assert code == 0 and "reset 0 questions in 0 files" in out and table.read_bytes() == before


def test_reset_leaves_a_file_it_cannot_read_as_it_was(cli, tmp_path: Path) -> None:
    table = tmp_path / "bad.yaml"
    text = "game: lotr\nplayers: {a: {hand: [{id: x, card: Stingg}]}}\nquestions: [{ask: play, instance: x}]\n"
    table.write_text(text, encoding="utf-8")
    code, _, err = cli("check", "--reset", str(table))
    assert code == 2 and "unknown card 'Stingg'" in err and table.read_text(encoding="utf-8") == text


@pytest.mark.skipif(not GEMP_CARDS.is_dir(), reason=f"GEMP card data not found at {GEMP_CARDS}")
def test_catalog_is_the_catalog_of_the_files_that_name_none(cli, tmp_path: Path) -> None:
    """`check --catalog gemp`: a LOTR table naming no catalog finds a card outside the built-in one; a Marvel table
    is left on its own game's catalog; a file's own `catalog:` wins; an unknown catalog is an input error."""
    table = tmp_path / "gandalf.yaml"
    table.write_text("game: lotr\nplayers:\n  alice:\n    hand:\n      - {id: g, card: 'Gandalf, The White Wizard'}\n"
                     "questions:\n  - {ask: play, instance: g, expect: legal}\n", encoding="utf-8")
    code, _, err = cli("check", str(table))
    assert code == 2 and "unknown card 'Gandalf, The White Wizard'" in err
    code, out, _ = cli("check", "--catalog", "gemp", str(table), str(ROOT / "examples" / "marvel_reading_faces.yaml"))
    assert code == 0 and "(2 scenario files)" in out
    own = tmp_path / "own.yaml"
    own.write_text("catalog: builtin\n" + table.read_text(encoding="utf-8"), encoding="utf-8")
    code, _, err = cli("check", "--catalog", "gemp", str(own))
    assert code == 2 and "unknown card 'Gandalf, The White Wizard'" in err
    code, _, err = cli("check", "--catalog", "gmep", str(table))
    assert code == 2 and "did you mean 'gemp'" in err


def test_stats_gives_clingos_figures_per_question(cli) -> None:
    """`check --stats`: each question with its unit's ground atoms, rules, choices and time; a deterministic
    question makes no solver choices (the second-Sting table's three questions share one unit)."""
    code, out, _ = cli("check", "--stats", "--json", str(STING))
    questions = json.loads(out)["scenarios"][0]["questions"]
    assert code == 0 and len(questions) == 3
    for question in questions:
        stats = question["stats"]
        assert stats["ground_atoms"] > 0 and stats["rules"] > 0 and stats["seconds"] > 0
        assert stats["choices"] == 0 and stats["questions"] == 3
    code, out, _ = cli("check", "--stats", str(STING))
    assert code == 0 and f"stats {STING} [bob-sting]: " in out and " ground atoms, " in out
    assert "0 choices" in out
