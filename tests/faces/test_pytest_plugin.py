"""Issue 47 item 5: pyengine's pytest plugin (an entry point) collects the scenario files of any folder a user
names, outside this repository too: a test item per question, a file with input errors one failing item naming
each error, and YAML that is no scenario left alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TABLE = ("game: lotr\nplayers:\n  alice:\n    hand: [{id: s, card: Sting}]\n"
         "questions:\n  - {id: sting-is-legal, ask: play, instance: s, expect: legal}\n"
         "  - {id: sting-said-illegal, ask: play, instance: s, expect: illegal}\n")


def test_pytest_collects_a_users_own_tables(tmp_path: Path) -> None:
    tables = tmp_path / "my_tables"
    tables.mkdir()
    (tables / "sting.yaml").write_text(TABLE, encoding="utf-8")
    (tables / "broken.yaml").write_text("game: lotr\nplayers: {alice: {hand: [Stingg, Gandalff]}}\n"
                                        "questions: [{ask: plays, player: alice}]\n", encoding="utf-8")
    (tables / "workflow.yml").write_text("name: ci\non: push\n", encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # a user's project, not this one
    run = subprocess.run([sys.executable, "-m", "pytest", "my_tables", "-q", "-p", "no:cacheprovider", "-rf"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "2 failed, 1 passed" in out, out
    assert "question sting-said-illegal: expected illegal, got legal" in out
    assert "unknown card 'Stingg'" in out and "unknown card 'Gandalff'" in out
    assert "workflow" not in out
