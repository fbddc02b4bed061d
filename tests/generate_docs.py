"""Make the generated parts of the documentation pages (docs/**/*.md and README.md) again, in place. A part is
written into its page, so that the page reads whole as plain Markdown in a clone or on a forge, between a line
`<!-- KIND ARGS -->` and a line `<!-- end KIND ARGS -->` (the form of docs/terms.md's census tables). Two kinds
are made here: `file PATH`, a file of the repository (a Markdown file as it is, any other in a fenced block), and
`pyengine ARGS`, the command and what it prints, run from the repository's top. tests/core/test_docs_plain.py
fails on a part that is not what this makes now. Run after changing what a part shows:

    .venv/bin/python tests/generate_docs.py
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFRESH = ".venv/bin/python tests/generate_docs.py"
# A generated part: its opening line (kind and arguments), its text, and the closing line that repeats them.
PART = re.compile(r"^<!-- (?P<head>(?P<kind>file|pyengine) (?P<args>[^\n]+?)) -->\n"
                  r"(?P<body>.*?)^<!-- end (?P=head) -->$", re.M | re.S)
# The opening line of a part, closed or not.
OPENING = re.compile(r"^<!-- (?:file|pyengine) [^\n]+ -->$", re.M)


def pages() -> list[Path]:
    """Every page of the documentation: the site's sources and the README."""
    return [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]


def file_part(path: str) -> str:
    """A file of the repository as its page shows it: a Markdown file as it is, any other in a fenced block."""
    text = (ROOT / path).read_text(encoding="utf-8").rstrip("\n") + "\n"
    return text if path.endswith(".md") else f"```{Path(path).suffix.lstrip('.')}\n{text}```\n"


def command_part(args: str) -> str:
    """`pyengine ARGS` and what it prints, run from the repository's top, as a fenced block."""
    done = subprocess.run([sys.executable, "-m", "pyengine", *shlex.split(args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"pyengine {args} exited {done.returncode}: {done.stderr.strip()}")
    return f"```\n$ pyengine {args}\n{done.stdout.rstrip()}\n```\n"


MAKERS: dict[str, Callable[[str], str]] = {"file": file_part, "pyengine": command_part}


def made(kind: str, args: str) -> str:
    """The text a part of this kind and these arguments holds now."""
    return MAKERS[kind](args)


def refreshed(text: str) -> str:
    """A page's text with each of its generated parts made again."""
    return PART.sub(lambda m: f"<!-- {m['head']} -->\n{made(m['kind'], m['args'])}<!-- end {m['head']} -->", text)


def main() -> int:
    """Rewrite each page whose generated parts changed, naming it."""
    for page in pages():
        text = page.read_text(encoding="utf-8")
        if (new := refreshed(text)) != text:
            page.write_text(new, encoding="utf-8")
            print(f"rewrote {page.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
