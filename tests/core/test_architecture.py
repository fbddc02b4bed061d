"""The house plan holds: imports flow one way between the rooms of pyengine, and nothing generic names a game.

Rooms, lowest first: core (answering, game-agnostic) with the games registry (pyengine.games, which imports
nothing of a game at import time); games (each game's package, and what card games share); run (bounded work);
tools (edge cases, flips, consistency, import); then the faces: the API façade, the JSON schemas, the command
line and the web explorer (which may import the package's face, pyengine, for its version and names). A room
imports only rooms below it or itself."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "pyengine"
GAME_PACKAGES = ("lotr", "marvel", "dfm")
# Room -> the rooms it may import (besides itself).
MAY_IMPORT = {
    "core": {"registry"},
    "registry": {"core"},  # only for type hints; see test_the_registry_imports_no_game
    "games": {"core", "registry"},
    "run": {"core", "registry"},
    "tools": {"core", "registry", "run"},
    "api": {"core", "registry", "run", "tools"},
    "schema": {"core", "registry"},
    "web": {"core", "registry", "run", "tools", "api", "schema", "package"},
    "cli": {"core", "registry", "run", "tools", "api", "schema", "web", "package"},
    "main": {"cli"},
    # pytest's face: collects scenario files and answers them, as `check` does.
    "pytest_plugin": {"core", "registry"},
    "package": {"api"},
}


def _room(module: str) -> str:
    parts = module.split(".")
    if parts[0] != "pyengine":
        return "outside"
    if len(parts) == 1:
        return "package"
    head = parts[1]
    if head == "games":
        return "registry" if len(parts) == 2 else "games"
    return {"__main__": "main"}.get(head, head)


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports (at any depth, type-only imports included), with its line."""
    tree = ast.parse(path.read_text("utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names
                      if (PACKAGE.parent / f"{node.module}.{alias.name}".replace(".", "/")).with_suffix(".py").exists()
                      or (PACKAGE.parent / f"{node.module}.{alias.name}".replace(".", "/")).is_dir()]
    return found


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_imports_flow_one_way() -> None:
    wrong = []
    for path in _sources():
        room = _room(_module_of(path))
        for line, module in _imports(path):
            target = _room(module)
            if module.startswith("dev"):
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {module} (dev/ is outside the wheel)")
            if target in ("outside", room):
                continue
            if target not in MAY_IMPORT[room]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({room}) imports {module} ({target})")
    assert not wrong, "\n".join(wrong)


def test_games_import_no_other_game() -> None:
    wrong = []
    for name in GAME_PACKAGES:
        for path in sorted((PACKAGE / "games" / name).rglob("*.py")):
            for line, module in _imports(path):
                other = module.split(".")[2] if module.startswith("pyengine.games.") else None
                if other in GAME_PACKAGES and other != name:
                    wrong.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not wrong, "\n".join(wrong)


def test_the_registry_imports_no_game_and_nothing_at_run_time() -> None:
    """The registry is imported by the core: it may name a game's module only as text (import_module on
    first use), and imports the core only for type hints."""
    tree = ast.parse((PACKAGE / "games" / "__init__.py").read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pyengine"):
            raise AssertionError(f"the registry imports {node.module} at run time (line {node.lineno})")


# Words that name a game, its document or its card databases.
GAME_WORDS = re.compile(r"lotr|marvel|dfm|\bduel\b|gemp|marvelsdb|middle-earth|lord of the rings|_unique\b|_allies\b",
                        re.IGNORECASE)


def test_nothing_outside_the_registry_and_the_game_packages_names_a_game() -> None:
    """Code, comments and docstrings alike; the explorer's script, its pages and the scenario schema's shared part
    are searched too."""
    allowed = {PACKAGE / "games" / "__init__.py",
               *(p for g in GAME_PACKAGES for p in (PACKAGE / "games" / g).rglob("*"))}
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix not in (".py", ".js", ".html", ".css", ".json") or path in allowed:
            continue
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if GAME_WORDS.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "\n".join(found)


# The most lines a Python file of the package, and a function of it, may have (issue 63): a reader holds one whole.
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80


def test_no_file_over_600_lines_and_no_function_over_80() -> None:
    """Each offender is named with its size; split it by job, not by line count."""
    found = []
    for path in _sources():
        text = path.read_text("utf-8")
        lines = len(text.splitlines())
        if lines > MAX_FILE_LINES:
            found.append(f"{path.relative_to(ROOT)}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > MAX_FUNCTION_LINES:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.name} is {size} lines")
    assert not found, "\n".join(found)


# The parts every game's package has, one job each (docs/architecture.md), and the most lines its game.py, which
# only assembles them, may have.
GAME_PARTS = ("game.py", "reader.py", "facts.py", "words.py")
MAX_ASSEMBLY_LINES = 150


def test_each_game_is_assembled_from_its_parts() -> None:
    """A game's package has a reader, a fact writer, words and (where its entry says it can be searched) a search
    view, each an object of its own that game.py only assembles."""
    from pyengine.games import SPECS, game

    for name in GAME_PACKAGES:
        folder = PACKAGE / "games" / name
        parts = [*GAME_PARTS, *(("search.py",) if SPECS[name].search else ())]
        assert [p for p in parts if not (folder / p).is_file()] == [], name
        assert len((folder / "game.py").read_text("utf-8").splitlines()) <= MAX_ASSEMBLY_LINES, name
        one = game(name)
        objects = [one.reader, one.writer, one.words, one.search]
        assert all(part is not one for part in objects), f"{name} is still its own parts"
        assert (one.search is None) == (not SPECS[name].search), name
        for part, module in ((one.reader, "reader"), (one.writer, "facts"), (one.words, "words"),
                             (one.search, "search")):
            if part is not None:
                assert type(part).__module__ == f"pyengine.games.{name}.{module}", (name, type(part).__module__)


def test_nothing_outside_a_game_package_imports_it() -> None:
    """Outside a game's package (and the registry, which names its modules as text) the package's modules are
    reached only through the registry: its internals can move without generic code noticing."""
    wrong = []
    for path in _sources():
        module = _module_of(path)
        for line, imported in _imports(path):
            parts = imported.split(".")
            if len(parts) > 2 and parts[:2] == ["pyengine", "games"] and parts[2] in GAME_PACKAGES \
                    and not module.startswith(f"pyengine.games.{parts[2]}"):
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {imported}")
    assert not wrong, "\n".join(wrong)
