"""The HTTP JSON API of `pyengine serve`: its JSON equals the command line's --json, bad input is a 4xx with the
command line's one-line messages, every request is bounded (body size, solve time), nothing a request names is
read as a file, and the server answers right under concurrent load."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import jsonschema
import pytest
from starlette.testclient import TestClient

from conftest import ROOT
from pyengine import api
from pyengine.schema import schema
from pyengine.web.app import Settings, create_app
from tests.paths import DOCS, GEMP_CARDS, MARVELSDB

EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
STING = ROOT / "examples" / "judge_second_sting.yaml"
BAD = ROOT / "tests" / "bad_input"


def _settings(**changes: object) -> Settings:
    return Settings(docs=DOCS if DOCS.is_dir() else None, scenarios=[ROOT / "examples"], workers=2, **changes)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(_settings())) as test_client:
        yield test_client


def _table(path: Path) -> dict[str, object]:
    return {"scenario": path.read_text(encoding="utf-8"), "name": str(path)}


def _cli_json(*args: str) -> object:
    done = subprocess.run([sys.executable, "-m", "pyengine", *args, "--json"], capture_output=True, text=True,
                          cwd=ROOT, check=False)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_answer_equals_explain_json_for_every_example(client: TestClient, path: Path) -> None:
    response = client.post("/api/answer", json=_table(path))
    assert response.status_code == 200
    assert response.json() == api.explain(path).to_dict()
    jsonschema.Draft202012Validator(schema("answer")).validate(response.json())


def test_the_api_json_equals_the_command_line(client: TestClient) -> None:
    relative = str(STING.relative_to(ROOT))
    table = {"scenario": STING.read_text(encoding="utf-8"), "name": relative}
    assert client.post("/api/answer", json=table).json() == _cli_json("explain", relative)
    assert client.post("/api/plays", json={**table, "player": "alice"}).json() == \
        _cli_json("plays", relative, "--player", "alice")
    assert client.post("/api/flip", json={**table, "question": "alice-second-sting"}).json() == \
        _cli_json("flip", relative, "--question", "alice-second-sting")
    assert client.get("/api/readings").json() == _cli_json("readings")
    assert client.get("/api/rules?game=dfm").json() == _cli_json("rules", "--game", "dfm")


def test_plays_of_the_judge_table(client: TestClient) -> None:
    result = client.post("/api/plays", json={**_table(STING), "player": "alice"}).json()
    [question] = result["questions"]
    verdicts = {p["play"]: (p["verdict"], p["rules"]) for p in question["plays"]}
    assert verdicts == {"alice-sting-2": ("illegal", ["lotr_unique_blocks_unique"]),
                        "alice-frodo-2": ("illegal", ["lotr_unique_blocks_unique"]),
                        "alice-gandalf": ("legal", [])}


def test_a_scenario_as_json_data_and_readings_as_arguments(client: TestClient) -> None:
    table = {"game": "lotr", "players": {"alice": {"play": [{"id": "mumak", "card": "15R86"}],
                                                   "hand": [{"id": "mumak-2", "card": "7R152"}]}},
             "questions": [{"id": "q", "ask": "play", "instance": "mumak-2"}]}
    plain = client.post("/api/answer", json={"scenario": table}).json()["questions"][0]
    other = client.post("/api/answer", json={"scenario": table,
                                             "readings": {"lotr_mumak_direction": "nonunique_exempt"}}).json()
    assert plain["readings"]["lotr_mumak_direction"] == "unique_blocks_all"
    assert other["questions"][0]["readings"]["lotr_mumak_direction"] == "nonunique_exempt"
    assert plain["got"] != other["questions"][0]["got"]


def test_compare_puts_every_reading_beside_the_default(client: TestClient) -> None:
    path = ROOT / "examples" / "reading_dead_pile_scope.yaml"
    result = client.post("/api/compare", json=_table(path)).json()
    labels = [s["label"] for s in result["sides"]]
    assert labels[0] == "default" and "lotr_dead_pile_scope=any_player" in labels
    assert "profile comprehensive_rules" in labels
    column = labels.index("lotr_dead_pile_scope=any_player")
    changed = [r for r in result["rows"] if r["verdicts"][column] != r["verdicts"][0]]
    assert changed and all(r["differs"] for r in changed)
    assert all(not r["differs"] for r in result["rows"] if len(set(r["verdicts"])) == 1)


def test_the_board_of_a_duel_table_at_a_moment_with_its_picture(client: TestClient) -> None:
    duel = ROOT / "examples" / "dfm_warg_and_elrond.yaml"
    found = client.post("/api/board", json={**_table(duel), "moment": 1}).json()
    jsonschema.Draft202012Validator(schema("board")).validate(found["board"])
    [moment] = found["board"]["moments"]
    assert moment["moment"] == 1 and moment["tokens"]["spent"] == 1
    assert [s["outcome"] for s in found["steps"]] == [None, "done", "done", "refused"]
    assert found["svg"].startswith("<svg") and "After step 1" in found["svg"]
    assert set(found["board"]["assumption_words"]) == set(moment["assumptions"])
    allowed = client.post("/api/board", json={**_table(duel), "readings": {"dfm_warg_revealed_exit": "allowed"}}).json()
    assert allowed["steps"][3]["outcome"] == "done" and allowed["board"]["moments"][0]["moment"] == 3
    late = client.post("/api/board", json={**_table(duel), "moment": 4})
    assert late.status_code == 400 and "no moment 4" in late.json()["error"]
    card_game = client.post("/api/board", json=_table(STING))
    assert card_game.status_code == 400 and "a lotr board is not drawn" in card_game.json()["error"]


# Bad files whose fault belongs to files: a request carries Unicode text, and an empty text is not an empty file.
FILE_ONLY = {"not_utf8.yaml", "empty.yaml"}


@pytest.mark.parametrize("name", sorted(p.name for p in BAD.glob("*.yaml") if p.name not in FILE_ONLY))
def test_bad_input_is_a_400_with_the_command_lines_message(client: TestClient, cli, name: str) -> None:
    path = BAD / name
    code, _, err = cli("check", str(path))
    response = client.post("/api/answer", json={"scenario": path.read_text(encoding="utf-8"), "name": str(path)})
    assert code == 2 and response.status_code == 400
    assert f"error: {response.json()['error']}" == err.strip().splitlines()[0]


def test_an_empty_scenario_text_is_a_400(client: TestClient) -> None:
    response = client.post("/api/answer", json={"scenario": "", "name": "empty"})
    assert response.status_code == 400
    assert response.json()["error"] == "empty: got nothing; expected a mapping of fields"


def test_a_misspelt_card_gets_a_suggestion(client: TestClient) -> None:
    table = {"game": "lotr", "players": {"alice": {"hand": [{"id": "s", "card": "Stign"}]}},
             "questions": [{"id": "q", "ask": "play", "instance": "s"}]}
    error = client.post("/api/answer", json={"scenario": table}).json()["error"]
    assert "unknown card 'Stign'" in error and "did you mean 'Sting'" in error




def _search(client: TestClient, game: str, catalog: str, query: str, limit: int = 12) -> dict:
    response = client.get("/api/cards", params={"game": game, "catalog": catalog, "q": query, "limit": limit})
    assert response.status_code == 200
    return response.json()


@pytest.mark.skipif(not GEMP_CARDS.is_dir(), reason=f"GEMP_CARDS card data not found at {GEMP_CARDS}")
def test_card_search_ranks_by_match_on_the_gemp_pool(client: TestClient) -> None:
    sting = _search(client, "lotr", "gemp", "Sting")
    # The exact title first, the official card before unofficial ones; labels are distinct.
    assert sting["cards"][0]["id"] == "1_313"
    labels = [c["label"] for c in sting["cards"]]
    assert len(labels) == len(set(labels))
    # Words in any order.
    assert _search(client, "lotr", "gemp", "Aragorn Ranger")["cards"][0]["label"].startswith(
        "•Aragorn, Ranger of the North")
    # A title shared by many versions: The Grey Wizard among the first, and how many more there are.
    gandalf = _search(client, "lotr", "gemp", "Gandalf", limit=5)
    assert any("The Grey Wizard" in c["label"] for c in gandalf["cards"]) and gandalf["more"] > 0
    # No match: the closest names as suggestions.
    none = _search(client, "lotr", "gemp", "Stign")
    assert none["cards"] == [] and "Sting" in none["suggestions"]


@pytest.mark.skipif(not (MARVELSDB / "pack").is_dir(), reason=f"MarvelCDB card data not found at {MARVELSDB}")
def test_card_search_finds_a_german_name(client: TestClient) -> None:
    [found] = _search(client, "marvel", "marvelsdb", "Witwenbiss")["cards"]
    assert found["id"] == "08010" and "Witwenbiss" in found["aliases"]


def test_the_rulebook_says_which_scenario_folders_it_read_and_when_it_has_none(client: TestClient) -> None:
    page = client.get("/rulebook/lotr_unique").text
    assert "Scenarios read from examples" in page and "of their files cite this document" in page
    assert str(ROOT) not in page  # issue 47 item 6: no path of the server's disk, the folder's name and below
    assert '<div class="file">examples/' in page
    with TestClient(create_app(Settings(docs=None, scenarios=[], workers=1))) as bare:
        assert "No scenario folder was given" in bare.get("/rulebook/lotr_unique").text


def test_an_unknown_page_is_an_html_page_and_an_unknown_endpoint_json(client: TestClient) -> None:
    page = client.get("/no/such/page", headers={"Accept": "text/html"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "Not found" in page.text and "/no/such/page" in page.text
    endpoint = client.get("/api/no-such-endpoint", headers={"Accept": "text/html"})
    assert endpoint.status_code == 404 and "error" in endpoint.json()


def test_the_api_documentation_is_swagger_ui_served_locally(client: TestClient) -> None:
    page = client.get("/api/docs")
    assert page.status_code == 200 and "/api/docs/static/swagger-ui-bundle.js" in page.text
    assert "http://" not in page.text.split("<main>")[1] and "https://" not in page.text.split("<main>")[1]
    script = client.get("/api/docs/static/swagger-ui-bundle.js")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.text


DEEP = b'{"scenario": {"game": "lotr", "title": ' + b'{"a": ' * 500 + b"1" + b"}" * 500 + b"}}"


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b"{\"scenario\": 3}", b"[" * 100_000])
def test_malformed_requests_are_400(client: TestClient, body: bytes) -> None:
    response = client.post("/api/answer", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and response.json()["error"]


def test_data_nested_too_deeply_is_refused_before_any_work(client: TestClient) -> None:
    response = client.post("/api/export", content=DEEP, headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and "nested more than 64 levels" in response.json()["error"]


def test_a_request_body_over_the_limit_is_413(client: TestClient) -> None:
    response = client.post("/api/answer", content=b"{" + b" " * 1_100_000 + b"}",
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and "larger than" in response.json()["error"]


def test_too_many_instances_are_refused() -> None:
    table = {"game": "lotr", "players": {"alice": {"hand": [{"id": f"c{n}", "card": "1P364"} for n in range(12)]}},
             "questions": [{"id": "q", "ask": "play", "instance": "c0"}]}
    with TestClient(create_app(_settings(max_instances=10))) as small:
        response = small.post("/api/answer", json={"scenario": table})
    assert response.status_code == 400 and "instances" in response.json()["error"]


def test_work_past_the_timeout_is_stopped_and_the_server_goes_on() -> None:
    with TestClient(create_app(_settings(search_seconds=0.05))) as hurried:
        response = hurried.post("/api/edge-cases", json={"game": "lotr", "compare": ["default", "wiki"],
                                                         "max_cards": 4})
        assert response.status_code == 422 and "longer than 0.05 s" in response.json()["error"]
        again = hurried.post("/api/answer", json=_table(STING))
        assert again.status_code == 200 and again.json()["questions"][0]["got"] == "illegal"


def test_strings_stay_data(client: TestClient) -> None:
    hostile = 'x"). :- a. #include "/etc/passwd". %\n\\'
    table = {"game": "lotr", "title": hostile,
             "players": {hostile: {"hand": [{"id": hostile, "card": "Sting"}]}},
             "questions": [{"id": hostile, "ask": "play", "instance": hostile, "expect": "legal"}]}
    result = client.post("/api/answer", json={"scenario": table, "name": hostile}).json()
    assert result["title"] == hostile and result["questions"][0]["got"] == "legal"


def test_no_request_reads_a_file(client: TestClient) -> None:
    for path in ("/api/documents/..%2F..%2F..%2Fetc%2Fpasswd", "/api/documents/%2Fetc%2Fpasswd",
                 "/rulebook/..%2Fsecret", "/static/..%2F..%2Fapp.py"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "root:" not in response.text and "def create_app" not in response.text
    response = client.post("/api/answer", json={"scenario": "/etc/passwd"})
    assert response.status_code == 400
    catalog = client.post("/api/answer", json={"scenario": {"game": "lotr", "catalog": "/etc/passwd",
                                                            "questions": []}})
    assert catalog.status_code == 400


def test_card_completion(client: TestClient) -> None:
    def labels(query: str, game: str = "lotr") -> list[str]:
        return [c["label"] for c in client.get(f"/api/cards?game={game}&q={query}").json()["cards"]]

    assert "\u2022Sting (1R313)" in labels("sti")
    assert labels("1R313") == ["\u2022Sting (1R313)"]
    assert any("Frodo" in label for label in labels("son of drogo"))
    assert labels("anzug", "marvel") == ["\u2022SP//dr Suit (31001a)"]
    assert client.get("/api/cards?game=chess&q=x").status_code == 400
    catalogs = client.get("/api/catalogs").json()["catalogs"]
    if "gemp" in catalogs["lotr"]:
        assert "\u2022Sting, Weapon of Heritage (11R173)" in labels("sting&catalog=gemp")


def test_documents_and_the_rulebook(client: TestClient) -> None:
    documents = client.get("/api/documents").json()["documents"]
    assert {d["document"] for d in documents} == {"lotr_unique", "marvel_unique", "dfm_allies", "dfm_base"}
    view = client.get("/api/documents/lotr_unique").json()
    p3 = next(p for p in view["paragraphs"] if p["id"] == "p3")
    assert "lotr_unique_blocks_unique" in p3["states"]
    assert "lotr_dead_pile_scope=any_player" in p3["readings"]
    assert any(s.endswith("judge_second_sting.yaml") for s in p3["scenarios"])
    if DOCS.is_dir():
        assert p3["text"] and any("p3" in f["paragraphs"] for f in view["findings"])
        # The article's line break cuts the sentence p3 ends: an answer quotes it as cut (issue 65 item 5).
        assert p3["text"].startswith("or the Balrog") and p3["quote"] == "\u2026 " + p3["text"]
    page = client.get("/rulebook/lotr_unique")
    assert page.status_code == 200 and 'id="p3"' in page.text and "lotr_unique_blocks_unique" in page.text


def test_the_duel_base_game_notes_are_a_document_its_answers_quote(client: TestClient) -> None:
    """An answer's reason names a paragraph of the base-game notes (dfm_base), which the explorer quotes from the
    notes beside the documents folder, as it quotes a rulebook's."""
    [notes] = [d for d in client.get("/api/documents").json()["documents"] if d["document"] == "dfm_base"]
    assert notes["game"] == "dfm" and notes["file"] == "../notes/dfm-base-game.md"
    response = client.post("/api/answer", json=_table(ROOT / "tests" / "scenarios" / "dfm" / "cards_played.yaml"))
    cost = [r for q in response.json()["questions"] for r in q["reasons"] if r["rule"] == "dfm_card_cost"]
    assert cost and cost[0]["sources"] == [{"document": "dfm_base", "paragraph": "p12"},
                                           {"document": "dfm_base", "paragraph": "p15"}]
    view = client.get("/api/documents/dfm_base").json()
    p15 = next(p for p in view["paragraphs"] if p["id"] == "p15")
    assert "dfm_card_cost" in p15["states"] and p15["paraphrase"] and p15["readings"] == []
    if notes["available"]:
        assert p15["text"].startswith("| Turn |") and p15["quote"] == p15["text"] and not p15["drift"]
        assert view["available"] and not [f for f in view["findings"] if f["kind"] == "drift"]
    page = client.get("/rulebook/dfm_base")
    assert page.status_code == 200 and 'id="p15"' in page.text and "dfm_card_cost" in page.text


def test_every_page_is_served(client: TestClient) -> None:
    for path in ("/table", "/answers", "/rulebook", "/disagreements", "/static/explorer.js", "/static/style.css"):
        assert client.get(path).status_code == 200, path
    assert client.get("/").headers.get("location", "/table") == "/table"


def test_the_openapi_description_names_every_endpoint(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    for path in ("/api/answer", "/api/plays", "/api/flip", "/api/cards", "/api/readings", "/api/rules",
                 "/api/documents"):
        assert path in document["paths"]
    answer_schema = document["components"]["schemas"]["answer"]
    jsonschema.Draft202012Validator(answer_schema).validate(client.post("/api/answer", json=_table(STING)).json())


def test_export_and_parse_round_trip(client: TestClient) -> None:
    parsed = client.post("/api/parse", json={"yaml": STING.read_text(encoding="utf-8")}).json()["scenario"]
    exported = client.post("/api/export", json={"scenario": parsed}).json()
    assert exported["errors"] == []
    assert client.post("/api/parse", json={"yaml": exported["yaml"]}).json()["scenario"] == parsed
    broken = client.post("/api/export", json={"scenario": {**parsed, "game": "chess"}}).json()
    assert broken["errors"] and "chess" in broken["errors"][0]


# -- a real server under load ---------------------------------------------------------------------------------

def test_200_requests_at_concurrency_20(explorer: str) -> None:
    expected = {path: api.answer(path).to_dict() for path in EXAMPLES}
    jobs = [EXAMPLES[n % len(EXAMPLES)] for n in range(200)]

    def ask(path: Path) -> bool:
        response = httpx.post(f"{explorer}/api/answer", json=_table(path), timeout=60)
        got = response.json()
        return response.status_code == 200 and [(q["question"], q["got"], q["rules"]) for q in got["questions"]] == \
            [(q["question"], q["got"], q["rules"]) for q in expected[path]["questions"]]

    with ThreadPoolExecutor(20) as pool:
        results = list(pool.map(ask, jobs))
    assert results.count(True) == 200


def test_plays_requests_gathered_under_load_each_get_their_own_answer(explorer: str) -> None:
    """At concurrency 16 on two workers, /api/plays requests are gathered into shared batches: every table
    (LOTR and Marvel; a Duel table's plays take seconds, and are compared in test_batch), also under a profile,
    gets exactly what `api.plays` gives it alone, and a bad table among them gets its own 400."""
    quick = [path for path in EXAMPLES if not path.name.startswith("dfm")]
    tables = [(path, None) for path in quick] + [(quick[0], "gemp")]
    expected = {(path, profile): api.plays(path, profile=profile).to_dict() for path, profile in tables}
    bad = {"scenario": "game: lotr\nplayers: {alice: {hand: [Stingg]}}\n", "name": "bad.yaml"}

    def ask(n: int) -> bool:
        if n % 25 == 7:
            response = httpx.post(f"{explorer}/api/plays", json=bad, timeout=60)
            return response.status_code == 400 and "Stingg" in response.text
        path, profile = tables[n % len(tables)]
        body = {**_table(path), **({"profile": profile} if profile else {})}
        response = httpx.post(f"{explorer}/api/plays", json=body, timeout=60)
        return response.status_code == 200 and response.json() == expected[path, profile]

    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(ask, range(200)))
    assert results.count(True) == 200


def test_a_gatherer_takes_what_waits_while_the_workers_are_busy() -> None:
    import asyncio

    from pyengine.run.runner import Failure
    from pyengine.web.app import Gatherer

    class Pool:
        size, seconds, wait_seconds, max_waiting = 1, 5.0, 5.0, 64

        def __init__(self) -> None:
            self.calls: list[dict[str, object]] = []

        async def call(self, job: dict[str, object], seconds: float | None = None) -> object:
            self.calls.append(job)
            await asyncio.sleep(0.05)
            if job["kind"] == "plays_gathered":
                if any(j["n"] == 3 for j in job["jobs"]):  # type: ignore[attr-defined, index]
                    return Failure("stopped: the work took longer than 5 s (--timeout)")
                return {"ok": json.dumps([{"ok": j["n"]} for j in job["jobs"]])}  # type: ignore[attr-defined, index]
            return {"ok": job["n"]}

    async def scenario() -> tuple[list[object], list[dict[str, object]]]:
        pool = Pool()
        gatherer = Gatherer(pool)  # type: ignore[arg-type]
        gatherer.start()
        replies = []
        for round_ in ([0, 1, 2, 4, 5], [10], [3, 4]):
            replies += await asyncio.gather(*(gatherer.call({"kind": "plays", "n": n, "limits": {}}, None)
                                              for n in round_))
        gatherer.stop()
        return replies, pool.calls

    replies, calls = asyncio.run(scenario())
    assert replies == [{"ok": n} for n in (0, 1, 2, 4, 5, 10, 3, 4)]
    kinds = [(c["kind"], len(c["jobs"]) if "jobs" in c else 1) for c in calls]  # type: ignore[arg-type]
    # Five waiting requests go together; a lone one goes alone; a gathered job that fails (one request overran)
    # is answered again one request at a time.
    assert kinds == [("plays_gathered", 5), ("plays", 1), ("plays_gathered", 2), ("plays", 1), ("plays", 1)]


def test_the_server_binds_loopback_unless_told_otherwise() -> None:
    from pyengine.cli import build_parser

    assert build_parser().parse_args(["serve"]).host == "127.0.0.1"
    assert build_parser().parse_args(["serve", "--host", "0.0.0.0"]).host == "0.0.0.0"


def test_a_worker_grounds_a_table_once_for_every_request_about_it(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    """The jobs of `plays` and every-reading `compare` keep the table they ground, keyed by everything it is made
    of: the same scenario and name ground once, answered as `api.plays` would; another name, another store state,
    or other bounds ground again."""
    from pyengine.core import engine
    from pyengine.core.limits import limits
    from pyengine.web import jobs

    built: list[object] = []
    real = engine.GroundedTable.__init__

    def counted(self: object, scenario: object) -> None:
        built.append(scenario)
        real(self, scenario)  # type: ignore[arg-type]

    monkeypatch.setattr(engine.GroundedTable, "__init__", counted)
    monkeypatch.setattr(jobs, "_TABLES", type(jobs._TABLES)())
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "store.sqlite"))
    text = (ROOT / "examples" / "judge_second_sting.yaml").read_text(encoding="utf-8")
    job = {"scenario": text, "name": "sting.yaml", "player": "alice"}
    first = jobs.plays(job)
    assert jobs.plays({**job, "readings": {"lotr_dead_pile_scope": "any_player"}})["questions"]
    jobs.compare(job)
    assert len(built) == 1
    assert first == api.plays(api.load(text=text, name="sting.yaml"), "alice").to_dict()
    jobs.plays({**job, "name": "other.yaml"})
    assert len(built) == 2
    (tmp_path / "store.sqlite").write_bytes(b"")
    jobs.plays(job)
    assert len(built) == 3
    monkeypatch.setattr(limits, "max_instances", 100)
    jobs.plays(job)
    assert len(built) == 4
    duel = (ROOT / "examples" / "dfm_warg_and_elrond.yaml").read_text(encoding="utf-8")
    jobs.plays({"scenario": duel, "player": "sauron"})
    assert len(built) == 4 and len(jobs._TABLES) == 4  # a Duel table is answered afresh, never kept


def test_the_servers_connections_send_at_once() -> None:
    """Each accepted connection has TCP_NODELAY: without it every request after the first on a kept-alive
    connection waited 40 ms for the client's delayed acknowledgement (benchmarks/README.md, issue 28)."""
    import socket

    from pyengine.cli.commands import _listen

    listening = _listen("127.0.0.1", 0)
    try:
        client = socket.create_connection(listening.getsockname()[:2])
        accepted, _ = listening.accept()
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        accepted.close()
        client.close()
    finally:
        listening.close()


def test_a_json_request_that_repeats_a_key_is_refused_with_its_path(client: TestClient) -> None:
    """The same text as a file is refused by the YAML reader; as a request it was answered with the first of the
    two values dropped (a second Sting became legal)."""
    text = ('{"scenario": {"game": "lotr", "players": {"alice": {"play": [{"id": "sting", "card": "1R313"}]}, '
            '"alice": {"hand": [{"id": "sting-2", "card": "1R313"}]}}, '
            '"questions": [{"id": "q", "ask": "play", "instance": "sting-2"}]}}')
    response = client.post("/api/answer", content=text, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"] == ("request body: scenario.players.alice: key 'alice' appears twice; expected "
                                        "each key once in an object")
