"""A smoke run of the benchmark suite, so that it cannot rot; the figures themselves are not asserted."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT
from tests.paths import DATA


def test_quick_benchmark_run_prints_every_figure() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--json"],
                            capture_output=True, text=True, check=True, timeout=300)
    results = {r["name"]: r for r in json.loads(result.stdout)["results"]}
    assert results["query_2x20"]["median_ms"] > 0 and results["query_2x20"]["ratio"] > 0
    for cold in ("cli_cold_help", "cli_cold_readings", "cli_cold_check_one_scenario"):
        assert results[cold]["median_ms"] > 0 and isinstance(results[cold]["met"], bool), cold
    assert results["query_2x20"]["target"] == "median_ms <= 5"
    assert results["plays_2x20_seven_in_hand"]["ratio"] > 0 and results["plays_2x20_seven_in_hand"]["plays"] >= 7
    batch = results["batch_check_100_scenarios_jobs_2"]
    assert batch["items"] == 100 and batch["per_second"] > 0 and batch["peak_rss_mb"] > 0
    assert batch["target"] == "per_second >= 500, peak_rss_mb < 300"
    dask = results["batch_check_100_scenarios_dask_local_cluster_2_workers"]
    assert dask["items"] == 100 and dask["ratio"] > 0 and dask["baseline_ms"] == batch["median_ms"]
    assert any(name.startswith("batch_deck_") for name in results)
    assert results["server_plays_2x20_warm_end_to_end"]["ratio"] > 0
    assert results["server_plays_concurrency_20"]["errors"] == 0
    assert results["server_plays_concurrency_8"]["target"] == "per_second >= 500, p95_ms <= 20"
    assert results["dfm_check_whole_game"]["median_ms"] > 0 and isinstance(results["dfm_check_whole_game"]["met"], bool)
    assert results["dfm_plays_example"]["target"] == "median_ms <= 200"
    if (DATA / "dfm-vermihunter").is_dir():  # the Duel on its real cards
        real = results["dfm_real_check_whole_game"]
        assert real["actions"] > 0 and real["target"] == "median_ms <= 1500" and isinstance(real["met"], bool)
        assert results["dfm_real_plays_mid_game_state"]["target"] == "median_ms <= 200"
        replayed = results["dfm_real_plays_mid_game"]
        assert replayed["median_ms"] > 0 and "target" not in replayed
        assert results["dfm_real_plays_mid_game_followed"]["target"] == "median_ms <= 200"
        assert results["dfm_real_ground_atoms_per_action"]["choices"] == 0
    for name in ("table_query_2x20", "table_query_2x200", "table_plays_2x20_seven_in_hand", "table_every_reading_2x20"):
        assert results[name]["median_ms"] > 0 and isinstance(results[name]["met"], bool), name
    assert results["table_query_2x20"]["target"] == "median_ms <= 0.5, ratio <= 6"
    assert results["table_every_reading_2x20"]["sides"] > 10
    for name in ("conformance_export", "conformance_compare"):
        assert results[name]["items"] > 100 and results[name]["ratio"] > 0 and isinstance(results[name]["met"], bool)
    atoms = results["dfm_ground_atoms_per_action"]
    assert 0 < atoms["atoms_10"] < atoms["atoms_100"] and atoms["slope"] > 0
