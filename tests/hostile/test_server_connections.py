"""The server's connections bounded (issue 49, class 6): a connection that sends nothing, half a request line,
headers dripped slowly or a body that never comes is closed at its deadline; no more connections are held than
the limit, which stays below the open-file limit, so a connection past it is refused at once and the server goes
on answering; a failing accept is logged once per interval, not once per loop turn with its traceback."""

from __future__ import annotations

import contextlib
import logging
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyengine.web.connections import ACCEPT_FAILED, AcceptFailures, connection_ceiling

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(*options: str, open_files: int | None = None) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = _free_port()

    def limit_files() -> None:
        if open_files:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    server = subprocess.Popen([sys.executable, "-m", "pyengine", "serve", "--port", str(port), "--workers", "1",
                               *options], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              preexec_fn=limit_files)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:  # answered, not only connected: a connection waits in the backlog before the server runs
                if _get(port, "/api/documents").startswith(b"HTTP/1.1 200"):
                    break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        yield port, server
    finally:
        server.terminate()
        server.wait(10)


@pytest.fixture(scope="module")
def bounded() -> Iterator[int]:
    yield from (port for port, _ in _serve("--header-timeout", "1", "--body-timeout", "1", "--connections", "6"))


def _connect(port: int) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=5)
    return client


def _until_closed(client: socket.socket) -> tuple[float, bytes]:
    """Seconds until the server closed the connection, and what it sent."""
    started, got = time.monotonic(), b""
    try:
        while chunk := client.recv(4096):
            got += chunk
    except OSError:
        pass
    return time.monotonic() - started, got


def _get(port: int, path: str = "/api/readings?game=lotr") -> bytes:
    with _connect(port) as client:
        client.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        return _until_closed(client)[1]


@pytest.mark.parametrize("sent", [b"", b"GET /api/rea", b"POST /api/answer HTTP/1.1\r\nHost: x\r\n",
                                  b"POST /api/answer HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"],
                         ids=["nothing", "half-a-line", "headers-never-ended", "body-never-came"])
def test_a_connection_that_does_not_send_its_request_is_closed_at_its_deadline(bounded: int, sent: bytes) -> None:
    with _connect(bounded) as client:
        client.sendall(sent)
        seconds, got = _until_closed(client)
    assert 0.8 < seconds < 3
    assert got.startswith(b"HTTP/1.1 408") if sent else got == b""


def test_dripped_headers_do_not_extend_the_deadline(bounded: int) -> None:
    with _connect(bounded) as client:
        client.sendall(b"POST /api/answer HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()
        try:
            for _ in range(20):  # a header every 0.2 s, for up to 4 s
                time.sleep(0.2)
                client.sendall(b"X-Slow: y\r\n")
        except OSError:
            pass
        _until_closed(client)
    assert time.monotonic() - started < 2.5


def test_connections_past_the_limit_are_refused_at_once_and_the_server_goes_on(bounded: int) -> None:
    held = [_connect(bounded) for _ in range(6)]
    try:
        time.sleep(0.2)
        with _connect(bounded) as extra:
            seconds, got = _until_closed(extra)
        assert seconds < 0.5 and got.startswith(b"HTTP/1.1 503")
    finally:
        for client in held:
            client.close()
    time.sleep(0.3)
    assert _get(bounded).startswith(b"HTTP/1.1 200")


def test_the_connection_limit_stays_below_the_open_file_limit() -> None:
    """With 120 files open at most, the server holds at most 120 - 64 - 2 connections: 80 clients at once get a
    503 each past them, none an accept failure, and it answers afterwards."""
    for port, server in _serve("--header-timeout", "5", open_files=120):
        held = [_connect(port) for _ in range(80)]
        time.sleep(0.5)
        refused = 0
        for client in held:
            client.settimeout(0.2)
            with contextlib.suppress(OSError):
                refused += client.recv(20).startswith(b"HTTP/1.1 503")
            client.close()
        assert refused == 80 - (120 - 64 - 2)
        time.sleep(0.3)
        assert _get(port).startswith(b"HTTP/1.1 200")
        server.terminate()
        assert ACCEPT_FAILED.encode() not in server.communicate(timeout=10)[1]


def test_more_connections_than_the_open_file_limit_allows_is_an_input_error(cli) -> None:
    code, _, err = cli("serve", "--port", str(_free_port()), "--connections", str(connection_ceiling(2) + 1))
    assert code == 2 and "--connections" in err and "open-file limit" in err


def test_the_refusals_are_whole_http_responses() -> None:
    from pyengine.web.connections import _REFUSED, _TIMED_OUT

    for reply in (_REFUSED, _TIMED_OUT):
        head, body = reply.split(b"\r\n\r\n")
        assert f"content-length: {len(body)}".encode() in head and body.startswith(b'{"error": ')
    assert b"retry-after: 1" in _REFUSED


def test_a_failing_accept_is_logged_once_an_interval_in_one_line() -> None:
    logger = logging.getLogger("test-accept-failures")
    logger.propagate = False
    seen: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = seen.append  # type: ignore[method-assign]
    logger.addHandler(handler)
    logger.addFilter(AcceptFailures(interval=60))
    error = OSError(24, "Too many open files")
    for _ in range(1000):
        logger.error(f"{ACCEPT_FAILED}\nexception: {error!r}", exc_info=(OSError, error, None))
    logger.error("another error")
    assert [r.getMessage() for r in seen] == ["cannot accept a connection: [Errno 24] Too many open files",
                                              "another error"]
    assert seen[0].exc_info is None
