"""A short run of the scenario fuzzer (the long run: python -m dev.fuzz --count 10000)."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT
from dev.fuzz import (
    mutate_structure,
    mutate_text,
    run,
    run_cards,
    run_commands,
    run_crosstalk,
    run_kill,
    run_server,
)
from tests.paths import DATA


def test_short_fuzz_run_has_no_tracebacks() -> None:
    tally = run(300, seed=3, paths=[ROOT / "examples", ROOT / "tests" / "scenarios" / "lotr",
                                    ROOT / "tests" / "scenarios" / "marvel"])
    assert tally["inputs"] == 300
    assert tally["tracebacks"] == 0, tally["failures"][0]["traceback"] if tally["failures"] else ""
    assert tally["answered"] > 0 and tally["input_errors"] > 0


def test_short_fuzz_of_every_command_has_no_tracebacks(tmp_path: Path) -> None:
    tally = run_commands(60, seed=4, paths=[ROOT / "examples", ROOT / "tests" / "scenarios" / "dfm"], folder=tmp_path)
    assert tally["inputs"] == 60 and tally["tracebacks"] == 0, tally["failures"]


def test_short_fuzz_of_card_databases_has_no_tracebacks(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "unused.sqlite"))
    tally = run_cards(60, seed=5, folder=tmp_path)
    assert tally["inputs"] >= 60 and tally["tracebacks"] == 0, tally["failures"]
    assert tally["answered"] > 0 and tally["input_errors"] > 0


def test_mutations_change_their_input() -> None:
    import random

    rng = random.Random(5)
    data = {"game": "lotr", "questions": [{"ask": "card", "card": "Sting"}]}
    assert any(mutate_structure(data, rng) != data for _ in range(10))
    assert any(mutate_text("game: lotr\n", rng) != "game: lotr\n" for _ in range(10))


def test_short_fuzz_of_files_sharing_card_ids_finds_no_cross_talk(tmp_path: Path) -> None:
    tally = run_crosstalk(12, seed=6, paths=[ROOT / "tests" / "scenarios"], folder=tmp_path)
    assert tally["inputs"] >= 24 and tally["tracebacks"] == 0, tally["failures"]


def test_short_fuzz_of_a_server_under_mixed_requests(tmp_path: Path) -> None:
    tally = run_server(30, seed=7, paths=[ROOT / "examples"])
    assert tally["inputs"] == 30 and tally["tracebacks"] == 0, tally["failures"]
    assert tally["answered"] > 0 and tally["input_errors"] > 0


def test_short_fuzz_of_killed_commands_leaves_nothing_running(tmp_path: Path) -> None:
    gemp = DATA / "gemp-lotr"
    # Seed 287 kills a `check --jobs 2` at 1.4 s (its workers running) and an import at 0.8 s (before it commits):
    # both kinds killed mid-run, in 2.2 s of waiting (seed 8 drew two imports and waited 6.7 s, 3.9 of it on one).
    tally = run_kill(2, seed=287, paths=[ROOT / "tests" / "scenarios" / "dfm"], folder=tmp_path,
                     gemp=gemp if gemp.is_dir() else None)
    assert tally["inputs"] == 2 and tally["tracebacks"] == 0, tally["failures"]
