"""Bounded work: every unit of work a command does (one scenario file, one decklist, or a whole command) runs in
a worker process with a deadline and a memory ceiling, so that no input can make a command run longer than
its `--timeout` or grow past `--memory` (grounding included, which clingo cannot interrupt). A worker that
passes its deadline is killed; a worker that dies (killed, out of memory, a crash) is an error for its own
unit only, and the run goes on with a fresh worker. This is the one place that starts workers.

Workers are forked, so they start with everything the parent has loaded; each is recycled after 500 units (a
job that is a list, a batch of files, counts as one unit per item), because clingo keeps every symbol it has
seen for the life of a process (a batch's keyed atoms are new symbols each time). A long-running server keeps a
`WorkerPool` of such workers instead, forked from a fork server that was started before the server had threads.
"""

from __future__ import annotations

import os
import resource
import signal
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pyengine.core.errors import BoundError, DefectError, InputError
from pyengine.core.limits import limits

if TYPE_CHECKING:
    import asyncio
    from multiprocessing.connection import Connection

RECYCLE_AFTER = 500


def units_of(job: Any) -> int:
    """How many units of work a job is: a list (a batch of files) or a server job gathering requests ("jobs")
    one per item, anything else one."""
    if isinstance(job, dict) and job.get("kind") == "plays_gathered" and isinstance(job.get("jobs"), list):
        job = job["jobs"]
    return max(1, len(job)) if isinstance(job, list) else 1


@dataclass
class Failure:
    """A unit of work that did not finish: why, in one line (a defect's line starts "internal error", any
    other one says the bound that stopped it)."""

    message: str

    def error(self, file: str | None = None, field: str | None = None) -> InputError:
        """The failure as the error a command reports: a defect of pyengine, or work stopped at a bound."""
        kind = DefectError if self.message.startswith(DEFECT_PREFIX) else BoundError
        return kind(self.message, file=file, field=field)


def defect_place(error: BaseException) -> str:
    """Where in pyengine an unexpected exception was raised (file:line), for the one-line report of a defect."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if f"{os.sep}pyengine{os.sep}" in f.filename] or frames
    return f"{os.path.basename(ours[-1].filename)}:{ours[-1].lineno}" if ours else "?"


DEFECT_PREFIX = "internal error"


def defect_message(error: BaseException) -> str:
    """The one-line report of a defect of pyengine (an unexpected exception) for the unit it happened in."""
    return f"{DEFECT_PREFIX} (a defect of pyengine): {type(error).__name__}: {error} [{defect_place(error)}]"


def failure_message(error: BaseException, megabytes: int) -> str:
    """The one-line report of a unit that raised: the memory bound it reached (clingo's bad_alloc arrives as a
    MemoryError), or a defect of pyengine."""
    if isinstance(error, MemoryError):
        return f"stopped: over the memory ceiling of {megabytes} MB (--memory)"
    return defect_message(error)


# prctl(PR_SET_PDEATHSIG, SIGKILL): Linux kills this process when the process that started it dies.
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Ask the kernel to kill this worker when its parent dies (a command killed by SIGKILL or `timeout`), so
    that no worker outlives its command and nothing it would write (an import into the store) lands after it.
    Where prctl is missing, the worker still ends when its pipe closes."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux
        return
    if os.getppid() == 1:  # the parent died before the request took effect
        os._exit(1)


def limit_memory(megabytes: int) -> None:
    """Cap this process's address space at what it holds now plus `megabytes` (the memory ceiling): a forked
    worker starts with its parent's address space, which a long-lived parent (a test run, a program using the
    API, a Dask worker) may have grown far past the ceiling itself."""
    ceiling = _address_space() + megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))


def limit_server_memory(megabytes: int) -> None:
    """Cap a server's own data (its heap and the memory it maps to write, not the address space its threads
    reserve) at what it holds now plus `megabytes`; the soft limit only, so that the workers it starts later
    may set their own. Past it an allocation fails (a MemoryError for that request), not the machine."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            held = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmData:"))
    except (OSError, ValueError, IndexError, StopIteration):
        held = 0
    hard = resource.getrlimit(resource.RLIMIT_DATA)[1]
    ceiling = held + megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_DATA, (ceiling if hard == resource.RLIM_INFINITY else min(ceiling, hard), hard))


def held_bytes() -> int:
    """The bytes this process's memory allocator holds in use (glibc's mallinfo2: what clingo's ground programs
    and Python's larger objects occupy, not the freed memory the allocator keeps for reuse), else its address
    space."""
    mallinfo2 = _mallinfo_function()
    if mallinfo2 is None:
        return _address_space()
    info = mallinfo2()
    return int(info.uordblks + info.hblkhd)


@lru_cache(maxsize=1)
def _mallinfo_function() -> Callable[[], Any] | None:
    """glibc's mallinfo2, or None where the C library has none."""
    import ctypes
    import ctypes.util

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in
                    ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                     "keepcost")]

    try:
        function = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallinfo2
    except (OSError, AttributeError):
        return None
    function.restype = MallInfo2
    return function  # type: ignore[no-any-return]


# The environment a worker reads its inputs by (the catalog store, the cache folder): a worker started from a
# fork server would otherwise have the fork server's, as it was when the first pool of the process started it.
WORKER_ENVIRONMENT = ("PYENGINE_STORE", "PYENGINE_CACHE", "XDG_CACHE_HOME")


def _worker(conn: Connection, function: Callable[[Any], Any], megabytes: int, headroom: int = 0,
            environment: dict[str, str | None] | None = None) -> None:
    """Answer units of work sent over `conn` until told to stop or recycled: each within `megabytes` (the memory
    ceiling its failures name) beside what the worker keeps between units, which `headroom` MB more allow; with
    `environment` (name -> value, None for unset) set first."""
    from pyengine.core.store import forget_open_sources

    for name, value in (environment or {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    forget_open_sources()
    limit_memory(megabytes + headroom)
    done = 0
    while done < RECYCLE_AFTER:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        done += units_of(job)
        try:
            reply: Any = ("ok", function(job))
        except Exception as error:  # a bound or a defect: one line for this unit, the run goes on
            reply = ("failed", failure_message(error, megabytes))
        try:
            conn.send(reply)
        except (MemoryError, OSError):
            return
        except Exception as error:  # a reply that cannot be sent (pickled) is a defect of this unit
            conn.send(("failed", defect_message(error)))
    conn.close()


def _reply(slot: _Slot) -> Any:
    """The reply waiting on a worker's pipe: its value, or a Failure (a failed unit, a dead worker, or a reply
    that cannot be read back, which retires the worker like any other Failure)."""
    try:
        status, value = slot.conn.recv()
    except (EOFError, OSError):
        return Failure("stopped: the worker died (killed, or out of memory)")
    except Exception as error:
        return Failure(defect_message(error))
    slot.done += slot.units
    return value if status == "ok" else Failure(value)


class _Slot:
    """One worker process and the unit it is working on."""

    def __init__(self, function: Callable[[Any], Any], megabytes: int, start_method: str = "fork",
                 headroom: int = 0, environment: dict[str, str | None] | None = None):
        import multiprocessing

        context = multiprocessing.get_context(start_method)
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker, args=(child, function, megabytes, headroom, environment),
                                       daemon=True)
        self.process.start()
        child.close()
        self.index: int | None = None
        self.deadline = 0.0
        # Units of work done (units_of each job), and those of the job in hand.
        self.done = 0
        self.units = 0

    def give(self, index: int, job: Any, seconds: float) -> None:
        self.index, self.deadline = index, time.monotonic() + seconds
        self.units = units_of(job)
        self.conn.send(job)

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


# Idle workers kept between calls of run_bounded(keep=True), by function and memory ceiling (a Dask worker
# answers many tasks; its bounded worker keeps what it has parsed and rewritten).
_KEPT: dict[tuple[Callable[[Any], Any], int], list[_Slot]] = {}


def stop_kept() -> None:
    """Stop every kept idle worker."""
    for slots in _KEPT.values():
        for slot in slots:
            slot.stop()
    _KEPT.clear()


def run_bounded(function: Callable[[Any], Any], jobs: list[Any], workers: int = 1,
                progress: Callable[[int, int], None] | None = None, keep: bool = False,
                bounds: list[float] | None = None) -> list[Any]:
    """`function(job)` for every job, in input order, each in a worker under `limits.solve_seconds` (or its own
    bound in `bounds`) and `limits.memory_mb`; a unit that does not finish gives a Failure in its place. With
    `keep`, idle workers are kept for the next call with the same function and ceiling instead of being
    stopped."""
    from multiprocessing.connection import wait

    megabytes = limits.memory_mb
    seconds_of = bounds or [limits.solve_seconds] * len(jobs)
    results: list[Any] = [None] * len(jobs)
    pending = list(range(len(jobs)))[::-1]
    slots: list[_Slot] = _KEPT.pop((function, megabytes), []) if keep else []
    finished = 0
    try:
        while finished < len(jobs):
            while pending and len([s for s in slots if s.index is not None]) < max(1, workers):
                slot = next((s for s in slots if s.index is None), None)
                if slot is None:
                    slot = _Slot(function, megabytes)
                    slots.append(slot)
                index = pending.pop()
                slot.give(index, jobs[index], seconds_of[index])
            busy = [s for s in slots if s.index is not None]
            timeout = max(0.0, min(s.deadline for s in busy) - time.monotonic())
            ready = wait([s.conn for s in busy], timeout)
            for slot in busy:
                outcome: Any = None
                if slot.conn in ready:
                    outcome = _reply(slot)
                elif time.monotonic() >= slot.deadline:
                    outcome = Failure(f"stopped: the work took longer than {seconds_of[slot.index]:g} s "  # type: ignore[index]
                                      "(--timeout)")
                if outcome is None:
                    continue
                results[slot.index] = outcome  # type: ignore[index]
                finished += 1
                slot.index = None
                if isinstance(outcome, Failure) or slot.done >= RECYCLE_AFTER:
                    slot.stop()
                    slots.remove(slot)
                if progress:
                    progress(finished, len(jobs))
    finally:
        for slot in slots:
            if keep and slot.index is None and slot.process.is_alive():
                _KEPT.setdefault((function, megabytes), []).append(slot)
            else:
                slot.stop()
    return results


# The units run_here started that have not ended. A thread's own is_alive() cannot say it: on Python 3.11 a
# Thread.join() interrupted by Ctrl+C marks the thread stopped although it still runs (grounding, say).
_RUNNING_HERE: set[threading.Thread] = set()


def unit_running_here() -> bool:
    """Whether a unit run_here started is still running: then the process must end with os._exit, for exit's
    destructors would free clingo's memory under the grounding or solving that thread is still doing."""
    return bool(_RUNNING_HERE)


def run_here(function: Callable[[Any], Any], job: Any, seconds: float, megabytes: int) -> Any:
    """`function(job)` in this process, for a command whose run is this one unit (limits.one_unit_here): in a
    thread of its own, waited for `seconds`, under the memory ceiling as the soft limit of this process's address
    space while it runs (what it holds now plus `megabytes`); a Failure where it overran, ran out of memory or
    failed, as a worker's would be. No fork, no pipe: a cold command saves the worker's start. A unit stopped at its
    deadline leaves its thread to end with the command's process (clingo cannot be interrupted while it grounds)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    outcome: list[Any] = []

    def work() -> None:
        # The ceiling is set once the thread exists (starting a thread reserves its stack and thread-local data).
        ceiling = _address_space() + megabytes * 1024 * 1024
        try:
            resource.setrlimit(resource.RLIMIT_AS, (ceiling if hard == resource.RLIM_INFINITY else min(ceiling, hard),
                                                    hard))
            outcome.append(function(job))
        except Exception as error:  # a bound or a defect: one line for this unit, as in a worker
            outcome.append(Failure(failure_message(error, megabytes)))
        finally:
            _RUNNING_HERE.discard(threading.current_thread())

    try:
        thread = threading.Thread(target=work, name="pyengine-unit", daemon=True)
        _RUNNING_HERE.add(thread)  # before it starts, so that no interrupt falls between the two
        thread.start()
        thread.join(seconds)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    if not outcome:
        return Failure(f"stopped: the work took longer than {seconds:g} s (--timeout)")
    return outcome[0]


def _address_space() -> int:
    """The bytes of address space this process holds (0 where /proc is missing: the ceiling alone)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


class Busy(Exception):
    """A call the pool refused to queue: too many calls already wait, or none came free within the wait bound."""


class WorkerPool:
    """Persistent bounded workers for a server: `await pool.call(job)` runs `function(job)` in a free worker
    within `seconds` (a worker past its deadline is killed and replaced; the call gives a Failure), each worker
    under the memory ceiling. Workers come from a fork server started by `start()` with `preload` imported, so
    a new worker is warm at once and never inherits the server's threads. A call waits for a free worker at
    most `wait_seconds`, behind at most `max_waiting` others; past either bound it raises Busy at once. A worker
    may keep values between calls within `kept_mb` of their own (the function keeps itself within them): its
    address space is bounded by the ceiling and that budget together, so a call that fits the ceiling alone
    fits beside whatever the worker keeps."""

    def __init__(self, function: Callable[[Any], Any], size: int, seconds: float, megabytes: int,
                 preload: list[str], wait_seconds: float = 10.0, max_waiting: int = 64, kept_mb: int = 0):
        self.function, self.size, self.seconds, self.megabytes = function, size, seconds, megabytes
        self.kept_mb = kept_mb
        self.environment = {name: os.environ.get(name) for name in WORKER_ENVIRONMENT}
        self.preload, self.wait_seconds, self.max_waiting = preload, wait_seconds, max_waiting
        import asyncio  # only a server keeps a pool

        self.free: asyncio.Queue[_Slot] = asyncio.Queue()
        self.slots: list[_Slot] = []
        self.waiting = 0

    def _new_slot(self) -> _Slot:
        slot = _Slot(self.function, self.megabytes, "forkserver", self.kept_mb, self.environment)
        self.slots.append(slot)
        return slot

    def start(self) -> None:
        """Start the fork server and the workers (call before the server starts threads)."""
        import multiprocessing

        multiprocessing.get_context("forkserver").set_forkserver_preload(self.preload)
        for _ in range(self.size):
            self.free.put_nowait(self._new_slot())

    def _retire(self, slot: _Slot) -> None:
        slot.stop()
        self.slots.remove(slot)
        self.free.put_nowait(self._new_slot())

    async def _take(self) -> _Slot:
        """A free, living worker, waited for within the bounds (a worker that died while idle is replaced)."""
        import asyncio

        if self.waiting >= self.max_waiting:
            raise Busy(f"the server is busy: {self.waiting} requests already wait for a worker")
        self.waiting += 1
        try:
            slot = await asyncio.wait_for(self.free.get(), self.wait_seconds)
        except TimeoutError:
            raise Busy(f"the server is busy: no worker came free within {self.wait_seconds:g} s") from None
        finally:
            self.waiting -= 1
        while not slot.process.is_alive():
            slot.stop()
            self.slots.remove(slot)
            slot = self._new_slot()
        return slot

    async def call(self, job: Any, seconds: float | None = None) -> Any:
        """`function(job)` in a worker: its value, or a Failure when it failed, overran, its worker died or its
        reply could not be read (the worker is retired then, and its place always returned to the pool)."""
        import asyncio

        limit = self.seconds if seconds is None else seconds
        slot = await self._take()
        outcome: Any = Failure("stopped: the request was cancelled")
        try:
            loop = asyncio.get_running_loop()
            ready: asyncio.Future[None] = loop.create_future()
            fd = slot.conn.fileno()
            loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
            try:
                slot.give(0, job, limit)
                await asyncio.wait_for(ready, limit)
                outcome = _reply(slot)
            except TimeoutError:
                outcome = Failure(f"stopped: the work took longer than {limit:g} s (--timeout)")
            except (EOFError, OSError):
                outcome = Failure("stopped: the worker died (killed, or out of memory)")
            finally:
                loop.remove_reader(fd)
        finally:  # a cancelled call (the client went away) leaves a worker that may still be busy: retired
            if isinstance(outcome, Failure) or slot.done >= RECYCLE_AFTER:
                self._retire(slot)
            else:
                self.free.put_nowait(slot)
        return outcome

    def close(self) -> None:
        """Stop every worker."""
        for slot in self.slots:
            slot.stop()
        self.slots.clear()
