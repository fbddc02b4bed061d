"""Progress of a long command on a terminal (rich): a bar with counts, the elapsed time and an estimate of the
rest, shown only once the run passes a second and only where standard error is a terminal, and always ended
by a summary line. Written to the process's own standard error (sys.__stderr__), which a command run as one
unit of bounded work still reaches while the rest of its output waits."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

# How long a run goes before its progress is shown (a quick run prints nothing more than its results).
SHOW_AFTER_SECONDS = 1.0


class TerminalProgress:
    """The progress of one run over `unit` items (files, states, cards, phases): call it with (done, total)
    and, where the run has one, what it is working on now."""

    def __init__(self, verb: str, unit: str, stream: TextIO | None = None, force: bool = False):
        self.verb, self.unit = verb, unit
        self.stream = stream if stream is not None else sys.__stderr__
        self.enabled = force or bool(self.stream is not None and self.stream.isatty())
        self.started = time.monotonic()
        self.done = self.total = 0
        self.bar: Any = None
        self.task: Any = None

    def __call__(self, done: int, total: int, label: str | None = None) -> None:
        self.done, self.total = done, max(total, done)
        if not self.enabled or time.monotonic() - self.started < SHOW_AFTER_SECONDS:
            return
        if self.bar is None:
            self._start()
        self.bar.update(self.task, completed=self.done, total=self.total,
                        description=f"{self.verb} {label}" if label else self.verb)

    def _start(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        console = Console(file=self.stream, force_terminal=True, stderr=True)
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn(self.unit), TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                            console=console, transient=True)
        self.bar.start()
        self.task = self.bar.add_task(self.verb, total=self.total)

    def finish(self) -> None:
        """Close the bar, if it was shown, with one summary line: how many of how many, in how long."""
        if self.bar is None:
            return
        self.bar.stop()
        seconds = time.monotonic() - self.started
        of = f" of {self.total}" if self.total != self.done else ""
        print(f"{self.verb}: {self.done}{of} {self.unit} in {seconds:.1f} s", file=self.stream, flush=True)


@contextmanager
def progress(verb: str, unit: str) -> Iterator[TerminalProgress]:
    """A TerminalProgress for the length of a `with` block, finished however the block ends."""
    shown = TerminalProgress(verb, unit)
    try:
        yield shown
    finally:
        shown.finish()
