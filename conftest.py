"""The suite's session store and fixtures; pyengine's pytest plugin (pyengine.pytest_plugin) collects every scenario
file under tests/scenarios/ and examples/ (pyproject's pyengine_scenarios) as test items, one per question."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyengine.core.engine import answer
from pyengine.core.errors import InputError
from pyengine.core.scenario import load_scenario
from pyengine.pytest_plugin import missing_catalog_reason
from tests.paths import DATA, DFM_DATA, DOCS, GEMP_CARDS, MARVELSDB, not_found

ROOT = Path(__file__).parent
SCENARIO_FOLDERS = (ROOT / "tests" / "scenarios", ROOT / "examples")
# Whether the property tests take every file rather than a sample (PYENGINE_EXHAUSTIVE=1).
EXHAUSTIVE = os.environ.get("PYENGINE_EXHAUSTIVE") == "1"
# The GEMP oracle's sequences (57 files of two shapes: kills, and the Palantír's replacement), each answered by its
# own scenario test: the property tests that answer a file many times over (every reading's choices, every play, a
# batch, its snapshots) and all_answers take every GEMP_SEQ_SAMPLE-th of them, every one when EXHAUSTIVE.
GEMP_SEQ = ROOT / "tests" / "scenarios" / "lotr_gemp_seq"
GEMP_SEQ_SAMPLE = 6


def thinned(paths: list[Path]) -> list[Path]:
    """Scenario files with the GEMP oracle's sequences sampled (GEMP_SEQ_SAMPLE), unless EXHAUSTIVE."""
    if EXHAUSTIVE:
        return list(paths)
    kept = [p for p in paths if p.parent == GEMP_SEQ][::GEMP_SEQ_SAMPLE]
    return [p for p in paths if p.parent != GEMP_SEQ or p in kept]
# The folder of the test session's catalog store, kept by the process that made it.
_STORE_FOLDER = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    """Import the real card databases into a store of this test session, where they exist: once, in the process
    that starts the session (pytest-xdist's workers inherit its store through the environment)."""
    import os
    import tempfile

    from pyengine.core import store
    from pyengine.games.dfm import importer as vermihunter
    from pyengine.games.lotr import importer as gemp
    from pyengine.games.marvel import importer as marvelsdb

    if hasattr(config, "workerinput") and os.environ.get(store.STORE_ENV):
        return
    folder = Path(tempfile.mkdtemp(prefix="pyengine-store-"))
    config.stash[_STORE_FOLDER] = folder
    os.environ[store.STORE_ENV] = str(folder / "catalog.sqlite")
    # `check` records its failures for --last-failed: in the session's folder, not in the repository.
    os.environ["PYENGINE_CACHE_DIR"] = str(folder / "cache")
    if GEMP_CARDS.is_dir():
        cards, report = gemp.read(GEMP_CARDS)
        store.write_source("gemp", "lotr", str(GEMP_CARDS), cards, report)
    if (MARVELSDB / "pack").is_dir():
        cards, report = marvelsdb.read(MARVELSDB)
        store.write_source("marvelsdb", "marvel", str(MARVELSDB), cards, report)
    if (DFM_DATA / vermihunter.FILE).is_file():
        cards, report = vermihunter.read(DFM_DATA)
        store.write_source("vermihunter", "dfm", str(DFM_DATA), cards, report)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` runs a worker per processor and one more: many tests wait on a server, a browser, a subprocess or a
    deadline, and the extra worker runs while they wait (on two processors the suite took 333 s against 362 s)."""
    import os

    return len(os.sched_getaffinity(0)) + 1


def pytest_unconfigure(config: pytest.Config) -> None:
    """The session's store goes with the session (only the process that made it removes it)."""
    import shutil

    folder = config.stash.get(_STORE_FOLDER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_limits() -> Iterator[None]:
    """Each test starts from the bounds it found and leaves them so: a test that runs a command or a worker's job
    in-process may set the process-wide bounds (pyengine.core.limits), which must not reach the next test."""
    from dataclasses import fields

    from pyengine.core.limits import limits

    saved = {f.name: getattr(limits, f.name) for f in fields(limits)}
    yield
    for name, value in saved.items():
        setattr(limits, name, value)


def missing_data_reason(error: InputError) -> str | None:
    """Why a scenario on an imported catalog cannot run here, or None when its error is a real one."""
    if missing_catalog_reason(error) is not None:
        return f"{not_found('real card data', DATA)}: {error.message}"
    return None


class AllAnswers(list):
    """Every scenario file with its answers; `missing` names the files that need real card data this machine
    does not have (a test over the whole set skips, saying so, where it needs them all)."""

    missing: list[str]

    def require_every_file(self) -> None:
        if self.missing:
            pytest.skip(f"{len(self.missing)} scenario files need {not_found('real card data', DATA)} "
                        f"(first: {self.missing[0]})")


@pytest.fixture(scope="session")
def all_answers() -> AllAnswers:
    """Every scenario file of the project with its answers (the GEMP oracle's sequences sampled: `thinned`; each of
    them is answered by its own scenario test), for the knowledge-base integrity tests."""
    from pyengine.core.scenario import scenario_files

    results = AllAnswers()
    results.missing = []
    for path in thinned(scenario_files(list(SCENARIO_FOLDERS))):
        try:
            scenario = load_scenario(path)
        except InputError as error:
            if missing_data_reason(error) is None:
                raise
            results.missing.append(str(path.relative_to(ROOT)))
            continue
        results.append((scenario, answer(scenario)))
    return results


@pytest.fixture
def own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A catalog store of the test's own (PYENGINE_STORE), empty, forgotten by the process before and after."""
    from pyengine.core import store

    path = tmp_path / "catalog.sqlite"
    monkeypatch.setenv(store.STORE_ENV, str(path))
    store.forget_open_sources()
    yield path
    store.forget_open_sources()


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """Run the command line in-process: its exit code, standard output and standard error."""
    from pyengine.cli import main

    def run(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return run


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def explorer():
    """`pyengine serve` in a process of its own on a free loopback port, with the rules documents where this
    machine has them: its base URL."""
    import os
    import subprocess
    import sys
    import time

    import httpx

    port = _free_port()
    env = {**os.environ, "PYENGINE_DOCS": str(DOCS)} if DOCS.is_dir() else None
    process = subprocess.Popen([sys.executable, "-m", "pyengine", "serve", "--port", str(port), "--workers", "2"],
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/documents", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.05)
    else:
        process.kill()
        pytest.fail(f"the server did not start: {process.stderr.read().decode() if process.stderr else ''}")
    yield url
    process.terminate()
    process.wait(10)
