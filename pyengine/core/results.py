"""The results of pyengine's answers, typed dataclasses whose `to_json()` is exactly what the command line's
`--json` prints (streamed where a result is long)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol, TextIO, TypeVar

if TYPE_CHECKING:
    from pyengine.core.errors import InputError

# Progress of a run: called with (items done, items in all); a StepProgress also says which step it is on.
Progress = Callable[[int, int], None]
StepProgress = Callable[[int, int, str], None]
# Field metadata: left out of the JSON when None.
OMIT_NONE = {"omit_none": True}
Choices = dict[str, str]


class _Moment(Protocol):
    """A board at one moment, which its number names."""

    moment: int


MomentT = TypeVar("MomentT", bound=_Moment)


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


def _optional() -> Any:
    """A field that is None unless known, left out of the JSON then."""
    return field(default=None, metadata=OMIT_NONE)


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
    """One reason of a verdict: the rule, the state evidence in words (`evidence`) and as the encodings gave it
    (`facts`), and the paragraphs the rule rests on."""

    rule: str
    evidence: str
    facts: str
    sources: list[Source]


@dataclass
class PlayResult(Result):
    """One play of a `plays` answer: its id (an instance, `INSTANCE via SOURCE`, or an action in words), in
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
    game that keeps base-game assumptions, the assumptions the answer rested on; for a
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
    # For a listing (`plays`, `outcomes`): what its rules try, in words (the game's listing_covers).
    covers: str | None = field(default=None, metadata=OMIT_NONE)
    # True for a question that states no expectation (no expect:, no rules:): answered, nothing checked.
    unchecked: bool | None = field(default=None, metadata=OMIT_NONE)
    # `check --stats`: clingo's figures of the question's unit ground and solved alone (ground_atoms, rules,
    # choices, conflicts), its seconds and how many questions the unit holds.
    stats: dict[str, float] | None = field(default=None, metadata=OMIT_NONE)


@dataclass
class ScenarioResult(Result):
    """The answers to a scenario's questions."""

    file: str
    title: str
    questions: list[QuestionResult]
    # Each card name the table wrote that several printings share, and the printing it was taken as (the others
    # agree with it on everything the rules read), in words.
    printings: list[str] | None = field(default=None, metadata=OMIT_NONE)

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
class ErrorResult(Result):
    """One input error, or a unit of work stopped at a bound or by a defect: its message and where it is."""

    message: str
    # The line the command line prints for it.
    text: str
    file: str | None = _optional()
    line: int | None = _optional()
    column: int | None = _optional()
    field: str | None = _optional()
    expected: str | None = _optional()
    suggestion: str | None = _optional()

    @classmethod
    def of(cls, error: InputError) -> ErrorResult:
        return cls(error.message, str(error), error.file, error.line, error.column, error.field, error.expected,
                   error.suggestion)


@dataclass
class FileErrors(Result):
    """A file that could not be answered: its errors and the exit code they give (2 bad input, 3 a bound
    reached, 4 a defect)."""

    file: str
    exit_code: int
    errors: list[ErrorResult]


@dataclass
class CheckResult(Result):
    """Scenario files checked: how many questions passed and failed, every scenario's answers, the files that
    could not be answered with their errors, and the exit code of the whole (the worst of its files)."""

    passed: int
    failed: int
    scenarios: list[ScenarioResult]
    errors: list[FileErrors] = field(default_factory=list)
    exit_code: int = 0
    # Questions answered that state no expectation: neither passed nor failed, counted apart.
    unchecked: int = 0
    # Files left unchecked because the run stopped at its first failing file (`check -x`).
    not_checked: int = 0


@dataclass
class DeckResult(Result):
    """A decklist's verdict with its reasons and readings."""

    file: str
    valid: bool
    verdict: str | None
    reasons: list[ReasonResult]
    rested_on: dict[str, str]
    readings: dict[str, str]
    # Each card name of the decklist that several printings share, and the printing it was taken as, in words.
    printings: list[str] | None = field(default=None, metadata=OMIT_NONE)


@dataclass
class DecksResult(Result):
    """Decklists validated, the files that could not be read with their errors, and the exit code of the whole
    (the worst of its files)."""

    decks: list[DeckResult]
    errors: list[FileErrors] = field(default_factory=list)
    exit_code: int = 0


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
    """The smallest change to a state that turns a question's verdict around, or `flippable: false`: the changes
    in words (`changes`) and as the flip program wrote them (`facts`, rules/flip/<game>.lp change/1)."""

    question: str
    flippable: bool
    before: VerdictRules | None = field(default=None, metadata=OMIT_NONE)
    changes: list[str] | None = field(default=None, metadata=OMIT_NONE)
    after: VerdictRules | None = field(default=None, metadata=OMIT_NONE)
    necessary_because: list[RuleStatement] | None = field(default=None, metadata=OMIT_NONE)
    facts: list[str] | None = field(default=None, metadata=OMIT_NONE)


@dataclass
class ChoiceInfo(Result):
    """One choice of a reading: its value, statement, document and the paragraphs behind it, and those of another
    document of the game (`DOCUMENT:pN`, as a scenario's `cites:` names them)."""

    value: str
    statement: str
    document: str
    paragraphs: list[str]
    other_paragraphs: list[str]


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
    max_instances: int = 0


@dataclass
class CensusResult(Result):
    """The real cards of a pool each reading and profile touches: for each pair of sides, the abstract states
    where they disagree, each matched against the pool, with its classes of real cards counted and their tables."""

    game: str
    catalog: str
    pool_cards: int
    pairs: list[dict[str, Any]]
    files: list[str]
    seconds: float
    # The search's bounds: the abstract states drawn that real tables show, and those no table shows, at most.
    states_bound: int = 0
    tries_bound: int = 0


@dataclass
class ConsistencyResult(Result):
    """The consistency report of the rules documents, the findings not in the baseline, and the scenario
    folders whose files it read."""

    documents: list[dict[str, Any]]
    new: list[str]
    scenario_folders: list[str]
    accepted: list[str] = field(default_factory=list, metadata={"internal": True})
    exit_code: int = field(default=0, metadata={"internal": True})


@dataclass
class ImportResult(Result):
    """A card database imported into the catalog store, with its data report."""

    source: str
    store: str
    report: dict[str, Any]
    cards: int = field(default=0, metadata={"internal": True})


def moment_of(moments: Sequence[MomentT], moment: int, file: str) -> MomentT:
    """The board of one moment among a board's moments (each with its `moment` number), else an input error naming
    the moments there are."""
    from pyengine.core.errors import InputError

    found = next((m for m in moments if m.moment == moment), None)
    if found is None:
        raise InputError(f"no moment {moment}", file=file, field="moment",
                         expected=f"a moment from 0 (the start) to {max(m.moment for m in moments)}")
    return found


@dataclass
class SnapshotResult(Result):
    """A scenario's table at one moment written as a scenario of its own (`pyengine board --snapshot`): the moment
    (0 the start, N after step N), the table as a file loads it, and the rules a reading decides that the steps
    before it rested on (the table cannot say them: its header does)."""

    file: str
    moment: int
    table: dict[str, Any]
    rests_on: list[str]

    @property
    def yaml(self) -> str:
        """The table as a scenario file: a header saying what it is, then the YAML."""
        from pyengine.core.yamlio import dump

        where = "at its start" if self.moment == 0 else f"after step {self.moment}"
        head = [f"# The table of {self.file} {where}, written by `pyengine board --snapshot`: the state the steps",
                "# left, no actions, and the questions the scenario asks at that moment (the rules of the steps that",
                "# led there are not expected of them)."]
        if self.rests_on:
            head.append("# The steps before rested on rules a reading decides: " + ", ".join(self.rests_on) + ".")
        return "\n".join(head) + "\n" + dump(self.table)


@dataclass
class FactsResult(Result):
    """The facts a scenario becomes."""

    file: str
    facts: list[str]


@dataclass
class PackVerdict(Result):
    """The knowledge base's answer to a pack's question under one side: the verdict (for a `plays` question, its
    legal and illegal play ids), the rules that gave it, the paragraphs they encode (document:paragraph) and the
    reading choices it rested on."""

    verdict: Any
    rules: list[str]
    paragraphs: list[str]
    rested_on: dict[str, str]


@dataclass
class PackEntry(Result):
    """One line of a conformance pack: a question, its state resolved, and the knowledge base's verdict under the
    document's default (`default`) and under each profile. `expected` is the scenario file's own expectation,
    asked under the readings `expected_under`; `scenario` is the file with this question alone, for writing a
    disagreement back as a test. A line of a scenario with actions holds its `trace`: the moment it asks about, the
    actions up to it (as the file writes them) and, under each side, the state they left there, resolved as `state`
    is."""

    format: str
    id: str
    game: str
    file: str
    question: str
    ask: str
    params: dict[str, Any]
    state: dict[str, Any]
    expected: Any
    expected_under: dict[str, str]
    verdicts: dict[str, PackVerdict]
    scenario: dict[str, Any]
    trace: dict[str, Any] | None = field(default=None, metadata=OMIT_NONE)

    def to_line(self) -> str:
        """The entry as one line of JSON."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PackEntry:
        """An entry read back from a pack's line (a missing or mistyped field raises KeyError or TypeError)."""
        verdicts = data["verdicts"]
        if not isinstance(verdicts, dict) or not verdicts:
            raise TypeError("verdicts must be an object keyed by side")
        entry = cls(**{f.name: data[f.name] for f in fields(cls) if f.name not in ("verdicts", "trace")},
                    trace=data.get("trace"),
                    verdicts={str(side): PackVerdict(**v) for side, v in verdicts.items()})
        for name in ("id", "game", "file", "question", "ask"):
            if not isinstance(getattr(entry, name), str):
                raise TypeError(f"{name} must be text")
        if not isinstance(entry.scenario, dict) or not isinstance(entry.scenario.get("questions"), list):
            raise TypeError("scenario must be a scenario file's data")
        return entry


@dataclass
class SkippedFile(Result):
    """A file a command read and left out, and why."""

    file: str
    reason: str


@dataclass
class ExportResult(Result):
    """A conformance pack written: where, how many questions of how many files (per game), the files left out."""

    pack: str
    questions: int
    files: int
    skipped: list[SkippedFile]
    games: dict[str, int]


@dataclass
class Agreement(Result):
    """How many of the questions counted an engine answers as the knowledge base does; for a side, how many of
    them each game has (a profile is one game's, so it counts that game's questions only)."""

    agree: int
    total: int
    games: dict[str, int] | None = field(default=None, metadata=OMIT_NONE)


@dataclass
class Disagreement(Result):
    """A question an engine answers otherwise than the knowledge base under the side compared: both verdicts, the
    rules and readings of the knowledge base's, the line of the engine's, and the scenario file written for it."""

    id: str
    file: str
    question: str
    ask: str
    engine: Any
    knowledge_base: Any
    rules: list[str]
    rested_on: dict[str, str]
    line: int
    scenario_file: str | None = _optional()


@dataclass
class CompareResult(Result):
    """An engine's verdicts against a conformance pack: agreement per side (the default and each profile), and
    under the reference side per rule id and per reading choice rested on; the disagreements under it."""

    pack: str
    verdicts: str
    reference: str
    answered: int
    unanswered: int
    per_side: dict[str, Agreement]
    per_rule: dict[str, Agreement]
    per_reading: dict[str, Agreement]
    disagreements: list[Disagreement]

    @property
    def exit_code(self) -> int:
        """0 when the engine agrees with the reference side on every question it answered, 1 otherwise."""
        return 1 if self.disagreements else 0
