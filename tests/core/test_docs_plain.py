"""The documentation reads whole as plain Markdown, in a clone or on a forge as on the site (issue: a new user's
docs, items 3 and 4): no page pulls a file or a command's output in at build time; each such part is written
into its page and is what tests/generate_docs.py makes of it now; and no page names the folder of real data and
conformance files that only the project's own machines keep beside the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT
from tests.generate_docs import OPENING, PART, REFRESH, made, pages

# What a page includes with at build time: pymdownx snippets, Jinja and markdown-include, the old pyengine hook.
INCLUDES = ("--8<--", "{% include", "{!", "<!-- pyengine:")
# A folder a user's clone does not have.
PRIVATE = ("../shared", "shared/data", "shared/conformance")
# The parts the pages that used to include them at build time hold now.
HELD = {
    "docs/judges.md": ["file examples/judge_second_sting.yaml", "pyengine explain examples/judge_second_sting.yaml",
                       "pyengine flip examples/judge_second_sting.yaml --question alice-second-sting"],
    "docs/index.md": ["pyengine explain examples/judge_second_sting.yaml --question alice-second-sting"],
    "docs/changelog.md": ["file CHANGELOG.md"],
    "docs/contributing.md": ["file CONTRIBUTING.md"],
    "docs/performance.md": ["file benchmarks/README.md"],
}
PARTS = [(page, match) for page in pages() for match in PART.finditer(page.read_text(encoding="utf-8"))]


def _lines_with(words: tuple[str, ...]) -> list[str]:
    """Each line of a page that holds one of the words, as `page:line: word`."""
    return [f"{page.relative_to(ROOT)}:{number}: {word}" for page in pages()
            for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
            for word in words if word in line]


def test_no_page_includes_anything_at_build_time() -> None:
    assert _lines_with(INCLUDES) == []


def test_no_page_names_a_folder_a_clone_does_not_have() -> None:
    assert _lines_with(PRIVATE) == []


@pytest.mark.parametrize(("page", "heads"), sorted(HELD.items()))
def test_a_page_holds_what_it_shows(page: str, heads: list[str]) -> None:
    held = [match["head"] for path, match in PARTS if path == ROOT / page]
    assert [head for head in heads if head not in held] == [], f"{page} lacks these parts; add them and run {REFRESH}"


def test_every_opening_line_has_its_closing_line() -> None:
    opened = [(page.relative_to(ROOT), len(OPENING.findall(page.read_text(encoding="utf-8")))) for page in pages()]
    closed = [(page.relative_to(ROOT), sum(1 for path, _ in PARTS if path == page)) for page in pages()]
    assert opened == closed


@pytest.mark.parametrize(("page", "kind", "args", "body"),
                         [(path, m["kind"], m["args"], m["body"]) for path, m in PARTS],
                         ids=[f"{path.relative_to(ROOT)}: {m['head']}" for path, m in PARTS])
def test_each_part_is_what_it_shows_now(page: Path, kind: str, args: str, body: str) -> None:
    assert body == made(kind, args), f"{page.relative_to(ROOT)}: `{kind} {args}` is stale; run {REFRESH}"
