"""Scenario files: a game state plus questions with expected answers, readable by a judge and run by
`pyengine check` and pytest. The game-independent part is read here; the state is read by the game."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyengine.core import kb as kbase
from pyengine.core.errors import Collected, InputError, closest
from pyengine.core.fields import Fields
from pyengine.core.limits import limits
from pyengine.core.text import printable
from pyengine.core.yamlio import build_from_file, check_data
from pyengine.games import GAME_NAMES, LISTING_KINDS, Game
from pyengine.games import game as one_game

COMMON_FIELDS = {"game", "title", "description", "cites", "readings", "profile", "questions"}
QUESTION_FIELDS = {"id", "ask", "expect", "rules", "cites", "readings", "profile", "note"}


@dataclass
class Question:
    id: str
    kind: str
    params: dict[str, Any]
    expect: str | dict[str, list[str]] | None
    rules: list[str] | None
    cites: list[str]
    readings: dict[str, str]
    line: int | None


@dataclass
class Scenario:
    path: str
    game: Game
    title: str
    cites: list[str]
    readings: dict[str, str]
    state: Any
    questions: list[Question] = field(default_factory=list)

    @property
    def kb(self) -> kbase.KnowledgeBase:
        return kbase.load(self.game.name)


def check_readings(readings: dict[str, str], kb: kbase.KnowledgeBase, fields: Fields | None, key: str) -> None:
    """Every reading named must exist and every choice be one of its choices."""
    for name, value in readings.items():
        if name not in kb.readings:
            error = InputError(f"unknown reading {name!r}", expected="one of " + ", ".join(sorted(kb.readings)),
                               suggestion=closest(name, kb.readings))
        elif value not in kb.readings[name].choices:
            choices = kb.readings[name].choices
            error = InputError(f"unknown choice {value!r} for reading {name}",
                               expected="one of " + ", ".join(choices), suggestion=closest(value, choices))
        else:
            continue
        if fields:
            raw = fields.mapping(key)
            line, column = raw.key_at(name) if hasattr(raw, "key_at") else (None, None)
            raise InputError(error.message, file=fields.file, line=line, column=column,
                             field=f"{fields.name(key)}.{name}", expected=error.expected,
                             suggestion=error.suggestion)
        raise error


def readings_of(fields: Fields, kb: kbase.KnowledgeBase) -> dict[str, str]:
    """A mapping's `profile:` choices overlaid by its `readings:` choices."""
    readings: dict[str, str] = {}
    profile = fields.choice("profile", sorted(kb.profiles))
    if profile:
        readings.update(kb.profiles[profile])
    raw = {str(k): str(v) for k, v in fields.mapping("readings").items()}
    check_readings(raw, kb, fields, "readings")
    readings.update(raw)
    return readings


def _cites(fields: Fields, kb: kbase.KnowledgeBase, document: str) -> list[str]:
    cites = []
    for item, line, column, path in fields.items("cites"):
        para = str(item)
        if kb.paragraph(document, para) is None:
            known = [p for d, p in kb.paragraphs if d == document]
            raise InputError(f"unknown paragraph {para!r} of document {document}", file=fields.file, line=line,
                             column=column, field=path, expected="a paragraph id such as p3",
                             suggestion=closest(para, known))
        cites.append(para)
    return cites


def _play_sets(q: Fields) -> dict[str, list[str]] | None:
    """A `plays` question's expectation: the ids of the plays expected legal and those expected illegal."""
    if not q.has("expect"):
        return None
    if not isinstance(q.raw("expect"), dict) or not q.raw("expect"):
        raise q.error("expect", f"got {q.raw('expect')!r}", expected="{legal: [play ids], illegal: [play ids]}")
    expect = q.sub("expect", {"legal", "illegal"})
    return {key: [_play_id(item, line, column, path, q.file) for item, line, column, path in expect.items(key)]
            for key in ("legal", "illegal") if expect.has(key)}


def _play_id(item: Any, line: int | None, column: int | None, path: str, file: str) -> str:
    """One play id of a `plays` expectation: text as written (a whole number is its digits); a float a program
    gave, a list, a mapping or true/false is a located error, never its Python text."""
    if isinstance(item, str) or (isinstance(item, int) and not isinstance(item, bool)):
        return str(item)
    expected = "a play id as text, in quotes" if isinstance(item, float) else "a play id (text)"
    raise InputError(f"got {item!r}", file=file, line=line, column=column, field=path, expected=expected)


def load_scenario(path: Path, catalog: str | None = None) -> Scenario:
    """Read and validate one scenario file; every problem is an InputError with its line. `catalog` (`check
    --catalog`) is the catalog of a file of that catalog's game that names none."""
    return build_from_file(path, lambda data: scenario_from_data(with_catalog(data, catalog), str(path), path.stem,
                                                                 checked=True))


def with_catalog(data: Any, catalog: str | None) -> Any:
    """A scenario's data with `catalog` as its catalog where it names none and is of the game that catalog's cards
    belong to (an imported source's; the built-in catalog is every game's default already)."""
    if catalog in (None, "builtin") or not isinstance(data, dict) or "catalog" in data:
        return data
    from pyengine.core import store

    if store.sources().get(str(catalog)) == data.get("game"):
        data["catalog"] = catalog
    return data


def scenario_from_data(data: Any, file: str, default_title: str = "scenario",
                       questions_required: bool = True, checked: bool = False) -> Scenario:
    """Validate a scenario given as data (from a file, or built by a test or a search); a table built to be asked
    (`pyengine plays`, the API) may come without questions. Every problem is an InputError; the parts that can be
    read apart (the title's cites and readings, the state, each question) are all read, so a file reports each
    of their errors at once (InputErrors, up to errors.MAX_FILE_ERRORS). Data read from a file by yamlio.load_file was
    checked there (`checked`); other data is checked here (yamlio.check_data)."""
    if not checked:
        check_data(data, file)
    head = Fields(data, file, "", set(data) if isinstance(data, dict) else set())
    game = one_game(head.choice("game", sorted(GAME_NAMES), required=True))
    top = Fields(data, file, "", COMMON_FIELDS | game.reader.state_fields)
    kb = kbase.load(game.name)
    collected = Collected()
    cites, readings = [], {}
    with collected.part():
        cites = _cites(top, kb, game.document)
    with collected.part():
        readings = readings_of(top, kb)
    state = game.reader.parse_state(top, collected)
    scenario = Scenario(file, game, top.text("title") or default_title, cites, readings, state)
    seen: set[str] = set()
    items = list(top.items("questions"))
    with collected.part():
        if len(items) > limits.max_questions:
            count, items = len(items), []
            raise top.error("questions", f"{count} questions, over the limit of {limits.max_questions}",
                            expected="fewer questions in one scenario")
        if not items and questions_required:
            raise top.error("questions", "the scenario asks no questions", expected="a list of questions")
    for index, (item, line, column, where) in enumerate(items, 1):
        with collected.part():
            scenario.questions.append(_question(game, kb, state, file, index, item, line, column, where, seen))
    collected.raise_any()
    return scenario


def _question(game: Game, kb: kbase.KnowledgeBase, state: Any, file: str, index: int, item: Any, line: int | None,
              column: int | None, where: str, seen: set[str]) -> Question:
    """One question of a scenario, read and checked (its id not among those `seen`, to which it is added)."""
    q = Fields(item, file, where, QUESTION_FIELDS | set().union(*game.question_fields.values()),
               line or 0, column or 0)
    kind = q.choice("ask", sorted(game.question_fields), required=True)
    Fields(item, file, where, QUESTION_FIELDS | game.question_fields[kind], line or 0, column or 0)
    qid = q.text("id") or f"q{index}"
    if qid in seen:
        raise q.error("id", f"question id {qid!r} is used twice", expected="a unique question id")
    seen.add(qid)
    words = game.verdicts[kind]
    if kind in LISTING_KINDS:
        expect: str | dict[str, list[str]] | None = _play_sets(q)
    elif words is not None:
        expect = q.choice("expect", words)
    else:
        expect = None if q.raw("expect") is None else str(q.raw("expect")).lower()
    rules = None
    if q.has("rules"):
        rules = [str(r) for r, *_ in q.items("rules")]
        for r, r_line, r_col, r_path in q.items("rules"):
            if str(r) not in kb.rules:
                raise InputError(f"unknown rule {r!r}", file=file, line=r_line, column=r_col, field=r_path,
                                 expected="a declared rule id (pyengine rules)", suggestion=closest(str(r), kb.rules))
    return Question(qid, kind, game.reader.parse_question(kind, q, state), expect, rules, _cites(q, kb, game.document),
                    readings_of(q, kb), line)


# The bounds of a search of folders for scenario files: how many files it lists, how deep it goes, how long.
MAX_SCAN_FILES = 100_000
MAX_SCAN_DEPTH = 40
MAX_SCAN_SECONDS = 60.0


def named_paths(paths: Any, argument: str = "paths") -> list[Path]:
    """What a caller means by `paths`: one path (`str` or `os.PathLike`) or an iterable of them, as Paths; any
    other value, or an element of another type, is an InputError naming the argument (a `str` is one path, never
    its characters)."""
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    elif isinstance(paths, bytes | bytearray | dict) or not isinstance(paths, Iterable):
        raise InputError(f"{argument} is {type(paths).__name__}", field=argument,
                         expected="a path (str or pathlib.Path) or a list of them")
    found = []
    for index, item in enumerate(paths):
        if not isinstance(item, str | os.PathLike) or isinstance(item, bytes):
            raise InputError(f"{argument}[{index}] is {type(item).__name__}", field=f"{argument}[{index}]",
                             expected="a path: str or pathlib.Path")
        text = os.fspath(item)
        if not isinstance(text, str) or not text or "\x00" in text:
            raise InputError(f"{argument}[{index}] is {printable(repr(text))}", field=f"{argument}[{index}]",
                             expected="a non-empty path without NUL characters")
        found.append(Path(text))
    return found


def scenario_files(paths: list[Path], vanished: list[str] | None = None) -> list[Path]:
    """The scenario files named, folders searched recursively for *.yaml and *.yml, in a stable order; bounded in
    files, depth and time. A folder that vanishes or cannot be read while it is searched is skipped and named in
    `vanished` (when given), the rest still found."""
    found: list[Path] = []
    deadline = time.monotonic() + MAX_SCAN_SECONDS
    for path in paths:
        if not path.is_dir():
            found.append(path)
            continue
        listed: list[Path] = []

        def skipped(error: OSError, root: Path = path) -> None:
            if vanished is not None:
                vanished.append(str(error.filename or root))

        for folder, subfolders, names in os.walk(path, onerror=skipped):
            depth = len(Path(folder).relative_to(path).parts)
            if depth >= MAX_SCAN_DEPTH:
                raise InputError(f"folders nested over {MAX_SCAN_DEPTH} deep", file=folder,
                                 expected="scenario folders less deep, or the files named")
            subfolders.sort()
            listed.extend(Path(folder, n) for n in names if Path(n).suffix.lower() in {".yaml", ".yml"})
            if len(found) + len(listed) > MAX_SCAN_FILES:
                raise InputError(f"over {MAX_SCAN_FILES:,} scenario files under {path}", file=str(path),
                                 expected="fewer files in one run, or the folders named apart")
            if time.monotonic() > deadline:
                raise InputError(f"searching {path} took over {MAX_SCAN_SECONDS:g} s", file=str(path),
                                 expected="a smaller folder, or the files named")
        found.extend(sorted(listed))
    return found
