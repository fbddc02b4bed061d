"""Many scenario or decklist files answered as bounded work: BATCH_FILES at a time in one Control
(pyengine.core.batch), each batch in a worker process under the run's bounds (pyengine.run.runner) or on a Dask
cluster (pyengine.run.cluster); every file's input errors raised together."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyengine.core.answering import (
    answer,
    deck_answer,
    overrides,
    scenario_result,
    validate_choices,
    validate_deck,
)
from pyengine.core.arguments import checked
from pyengine.core.errors import EXIT_FAILED, EXIT_HOLDS, InputError
from pyengine.core.results import (
    CheckResult,
    Choices,
    DeckResult,
    DecksResult,
    ErrorResult,
    FileErrors,
    Progress,
    ScenarioResult,
)

if TYPE_CHECKING:
    from pyengine.core.engine import Answer
    from pyengine.core.scenario import Scenario


def file_errors(file: str, error: InputError) -> FileErrors:
    """A file's errors as a result: each of them, and the exit code the worst gives; an error that names no file
    (a bound reached in a batch, a defect) names this one."""
    return FileErrors(file, error.exit_code, [ErrorResult.of(e if e.file else replace(e, file=file))
                                              for e in error.all()])


def check_file(job: tuple[str, str | None, Choices | None, str | None]) -> ScenarioResult | FileErrors:
    """Check one scenario file (it must ask questions; job = (path, default catalog, readings, profile)): its
    result, or its errors (run in workers too)."""
    from pyengine.core.scenario import load_scenario

    path, catalog, readings, profile = job
    try:
        return answer(load_scenario(Path(path), catalog), readings, profile)
    except InputError as error:
        return file_errors(path, error)


def check_text(text: str, name: str, readings: Choices | None, profile: str | None,
               catalog: str | None = None) -> ScenarioResult | FileErrors:
    """Check one scenario given as text (`check -`, standard input), here in the command's process: its result, or
    its errors, under `name`."""
    from pyengine.core.scenario import scenario_from_data, with_catalog
    from pyengine.core.yamlio import load_text

    try:
        data = load_text(text, name)
        if data is None:
            raise InputError("the scenario is empty", file=name, expected="a YAML mapping")
        return answer(scenario_from_data(with_catalog(data, catalog), name), readings, profile)
    except InputError as error:
        return file_errors(name, error)


def check_files(jobs: list[tuple[str, str | None, Choices | None, str | None]]) -> list[Any]:
    """Check scenario files in one batch (pyengine.core.batch; run in workers too)."""
    from pyengine.core.scenario import load_scenario

    return _answer_batch(jobs, lambda job: load_scenario(Path(job[0]), job[1]), scenario_result)


def _answer_batch(jobs: list[tuple[Any, ...]], load: Callable[[tuple[Any, ...]], Scenario],
                  result: Callable[[Scenario, list[Answer]], Any]) -> list[Any]:
    """Load each job's file (job = (path, ..., readings, profile)) and answer all of them in one batch: each
    file's result, or its errors (its input errors, a bound it reached, a defect)."""
    from pyengine.core.batch import answer_many
    from pyengine.core.limits import limits
    from pyengine.run.runner import Failure, failure_message

    results: list[Any] = [None] * len(jobs)
    loaded: list[tuple[int, Scenario, Choices]] = []
    for index, job in enumerate(jobs):
        try:
            scenario = load(job)
            validate_choices(job[-2], job[-1])
            loaded.append((index, scenario, overrides(scenario.game.name, job[-2], job[-1], scenario.path)))
        except InputError as error:
            results[index] = file_errors(str(job[0]), error)
    answered = answer_many([(scenario, overrides) for _, scenario, overrides in loaded])
    for (index, scenario, _), answers in zip(loaded, answered, strict=True):
        if isinstance(answers, InputError):
            results[index] = file_errors(str(jobs[index][0]), answers)
        elif isinstance(answers, Exception):
            results[index] = file_errors(str(jobs[index][0]),
                                         Failure(failure_message(answers, limits.memory_mb)).error())
        else:
            results[index] = result(scenario, answers)
    return results


# Files one worker answers in one batch: enough to share the grounder's fixed cost, few enough that a file which
# stops its batch (at a bound) costs little before its batch's files are answered again one at a time.
BATCH_FILES = 32


# The part of `--timeout` a batch of several files may take; its files stopped there get the rest each.
BATCH_SHARE = 0.5


def answer_chunks(one: Callable[[Any], Any], many: Callable[[list[Any]], list[Any]], chunks: list[list[Any]],
                   workers: int, progress: Progress | None, keep: bool = False) -> list[Any]:
    """Each file's result, the files of each chunk answered in one batch in workers under the run's bounds
    (pyengine.run.runner; `keep`: the workers stay for the next call). A batch of several files has half the time
    bound; the files of a batch that did not finish are answered again one at a time, each within the other
    half, so that no file's answer takes longer than `--timeout` however many slow files share its batch."""
    from pyengine.core.limits import limits
    from pyengine.run.runner import Failure, run_bounded

    total = sum(len(c) for c in chunks)
    size = len(chunks[0]) if chunks else 1  # chunks are of one size but the last
    done = None if progress is None else (lambda n, _: progress(min(n * size, total), total))
    share = [limits.solve_seconds * (BATCH_SHARE if len(chunk) > 1 else 1.0) for chunk in chunks]
    results: list[Any] = []
    stopped: list[int] = []
    for chunk, outcome in zip(chunks, run_bounded(many, chunks, workers, done, keep, share), strict=True):
        if isinstance(outcome, Failure):
            if len(chunk) > 1:
                stopped.extend(range(len(results), len(results) + len(chunk)))
            outcome = [outcome] * len(chunk)
        results.extend(outcome)
    jobs = [job for chunk in chunks for job in chunk]
    rest = [limits.solve_seconds * (1 - BATCH_SHARE)] * len(stopped)
    for index, outcome in zip(stopped, run_bounded(one, [jobs[i] for i in stopped], workers, None, False, rest),
                              strict=True):
        if isinstance(outcome, Failure) and outcome.message.startswith("stopped: the work took longer"):
            outcome = Failure(f"stopped: the work took longer than {limits.solve_seconds:g} s (--timeout; half of "
                              "it in a batch with other files, the rest alone)")
        results[index] = outcome
    return results


def _chunks(jobs: list[tuple[Any, ...]], size: int) -> list[list[tuple[Any, ...]]]:
    """The jobs in input order, `size` files to a batch, but each file of a game over moments alone: such a file
    is answered on its own timeline whatever batch it is in (pyengine.core.batch), so a batch shares nothing and
    would only make its files share half of --timeout (whole games of an engine's oracle take 0.3-3 s each: 32 of
    them overran a 15 s half and were all answered again one at a time)."""
    chunks: list[list[tuple[Any, ...]]] = []
    open_chunk: list[tuple[Any, ...]] = []
    for job in jobs:
        if _timeline_file(job[0]):
            chunks += [open_chunk] if open_chunk else []
            chunks.append([job])
            open_chunk = []
            continue
        open_chunk.append(job)
        if len(open_chunk) >= size:
            chunks.append(open_chunk)
            open_chunk = []
    return chunks + ([open_chunk] if open_chunk else [])


def _timeline_file(path: Any) -> bool:
    """Whether a file's `game:` line (read from its first lines, for scheduling only: the worker reads the file
    whole) names a game over moments."""
    from pyengine.games import SPECS, game

    try:  # only a regular file: opening a pipe or a device would wait for a writer (the worker refuses those)
        if not Path(path).is_file():
            return False
        with open(path, encoding="utf-8", errors="replace") as handle:
            head = handle.read(4096)
    except (OSError, TypeError, ValueError):
        return False
    found = re.search(r"^game:\s*['\"]?([a-z]+)", head, re.MULTILINE)
    return bool(found and found.group(1) in SPECS and game(found.group(1)).timeline)


def _bounded_files(one: Callable[[Any], Any], many: Callable[[list[Any]], list[Any]], jobs: list[tuple[Any, ...]],
                   workers: int, progress: Progress | None, dask: str | None = None) -> list[Any]:
    """Each file's result in input order, the files answered BATCH_FILES at a time on `workers` processes, or
    on the Dask cluster at the address `dask` (pyengine.run.cluster); a file that could not be answered (its input
    errors, a bound it reached, a dead worker) gives its FileErrors in its place."""
    from pyengine.core.limits import limits, processors
    from pyengine.run.runner import Failure, run_here

    if dask is None and not 1 <= workers <= processors():
        raise InputError(f"jobs {workers} is more processes than the {processors()} processors this run may use",
                         field="jobs", expected=f"a whole number from 1 to {processors()} (--jobs)")
    if len(jobs) == 1 and dask is None and limits.one_unit_here:  # a command's one file: no worker to start
        result = run_here(one, jobs[0], limits.solve_seconds, limits.memory_mb)
        return [file_errors(str(jobs[0][0]), result.error(str(jobs[0][0]))) if isinstance(result, Failure)
                else result]
    # On local workers the files are spread evenly (53 files on 2 workers: 27 and 26, not 32 and 21).
    chunks = _chunks(jobs, BATCH_FILES if dask is not None else min(BATCH_FILES, -(-len(jobs) // max(1, workers))))
    if dask is not None:
        from pyengine.run.cluster import answer_on_cluster

        results = answer_on_cluster(dask, answer_chunks, one, many, chunks, progress)
    else:
        results = answer_chunks(one, many, chunks, workers, progress)
    return [file_errors(str(job[0]), result.error(str(job[0]))) if isinstance(result, Failure) else result
            for job, result in zip(jobs, results, strict=True)]


@checked
def check(paths: Iterable[str | Path], readings: dict[str, str] | None = None, profile: str | None = None,
          jobs: int = 1, progress: Progress | None = None, dask: str | None = None,
          text: str | None = None, first_failure: bool = False, only: list[str] | None = None,
          catalog: str | None = None) -> CheckResult:
    """Run scenario files (folders searched for *.yaml, *.yml) and count the expectations that hold. Files are
    answered BATCH_FILES at a time (pyengine.core.batch), each batch a unit of bounded work (`limits.solve_seconds`,
    `limits.memory_mb`, in worker processes: `jobs` of them here, or on the Dask cluster at the address `dask`);
    a file that cannot be answered is reported with its errors (`errors`) and the others are still answered; the
    exit code is the worst of every file's. `text` is one more scenario, as YAML text (standard input for `check -`),
    answered in this process and reported as `<stdin>`. With `first_failure` (`check -x`) the files are answered
    one at a time in order and the run stops after the first that fails or cannot be answered; `only` keeps the
    files among these absolute paths (`check --last-failed`). `catalog` is the catalog of the files of its game
    that name none (`check --catalog`)."""
    from pyengine.core.decks import check_deck_options
    from pyengine.core.scenario import named_paths, scenario_files

    validate_choices(readings, profile)
    check_deck_options(None, catalog)
    vanished: list[str] = []
    paths = list(paths)
    files = scenario_files(named_paths(paths), vanished) if paths else []
    if only is not None:
        files = [f for f in files if str(f.resolve()) in set(only)]
    if not files and text is None and only is None:
        raise InputError("no scenario files found", field="PATH", expected="YAML files or folders holding them")
    jobs_of = [(str(f), catalog, readings, profile) for f in files]
    if first_failure:
        results = []
        for number, job in enumerate(jobs_of, 1):
            results += _bounded_files(check_file, check_files, [job], jobs, None, dask)
            if progress:
                progress(number, len(jobs_of))
            if _failing(results[-1]):
                break
    else:
        results = _bounded_files(check_file, check_files, jobs_of, jobs, progress, dask) if files else []
    if text is not None and not (first_failure and results and _failing(results[-1])):
        results.append(check_text(text, STDIN, readings, profile, catalog))
    answered = [r for r in results if isinstance(r, ScenarioResult)]
    errors = [*(r for r in results if isinstance(r, FileErrors)), *map(_vanished, vanished)]
    left = len(jobs_of) + (text is not None) - len(results)
    return replace(summed(answered, errors), not_checked=left)


def with_statistics(result: CheckResult, readings: Choices | None, profile: str | None,
                    catalog: str | None = None) -> CheckResult:
    """`check --stats`: each answered file's questions with clingo's figures of their units, each unit ground and
    solved again alone in this process (a batch grounds many files in one Control, so its figures belong to no
    question). A scenario read from standard input has none."""
    from pyengine.core.engine import unit_statistics
    from pyengine.core.scenario import load_scenario

    scenarios = []
    for scenario in result.scenarios:
        if scenario.file == STDIN:
            scenarios.append(scenario)
            continue
        loaded = load_scenario(Path(scenario.file), catalog)
        figures = unit_statistics(loaded, overrides(loaded.game.name, readings, profile, loaded.path))
        scenarios.append(replace(scenario, questions=[replace(q, stats=figures.get(q.question))
                                                      for q in scenario.questions]))
    return replace(result, scenarios=scenarios)


def _failing(result: ScenarioResult | FileErrors) -> bool:
    """Whether a file's result stops `check -x`: a question that failed, or the file not answered."""
    return isinstance(result, FileErrors) or any(not q.passed for q in result.questions)


# What a scenario read from standard input is called in messages and results.
STDIN = "<stdin>"


def summed(answered: list[ScenarioResult], errors: list[FileErrors]) -> CheckResult:
    """A check's result over the scenarios answered and the files not answered: its counts and exit code."""
    questions = [q for r in answered for q in r.questions]
    checked = [q for q in questions if not q.unchecked]
    passed = sum(q.passed for q in checked)
    return CheckResult(passed, len(checked) - passed, answered, errors,
                       _worst(errors, EXIT_FAILED if passed < len(checked) else EXIT_HOLDS),
                       len(questions) - len(checked))


def selected(result: CheckResult, keywords: list[str]) -> CheckResult:
    """Only what `check -k` names: a scenario whose file path holds one of the keywords (ignoring case) with all
    of its questions, else the questions whose id holds one; counts and exit code of what is kept. Files not
    answered for their errors are kept: an error is never hidden by a selection."""
    words = [k.casefold() for k in keywords]
    kept = []
    for scenario in result.scenarios:
        if any(w in scenario.file.casefold() for w in words):
            kept.append(scenario)
            continue
        questions = [q for q in scenario.questions if any(w in q.question.casefold() for w in words)]
        if questions:
            kept.append(replace(scenario, questions=questions))
    if not kept and not result.errors:
        raise InputError(f"{' or '.join(map(repr, keywords))} selects no scenario file and no question", field="-k",
                         expected="words of a file's path or of a question's id")
    return replace(summed(kept, result.errors), not_checked=result.not_checked)


def _vanished(folder: str) -> FileErrors:
    """A folder that vanished (or could not be read) while the paths were searched, named in the report."""
    return file_errors(folder, InputError("vanished or unreadable while the folders were searched; its files were "
                                          "not answered", file=folder, expected="a folder that stays during the run"))


def _worst(errors: list[FileErrors], answered: int) -> int:
    """The exit code of a run over files: the worst of the files' errors and of the answered files' code."""
    return max([answered, *(e.exit_code for e in errors)])


def deck_file(job: tuple[str, str | None, str | None, Choices | None, str | None]) -> DeckResult | FileErrors:
    """Validate one decklist file: its result, or its errors (run in worker processes too)."""
    path, game, catalog, readings, profile = job
    try:
        return validate_deck(Path(path), game, catalog, readings, profile)
    except InputError as error:
        return file_errors(path, error)


def deck_files(jobs: list[tuple[str, str | None, str | None, Choices | None, str | None]]) -> list[Any]:
    """Validate decklist files in one batch (pyengine.core.batch; run in workers too)."""
    from pyengine.core.decks import load_deck

    return _answer_batch(jobs, lambda job: load_deck(Path(job[0]), job[1], job[2]), deck_answer)


@checked
def check_decks(paths: Iterable[str | Path], game: str | None = None, catalog: str | None = None,
                readings: dict[str, str] | None = None, profile: str | None = None, jobs: int = 1,
                progress: Progress | None = None, dask: str | None = None) -> DecksResult:
    """Validate decklist files (on `jobs` processes, or on the Dask cluster at the address `dask`); a file that
    cannot be read is reported with its errors (`errors`) and the others are still validated."""
    from pyengine.core.decks import check_deck_options
    from pyengine.core.scenario import named_paths

    validate_choices(readings, profile)
    check_deck_options(game, catalog)
    results = _bounded_files(deck_file, deck_files,
                             [(str(p), game, catalog, readings, profile) for p in named_paths(paths)],
                             jobs, progress, dask)
    decks = [r for r in results if isinstance(r, DeckResult)]
    errors = [r for r in results if isinstance(r, FileErrors)]
    return DecksResult(decks, errors, _worst(errors, EXIT_HOLDS if all(d.valid for d in decks) else EXIT_FAILED))
