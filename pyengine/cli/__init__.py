"""The `pyengine` command line: a thin layer over pyengine.api that parses options (parser.py) and prints its
results (commands.py: as text, or with --json exactly the results' to_json()). Here: how a command runs - in
this process, bounding each file it reads, or as one unit of bounded work - and its exit code.

Exit codes (pyengine.core.errors, README "Exit codes"): 0 every verdict and expectation holds, 1 one failed,
2 bad input or usage, 3 work stopped at a time or memory bound, 4 a defect of pyengine; a command over many
files exits with the worst of them, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from typing import Any

from pyengine.cli.commands import check_outputs, reading_pairs
from pyengine.cli.parser import build_parser, command_named
from pyengine.core.errors import BoundError, DefectError, InputError
from pyengine.core.limits import DEFAULT_LIMITS, LONG_COMMANDS, limits
from pyengine.core.text import printable

# Commands answered in the calling process: they read only the knowledge base's own declarations (serve answers
# in its own bounded worker pool).
IN_PROCESS = {"readings", "rules", "schema", "serve", "completion"}
# Commands that bound each file they read on their own (pyengine.run.runner, one unit per file).
PER_FILE = {"check", "deck"}


class _Escaping(io.TextIOBase):
    """An output stream that writes every control character as an escape, but for newlines and tabs."""

    def __init__(self, stream: Any):
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(printable(text, keep="\n\t"))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()


def _report(error: InputError) -> int:
    """Each error on a line of its own; the exit code its worst one gives."""
    for one in error.all():
        print(f"error: {one}", file=sys.stderr)
    return error.exit_code


def _run(args: argparse.Namespace) -> int:
    """The command's own function, its errors as one line each with their exit code (a defect named as one,
    exit 4, unless PYENGINE_DEBUG is set)."""
    try:
        check_outputs(args)
        args.readings = reading_pairs(args)
        return int(args.func(args))
    except InputError as error:
        return _report(error)
    except (KeyboardInterrupt, BrokenPipeError):
        raise
    except MemoryError:  # the process's --memory ceiling (its address-space limit) met by the command itself
        return _report(BoundError("stopped: the work needed more memory than --memory allows",
                                  field=args.command, expected="a larger --memory, or a smaller input"))
    except Exception as error:
        if os.environ.get("PYENGINE_DEBUG"):
            raise
        from pyengine.run.runner import defect_message

        return _report(DefectError(defect_message(error)))


def _bounded(args: argparse.Namespace) -> int:
    """Run a whole command as one unit of bounded work: what it prints is shown only once it has finished; in
    this process where the command's process ends with it (limits.one_unit_here), else in a worker."""
    from pyengine.run.runner import Failure, run_bounded


    def work(_: Any) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = _run(args)
        return code, out.getvalue(), err.getvalue()

    if limits.one_unit_here:
        result = _here(args)
    else:
        [result] = run_bounded(work, [None])
    if isinstance(result, Failure):
        return _report(result.error(field=args.command))
    code, out, err = result
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code


def _here(args: argparse.Namespace) -> Any:
    """The command run in this process (runner.run_here), its output held until it has finished: its code, output
    and errors, or the Failure of its bound. The streams are swapped here, in the thread that reports a bound, so
    that a unit stopped at its deadline cannot swallow the report."""
    from pyengine.run.runner import Failure, run_here

    out, err = io.StringIO(), io.StringIO()
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = run_here(lambda _: _run(args), None, limits.solve_seconds, limits.memory_mb)
    finally:
        sys.stdout, sys.stderr = streams
    return code if isinstance(code, Failure) else (code, out.getvalue(), err.getvalue())


def command() -> None:
    """The `pyengine` program (its console script and `python -m pyengine`): `main` in a process that ends with
    the command, so a run of one file is bounded in this process instead of a worker (limits.one_unit_here); a unit
    stopped at its deadline (or by Ctrl+C) may still be grounding in its thread, so the process then ends at once,
    its output written."""
    limits.one_unit_here = True
    code = main()
    runner = sys.modules.get("pyengine.run.runner")  # not imported: no unit was run here
    if runner is not None and runner.unit_running_here():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    raise SystemExit(code)


def main(argv: list[str] | None = None) -> int:
    """The command line, with the exit codes of this module's text."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    arguments = sys.argv[1:] if argv is None else argv
    args = build_parser(command_named(arguments)).parse_args(arguments)
    limits.max_instances = args.max_instances
    limits.memory_mb = args.memory
    limits.solve_seconds = args.timeout or LONG_COMMANDS.get(args.command, DEFAULT_LIMITS.solve_seconds)
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Escaping(stdout), _Escaping(stderr)
    try:
        return _run(args) if args.command in IN_PROCESS | PER_FILE else _bounded(args)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        sys.stdout.flush()
        sys.stdout, sys.stderr = stdout, stderr
