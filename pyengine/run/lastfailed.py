"""What `check --last-failed` runs again: the questions that failed and the files that could not be answered in
the last `check`, kept in a small JSON file of the cache folder (PYENGINE_CACHE_DIR, default `.pyengine_cache` in
the current folder, as pytest keeps `.pytest_cache`), keyed by each file's absolute path. Each `check` writes it
whole (pyengine.core.files.write_whole) with what it found among the files it checked; the files it did not check
keep what was recorded of them."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pyengine.core.files import write_whole
from pyengine.core.results import CheckResult
from pyengine.run.bulk import STDIN

CACHE_ENV = "PYENGINE_CACHE_DIR"
# The record's format: a record of another format is read as no record.
FORMAT = 1


def cache_file() -> Path:
    return Path(os.environ.get(CACHE_ENV) or ".pyengine_cache") / "lastfailed.json"


def recorded() -> dict[str, list[str] | None]:
    """Each file that failed last time: the ids of its questions that failed, or None for a file not answered.
    No record, or one that cannot be read, is no failure recorded."""
    try:
        data = json.loads(cache_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("failed"), dict):
        return {}
    return {str(k): v if isinstance(v, list) else None for k, v in data["failed"].items()}


def _key(file: str) -> str | None:
    return None if file == STDIN else str(Path(file).resolve())


def record(result: CheckResult, checked: set[str]) -> str | None:
    """Record this run's failures among the files it checked (`checked`: their absolute paths), keeping what
    was recorded of the others; a message when the record cannot be written (the run's verdicts stand)."""
    failed = {k: v for k, v in recorded().items() if k not in checked}
    for scenario in result.scenarios:
        ids = [q.question for q in scenario.questions if not q.passed]
        key = _key(scenario.file)
        if ids and key:
            failed[key] = ids
    for errors in result.errors:
        key = _key(errors.file)
        if key:
            failed[key] = None
    path = cache_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, [json.dumps({"format": FORMAT, "failed": failed}, indent=1, sort_keys=True)])
    except OSError as error:
        return f"the failures were not recorded for --last-failed ({path}: {error.strerror})"
    return None


def only_failed(result: CheckResult, failed: dict[str, list[str] | None]) -> CheckResult:
    """Of a run over the files that failed last time, the questions that failed then or fail now (a file not
    answered then is kept whole: no failure of the files run is hidden); every file not answered now is kept."""
    from dataclasses import replace

    from pyengine.run.bulk import summed

    kept = []
    for scenario in result.scenarios:
        ids = failed.get(_key(scenario.file) or "")
        questions = scenario.questions if ids is None else [q for q in scenario.questions
                                                            if q.question in ids or not q.passed]
        if questions:
            kept.append(replace(scenario, questions=questions))
    return replace(summed(kept, result.errors), not_checked=result.not_checked)
