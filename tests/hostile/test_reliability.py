"""Reliability: no answer depends on another file or client, no request takes a worker away, every wait is
bounded, a killed command leaves nothing running, caches are read as untrusted input, and every malformed value
is a located error. One test (or more) per class of fault; each failed on the main of 2026-11-30."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from conftest import ROOT
from dev.fuzz import alive, descendants
from pyengine.core.errors import InputError
from pyengine.core.yamlio import load_file
from pyengine.run.bulk import answer_chunks, check_files
from pyengine.web.app import Settings, create_app
from tests.paths import DATA

SCENARIOS = ROOT / "tests" / "scenarios"
STING = ROOT / "examples" / "judge_second_sting.yaml"
# Files that define the same hypothetical card id with other card text (filters, abilities) than another file.
SAME_ID = [(SCENARIOS / "lotr" / "filter_by_type.yaml", SCENARIOS / "lotr" / "filter_same_id.yaml"),
           (SCENARIOS / "marvel" / "card_text.yaml", SCENARIOS / "marvel" / "card_text_same_id.yaml")]


def _hypothetical_cards() -> dict[Path, set[tuple[str, str]]]:
    """The repository's scenario files that define hypothetical cards (outside imported catalogs): their ids."""
    found = {}
    for path in sorted(SCENARIOS.rglob("*.yaml")) + sorted((ROOT / "examples").glob("*.yaml")):
        data = load_file(path, marks=False)
        if isinstance(data, dict) and data.get("cards") and "catalog" not in data:
            found[path] = {(data["game"], str(c["id"])) for c in data["cards"]}
    return found


def _answers(result: object) -> str:
    return json.dumps(result.to_dict(), sort_keys=True)  # type: ignore[attr-defined]


# -- 1. no answer depends on another file -----------------------------------------------------------------------

def test_a_file_checked_after_another_gets_its_own_answers() -> None:
    """Every ordered pair of the repository's files that define the same hypothetical card id, answered in one
    batch in this process (whose card caches every earlier pair has filled), equals each file alone; so do all
    the files that define hypothetical cards, in one batch in either order. Files with no card id in common
    share no cached card, so the pairs that can talk to each other are exactly these."""
    cards = _hypothetical_cards()
    alone = {path: _answers(check_files([(str(path), None, None, None)])[0]) for path in cards}
    by_card: dict[tuple[str, str], list[Path]] = defaultdict(list)
    for path, ids in cards.items():
        for card in ids:
            by_card[card].append(path)
    pairs = {(a, b) for paths in by_card.values() for a, b in itertools.permutations(paths, 2)}
    assert {p for pair in SAME_ID for p in itertools.permutations(pair)} <= pairs
    for first, second in sorted(pairs):
        results = check_files([(str(first), None, None, None), (str(second), None, None, None)])
        assert [_answers(r) for r in results] == [alone[first], alone[second]], (first, second)
    for order in (sorted(cards), sorted(cards, reverse=True)):
        results = check_files([(str(p), None, None, None) for p in order])
        assert [_answers(r) for r in results] == [alone[p] for p in order]


@pytest.mark.parametrize("pair", SAME_ID, ids=lambda pair: pair[0].parent.name)
def test_check_of_two_files_with_one_card_id_through_jobs_and_the_server(cli, pair: tuple[Path, Path]) -> None:
    first, second = (str(p) for p in pair)
    for jobs in ("1", "2"):
        code, out, _ = cli("check", second, first, "--jobs", jobs, "--json")
        assert code == 0 and json.loads(out)["failed"] == 0
    with TestClient(create_app(Settings(workers=1))) as client:
        for path in (second, first, second):
            reply = client.post("/api/answer", json={"scenario": Path(path).read_text(encoding="utf-8")}).json()
            assert all(q["passed"] for q in reply["questions"]), (path, reply)


# -- 2. no request takes a worker away ----------------------------------------------------------------------------

def test_facts_requests_give_their_workers_back() -> None:
    table = {"scenario": STING.read_text(encoding="utf-8")}
    with TestClient(create_app(Settings(workers=2))) as client:
        for _ in range(4):
            response = client.post("/api/facts", json=table)
            assert response.status_code == 200 and 'player("alice").' in response.json()["facts"]
        for _ in range(3):
            started = time.monotonic()
            assert client.post("/api/answer", json=table).status_code == 200
            assert time.monotonic() - started < 1.0


def test_a_reply_that_cannot_be_read_back_retires_its_worker() -> None:
    """A worker whose reply cannot be unpickled gives a one-line 500 and its place goes back to the pool."""
    import asyncio

    from pyengine.run.runner import Failure, WorkerPool

    async def scenario() -> list[object]:
        pool = WorkerPool(_unreadable_reply, 1, 10.0, 512, [])
        pool.start()
        try:
            return [await pool.call(n, 5.0) for n in (1, 2, 3)]
        finally:
            pool.close()

    replies = asyncio.run(scenario())
    assert all(isinstance(r, Failure) and r.message.startswith("internal error") for r in replies)


class _Unreadable(str):
    def __new__(cls, value: str, other: str) -> _Unreadable:
        return super().__new__(cls, value + other)


def _unreadable_reply(job: object) -> object:
    return _Unreadable("a", "b")  # pickles, and cannot be unpickled (its __new__ needs two arguments)


def test_a_worker_that_died_idle_is_replaced_before_the_next_request() -> None:
    table = {"scenario": STING.read_text(encoding="utf-8")}
    before = _server_workers()
    with TestClient(create_app(Settings(workers=1))) as client:
        assert client.post("/api/answer", json=table).status_code == 200
        [worker] = _server_workers() - before
        os.kill(worker, signal.SIGKILL)
        time.sleep(0.2)
        assert client.post("/api/answer", json=table).status_code == 200
        assert len(_server_workers() - before) == 1


# -- 3. every wait is bounded -------------------------------------------------------------------------------------

def test_slow_and_normal_requests_from_many_clients_are_each_answered_or_refused_in_time() -> None:
    """50 slow requests (searches that run into their bound) and 200 normal ones from 20 clients on two
    workers: every normal request is answered within its deadline (the wait bound plus the work bound) or
    refused with a 503 within the wait bound; none waits without bound."""
    settings = Settings(workers=2, solve_seconds=5.0, search_seconds=1.0, wait_seconds=2.0, max_waiting=30)
    normal = {"scenario": STING.read_text(encoding="utf-8")}
    slow = {"game": "lotr", "compare": ["default", "wiki"], "max_cards": 5}
    deadline = settings.wait_seconds + settings.solve_seconds + 1.0
    requests = [("slow", n) for n in range(50)] + [("normal", n) for n in range(200)]
    requests.sort(key=lambda r: (r[1] % 5, r[0]))  # the slow ones spread among the normal ones
    with TestClient(create_app(settings)) as client:

        def ask(request: tuple[str, int]) -> tuple[str, int, float]:
            started = time.monotonic()
            if request[0] == "slow":
                status = client.post("/api/edge-cases", json=slow).status_code
            else:
                status = client.post("/api/answer", json=normal).status_code
            return request[0], status, time.monotonic() - started

        with ThreadPoolExecutor(20) as pool:
            outcomes = list(pool.map(ask, requests))
    normal_outcomes = [(status, took) for kind, status, took in outcomes if kind == "normal"]
    assert all(status in (200, 503) for status, _ in normal_outcomes), normal_outcomes
    assert all(took <= deadline for _, took in normal_outcomes), max(t for _, t in normal_outcomes)
    assert any(status == 200 for status, _ in normal_outcomes)
    assert all(status in (422, 503) for kind, status, _ in outcomes if kind == "slow")


def test_a_gathered_plays_job_that_runs_long_costs_the_others_at_most_its_share() -> None:
    import asyncio

    from pyengine.run.runner import Failure
    from pyengine.web.app import GATHER_SECONDS, Gatherer

    class Pool:
        size, seconds, wait_seconds, max_waiting = 1, 30.0, 5.0, 64

        async def call(self, job: dict[str, object], seconds: float | None = None) -> object:
            if job["kind"] == "plays_gathered":
                await asyncio.sleep(seconds or 0)
                return Failure(f"stopped: the work took longer than {seconds} s (--timeout)")
            await asyncio.sleep({0: 30.0, -1: 0.2}.get(job["n"], 0.01))  # type: ignore[call-overload]
            return {"ok": job["n"]}

    async def scenario() -> list[float]:
        gatherer = Gatherer(Pool())  # type: ignore[arg-type]
        gatherer.start()
        started = time.monotonic()

        async def timed(n: int) -> float:
            await gatherer.call({"kind": "plays", "n": n, "limits": {}}, None)
            return time.monotonic() - started

        busy = asyncio.create_task(timed(-1))  # the worker is busy: the next six wait, and are gathered
        await asyncio.sleep(0.05)
        tasks = [busy] + [asyncio.create_task(timed(n)) for n in range(6)]
        done, _ = await asyncio.wait(tasks[2:])
        for task in tasks:
            task.cancel()
        gatherer.stop()
        return [t.result() for t in done]

    taken = asyncio.run(scenario())
    assert len(taken) == 5 and max(taken) < 0.2 + GATHER_SECONDS + 1.0


def test_a_chunk_stopped_at_its_bound_keeps_every_file_within_the_timeout(tmp_path: Path) -> None:
    """A batch of several files has half of --timeout; its files alone get the other half, so a slow file's
    answer (or its stop) comes within --timeout, not twice it."""
    from pyengine.core.limits import limits

    saved = limits.solve_seconds
    limits.solve_seconds = 2.0
    try:
        started = time.monotonic()
        results = answer_chunks(_sleepy, _sleepy_batch, [[0.1, 5.0, 0.1]], 1, None)
        took = time.monotonic() - started
    finally:
        limits.solve_seconds = saved
    assert results[0] == 0.1 and results[2] == 0.1
    assert "longer than 2 s (--timeout; half of it in a batch" in results[1].message
    assert took < 1.0 + 3 * 1.0 + 1.5  # the batch's half, then each file's half at most


def _sleepy(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _sleepy_batch(chunk: list[float]) -> list[float]:
    return [_sleepy(s) for s in chunk]


def _silent_peer() -> Iterator[str]:
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()


def test_dask_on_a_silent_peer_is_a_one_line_error_within_the_timeout() -> None:
    for address in _silent_peer():
        started = time.monotonic()
        done = _pyengine("--timeout", "3", "check", str(SCENARIOS / "lotr"), "--dask", address)
        took = time.monotonic() - started
        assert done.returncode == 2 and "no Dask scheduler answers" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert took < 3 + 5  # the bound, and the command's own start


def test_dask_on_a_cluster_whose_only_worker_dies_is_a_one_line_error_within_the_timeout() -> None:
    import distributed

    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=":0") as cluster:
        env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address,
                                   "--no-nanny", "--nthreads", "1", "--no-dashboard"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            client = distributed.Client(cluster.scheduler_address)
            client.wait_for_workers(1, timeout=30)
            command = subprocess.Popen([sys.executable, "-m", "pyengine", "--timeout", "4", "check",
                                        str(SCENARIOS), "--dask", cluster.scheduler_address],
                                       cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            deadline = time.monotonic() + 30
            while not any(client.processing().values()) and time.monotonic() < deadline:  # a chunk is running
                time.sleep(0.05)
            client.close()
            worker.kill()
            killed = time.monotonic()
            _, err = command.communicate(timeout=30)
            assert command.returncode == 2 and "has had no worker" in err, err
            assert len(err.strip().splitlines()) == 1
            assert time.monotonic() - killed < 4  # half the bound, and the cluster's report of its workers (2 s)
        finally:
            worker.kill()
            worker.wait()


# -- 4. memory ------------------------------------------------------------------------------------------------

def test_a_small_text_that_stands_for_a_huge_table_is_refused_in_the_worker() -> None:
    """YAML aliases let a small text stand for a large table: its reply is refused in the worker, past the
    server's reply bound (here lowered to 50 kB), and the server goes on."""
    text = "game: lotr\ntitle: x\nplayers: {alice: {}}\ncites: [&p p3" + ", *p" * 20_000 + "]\nquestions: []\n"
    with TestClient(create_app(Settings(workers=1, max_reply_bytes=50_000))) as client:
        response = client.post("/api/parse", json={"yaml": text})
        assert response.status_code == 400 and "over the limit of 50,000" in response.json()["error"]
        assert len(response.content) < 10_000
        assert client.post("/api/answer", json={"scenario": STING.read_text(encoding="utf-8")}).status_code == 200


# -- 5. a killed command leaves nothing running -----------------------------------------------------------------

def _server_workers() -> set[int]:
    """The worker processes of this process's WorkerPools: the children of its fork server."""
    def parent(pid: int) -> int:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])

    def cmdline(pid: int) -> str:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")

    found = set()
    for pid in alive(descendants(os.getpid())):
        try:
            if "forkserver" in cmdline(pid) and "forkserver" in cmdline(parent(pid)):
                found.add(pid)
        except OSError:
            continue
    return found


@pytest.mark.parametrize("after", [0.2, 1.5])
def test_a_killed_check_leaves_no_worker(after: float, tmp_path: Path) -> None:
    import yaml

    from pyengine.games.dfm import playouts

    game = yaml.safe_dump(playouts.written_game())  # a whole game: the check is still running when it is killed
    for copy in range(8):
        Path(tmp_path, f"game_{copy}.yaml").write_text(game, encoding="utf-8")
    command = subprocess.Popen([sys.executable, "-m", "pyengine", "check", str(SCENARIOS / "dfm"),
                                str(SCENARIOS / "lotr"), str(tmp_path), "--jobs", "2"], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while not descendants(command.pid) and time.monotonic() < deadline:  # the workers have started
        time.sleep(0.05)
    time.sleep(after)
    workers = descendants(command.pid)
    command.kill()
    command.wait()
    time.sleep(1.0)
    assert workers and not alive(workers), [Path(f"/proc/{p}/cmdline").read_bytes() for p in alive(workers)]


def test_a_killed_import_leaves_no_worker_and_the_store_as_before(tmp_path: Path) -> None:
    from pyengine.core import store

    data = DATA / "gemp-lotr"
    if not data.is_dir():
        pytest.skip("the GEMP card database is not on this machine")
    env = {**os.environ, store.STORE_ENV: str(tmp_path / "catalog.sqlite")}
    killed_running = 0
    for after in (0.5, 1.0):  # before the import commits (it takes about 1.6 s, started, on a quiet machine)
        command = subprocess.Popen([sys.executable, "-m", "pyengine", "import", "gemp", str(data)], cwd=ROOT,
                                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(after)
        workers = descendants(command.pid)
        running = command.poll() is None
        command.kill()
        command.wait()
        time.sleep(1.0)
        assert not alive(workers)
        if running:  # an import killed before it ended leaves the store as it was
            killed_running += 1
            assert store.sources(tmp_path / "catalog.sqlite") == {}
    assert killed_running > 0


# -- 6. the declarations cache is untrusted input ----------------------------------------------------------------

def _fresh_kb(cache: Path, game: str = "lotr") -> subprocess.CompletedProcess[str]:
    return _pyengine("readings", "--game", game, "--json", env={"PYENGINE_CACHE": str(cache)}, timeout=20)


def test_an_edited_cache_is_not_used(tmp_path: Path) -> None:
    assert _fresh_kb(tmp_path).returncode == 0
    [cached] = tmp_path.glob("kb-lotr-*.json")
    text = cached.read_text(encoding="utf-8")
    edited = text.replace('"default": "own"', '"default": "any_player"')
    assert edited != text
    cached.write_text(edited, encoding="utf-8")
    readings = json.loads(_fresh_kb(tmp_path).stdout)["readings"]
    [scope] = [r for r in readings if r["reading"] == "lotr_dead_pile_scope"]
    assert scope["default"] == "own"
    cached.write_text("{not json", encoding="utf-8")
    assert _fresh_kb(tmp_path).returncode == 0


def test_a_pipe_at_the_cache_path_is_never_opened(tmp_path: Path) -> None:
    assert _fresh_kb(tmp_path).returncode == 0
    [cached] = tmp_path.glob("kb-lotr-*.json")
    cached.unlink()
    os.mkfifo(cached)
    done = _fresh_kb(tmp_path)  # a read of the pipe would wait for a writer past the timeout
    assert done.returncode == 0


# -- 7. defects instead of errors ----------------------------------------------------------------------------

@pytest.mark.parametrize("table", [
    {"game": "lotr", "title": "\ud800", "players": {"alice": {}}, "questions": []},
    {"game": "lotr", "players": {"al\ud800ice": {}}, "questions": []},
    {"game": "lotr", "players": {"alice": {"hand": [{"id": "\udfff", "card": "Sting"}]}}, "questions": []},
    {"game": "lotr", "players": {"alice": {"hand": [{"id": "a\u0000b", "card": "Sting"}]}}, "questions": []},
], ids=["title", "player", "instance", "nul"])
def test_a_lone_surrogate_or_nul_anywhere_is_a_400_naming_its_field(table: dict[str, object]) -> None:
    with TestClient(create_app(Settings(workers=1))) as client:
        body = json.dumps({"scenario": table}).encode()  # json.dumps writes lone surrogates as \\ud800 escapes
        response = client.post("/api/answer", content=body, headers={"content-type": "application/json"})
        assert response.status_code == 400, response.text
        assert "surrogate" in response.json()["error"] or "NUL" in response.json()["error"]


def test_a_question_that_is_not_a_name_is_a_400() -> None:
    with TestClient(create_app(Settings(workers=1))) as client:
        response = client.post("/api/answer", json={"scenario": STING.read_text(encoding="utf-8"), "question": 5})
        assert response.status_code == 400 and "question" in response.json()["error"]


def test_a_tag_given_text_it_cannot_hold_is_a_located_error(cli, tmp_path: Path) -> None:
    bad = tmp_path / "maybe.yaml"
    bad.write_text("game: lotr\ntitle: !!bool maybe\nquestions: []\n", encoding="utf-8")
    code, _, err = cli("check", str(bad))
    assert code == 2 and str(bad) in err and "internal error" not in err and "tag can hold" in err
    with TestClient(create_app(Settings(workers=1))) as client:
        response = client.post("/api/answer", json={"scenario": bad.read_text(encoding="utf-8")})
        assert response.status_code == 400


def test_a_deck_over_the_number_bound_names_its_file_and_field(cli, tmp_path: Path) -> None:
    deck = tmp_path / "huge.txt"
    deck.write_text("Ring-bearer: Frodo, Son of Drogo\n99999 Sting\n99999 Sting\n", encoding="utf-8")
    code, _, err = cli("deck", str(deck), "--game", "lotr")
    assert code == 2 and f"{deck}:2:1: cards: the list holds 199,998 cards" in err


@pytest.mark.parametrize("source", ["gemp", "marvelsdb"])
def test_a_nul_in_an_imported_title_names_its_file_and_field(cli, tmp_path: Path, monkeypatch, source: str) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "store.sqlite"))
    if source == "gemp":
        path = tmp_path / "cards" / "official" / "set01" / "cards.hjson"
        data: object = {"1_1": {"title": "Bad\u0000Name", "unique": True, "type": "Companion",
                                "side": "Free Peoples", "cardInfo": {"collInfo": "1C1"}}}
        field = "1_1.title"
    else:
        path = tmp_path / "cards" / "pack" / "core.json"
        data = [{"code": "01001a", "name": "Spi\u0000der", "type_code": "hero", "is_unique": True}]
        field = "[0].name"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = cli("import", source, str(tmp_path / "cards"))
    assert code == 2 and f"{path}: {field}: a text holds a NUL character" in err


def test_reaching_the_memory_ceiling_in_a_batch_is_the_bound_not_a_defect() -> None:
    from pyengine.run.runner import failure_message

    assert failure_message(MemoryError("bad_alloc"), 256) == \
        "stopped: over the memory ceiling of 256 MB (--memory)"


# -- 8. silent data loss -----------------------------------------------------------------------------------------

def test_a_repeated_marvelcdb_code_is_refused_naming_both_files(cli, tmp_path: Path) -> None:
    packs = tmp_path / "pack"
    packs.mkdir()
    card = {"code": "01001a", "name": "Spider-Man", "type_code": "hero", "is_unique": True}
    (packs / "a.json").write_text(json.dumps([card]), encoding="utf-8")
    (packs / "b.json").write_text(json.dumps([{**card, "name": "Peter Parker"}]), encoding="utf-8")
    code, _, err = cli("import", "marvelsdb", str(tmp_path))
    assert code == 2 and "01001a appears twice" in err and "a.json" in err and "b.json" in err


# -- 9. smaller -----------------------------------------------------------------------------------------------

def test_an_unknown_catalog_is_named_from_the_games_list() -> None:
    with TestClient(create_app(Settings(workers=1))) as client:
        response = client.get("/api/cards?game=lotr&q=sting&catalog=nowhere")
        assert response.status_code == 400
        assert "sqlite" not in response.text and "/" not in response.json()["error"].split("expected")[0]


def test_a_clients_jobs_and_limits_fields_never_reach_the_worker() -> None:
    from pyengine.run.runner import RECYCLE_AFTER

    table = {"scenario": STING.read_text(encoding="utf-8"), "jobs": list(range(RECYCLE_AFTER)),
             "limits": {"max_instances": 10**9, "solve_seconds": 10**9}}
    before = _server_workers()
    with TestClient(create_app(Settings(workers=1, max_instances=5))) as client:
        response = client.post("/api/answer", json=table)
        assert response.status_code == 400 and "instances" in response.json()["error"]  # the server's bound held
        workers = _server_workers() - before
        assert client.post("/api/answer", json=table).status_code == 400
        assert _server_workers() - before == workers  # the same worker: not recycled after RECYCLE_AFTER units


def test_the_quick_and_the_marked_yaml_readings_accept_the_same_files(tmp_path: Path) -> None:
    from pyengine.core.yamlio import MAX_NODES, load_plain, load_text

    many = "[" + ", ".join(["1"] * (MAX_NODES + 10)) + "]"
    for reader in (load_plain, load_text):
        with pytest.raises(InputError, match="more than 200,000 values"):
            reader(many, "many.yaml")


def _pyengine(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pyengine", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=timeout, check=False)


# -- 6. a command's one unit in its own process ------------------------------------------------------------------

def test_one_unit_in_the_commands_process_keeps_its_bounds() -> None:
    """run_here (a command's one file, bounded without a worker): its value; a unit past its deadline or over the
    memory ceiling is a Failure naming the bound, and the process's own memory limit is as it was after."""
    import resource

    from pyengine.run.runner import Failure, run_here

    before = resource.getrlimit(resource.RLIMIT_AS)
    assert run_here(lambda job: job * 2, 21, 5.0, 256) == 42
    slow = run_here(lambda _: time.sleep(2), None, 0.1, 256)
    assert isinstance(slow, Failure) and slow.message == "stopped: the work took longer than 0.1 s (--timeout)"
    hungry = run_here(lambda _: bytearray(600 * 1024 * 1024), None, 5.0, 128)
    assert isinstance(hungry, Failure) and "memory ceiling of 128 MB (--memory)" in hungry.message
    assert isinstance(run_here(lambda _: 1 / 0, None, 5.0, 256), Failure)
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_unit_run_here_counts_as_running_until_its_thread_ends() -> None:
    """A unit stopped at its deadline still runs in its thread, and the command's process must then end with
    os._exit (exit's destructors would free clingo's memory under it): run_here says so until the thread ends,
    whatever the thread's own is_alive() says (Python 3.11 marks a thread stopped when Ctrl+C interrupts a join)."""
    import threading

    from pyengine.run.runner import Failure, run_here, unit_running_here

    release = threading.Event()
    stopped = run_here(lambda _: release.wait(10), None, 0.1, 256)
    assert isinstance(stopped, Failure) and unit_running_here()
    release.set()
    ends = time.monotonic() + 10  # another test's unit may still be ending in this process
    while unit_running_here() and time.monotonic() < ends:
        time.sleep(0.02)
    assert not unit_running_here()
    assert run_here(lambda job: job, 7, 5.0, 256) == 7 and not unit_running_here()


def test_a_command_whose_one_unit_overran_exits_with_the_bound_at_once() -> None:
    """The command line checks one file, or runs a whole command, in its own process; stopped at --timeout while
    clingo still grounds in its thread, it reports the bound and ends at once (exit 3), without a crash of the
    grounding thread."""
    started = time.monotonic()
    done = _pyengine("check", str(SCENARIOS / "dfm" / "plays.yaml"), "--timeout", "0.05")
    assert done.returncode == 3, done.stderr
    assert "longer than 0.05 s (--timeout)" in done.stderr and "FATAL" not in done.stderr
    assert time.monotonic() - started < 10
    passed = _pyengine("check", str(STING))
    assert passed.returncode == 0 and "passed, 0 failed" in passed.stdout
    # A whole command (explain) is one unit in its own process too; its report is not swallowed by its output.
    explained = _pyengine("--timeout", "0.05", "explain", str(SCENARIOS / "dfm" / "plays.yaml"))
    assert explained.returncode == 3 and "error: explain: stopped: the work took longer than 0.05 s" in explained.stderr


def test_work_whose_client_went_away_is_stopped_and_its_worker_retired(tmp_path: Path) -> None:
    """A request whose client disconnects before its answer (a page closed while its every-reading matrix is
    computed) is cancelled: the worker running it is retired and replaced, so the next request does not wait
    behind it, and the server goes on answering."""
    import socket

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "pyengine", "serve", "--port", str(port), "--workers", "1"],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/api/documents", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        before = set(alive(descendants(server.pid)))
        duel = (ROOT / "examples" / "dfm_warg_and_elrond.yaml").read_text(encoding="utf-8")
        body = json.dumps({"scenario": duel, "name": "left"}).encode()
        with socket.create_connection(("127.0.0.1", port)) as client:  # every reading of a Duel table: about 1 s
            client.sendall(b"POST /api/compare HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                           b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            time.sleep(0.2)
        deadline = time.monotonic() + 10
        while not before - set(alive(descendants(server.pid))):
            assert time.monotonic() < deadline, "the abandoned request's worker was not retired"
            time.sleep(0.05)
        answered = httpx.post(f"{url}/api/parse", json={"yaml": duel}, timeout=30)
        assert answered.status_code == 200 and answered.json()["scenario"]["game"] == "dfm"
    finally:
        server.terminate()
        server.wait(10)
