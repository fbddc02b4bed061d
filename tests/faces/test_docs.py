"""The documentation: the site builds with `mkdocs build --strict` (a broken link or page fails), its encodings'
reference (mkdoclingo) lists every documented predicate of rules/ with its description, and the README's one
example is what the program prints."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

pytest.importorskip("mkdocs", reason="the documentation tools are installed with pip install -e '.[test]'")

# A doc block: `%*! name(Args)` (or `%*! name`), then its description up to `*%`.
DOC_BLOCK = re.compile(r"^%\*!\s*(\w+)(?:\(([^)]*)\))?\n(.*?)^\*%", re.M | re.S)


def _documented() -> dict[str, str]:
    """Each predicate a doc block of rules/ documents (name/arity) and the first line of its description."""
    found = {}
    for path in sorted(Path(ROOT, "rules").rglob("*.lp")):
        for name, args, body in DOC_BLOCK.findall(path.read_text(encoding="utf-8")):
            arity = len([a for a in args.split(",") if a.strip()]) if args else 0
            found[f"{name}/{arity}"] = body.strip().splitlines()[0]
    return found


def _words(text: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)], cwd=ROOT,
                           capture_output=True, text=True, timeout=300, check=False,
                           env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert built.returncode == 0, built.stderr[-3000:]
    return folder


def test_the_reference_lists_every_documented_predicate_with_its_description(site: Path) -> None:
    pages = {p: p.read_text(encoding="utf-8") for p in (site / "reference").rglob("index.html")}
    listed = set().union(*(re.findall(r"<code>(\w+/\d+)</code>", text) for text in pages.values()))
    words = "".join(_words(text) for text in pages.values()).replace(" ", "")
    documented = _documented()
    assert len(documented) > 300
    assert sorted(set(documented) - listed) == []
    # The description as it reads on the page (spaces aside): Markdown's backticks become code.
    assert [sig for sig, first in documented.items() if "".join(first.replace("`", "").split()) not in words] == []


def test_every_page_of_the_site_is_built(site: Path) -> None:
    sources = [p.relative_to(ROOT / "docs") for p in (ROOT / "docs").rglob("*.md")]
    built = {p.relative_to(site) for p in site.rglob("index.html")}
    assert [s for s in sources if (s.parent / ("" if s.stem == "index" else s.stem) / "index.html") not in built] == []
    judges = _words((site / "judges" / "index.html").read_text(encoding="utf-8"))
    assert "$ pyengine explain examples/judge_second_sting.yaml" in judges
    assert "verdict: illegal (as expected)" in judges


def test_the_readme_quick_start_table_holds_on_the_imported_pool(cli, tmp_path: Path) -> None:
    """Issue 47, item 3: the judge's first own table of the quick start, on GEMP's pool, answers as it says."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    table = re.search(r"^```yaml\n(?P<text>.*?)^```$", quick, re.M | re.S)
    assert table and "catalog: gemp" in table["text"] and "pyengine import gemp" in quick
    mine = tmp_path / "my_table.yaml"
    mine.write_text(table["text"], encoding="utf-8")
    code, out, err = cli("check", str(mine))
    if code == 2 and "no imported catalog" in err:
        pytest.skip("GEMP's pool is not imported here")
    assert (code, out.strip()) == (0, "1 passed, 0 failed (1 scenario files)")
