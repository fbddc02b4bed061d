"""The conformance kit for engine developers: a pack of questions with the knowledge base's verdicts, and the
comparison of an engine's own verdicts with it.

`export` answers scenario files (hand-written tables, the census's real-card tables, the edge-case search's
states: all are scenario files) under the document's default and under each profile, and writes one JSON line per
question (PackEntry): the state fully resolved (every instance with its card, owner, zone, bearer, the card it is
stacked on, whether the rules found it active, its wounds; whose turn and which phase), the question, and the
verdicts with their rule ids, paragraphs and the readings they rested on. Whether an instance is active is read
from the rules (activity/3 of the game's state rules, through its `activity_view`), never decided here. The games
over moments are left out: their questions are moments of a whole game, not states to put an engine in.

`compare` reads an engine's answers (one JSON line per question: its id and verdict), counts agreement per
profile, and for the reference side per rule id and per reading, and writes each disagreement as a scenario file
whose expectation is the engine's verdict."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from pyengine.core import jsonio
from pyengine.core import kb as kbase
from pyengine.core.arguments import checked
from pyengine.core.catalog import Card
from pyengine.core.engine import Answer, answer_sides, solve
from pyengine.core.errors import InputError, InputErrors, closest
from pyengine.core.files import write_folder, write_whole
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
from pyengine.core.scenario import Scenario, load_scenario, named_paths, scenario_files
from pyengine.core.text import printable
from pyengine.core.yamlio import load_file
from pyengine.games import GAME_NAMES, LISTING_KINDS
from pyengine.games import game as one_game

PACK_FORMAT = "pyengine-conformance-pack/1"
# The side a pack's verdicts are keyed by when no profile is chosen: the document's default readings.
DEFAULT_SIDE = "default"
# The most bytes a pack or a verdicts file may hold, and the most characters of one of its lines.
MAX_PACK_BYTES = 512 * 1024 * 1024
MAX_LINE_CHARS = 4 * 1024 * 1024


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
    shown = solve(game.name, game.facts(scenario.state, []), frozenset(), (view,))
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
    """The pack entries of one scenario file: each question answered under the default and every profile."""
    scenario = load_scenario(path)
    data = load_file(path, marks=False)
    kb = kbase.load(scenario.game.name)
    sides = {DEFAULT_SIDE: {}, **{name: dict(choices) for name, choices in sorted(kb.profiles.items())}}
    answered = answer_sides(_without_choices(scenario), list(sides.values()))
    state = _state(scenario, data)
    raw_questions = {str(q.get("id", f"q{i}")): q for i, q in enumerate(data.get("questions") or [], 1)
                     if isinstance(q, dict)}
    for index, question in enumerate(scenario.questions):
        document = {k: v for k, v in data.items() if k != "questions"}
        document["questions"] = [raw_questions.get(question.id, {"id": question.id})]
        yield PackEntry(
            format=PACK_FORMAT, id=f"{path}::{question.id}", game=scenario.game.name, file=str(path),
            question=question.id, ask=question.kind, params=_plain(question.params), state=state,
            expected=question.expect, expected_under=dict(sorted({**scenario.readings, **question.readings}.items())),
            verdicts={side: _verdict(answers[index], kb) for side, answers in zip(sides, answered, strict=True)},
            scenario=document)


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


def _json_lines(path: Path, what: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSON-lines file, each with its line number; blank lines are skipped, a line that is not
    one JSON object (or repeats a key: pyengine.core.jsonio) is a located error."""

    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(f"cannot read the {what}: {exc.strerror}", file=str(path)) from None
    if not path.is_file():
        raise InputError(f"the {what} is not a regular file", file=str(path), expected=f"a {what} saved on disk")
    if size > MAX_PACK_BYTES:
        raise InputError(f"the {what} is over the limit of {MAX_PACK_BYTES:,} bytes", file=str(path))
    with path.open(encoding="utf-8", errors="strict") as stream:
        number = 0
        try:
            for number, text in enumerate(stream, 1):
                if len(text) > MAX_LINE_CHARS:
                    raise InputError(f"line over {MAX_LINE_CHARS:,} characters", file=str(path), line=number)
                if not text.strip():
                    continue
                value = jsonio.loads(text.rstrip("\r\n"), str(path), number)
                if not isinstance(value, dict):
                    raise InputError(f"a JSON {type(value).__name__}, not an object", file=str(path), line=number,
                                     expected="one JSON object per line")
                yield number, value
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text (byte {exc.start})", file=str(path), line=number + 1) from None


def read_pack(path: Path) -> list[PackEntry]:
    """A pack written by `export`, checked: its format version, one entry per question id."""
    entries: dict[str, PackEntry] = {}
    for number, value in _json_lines(path, "pack"):
        if value.get("format") != PACK_FORMAT:
            raise InputError(f"format {printable(repr(value.get('format')))}", file=str(path), line=number,
                             field="format", expected=f"{PACK_FORMAT!r} (export the pack again with this pyengine)")
        try:
            entry = PackEntry.from_dict(value)
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"not a pack entry: {printable(str(exc))}", file=str(path), line=number,
                             expected="a line written by pyengine conformance export") from None
        if entry.id in entries:
            raise InputError(f"question {printable(entry.id)!r} is in the pack twice", file=str(path), line=number,
                             field="id", expected="one line per question")
        entries[entry.id] = entry
    if not entries:
        raise InputError("the pack holds no questions", file=str(path), expected="a pack written by export")
    return list(entries.values())


def _engine_verdicts(path: Path, pack: dict[str, PackEntry]) -> dict[str, tuple[Any, int]]:
    """The engine's verdict for each question id, with its line: every id in the pack, once, with a verdict the
    question's kind can have."""
    found: dict[str, tuple[Any, int]] = {}
    for number, value in _json_lines(path, "verdicts file"):
        unknown = sorted(set(value) - {"id", "verdict", "note"})
        if unknown:
            raise InputError(f"unknown field {printable(unknown[0])!r}", file=str(path), line=number,
                             field=unknown[0], expected="id, verdict and an optional note")
        qid, verdict = value.get("id"), value.get("verdict")
        if not isinstance(qid, str):
            raise InputError("no question id", file=str(path), line=number, field="id",
                             expected="the id of a question of the pack, as text")
        if qid not in pack:
            raise InputError(f"question {printable(qid)!r} is not in the pack", file=str(path), line=number,
                             field="id", expected="the id of a question of the pack", suggestion=closest(qid, pack))
        if qid in found:
            raise InputError(f"question {printable(qid)!r} is answered twice (first on line {found[qid][1]})",
                             file=str(path), line=number, field="id", expected="one verdict per question")
        entry = pack[qid]
        words = one_game(entry.game).verdicts.get(entry.ask)
        if entry.ask in LISTING_KINDS:
            ok = (isinstance(verdict, dict) and set(verdict) <= {"legal", "illegal"}
                  and all(isinstance(v, list) and all(isinstance(i, str) for i in v) for v in verdict.values()))
            expected = "{legal: [play ids], illegal: [play ids]}"
            verdict = {k: sorted(set(v)) for k, v in verdict.items()} if ok else verdict
        else:
            ok = isinstance(verdict, str) and (words is None or verdict in words)
            expected = " or ".join(words or ("a verdict",))
        if not ok:
            raise InputError(f"verdict {printable(repr(verdict))} for a {entry.ask} question", file=str(path),
                             line=number, field="verdict", expected=expected)
        found[qid] = (verdict, number)
    return found


def _agrees(engine: Any, ours: Any) -> bool:
    """Whether an engine's verdict is the knowledge base's (for a listing: the sets the engine gives)."""
    if isinstance(ours, dict):
        return all(sorted(engine.get(k, [])) == ours.get(k, []) for k in ("legal", "illegal") if k in engine)
    return bool(engine == ours)


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


@checked
def compare(pack_path: str | Path, verdicts_path: str | Path, profile: str | None = None,
            out: str | Path | None = None) -> CompareResult:
    """Compare an engine's verdicts with a pack: agreement per side (the default and each profile), and under the
    reference side (`profile`, else the side that agrees most) per rule id and per reading; each disagreement
    under the reference side written as a scenario file into `out` (when given)."""
    pack_file, verdicts_file = Path(pack_path), Path(verdicts_path)
    entries = read_pack(pack_file)
    pack = {e.id: e for e in entries}
    engine = _engine_verdicts(verdicts_file, pack)
    sides = sorted({s for e in entries for s in e.verdicts}, key=lambda s: (s != DEFAULT_SIDE, s))
    if profile is not None and profile not in sides:
        raise InputError(f"the pack has no side {printable(profile)!r}", field="--profile",
                         expected="default or a profile of the pack: " + ", ".join(sides),
                         suggestion=closest(profile, sides))
    per_side = {}
    for side in sides:
        asked = [q for q in engine if side in pack[q].verdicts]
        if not asked:
            continue
        per_side[side] = Agreement(sum(_agrees(engine[q][0], pack[q].verdicts[side].verdict) for q in asked),
                                   len(asked))
    reference = profile or max(per_side, key=lambda s: (per_side[s].agree / per_side[s].total, s == DEFAULT_SIDE))
    per_rule: dict[str, list[int]] = {}
    per_reading: dict[str, list[int]] = {}
    disagreements = []
    for qid, (verdict, line) in engine.items():
        entry = pack[qid]
        ours = entry.verdicts.get(reference)
        if ours is None:
            continue
        agree = _agrees(verdict, ours.verdict)
        for key, table in ([(r, per_rule) for r in ours.rules]
                           + [(f"{n}={v}", per_reading) for n, v in ours.rested_on.items()]):
            counts = table.setdefault(key, [0, 0])
            counts[0] += agree
            counts[1] += 1
        if not agree:
            disagreements.append(Disagreement(qid, entry.file, entry.question, entry.ask, verdict, ours.verdict,
                                              ours.rules, ours.rested_on, line))
    if out is not None and disagreements:
        names: Counter[str] = Counter()
        files: dict[str, str] = {}
        for found in disagreements:
            stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in f"{Path(found.file).stem}-{found.question}")
            names[stem] += 1
            name = f"{stem}.yaml" if names[stem] == 1 else f"{stem}-{names[stem]}.yaml"
            files[name] = _scenario_text(pack[found.id], found.engine, reference, verdicts_file, found.line)
            found.scenario_file = str(Path(out) / name)
        write_folder(Path(out), files, "conformance compare")
    return CompareResult(str(pack_file), str(verdicts_file), reference, len(engine), len(pack) - len(engine),
                         per_side, {k: Agreement(*v) for k, v in sorted(per_rule.items())},
                         {k: Agreement(*v) for k, v in sorted(per_reading.items())}, disagreements)
