"""The work a request asks for, run in a bounded worker process (pyengine.run.runner.WorkerPool): answers, plays,
flips, facts, answers under every reading and profile, edge-case searches, and a table to and from YAML.

A job is plain data {"kind": ..., "limits": {...}, ...}; the reply is {"ok": JSON data} or {"errors": [one line
each]} for bad input. Nothing here opens a file: a scenario comes as data or YAML text, a catalog by its name in
the store."""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyengine import api
from pyengine.core import kb as kbase
from pyengine.core.answering import overrides, plays_many, plays_table
from pyengine.core.errors import InputError
from pyengine.core.limits import limits
from pyengine.core.scenario import Scenario, scenario_from_data
from pyengine.core.yamlio import dump, load_text
from pyengine.games import game_modules
from pyengine.run.runner import held_bytes

# Modules a fresh worker imports before its first job, so that it answers warm.
PRELOAD = ["pyengine.web.jobs", "pyengine.core.engine", "pyengine.core.render", *game_modules(), "pyengine.tools.flip",
           "pyengine.tools.edge_cases", "pyengine.tools.census"]


def _table(job: dict[str, Any], asks: bool = False) -> Scenario:
    """The job's scenario: a mapping, or YAML text; `name` is what answers and errors call it. Where the job
    answers the table's questions (`asks`), a table without questions is refused as `pyengine check` does."""
    source = job.get("scenario")
    name = str(job.get("name") or "<request>")
    if isinstance(source, str):
        return scenario_from_data(load_text(source, name), name, questions_required=asks)
    if isinstance(source, dict):
        return scenario_from_data(source, name, questions_required=asks)
    raise InputError("the request holds no scenario", field="scenario",
                     expected="a scenario as a JSON object, or its YAML text")


# Tables this worker has grounded (api.Table), the most recently used last, at most TABLES_KEPT of them, and within
# the worker's budget for kept values (_make_room).
TABLES_KEPT = 16
_TABLES: OrderedDict[str, api.Table] = OrderedDict()
# The bytes each kept table or board holds (by its key): what the worker's allocator held beyond what it held
# before each job that grounded or asked it (pyengine.run.runner.held_bytes).
_COSTS: dict[str, int] = {}
# The keys of the kept values the job in hand touched.
_TOUCHED: list[str] = []


def _table_key(job: dict[str, Any]) -> str:
    """Everything a table's grounding is made of: the request's scenario (data or text) and name, the catalog
    store its cards may come from (its place, size and time of change), and the bounds it was read under.
    Readings and the profile are asked of a table, not part of it."""
    from pyengine.core.store import store_path

    path = store_path()
    stat = path.stat() if path.exists() else None
    made_of = [job.get("scenario"), job.get("name"), str(path), stat and (stat.st_size, stat.st_mtime_ns),
               limits.max_instances, limits.max_cards, limits.max_questions]
    return hashlib.sha256(json.dumps(made_of, sort_keys=True, default=str).encode()).hexdigest()


def _make_room(budget_mb: int) -> None:
    """Drop kept tables and boards (tables first), the least recently used first, until what they hold is within
    `budget_mb`: the next request, which fits the memory ceiling alone, then fits beside them, and a full cache is
    an eviction, never a refusal."""
    budget = budget_mb * 1024 * 1024
    while (_TABLES or _BOARDS) and sum(_COSTS.values()) > budget:
        key, _ = (_TABLES or _BOARDS).popitem(last=False)
        _COSTS.pop(key, None)
    for key in set(_COSTS) - set(_TABLES) - set(_BOARDS):  # dropped by the count bound
        del _COSTS[key]


def _kept_table(job: dict[str, Any]) -> api.Table | None:
    """The job's table grounded once in this worker and kept for the next request about it, or None for a game
    grounded a moment at a time (answered afresh each time)."""
    key = _table_key(job)
    _TOUCHED.append(key)
    if key in _TABLES:
        _TABLES.move_to_end(key)
        return _TABLES[key]
    scenario = _table(job)
    if scenario.over_moments:
        return None
    _TABLES[key] = api.Table(scenario)
    while len(_TABLES) > TABLES_KEPT:
        _TABLES.popitem(last=False)
    return _TABLES[key]


def _choices(job: dict[str, Any]) -> tuple[dict[str, str] | None, str | None]:
    readings = job.get("readings") or None
    if readings is not None and not (isinstance(readings, dict)
                                     and all(isinstance(k, str) and isinstance(v, str) for k, v in readings.items())):
        raise InputError("readings must map reading names to choices", field="readings",
                         expected='{"READING": "CHOICE"}')
    profile = job.get("profile") or None
    if profile is not None and not isinstance(profile, str):
        raise InputError("profile must be a name", field="profile", expected="a profile from /api/readings")
    return readings, profile


def answer(job: dict[str, Any]) -> Any:
    """The table's questions answered with their reasons (`pyengine explain --json`)."""
    readings, profile = _choices(job)
    question = job.get("question")
    if question is not None and not isinstance(question, str):
        raise InputError(f"got {question!r}", field="question", expected="a question id of the table, or nothing")
    return api.explain(_table(job, asks=True), question, readings, profile).to_dict()


def plays(job: dict[str, Any]) -> Any:
    """Every play open to a player, or to each (`pyengine plays --json`)."""
    readings, profile = _choices(job)
    player = str(job["player"]) if job.get("player") else None
    table = _kept_table(job)
    if table is not None:
        return table.plays(player, readings, profile).to_dict()
    return api.plays(_table(job), player, readings, profile).to_dict()


def plays_gathered(job: dict[str, Any]) -> Any:
    """The `plays` jobs of requests gathered while the workers were busy (job["jobs"]): a card game's table on
    the tables this worker keeps, the others in one batch (pyengine.core.batch); each one's reply, {"ok": data}
    or {"errors": [...]}."""
    replies: list[dict[str, Any] | None] = [None] * len(job["jobs"])
    tables = []
    for index, one in enumerate(job["jobs"]):
        try:
            readings, profile = _choices(one)
            player = str(one["player"]) if one.get("player") else None
            kept = _kept_table(one)
            if kept is not None:  # a table this worker has grounded answers at once; the others share a batch
                replies[index] = {"ok": _encoded(kept.plays(player, readings, profile).to_dict())}
                continue
            tables.append((index, (_table(one), player, readings, profile)))
        except InputError as error:
            replies[index] = {"errors": [str(e) for e in error.all()]}
    for (index, _), result in zip(tables, plays_many([t for _, t in tables]), strict=True):
        if isinstance(result, InputError):
            replies[index] = {"errors": [str(e) for e in result.all()]}
        elif isinstance(result, Exception):
            raise result
        else:
            replies[index] = {"ok": _encoded(result.to_dict())}
    return replies


def flip(job: dict[str, Any]) -> Any:
    """The smallest change that turns a question's verdict (`pyengine flip --json`)."""
    readings, profile = _choices(job)
    if not isinstance(job.get("question"), str):
        raise InputError("which question?", field="question", expected="a question id of the table")
    return api.flip(_table(job), job["question"], readings, profile).to_dict()


def facts(job: dict[str, Any]) -> Any:
    """The facts the table becomes (`pyengine facts --json`)."""
    readings, profile = _choices(job)
    return api.facts(_table(job), readings, profile).to_dict()


def _verdict(got: Any) -> str:
    return got if isinstance(got, str) else json.dumps(got, sort_keys=True)


def compare(job: dict[str, Any]) -> Any:
    """The table's verdicts under the default readings beside those under every profile and every other choice
    of every reading of the game: its questions, then every play of each player; `differs` marks the rows where
    some side disagrees with the default. Every side is answered on one grounding: the table this worker keeps for
    a card game, a timeline grounded once with the reading choices open for a game over moments."""
    from pyengine.core.engine import answer_sides

    table = _kept_table(job)
    scenario = table.scenario if table is not None else _table(job)
    kb = kbase.load(scenario.game.name)
    sides: list[tuple[str, dict[str, str], str | None]] = [("default", {}, None)]
    sides += [(f"profile {p}", {}, p) for p in sorted(kb.profiles)]
    for reading in sorted(kb.readings.values(), key=lambda r: r.name):
        in_force = scenario.readings.get(reading.name, reading.default)
        sides += [(f"{reading.name}={c}", {reading.name: c}, None) for c in reading.choices if c != in_force]
    chosen = [overrides(scenario.game.name, r, p) for _, r, p in sides]
    if table is not None:
        answers = [table.grounded.answers(side) for side in chosen]
    else:
        answers = answer_sides(plays_table(scenario, None, keep_questions=True), chosen)
    rows: dict[str, dict[str, Any]] = {}  # by key: two plays that read alike are one row (the last one)
    for index, first in enumerate(answers[0]):
        question = first.question
        if index < len(scenario.questions):
            got = [a[index].play_sets() if a[index].plays is not None else a[index].verdict for a in answers]
            rows[f"question {question.id}"] = _row(question.kind, [_verdict(g) for g in got], first.rule_ids)
            continue
        player = question.id.split(":", 1)[1]
        by_side = [{p.id: p for p in side[index].plays or []} for side in answers]
        for play in first.plays or []:
            verdicts = [_verdict(side[play.id].verdict) if play.id in side else "-" for side in by_side]
            rows[f"{player}: {play.id}"] = _row(scenario.game.words.describe_play(play.term, scenario.state), verdicts,
                                                play.rule_ids)
    return {"game": scenario.game.name, "file": scenario.path,
            "sides": [{"label": label, "readings": readings, "profile": profile}
                      for label, readings, profile in sides], "rows": [{"key": k, **row} for k, row in rows.items()]}


def _row(about: str, verdicts: list[str], rules: list[str]) -> dict[str, Any]:
    return {"about": about, "verdicts": verdicts, "rules": rules, "differs": any(v != verdicts[0] for v in verdicts)}


def edge_cases(job: dict[str, Any]) -> Any:
    """The smallest states where two sides disagree (`pyengine edge-cases --json`)."""
    sides = job.get("compare")
    if not (isinstance(sides, list) and len(sides) == 2 and all(isinstance(s, str) for s in sides)):
        raise InputError("compare names two sides", field="compare",
                         expected='["default", "comprehensive_rules"] or READING=CHOICE')
    max_cards = job.get("max_cards", 3)
    if not isinstance(max_cards, int) or isinstance(max_cards, bool):
        raise InputError("max_cards must be a whole number", field="max_cards", expected="1 to 8")
    return api.edge_cases(str(job.get("game")), compare=(sides[0], sides[1]), max_cards=max_cards,
                          limit=10).to_dict()


# The states the page's census draws unless the server says otherwise (Settings.census_states).
CENSUS_STATES = 10


def census(job: dict[str, Any]) -> Any:
    """The real cards of the worker's imported pool on which two sides disagree (`pyengine census --compare A B
    --json`), with a smaller search than the command's (the server's census_states shown, CENSUS_STATES by
    default, and four times as many refused) to answer within the server's search bound, and the tables of the
    first 50 classes to open in the builder."""
    sides = job.get("compare")
    if not (isinstance(sides, list) and len(sides) == 2 and all(isinstance(s, str) for s in sides)):
        raise InputError("compare names two sides", field="compare",
                         expected='["default", PROFILE] or READING=CHOICE')
    catalog = job.get("catalog")
    if catalog is not None and not isinstance(catalog, str):
        raise InputError("catalog must be a name", field="catalog", expected="an imported source, or builtin")
    states = job.get("limits", {}).get("census_states", CENSUS_STATES)
    return api.census(str(job.get("game")), catalog, (sides[0], sides[1]), states=states, tries=4 * states,
                      tables=50).to_dict()


def export(job: dict[str, Any]) -> Any:
    """The table as a scenario YAML file, with the input errors `pyengine check` would report of it."""
    source = job.get("scenario")
    if not isinstance(source, dict):
        raise InputError("the request holds no scenario", field="scenario", expected="a scenario as a JSON object")
    errors = []
    try:
        _table(job)
    except InputError as error:
        errors = [str(e) for e in error.all()]
    return {"yaml": dump(source), "errors": errors}


def parse(job: dict[str, Any]) -> Any:
    """A scenario YAML text as a table (JSON data), refused with its errors when it is not a valid scenario."""
    text = job.get("yaml")
    if not isinstance(text, str):
        raise InputError("the request holds no YAML text", field="yaml", expected="a scenario file's text")
    name = str(job.get("name") or "<request>")
    data = load_text(text, name)
    api.load(name=name, text=text)
    return {"scenario": json.loads(json.dumps(data))}


# Boards this worker has drawn (every moment of a table under one set of choices), the most recently used last,
# at most BOARDS_KEPT of them: stepping through a game asks the same board for one moment after another.
BOARDS_KEPT = 8
_BOARDS: OrderedDict[str, Any] = OrderedDict()


def board(job: dict[str, Any]) -> Any:
    """A table's board at one moment (`moment`, default after the last step) as data and as an SVG picture, with
    every moment's step in words (`pyengine board --json`, `--svg`), for a game that draws its board."""
    readings, profile = _choices(job)
    moment = job.get("moment")
    if moment is not None and (not isinstance(moment, int) or isinstance(moment, bool)):
        raise InputError(f"got {moment!r}", field="moment", expected="a moment: 0 (the start) or a step's number")
    key = hashlib.sha256(json.dumps([_table_key(job), readings, profile], sort_keys=True).encode()).hexdigest()
    _TOUCHED.append(key)
    if key in _BOARDS:
        _BOARDS.move_to_end(key)
    else:
        _BOARDS[key] = api.board(_table(job), readings, profile)
        while len(_BOARDS) > BOARDS_KEPT:
            _BOARDS.popitem(last=False)
    found = _BOARDS[key]
    shown = found.at(found.moments[-1].moment if moment is None else moment)
    return {"board": shown.to_dict(), "svg": shown.svg(shown.moments[0].moment), "steps": found.steps()}


def document(job: dict[str, Any]) -> Any:
    """The annotated rulebook of one document (the server names the folders, never the request)."""
    from pyengine.web.documents import document_view

    docs = job.get("docs")
    return document_view(str(job["document"]), Path(docs) if docs else None, [Path(p) for p in job["scenarios"]])


KINDS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "answer": answer, "plays": plays, "plays_gathered": plays_gathered, "flip": flip, "facts": facts,
    "compare": compare, "edge_cases": edge_cases, "census": census, "board": board,
    "export": export, "parse": parse, "document": document,
}


def _encoded(data: Any) -> str:
    """A reply as JSON text (plain text is all that crosses back to the server: nothing to unpickle), refused
    when larger than the job's bound."""
    text = json.dumps(data, ensure_ascii=True)
    if len(text) > limits.max_reply_bytes:
        raise InputError(f"the answer would be {len(text):,} bytes, over the limit of {limits.max_reply_bytes:,}",
                         field="scenario", expected="a smaller table (YAML aliases count once per use)")
    return text


def run(job: dict[str, Any]) -> dict[str, Any]:
    """One request's work under its bounds: {"ok": its JSON text} or {"errors": [...]}. What the work left held is
    charged to the kept tables and boards it touched, which are then brought within their budget."""
    bounds = job.get("limits", {})
    limits.max_instances = bounds.get("max_instances", limits.max_instances)
    limits.solve_seconds = bounds.get("solve_seconds", limits.solve_seconds)
    limits.max_reply_bytes = bounds.get("max_reply_bytes", limits.max_reply_bytes)
    kind = KINDS.get(job.get("kind"))  # type: ignore[arg-type]
    if kind is None:
        return {"errors": [f"unknown kind of work {job.get('kind')!r}"]}
    held, _TOUCHED[:] = held_bytes(), []
    try:
        data = kind(job)
        return {"ok": json.dumps(data) if job["kind"] == "plays_gathered" else _encoded(data)}
    except InputError as error:
        return {"errors": [str(e) for e in error.all()]}
    finally:
        data = None
        grown = max(0, held_bytes() - held)
        for key in dict.fromkeys(_TOUCHED):
            _COSTS[key] = _COSTS.get(key, 0) + grown // len(set(_TOUCHED))
        _make_room(bounds.get("kept_mb", limits.memory_mb // 4))
