"""`check --dask` and `deck --dask` on a Dask LocalCluster of two worker processes on this machine: the same
output and exit codes as `--jobs`, errors with their files, and clear errors for a cluster that cannot be used."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import dask
import distributed
import pytest

from conftest import DFM_DATA, ROOT

SCENARIOS = ROOT / "tests" / "scenarios"
DECK = ROOT / "examples" / "decks" / "sauron_eight.txt"


def _cluster(daemon: bool) -> distributed.LocalCluster:
    with dask.config.set({"distributed.worker.daemon": daemon}):
        return distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local cluster whose workers may start processes (as the README says to start them): its address."""
    local = _cluster(daemon=False)
    try:
        yield local.scheduler_address
    finally:
        local.close()


def test_check_on_the_cluster_gives_what_jobs_gives(cli, cluster: str, tmp_path: Path) -> None:
    # Every tenth Duel file (its real-card ones among them where the Duel's data is at hand): the whole folder
    # twice cost 20 s of the suite.
    duel = tmp_path / "dfm"
    duel.mkdir()
    for path in sorted((SCENARIOS / "dfm").glob("*.yaml"))[::10]:
        if DFM_DATA.is_dir() or "catalog:" not in path.read_text(encoding="utf-8"):
            shutil.copy(path, duel / path.name)
    folders = [str(SCENARIOS / "lotr"), str(SCENARIOS / "marvel"), str(duel), str(ROOT / "examples")]
    on_cluster = cli("check", *folders, "--dask", cluster, "--json")
    on_jobs = cli("check", *folders, "--jobs", "2", "--json")
    assert on_cluster[0] == on_jobs[0] == 0
    assert on_cluster[1] == on_jobs[1]
    assert '"passed"' in on_cluster[1]


def test_deck_on_the_cluster_gives_what_jobs_gives(cli, cluster: str, tmp_path: Path) -> None:
    decks = [str(shutil.copy(DECK, tmp_path / f"d{n:02d}.txt")) for n in range(40)]
    (tmp_path / "d05.txt").write_text("4 Sting\n", encoding="utf-8")
    on_cluster = cli("deck", *decks, "--game", "lotr", "--dask", cluster, "--json")
    on_jobs = cli("deck", *decks, "--game", "lotr", "--jobs", "2", "--json")
    assert on_cluster == on_jobs
    assert on_cluster[0] == 1  # eight copies of a Sauron is not a valid deck; four Stings are
    assert on_cluster[1].count('"valid": false') == 39 and on_cluster[1].count('"valid": true') == 1


def test_failures_on_the_cluster_are_the_files_own(cli, cluster: str, tmp_path: Path) -> None:
    for n in range(40):  # more than one batch
        shutil.copy(ROOT / "examples" / "judge_second_sting.yaml", tmp_path / f"s{n:02d}.yaml")
    (tmp_path / "s17.yaml").write_text("game: lotr\nplayers: {alice: {hand: [Stingg]}}\n"
                                       "questions: [{ask: plays, player: alice}]\n",
                                       encoding="utf-8")
    on_cluster = cli("check", str(tmp_path), "--dask", cluster)
    on_jobs = cli("check", str(tmp_path), "--jobs", "2")
    assert on_cluster == on_jobs
    code, out, err = on_cluster
    assert code == 2 and out.strip() == "117 passed, 0 failed (39 scenario files); 1 file not answered (errors above)"
    assert "s17.yaml" in err and "Stingg" in err and "Sting" in err


def test_a_wrong_address_is_a_clear_error(cli) -> None:
    code, out, err = cli("check", str(ROOT / "examples"), "--dask", "tcp://127.0.0.1:1")
    assert code == 2 and out == ""
    assert "no Dask scheduler answers at 'tcp://127.0.0.1:1'" in err and len(err.strip().splitlines()) == 1


def test_daemon_workers_are_a_clear_error(cli) -> None:
    local = _cluster(daemon=True)
    try:
        code, out, err = cli("check", str(ROOT / "examples"), "--dask", local.scheduler_address)
    finally:
        local.close()
    assert code == 2 and out == ""
    assert "DASK_DISTRIBUTED__WORKER__DAEMON=False" in err


def test_a_dask_run_is_bounded_by_its_timeout_as_a_whole(cli, cluster: str, tmp_path: Path) -> None:
    """24 files of about 0.7 s each take about 8 s on the cluster's two workers; with --timeout 3 the run ends
    within it, the files not answered by then each stopped at that bound (issue 49: the bound was --timeout for
    every file of every chunk, 2,835 s for 270 files at --timeout 10)."""
    import time

    import yaml

    support = [{"id": f"s{i}", "card": "Sting"} for i in range(1990)]
    big = {"game": "lotr", "players": {"alice": {"support": support, "hand": [{"id": "h", "card": "Sting"}]}},
           "questions": [{"id": "q", "ask": "plays", "player": "alice"}]}
    text = yaml.safe_dump(big)  # written once (0.2-0.4 s a dump), each file with its own title after it
    for n in range(24):
        (tmp_path / f"big{n:02d}.yaml").write_text(f"{text}title: big {n}\n", encoding="utf-8")
    started = time.monotonic()
    code, _, err = cli("--timeout", "3", "check", str(tmp_path), "--dask", cluster)
    took = time.monotonic() - started
    assert code == 3 and "longer than 3 s (--timeout, over the whole run)" in err
    assert took < 3 + 3
