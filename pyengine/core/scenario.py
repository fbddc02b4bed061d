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
from pyengine.core.errors import Collected, InputError, Unread, closest
from pyengine.core.fields import Fields
from pyengine.core.limits import limits
from pyengine.core.text import printable
from pyengine.core.yamlio import build_from_file, check_data
from pyengine.games import GAME_DOCUMENTS, GAME_NAMES, LISTING_KINDS, MOMENT_KINDS, Game
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
    # The paragraphs it cites: `p3` of the game's main document, `DOCUMENT:p3` of a further one.
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
    # The table as it was given (the data its file loads into): what a snapshot of a later moment keeps as written.
    data: Any = field(default=None, repr=False, compare=False)

    @property
    def over_moments(self) -> bool:
        """Whether the scenario is answered over moments (pyengine.core.stepwise): a game written over moments, or a
        scenario with actions or a question about a moment of one (MOMENT_KINDS); a state without them is one moment,
        answered by the static encodings."""
        return (self.game.timeline or bool(getattr(self.state, "actions", None))
                or any(q.kind in MOMENT_KINDS for q in self.questions))

    @property
    def kb(self) -> kbase.KnowledgeBase:
        return kbase.load(self.game.name)

    def cited(self) -> set[tuple[str, str]]:
        """Every paragraph the scenario and its questions cite, as (document, paragraph)."""
        return {cited_paragraph(c, self.game.document)
                for c in [*self.cites, *(c for q in self.questions for c in q.cites)]}

    @property
    def printings(self) -> list[str] | None:
        """Each card name of the table that several printings share, with the printing it was taken as, in words
        (None where there is none, or the game's state names no printings)."""
        return list({p.name: p.words() for p in getattr(self.state, "printings", [])}.values()) or None


def check_readings(readings: dict[str, str], kb: kbase.KnowledgeBase, fields: Fields | None, key: str) -> None:
    """Every reading named must exist and every choice be one of its choices: each that does not is an error, placed
    on its field where `fields` holds them (gathered in their collection), all of them raised together."""
    each = fields.apart() if fields else Collected()
    for name, value in readings.items():
        with each.part():
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
    each.raise_any()


def readings_of(fields: Fields, kb: kbase.KnowledgeBase) -> dict[str, str]:
    """A mapping's `profile:` choices overlaid by its `readings:` choices (each error of either gathered)."""
    readings: dict[str, str] = {}
    raw: dict[str, str] = {}
    each = fields.apart()
    with each.part():
        profile = fields.choice("profile", sorted(kb.profiles))
        if profile:
            readings.update(kb.profiles[profile])
    with each.part():
        raw = {str(k): str(v) for k, v in fields.mapping("readings").items()}
        check_readings(raw, kb, fields, "readings")
    each.raise_any()
    readings.update(raw)
    return readings


def cited_paragraph(cite: str, main: str) -> tuple[str, str]:
    """A cite as (document, paragraph): `p3` is of the game's main document, `DOCUMENT:p3` of the one named."""
    document, _, para = cite.rpartition(":")
    return document or main, para


def _cites(fields: Fields, kb: kbase.KnowledgeBase, game: Game) -> list[str]:
    """The paragraphs a mapping cites (`p3` of the game's main document, `DOCUMENT:p3` of any of its documents,
    kept as `p3` for the main one), each unknown one an error (all of them gathered)."""
    cites = []
    each = fields.apart()
    documents = GAME_DOCUMENTS[game.name]
    for item, line, column, path in fields.items("cites"):
        with each.part():
            document, para = cited_paragraph(str(item), game.document)
            if document not in documents:
                raise InputError(f"unknown document {document!r} of game {game.name}", file=fields.file, line=line,
                                 column=column, field=path, expected="DOCUMENT:PARAGRAPH of one of the game's "
                                 f"documents ({', '.join(documents)}), or a paragraph id of {game.document}",
                                 suggestion=closest(document, list(documents)))
            if kb.paragraph(document, para) is None:
                known = [p for d, p in kb.paragraphs if d == document]
                raise InputError(f"unknown paragraph {para!r} of document {document}", file=fields.file, line=line,
                                 column=column, field=path, expected="a paragraph id such as p3",
                                 suggestion=closest(para, known))
            cites.append(para if document == game.document else f"{document}:{para}")
    each.raise_any()
    return cites


def _play_sets(q: Fields) -> dict[str, list[str]] | None:
    """A `plays` question's expectation: the ids of the plays expected legal and those expected illegal."""
    if not q.has("expect"):
        return None
    if not isinstance(q.raw("expect"), dict) or not q.raw("expect"):
        raise q.error("expect", f"got {q.raw('expect')!r}", expected="{legal: [play ids], illegal: [play ids]}")
    expect = q.sub("expect", {"legal", "illegal"})
    sets: dict[str, list[str]] = {}
    each = q.apart()
    for key in ("legal", "illegal"):
        with each.part():
            if expect.has(key):
                sets[key] = []
                for item, line, column, path in expect.items(key):
                    with each.part():
                        sets[key].append(_play_id(item, line, column, path, q.file))
    each.raise_any()
    return sets


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
    (`pyengine plays`, the API) may come without questions. Every problem is an InputError; every part that can be
    read apart (the title, its cites and readings, each part of the state, each question and each field of one) is
    read, so a file reports each of its errors at once (InputErrors, up to errors.MAX_FILE_ERRORS): only what
    depends on a part with an error is not read (an unknown game stops the file, a state not read the questions'
    parameters). Data read from a file by yamlio.load_file was checked there (`checked`); other data is checked here
    (yamlio.check_data)."""
    if not checked:
        check_data(data, file)
    head = Fields(data, file, "", set(data) if isinstance(data, dict) else set())
    game = one_game(head.choice("game", sorted(GAME_NAMES), required=True))
    collected = Collected()
    top = Fields(data, file, "", COMMON_FIELDS | game.reader.state_fields, collected=collected)
    kb = kbase.load(game.name)
    cites, readings, title, state = [], {}, default_title, None
    with collected.part():
        cites = _cites(top, kb, game)
    with collected.part():
        readings = readings_of(top, kb)
    with collected.part():
        title = top.text("title") or default_title
    with collected.part():
        state = game.reader.parse_state(top, collected)
    scenario = Scenario(file, game, title, cites, readings, state, data=data)
    seen: set[str] = set()
    items: list[tuple[Any, int | None, int | None, str]] = []
    with collected.part():
        items = list(top.items("questions"))
        if len(items) > limits.max_questions:
            count, items = len(items), []
            raise top.error("questions", f"{count} questions, over the limit of {limits.max_questions}",
                            expected="fewer questions in one scenario")
        if not items and questions_required:
            raise top.error("questions", "the scenario asks no questions", expected="a list of questions")
    for index, (item, line, column, where) in enumerate(items, 1):
        with collected.part():
            scenario.questions.append(_question(game, kb, state, top, index, (item, line, column, where), seen))
    collected.raise_any()
    return scenario


def _question(game: Game, kb: kbase.KnowledgeBase, state: Any, top: Fields, index: int,
              item: tuple[Any, int | None, int | None, str], seen: set[str]) -> Question:
    """One question of a scenario (`item`: its data, line, column and field path), read and checked (its id not among
    those `seen`, to which it is added), each field apart: its kind, its id, its rules, cites and readings, and once its
    kind is known its expectation and, with a state read (None: not read, its error said), its parameters."""
    data, line, column, where = item
    q = top.entry(data, where, QUESTION_FIELDS | set().union(*game.question_fields.values()), line, column)
    each = q.apart()
    kind, qid, rules, cites, readings = None, f"q{index}", None, [], {}
    with each.part():
        kind = q.choice("ask", sorted(game.question_fields), required=True)
    with each.part():
        qid = q.text("id") or qid
        if qid in seen:
            raise q.error("id", f"question id {qid!r} is used twice", expected="a unique question id")
        seen.add(qid)
    with each.part():
        rules = _rules(q, kb)
    with each.part():
        cites = _cites(q, kb, game)
    with each.part():
        readings = readings_of(q, kb)
    expect: str | dict[str, list[str]] | None = None
    params: dict[str, Any] = {}
    if kind is not None:
        asked = q.narrowed(QUESTION_FIELDS | game.question_fields[kind])
        with each.part():
            expect = _expect(game, kind, asked)
        with each.part():
            if state is None:
                raise Unread("the state was not read", file=q.file, field=q.name("ask"))
            params = game.reader.parse_question(kind, asked, state)
    each.raise_any()
    return Question(qid, kind or "", params, expect, rules, cites, readings, line)


def _expect(game: Game, kind: str, q: Fields) -> str | dict[str, list[str]] | None:
    """A question's expectation: the play ids of a listing, a verdict word of its kind, or any value."""
    words = game.verdicts[kind]
    if kind in LISTING_KINDS:
        return _play_sets(q)
    if words is not None:
        return q.choice("expect", words)
    return None if q.raw("expect") is None else str(q.raw("expect")).lower()


def _rules(q: Fields, kb: kbase.KnowledgeBase) -> list[str] | None:
    """The rule ids a question expects (None without `rules:`), each undeclared one an error (all gathered)."""
    if not q.has("rules"):
        return None
    rules = []
    each = q.apart()
    for r, r_line, r_col, r_path in q.items("rules"):
        with each.part():
            if str(r) not in kb.rules:
                raise InputError(f"unknown rule {r!r}", file=q.file, line=r_line, column=r_col, field=r_path,
                                 expected="a declared rule id (pyengine rules)", suggestion=closest(str(r), kb.rules))
            rules.append(str(r))
    each.raise_any()
    return rules


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
