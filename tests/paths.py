"""Where the suite and the benchmarks look for what the repository does not hold: the real card data (data/), the
engines' conformance files (conformance/), the rules documents (docs/) and the notes beside them (notes/), all in
the one folder PYENGINE_SHARED names, by default the folder `shared` beside the repository. The tests that need
one of them skip where it is absent and say which variable to set."""

from __future__ import annotations

import os
from pathlib import Path

SHARED_ENV = "PYENGINE_SHARED"
SHARED = Path(os.environ.get(SHARED_ENV) or Path(__file__).resolve().parents[2] / "shared").absolute()
DATA = SHARED / "data"
CONFORMANCE = SHARED / "conformance"
DOCS = SHARED / "docs"
# Notes a game's rules rest on beside its rules documents (the Duel's base-game notes, document dfm_base).
NOTES = SHARED / "notes"
GEMP_CARDS = DATA / "gemp-lotr" / "cards"
MARVELSDB = DATA / "marvelsdb"
DFM_DATA = DATA / "dfm-vermihunter"


def not_found(what: str, path: Path) -> str:
    """The reason a test skips for want of `what`: where it looked, and the variable that names another folder."""
    return f"{what} not found at {path} (set {SHARED_ENV} to the folder holding data/, conformance/ and docs/)"
