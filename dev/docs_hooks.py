"""MkDocs hook: a page line `<!-- pyengine: ARGS -->` becomes what `pyengine ARGS` prints, run at build time
from the repository's top, so an example's output in the documentation is always the program's own."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
_RUN = re.compile(r"^<!-- pyengine: (?P<args>.+?) -->$", re.M)


def _output(match: re.Match[str]) -> str:
    args = shlex.split(match["args"])
    done = subprocess.run([sys.executable, "-m", "pyengine", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"pyengine {match['args']} exited {done.returncode}: {done.stderr.strip()}")
    return f"```\n$ pyengine {match['args']}\n{done.stdout.rstrip()}\n```"


def on_page_markdown(markdown: str, **_: Any) -> str:
    return _RUN.sub(_output, markdown)
