"""Where the encodings (rules/) and the hand-written facts (facts/) are.

In an installed wheel they sit inside the package; in a source checkout (and an editable install) they sit
beside it, at the top of the repository.
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
