"""The conformance kit for engine developers: a pack of questions with the knowledge base's verdicts, and the
comparison of an engine's own verdicts with it.

`export` answers scenario files (hand-written tables, the census's real-card tables, the edge-case search's
states: all are scenario files) under the document's default and under each profile, and writes one JSON line per
question (PackEntry): the state fully resolved (every instance with its card, owner, zone, bearer, the card it is
stacked on, whether the rules found it active, its wounds; whose turn and which phase), the question, and the
verdicts with their rule ids, paragraphs and the readings they rested on. Whether an instance is active is read
from the rules (activity/3 of the game's state rules, through its `activity_view`), never decided here. A card
table with actions is written as a trace: a line for every step (done or refused) and for each other question,
each with the actions up to the moment it asks about and the state they left there under each side (the board's
snapshot of that moment, as the encodings find it, resolved as a state is). The games over moments are left out:
their questions are moments of a whole game, not states to put an engine in.

`compare` reads an engine's answers (one JSON line per question: its id and verdict), counts agreement per
profile, and for the reference side per rule id and per reading, and writes each disagreement as a scenario file
whose expectation is the engine's verdict. Both files are read as untrusted input, one line at a time, every field
checked (pyengine.tools.conformance_input)."""

from __future__ import annotations

import json
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pyengine.core import answering
from pyengine.core import kb as kbase
from pyengine.core.arguments import checked
from pyengine.core.catalog import Card
from pyengine.core.engine import Answer, answer_sides, solve
from pyengine.core.errors import BoundError, InputError, InputErrors, closest
from pyengine.core.files import check_out_folder, write_folder, write_whole
from pyengine.core.resources import rules_dir
from pyengine.core.results import (
    Agreement,
    CompareResult,
    Disagreement,
    ExportResult,
    PackEntry,
    PackVerdict,
    SkippedFile,
)
from pyengine.core.scenario import Scenario, named_paths, scenario_files, scenario_from_data
from pyengine.core.text import printable
from pyengine.core.yamlio import build_from_file, load_file
from pyengine.games import GAME_NAMES
from pyengine.games import game as one_game
from pyengine.tools.conformance_input import (
    DEFAULT_SIDE,
    PACK_FORMAT,
    PackIndex,
    indexed_entries,
    read_index,
    read_verdicts,
)

# The id of the question a trace's line asks about a step the file asks nothing about.
STEP_ID = "step-{}"
# The most bytes of a disagreement's file name before its number and `.yaml` (a file name holds at most 255).
MAX_STEM_BYTES = 120


def _plain(value: Any) -> Any:
    """A question's parameters as JSON data: cards as their records, deck entries as card and count (and, where
    the game has them, the part of the decklist)."""
    if isinstance(value, Card):
        return value.record()
    if isinstance(value, tuple) and len(value) in (2, 3) and isinstance(value[0], Card):
        return {**value[0].record(), "count": value[1], **({"part": value[2]} if len(value) == 3 else {})}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items() if v is not None}
    return value


def _activity(scenario: Scenario) -> dict[str, tuple[str, str]]:
    """Which in-play instances the rules find active, and why (activity/3 of the game's state rules)."""
    game = scenario.game
    if game.activity_view is None:
        return {}
    view = Path(rules_dir(), game.name, game.activity_view)
    shown = solve(game.name, game.writer.facts(scenario.state, []), frozenset(), (view,))
    return {s.arguments[0].string: (s.arguments[1].name, s.arguments[2].name) for s in shown if s.name == "activity"}


def _state(scenario: Scenario, data: dict[str, Any]) -> dict[str, Any]:
    """The scenario's state, resolved: the catalog, the players, whose turn it is and every instance with its card
    record, as the game writes them (its instance_record and turn_record)."""
    game, state = scenario.game, scenario.state
    activity = _activity(scenario)
    return {"catalog": str(data.get("catalog", "builtin")), "players": list(state.players), **game.turn_record(state),
            "instances": [game.instance_record(inst, activity) for inst in state.instances.values()]}


def _verdict(found: Answer, kb: kbase.KnowledgeBase) -> PackVerdict:
    """One side's answer to a question, with the paragraphs its rules encode."""
    verdict: Any = found.play_sets() if found.plays is not None else found.verdict
    cited = {(d, p) for r in found.rule_ids for d, p in kb.rules[r].sources}
    paragraphs = [f"{d}:{p}" for d, p in sorted(cited, key=lambda c: (c[0], len(c[1]), c[1]))]
    return PackVerdict(verdict, found.rule_ids, paragraphs, found.rested_on)


def _without_choices(scenario: Scenario) -> Scenario:
    """The scenario with its own reading choices and its questions' removed: answered as the document reads."""
    return replace(scenario, readings={}, questions=[replace(q, readings={}) for q in scenario.questions])


def _entries(path: Path) -> Iterator[PackEntry]:
    """The pack entries of one scenario file: each question answered under the default and every profile; of a
    file with actions, also a question about every step it asks nothing about, each entry with its trace."""
    data, scenario = build_from_file(path, lambda read: _read(read, path))
    kb = kbase.load(scenario.game.name)
    sides = {DEFAULT_SIDE: {}, **{name: dict(choices) for name, choices in sorted(kb.profiles.items())}}
    answered = answer_sides(_without_choices(scenario), list(sides.values()))
    state = _state(scenario, data)
    resolved: dict[str, dict[str, Any]] = {}
    after = ({side: _states_after(scenario, choices, resolved) for side, choices in sides.items()}
             if data.get("actions") else {})
    raw_questions = {str(q.get("id", f"q{i}")): q for i, q in enumerate(data.get("questions") or [], 1)
                     if isinstance(q, dict)}
    for index, question in enumerate(scenario.questions):
        document = {k: v for k, v in data.items() if k != "questions"}
        document["questions"] = [raw_questions.get(question.id, {"id": question.id})]
        moment = question.params["step"] if question.kind == "action" else question.params.get("after", 0)
        yield PackEntry(
            format=PACK_FORMAT, id=f"{path}::{question.id}", game=scenario.game.name, file=str(path),
            question=question.id, ask=question.kind, params=_plain(question.params), state=state,
            expected=question.expect, expected_under=dict(sorted({**scenario.readings, **question.readings}.items())),
            verdicts={side: _verdict(answers[index], kb) for side, answers in zip(sides, answered, strict=True)},
            scenario=document,
            trace={"moment": moment, "actions": data["actions"][:moment],
                   "after": {side: states[moment] for side, states in after.items()}} if after else None)


def _read(data: Any, path: Path) -> tuple[dict[str, Any], Scenario]:
    """A scenario file's data (with a question about every step, where it has actions) and the scenario it is."""
    if isinstance(data, dict) and data.get("actions"):
        data = _with_every_step(data)
    return data, scenario_from_data(data, str(path), path.stem, checked=True)


def _with_every_step(data: dict[str, Any]) -> dict[str, Any]:
    """A file with actions, with a question about every step it asks nothing about (id STEP_ID, no expectation): a
    trace's lines say each step's verdict."""
    questions = [q for q in data.get("questions") or [] if isinstance(q, dict)]
    covered = {q.get("step") for q in questions if q.get("ask") == "action"}
    taken = {str(q.get("id")) for q in questions}
    added = []
    for step in range(1, len(data["actions"]) + 1):
        if step in covered:
            continue
        name = STEP_ID.format(step)
        while name in taken:  # the file's own question has that id: the step's takes another
            name += "-step"
        taken.add(name)
        added.append({"id": name, "ask": "action", "step": step})
    return {**data, "questions": [*questions, *added]}


def _states_after(scenario: Scenario, choices: dict[str, str],
                  resolved: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The state at every moment of a scenario with actions under a side's choices, as the encodings find it (the
    board's snapshot of each moment, without its questions), resolved as a state line is; a table another side or
    moment left alike is resolved once (`resolved`, by the table's text without its title and readings, which the
    resolved state does not read)."""
    board = answering.board(_without_choices(scenario), choices or None)
    found = []
    for moment in board.moments:
        table = {k: v for k, v in board.snapshot(moment.moment).items() if k != "questions"}
        key = json.dumps({k: v for k, v in table.items() if k not in ("title", "readings")}, sort_keys=True)
        if key not in resolved:
            resolved[key] = _state(scenario_from_data(table, f"{scenario.path}@{moment.moment}",
                                                      questions_required=False), table)
        found.append(resolved[key])
    return found


@checked
def export(paths: Iterable[str | Path], out: str | Path, progress: Any = None) -> ExportResult:
    """Write a pack of every question of the scenario files named (folders searched), one JSON line each. Every
    file is read first: any input error stops the export with all of them, and nothing is written."""
    files = scenario_files(named_paths(paths))
    if not files:
        raise InputError("no scenario files found", field="FILES", expected="scenario files or folders of them")
    entries: list[PackEntry] = []
    skipped: list[SkippedFile] = []
    errors: list[InputError] = []
    for done, path in enumerate(files, 1):
        try:
            data = load_file(path, marks=False)
            game = data.get("game") if isinstance(data, dict) else None
            if game in GAME_NAMES and one_game(game).timeline:
                skipped.append(SkippedFile(str(path), f"a {game} scenario asks about moments of a whole game; "
                                                      "packs hold the card games' states"))
            else:
                entries.extend(_entries(path))
        except InputError as error:
            errors.extend(error.all())
        if progress is not None:
            progress(done, len(files))
    if errors:
        raise InputErrors(errors) if len(errors) > 1 else errors[0]
    target = Path(out)
    try:
        write_whole(target, (e.to_line() + "\n" for e in entries))
    except OSError as exc:
        raise InputError(f"cannot write the pack: {exc.strerror}", file=str(target), field="--out") from None
    return ExportResult(str(target), len(entries), len(files) - len(skipped), skipped,
                        dict(sorted(Counter(e.game for e in entries).items())))


def _scenario_text(entry: PackEntry, engine: Any, side: str, verdicts: Path, line: int) -> str:
    """The scenario file of one disagreement: the pack's table with that question alone, whose expectation is the
    engine's verdict under the side compared."""
    import yaml

    document = json.loads(json.dumps(entry.scenario))
    [question] = document["questions"]
    question.pop("readings", None)
    question.pop("profile", None)
    question.pop("rules", None)
    if side != DEFAULT_SIDE:
        question["profile"] = side
    question["expect"] = engine
    ours = entry.verdicts[side]
    question["note"] = (f"expectation from {verdicts.name} line {line}; the knowledge base answers {ours.verdict} "
                        f"under {side} ({', '.join(ours.rules) or 'no rule'})")
    header = (f"# A disagreement found by `pyengine conformance compare`: {entry.id}.\n"
              "# The expectation is the engine's verdict; the knowledge base answers otherwise.\n")
    return header + yaml.safe_dump(document, sort_keys=False, allow_unicode=True)


class _Files(Mapping[str, str]):
    """The disagreements' scenario files for `--out` (name -> text): each named apart from every name given before
    it, and held compressed until write_folder writes it, so that a large pack's disagreements never hold its
    scenarios whole in memory."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._texts: dict[str, bytes] = {}
        # Each name given, case-blind (as some file systems compare names), and the last number tried per stem.
        self._given: set[str] = set()
        self._last: dict[str, int] = {}

    def add(self, found: Disagreement, text: str) -> None:
        """Name the disagreement's file (found.scenario_file) and hold its text."""
        name = self._name(found)
        found.scenario_file = str(self.folder / name)
        self._texts[name] = zlib.compress(text.encode("utf-8"), 1)

    def _name(self, found: Disagreement) -> str:
        """A new name: the stem of the file and the question (letters, digits, - and _; at most MAX_STEM_BYTES),
        then -2, -3... until no name given before is the same."""
        stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in f"{Path(found.file).stem}-{found.question}")
        stem = stem.encode("utf-8")[:MAX_STEM_BYTES].decode("utf-8", "ignore")
        number = self._last.get(stem.casefold(), 0)
        name = f"{stem}.yaml" if number == 0 else f"{stem}-{number}.yaml"
        while name.casefold() in self._given:
            number = max(number, 1) + 1
            name = f"{stem}-{number}.yaml"
        self._last[stem.casefold()] = number
        self._given.add(name.casefold())
        return name

    def __getitem__(self, name: str) -> str:
        return zlib.decompress(self._texts[name]).decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)


@dataclass
class _Side:
    """One side over the questions the engine answered: how many agree, per rule id and per reading choice its
    verdicts rested on (each [agree, total]), and the ids of those that disagree."""

    agree: int = 0
    total: int = 0
    rules: dict[str, list[int]] = field(default_factory=dict)
    readings: dict[str, list[int]] = field(default_factory=dict)
    disagree: list[str] = field(default_factory=list)

    def count(self, qid: str, agree: bool, rules: list[str], rested_on: dict[str, str]) -> None:
        """Count one question answered, whose verdict under this side came from `rules` resting on `rested_on`."""
        self.agree += agree
        self.total += 1
        for key, table in ([(r, self.rules) for r in rules]
                           + [(f"{n}={v}", self.readings) for n, v in rested_on.items()]):
            counts = table.setdefault(key, [0, 0])
            counts[0] += agree
            counts[1] += 1
        if not agree:
            self.disagree.append(qid)


def _reference(profile: str | None, index: PackIndex, per_side: dict[str, Agreement], answered: int) -> str:
    """The side compared: `profile`, else the side that agrees most; either must answer every question the engine
    answered, so that no answer goes uncompared (a pack of several games shares only the default side)."""
    if profile is not None and profile not in index.sides:
        raise InputError(f"the pack has no side {printable(profile)!r}", field="--profile",
                         expected="default or a profile of the pack: " + ", ".join(index.sides),
                         suggestion=closest(profile, index.sides))
    whole = [side for side, found in per_side.items() if found.total == answered]
    if profile is not None and profile not in whole:
        missing = answered - (per_side[profile].total if profile in per_side else 0)
        raise InputError(f"side {printable(profile)!r} does not answer {missing} of the {answered} questions the "
                         "engine answered (each side answers its own game's)", field="--profile",
                         expected="a side that answers them all (" + ", ".join(whole) + "), or the verdicts of one "
                                  "game's questions alone")
    return profile or max(whole, key=lambda s: (per_side[s].agree / per_side[s].total, s == DEFAULT_SIDE))


@checked
def compare(pack_path: str | Path, verdicts_path: str | Path, profile: str | None = None,
            out: str | Path | None = None) -> CompareResult:
    """Compare an engine's verdicts with a pack: agreement per side (the default and each profile), and under the
    reference side (`profile`, else the side that agrees most) per rule id and per reading; each disagreement
    under the reference side written as a scenario file into `out` (when given; the folder is replaced whole). Every
    line of both files is checked first (pyengine.tools.conformance_input); the pack is read one line at a time, once
    to index it (each question's kind and verdicts) and once more for the lines that disagree under the reference
    side, so that memory follows the index and the engine's verdicts, never the states and scenarios that make most
    of a pack. Memory that runs out is a bound (exit 3)."""
    pack_file, verdicts_file = Path(pack_path), Path(verdicts_path)
    if out is not None:
        check_out_folder(Path(out))
    try:
        index = read_index(pack_file)
        engine = read_verdicts(verdicts_file, index)
        sides: dict[str, _Side] = {}
        games: dict[str, Counter[str]] = {}
        for qid, (text, _) in engine.items():
            verdict = json.loads(text)
            for side, (ours, rules, rested_on) in index.questions[qid].sides().items():
                sides.setdefault(side, _Side()).count(qid, verdict == ours, rules, rested_on)
                games.setdefault(side, Counter())[index.questions[qid].game] += 1
        per_side = {side: Agreement(sides[side].agree, sides[side].total, dict(sorted(games[side].items())))
                    for side in index.sides if side in sides}
        reference = _reference(profile, index, per_side, len(engine))
        disagreements: list[Disagreement] = []
        files = _Files(Path(out or "."))
        for entry in indexed_entries(pack_file, index, sides[reference].disagree):
            text, line = engine[entry.id]
            verdict, ours = json.loads(text), entry.verdicts[reference]
            found = Disagreement(entry.id, entry.file, entry.question, entry.ask, verdict, ours.verdict, ours.rules,
                                 ours.rested_on, line)
            disagreements.append(found)
            if out is not None:
                files.add(found, _scenario_text(entry, verdict, reference, verdicts_file, line))
    except MemoryError:
        raise BoundError("stopped: over the memory ceiling while comparing (--memory)", file=str(pack_file),
                         expected="a smaller pack, or a higher --memory") from None
    if out is not None:
        write_folder(Path(out), files, "conformance compare")
    chosen = sides[reference]
    return CompareResult(str(pack_file), str(verdicts_file), reference, len(engine), len(index.questions) - len(engine),
                         per_side, {k: Agreement(*v) for k, v in sorted(chosen.rules.items())},
                         {k: Agreement(*v) for k, v in sorted(chosen.readings.items())}, disagreements)
