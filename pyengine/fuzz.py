"""Fuzzing of the scenario loader and engine with near-valid inputs: the project's own scenario files,
mutated in their structure (fields removed, values of the wrong type, unknown keys, strange strings) or in
their text (characters deleted, inserted or swapped). Every input must end in answers or in an input error;
anything else is a traceback and is counted.

Run: python -m pyengine.fuzz --count 10000 [--seed N] [PATH ...]
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from pyengine.engine import answer
from pyengine.errors import InputError, InputErrors
from pyengine.scenario import scenario_files, scenario_from_data
from pyengine.yamlio import load_file, load_text

STRANGE = ["", " ", "\\", '"', "'", "%", "#", ").", "\n", "a\"). evil. b(\"", "ä€𝄞", "x" * 300, "0", "-1", "1_313",
           "yes", "null", "~", "[", "{}", "p0", "p999999", "lotr", "marvel", "play", "hero"]


def _random_value(rng: random.Random) -> Any:
    return rng.choice([rng.choice(STRANGE), rng.randint(-3, 5), rng.random(), None, True, [], {},
                       [rng.choice(STRANGE)], {rng.choice(STRANGE): rng.choice(STRANGE)}])


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
        if action < 0.4:
            del chars[where]
        elif action < 0.8:
            chars.insert(where, rng.choice(":-[]{}'\"#&*!|>%@` \n\t\\"))
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pyengine.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=["examples", "tests/scenarios"], help="seed scenario folders")
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    tally = run(args.count, args.seed, [Path(p) for p in args.paths], progress=True)
    for failure in tally["failures"]:
        print(f"--- input {failure['input']} from {failure['seed_file']}\n{failure['traceback']}")
    print(f"inputs: {tally['inputs']}, answered: {tally['answered']}, input errors: {tally['input_errors']}, "
          f"tracebacks: {tally['tracebacks']} ({tally['seconds']} s)")
    return 1 if tally["tracebacks"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
