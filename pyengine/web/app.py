"""The web application of `pyengine serve`: pages for judges and rules writers, and the HTTP JSON API.

Pages (server-rendered, a little JavaScript in static/explorer.js): the table builder (/table), the answers under
every reading and profile (/answers), the annotated rulebook (/rulebook/DOC) and the disagreements between two
sides (/disagreements). The JSON API (/api/...) answers with exactly what the command line prints with `--json`;
/openapi.json describes it. Answers are computed in a WorkerPool: each request is bounded in time (the solve
timeout) and memory; the request body is bounded in size; bad input is a 400 with the one-line messages of the
command line. Nothing a request names is opened as a file: documents come from the configured docs folder by
document id, cards from the built-in catalogs and the catalog store.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from swagger_ui_bundle import swagger_ui_path

from pyengine import api
from pyengine.core import jsonio
from pyengine.core.catalog import Card, Catalog
from pyengine.core.errors import InputError, closest
from pyengine.core.yamlio import check_data
from pyengine.games import game_file, registry
from pyengine.run.runner import Busy, Failure, WorkerPool, limit_server_memory
from pyengine.web import jobs
from pyengine.web.documents import documents_index

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))


@dataclass
class Settings:
    """What a server may read and how much work a request may ask for."""

    docs: Path | None = None
    scenarios: list[Path] = field(default_factory=list)
    workers: int = 2
    solve_seconds: float = 30.0
    search_seconds: float = 120.0
    memory_mb: int = 1024
    max_instances: int = 2000
    max_request_bytes: int = 1_000_000
    # A reply larger than this is refused in the worker, before it is sent (a small YAML text with aliases can
    # stand for a very large table).
    max_reply_bytes: int = 8_000_000
    # How long a request may wait for a free worker, and how many may wait at once: past either, a 503.
    wait_seconds: float = 10.0
    max_waiting: int = 64
    # What a worker may keep between requests (ground tables, drawn boards), in MB beside the memory ceiling of each
    # request (default a quarter of it): the least recently used are dropped past it.
    kept_mb: int | None = None
    # The server process's own memory ceiling over what it holds once started (MB; `pyengine serve` sets it to
    # --memory, a test client leaves it off): past it a request fails alone, the server goes on.
    server_memory_mb: int | None = None
    # The states the disagreements page's census draws (pyengine census --states; it may refuse four times as many):
    # fewer than the command's 40, to answer within the search bound.
    census_states: int = jobs.CENSUS_STATES


    def kept_budget_mb(self) -> int:
        """The MB a worker may keep between requests."""
        return self.memory_mb // 4 if self.kept_mb is None else self.kept_mb


class BodyLimit:
    """Refuses a request body larger than the limit (413, as JSON), whether or not it says its length."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(self.limit)(scope, receive, send)
            return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise HTTPException(413, f"the request body is larger than {self.limit} bytes")
            return message

        await self.app(scope, bounded, send)


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse({"error": f"the request body is larger than {limit} bytes",
                         "errors": [f"the request body is larger than {limit} bytes"]}, status_code=413)


def _error(status: int, messages: list[str], headers: dict[str, str] | None = None) -> JSONResponse:
    """A refused request: the first one-line message, and every one."""
    return JSONResponse({"error": messages[0], "errors": messages}, status_code=status, headers=headers)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, or an InputError."""
    data = jsonio.loads(await request.body(), "request body")
    if not isinstance(data, dict):
        raise InputError("the request body is not a JSON object", field="body", expected="a JSON object")
    check_data(data, "request", envelope=1)  # the request's object holds the scenario as a file would be
    return data


def catalogs() -> dict[str, list[str]]:
    """The catalogs of each card game: the built-in one and those imported into the store."""
    from pyengine.core import store

    try:
        imported = store.sources()
    except InputError:
        imported = {}
    return {g: ["builtin", *sorted(s for s, owner in imported.items() if owner == g)]
            for g, module in registry().items() if hasattr(module, "builtin_catalog")}


# Fields of a job that only the server sets: a request's own are dropped (a client's `jobs` would count as many
# units of a worker's life, and its `limits` would lift the server's bounds).
SERVER_FIELDS = ("kind", "limits", "jobs")
# The most `plays` requests one worker answers together (pyengine.core.batch): gathered while the workers are busy.
GATHER_AT_MOST = 16
# The bound of a gathered job, in seconds: past it, its requests are answered one at a time (each under its own
# bound), so that one slow table costs the quick ones gathered with it at most this long.
GATHER_SECONDS = 3.0


class Gatherer:
    """`plays` requests that arrive while every worker is busy wait here; a worker that comes free takes all
    that wait (at most GATHER_AT_MOST) as one job, so the grounder's fixed cost is shared and a lone request
    waits for nothing. A gathered job that fails (a bound, a dead worker, a defect) is answered again one
    request at a time, side by side, so that each request gets its own answer or error. A request waits here
    behind at most the pool's `max_waiting` others and for at most its wait bound plus its work bound."""

    def __init__(self, pool: WorkerPool):
        self.pool = pool
        self.waiting: asyncio.Queue[tuple[dict[str, Any], float | None, asyncio.Future[Any]]] = asyncio.Queue()
        self.takers: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self.takers = [asyncio.create_task(self._take()) for _ in range(self.pool.size)]

    def stop(self) -> None:
        for taker in self.takers:
            taker.cancel()

    async def call(self, job: dict[str, Any], seconds: float | None) -> Any:
        """The request's reply, as WorkerPool.call gives it; Busy when it cannot be served within its bounds."""
        if self.waiting.qsize() >= self.pool.max_waiting:
            raise Busy(f"the server is busy: {self.waiting.qsize()} requests already wait for a worker")
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.waiting.put((job, seconds, done))
        deadline = self.pool.wait_seconds + (seconds or self.pool.seconds) + GATHER_SECONDS
        try:
            return await asyncio.wait_for(done, deadline)
        except TimeoutError:
            raise Busy(f"the server is busy: no answer within {deadline:g} s") from None

    async def _one(self, job: dict[str, Any], seconds: float | None) -> Any:
        try:
            return await self.pool.call(job, seconds)
        except Busy as busy:
            return busy

    @staticmethod
    def _settle(done: asyncio.Future[Any], reply: Any) -> None:
        if done.done():  # the client went away, or waited past its bound
            return
        if isinstance(reply, Busy):
            done.set_exception(reply)
        else:
            done.set_result(reply)

    async def _alone(self, job: dict[str, Any], seconds: float | None, done: asyncio.Future[Any]) -> None:
        self._settle(done, await self._one(job, seconds))

    async def _take(self) -> None:
        while True:
            taken = [await self.waiting.get()]
            while len(taken) < GATHER_AT_MOST and not self.waiting.empty():
                taken.append(self.waiting.get_nowait())
            taken = [t for t in taken if not t[2].done()]
            if len(taken) > 1:
                job = {"kind": "plays_gathered", "jobs": [t[0] for t in taken], "limits": taken[0][0]["limits"]}
                gathered = await self._one(job, min(GATHER_SECONDS, self.pool.seconds))
                if isinstance(gathered, dict) and "ok" in gathered:
                    for (_, _, done), reply in zip(taken, json.loads(gathered["ok"]), strict=True):
                        self._settle(done, reply)
                    continue
            # Alone, or answered again one at a time side by side: each request settles as soon as it is done.
            await asyncio.gather(*(self._alone(*t) for t in taken))


@dataclass
class Server:
    """What a running application holds: its settings, its worker pool, the gatherer of `plays` requests, and the
    annotated documents already computed (a document's view depends only on the settings' docs and scenarios)."""

    settings: Settings
    pool: WorkerPool
    gatherer: Gatherer
    documents: dict[str, Any] = field(default_factory=dict)

    async def run(self, kind: str, data: dict[str, Any], seconds: float | None = None) -> tuple[int, Any]:
        """A job in a worker: (200, its JSON text), (400, errors) for bad input, (422, errors) when stopped at a
        bound, (503, why) when no worker came free within the wait bounds, (500, the defect in one line) when
        pyengine failed. The job's fields are the request's; its kind and limits are the server's."""
        settings = self.settings
        request = {k: v for k, v in data.items() if k not in SERVER_FIELDS}
        job = {**request, "kind": kind, "limits": {"max_instances": settings.max_instances,
                                                "solve_seconds": seconds or settings.solve_seconds,
                                                "max_reply_bytes": settings.max_reply_bytes,
                                                "kept_mb": settings.kept_budget_mb(),
                                                "census_states": settings.census_states}}
        try:
            reply = await (self.gatherer.call(job, seconds) if kind == "plays" else self.pool.call(job, seconds))
        except Busy as busy:
            return 503, [str(busy)]
        if isinstance(reply, Failure):
            return (500 if reply.message.startswith("internal error") else 422), [reply.message]
        if "errors" in reply:
            return 400, reply["errors"]
        return 200, reply["ok"]

    async def document(self, document: str) -> dict[str, Any]:
        """One document's annotated view, computed in a worker once."""
        settings = self.settings
        known = [d["document"] for d in documents_index(settings.docs)]
        if document not in known:
            raise InputError(f"unknown document {document!r}", field="document", expected="one of " + ", ".join(known))
        if document not in self.documents:
            status, reply = await self.run("document", {
                "document": document, "docs": str(settings.docs) if settings.docs else None,
                "scenarios": [str(p) for p in settings.scenarios]}, settings.search_seconds)
            if status == 503:
                raise Busy(reply[0])
            if status != 200:
                raise InputError(reply[0])
            self.documents[document] = json.loads(reply)
        return self.documents[document]


def _server(request: Request) -> Server:
    return request.app.state.server  # type: ignore[no-any-return]


# -- the JSON API ---------------------------------------------------------------------------------------------

# How often a request's work checks that its client is still there, in seconds; the status it ends with when not.
DISCONNECT_POLL_SECONDS = 0.2
CLIENT_GONE = 499


async def _unless_gone(request: Request, work: Awaitable[Any]) -> Any:
    """The work's result, or None once its client has gone away: the work is cancelled then, and a worker still
    running it is retired (WorkerPool.call), so that a page closed or left before its answers came (an every-reading
    matrix of a game over moments takes seconds) does not keep a worker from the next request."""
    task = asyncio.ensure_future(work)
    while True:
        done, _ = await asyncio.wait({task}, timeout=DISCONNECT_POLL_SECONDS)
        if done:
            return task.result()
        if await request.is_disconnected():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            return None


def post(kind: str, search: bool = False) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint whose job runs in a worker (`search`: within the server's search bound, not its solve bound)."""
    async def endpoint(request: Request) -> Response:
        try:
            data = await _body(request)
        except InputError as error:
            return _error(400, [str(error)])
        except ClientDisconnect:  # the body never came whole (the body timeout closed the connection)
            return Response(status_code=CLIENT_GONE)
        server = _server(request)
        answered = await _unless_gone(request, server.run(kind, data, server.settings.search_seconds if search
                                                          else None))
        if answered is None:  # nobody is waiting for it any more
            return Response(status_code=CLIENT_GONE)
        status, reply = answered
        if status == 200:
            return Response(reply, media_type="application/json")
        if status == 503:
            return _error(status, reply, {"Retry-After": "5"})
        return _error(status, reply)

    endpoint.__doc__ = getattr(jobs, kind).__doc__
    return endpoint


def in_process(function: Callable[[Request], Any], params: frozenset[str] = frozenset()
               ) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint answered in the server itself (declarations and catalog lookups only), taking the query
    parameters `params`: another one (a misspelt `?gmae=`) is an error, never silently left out."""
    async def endpoint(request: Request) -> Response:
        try:
            unknown = sorted(set(request.query_params) - params)
            if unknown:
                name = unknown[0][:QUOTED_CHARACTERS]
                raise InputError(f"unknown query parameter {name!r}", field=name,
                                 expected="one of " + ", ".join(sorted(params)) if params else "no query parameters",
                                 suggestion=closest(name, params) if params else None)
            return JSONResponse(function(request))
        except InputError as error:
            return _error(400, [str(e) for e in error.all()])

    endpoint.__doc__ = function.__doc__
    return endpoint


# The most of a query parameter's value an error quotes.
QUOTED_CHARACTERS = 100


def _quoted(value: str) -> str:
    """A value an error quotes: at most QUOTED_CHARACTERS of it, the rest counted, never echoed whole."""
    cut = value[:QUOTED_CHARACTERS]
    more = len(value) - len(cut)
    return repr(cut) + (f" (and {more:,} more characters)" if more else "")


def _query(request: Request, name: str, default: str | None = None) -> str | None:
    """A query parameter's one value (or `default` where it is absent); given twice (`?q=a&q=b`) it is an error,
    never silently its last value."""
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise InputError(f"query parameter {name!r} given {len(values)} times", field=name,
                         expected="each query parameter once")
    return values[0] if values else default


def _game_of(request: Request, required: bool = False) -> str | None:
    game = _query(request, "game")
    if game is None and not required:
        return None
    games = list(registry())
    if game not in games:
        raise InputError(f"unknown game {_quoted(game or '')}", field="game", expected="one of " + ", ".join(games),
                         suggestion=closest(game[:QUOTED_CHARACTERS], games) if game else None)
    return game


def readings_json(request: Request) -> Any:
    """Every reading (of `?game=`), as `pyengine readings --json`."""
    return api.readings(_game_of(request)).to_dict()


def rules_json(request: Request) -> Any:
    """Every declared rule (of `?game=`), as `pyengine rules --json`."""
    return api.rules(_game_of(request)).to_dict()


def cards_json(request: Request) -> Any:
    """Cards for completion: `?game=GAME&q=sting&catalog=CATALOG&limit=20` (title, subtitle, collector's info,
    card code, translated name); or the one card a table's reference names, as a scenario reads it
    (`?game=GAME&card=1_313&catalog=CATALOG`: no card where it names none or several), for its name."""
    from pyengine.core.store import open_catalog

    game = _game_of(request, required=True)
    query = (_query(request, "q") or "")[:100]
    text = _query(request, "limit", "20") or "20"
    limit = min(50, max(1, int(text))) if text.isdigit() and len(text) <= 3 else 20
    builtin = getattr(registry()[str(game)], "builtin_catalog", None)
    if builtin is None:
        return {"cards": []}
    name = _query(request, "catalog", "builtin") or "builtin"
    known = catalogs().get(str(game), ["builtin"])
    if name not in known:  # named from the game's own list: never the store's path, never another game's
        raise InputError(f"no catalog {_quoted(name)} for {game}", field="catalog",
                         expected="one of " + ", ".join(known), suggestion=closest(name, known))
    catalog = open_catalog(name, builtin)
    reference = _query(request, "card")
    if reference is not None:
        try:
            card = catalog.resolve(reference[:200], suggest=False)
        except InputError:
            return {"cards": [], "more": 0, "suggestions": []}
        return {"cards": [_card_json(catalog, card, card.label())], "more": 0, "suggestions": []}
    types = {t for t in (_query(request, "types") or "")[:200].split(",") if t}
    found = catalog.search(query, limit, types or None)
    labels = [c.label() for c in found.cards]
    # Two cards of one label (a reprint sharing its collector's info) are told apart by their ids.
    shown = [f"{label} [{c.id}]" if labels.count(label) > 1 else label
             for label, c in zip(labels, found.cards, strict=True)]
    return {"cards": [_card_json(catalog, c, label) for c, label in zip(found.cards, shown, strict=True)],
            "more": found.total - len(found.cards), "suggestions": found.suggestions}


def _card_json(catalog: Catalog, card: Card, label: str) -> dict[str, Any]:
    """One card as the card search answers it: its label, names, collector's info, type and alter ego."""
    return {"id": card.id, "label": label, "title": card.title, "subtitle": card.subtitle,
            "collinfo": card.collinfo, "type": card.type, "unique": card.unique, "aliases": list(card.aliases),
            "official": card.extra.get("official", True),
            "alter_ego": catalog.get(card.extra["alter_ego"]).title if card.extra.get("alter_ego") in catalog
            else None}


def catalogs_json(request: Request) -> Any:
    """The catalogs of each game: the built-in one and those imported into the store."""
    return {"catalogs": catalogs()}


def documents_json(request: Request) -> Any:
    """The rules documents: id, game, file, and whether the docs folder holds it."""
    return {"documents": documents_index(_server(request).settings.docs)}


async def document_json(request: Request) -> Response:
    """One document's paragraphs with the rules, readings, scenarios and findings of each."""
    try:
        return JSONResponse(await _server(request).document(request.path_params["document"]))
    except InputError as error:
        return _error(404, [str(error)])
    except Busy as busy:
        return _error(503, [str(busy)], {"Retry-After": "5"})


def openapi(request: Request) -> Response:
    from pyengine.web.openapi import openapi_document

    return JSONResponse(openapi_document())


# -- the pages ------------------------------------------------------------------------------------------------

def page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        return templates.TemplateResponse(request, name, {"config": page_config()})

    return endpoint


def page_config() -> dict[str, Any]:
    """What the pages' script needs to know: the games, their zones, questions, readings and catalogs."""
    from pyengine.web.tables import games_config

    return games_config(catalogs())


def game_form(request: Request) -> Response:
    """A game's own part of the table builder (its package's form.js), for games whose table needs one."""
    path = game_file(request.path_params["game"], "form.js")
    if path is None:
        raise HTTPException(404, "no such game form")
    return Response(path.read_text("utf-8"), media_type="text/javascript")


async def rulebook_index(request: Request) -> Response:
    return templates.TemplateResponse(request, "rulebook_index.html",
                                      {"documents": documents_index(_server(request).settings.docs),
                                       "config": page_config()})


async def rulebook(request: Request) -> Response:
    try:
        view = await _server(request).document(request.path_params["document"])
    except (InputError, Busy) as error:
        return templates.TemplateResponse(request, "error.html",
                                          {"heading": "Busy" if isinstance(error, Busy) else "Not found",
                                           "message": str(error), "config": page_config()},
                                          status_code=503 if isinstance(error, Busy) else 404)
    return templates.TemplateResponse(request, "rulebook.html", {"view": view, "config": page_config()})


async def root(request: Request) -> Response:
    return RedirectResponse("/table")


async def no_icon(request: Request) -> Response:
    return Response(status_code=204)


async def http_error(request: Request, exc: Exception) -> Response:
    """An error of the API as JSON; of a page (a path outside /api/), as a page a person can read."""
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/") or "text/html" not in request.headers.get("accept", ""):
        return _error(exc.status_code, [str(exc.detail)])
    heading = "Not found" if exc.status_code == 404 else "Something went wrong"
    message = f"There is no page at {request.url.path}." if exc.status_code == 404 else str(exc.detail)
    return templates.TemplateResponse(request, "error.html", {"heading": heading, "message": message,
                                                              "config": page_config()},
                                      status_code=exc.status_code)


ROUTES = [
    Route("/", root),
    Route("/favicon.ico", no_icon),
    Route("/table", page("table.html")),
    Route("/answers", page("answers.html")),
    Route("/disagreements", page("disagreements.html")),
    Route("/rulebook", rulebook_index),
    Route("/rulebook/{document}", rulebook),
    Route("/openapi.json", openapi),
    Route("/api/docs", page("api_docs.html")),
    Mount("/api/docs/static", StaticFiles(directory=swagger_ui_path), name="swagger"),
    Route("/api/answer", post("answer"), methods=["POST"]),
    Route("/api/plays", post("plays"), methods=["POST"]),
    Route("/api/flip", post("flip"), methods=["POST"]),
    Route("/api/board", post("board"), methods=["POST"]),
    Route("/api/facts", post("facts"), methods=["POST"]),
    Route("/api/compare", post("compare"), methods=["POST"]),
    Route("/api/edge-cases", post("edge_cases", search=True), methods=["POST"]),
    Route("/api/census", post("census", search=True), methods=["POST"]),
    Route("/api/export", post("export"), methods=["POST"]),
    Route("/api/parse", post("parse"), methods=["POST"]),
    Route("/api/cards", in_process(cards_json, frozenset({"game", "q", "limit", "catalog", "types", "card"}))),
    Route("/api/catalogs", in_process(catalogs_json)),
    Route("/api/readings", in_process(readings_json, frozenset({"game"}))),
    Route("/api/rules", in_process(rules_json, frozenset({"game"}))),
    Route("/api/documents", in_process(documents_json)),
    Route("/api/documents/{document}", document_json),
    Route("/games/{game}/form.js", game_form),
    Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
]


def create_app(settings: Settings) -> Starlette:
    """The application; its worker pool starts with it and stops with it."""
    pool = WorkerPool(jobs.run, settings.workers, settings.solve_seconds, settings.memory_mb, jobs.PRELOAD,
                      settings.wait_seconds, settings.max_waiting, settings.kept_budget_mb())
    server = Server(settings, pool, Gatherer(pool))

    @asynccontextmanager
    async def lifespan(app: Starlette):  # type: ignore[no-untyped-def]
        pool.start()  # the fork server starts here, without the server's own ceiling
        if settings.server_memory_mb is not None:
            limit_server_memory(settings.server_memory_mb)
        server.gatherer.start()
        try:
            yield
        finally:
            server.gatherer.stop()
            pool.close()

    app = Starlette(routes=ROUTES, lifespan=lifespan, exception_handlers={HTTPException: http_error})
    app.state.server = server
    app.add_middleware(BodyLimit, limit=settings.max_request_bytes)
    return app
