"""PYENGINE_SHARED names the one folder of what the repository does not hold (tests/paths.py), by default `shared`
beside the repository: the suite and the benchmarks look there for the real data, the engines' conformance files
and the rules documents, and a test that needs one of them skips, where it is absent, saying where it looked and
which variable to set (issue: a new user's docs, item 4)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from tests.paths import DFM_DATA, SHARED_ENV, not_found

# Test files whose tests need the real data or the engines' conformance files.
NEEDING = ("tests/games/dfm/test_vermihunter_import.py", "tests/games/dfm/test_every_real_card.py",
           "tests/hostile/test_dfm_import_trust.py", "tests/kb/test_engine_oracles.py")
PRINT_PATHS = ("from tests.paths import CONFORMANCE, DATA, DOCS, SHARED\n"
               "import benchmarks.run as run\n"
               "print(SHARED, DATA, CONFORMANCE, DOCS, run.GEMP_CARDS.parents[2], sep='\\n')")


def _run(args: list[str], shared: Path | None) -> subprocess.CompletedProcess[str]:
    """A Python process of its own at the repository's top, PYENGINE_SHARED naming `shared` (or unset)."""
    env = {k: v for k, v in os.environ.items() if k != SHARED_ENV}
    if shared is not None:
        env[SHARED_ENV] = str(shared)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
                          check=False)


def test_the_variable_names_the_folder_else_shared_beside_the_repository(tmp_path: Path) -> None:
    named = _run(["-c", PRINT_PATHS], tmp_path)
    assert named.returncode == 0, named.stderr
    assert named.stdout.split() == [str(tmp_path), str(tmp_path / "data"), str(tmp_path / "conformance"),
                                    str(tmp_path / "docs"), str(tmp_path)]
    default = _run(["-c", PRINT_PATHS], None)
    beside = ROOT.resolve().parent / "shared"
    assert default.stdout.split()[0] == str(beside) == default.stdout.split()[-1]


def test_the_tests_on_real_data_skip_naming_the_folder_and_the_variable(tmp_path: Path) -> None:
    done = _run(["-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", "-rs", *NEEDING], tmp_path)
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert done.returncode == 0, done.stdout[-3000:]
    assert skipped and [line for line in skipped if str(tmp_path) not in line or SHARED_ENV not in line] == []
    assert [f for f in NEEDING if not any(f in line for line in skipped)] == []


@pytest.mark.skipif(not DFM_DATA.is_dir(), reason=not_found("the Duel's real data", DFM_DATA))
def test_the_tests_on_real_data_read_the_folder_named(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "dfm-vermihunter").symlink_to(DFM_DATA)
    done = _run(["-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", "-rs",
                 "tests/hostile/test_written_numbers.py", "-k", "duel_card"], tmp_path)
    assert done.returncode == 0 and re.search(r"\b3 passed", done.stdout) and "skipped" not in done.stdout, \
        done.stdout[-3000:]
