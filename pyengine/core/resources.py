"""Where the encodings (rules/), the hand-written facts (facts/) and the scenario folders (examples/,
tests/scenarios/) are.

In an installed wheel they sit inside the package (the scenarios as examples/ and scenarios/); in a source
checkout (and an editable install) they sit beside it, at the top of the repository.
"""

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]
# The environment variable naming the catalog store (pyengine.core.store), here so the command line needs no import.
STORE_ENV = "PYENGINE_STORE"


def _root() -> Path:
    return _PACKAGE if (_PACKAGE / "rules").is_dir() else _PACKAGE.parent


def rules_dir() -> Path:
    return _root() / "rules"


def facts_dir() -> Path:
    return _root() / "facts"


def scenario_dirs() -> list[Path]:
    """The scenario folders pyengine ships (the examples and the test scenarios) that exist here, found from the
    package, never from the working directory."""
    if (_PACKAGE / "rules").is_dir():
        found = [_PACKAGE / "examples", _PACKAGE / "scenarios"]
    else:
        found = [_PACKAGE.parent / "examples", _PACKAGE.parent / "tests" / "scenarios"]
    return [p for p in found if p.is_dir()]


def existing_dirs(paths: list[str | Path], option: str) -> list[Path]:
    """The folders or files a command was given, each of which must exist (a missing one is an input error)."""
    from pyengine.core.errors import InputError

    for path in paths:
        if not Path(path).exists():
            raise InputError("no such file or folder", file=str(path), field=option,
                             expected="scenario folders or files that exist")
    return [Path(p) for p in paths]
