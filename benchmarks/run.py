"""The benchmark suite: one command prints every figure, the median of several runs and, where there is one,
the ratio to a baseline measured in the same run. Not part of the timed test run (the tests run --quick).

    python benchmarks/run.py [--quick] [--json]

Figures: one query, warm, on states of 2x20, 2x100 and 2x500 card instances drawn from the GEMP catalog
(imported from the real data when present, else the built-in one) against the plain-Python baseline; every
play of a player (`plays`) against one `play` question on the same 2x20 state with seven cards in hand; the
command line cold (process start to exit: `--help`, `readings`, `check` of one scenario); batch `pyengine
check` over 100,000 generated scenarios with `--jobs 2` (scenarios per second, peak resident memory) and the
same corpus on a Dask LocalCluster of two workers (`--dask`) against it; `pyengine deck` over generated
decklists; the edge-case search (LOTR default against gemp) at 4, 5 and 6 cards: the first smallest state and
every shape; the web server (`pyengine serve`): its start, a warm `/api/plays` on the 2x20 state end to end
against the same `plays` answered in-process, and 200 requests at concurrency 20 and at 8 (latency p50/p95,
requests per second); the Duel for Middle-earth at game scale (a written game of 20 and of 120 actions checked,
`plays` on the example and after 40 actions, every reading side by side, the Duel folder, ground atoms per
action); the Duel on its real cards (a random playout on a dealt layout answered whole, `plays` at its middle,
its ground atoms and solver choices); the conformance kit: `conformance export` of the repository's scenario
files and GEMP's conformance files against `check` of the same files, and `conformance compare` of a verdict for
every question against reading the pack's lines. Each figure with a target carries it (`target`) and whether
this run met it (`met`).
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The repository's top as well: the benchmarks find the real data where the suite does (tests/paths.py).
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from baseline import CHARACTER_TYPES, Copy, can_play

from pyengine.core import moment_states, store
from pyengine.core.engine import answer
from pyengine.core.scenario import scenario_from_data
from pyengine.games.lotr.reader import builtin_catalog
from tests.paths import CONFORMANCE, DFM_DATA, GEMP_CARDS

ROOT = Path(__file__).resolve().parents[1]
# The targets: figure -> (field, at most | at least, value); a ratio target on the same figure too. Issue 17's, but
# where issue 28 set its own for the same figure (a new 2x20 state, the batch; issue 17 asked 2 ms and 20x, and
# 2,000 files a second, and its note records them not met).
TARGETS: dict[str, list[tuple[str, str, float]]] = {
    "query_2x20": [("median_ms", "<=", 5.0)],
    "query_2x100": [("median_ms", "<=", 6.0)],
    "plays_2x20_seven_in_hand": [("median_ms", "<=", 3.0)],
    "cli_cold_help": [("median_ms", "<", 100.0)],
    "cli_cold_readings": [("median_ms", "<", 100.0)],
    "cli_cold_check_one_scenario": [("median_ms", "<=", 150.0)],
    "batch_check": [("per_second", ">=", 500.0), ("peak_rss_mb", "<", 300.0)],
    # Issue 28's target for the server on a table it keeps (issue 17's was 300 /s, p95 25 ms).
    "server_plays_concurrency_8": [("per_second", ">=", 500.0), ("p95_ms", "<=", 20.0)],
    "server_start_to_first_answer": [("median_ms", "<", 2000.0)],
    # Issue 28's targets for a table grounded once (the first two also on a ratio to the plain-Python baseline).
    "table_query_2x20": [("median_ms", "<=", 0.5), ("ratio", "<=", 6.0)],
    "table_plays_2x20_seven_in_hand": [("median_ms", "<=", 1.5)],
    "table_every_reading_2x20": [("median_ms", "<=", 50.0)],
    "table_query_2x200": [("median_ms", "<=", 5.0)],
    # Issue 23's targets for the Duel for Middle-earth.
    "dfm_check_20_actions": [("median_ms", "<=", 300.0)],
    "dfm_check_whole_game": [("median_ms", "<=", 2000.0)],
    "dfm_plays_example": [("median_ms", "<=", 200.0)],
    "dfm_plays_after_40_actions": [("median_ms", "<=", 500.0)],
    "dfm_every_reading_example": [("median_ms", "<=", 2000.0)],
    "dfm_check_scenario_folder": [("median_ms", "<=", 2000.0)],
    # Issue 46's targets for the Duel on its real cards: a whole random game answered, `plays` on a mid-game state,
    # and at the game's middle followed action by action (its first half replayed from the start has none: it
    # grounds half the game, which the whole game's target bounds).
    "dfm_real_check_whole_game": [("median_ms", "<=", 1500.0)],
    "dfm_real_plays_mid_game_state": [("median_ms", "<=", 200.0)],
    "dfm_real_plays_mid_game_followed": [("median_ms", "<=", 200.0)],
    # Issue 45's targets for the conformance kit: the repository's files and GEMP's conformance files (about 2,000
    # questions) exported, and as many verdicts compared.
    "conformance_export": [("median_ms", "<=", 20000.0)],
    "conformance_compare": [("median_ms", "<=", 2000.0)],
}


def with_targets(result: dict[str, Any]) -> dict[str, Any]:
    """The result with its targets (`target`, e.g. "median_ms <= 2") and whether each was met (`met`)."""
    key = next((k for k in TARGETS if result["name"] == k or result["name"].startswith(k + "_")), None)
    if key is None:
        return result
    checks = [(f, op, v) for f, op, v in TARGETS[key] if result.get(f) is not None]
    met = [result[f] <= v if op == "<=" else result[f] < v if op == "<" else result[f] >= v for f, op, v in checks]
    return {**result, "target": ", ".join(f"{f} {op} {v:g}" for f, op, v in checks), "met": all(met)}
ZONES = ["play"] * 4 + ["support", "hand", "hand", "hand", "discard", "dead_pile"]


def catalog_cards() -> tuple[str, list[Any]]:
    """The catalog the benchmarks draw from: the imported GEMP pool when available (the one the store named by
    PYENGINE_STORE already holds, as in a test session; else imported into a temporary store), else the built-in
    cards."""
    if os.environ.get(store.STORE_ENV) and "gemp" in store.sources():
        cards = list(store.open_source("gemp").all_cards())
        return "gemp", [c for c in cards if c.type not in ("site", "metasite", "map")]
    if GEMP_CARDS.is_dir():
        from pyengine.games.lotr import importer as gemp

        folder = Path(tempfile.mkdtemp(prefix="pyengine-bench-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)  # the run's store goes with the run
        os.environ[store.STORE_ENV] = str(folder / "catalog.sqlite")
        cards = gemp.read_cards(GEMP_CARDS)
        store.write_source("gemp", "lotr", str(GEMP_CARDS), cards, gemp.report(cards))
        return "gemp", [c for c in cards if c.type not in ("site", "metasite", "map")]
    return "builtin", list(builtin_catalog().cards.values())  # type: ignore[attr-defined]


def generated_state(rng: random.Random, catalog: str, cards: list[Any], per_player: int) -> dict[str, Any]:
    """Two players with `per_player` instances each, and one question: may a hand card be played?"""
    players: dict[str, dict[str, list]] = {"p1": {}, "p2": {}}
    for player in players:
        for n in range(per_player):
            card = rng.choice(cards)
            zone = rng.choice(ZONES) if n else "hand"
            players[player].setdefault(zone, []).append({"id": f"{player}-{n}", "card": card.id})
    return {"game": "lotr", "catalog": catalog, "players": players,
            "questions": [{"id": "q", "ask": "play", "instance": "p1-0"}]}


def median_ms(function: Any, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def bench_queries(catalog: str, cards: list[Any], sizes: list[int], repeats: int) -> list[dict[str, Any]]:
    results = []
    rng = random.Random(42)
    for size in sizes:
        data = generated_state(rng, catalog, cards, size)
        scenario = scenario_from_data(data, f"<2x{size}>")
        copies = {i.id: Copy(i.card.title, i.card.unique, i.card.type in CHARACTER_TYPES, i.owner, i.zone, i.active)
                  for i in scenario.state.instances.values()}
        answer(scenario)
        engine = median_ms(lambda scenario=scenario: answer(scenario), repeats)
        base = median_ms(lambda copies=copies: can_play(copies, "p1-0"), repeats * 20)
        results.append({"name": f"query_2x{size}", "median_ms": round(engine, 3), "baseline_ms": round(base, 4),
                        "ratio": round(engine / base, 1)})
    return results


def _plays_state(catalog: str, cards: list[Any]) -> dict[str, Any]:
    """The 2x20 state with seven cards in the first player's hand (the `plays` benchmarks' state)."""
    data = generated_state(random.Random(11), catalog, cards, 20)
    hand = data["players"]["p1"]["hand"]
    others = [i for zone, items in data["players"]["p1"].items() if zone != "hand" for i in items]
    data["players"]["p1"] = {"hand": (hand + others)[:7], "play": (hand + others)[7:]}
    return data


def bench_plays(catalog: str, cards: list[Any], repeats: int) -> list[dict[str, Any]]:
    """Every play of a player (`plays`, one solve) against one `play` question, on the same 2x20 state with seven
    cards in the first player's hand; the ratio is plays over play."""
    data = _plays_state(catalog, cards)
    one = scenario_from_data(data, "<2x20 play>")
    every = scenario_from_data({**data, "questions": [{"id": "all", "ask": "plays", "player": "p1"}]}, "<2x20 plays>")
    [result] = answer(every)
    assert result.plays is not None and len(result.plays) >= 7
    answer(one)
    play = median_ms(lambda: answer(one), repeats)
    plays = median_ms(lambda: answer(every), repeats)
    return [{"name": "play_2x20_one_question", "median_ms": round(play, 3), "baseline_ms": None, "ratio": None},
            {"name": "plays_2x20_seven_in_hand", "median_ms": round(plays, 3), "baseline_ms": round(play, 3),
             "ratio": round(plays / play, 2), "plays": len(result.plays)}]


def bench_tables(catalog: str, cards: list[Any], repeats: int, groundings: int) -> list[dict[str, Any]]:
    """A table grounded once (api.table) and asked again: one question, every play of a player, every reading
    side by side, each answer a fresh solve under reading choices no earlier answer of the table used (the
    models it keeps are dropped before each), against the plain-Python baseline; and the one-time grounding
    (median of `groundings`; the table asked is the last one grounded, not grounded again)."""
    from pyengine import api
    from pyengine.core.engine import reading_options

    results = []
    rng = random.Random(42)
    for size in (20, 200):
        data = generated_state(rng, catalog, cards, size)
        scenario = scenario_from_data(data, f"<2x{size}>")
        copies = {i.id: Copy(i.card.title, i.card.unique, i.card.type in CHARACTER_TYPES, i.owner, i.zone, i.active)
                  for i in scenario.state.instances.values()}
        base = median_ms(lambda copies=copies: can_play(copies, "p1-0"), repeats * 20)
        grounded: dict[str, Any] = {}
        grounding = median_ms(lambda scenario=scenario, grounded=grounded: grounded.update(table=api.table(scenario)),
                              groundings)
        table = grounded["table"]

        def fresh(table: Any = table) -> Any:
            table.grounded.models.clear()
            return table.answer()

        query = median_ms(fresh, repeats)
        results.append({"name": f"table_query_2x{size}", "median_ms": round(query, 3), "baseline_ms": round(base, 4),
                        "ratio": round(query / base, 1)})
        results.append({"name": f"table_grounding_2x{size}", "median_ms": round(grounding, 2), "baseline_ms": None,
                        "ratio": None})
    table = api.table(scenario_from_data(_plays_state(catalog, cards), "<2x20 plays>"))

    def plays() -> Any:
        table.grounded.models.clear()
        return table.plays("p1")

    results.append({"name": "table_plays_2x20_seven_in_hand", "median_ms": round(median_ms(plays, repeats), 3),
                    "baseline_ms": None, "ratio": None, "plays": len(plays().questions[0].plays or [])})
    sides = [{name: choice} for name, choice, _ in reading_options("lotr")]

    def every_reading() -> Any:
        table.grounded.models.clear()
        return table.compare(sides)

    results.append({"name": "table_every_reading_2x20", "median_ms": round(median_ms(every_reading, repeats), 2),
                    "baseline_ms": None, "ratio": None, "sides": len(sides)})
    return results


def _command(*args: str) -> list[str]:
    """The `pyengine` program as a user runs it: its console script beside this Python where it is installed."""
    script = Path(sys.executable).with_name("pyengine")
    return [str(script), *args] if script.is_file() else [sys.executable, "-m", "pyengine", *args]


def bench_cold(catalog: str, cards: list[Any], folder: Path, repeats: int) -> list[dict[str, Any]]:
    """The command line from process start to exit: `--help`, `readings`, and `check` of one 2x20 scenario, with
    Python's bytecode cache written by the first run and read by the others, as a user's installation has it (an
    environment that sets PYTHONDONTWRITEBYTECODE, as this workplace does, compiles every module at each start:
    40-60 ms of a cold `check`)."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    path = folder / "cold.yaml"
    path.write_text(yaml.safe_dump(generated_state(random.Random(1), catalog, cards, 20)), encoding="utf-8")
    results = []
    for name, args in (("cli_cold_help", ["--help"]), ("cli_cold_readings", ["readings"]),
                       ("cli_cold_check_one_scenario", ["check", str(path)])):
        subprocess.run(_command(*args), check=True, capture_output=True, env=environment)
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            subprocess.run(_command(*args), check=True, capture_output=True, env=environment)
            times.append((time.perf_counter() - started) * 1000)
        results.append({"name": name, "median_ms": round(statistics.median(times), 1), "baseline_ms": None,
                        "ratio": None})
    return results


def bench_batch(name: str, args: list[str], count: int) -> dict[str, Any]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    result = subprocess.run(_command(*args), capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if result.returncode not in (0, 1):
        raise SystemExit(f"{name} failed: {result.stderr[:2000]}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {"name": name, "median_ms": round(seconds * 1000 / count, 3), "baseline_ms": None, "ratio": None,
            "per_second": round(count / seconds, 1), "items": count, "seconds": round(seconds, 2),
            "peak_rss_mb": round(max(peak, before) / 1024, 1)}


def bench_dask(scenarios: Path, count: int, jobs_result: dict[str, Any]) -> dict[str, Any]:
    """The same corpus on a Dask LocalCluster of two worker processes (`check --dask`), against `--jobs 2`."""
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.worker.daemon": False}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    try:
        result = bench_batch(f"batch_check_{count}_scenarios_dask_local_cluster_2_workers",
                             ["check", str(scenarios), "--dask", cluster.scheduler_address, "--json"], count)
    finally:
        cluster.close()
    result.pop("peak_rss_mb")  # the cluster's workers are not this run's children
    result["baseline_ms"] = jobs_result["median_ms"]
    result["ratio"] = round(result["median_ms"] / jobs_result["median_ms"], 2)
    return result


def bench_search(sizes: list[int], repeats: int) -> list[dict[str, Any]]:
    """The edge-case search, LOTR default against the gemp profile: the first smallest state, and every shape."""
    from pyengine.core.limits import limits
    from pyengine.tools.edge_cases import parse_side, search

    limits.solve_seconds = 600
    a, b = parse_side("lotr", "default"), parse_side("lotr", "gemp")
    results = []
    for size in sizes:
        first = median_ms(lambda size=size: search("lotr", a, b, size, size, 1), repeats)
        started = time.perf_counter()
        findings = search("lotr", a, b, size, size, 10_000, all_models=True)
        every = (time.perf_counter() - started) * 1000
        shapes = len({s for f in findings for s in f.shapes})
        results.append({"name": f"search_first_state_{size}_cards", "median_ms": round(first, 1),
                        "baseline_ms": None, "ratio": None})
        results.append({"name": f"search_all_{size}_cards", "median_ms": round(every, 1), "baseline_ms": None,
                        "ratio": None, "states": len(findings), "shapes": shapes})
    return results


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def bench_server(catalog: str, cards: list[Any], repeats: int, requests: int) -> list[dict[str, Any]]:
    """`pyengine serve` in its own process: time to the first answer; a warm `/api/plays` end to end against
    `plays` in-process on the same state; `requests` requests at concurrency 20 and 8 (every answer checked)."""
    import socket
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    from pyengine import api

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    state = _plays_state(catalog, cards)
    body = {"scenario": state, "name": "2x20", "player": "p1"}
    expected = api.plays(api.load(state, "2x20"), "p1").to_dict()
    started = time.perf_counter()
    process = subprocess.Popen(_command("serve", "--port", str(port)), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                if httpx.get(f"{url}/api/documents", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                if time.perf_counter() - started > 30:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.01)
        start_ms = (time.perf_counter() - started) * 1000
        with httpx.Client(base_url=url, timeout=60) as client:
            client.post("/api/plays", json=body)
            warm = median_ms(lambda: client.post("/api/plays", json=body).raise_for_status(), repeats)
        in_process = median_ms(lambda: api.plays(api.load(state, "2x20"), "p1"), repeats)
        results = [{"name": "server_start_to_first_answer", "median_ms": round(start_ms, 1), "baseline_ms": None,
                    "ratio": None},
                   {"name": "server_plays_2x20_warm_end_to_end", "median_ms": round(warm, 2),
                    "baseline_ms": round(in_process, 2), "ratio": round(warm / in_process, 2)}]
        for concurrency in (20, 8):
            client = httpx.Client(base_url=url, timeout=60, limits=httpx.Limits(max_connections=concurrency))

            def one(_: int, client: httpx.Client = client) -> tuple[float, bool]:
                begun = time.perf_counter()
                response = client.post("/api/plays", json=body)
                return (time.perf_counter() - begun) * 1000, response.status_code == 200 and response.json() == expected

            begun = time.perf_counter()
            with ThreadPoolExecutor(concurrency) as pool:
                outcomes = list(pool.map(one, range(requests)))
            seconds = time.perf_counter() - begun
            client.close()
            latencies = [ms for ms, _ in outcomes]
            results.append({"name": f"server_plays_concurrency_{concurrency}",
                            "median_ms": round(_percentile(latencies, 0.5), 1), "baseline_ms": None, "ratio": None,
                            "p95_ms": round(_percentile(latencies, 0.95), 1),
                            "per_second": round(requests / seconds, 1), "items": requests,
                            "errors": sum(not ok for _, ok in outcomes)})
        return results
    finally:
        process.terminate()
        process.wait(10)


def _grounded(game: dict[str, Any]) -> Any:
    """A Duel scenario's one unit grounded moment by moment, and solved once: its Control."""
    import clingo

    from pyengine import api
    from pyengine.core.engine import ground_timeline, units

    [unit] = units(api.load(game), {})
    control = clingo.Control(["--warn=none", "--stats"])
    ground_timeline(control, "dfm", unit.kinds, unit.facts)
    control.solve()
    return control


def _ground_atoms(game: dict[str, Any]) -> int:
    """The ground atoms of a Duel scenario's one unit, grounded moment by moment (the Control held while they are
    counted: clingo's atoms do not keep it alive)."""
    control = _grounded(game)
    return len(control.symbolic_atoms)


def bench_real_duel(repeats: int, quick: bool) -> list[dict[str, Any]]:
    """The Duel on its real cards (issue 46): one random playout on a layout dealt from seed 3 (drawn first, not
    timed; its first 10 actions in the quick run), answered whole with its questions (who won, the Power tokens
    after every action); `plays` of both players on a mid-game state as a judge writes one (the state given,
    tests/scenarios/dfm/real_mid_game.yaml: chapter 2, four actions; the issue's target, like the example on the
    built-in cards) and at the playout's middle, its first half replayed from the start (no state kept) and
    followed (from the state kept by `plays` after the action before, pyengine.core.moment_states, as when a game
    is followed action by action); and the ground atoms and solver
    choices of the whole game and of its first 10 actions. The data is imported into the run's store unless the
    store already holds it (into a store of the run's own, never into a user's); without the data there is nothing
    to measure."""
    from pyengine.games.dfm import importer

    if not (DFM_DATA / importer.FILE).is_file():
        return []
    if os.environ.get(store.STORE_ENV) and "vermihunter" in store.sources():
        return _real_duel(repeats, quick)
    kept = os.environ.get(store.STORE_ENV)
    with tempfile.TemporaryDirectory(prefix="pyengine-bench-") as folder:
        os.environ[store.STORE_ENV] = str(Path(folder, "catalog.sqlite"))
        try:
            cards, report = importer.read(DFM_DATA)
            store.write_source("vermihunter", "dfm", str(DFM_DATA), cards, report)
            return _real_duel(repeats, quick)
        finally:
            if kept is None:
                os.environ.pop(store.STORE_ENV, None)
            else:
                os.environ[store.STORE_ENV] = kept


# The random playout bench_real_duel answers, drawn from seed 3 on its dealt layout, printed as JSON.
DRAW = ("import json, sys\nfrom pyengine.games.dfm import playouts\n"
        "print(json.dumps(playouts.playout(3, limit=int(sys.argv[1]), start=playouts.dealt_start(3))))")


def _real_duel(repeats: int, quick: bool) -> list[dict[str, Any]]:
    """bench_real_duel's figures, on a store that holds the Duel's real cards. The playout is drawn by a command of
    its own: drawing one fills clingo's process-wide symbol table, after which the same game answers 2-3 times
    slower in that process (1.5 s against 3.6-5.0 s, measured), which is not what a judge's `check` pays."""
    from pyengine import api

    drawn = subprocess.run([sys.executable, "-c", DRAW, "10" if quick else "400"], capture_output=True, text=True,
                           check=True, timeout=1800)
    game = json.loads(drawn.stdout)
    count = len(game["actions"])
    middle = {**game, "actions": game["actions"][:count // 2], "questions": []}
    before = {**middle, "actions": middle["actions"][:-1]}

    def cold() -> None:
        moment_states.clear()
        api.plays(middle)

    timed: list[float] = []
    for _ in range(repeats):  # the plays before, untimed, keep the state the followed plays start from
        moment_states.clear()
        api.plays(before)
        started = time.perf_counter()
        api.plays(middle)
        timed.append(time.perf_counter() - started)
    state = ROOT / "tests" / "scenarios" / "dfm" / "real_mid_game.yaml"
    results = [{"name": "dfm_real_check_whole_game", "median_ms": round(median_ms(lambda: api.answer(game), repeats),
                                                                            1), "ratio": None, "actions": count},
               {"name": "dfm_real_plays_mid_game_state", "median_ms": round(median_ms(lambda: api.plays(state),
                                                                                      repeats), 1), "ratio": None},
               {"name": "dfm_real_plays_mid_game", "median_ms": round(median_ms(cold, repeats), 1), "ratio": None,
                "actions": count // 2},
               {"name": "dfm_real_plays_mid_game_followed", "median_ms": round(statistics.median(timed) * 1000, 1),
                "ratio": None, "actions": count // 2}]
    first = _grounded({**game, "actions": game["actions"][:10],
                       "questions": [{"id": "tokens", "ask": "tokens", "after": min(10, count)}]})
    whole = _grounded({**game, "questions": [{"id": "tokens", "ask": "tokens", "after": count}]})
    atoms = {10: len(first.symbolic_atoms), count: len(whole.symbolic_atoms)}
    results.append({"name": "dfm_real_ground_atoms_per_action", "median_ms": 0.0, "ratio": None,
                    "atoms_10": atoms[10], f"atoms_{count}": atoms[count], "actions": count,
                    "slope": round((atoms[count] - atoms[10]) / max(count - 10, 1), 1),
                    "choices": int(whole.statistics["solving"]["solvers"]["choices"])})
    return results


def bench_duel(repeats: int, quick: bool) -> list[dict[str, Any]]:
    """Duel for Middle-earth at game scale (issue 23): a written game's first 20 actions and all 120 checked,
    `plays` on the example and after 40 actions, every reading side by side on the example, `pyengine check` of
    the Duel scenario folder (the command, on the processors it may use), and the ground atoms per action at 10
    and 100 actions (slope between them)."""
    from pyengine import api
    from pyengine.games.dfm import playouts
    from pyengine.web.jobs import compare

    example = ROOT / "examples" / "dfm_warg_and_elrond.yaml"
    after_40 = {**playouts.written_game(40), "questions": []}
    figures = [("dfm_check_20_actions", lambda: api.answer(playouts.written_game(20))),
               ("dfm_check_whole_game", lambda: api.answer(playouts.written_game())),
               ("dfm_plays_example", lambda: api.plays(example)),
               ("dfm_plays_after_40_actions", lambda: api.plays(after_40))]
    if not quick:  # the quick run leaves out the two that answer the most (the folder: 10 s of the test suite's)
        text = example.read_text(encoding="utf-8")
        figures.append(("dfm_every_reading_example", lambda: compare({"scenario": text, "name": str(example)})))
        # As a judge runs it: the command, from its start to its exit, with its default --jobs.
        figures.append(("dfm_check_scenario_folder", lambda: subprocess.run(
            _command("check", str(ROOT / "tests" / "scenarios" / "dfm")), check=True, capture_output=True)))
    results = [{"name": name, "median_ms": round(median_ms(run, repeats), 1), "ratio": None}
               for name, run in figures]
    atoms = {n: _ground_atoms(playouts.written_game(n)) for n in (10, 100)}
    results.append({"name": "dfm_ground_atoms_per_action", "median_ms": 0.0, "ratio": None,
                    "atoms_10": atoms[10], "atoms_100": atoms[100], "per_action_10": round(atoms[10] / 10, 1),
                    "per_action_100": round(atoms[100] / 100, 1), "slope": round((atoms[100] - atoms[10]) / 90, 1)})
    return results


def _timed(args: list[str], repeats: int) -> tuple[float, subprocess.CompletedProcess[str]]:
    """The median milliseconds of a command from its start to its exit, and its last run."""
    times, done = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        done = subprocess.run(_command(*args), capture_output=True, text=True, check=False)
        times.append((time.perf_counter() - started) * 1000)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(args[:2])} failed: {done.stderr[:2000]}")
    assert done is not None
    return statistics.median(times), done


def bench_conformance(folder: Path, repeats: int, quick: bool) -> list[dict[str, Any]]:
    """The conformance kit as an engine team runs it (issue 45): `conformance export` of the repository's scenario
    files (those whose catalogs the store holds) and GEMP's conformance files, against `check` of the same files
    on two processes; `conformance compare` of the knowledge base's own gemp (else default) verdict for each
    question, against reading the pack's lines."""
    sources = store.sources() if os.environ.get(store.STORE_ENV) else {}
    if quick:
        paths = [ROOT / "examples", ROOT / "tests" / "scenarios" / "lotr"]
    else:
        paths = [ROOT / "examples", *(p for p in sorted((ROOT / "tests" / "scenarios").iterdir())
                                      if p.is_dir() and (p.name != "marvel_cdb" or "marvelsdb" in sources))]
        if (CONFORMANCE / "gemp").is_dir() and "gemp" in sources:
            paths.append(CONFORMANCE / "gemp")
    pack = folder / "pack.jsonl"
    export_ms, _ = _timed(["conformance", "export", *map(str, paths), "--out", str(pack)], repeats)
    check_ms, _ = _timed(["check", *map(str, paths), "--jobs", "2", "--json"], repeats)
    lines = pack.read_text(encoding="utf-8").splitlines()
    verdicts = folder / "verdicts.jsonl"
    with verdicts.open("w", encoding="utf-8") as stream:
        for line in lines:
            entry = json.loads(line)
            side = entry["verdicts"].get("gemp", entry["verdicts"]["default"])
            stream.write(json.dumps({"id": entry["id"], "verdict": side["verdict"]}) + "\n")
    compare_ms, _ = _timed(["conformance", "compare", str(pack), str(verdicts), "--json"], repeats)
    read_ms = median_ms(lambda: [json.loads(line) for line in pack.read_text(encoding="utf-8").splitlines()],
                        repeats)
    return [{"name": "conformance_export", "median_ms": round(export_ms, 1), "baseline_ms": round(check_ms, 1),
             "ratio": round(export_ms / check_ms, 2), "items": len(lines),
             "pack_mb": round(pack.stat().st_size / 2**20, 1)},
            {"name": "conformance_compare", "median_ms": round(compare_ms, 1), "baseline_ms": round(read_ms, 1),
             "ratio": round(compare_ms / read_ms, 2), "items": len(lines)}]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="pyengine benchmarks")
    parser.add_argument("--quick", action="store_true", help="a short smoke run (the test suite uses it)")
    parser.add_argument("--json", action="store_true", help='print {"results": [...]}')
    args = parser.parse_args(argv)
    quick = args.quick
    catalog, cards = catalog_cards()
    jobs = "2"  # the targets are for --jobs 2 (this workplace has two cores)
    results = bench_queries(catalog, cards, [20] if quick else [20, 100, 500], 5 if quick else 30)
    results += bench_plays(catalog, cards, 5 if quick else 50)
    # The quick run grounds each table once (a 2x200 table's grounding was half of the smoke run) and starts each
    # cold command once after its first start: every figure is made, from fewer samples.
    results += bench_tables(catalog, cards, 5 if quick else 50, 1 if quick else 25)
    with tempfile.TemporaryDirectory(prefix="pyengine-bench-") as tmp:
        folder = Path(tmp)
        results += bench_cold(catalog, cards, folder, 1 if quick else 9)
        scenarios = folder / "scenarios"
        scenarios.mkdir()
        count = 100 if quick else 100_000
        rng = random.Random(7)
        for n in range(count):
            text = yaml.safe_dump(generated_state(rng, catalog, cards, 20))
            (scenarios / f"s{n:06d}.yaml").write_text(text, encoding="utf-8")
        on_jobs = bench_batch(f"batch_check_{count}_scenarios_jobs_{jobs}",
                              ["check", str(scenarios), "--jobs", jobs, "--json"], count)
        results.append(on_jobs)
        results.append(bench_dask(scenarios, count, on_jobs))
        decks = folder / "decks"
        decks.mkdir()
        deck_count = 20 if quick else 1_000
        names = [c.id for c in cards]
        for n in range(deck_count):
            lines = [f"{rng.randint(1, 4)} {rng.choice(names)}" for _ in range(rng.randint(15, 30))]
            (decks / f"d{n:04d}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        results.append(bench_batch(f"batch_deck_{deck_count}_decklists_jobs_{jobs}",
                                   ["deck", *map(str, sorted(decks.iterdir())), "--game", "lotr", "--catalog", catalog,
                                    "--jobs", jobs, "--json"], deck_count))
        results += bench_conformance(folder, 1 if quick else 3, quick)
    results += bench_search([2] if quick else [4, 5, 6], 1 if quick else 3)
    results += bench_server(catalog, cards, 5 if quick else 50, 40 if quick else 200)
    results += bench_duel(1 if quick else 5, quick)
    results += bench_real_duel(1 if quick else 5, quick)
    results = [with_targets(r) for r in results]
    if args.json:
        print(json.dumps({"catalog": catalog, "results": results}, indent=2))
    else:
        print(f"catalog: {catalog} ({len(cards)} cards)")
        for r in results:
            extra = f", ratio {r['ratio']} to baseline {r['baseline_ms']} ms" if r["ratio"] is not None else ""
            rate = f", {r['per_second']}/s, peak {r['peak_rss_mb']} MB" if "peak_rss_mb" in r else ""
            rate += f", {r['per_second']}/s" if "per_second" in r and "peak_rss_mb" not in r and "p95_ms" not in r \
                else ""
            rate += f", p95 {r['p95_ms']} ms, {r['per_second']}/s, {r['errors']} errors" if "p95_ms" in r else ""
            rate += f", {r['states']} states, {r['shapes']} shapes" if "shapes" in r else ""
            rate += f", {r['items']} questions" if r["name"].startswith("conformance_") else ""
            last = max((int(k[6:]) for k in r if k.startswith("atoms_")), default=0)
            rate += (f", ground atoms {r['atoms_10']} at 10 actions, {r[f'atoms_{last}']} at {last}, slope {r['slope']}"
                     " a step" if "slope" in r else "")
            rate += f", {r['choices']} solver choices" if "choices" in r else ""
            rate += f", {r['actions']} actions" if "actions" in r and "slope" not in r else ""
            goal = f" [target {r['target']}: {'met' if r['met'] else 'not met'}]" if "target" in r else ""
            print(f"{r['name']}: median {r['median_ms']} ms{extra}{rate}{goal}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
