"""The Python API of pyengine, for programs that embed it (a game server, a deck builder, a judge's tool).

Load a scenario from a file, a YAML string or a plain dict; ask its questions (`answer`), every play open to a
player (`plays`), the explanation chain (`explain`), the smallest change that turns a verdict (`flip`); validate
decklists built in memory (`validate_deck`); list `readings` and `rules`; look cards up (`card`). Readings and
profiles are arguments. Results are typed dataclasses whose `to_json()` is exactly what the command line's
`--json` prints (the command line is a thin layer over these functions). Every bad input raises `InputError`,
which carries the file, line, column, field, what was expected and a suggestion; `error.all()` lists each
error when several were found in one pass.

    import pyengine
    table = pyengine.load({"game": "lotr", "players": {...}, "questions": []})
    for play in pyengine.plays(table, player="alice").questions[0].plays:
        print(play.play, play.verdict, play.rules)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, is_dataclass, replace
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from pyengine import kb as kbase
from pyengine.errors import InputError, InputErrors, closest
from pyengine.games import DOCUMENTS, GAME_NAMES, registry

if TYPE_CHECKING:  # the engine, the scenario reader and YAML are imported when first used (a quick start)
    from pyengine.catalog import Card
    from pyengine.engine import Answer, Play, Reason
    from pyengine.scenario import Scenario

__all__ = [
    "CardInfo", "CheckResult", "ChoiceInfo", "ConsistencyResult", "DeckResult", "DecksResult", "EdgeCasesResult",
    "Explanation", "FactsResult", "FlipResult", "ImportResult", "InputError", "PlayResult", "QuestionResult",
    "ReadingChoice", "ReadingInfo", "ReadingsResult", "ReasonResult", "Result", "RuleInfo", "RuleStatement",
    "RulesResult", "ScenarioResult", "Source", "VerdictRules", "answer", "card", "check", "check_decks",
    "consistency", "edge_cases", "explain", "facts", "flip", "import_source", "load", "plays", "readings", "rules",
    "validate_deck",
]

Progress = Callable[[int, int], None]
# Field metadata: left out of the JSON when None.
OMIT_NONE = {"omit_none": True}
Choices = dict[str, str]


# -- results ------------------------------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """A result as JSON data: dataclasses as objects (fields marked so are left out when None, or always)."""
    if is_dataclass(value) and not isinstance(value, type):
        out = {}
        for f in fields(value):
            item = getattr(value, f.name)
            if f.metadata.get("internal") or (item is None and f.metadata.get("omit_none")):
                continue
            out[f.name] = _plain(item)
        return out
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


# How much JSON text `Result.write_json` gathers before it writes.
WRITE_CHARS = 1 << 16


class Result:
    """A result of the API: `to_dict()` is its JSON data, `to_json()` the text `--json` prints."""

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON data."""
        return _plain(self)

    def to_json(self) -> str:
        """The result as the JSON text the command line prints with `--json`."""
        return "".join(_ENCODER.iterencode(self))

    def write_json(self, stream: TextIO) -> None:
        """Write `to_json()` to a stream about WRITE_CHARS at a time, never holding the whole text or its data (a
        check of 100,000 scenarios); the encoder's pieces are a few characters each, too small to write one by
        one (a 142-action game's answers are some 40,000 pieces)."""
        pending: list[str] = []
        size = 0
        for piece in _ENCODER.iterencode(self):
            pending.append(piece)
            size += len(piece)
            if size >= WRITE_CHARS:
                stream.write("".join(pending))
                pending, size = [], 0
        stream.write("".join(pending))


def _one_level(value: Any) -> Any:
    """A dataclass as the JSON encoder meets it: its fields (left out as `_plain` leaves them out), their values
    converted when the encoder reaches them."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in fields(value) if not f.metadata.get("internal")
                and not (getattr(value, f.name) is None and f.metadata.get("omit_none"))}
    raise TypeError(f"{type(value).__name__} is not JSON data")


# The text `--json` prints: what json.dumps(to_dict(), indent=2, ensure_ascii=False) gives, built as it is written.
_ENCODER = json.JSONEncoder(indent=2, ensure_ascii=False, default=_one_level)


@dataclass
class Source(Result):
    """A paragraph of a rules document: the document id and the paragraph id (p1, p2, ...)."""

    document: str
    paragraph: str


@dataclass
class ReasonResult(Result):
    """One reason of a verdict: the rule, the state evidence as the encodings gave it and in words, and the
    paragraphs the rule rests on."""

    rule: str
    evidence: str
    state: str
    sources: list[Source]


@dataclass
class PlayResult(Result):
    """One play of a `plays` answer: its id (an instance, `INSTANCE via SOURCE`, or a Duel action in words), in
    words, its verdict, rules, reasons and the readings it rested on."""

    play: str
    description: str
    verdict: str | None
    rules: list[str]
    reasons: list[ReasonResult]
    rested_on: dict[str, str]
    assumptions: list[str] | None = field(default=None, metadata=OMIT_NONE)
    rested_on_before: dict[str, str] | None = field(default=None, metadata=OMIT_NONE)


@dataclass
class QuestionResult(Result):
    """The answer to one question: the verdict got and expected, whether the expectations hold, the rules and
    reasons, the readings in force and those the verdict rested on; for `plays`, every play considered; for a
    game that keeps base-game assumptions (Duel for Middle-earth), the assumptions the answer rested on; for a
    game over moments, the readings the steps before the moment asked about rested on (rested_on_before)."""

    question: str
    ask: str
    expected: Any
    got: Any
    passed: bool
    failures: list[str]
    rules: list[str]
    reasons: list[ReasonResult]
    rested_on: dict[str, str]
    readings: dict[str, str]
    plays: list[PlayResult] | None = field(default=None, metadata=OMIT_NONE)
    assumptions: list[str] | None = field(default=None, metadata=OMIT_NONE)
    rested_on_before: dict[str, str] | None = field(default=None, metadata=OMIT_NONE)


@dataclass
class ScenarioResult(Result):
    """The answers to a scenario's questions."""

    file: str
    title: str
    questions: list[QuestionResult]

    @property
    def passed(self) -> bool:
        """Whether every expectation of the scenario holds."""
        return all(q.passed for q in self.questions)


@dataclass
class Explanation(ScenarioResult):
    """The answers to a scenario's questions; `text` (not in the JSON) is the explanation chain in words,
    verdict <- rule <- paragraph <- state, as `pyengine explain` prints it, written when first read."""

    render: Callable[[], str] | None = field(default=None, repr=False, compare=False, metadata={"internal": True})

    @cached_property
    def text(self) -> str:
        """The explanation chain in words."""
        return self.render() if self.render is not None else ""


@dataclass
class CheckResult(Result):
    """Scenario files checked: how many questions passed and failed, and every scenario's answers."""

    passed: int
    failed: int
    scenarios: list[ScenarioResult]


@dataclass
class DeckResult(Result):
    """A decklist's verdict with its reasons and readings."""

    file: str
    valid: bool
    verdict: str | None
    reasons: list[ReasonResult]
    rested_on: dict[str, str]
    readings: dict[str, str]


@dataclass
class DecksResult(Result):
    """Decklists validated."""

    decks: list[DeckResult]


@dataclass
class VerdictRules(Result):
    """A verdict with the rules that gave it."""

    verdict: str | None
    rules: list[str]


@dataclass
class RuleStatement(Result):
    """A rule id with its one-line statement."""

    rule: str
    statement: str


@dataclass
class FlipResult(Result):
    """The smallest change to a state that turns a question's verdict around, or `flippable: false`."""

    question: str
    flippable: bool
    before: VerdictRules | None = field(default=None, metadata=OMIT_NONE)
    changes: list[str] | None = field(default=None, metadata=OMIT_NONE)
    after: VerdictRules | None = field(default=None, metadata=OMIT_NONE)
    necessary_because: list[RuleStatement] | None = field(default=None, metadata=OMIT_NONE)


@dataclass
class ChoiceInfo(Result):
    """One choice of a reading: its value, statement, document and the paragraphs behind it."""

    value: str
    statement: str
    document: str
    paragraphs: list[str]


@dataclass
class ReadingInfo(Result):
    """A reading: the question it answers, its choices with their paragraphs, its default, and the profiles."""

    game: str
    reading: str
    question: str
    default: str
    choices: list[ChoiceInfo]
    profiles: dict[str, str]


@dataclass
class ReadingsResult(Result):
    """Every reading asked for."""

    readings: list[ReadingInfo]


@dataclass
class ReadingChoice(Result):
    """A reading and one of its choices."""

    reading: str
    choice: str


@dataclass
class RuleInfo(Result):
    """A declared rule: its statement, the paragraphs it rests on, and the reading choices it belongs to."""

    game: str
    rule: str
    statement: str
    sources: list[Source]
    readings: list[ReadingChoice]


@dataclass
class RulesResult(Result):
    """Every declared rule asked for."""

    rules: list[RuleInfo]


@dataclass
class CardInfo(Result):
    """A card of a catalog: its id, names, and the attributes the rules read."""

    id: str
    label: str
    title: str
    subtitle: str | None
    unique: bool
    type: str
    collinfo: str | None
    aliases: list[str]


@dataclass
class EdgeCasesResult(Result):
    """The states where two sides disagree, each with its shapes and the scenario that shows it."""

    game: str
    a: str
    b: str
    max_cards: int
    states: int
    shapes: list[list[str]]
    findings: list[dict[str, Any]]
    max_instances: int = field(default=0, metadata={"internal": True})


@dataclass
class ConsistencyResult(Result):
    """The consistency report of the rules documents and the findings not in the baseline."""

    documents: list[dict[str, Any]]
    new: list[str]
    accepted: list[str] = field(default_factory=list, metadata={"internal": True})
    exit_code: int = field(default=0, metadata={"internal": True})


@dataclass
class ImportResult(Result):
    """A card database imported into the catalog store, with its data report."""

    source: str
    store: str
    report: dict[str, Any]
    cards: int = field(default=0, metadata={"internal": True})


@dataclass
class FactsResult(Result):
    """The facts a scenario becomes."""

    file: str
    facts: list[str]


# -- loading and choices ------------------------------------------------------------------------------------

def load(source: str | Path | dict[str, Any], name: str | None = None) -> Scenario:
    """A scenario from a file path (`Path`), a YAML text (`str`) or plain data (`dict`); `name` is what errors
    call it (default: the path, or `<string>` / `<data>`). A table may come without questions, to be asked
    with `plays`."""
    from pyengine.scenario import scenario_from_data
    from pyengine.yamlio import build_from_file, load_text

    if isinstance(source, Path):
        file = name or str(source)
        return build_from_file(source, lambda data: scenario_from_data(data, file, source.stem,
                                                                       questions_required=False))
    if isinstance(source, str):
        return scenario_from_data(load_text(source, name or "<string>"), name or "<string>",
                                  questions_required=False)
    if isinstance(source, dict):
        return scenario_from_data(source, name or "<data>", questions_required=False)
    raise InputError(f"cannot read a scenario from {type(source).__name__}", field="source",
                     expected="a Path, a YAML string or a dict")


def _scenario(source: Scenario | str | Path | dict[str, Any]) -> Scenario:
    from pyengine.scenario import Scenario

    return source if isinstance(source, Scenario) else load(source)


def validate_choices(readings: dict[str, str] | None, profile: str | None) -> None:
    """Every reading named exists in some game with that choice, and the profile exists."""
    from pyengine.scenario import check_readings

    if not readings and not profile:
        return
    kbs = [kbase.load(g) for g in registry()]
    for name, value in (readings or {}).items():
        owner = next((kb for kb in kbs if name in kb.readings), None)
        if owner is None:
            raise InputError(f"unknown reading {name!r}", field="--reading", expected="a name from `pyengine readings`",
                             suggestion=closest(name, [n for kb in kbs for n in kb.readings]))
        check_readings({name: value}, owner, None, "--reading")
    if profile:
        profiles = {p for kb in kbs for p in kb.profiles}
        if profile not in profiles:
            raise InputError(f"unknown profile {profile!r}", field="--profile",
                             expected="one of " + ", ".join(sorted(profiles)), suggestion=closest(profile, profiles))


def _overrides(game: str, readings: dict[str, str] | None, profile: str | None) -> Choices:
    """The profile's and the readings' choices that belong to this game (they win over the scenario's)."""
    kb = kbase.load(game)
    chosen: Choices = {}
    if profile and profile in kb.profiles:
        chosen.update(kb.profiles[profile])
    chosen.update({n: v for n, v in (readings or {}).items() if n in kb.readings})
    return chosen


# -- answers ------------------------------------------------------------------------------------------------

def _reasons(scenario: Scenario, reasons: list[Reason], words: dict[Any, str],
             activity: dict[str, tuple[str, str]]) -> list[ReasonResult]:
    """The reasons as results; `words` keeps each evidence's words for the other reasons of the same table (the
    plays of a table share most of their evidence, and an instance's activity is the table's)."""
    from pyengine.render import evidence_words

    kb = kbase.load(scenario.game.name)
    out = []
    for r in reasons:
        if r.evidence not in words:
            words[r.evidence] = evidence_words(scenario, r.evidence, activity)
        out.append(ReasonResult(r.rule, str(r.evidence), words[r.evidence],
                                [Source(d, p) for d, p in kb.rules[r.rule].sources]))
    return out


def _assumptions(scenario: Scenario, found: list[str]) -> list[str] | None:
    """The base-game assumptions an answer rested on, for a game that keeps assumptions (None for the others)."""
    return found if kbase.load(scenario.game.name).assumptions else None


def _before(scenario: Scenario, found: dict[str, str]) -> dict[str, str] | None:
    """The readings the steps before an answer rested on, for a game over moments (None for the others)."""
    return found if scenario.game.timeline else None


def _play(scenario: Scenario, play: Play, words: dict[Any, str]) -> PlayResult:
    return PlayResult(play.id, scenario.game.describe_play(play.term, scenario.state), play.verdict, play.rule_ids,
                      _reasons(scenario, play.reasons, words, play.activity), play.rested_on,
                      _assumptions(scenario, play.assumptions), _before(scenario, play.rested_before))


def question_result(scenario: Scenario, answer: Answer) -> QuestionResult:
    """One engine answer as a result."""
    q = answer.question
    got = answer.play_sets() if answer.plays is not None else answer.verdict
    words: dict[Any, str] = {}
    return QuestionResult(q.id, q.kind, q.expect, got, not answer.failures(), answer.failures(), answer.rule_ids,
                          _reasons(scenario, answer.reasons, words, answer.activity), answer.rested_on, answer.readings,
                          None if answer.plays is None else [_play(scenario, p, words) for p in answer.plays],
                          _assumptions(scenario, answer.assumptions), _before(scenario, answer.rested_before))


def _answers(scenario: Scenario, readings: dict[str, str] | None, profile: str | None) -> list[Answer]:
    from pyengine.engine import answer as engine_answer

    validate_choices(readings, profile)
    return engine_answer(scenario, _overrides(scenario.game.name, readings, profile))


def answer(source: Scenario | str | Path | dict[str, Any], readings: dict[str, str] | None = None,
           profile: str | None = None) -> ScenarioResult:
    """Answer every question of a scenario, under its readings overlaid by `profile` and then `readings`."""
    scenario = _scenario(source)
    return ScenarioResult(scenario.path, scenario.title,
                          [question_result(scenario, a) for a in _answers(scenario, readings, profile)])


def explain(source: Scenario | str | Path | dict[str, Any], question: str | None = None,
            readings: dict[str, str] | None = None, profile: str | None = None) -> Explanation:
    """The answers with the explanation chain of each (only question `question` when given)."""
    scenario = _scenario(source)
    if not scenario.questions:
        raise InputError("the scenario asks no questions", file=scenario.path, field="questions",
                         expected="a list of questions (or `pyengine plays` for every play of the table)")
    answers = _answers(scenario, readings, profile)
    if question is not None:
        answers = [a for a in answers if a.question.id == question]
        if not answers:
            ids = [q.id for q in scenario.questions]
            raise InputError(f"no question {question!r} in {scenario.path}", field="--question",
                             expected="one of " + ", ".join(ids), suggestion=closest(question, ids))
    return _explanation(scenario, answers)


def plays(source: Scenario | str | Path | dict[str, Any], player: str | None = None,
          readings: dict[str, str] | None = None, profile: str | None = None) -> Explanation:
    """Every play open to `player` in the scenario's state (to each player when None), legal or not, with the
    reasons; its questions are `plays` questions with ids `plays:PLAYER`, answered in one solve per reading
    group. The scenario's own questions are not asked."""
    asked = _plays_table(_scenario(source), player)
    return _explanation(asked, _answers(asked, readings, profile))


def plays_many(tables: list[tuple[Scenario, str | None, Choices | None, str | None]]) -> list[Explanation | Exception]:
    """`plays` for many tables (each with its player, readings and profile) answered in one batch
    (pyengine.batch): each table's explanation, or the error its own input or answer raised."""
    from pyengine.batch import answer_many

    asked: list[tuple[int, Scenario, Choices]] = []
    results: list[Any] = [None] * len(tables)
    for index, (scenario, player, readings, profile) in enumerate(tables):
        try:
            validate_choices(readings, profile)
            table = _plays_table(scenario, player)
            asked.append((index, table, _overrides(table.game.name, readings, profile)))
        except InputError as error:
            results[index] = error
    for (index, table, _), answers in zip(asked, answer_many([(t, o) for _, t, o in asked]), strict=True):
        results[index] = answers if isinstance(answers, Exception) else _explanation(table, answers)
    return results


def _plays_table(scenario: Scenario, player: str | None, keep_questions: bool = False) -> Scenario:
    """The table with one `plays` question (id `plays:PLAYER`) for the player, or for each player (after the
    table's own questions, with `keep_questions`)."""
    from pyengine.fields import Fields
    from pyengine.scenario import Question

    game = scenario.game
    players = game.player_names(scenario.state) if player is None else [player]
    questions = []
    for name in players:
        fields = Fields({"player": name}, scenario.path, "--player", {"player"})
        questions.append(Question(f"plays:{name}", "plays", game.parse_question("plays", fields, scenario.state),
                                  None, None, [], {}, None))
    return replace(scenario, questions=[*(scenario.questions if keep_questions else []), *questions])


def _explanation(scenario: Scenario, answers: list[Answer]) -> Explanation:
    from pyengine.render import explain as render

    return Explanation(scenario.path, scenario.title, [question_result(scenario, a) for a in answers],
                       partial(render, scenario, answers))


def _check_file(job: tuple[str, Choices | None, str | None]) -> ScenarioResult | list[str]:
    """Check one scenario file (it must ask questions): its result, or its input errors (run in workers too)."""
    from pyengine.scenario import load_scenario

    path, readings, profile = job
    try:
        return answer(load_scenario(Path(path)), readings, profile)
    except InputError as error:
        return [str(e) for e in error.all()]


def _scenario_result(scenario: Scenario, answers: list[Answer]) -> ScenarioResult:
    return ScenarioResult(scenario.path, scenario.title, [question_result(scenario, a) for a in answers])


def _check_files(jobs: list[tuple[str, Choices | None, str | None]]) -> list[Any]:
    """Check scenario files in one batch (pyengine.batch; run in workers too)."""
    from pyengine.scenario import load_scenario

    return _answer_batch(jobs, lambda job: load_scenario(Path(job[0])), _scenario_result)


def _answer_batch(jobs: list[tuple[Any, ...]], load: Callable[[tuple[Any, ...]], Scenario],
                  result: Callable[[Scenario, list[Answer]], Any]) -> list[Any]:
    """Load each job's file (job = (path, ..., readings, profile)) and answer all of them in one batch: each
    file's result, its input errors, or a Failure naming its defect."""
    from pyengine.batch import answer_many
    from pyengine.limits import limits
    from pyengine.runner import Failure, failure_message

    results: list[Any] = [None] * len(jobs)
    loaded: list[tuple[int, Scenario, Choices]] = []
    for index, job in enumerate(jobs):
        try:
            scenario = load(job)
            validate_choices(job[-2], job[-1])
            loaded.append((index, scenario, _overrides(scenario.game.name, job[-2], job[-1])))
        except InputError as error:
            results[index] = [str(e) for e in error.all()]
    answered = answer_many([(scenario, overrides) for _, scenario, overrides in loaded])
    for (index, scenario, _), answers in zip(loaded, answered, strict=True):
        if isinstance(answers, InputError):
            results[index] = [str(e) for e in answers.all()]
        elif isinstance(answers, Exception):
            results[index] = Failure(failure_message(answers, limits.memory_mb))
        else:
            results[index] = result(scenario, answers)
    return results


# Files one worker answers in one batch: enough to share the grounder's fixed cost, few enough that a file which
# stops its batch (at a bound) costs little before its batch's files are answered again one at a time.
BATCH_FILES = 32
# The part of `--timeout` a batch of several files may take; its files stopped there get the rest each.
BATCH_SHARE = 0.5


def _answer_chunks(one: Callable[[Any], Any], many: Callable[[list[Any]], list[Any]], chunks: list[list[Any]],
                   workers: int, progress: Progress | None, keep: bool = False) -> list[Any]:
    """Each file's result, the files of each chunk answered in one batch in workers under the run's bounds
    (pyengine.runner; `keep`: the workers stay for the next call). A batch of several files has half the time
    bound; the files of a batch that did not finish are answered again one at a time, each within the other
    half, so that no file's answer takes longer than `--timeout` however many slow files share its batch."""
    from pyengine.limits import limits
    from pyengine.runner import Failure, run_bounded

    total = sum(len(c) for c in chunks)
    done = None if progress is None else (lambda n, _: progress(min(n * BATCH_FILES, total), total))
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


def _bounded_files(one: Callable[[Any], Any], many: Callable[[list[Any]], list[Any]], jobs: list[tuple[Any, ...]],
                   workers: int, progress: Progress | None, dask: str | None = None) -> list[Any]:
    """Each file's result in input order, the files answered BATCH_FILES at a time on `workers` processes, or
    on the Dask cluster at the address `dask` (pyengine.cluster). Every file's input errors, and every file
    stopped at a bound or by a dead worker, are raised together once all have run."""
    from pyengine.batch import batched
    from pyengine.runner import Failure

    # On local workers the files are spread evenly (53 files on 2 workers: 27 and 26, not 32 and 21).
    chunks = batched(jobs, BATCH_FILES if dask is not None else min(BATCH_FILES, -(-len(jobs) // max(1, workers))))
    if dask is not None:
        from pyengine.cluster import answer_on_cluster

        results = answer_on_cluster(dask, _answer_chunks, one, many, chunks, progress)
    else:
        results = _answer_chunks(one, many, chunks, workers, progress)
    errors = []
    for job, result in zip(jobs, results, strict=True):
        if isinstance(result, Failure):
            errors.append(InputError(result.message, file=str(job[0])))
        elif isinstance(result, list):
            errors.extend(InputError(e) for e in result)
    if errors:
        raise InputErrors(errors)
    return results


def check(paths: Iterable[str | Path], readings: dict[str, str] | None = None, profile: str | None = None,
          jobs: int = 1, progress: Progress | None = None, dask: str | None = None) -> CheckResult:
    """Run scenario files (folders searched for *.yaml, *.yml) and count the expectations that hold. Files are
    answered BATCH_FILES at a time (pyengine.batch), each batch a unit of bounded work (`limits.solve_seconds`,
    `limits.memory_mb`, in worker processes: `jobs` of them here, or on the Dask cluster at the address `dask`);
    every file's input errors are raised together, and nothing is answered then."""
    from pyengine.scenario import scenario_files

    validate_choices(readings, profile)
    files = scenario_files([Path(p) for p in paths])
    if not files:
        raise InputError("no scenario files found", field="PATH", expected="YAML files or folders holding them")
    results = _bounded_files(_check_file, _check_files, [(str(f), readings, profile) for f in files], jobs,
                             progress, dask)
    questions = [q for r in results for q in r.questions]
    passed = sum(q.passed for q in questions)
    return CheckResult(passed, len(questions) - passed, results)


# -- decks --------------------------------------------------------------------------------------------------

def _deck_result(scenario: Scenario, readings: Choices | None, profile: str | None) -> DeckResult:
    return _deck_answer(scenario, _answers(scenario, readings, profile))


def _deck_answer(scenario: Scenario, answers: list[Answer]) -> DeckResult:
    [result] = answers
    data = question_result(scenario, result)
    return DeckResult(scenario.path, result.verdict == "valid", result.verdict, data.reasons, data.rested_on,
                      data.readings)


def validate_deck(source: str | Path | dict[str, Any], game: str | None = None, catalog: str | None = None,
                  readings: dict[str, str] | None = None, profile: str | None = None) -> DeckResult:
    """Validate a decklist: a file (YAML or text lines), or a dict built in memory (`game:`, `catalog:`, the
    game's deck sections, e.g. `cards: ["4 Orc Pursuer (5C108)", ...]`, `ring_bearer:`)."""
    from pyengine.decks import deck_from_data, load_deck

    if isinstance(source, dict):
        scenario = deck_from_data(dict(source), "<data>", "deck", game, catalog)
    else:
        scenario = load_deck(Path(source), game, catalog)
    return _deck_result(scenario, readings, profile)


def _deck_file(job: tuple[str, str | None, str | None, Choices | None, str | None]) -> DeckResult | list[str]:
    """Validate one decklist file: its result, or its input errors (run in worker processes too)."""
    path, game, catalog, readings, profile = job
    try:
        return validate_deck(Path(path), game, catalog, readings, profile)
    except InputError as error:
        return [str(e) for e in error.all()]


def _deck_files(jobs: list[tuple[str, str | None, str | None, Choices | None, str | None]]) -> list[Any]:
    """Validate decklist files in one batch (pyengine.batch; run in workers too)."""
    from pyengine.decks import load_deck

    return _answer_batch(jobs, lambda job: load_deck(Path(job[0]), job[1], job[2]), _deck_answer)


def check_decks(paths: Iterable[str | Path], game: str | None = None, catalog: str | None = None,
                readings: dict[str, str] | None = None, profile: str | None = None, jobs: int = 1,
                progress: Progress | None = None, dask: str | None = None) -> DecksResult:
    """Validate decklist files (on `jobs` processes, or on the Dask cluster at the address `dask`); every file's
    input errors are raised together."""
    validate_choices(readings, profile)
    results = _bounded_files(_deck_file, _deck_files, [(str(p), game, catalog, readings, profile) for p in paths],
                             jobs, progress, dask)
    return DecksResult(results)


# -- flip, readings, rules, cards, facts -------------------------------------------------------------------

def flip(source: Scenario | str | Path | dict[str, Any], question: str, readings: dict[str, str] | None = None,
         profile: str | None = None) -> FlipResult:
    """The smallest change to the state that turns the verdict of `question` around."""
    from pyengine.flip_search import flip as search_flip

    scenario = _scenario(source)
    validate_choices(readings, profile)
    found = search_flip(scenario, question, _overrides(scenario.game.name, readings, profile))
    if found is None:
        return FlipResult(question, False)
    kb = kbase.load(scenario.game.name)
    return FlipResult(question, True, VerdictRules(found.before.verdict, found.before.rule_ids), found.changes,
                      VerdictRules(found.verdict, sorted({r for r, _ in found.reasons})),
                      [RuleStatement(r, kb.rules[r].text) for r in found.before.rule_ids])


def _games(game: str | None) -> list[str]:
    games = list(GAME_NAMES)
    if game is not None and game not in games:
        raise InputError(f"unknown game {game!r}", field="--game", expected="one of " + ", ".join(games),
                         suggestion=closest(game, games))
    return [game] if game else games


def readings(game: str | None = None) -> ReadingsResult:
    """Every reading (of one game, or of all), its choices, default, paragraphs and profiles."""
    found = []
    for name in _games(game):
        kb = kbase.load(name)
        document = DOCUMENTS[name]
        for reading in sorted(kb.readings.values(), key=lambda r: r.name):
            found.append(ReadingInfo(
                name, reading.name, reading.text, reading.default,
                [ChoiceInfo(c.value, c.text, document, c.paragraphs) for c in reading.choices.values()],
                {p: v[reading.name] for p, v in sorted(kb.profiles.items()) if reading.name in v}))
    return ReadingsResult(found)


def rules(game: str | None = None) -> RulesResult:
    """Every declared rule (of one game, or of all) with its statement and source paragraphs."""
    found = []
    for name in _games(game):
        for rule in sorted(kbase.load(name).rules.values(), key=lambda r: r.id):
            found.append(RuleInfo(name, rule.id, rule.text, [Source(d, p) for d, p in rule.sources],
                                  [ReadingChoice(n, v) for n, v in rule.readings]))
    return RulesResult(found)


def card(game: str, reference: str, catalog: str = "builtin") -> CardInfo:
    """The card a reference names in a catalog (`builtin`, or an imported one): an id, code, collector's info,
    title (with subtitle) or alias; an unknown or ambiguous one raises InputError with suggestions."""
    from pyengine.games.common import open_catalog

    module = registry()[_games(game)[0]]
    builtin = getattr(module, "builtin_catalog", None)
    if builtin is None:
        raise InputError(f"the game {game} has no card catalog", field="--game", expected="lotr or marvel")
    found: Card = open_catalog(catalog, builtin).resolve(reference, field_name="card")
    return CardInfo(found.id, found.label(), found.title, found.subtitle, found.unique, found.type, found.collinfo,
                    list(found.aliases))


def facts(source: Scenario | str | Path | dict[str, Any], readings: dict[str, str] | None = None,
          profile: str | None = None) -> FactsResult:
    """The ASP facts a scenario's state and questions become (for implementers)."""
    scenario = _scenario(source)
    seen: list[str] = []
    for a in _answers(scenario, readings, profile):
        seen.extend(str(f) for f in a.facts if f not in seen)
    return FactsResult(scenario.path, seen)


# -- searches, documents, imports ---------------------------------------------------------------------------

def edge_cases(game: str, compare: tuple[str, str] | None = None, decisive: str | None = None,
               all_shapes: bool = False, max_cards: int = 3, max_instances: int | None = None, limit: int = 20,
               out: str | Path | None = None, progress: Progress | None = None) -> EdgeCasesResult:
    """The smallest states where two sides (`default`, a profile, or READING=CHOICE[,...]) disagree, or where
    rule `decisive` alone decides a verdict; with `out`, each state is written there as a scenario file."""
    import yaml

    from pyengine.search import Side, parse_side, scenario_of, search

    game = _games(game)[0]
    from pyengine.limits import MAX_SEARCH_CARDS

    for name, value in (("--max-cards", max_cards), ("--max-instances", max_instances or max_cards)):
        if not 1 <= value <= MAX_SEARCH_CARDS:
            raise InputError(f"{name} {value} is out of range", field=name,
                             expected=f"from 1 to {MAX_SEARCH_CARDS}: larger states need more memory than any ceiling")
    folder = Path(out) if out else None
    if folder is not None and folder.exists() and not folder.is_dir():
        raise InputError("is a file, not a folder", file=str(folder), field="--out", expected="a folder to write into")
    if (compare is None) == (decisive is None):
        raise InputError("say what to compare", field="--compare", expected="--compare A B, or --decisive RULE")
    if compare is not None:
        a, b = (parse_side(game, text) for text in compare)
    else:
        known = kbase.load(game).rules
        if decisive not in known:
            raise InputError(f"unknown rule {decisive!r}", field="--decisive", expected="a rule id (pyengine rules)",
                             suggestion=closest(str(decisive), known))
        a, b = Side("with"), Side(f"without {decisive}", without_rule=decisive)
    instances = max_instances or max_cards
    cap = 10_000 if all_shapes else limit
    findings = search(game, a, b, max_cards, instances, cap, all_models=all_shapes,
                      progress=(lambda n: progress(n, cap)) if progress else None)
    shapes = sorted({s for f in findings for s in f.shapes})
    entries = []
    for number, finding in enumerate(findings, 1):
        scenario = scenario_of(game, finding, a, b, f"{game}: {a.label} against {b.label}, state {number}")
        entry: dict[str, Any] = {"shapes": [list(s) for s in finding.shapes], "scenario": scenario}
        if folder:
            entry["file"] = str(folder / f"{game}-{number:03d}.yaml")
        entries.append(entry)
    if folder:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for entry in entries:
                Path(entry["file"]).write_text(yaml.safe_dump(entry["scenario"], sort_keys=False, allow_unicode=True),
                                               encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write the scenarios: {exc.strerror}", file=str(folder), field="--out") from None
    return EdgeCasesResult(game, a.label, b.label, max_cards, len(findings), [list(s) for s in shapes], entries,
                           instances)


def consistency(documents: list[str] | None = None, docs: str | Path | None = None,
                scenarios: list[str | Path] | None = None, search_states: bool = True, deep: bool = False,
                baseline: str | Path | None = None, write_baseline: str | Path | None = None) -> ConsistencyResult:
    """Check the rules documents in `docs` against the knowledge base (coverage, drift, readings and rule
    tensions with states, dead rules with `deep`, the Allies lint). With a baseline of accepted finding ids the
    exit code is 1 when a finding is new; without one, 1 when a finding is an error."""
    import yaml

    from pyengine.document_checks import check as run_check
    from pyengine.document_checks import games_documents

    known = games_documents()
    for document in documents or []:
        if document not in known:
            raise InputError(f"unknown document {document!r}", field="DOC", expected="one of " + ", ".join(known),
                             suggestion=closest(document, known))
    folder = Path(docs) if docs else None
    if folder is None or not folder.is_dir():
        raise InputError(f"no rules documents folder at {folder or '(none given)'}", field="--docs",
                         expected="--docs DIR or PYENGINE_DOCS naming the folder of the rules documents")
    paths = [Path(p) for p in (scenarios or ["examples", "tests/scenarios"])]
    report = run_check(documents or known, folder, paths, search_states, deep)
    accepted: set[str] = set()
    if baseline:
        from pyengine.yamlio import load_file

        data = load_file(Path(baseline))
        if not isinstance(data, dict) or not isinstance(data.get("accepted"), list):
            raise InputError("a baseline holds `accepted:`, a list of finding ids", file=str(baseline),
                             expected="accepted: [reading:lotr_mumak_direction, ...]")
        accepted = {str(i) for i in data["accepted"]}
    found = [f for entry in report for f in entry["findings"]]
    new = [f["id"] for f in found if f["id"] not in accepted]
    if write_baseline:
        try:
            Path(write_baseline).write_text(yaml.safe_dump({"accepted": sorted(f["id"] for f in found)}),
                                            encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write the baseline: {exc.strerror}", file=str(write_baseline),
                             field="--write-baseline") from None
    code = (1 if new else 0) if baseline else (1 if any(f["severity"] == "error" for f in found) else 0)
    return ConsistencyResult(report, new, sorted(accepted) if baseline else [], code)


def import_source(source: str, path: str | Path, progress: Progress | None = None,
                  replace: bool = False) -> ImportResult:
    """Import a public card database (`gemp`: GEMP's LOTR card files; `marvelsdb`: MarvelCDB's JSON) into the
    catalog store, replacing that source's cards (an import of no cards, or of fewer than half those stored, only
    with `replace`); the result carries the data report."""
    from pyengine import store
    from pyengine.importers import gemp, marvelsdb

    sources = ("gemp", "marvelsdb")
    if source not in sources:
        raise InputError(f"unknown source {source!r}", field="source", expected="one of " + ", ".join(sources),
                         suggestion=closest(source, sources))
    root = Path(path)
    if source == "gemp":
        cards = gemp.read_cards(root, progress=progress)
        report, game = gemp.report(cards), "lotr"
    else:
        cards, report = marvelsdb.read_cards(root, progress=progress)
        game = "marvel"
    written = store.write_source(source, game, str(root.resolve()), cards, report, replace=replace)
    return ImportResult(source, str(written), report, len(cards))

