"""A smoke run of the benchmark suite, so that it cannot rot; the figures themselves are not asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_quick_benchmark_run_prints_every_figure() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--json"],
                            capture_output=True, text=True, check=True, timeout=300)
    results = {r["name"]: r for r in json.loads(result.stdout)["results"]}
    assert results["query_2x20"]["median_ms"] > 0 and results["query_2x20"]["ratio"] > 0
    assert results["cli_cold_check_one_scenario"]["median_ms"] > 0
    assert results["plays_2x20_seven_in_hand"]["ratio"] > 0 and results["plays_2x20_seven_in_hand"]["plays"] >= 7
    batch = next(r for name, r in results.items() if name.startswith("batch_check_"))
    assert batch["items"] == 100 and batch["per_second"] > 0 and batch["peak_rss_mb"] > 0
    assert any(name.startswith("batch_deck_") for name in results)
    assert results["server_plays_2x20_warm_end_to_end"]["ratio"] > 0
    assert results["server_plays_40_requests_concurrency_20"]["errors"] == 0
