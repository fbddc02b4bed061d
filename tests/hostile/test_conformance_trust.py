"""The conformance kit trusts nothing it is given (issue 62, items 4, 5, 6 and the pack part of 8): an engine's listing
verdict names both its sets, never agreeing by leaving one out; distinct disagreements are written to distinct files,
each printed line naming its own; and a damaged pack or verdicts file, every field of a line damaged one at a time, is
one located line and exit 2 (or a correct answer), never a defect, a half-written folder or memory that follows the
file's size: both files are read one line at a time, exit 3 past their bounds."""

from __future__ import annotations

import copy
import json
import os
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from pyengine.core.errors import InputError
from pyengine.core.files import OUT_MARKER
from pyengine.core.results import PackEntry
from pyengine.tools import conformance

TABLES = [ROOT / "tests" / "scenarios" / "lotr" / "per_player.yaml", ROOT / "examples" / "judge_second_sting.yaml",
          ROOT / "tests" / "scenarios" / "marvel" / "deck_limit.yaml"]
# The pack's lines the damages are made on, by the kind of their question, in this order in the pack.
KINDS = {"play": ("lotr", "play"), "plays": ("lotr", "plays"), "coexist": ("lotr", "coexist"),
         "deck": ("marvel", "deck")}
LINE = {name: number for number, name in enumerate(KINDS, 1)}
DROP = object()
# One value of each JSON kind and of each damage to text, put in place of a field.
VALUES: dict[str, Any] = {"missing": DROP, "null": None, "number": 7, "true": True, "text": "x", "empty text": "",
                          "list": [], "texts": ["x"], "object": {}, "surrogate": "\ud800", "nul": "a\x00b",
                          "long": "x" * 100_000}


@pytest.fixture(scope="module")
def entries(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """One exported line of each kind of KINDS, by that name."""
    target = tmp_path_factory.mktemp("pack") / "pack.jsonl"
    conformance.export(TABLES, target)
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for line in target.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        found.setdefault((entry["game"], entry["ask"]), entry)
    return {name: found[kind] for name, kind in KINDS.items()}


def _line(value: Any) -> bytes:
    """A JSON line as an engine or a damaged pack would write it (escapes for whatever is not ASCII)."""
    return json.dumps(value).encode("ascii") + b"\n"


def _other(verdict: Any) -> Any:
    """The other verdict: the other word, or a listing's sets swapped."""
    if isinstance(verdict, dict):
        return {"legal": verdict["illegal"], "illegal": verdict["legal"]}
    return {"legal": "illegal", "illegal": "legal", "yes": "no", "no": "yes", "valid": "invalid",
            "invalid": "valid"}[verdict]


def _answers(entries: dict[str, dict[str, Any]], disagree: str | None = None) -> dict[str, dict[str, Any]]:
    """The knowledge base's own default verdicts as an engine's verdicts lines, but the other verdict for the line
    `disagree`, so that its disagreement is written as a scenario file."""
    lines = {}
    for name, entry in entries.items():
        verdict = entry["verdicts"]["default"]["verdict"]
        lines[name] = {"id": entry["id"], "verdict": _other(verdict) if name == disagree else verdict}
    return lines


def _run(folder: Path, pack: bytes, verdicts: bytes) -> tuple[int, str, Path, Path]:
    """compare in-process on these files, with `--out`: its exit code and its error's line ('' when it answered);
    a refusal writes nothing and no run leaves a temporary file or folder behind."""
    pack_file, verdicts_file, out = folder / "pack.jsonl", folder / "verdicts.jsonl", folder / "out"
    pack_file.write_bytes(pack)
    verdicts_file.write_bytes(verdicts)
    try:
        code, message = conformance.compare(pack_file, verdicts_file, out=out).exit_code, ""
    except InputError as error:
        code, message = error.exit_code, str(error)
        assert not out.exists(), "a refused comparison wrote its folder"
    stray = [p.name for p in folder.iterdir() if p.name.endswith((".new", ".old", ".tmp"))]
    assert not stray, stray
    return code, message, pack_file, verdicts_file


@dataclass(frozen=True)
class Damage:
    """One damage: to a field of one line (`path` in the line's object, set to `value` or dropped) or to the line's
    text (`text`), of the pack or of the verdicts file; whether it must be refused at that line (else answered)."""

    name: str
    target: str
    line: str
    refused: bool
    path: tuple[Any, ...] = ()
    value: Any = None
    text: Callable[[bytes], bytes] | None = None


def _set(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    """Put `value` at `path` (DROP removes the field)."""
    *parents, last = path
    for key in parents:
        data = data[key]
    if value is DROP:
        data.pop(last, None)
    else:
        data[last] = value


def _damages() -> list[Damage]:
    """Every damage tried: each field of a pack line and of a verdicts line given each kind of value, then the
    listings' sets, the scenario, the kinds and games, and the lines' text."""
    found = []
    # A line of one state has no trace, which a line may leave out (a trace's own fields: test_conformance.py).
    answered = {("expected", "null"), ("params", "object"), ("state", "object"), ("expected_under", "object"),
                ("trace", "missing")}
    for field in [f.name for f in fields(PackEntry)]:
        for name, value in VALUES.items():
            found.append(Damage(f"pack {field} {name}", "pack", "play", (field, name) not in answered, (field,), value))
    # An empty list or object is a side that cites nothing; an id the knowledge base does not declare ("x") is
    # refused, as the review of issue 62 found it counted under a rule of that name.
    side_answered = {("rules", "list"), ("paragraphs", "list"), ("rested_on", "object")}
    for field in ("verdict", "rules", "paragraphs", "rested_on"):
        for name, value in VALUES.items():
            found.append(Damage(f"pack side {field} {name}", "pack", "play", (field, name) not in side_answered,
                                ("verdicts", "gemp", field), value))
    for name, value in VALUES.items():
        found.append(Damage(f"pack plays verdict {name}", "pack", "plays", True, ("verdicts", "default", "verdict"),
                            value))
        found.append(Damage(f"verdicts id {name}", "verdicts", "play", True, ("id",), value))
        found.append(Damage(f"verdicts verdict {name}", "verdicts", "play", True, ("verdict",), value))
        found.append(Damage(f"verdicts plays verdict {name}", "verdicts", "plays", True, ("verdict",), value))
        found.append(Damage(f"verdicts note {name}", "verdicts", "play",
                            name not in ("missing", "text", "empty text", "long"), ("note",), value))
    listings = {"legal only": {"legal": ["alice-gandalf"]}, "illegal only": {"illegal": ["alice-gandalf"]},
                "no sets": {}, "a third set": {"legal": [], "illegal": [], "maybe": []},
                "a set not a list": {"legal": "alice-gandalf", "illegal": []},
                "a play not text": {"legal": [7], "illegal": []},
                "a play in both": {"legal": ["alice-gandalf"], "illegal": ["alice-gandalf"]},
                "a play with a surrogate": {"legal": ["\udc00"], "illegal": []}}
    for name, value in listings.items():
        found.append(Damage(f"verdicts plays {name}", "verdicts", "plays", True, ("verdict",), value))
        found.append(Damage(f"pack plays {name}", "pack", "plays", True, ("verdicts", "wiki", "verdict"), value))
    found += [
        Damage("verdicts plays both sets empty", "verdicts", "plays", False, ("verdict",),
               {"legal": [], "illegal": []}),
        Damage("verdicts plays a play twice", "verdicts", "plays", False, ("verdict",),
               {"legal": ["alice-gandalf", "alice-gandalf"], "illegal": ["alice-frodo-2", "alice-sting-2"]}),
        Damage("verdicts deck word of another kind", "verdicts", "deck", True, ("verdict",), "legal"),
        Damage("verdicts play word of another kind", "verdicts", "play", True, ("verdict",), "valid"),
        Damage("verdicts play word in capitals", "verdicts", "play", True, ("verdict",), "LEGAL"),
        Damage("verdicts play word with a space", "verdicts", "play", True, ("verdict",), "legal "),
        Damage("verdicts play the other word", "verdicts", "play", False, ("verdict",), "illegal"),
        Damage("verdicts unknown field", "verdicts", "play", True, ("engine",), "x"),
        Damage("verdicts play given a listing", "verdicts", "play", True, ("verdict",), {"legal": [], "illegal": []}),
        Damage("pack unknown field", "pack", "play", True, ("extra",), 1),
        Damage("pack unknown side", "pack", "play", True, ("verdicts", "gmp"), {}),
        Damage("pack side of another game", "pack", "play", True, ("verdicts", "marvelcdb"), {}),
        Damage("pack no default side", "pack", "play", True, ("verdicts", "default"), DROP),
        Damage("pack no gemp side", "pack", "play", False, ("verdicts", "gemp"), DROP),
        Damage("pack no sides", "pack", "play", True, ("verdicts",), {}),
        Damage("pack side field unknown", "pack", "play", True, ("verdicts", "default", "extra"), []),
        Damage("pack side field missing", "pack", "play", True, ("verdicts", "default", "rules"), DROP),
        Damage("pack rested_on a list", "pack", "play", True, ("verdicts", "default", "rested_on"), ["a", "b"]),
        Damage("pack rested_on not text", "pack", "play", True, ("verdicts", "default", "rested_on"), {"a": 1}),
        Damage("pack rule not text", "pack", "play", True, ("verdicts", "default", "rules"), [1]),
        Damage("pack game of moments", "pack", "play", True, ("game",), "dfm"),
        Damage("pack game another", "pack", "play", True, ("game",), "marvel"),
        Damage("pack game in capitals", "pack", "play", True, ("game",), "LOTR"),
        Damage("pack game a long unknown", "pack", "play", True, ("game",), "chess" * 20_000),
        Damage("pack ask of another game", "pack", "play", True, ("ask",), "identities"),
        Damage("pack ask of moments", "pack", "play", True, ("ask",), "allowed"),
        Damage("pack ask a listing", "pack", "play", True, ("ask",), "plays"),
        Damage("pack ask another word kind", "pack", "play", True, ("ask",), "killed"),
        Damage("pack expected other word", "pack", "play", False, ("expected",), "legal"),
        Damage("pack expected of another kind", "pack", "play", True, ("expected",), "dead_pile"),
        Damage("pack expected listing with one set", "pack", "plays", False, ("expected",), {"legal": []}),
        Damage("pack expected listing bad set", "pack", "plays", True, ("expected",), {"legal": "x"}),
        Damage("pack expected_under a number", "pack", "play", True, ("expected_under", "lotr_play_scope"), 1),
        Damage("pack two questions", "pack", "play", True, ("scenario", "questions"), [{"id": "a"}, {"id": "b"}]),
        Damage("pack no question", "pack", "play", True, ("scenario", "questions"), []),
        Damage("pack question not an object", "pack", "play", True, ("scenario", "questions"), [7]),
        Damage("pack scenario of another game", "pack", "play", True, ("scenario", "game"), "marvel"),
        Damage("pack scenario without game", "pack", "play", True, ("scenario", "game"), DROP),
        Damage("pack scenario question of another kind", "pack", "play", True,
               ("scenario", "questions", 0, "ask"), "heal"),
        Damage("pack scenario question of another id", "pack", "play", True, ("scenario", "questions", 0, "id"), "q"),
        Damage("pack scenario key with a surrogate", "pack", "play", True, ("scenario", "\udfff"), 1),
        Damage("pack state text with a surrogate", "pack", "play", True, ("state", "instances", 0, "title"), "\ud83d"),
        Damage("pack state text with a NUL", "pack", "play", True, ("state", "instances", 0, "id"), "\x00"),
        Damage("pack state text astral", "pack", "play", False, ("state", "instances", 0, "title"), "\U0001f600"),
        Damage("pack state text with controls", "pack", "play", False, ("state", "title"), "\x1b[31m\u202e"),
        Damage("pack state nested 70 deep", "pack", "play", True, ("state", "deep"), _nested(70)),
        Damage("pack state nested 20 deep", "pack", "play", False, ("state", "deep"), _nested(20)),
        Damage("pack scenario nested 70 deep", "pack", "play", True, ("scenario", "deep"), _nested(70)),
        Damage("pack id another", "pack", "play", True, ("id",), "other.yaml::q"),
        Damage("pack question of another line", "pack", "play", True, ("question",), "what-may-alice-play"),
    ]
    texts: dict[str, tuple[bool, Callable[[bytes], bytes]]] = {
        "not JSON": (True, lambda t: t[:-2] + b"\n"),
        "a list": (True, lambda t: b"[" + t.rstrip() + b"]\n"),
        "an empty object": (True, lambda t: b"{}\n"),
        "a repeated key": (True, lambda t: t.rstrip()[:-1] + b', "id": "x"}\n'),
        "a byte-order mark": (True, lambda t: "\ufeff".encode() + t),
        "not UTF-8": (True, lambda t: b"\xff" + t),
        "a raw NUL": (True, lambda t: t.replace(b'"id": "', b'"id": "\x00', 1)),
        "trailing text": (True, lambda t: t.rstrip() + b" x\n"),
        "nested too deep for the parser": (True, lambda t: b"[" * 100_000 + b"]" * 100_000 + b"\n"),
        "a carriage return": (False, lambda t: t.rstrip() + b"\r\n"),
        "a blank line before": (False, lambda t: b" \t \n" + t),
    }
    for name, (refused, change) in texts.items():
        found.append(Damage(f"pack line {name}", "pack", "play", refused, text=change))
        found.append(Damage(f"verdicts line {name}", "verdicts", "play", refused, text=change))
    found += [
        Damage("pack NaN in the state", "pack", "play", False,
               text=lambda t: t.replace(b'"state": {', b'"state": {"n": NaN, ', 1)),
        Damage("verdicts Infinity as the verdict", "verdicts", "play", True, text=lambda t: t.replace(
            b'"verdict": "illegal"', b'"verdict": Infinity').replace(b'"verdict": "legal"', b'"verdict": Infinity')),
    ]
    return found


def _nested(depth: int) -> Any:
    """Lists nested `depth` deep."""
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


DAMAGES = _damages()


@pytest.mark.parametrize("damage", DAMAGES, ids=[d.name for d in DAMAGES])
def test_every_damaged_field_is_one_located_line_or_a_correct_answer(entries: dict[str, dict[str, Any]],
                                                                     damage: Damage, tmp_path: Path) -> None:
    pack, verdicts = copy.deepcopy(entries), _answers(entries, disagree=damage.line)
    lines = {"pack": pack, "verdicts": verdicts}[damage.target]
    if damage.text is None:
        _set(lines[damage.line], damage.path, damage.value)
    texts = {target: [_line(v) for v in values.values()] for target, values in (("pack", pack),
                                                                                 ("verdicts", verdicts))}
    number = LINE[damage.line]
    if damage.text is not None:
        texts[damage.target][number - 1] = damage.text(texts[damage.target][number - 1])
    code, message, pack_file, verdicts_file = _run(tmp_path, b"".join(texts["pack"]), b"".join(texts["verdicts"]))
    if damage.refused:
        place = f"{pack_file if damage.target == 'pack' else verdicts_file}:{number}:"
        assert code == 2 and message.startswith(place) and "\n" not in message, (code, message)
    else:
        assert code in (0, 1), message


def test_the_damage_run_covers_every_field_of_both_files() -> None:
    refused = [d for d in DAMAGES if d.refused]
    assert len(DAMAGES) >= 250 and len(refused) >= 200 and {d.target for d in refused} == {"pack", "verdicts"}
    assert len({d.name for d in DAMAGES}) == len(DAMAGES)


@pytest.mark.parametrize(("pack", "verdicts", "message"), [
    (None, b"", "verdicts.jsonl: nothing to compare: the verdicts file answers no question"),
    (None, b"\n \n\t\n", "verdicts.jsonl: nothing to compare"),
    (b"", None, "pack.jsonl: the pack holds no questions"),
    (b"\n\r\n", None, "pack.jsonl: the pack holds no questions"),
], ids=["empty verdicts", "blank verdicts", "empty pack", "blank pack"])
def test_an_empty_file_is_nothing_to_compare(entries: dict[str, dict[str, Any]], tmp_path: Path, pack: bytes | None,
                                              verdicts: bytes | None, message: str) -> None:
    """An empty verdicts file answered nothing, and compare failed on choosing a side of nothing (a defect)."""
    pack_text = b"".join(_line(e) for e in entries.values()) if pack is None else pack
    verdicts_text = b"".join(_line(v) for v in _answers(entries).values()) if verdicts is None else verdicts
    code, error, _, _ = _run(tmp_path, pack_text, verdicts_text)
    assert code == 2 and f"{tmp_path}/{message}" in error, error


@pytest.mark.parametrize("which", ["pack", "verdicts"])
@pytest.mark.parametrize("what", ["a folder", "missing", "a named pipe"])
def test_a_file_that_is_not_a_regular_file_is_refused_without_waiting(entries: dict[str, dict[str, Any]],
                                                                       tmp_path: Path, which: str, what: str) -> None:
    pack, verdicts = tmp_path / "pack.jsonl", tmp_path / "verdicts.jsonl"
    pack.write_bytes(b"".join(_line(e) for e in entries.values()))
    verdicts.write_bytes(b"".join(_line(v) for v in _answers(entries).values()))
    damaged = pack if which == "pack" else verdicts
    damaged.unlink()
    if what == "a folder":
        damaged.mkdir()
    elif what == "a named pipe":
        os.mkfifo(damaged)
    with pytest.raises(InputError) as raised:
        conformance.compare(pack, verdicts)
    assert raised.value.exit_code == 2 and raised.value.file == str(damaged)


def test_an_empty_listing_no_longer_agrees_with_every_side(entries: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    """Class 4: `{}` (or one set alone) for a `plays` question left every set out of the comparison, so it agreed
    with every listing under every side, exit 0. A listing verdict names both sets."""
    verdicts = _answers(entries)
    pack_text = b"".join(_line(e) for e in entries.values())
    for listing, missing in (({}, "legal"), ({"legal": entries["plays"]["verdicts"]["default"]["verdict"]["legal"]},
                                             "illegal")):
        verdicts["plays"]["verdict"] = listing
        code, message, _, verdicts_file = _run(tmp_path, pack_text, b"".join(_line(v) for v in verdicts.values()))
        assert code == 2 and message.startswith(
            f"{verdicts_file}:{LINE['plays']}: verdict: no {missing!r} set in the verdict of a plays question"), message
    # Both sets named: compared as a whole, so an empty `illegal` disagrees.
    legal = entries["plays"]["verdicts"]["default"]["verdict"]["legal"]
    verdicts["plays"]["verdict"] = {"legal": legal, "illegal": []}
    result = conformance.compare(tmp_path / "pack.jsonl", _write(tmp_path / "v.jsonl", verdicts), profile="default")
    assert [d.id for d in result.disagreements] == [entries["plays"]["id"]] and result.exit_code == 1


def _write(path: Path, lines: dict[str, dict[str, Any]] | list[dict[str, Any]]) -> Path:
    """A JSON-lines file of these objects."""
    path.write_bytes(b"".join(_line(v) for v in (lines.values() if isinstance(lines, dict) else lines)))
    return path


def _renamed(entry: dict[str, Any], file: str, question: str) -> dict[str, Any]:
    """A pack line of another file and question (the same table)."""
    entry = copy.deepcopy(entry)
    entry.update(file=file, question=question, id=f"{file}::{question}")
    entry["scenario"]["questions"][0]["id"] = question
    return entry


def test_distinct_disagreements_get_distinct_files(cli, entries: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    """Class 5: `a/t.yaml::q`, `b/t.yaml::q` and `t.yaml::q-2` were all `t-q.yaml` or `t-q-2.yaml`: three
    disagreements, two files, two printed lines naming one file. Each name is new against every name given (and
    case-blind, as a case-blind file system sees them)."""
    names = [("a/t.yaml", "q"), ("b/t.yaml", "q"), ("t.yaml", "q-2"), ("T.yaml", "Q"), ("b/t.yaml", "q.2"),
             ("t.yaml", "q-2-2")]
    pack = [_renamed(entries["play"], file, question) for file, question in names]
    verdicts = [{"id": e["id"], "verdict": _other(e["verdicts"]["default"]["verdict"])} for e in pack]
    out = tmp_path / "out"
    code, text, err = cli("conformance", "compare", str(_write(tmp_path / "pack.jsonl", pack)),
                          str(_write(tmp_path / "v.jsonl", verdicts)), "--profile", "default", "--out", str(out))
    assert (code, err) == (1, "")
    printed = [line.rsplit(" -> ", 1)[1] for line in text.splitlines() if line.startswith("DISAGREE ")]
    assert len(printed) == len(names) == len({p.casefold() for p in printed})
    written = sorted(p.name for p in out.iterdir() if p.name != OUT_MARKER)
    assert sorted(Path(p).name for p in printed) == written
    for entry, path in zip(pack, printed, strict=True):
        assert f"conformance compare`: {entry['id']}." in Path(path).read_text(encoding="utf-8")
    # A later run without disagreements replaces the folder whole: no earlier file stays to fail `check`.
    same = [{"id": e["id"], "verdict": e["verdicts"]["default"]["verdict"]} for e in pack]
    assert cli("conformance", "compare", str(tmp_path / "pack.jsonl"), str(_write(tmp_path / "same.jsonl", same)),
               "--out", str(out))[0] == 0
    assert [p.name for p in out.iterdir()] == [OUT_MARKER]


def test_a_long_question_id_is_a_short_file_name(entries: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    pack = [_renamed(entries["play"], "t.yaml", "q" * 400), _renamed(entries["play"], "t.yaml", "q" * 401)]
    verdicts = [{"id": e["id"], "verdict": _other(e["verdicts"]["default"]["verdict"])} for e in pack]
    result = conformance.compare(_write(tmp_path / "p.jsonl", pack), _write(tmp_path / "v.jsonl", verdicts),
                                 profile="default", out=tmp_path / "out")
    files = [Path(d.scenario_file or "") for d in result.disagreements]
    assert len(set(files)) == 2 and all(f.is_file() and len(f.name.encode()) < 255 for f in files)


def test_a_pack_of_several_games_is_compared_whole(entries: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    """A side answers only its game's questions: the side that agreed most (marvelcdb, on the Marvel questions alone)
    was the one compared, and every LOTR disagreement went unreported, exit 0. The side compared answers every
    question the engine answered; a profile that does not is refused."""
    verdicts = {name: {"id": e["id"], "verdict": e["verdicts"]["marvelcdb" if e["game"] == "marvel" else "gemp"]
                       ["verdict"]} for name, e in entries.items()}
    verdicts["play"]["verdict"] = _other(entries["play"]["verdicts"]["default"]["verdict"])
    pack, answers = _write(tmp_path / "p.jsonl", entries), _write(tmp_path / "v.jsonl", verdicts)
    result = conformance.compare(pack, answers)
    assert result.reference == "default" and entries["play"]["id"] in [d.id for d in result.disagreements]
    with pytest.raises(InputError, match="side 'gemp' does not answer 1 of the 4 questions the engine answered"):
        conformance.compare(pack, answers, profile="gemp")


def test_memory_that_runs_out_is_the_bound_exit_3(entries: dict[str, dict[str, Any]], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the memory ceiling (--memory) an allocation fails: a bound of the run, never a defect."""
    def exhausted(*args: Any) -> Any:
        raise MemoryError

    monkeypatch.setattr(conformance, "read_verdicts", exhausted)
    with pytest.raises(InputError) as raised:
        conformance.compare(_write(tmp_path / "p.jsonl", entries), _write(tmp_path / "v.jsonl", _answers(entries)))
    assert raised.value.exit_code == 3 and "over the memory ceiling" in str(raised.value)


def test_a_pack_changed_while_it_is_compared_is_refused(entries: dict[str, dict[str, Any]], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The pack is read again after it is indexed, for the lines that disagree: one changed in between (here a
    damaged one, which the index would have refused) is never compared or written."""
    pack, verdicts = _write(tmp_path / "p.jsonl", entries), _write(tmp_path / "v.jsonl", _answers(entries, "play"))
    from pyengine.tools.conformance_input import read_verdicts

    def changing(*args: Any) -> Any:
        damaged = copy.deepcopy(entries)
        damaged["play"]["verdicts"]["default"]["rested_on"] = ["a list"]
        _write(pack, damaged)
        return read_verdicts(*args)

    monkeypatch.setattr(conformance, "read_verdicts", changing)
    with pytest.raises(InputError) as raised:
        conformance.compare(pack, verdicts, out=tmp_path / "out")
    assert (raised.value.exit_code, raised.value.line) == (2, LINE["play"])
    assert "the pack changed while it was compared" in str(raised.value) and not (tmp_path / "out").exists()


def test_a_damaged_line_is_refused_at_the_command_line(cli, entries: dict[str, dict[str, Any]],
                                                       tmp_path: Path) -> None:
    pack = copy.deepcopy(entries)
    pack["play"]["id"] = "\ud800"
    pack_file = _write(tmp_path / "p.jsonl", pack)
    code, out, err = cli("conformance", "compare", str(pack_file), str(_write(tmp_path / "v.jsonl", _answers(entries))),
                         "--out", str(tmp_path / "out"))
    assert (code, out) == (2, "") and err.startswith(f"error: {pack_file}:1: id: text holding a NUL or a lone "
                                                     "surrogate") and err.count("\n") == 1
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    code, out, err = cli("conformance", "compare", str(_write(tmp_path / "p.jsonl", entries)), str(empty))
    assert (code, out) == (2, "") and err.startswith(f"error: {empty}: nothing to compare")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.jsonl", "p.jsonl", "v.jsonl"]


@pytest.mark.parametrize("which", ["pack", "verdicts"])
def test_a_file_over_its_bound_is_exit_3_before_it_is_read(entries: dict[str, dict[str, Any]], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch, which: str) -> None:
    from pyengine.tools import conformance_input

    pack, verdicts = _write(tmp_path / "p.jsonl", entries), _write(tmp_path / "v.jsonl", _answers(entries))
    bound = (pack if which == "pack" else verdicts).stat().st_size - 1
    monkeypatch.setattr(conformance_input, "MAX_FILE_BYTES", bound)
    with pytest.raises(InputError) as raised:
        conformance.compare(pack, verdicts)
    assert raised.value.exit_code == 3 and f"is over the bound of {bound:,} bytes" in str(raised.value)


def test_a_pack_over_the_bound_is_exit_3_at_the_command_line(cli, entries: dict[str, dict[str, Any]],
                                                             tmp_path: Path) -> None:
    """A pack of 600 MB (sparse: no disk is used) is refused by its size, read no further."""
    pack = tmp_path / "p.jsonl"
    with pack.open("wb") as stream:
        stream.truncate(600 * 1024 * 1024)
    code, out, err = cli("conformance", "compare", str(pack), str(_write(tmp_path / "v.jsonl", _answers(entries))))
    assert (code, out) == (3, "") and err.startswith(f"error: {pack}: the pack is over the bound of 536,870,912 bytes")


def test_a_line_over_its_bound_is_exit_3_and_read_no_further(entries: dict[str, dict[str, Any]], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from pyengine.tools import conformance_input

    monkeypatch.setattr(conformance_input, "MAX_LINE_BYTES", 64 * 1024)
    pack = tmp_path / "p.jsonl"
    pack.write_bytes(_line(entries["play"]) + b"x" * 8_000_000)
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as raised:
            conformance.compare(pack, _write(tmp_path / "v.jsonl", _answers(entries)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert raised.value.exit_code == 3 and raised.value.line == 2 and "line over the bound" in str(raised.value)
    assert peak < 1_000_000, peak


def test_memory_follows_what_is_kept_never_the_packs_size(entries: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    """A pack read whole held every line's state and scenario (a 77 MB pack needed 1.8 GB; here 5.4 times its size):
    read one line at a time, the comparison holds an index of the pack (each question's kind and verdicts) and the
    engine's verdicts. The same questions with states eight times larger need no more memory."""
    peaks, sizes = {}, {}
    for padding in (0, 20_000):
        pack, verdicts = [], []
        for copy_number in range(100):
            for entry in entries.values():
                renamed = _renamed(entry, entry["file"], f"{entry['question']}-{copy_number}")
                renamed["state"]["padding"] = "x" * padding
                pack.append(renamed)
                verdicts.append({"id": renamed["id"], "verdict": renamed["verdicts"]["default"]["verdict"]})
        pack_file = _write(tmp_path / f"p{padding}.jsonl", pack)
        verdicts_file = _write(tmp_path / "v.jsonl", verdicts)
        tracemalloc.start()
        try:
            result = conformance.compare(pack_file, verdicts_file)
            peaks[padding] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        sizes[padding] = pack_file.stat().st_size
        assert result.answered == len(pack) and result.exit_code == 0
    assert sizes[20_000] > 6 * sizes[0] and peaks[0] < sizes[0], (peaks, sizes)
    assert peaks[20_000] < 1.2 * peaks[0] + 200_000, (peaks, sizes)
