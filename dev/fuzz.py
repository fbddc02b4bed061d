"""Fuzzing with near-valid inputs, and with the ways a run is used that can break it. Six modes:

- `scenarios` (in process): the project's scenario files mutated in their structure (fields removed, typed
  values of the wrong type or out of range, unknown keys, strange strings) or in their text (characters
  deleted, inserted or swapped, YAML tags and aliases), read and answered;
- `commands`: the same inputs written to files and run through the commands that read them (check,
  explain, plays, facts, flip, deck) under their bounds;
- `cards`: card-database folders in GEMP's and MarvelCDB's formats, built from the built-in catalogs and
  mutated, imported and then used by a scenario;
- `crosstalk`: several files defining the same hypothetical card ids with other card text, answered in one
  batch and each alone (an answer that differs depends on another file);
- `server`: requests from several clients mixing slow, failing and normal ones against a server with small
  bounds (a 500, or a request past its deadline, is a failure);
- `kill`: `check --jobs 2` (and `import`, with `--gemp`) killed at a random moment (a process of theirs still
  running a second later, or a killed import that left part of its cards in the store, is a failure).

Every input must end in answers or in one line of input error; a traceback, an "internal error" line, an exit
code other than 0, 1 and 2, or a run over its time bound is counted as a failure.

Run: python -m dev.fuzz --mode commands --count 10000 [--seed N] [PATH ...]
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from pyengine.core.engine import answer
from pyengine.core.errors import InputError, InputErrors
from pyengine.core.scenario import scenario_files, scenario_from_data
from pyengine.core.yamlio import load_file, load_text

STRANGE = ["", " ", "\\", '"', "'", "%", "#", ").", "\n", "a\"). evil. b(\"", "ä€𝄞", "x" * 300, "0", "-1", "1_313",
           "yes", "null", "~", "[", "{}", "p0", "p999999", "lotr", "marvel", "play", "hero", "\x1b[2J", "\r",
           "\u2028", "\x85", "elves", "c(1,2)", "X). init(turn(sauron", "Ωμέγα"]
# Typed values at the edges: clingo's 32-bit integers, floats YAML can write, and nesting.
NUMBERS = [0, -1, 1, 7, 2**31 - 1, 2**31, 2**32 + 1, -(2**63), 10**20, 1.5, float("inf"), float("-inf"),
           float("nan"), 1e308]
# Text-level edits that YAML reads as tags, aliases or deep nesting.
SNIPPETS = [" !!int ", " !!timestamp ", " !!binary ", " !!float ", " !!set ", " &a ", " *a ", " [[[[[[", "]]]",
            " !!python/object ", " <<: *a "]


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    choices: list[Any] = [rng.choice(STRANGE), rng.choice(NUMBERS), rng.randint(-3, 5), None, True, False]
    if depth < 3:
        choices += [[_random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))],
                    {str(rng.choice(STRANGE)): _random_value(rng, depth + 1) for _ in range(rng.randint(0, 2))}]
    return rng.choice(choices)


def _paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*prefix, index))
    return found


def mutate_structure(data: Any, rng: random.Random) -> Any:
    """One to three structural mutations of a scenario's data."""
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(data))
        if not path:
            continue
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        action = rng.random()
        if action < 0.35:
            parent[key] = _random_value(rng)
        elif action < 0.55 and isinstance(parent, dict):
            del parent[key]
        elif action < 0.7 and isinstance(parent, dict):
            parent[rng.choice(STRANGE) or "extra"] = _random_value(rng)
        elif action < 0.85 and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        elif isinstance(parent[key], str):
            parent[key] = parent[key] + rng.choice(STRANGE)
    return data


def mutate_text(text: str, rng: random.Random) -> str:
    """One to five character-level edits of a scenario's text."""
    chars = list(text)
    for _ in range(rng.randint(1, 5)):
        if not chars:
            break
        where = rng.randrange(len(chars))
        action = rng.random()
        if action < 0.35:
            del chars[where]
        elif action < 0.7:
            chars.insert(where, rng.choice(":-[]{}'\"#&*!|>%@` \n\t\\"))
        elif action < 0.85:
            chars[where:where] = list(rng.choice(SNIPPETS))
        else:
            other = rng.randrange(len(chars))
            chars[where], chars[other] = chars[other], chars[where]
    return "".join(chars)


def run(count: int, seed: int, paths: list[Path], progress: bool = False) -> dict[str, Any]:
    """Fuzz `count` inputs derived from the scenario files under `paths`; the tally and any tracebacks."""
    rng = random.Random(seed)
    files = scenario_files(paths)
    seeds = [(f, f.read_text(encoding="utf-8"), load_file(f)) for f in files]
    tally = {"inputs": 0, "answered": 0, "input_errors": 0, "tracebacks": 0, "failures": []}
    started = time.monotonic()
    for index in range(count):
        file, text, data = rng.choice(seeds)
        try:
            if rng.random() < 0.3:
                mutated = mutate_text(text, rng)
                scenario = scenario_from_data(load_text(mutated, f"{file}~{index}"), f"{file}~{index}")
            else:
                scenario = scenario_from_data(mutate_structure(data, rng), f"{file}~{index}")
            answer(scenario)
            tally["answered"] += 1
        except (InputError, InputErrors):
            tally["input_errors"] += 1
        except Exception:  # a traceback is exactly what the fuzzer looks for
            tally["tracebacks"] += 1
            if len(tally["failures"]) < 20:
                tally["failures"].append({"seed_file": str(file), "input": index, "traceback": traceback.format_exc()})
        tally["inputs"] += 1
        if progress and sys.stderr.isatty() and (index + 1) % 100 == 0:
            print(f"\rfuzzed {index + 1}/{count}", end="", file=sys.stderr, flush=True)
    if progress and sys.stderr.isatty():
        print(file=sys.stderr)
    tally["seconds"] = round(time.monotonic() - started, 1)
    return tally


# Each command run by the `commands` and `cards` modes gets this --timeout; a run longer than it by more than
# SLACK seconds is a failure.
SECONDS = 10.0
SLACK = 5.0


def _command(args: list[str], tally: dict[str, Any], what: str) -> int:
    """Run one command line in this process; count it as a failure unless it ends in 0, 1 or 2 with at most
    one-line errors, no traceback and no internal error, within its time bound."""
    from pyengine.cli import main as cli_main

    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli_main(["--timeout", str(SECONDS), *args])
    except SystemExit as exit_:  # argparse's own usage errors
        code = exit_.code if isinstance(exit_.code, int) else 2
    except Exception:
        code, text = -1, traceback.format_exc()
        err.write(text)
    seconds = time.monotonic() - started
    tally["slowest"] = max(tally.get("slowest", 0.0), round(seconds, 2))
    problems = [line for line in err.getvalue().splitlines() if "Traceback" in line or "internal error" in line]
    if code not in (0, 1, 2) or problems or seconds > SECONDS + SLACK:
        tally["tracebacks"] += 1
        if len(tally["failures"]) < 20:
            tally["failures"].append({"seed_file": what, "input": " ".join(args), "traceback": err.getvalue()[-3000:],
                                      "seconds": round(seconds, 2), "code": code})
    tally["answered" if code in (0, 1) else "input_errors"] += 1
    tally["inputs"] += 1
    return code


def run_commands(count: int, seed: int, paths: list[Path], folder: Path) -> dict[str, Any]:
    """`count` mutated scenarios written to files and run through check, explain, plays, facts, flip or deck."""
    import yaml

    rng = random.Random(seed)
    seeds = [(f, f.read_text(encoding="utf-8"), load_file(f)) for f in scenario_files(paths)]
    tally: dict[str, Any] = {"inputs": 0, "answered": 0, "input_errors": 0, "tracebacks": 0, "failures": []}
    started = time.monotonic()
    for index in range(count):
        file, text, data = rng.choice(seeds)
        path = folder / f"fuzz-{index % 50}.yaml"
        if rng.random() < 0.3:
            path.write_text(mutate_text(text, rng), encoding="utf-8")
        else:
            path.write_text(yaml.safe_dump(_plain(mutate_structure(data, rng)), allow_unicode=True), encoding="utf-8")
        command = rng.choice(["check", "explain", "plays", "facts", "flip", "deck"])
        args = [command, str(path), *(["--game", "lotr"] if command == "deck" else [])]
        if command == "flip":
            args += ["--question", str(rng.choice([q.get("id", "q1") for q in data.get("questions", [{}])
                                                   if isinstance(q, dict)] or ["q1"]))]
        _command(args, tally, str(file))
        _progress(index, count)
    tally["seconds"] = round(time.monotonic() - started, 1)
    return tally


def _plain(value: Any) -> Any:
    """Loaded data (mappings and lists that remember their lines) as plain dicts and lists, for writing."""
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _card_seeds() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """GEMP and MarvelCDB card databases in their own formats, written from the built-in catalogs."""
    from pyengine.games.lotr.reader import builtin_catalog as lotr
    from pyengine.games.marvel.reader import builtin_catalog as marvel

    gemp = {}
    for card in lotr().cards.values():  # type: ignore[attr-defined]
        entry: dict[str, Any] = {"title": card.stored_title or card.title, "unique": card.unique,
                                 "type": card.type.replace("_", " ").title(), "cardInfo": {"collInfo": card.collinfo}}
        entry |= {k: v for k, v in (("subtitle", card.subtitle), ("culture", card.culture),
                                    ("side", {"free_peoples": "Free Peoples", "shadow": "Shadow"}.get(card.side or "")))
                  if v}
        gemp[card.id] = entry
    mcdb = [{"code": c.id, "name": c.title, "subname": c.subtitle, "type_code": c.type, "is_unique": c.unique,
             **({"back_link": c.extra["alter_ego"]} if c.extra.get("alter_ego") else {}),
             **({"deck_limit": c.extra["deck_limit"]} if "deck_limit" in c.extra else {})}
            for c in marvel().cards.values()]  # type: ignore[attr-defined]
    return gemp, mcdb


def run_cards(count: int, seed: int, folder: Path) -> dict[str, Any]:
    """`count` mutated card-database folders, imported (into a store of `folder`) and then used by a scenario."""
    import json
    import os

    rng = random.Random(seed)
    gemp, mcdb = _card_seeds()
    os.environ["PYENGINE_STORE"] = str(folder / "store.sqlite")
    tally: dict[str, Any] = {"inputs": 0, "answered": 0, "input_errors": 0, "tracebacks": 0, "failures": []}
    started = time.monotonic()
    scenarios = {"gemp": "game: lotr\ncatalog: gemp\nplayers: {alice: {play: [1_290], hand: [1_313, 1_289]}}\n"
                         "questions: [{ask: play, instance: alice.hand.1}, {ask: play, instance: alice.hand.2}]\n",
                 "marvelsdb": "game: marvel\ncatalog: marvelsdb\nplayers: {alice: {identity: {card: 01001a}, "
                              "hand: [04045, 01058]}}\nquestions: [{ask: play, instance: alice.hand.1}]\n"}
    for index in range(count):
        source = rng.choice(["gemp", "marvelsdb"])
        db = folder / f"db-{index % 20}"
        if db.exists():
            for old in sorted(db.rglob("*"), reverse=True):
                old.unlink() if old.is_file() else old.rmdir()
        if source == "gemp":
            path = db / "official" / "set01" / "cards.hjson"
            data: Any = mutate_structure(gemp, rng)
        else:
            path = db / "pack" / "core.json"
            data = mutate_structure(mcdb, rng)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(data, ensure_ascii=False)
        path.write_text(mutate_text(text, rng) if rng.random() < 0.2 else text, encoding="utf-8")
        if _command(["import", source, str(db), "--replace"], tally, f"{source} folder {index}") == 0:
            scenario = folder / "cards-scenario.yaml"
            scenario.write_text(scenarios[source], encoding="utf-8")
            _command(["check", str(scenario)], tally, f"{source} scenario {index}")
        _progress(index, count)
    tally["seconds"] = round(time.monotonic() - started, 1)
    return tally


def _tally() -> dict[str, Any]:
    return {"inputs": 0, "answered": 0, "input_errors": 0, "tracebacks": 0, "failures": []}


def _fail(tally: dict[str, Any], what: str, index: Any, detail: str) -> None:
    tally["tracebacks"] += 1
    if len(tally["failures"]) < 20:
        tally["failures"].append({"seed_file": what, "input": index, "traceback": detail})


def mutate_cards(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A scenario whose hypothetical cards keep their ids and get other card text: a field of one card changed,
    added or removed (the fields a card cache must key on)."""
    mutated = copy.deepcopy(_plain(data))
    card = rng.choice(mutated["cards"])
    field = rng.choice(sorted({*card, "abilities", "filters", "deck_limit", "person_aliases", "unique", "title"}
                              - {"id"}))
    if field in card and rng.random() < 0.4:
        del card[field]
    else:
        card[field] = _random_value(rng) if rng.random() < 0.3 else copy.deepcopy(
            rng.choice([c.get(field) for c in mutated["cards"] if field in c] or [None]))
    return mutated


def run_crosstalk(count: int, seed: int, paths: list[Path], folder: Path) -> dict[str, Any]:
    """`count` rounds of several scenario files that define the same hypothetical card ids with other card text,
    answered in one batch in this process (in a random order) and each alone: a file whose answers differ
    between the two depends on another file, which counts as a failure."""
    import yaml

    from pyengine.run.bulk import check_files

    rng = random.Random(seed)
    seeds = [load_file(f) for f in scenario_files(paths)]
    seeds = [d for d in seeds if isinstance(d, dict) and d.get("cards") and "catalog" not in d]
    tally = _tally()
    started = time.monotonic()
    for index in range(count):
        data = rng.choice(seeds)
        files = []
        for n in range(rng.randint(2, 5)):
            path = folder / f"crosstalk-{n}.yaml"
            path.write_text(yaml.safe_dump(_plain(mutate_cards(data, rng)), allow_unicode=True), encoding="utf-8")
            files.append((str(path), None, None))
        alone = [check_files([job])[0] for job in files]
        order = rng.sample(range(len(files)), len(files))
        together = check_files([files[i] for i in order])
        for i, result in zip(order, together, strict=True):
            tally["inputs"] += 1
            tally["answered" if not isinstance(result, list) else "input_errors"] += 1
            if _json(result) != _json(alone[i]):
                _fail(tally, "crosstalk", index, f"file {i} of {len(files)} answered otherwise in a batch")
        _progress(index, count)
    tally["seconds"] = round(time.monotonic() - started, 1)
    return tally


def _json(result: Any) -> str:
    import json

    return result.to_json() if hasattr(result, "to_json") else json.dumps(str(result))


def run_server(count: int, seed: int, paths: list[Path], clients: int = 8) -> dict[str, Any]:
    """`count` requests from `clients` clients to a server with small bounds, mixing slow ones (searches that
    reach their bound), failing ones (bad or hostile input) and normal ones (a scenario file's questions): each
    must end in 200, 400, 413, 422 or 503 within its deadline, never in a 500 or a wait without bound."""
    import json
    from concurrent.futures import ThreadPoolExecutor

    from starlette.testclient import TestClient

    from pyengine.web.app import Settings, create_app

    rng = random.Random(seed)
    texts = [f.read_text(encoding="utf-8") for f in scenario_files(paths)]
    settings = Settings(workers=2, solve_seconds=5.0, search_seconds=1.0, wait_seconds=2.0, max_waiting=16)
    deadline = settings.wait_seconds + settings.search_seconds + settings.solve_seconds + SLACK
    requests: list[tuple[str, str, Any]] = []
    for _ in range(count):
        kind = rng.choice(["slow", "failing", "normal", "normal", "normal"])
        if kind == "slow":
            requests.append(("slow", "/api/edge-cases", {"game": "lotr", "compare": ["default", "wiki"],
                                                         "max_cards": 5}))
        elif kind == "failing":
            requests.append(("failing", rng.choice(["/api/answer", "/api/facts", "/api/plays", "/api/parse"]),
                             {"scenario": mutate_text(rng.choice(texts), rng), "yaml": _random_value(rng),
                              "question": _random_value(rng), "jobs": _random_value(rng)}))
        else:
            requests.append(("normal", rng.choice(["/api/answer", "/api/facts", "/api/plays"]),
                             {"scenario": rng.choice(texts)}))
    tally = _tally()
    started = time.monotonic()
    with TestClient(create_app(settings)) as client:

        def ask(request: tuple[str, str, Any]) -> tuple[str, str, int, float]:
            began = time.monotonic()
            body = json.dumps(request[2]).encode()  # NaN and Infinity as Python writes them: not JSON
            status = client.post(request[1], content=body, headers={"content-type": "application/json"}).status_code
            return request[0], request[1], status, time.monotonic() - began

        with ThreadPoolExecutor(clients) as pool:
            for index, (kind, url, status, took) in enumerate(pool.map(ask, requests)):
                tally["inputs"] += 1
                tally["answered" if status == 200 else "input_errors"] += 1
                if status not in (200, 400, 413, 422, 503) or took > deadline:
                    _fail(tally, kind, index, f"{url}: {status} after {took:.1f} s")
    tally["seconds"] = round(time.monotonic() - started, 1)
    return tally


def descendants(pid: int) -> list[int]:
    """Every process started by `pid` and by those it started (Linux /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(parent, []).append(int(entry.name))
    found, frontier = [], [pid]
    while frontier:
        children = parents.get(frontier.pop(), [])
        found += children
        frontier += children
    return found


def alive(pids: list[int]) -> list[int]:
    """Those of `pids` that still run (a zombie waiting for its parent's reaper does not)."""
    running = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            running.append(pid)
    return running


def run_kill(count: int, seed: int, paths: list[Path], folder: Path, gemp: Path | None = None) -> dict[str, Any]:
    """`count` commands (`check --jobs 2` on the scenario folders, and `import gemp` where its data is given)
    killed with SIGKILL at a random moment: a process of theirs still running a second later, or a store that a
    killed command left holding anything but what it held before or the whole import, counts as a failure. A
    command that ended by itself before its kill (an import takes about 2.5 s) is not a kill; the store it wrote
    is what the next kill must leave as it was."""
    import os
    import signal
    import subprocess

    rng = random.Random(seed)
    env = {**os.environ, "PYENGINE_STORE": str(folder / "kill-store.sqlite")}
    tally = _tally()
    started = time.monotonic()
    for index in range(count):
        command = ["check", *map(str, paths), "--jobs", "2"]
        if gemp is not None and rng.random() < 0.4:
            command = ["import", "gemp", str(gemp)]
        process = subprocess.Popen([sys.executable, "-m", "pyengine", *command], env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        before = _store_state(folder / "kill-store.sqlite")
        time.sleep(rng.uniform(0.2, 4.0))
        started_by_it = descendants(process.pid)
        ended_by_itself = process.poll() is not None
        process.send_signal(signal.SIGKILL)
        process.wait()
        time.sleep(1.0)
        tally["inputs"] += 1
        tally["answered"] += 1
        left = alive(started_by_it)
        if left:
            _fail(tally, " ".join(command), index, f"still running a second after the kill: {left}")
            for pid in left:
                os.kill(pid, signal.SIGKILL)
        after = _store_state(folder / "kill-store.sqlite")
        # An import killed after its one transaction committed (while it printed its report) has imported.
        if not ended_by_itself and after != before and (gemp is None or after != _whole_import(gemp, before)):
            _fail(tally, " ".join(command), index, "a killed import left part of its cards in the store")
        _progress(index, count)
    tally["seconds"] = round(time.monotonic() - started, 1)
    return tally


def _store_state(path: Path) -> dict[str, int]:
    """What the store holds, read after opening it (which rolls back what a killed writer left in its journal):
    each source and its number of cards (nothing, for no file or a file with no source)."""
    import sqlite3
    from contextlib import closing

    from pyengine.core import store

    if not store.sources(path):
        return {}
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return dict(db.execute("SELECT source, COUNT(*) FROM cards GROUP BY source").fetchall())


def _whole_import(gemp: Path, before: dict[str, int]) -> dict[str, int]:
    """The store after a whole import of GEMP's cards over `before`."""
    from pyengine.games import importer

    cards, _ = importer("gemp").read(gemp)
    return {**before, "gemp": len(cards)}


def _progress(index: int, count: int) -> None:
    if sys.__stderr__ is not None and sys.__stderr__.isatty() and (index + 1) % 50 == 0:
        print(f"\rfuzzed {index + 1}/{count}", end="" if index + 1 < count else "\n", file=sys.__stderr__, flush=True)


def main(argv: list[str] | None = None) -> int:
    import tempfile

    parser = argparse.ArgumentParser(prog="python -m dev.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=["examples", "tests/scenarios"], help="seed scenario folders")
    parser.add_argument("--mode", choices=["scenarios", "commands", "cards", "crosstalk", "server", "kill"],
                        default="scenarios")
    parser.add_argument("--gemp", type=Path, help="the GEMP card folder, for `kill` to kill imports too")
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    paths = [Path(p) for p in args.paths]
    with tempfile.TemporaryDirectory(prefix="pyengine-fuzz-") as tmp:
        if args.mode == "commands":
            tally = run_commands(args.count, args.seed, paths, Path(tmp))
        elif args.mode == "cards":
            tally = run_cards(args.count, args.seed, Path(tmp))
        elif args.mode == "crosstalk":
            tally = run_crosstalk(args.count, args.seed, paths, Path(tmp))
        elif args.mode == "server":
            tally = run_server(args.count, args.seed, paths)
        elif args.mode == "kill":
            tally = run_kill(args.count, args.seed, paths, Path(tmp), args.gemp)
        else:
            tally = run(args.count, args.seed, paths, progress=True)
    for failure in tally["failures"]:
        print(f"--- input {failure['input']} from {failure['seed_file']}\n{failure['traceback']}")
    slowest = f", slowest run {tally['slowest']} s" if "slowest" in tally else ""
    print(f"inputs: {tally['inputs']}, answered: {tally['answered']}, input errors: {tally['input_errors']}, "
          f"tracebacks: {tally['tracebacks']} ({tally['seconds']} s{slowest})")
    return 1 if tally["tracebacks"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
