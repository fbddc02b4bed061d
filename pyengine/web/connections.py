"""The bounds on the server's connections (issue 49, class 6), around uvicorn's HTTP/1.1 protocol (h11): a request's
head must arrive whole within the header timeout of the moment the connection waits for it (a connection that sends
nothing, half a request line or headers dripped slowly is closed then), its body within the body timeout of its
head, and no more connections are held open than the limit, which stays below the process's open-file limit: a
connection past it is answered 503 and closed at once. An accept that fails (the open-file limit reached all the
same) is logged once per interval with the count since, never once per loop turn with its traceback."""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

# File descriptors the server keeps for itself beside its connections: its listening socket, its workers' pipes
# (two a worker), the catalog store, the log, the documents it reads.
RESERVED_FILES = 64
# The most connections a server holds open by default.
DEFAULT_CONNECTIONS = 256
# How often a failing accept is logged at most (seconds), and how asyncio's report of one begins.
ACCEPT_LOG_INTERVAL = 60.0
ACCEPT_FAILED = "socket.accept() out of system resource"

def _reply(status: str, error: str, extra: str = "") -> bytes:
    """A whole HTTP/1.1 response that closes the connection: the status line, `extra` header lines and a JSON
    error, its length counted."""
    body = ('{"error": "' + error + '"}').encode()
    return (f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\nconnection: close\r\n{extra}"
            f"content-length: {len(body)}\r\n\r\n").encode() + body


_REFUSED = _reply("503 Service Unavailable", "the server holds as many connections as it may", "retry-after: 1\r\n")
_TIMED_OUT = _reply("408 Request Timeout", "the request did not arrive in time (408)")


@dataclass(frozen=True)
class ConnectionBounds:
    """How long a request's head and body may take to arrive (seconds), and how many connections may be open."""

    header_seconds: float = 10.0
    body_seconds: float = 30.0
    connections: int = DEFAULT_CONNECTIONS


def connection_ceiling(workers: int) -> int:
    """The most connections this process can hold without running out of file descriptors: its open-file limit
    less the files it keeps for itself and its workers."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 1_000_000
    return max(1, soft - RESERVED_FILES - 2 * workers)


def bounded_protocol(bounds: ConnectionBounds) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with the header and body deadlines and the connection limit of `bounds`."""

    class BoundedH11Protocol(H11Protocol):
        """One connection: a deadline armed whenever it starts to wait for a request's head (at connection and
        after each response) and when the head has come and the body has not; bytes arriving never extend it."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._deadline: asyncio.TimerHandle | None = None
            self._waiting_for: object = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            if len(self.connections) >= bounds.connections:
                transport.write(_REFUSED)
                transport.close()
                self.transport = transport
                return
            super().connection_made(transport)
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self in self.connections:
                super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self in self.connections:  # a refused connection reads nothing
                super().data_received(data)
                self._watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def _watch(self) -> None:
            """Arm the deadline of what the connection now waits for from the client, once per wait."""
            state = self.conn.their_state
            if state is self._waiting_for:
                return
            self._disarm()
            self._waiting_for = state
            if state is h11.IDLE:
                self._deadline = self.loop.call_later(bounds.header_seconds, self._expire)
            elif state is h11.SEND_BODY:
                self._deadline = self.loop.call_later(bounds.body_seconds, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            """The client did not send what the connection waited for in time: a 408 if it sent part of it, and
            the connection closed."""
            self._deadline = None
            if self.transport.is_closing():
                return
            if self.conn.their_state is h11.SEND_BODY or self.conn.trailing_data[0]:
                self.transport.write(_TIMED_OUT)
            self.transport.close()

    return BoundedH11Protocol


class AcceptFailures(logging.Filter):
    """Lets one "socket.accept() out of system resource" record of asyncio through per interval, as one line
    with the count of failures since the last one; every other record passes as it is."""

    def __init__(self, interval: float = ACCEPT_LOG_INTERVAL):
        super().__init__()
        self.interval = interval
        self.last = -interval
        self.unlogged = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if ACCEPT_FAILED not in str(record.msg):
            return True
        now = time.monotonic()
        if now - self.last < self.interval:
            self.unlogged += 1
            return False
        error = record.exc_info[1] if record.exc_info else None
        since = f" ({self.unlogged} more since the last report)" if self.unlogged else ""
        record.msg, record.args = f"cannot accept a connection: {error or record.getMessage()}{since}", ()
        record.exc_info = record.exc_text = None
        self.last, self.unlogged = now, 0
        return True


def quiet_accept_failures(interval: float = ACCEPT_LOG_INTERVAL) -> AcceptFailures:
    """Install the accept-failure filter on asyncio's logger (once)."""
    logger = logging.getLogger("asyncio")
    for existing in logger.filters:
        if isinstance(existing, AcceptFailures):
            return existing
    installed = AcceptFailures(interval)
    logger.addFilter(installed)
    return installed
