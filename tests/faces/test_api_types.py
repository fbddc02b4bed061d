"""The API's types as an editor and a type checker see them (issue 49, class 8): pyengine.api's lazy façade declares
every public name under TYPE_CHECKING, so mypy checks a program's calls against the real signatures; the typed
example program passes mypy --strict and runs, and a wrong call is reported by mypy naming its argument."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from pyengine import api

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "api" / "typed_use.py"


def _mypy(tmp_path: Path, *files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-color-output",
                           f"--cache-dir={tmp_path / 'mypy'}", *map(str, files)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)


def test_the_typed_example_passes_mypy_strict_and_a_wrong_call_does_not(tmp_path: Path) -> None:
    done = _mypy(tmp_path, EXAMPLE, ROOT / "pyengine" / "api.py")
    assert done.returncode == 0, done.stdout
    wrong = tmp_path / "wrong_use.py"
    wrong.write_text('import pyengine\nfrom pyengine import api\n\npyengine.plays("x.yaml", player=5)\n'
                     'api.table(3)\napi.check(["a.yaml"], jobs="2")\n', encoding="utf-8")
    found = _mypy(tmp_path, wrong).stdout
    assert 'Argument "player" to "plays" has incompatible type "int"' in found
    assert 'Argument 1 to "table" has incompatible type "int"' in found
    assert 'Argument "jobs" to "check" has incompatible type "str"' in found


def test_the_typed_example_runs() -> None:
    done = subprocess.run([sys.executable, str(EXAMPLE)], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=True)
    assert "alice-sting-2 illegal ['lotr_unique_blocks_unique']" in done.stdout
    assert "did you mean 'lotr_dead_pile_scope'" in done.stdout


def test_the_facades_declared_names_are_the_names_it_loads() -> None:
    """The TYPE_CHECKING block and the lazy table (_HOME) name the same modules for the same names."""
    tree = ast.parse((ROOT / "pyengine" / "api.py").read_text(encoding="utf-8"))
    [block] = [node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"]
    declared = {(alias.asname or alias.name): (node.module, alias.name)
                for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert declared == api._HOME
    assert set(declared) == set(api.__all__)
