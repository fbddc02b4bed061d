"""The conformance kit's inputs, trusted in nothing: a pack and an engine's verdicts file are read one line at a time,
and every field of every line is checked before anything uses it: its type, the game (one whose questions packs
hold), the question kind (one of that game's), each verdict (a word of its kind, or a listing's two sets of play
ids), the sides (the document's default and the game's profiles), the scenario written back for a disagreement (its
game, its one question), and no text anywhere holding a NUL or a lone surrogate or values nested over MAX_DEPTH. Each
error is one line naming the file, the line and the field (exit 2); a file over MAX_FILE_BYTES or a line over
MAX_LINE_BYTES is a bound (exit 3), met before it is read. Nothing reads a whole file into memory: a comparison keeps
an index of the pack (PackIndex: each question's kind and verdicts) and the engine's verdicts, and reads the pack
again only for the states and scenarios of its disagreements."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from pyengine.core import jsonio
from pyengine.core import kb as kbase
from pyengine.core.errors import BoundError, Collected, InputError, closest
from pyengine.core.results import PackEntry, PackVerdict
from pyengine.core.text import printable
from pyengine.games import DOCUMENTS, GAME_DOCUMENTS, GAME_NAMES, LISTING_KINDS
from pyengine.games import game as one_game

PACK_FORMAT = "pyengine-conformance-pack/1"
# The side a pack's verdicts are keyed by when no profile is chosen: the document's default readings.
DEFAULT_SIDE = "default"
# The most bytes a pack or a verdicts file may hold, and one of its lines.
MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_LINE_BYTES = 4 * 1024 * 1024
# How deep a line's values may nest (a scenario file's YAML nests no deeper): a disagreement is written as YAML.
MAX_DEPTH = 64
# The most ids of a pack an unknown id is matched against for a suggestion (each match costs a comparison).
MAX_SUGGESTED = 20_000
PACK_FIELDS = tuple(f.name for f in fields(PackEntry))
SIDE_FIELDS = tuple(f.name for f in fields(PackVerdict))
TRACE_FIELDS = ("moment", "actions", "after")
VERDICT_LINE_FIELDS = ("id", "verdict", "note")
# A listing's sets of play ids, in the order a verdict holds them.
LISTING_SETS = ("legal", "illegal")
LISTING = "{legal: [play ids], illegal: [play ids]}, both sets named (an empty list where there is none)"
# The most characters of a text an error quotes (an id, a game): a value of any length stays one short line.
MAX_QUOTED = 200
# A JSON escape that may stand for a NUL or half a surrogate pair: only a line holding one is searched for them.
_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")
_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")


@dataclass(frozen=True)
class Place:
    """A line of a file, where the errors of its fields point."""

    file: str
    line: int

    def error(self, field: str | None, message: str, expected: str | None = None,
              suggestion: str | None = None) -> InputError:
        """An input error at this line, naming the field (its path in the line's object)."""
        return InputError(message, file=self.file, line=self.line, field=field or None, expected=expected,
                          suggestion=suggestion)


class Indexed(NamedTuple):
    """A question of a pack as its index keeps it: its game and kind, its verdicts (compact JSON: side -> [verdict,
    rule ids, reading choices rested on]), its line and the digest of that line. The state and the scenario, most
    of a line, are read again only for a disagreement (indexed_entries)."""

    game: str
    ask: str
    verdicts: str
    line: int
    digest: bytes

    def sides(self) -> dict[str, tuple[Any, list[str], dict[str, str]]]:
        """The question's verdict under each side, with its rule ids and the reading choices it rested on."""
        return {side: (verdict, rules, rested_on)
                for side, (verdict, rules, rested_on) in json.loads(self.verdicts).items()}


@dataclass
class PackIndex:
    """What a comparison keeps of a pack once every line is checked: each question by id (Indexed), and the sides
    its verdicts are under."""

    questions: dict[str, Indexed]
    sides: list[str]


def shown(value: Any) -> str:
    """A value as an error names it: text quoted (its first MAX_QUOTED characters), anything else by its JSON kind."""
    if isinstance(value, str) and value:
        return printable(repr(value[:MAX_QUOTED])) + ("..." if len(value) > MAX_QUOTED else "")
    if isinstance(value, str):
        return "empty text"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, dict | list):
        return "an object" if isinstance(value, dict) else "a list"
    return "a number"


def _lines(path: Path, what: str) -> Iterator[tuple[int, str]]:
    """The lines of a JSON-lines file that are not blank, each with its number and without its line end, read one
    at a time. What is not a regular file and a line that is not UTF-8 are located errors; a file over MAX_FILE_BYTES
    or a line over MAX_LINE_BYTES is a BoundError (exit 3), met before it is read."""
    where = str(path)
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a named pipe is refused, not waited on
    except OSError as exc:
        raise InputError(f"cannot read the {what}: {exc.strerror}", file=where) from None
    status = os.fstat(handle)
    if not stat.S_ISREG(status.st_mode):
        os.close(handle)
        raise InputError(f"the {what} is not a regular file", file=where, expected=f"a {what} saved on disk")
    with os.fdopen(handle, "rb") as stream:
        read = status.st_size
        number = 0
        while True:
            if read > MAX_FILE_BYTES:
                raise BoundError(f"the {what} is over the bound of {MAX_FILE_BYTES:,} bytes", file=where,
                                 line=number, expected=f"a {what} split into files under the bound")
            raw = stream.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            number += 1
            read = max(read, stream.tell())
            if len(raw.rstrip(b"\r\n")) > MAX_LINE_BYTES:
                raise BoundError(f"line over the bound of {MAX_LINE_BYTES:,} bytes", file=where, line=number,
                                 expected="one question's line under the bound")
            try:
                text = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as exc:
                raise InputError(f"not UTF-8 text (byte {exc.start + 1} of the line)", file=where,
                                 line=number) from None
            if text.strip():
                yield number, text


def _object_line(text: str, place: Place) -> dict[str, Any]:
    """One line's JSON object: not one object (or a key repeated: pyengine.core.jsonio), bad text or values too deep
    (checked_text) is a located error."""
    value = jsonio.loads(text, place.file, place.line)
    if not isinstance(value, dict):
        raise place.error(None, f"a JSON {type(value).__name__}, not an object", "one JSON object per line")
    checked_text(value, place, bool(_ESCAPE.search(text)))
    return value


def checked_text(value: dict[str, Any], place: Place, escapes: bool) -> None:
    """Refuse values nested over MAX_DEPTH and, where the line holds an escape that may make one (`escapes`), a key or
    text holding a NUL or a lone surrogate, naming its field; walked without recursion, through the objects and lists
    alone where no text is searched."""
    pending: list[tuple[Any, int, Any]] = [(value, 0, None)]
    while pending:
        item, depth, trail = pending.pop()
        if depth >= MAX_DEPTH:
            raise place.error(_path(trail), f"values nested over {MAX_DEPTH} deep", "a pack's or verdicts' line")
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        for key, inner in pairs:
            if escapes and isinstance(key, str) and _BAD_TEXT.search(key):
                raise place.error(_path((trail, key)), "a key holding a NUL or a lone surrogate",
                                  "text of whole characters")
            if isinstance(inner, dict | list):
                pending.append((inner, depth + 1, (trail, key)))
            elif escapes and isinstance(inner, str) and _BAD_TEXT.search(inner):
                raise place.error(_path((trail, key)), "text holding a NUL or a lone surrogate",
                                  "text of whole characters")


def _path(trail: Any) -> str:
    """A field's path in its line (`verdicts.default.rules[2]`) from the trail of keys walked to it."""
    parts: list[str] = []
    while trail is not None:
        trail, key = trail
        parts.append(f"[{key}]" if isinstance(key, int) else f".{printable(key.encode('utf-8', 'replace').decode())}")
    return "".join(reversed(parts)).lstrip(".")


def _text(place: Place, value: Any, field: str) -> str:
    """Non-empty text, else a located error."""
    if not isinstance(value, str) or not value:
        raise place.error(field, shown(value) if value == "" else f"{shown(value)}, not text", "text")
    return value


def _texts(place: Place, value: Any, field: str) -> list[str]:
    """A list of non-empty texts, else a located error naming the item."""
    if not isinstance(value, list):
        raise place.error(field, f"{shown(value)}, not a list", "a list of text")
    return [_text(place, item, f"{field}[{index}]") for index, item in enumerate(value)]


def _object(place: Place, value: Any, field: str, expected: str = "an object") -> dict[str, Any]:
    """A JSON object, else a located error."""
    if not isinstance(value, dict):
        raise place.error(field, f"{shown(value)}, not an object", expected)
    return value


def _choices(place: Place, value: Any, field: str) -> dict[str, str]:
    """Reading choices: an object of text, each reading's name to its choice."""
    return {name: _text(place, choice, f"{field}.{name}")
            for name, choice in _object(place, value, field, "an object of reading -> choice").items()}


def _fields(place: Place, value: dict[str, Any], field: str, known: tuple[str, ...],
            optional: tuple[str, ...] = ()) -> None:
    """Refuse each key that is not one of `known` (all of them together), or else the keys missing (but those
    `optional`) in one error; a key missing beside an unknown one (which may be it misspelt) is not said to be."""
    where = f"{field}." if field else ""
    fields_named = "the fields " + ", ".join(known) + (f" ({', '.join(optional)} optional)" if optional else "")
    each = Collected()
    for key in value:
        if key not in known:
            each.add(place.error(f"{where}{key}", f"unknown field {printable(repr(key[:MAX_QUOTED]))}", fields_named,
                                 closest(key, known)))
    missing = [key for key in known if key not in value and key not in optional]
    if missing and not each.errors:
        each.add(place.error(f"{where}{missing[0]}", f"no field {missing[0]!r}", fields_named) if len(missing) == 1
                 else place.error(field, "no fields " + ", ".join(map(repr, missing)), fields_named))
    each.raise_any()


@cache
def _pack_games() -> tuple[str, ...]:
    """The games whose questions a pack holds: the card games (a game over moments is left out)."""
    return tuple(name for name in GAME_NAMES if not one_game(name).timeline)


@cache
def sides_of(game: str) -> tuple[str, ...]:
    """The sides a pack's question of `game` is answered under: the document's default and each profile."""
    return (DEFAULT_SIDE, *sorted(kbase.load(game).profiles))


def _game(place: Place, value: Any) -> str:
    """The game of a pack's line: one whose questions packs hold."""
    if isinstance(value, str) and value in _pack_games():
        return value
    if value in GAME_NAMES:
        raise place.error("game", f"a {value} question is not in packs (its questions are moments of a whole game)",
                          " or ".join(_pack_games()))
    raise place.error("game", f"unknown game {shown(value)}", " or ".join(_pack_games()),
                      closest(value, _pack_games()) if isinstance(value, str) else None)


def _kind(place: Place, value: Any, game: str) -> str:
    """A question kind of `game` (the line's `ask`)."""
    kinds = list(one_game(game).verdicts)
    if not isinstance(value, str) or value not in kinds:
        raise place.error("ask", f"{shown(value)} is not a kind of {game} question", ", ".join(kinds),
                          closest(value, kinds) if isinstance(value, str) else None)
    return value


def check_verdict(place: Place, value: Any, field: str, game: str, ask: str, whole: bool = True) -> Any:
    """A verdict of a question of kind `ask`: one of the kind's words, or for a listing its sets of play ids (lists
    of text, no id in both), made canonical (each set sorted, each id once). A verdict (`whole`) names both sets,
    so that no set left out is read as agreeing; a scenario's expectation may name one."""
    if ask not in LISTING_KINDS:
        words = one_game(game).verdicts[ask]
        if not isinstance(value, str) or (words is not None and value not in words):
            raise place.error(field, f"verdict {shown(value)} for a {ask} question", " or ".join(words or ("text",)))
        return value
    sets = _object(place, value, field, LISTING)
    for key in sets:
        if key not in LISTING_SETS:
            raise place.error(f"{field}.{key}", f"unknown set {printable(repr(key[:MAX_QUOTED]))} of a {ask} verdict",
                              LISTING)
    if whole:
        for key in LISTING_SETS:
            if key not in sets:
                raise place.error(field, f"no {key!r} set in the verdict of a {ask} question", LISTING)
    canonical = {key: sorted(set(_texts(place, sets[key], f"{field}.{key}"))) for key in LISTING_SETS if key in sets}
    both = set(canonical.get("legal", ())) & set(canonical.get("illegal", ()))
    if both:
        raise place.error(field, f"play {shown(min(both))} is both legal and illegal", LISTING)
    return canonical


def _sides(place: Place, value: Any, game: str, ask: str) -> dict[str, PackVerdict]:
    """A pack line's verdicts: the default side's and each of the game's profiles' (the default always), each with
    its verdict, rules, paragraphs and the reading choices it rested on."""
    known = sides_of(game)
    verdicts = _object(place, value, "verdicts", "an object of side -> verdict")
    if DEFAULT_SIDE not in verdicts:
        raise place.error("verdicts", f"no {DEFAULT_SIDE!r} side", f"{DEFAULT_SIDE} and the {game} profiles")
    found: dict[str, PackVerdict] = {}
    for side, answer in verdicts.items():
        field = f"verdicts.{side}"
        if side not in known:
            raise place.error(field, f"unknown side {printable(repr(side[:MAX_QUOTED]))} of a {game} question",
                              ", ".join(known), closest(side, known))
        parts = _object(place, answer, field)
        _fields(place, parts, field, SIDE_FIELDS)
        found[side] = PackVerdict(check_verdict(place, parts["verdict"], f"{field}.verdict", game, ask),
                                  _texts(place, parts["rules"], f"{field}.rules"),
                                  _texts(place, parts["paragraphs"], f"{field}.paragraphs"),
                                  _choices(place, parts["rested_on"], f"{field}.rested_on"))
        _declared(place, found[side], field, game)
    return found


def _declared(place: Place, verdict: PackVerdict, field: str, game: str) -> None:
    """A side's rules, paragraphs (`DOCUMENT:PARAGRAPH`) and reading choices are the game's own declarations: an id
    the knowledge base does not declare is a damaged line, never counted under a rule of that name."""
    kb = kbase.load(game)
    for index, rule in enumerate(verdict.rules):
        if rule not in kb.rules:
            raise place.error(f"{field}.rules[{index}]", f"unknown rule {shown(rule)}", f"a rule id of {game}",
                              closest(rule, kb.rules))
    for index, cited in enumerate(verdict.paragraphs):
        document, _, paragraph = cited.partition(":")
        if kb.paragraph(document, paragraph) is None:
            raise place.error(f"{field}.paragraphs[{index}]", f"unknown paragraph {shown(cited)}",
                              f"DOCUMENT:PARAGRAPH of one of {game}'s documents ({', '.join(GAME_DOCUMENTS[game])}), "
                              f"such as {DOCUMENTS[game]}:p3")
    for reading, choice in verdict.rested_on.items():
        known = kb.readings.get(reading)
        if known is None or choice not in known.choices:
            raise place.error(f"{field}.rested_on.{reading}", f"no choice {shown(choice)} of reading "
                              f"{shown(reading)}", f"a reading of {game} and one of its choices")


def _scenario(place: Place, value: Any, game: str, ask: str, question: str) -> dict[str, Any]:
    """The scenario a disagreement is written back as: an object of the line's game with one question, the line's."""
    document = _object(place, value, "scenario", "the scenario file's data with this question alone")
    if document.get("game") != game:
        raise place.error("scenario.game", f"{shown(document.get('game'))}, not the line's game", game)
    questions = document.get("questions")
    if not isinstance(questions, list) or len(questions) != 1:
        count = f"{len(questions)} questions" if isinstance(questions, list) else shown(questions)
        raise place.error("scenario.questions", f"{count}, not the line's one question", "a list of one question")
    asked = _object(place, questions[0], "scenario.questions[0]", "the line's question")
    if asked.get("ask") != ask:
        raise place.error("scenario.questions[0].ask", f"{shown(asked.get('ask'))}, not the line's kind", ask)
    if "id" in asked and str(asked["id"]) != question:
        raise place.error("scenario.questions[0].id", f"{shown(asked['id'])}, not the line's question", question)
    return document


def check_entry(place: Place, value: dict[str, Any]) -> PackEntry:
    """One line of a pack, every field checked: its format version, its fields (no more, no fewer), the game and the
    question kind, the id (FILE::QUESTION), the expectation and every side's verdict for that kind, the scenario."""
    if value.get("format") != PACK_FORMAT:
        raise place.error("format", f"format {shown(value.get('format'))}",
                          f"{PACK_FORMAT!r} (export the pack again with this pyengine)")
    _fields(place, value, "", PACK_FIELDS, optional=("trace",))
    game = _game(place, value["game"])
    ask = _kind(place, value["ask"], game)
    qid, file, question = (_text(place, value[name], name) for name in ("id", "file", "question"))
    if qid != f"{file}::{question}":
        raise place.error("id", f"id {shown(qid)} is not the line's file and question", f"{file}::{question}")
    expected = value["expected"]
    return PackEntry(
        format=PACK_FORMAT, id=qid, game=game, file=file, question=question, ask=ask,
        params=_object(place, value["params"], "params"), state=_object(place, value["state"], "state"),
        expected=None if expected is None else check_verdict(place, expected, "expected", game, ask, whole=False),
        expected_under=_choices(place, value["expected_under"], "expected_under"),
        verdicts=_sides(place, value["verdicts"], game, ask),
        scenario=_scenario(place, value["scenario"], game, ask, question),
        trace=_trace(place, value["trace"], value["verdicts"]) if "trace" in value else None)


def _trace(place: Place, value: Any, sides: dict[str, Any]) -> dict[str, Any]:
    """A line's trace: the moment it asks about (a whole number), the actions up to it (one object each, as many as
    the moment), and the state they left under each side of its verdicts (an object each)."""
    trace = _object(place, value, "trace", "an object of moment, actions and after")
    _fields(place, trace, "trace", TRACE_FIELDS)
    moment, actions = trace["moment"], trace["actions"]
    if not isinstance(moment, int) or isinstance(moment, bool) or moment < 0:
        raise place.error("trace.moment", f"{shown(moment)}, not a moment", "a whole number from 0")
    if not isinstance(actions, list) or len(actions) != moment:
        raise place.error("trace.actions", f"{shown(actions)}, not the {moment} actions before the moment",
                          f"a list of {moment} actions")
    for index, action in enumerate(actions):
        _object(place, action, f"trace.actions[{index}]", "an action as the scenario file writes it")
    after = _object(place, trace["after"], "trace.after", "an object of side -> state")
    if set(after) != set(sides):
        raise place.error("trace.after", f"the sides {', '.join(sorted(after)) or 'none'}",
                          "the sides of the line's verdicts: " + ", ".join(sorted(sides)))
    for side, state in after.items():
        _object(place, state, f"trace.after.{side}", "the state after the actions, resolved")
    return trace


def _digest(text: str) -> bytes:
    """The digest of a line, by which a line read again is known to be the line checked."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def read_index(path: Path) -> PackIndex:
    """Read a whole pack once, one line at a time, every line checked (check_entry), keeping its index: one line per
    question id. Each line's error is gathered and the next line read: every damaged line is reported at once (up to
    errors.MAX_FILE_ERRORS)."""
    questions: dict[str, Indexed] = {}
    sides: set[str] = set()
    collected = Collected()
    for number, text in _lines(path, "pack"):
        place = Place(str(path), number)
        with collected.part():
            entry = check_entry(place, _object_line(text, place))
            if entry.id in questions:
                raise place.error("id", f"question {shown(entry.id)} is in the pack twice (first on line "
                                        f"{questions[entry.id].line})", "one line per question")
            verdicts = {side: [v.verdict, v.rules, v.rested_on] for side, v in entry.verdicts.items()}
            questions[entry.id] = Indexed(entry.game, entry.ask, json.dumps(verdicts, ensure_ascii=False,
                                                                            separators=(",", ":")), number,
                                          _digest(text))
            sides.update(entry.verdicts)
    collected.raise_any()
    if not questions:
        raise InputError("the pack holds no questions", file=str(path), expected="a pack written by export")
    return PackIndex(questions, sorted(sides, key=lambda s: (s != DEFAULT_SIDE, s)))


def indexed_entries(path: Path, index: PackIndex, ids: Iterable[str]) -> Iterator[PackEntry]:
    """The entries of the questions `ids`, read again from the pack one line at a time, in its order: each line is
    the line indexed (the same digest at the same place: checked already, and read as it was), else the pack changed
    since it was indexed, a located error; no line is compared half old, half new."""
    wanted = {index.questions[qid].line: qid for qid in ids}
    for number, text in _lines(path, "pack"):
        qid = wanted.pop(number, None)
        if qid is not None and _digest(text) == index.questions[qid].digest:
            yield check_entry(Place(str(path), number), jsonio.loads(text, str(path), number))
        elif qid is not None:
            wanted[number] = qid
            break
    if wanted:
        raise InputError("the pack changed while it was compared", file=str(path), line=min(wanted),
                         expected="a pack left as it is until compare ends")


def check_answer(place: Place, value: dict[str, Any], questions: Mapping[str, Indexed]) -> tuple[str, Any]:
    """One line of an engine's verdicts: the id of a question of the pack and a verdict its kind can have (canonical:
    check_verdict), and an optional note (text); each field's error reported with the others' (the verdict, read for
    the kind of the question its id names, only once the id is)."""
    each = Collected()
    with each.part():
        _fields(place, value, "", VERDICT_LINE_FIELDS, optional=("note",))
    with each.part():
        if not isinstance(value.get("note", ""), str):
            raise place.error("note", f"{shown(value['note'])}, not text", "text, or no note")
    qid = each.value(lambda: _question_id(place, value, questions), None)
    verdict = None
    if qid is not None and "verdict" in value:
        asked = questions[qid]
        verdict = each.value(lambda: check_verdict(place, value["verdict"], "verdict", asked.game, asked.ask), None)
    each.raise_any()
    assert qid is not None  # named, or the line's error was raised
    return qid, verdict


def _question_id(place: Place, value: dict[str, Any], questions: Mapping[str, Indexed]) -> str | None:
    """The id a verdicts line names, that of a question of the pack (None where the line has none, said already)."""
    if "id" not in value:
        return None
    qid = value["id"]
    if not isinstance(qid, str):
        raise place.error("id", f"no question id ({shown(qid)})", "the id of a question of the pack, as text")
    if qid not in questions:
        raise place.error("id", f"question {shown(qid)} is not in the pack", "the id of a question of the pack",
                          closest(qid, questions) if len(questions) <= MAX_SUGGESTED else None)
    return qid


def read_verdicts(path: Path, index: PackIndex) -> dict[str, tuple[str, int]]:
    """An engine's verdicts, every line checked (check_answer), each question answered once: by question id, its
    verdict as compact JSON text (a listing's sets may be long; text holds them in the fewest bytes) and its line.
    Each line's errors are gathered and the next line read: every damaged line is reported at once (up to
    errors.MAX_FILE_ERRORS)."""
    found: dict[str, tuple[str, int]] = {}
    words: dict[str, str] = {}
    collected = Collected()
    for number, text in _lines(path, "verdicts file"):
        place = Place(str(path), number)
        with collected.part():
            qid, verdict = check_answer(place, _object_line(text, place), index.questions)
            if qid in found:
                raise place.error("id", f"question {shown(qid)} is answered twice (first on line {found[qid][1]})",
                                  "one verdict per question")
            compact = json.dumps(verdict, ensure_ascii=False, separators=(",", ":"))
            found[qid] = (words.setdefault(compact, compact) if isinstance(verdict, str) else compact, number)
    collected.raise_any()
    if not found:
        raise InputError("nothing to compare: the verdicts file answers no question", file=str(path),
                         expected='one JSON line per question answered, {"id": ..., "verdict": ...}')
    return found
