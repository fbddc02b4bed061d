"""`pyengine import`: a public card database read by its game's importer (the registry's SOURCES) into the
catalog store."""

from __future__ import annotations

from pathlib import Path

from pyengine.core.arguments import checked
from pyengine.core.errors import InputError, closest
from pyengine.core.results import (
    ImportResult,
    Progress,
)
from pyengine.games import SOURCES, importer


@checked
def import_source(source: str, path: str | Path, progress: Progress | None = None,
                  replace: bool = False) -> ImportResult:
    """Import a public card database (one of the registry's SOURCES, read by its game's importer) into the
    catalog store, replacing that source's cards (an import of no cards, or of fewer than half those stored, only
    with `replace`); the result carries the data report."""
    from pyengine.core import store

    if source not in SOURCES:
        raise InputError(f"unknown source {source!r}", field="source", expected="one of " + ", ".join(SOURCES),
                         suggestion=closest(source, SOURCES))
    root = Path(path)
    cards, report = importer(source).read(root, progress=progress)
    written = store.write_source(source, SOURCES[source], str(root.resolve()), cards, report, replace=replace)
    return ImportResult(source, str(written), report, len(cards))
