"""`pyengine census --terms PATH`: every term of a real card pool's data that can bear on a question, counted by
kind as read (a rule consults it), named (an answer names it as not checked), no bearing (with why) or dropped
(neither: a silent answer waiting to happen, which tests/kb/test_term_census.py keeps at none). The rows come from
the game importer's own classifier (`census_terms`), the one that makes the stored cards, so they cannot drift."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyengine.core.errors import InputError
from pyengine.core.results import Progress
from pyengine.games import SOURCES, importer

STATUSES = ("read", "named", "no bearing", "dropped")


@dataclass
class TermCensus:
    """The census of one pool: per (kind, term) the status, the rule, how many cards have it and one of them."""

    source: str
    cards: int
    seconds: float
    terms: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)

    def by_kind(self) -> dict[str, Counter]:
        """Per kind of term, the number of terms of each status (each distinct term once)."""
        found: dict[str, Counter] = {}
        for (kind, _term, status) in self.terms:
            found.setdefault(kind, Counter())[status] += 1
        return found

    def dropped(self) -> list[tuple[str, str]]:
        """The (kind, term) pairs no rule reads and no answer names."""
        return sorted((kind, term) for kind, term, status in self.terms if status == "dropped")

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "cards": self.cards, "seconds": self.seconds,
                "by_kind": {kind: dict(counts) for kind, counts in sorted(self.by_kind().items())},
                "terms": [{"kind": k, "term": t, "status": s, **v} for (k, t, s), v in sorted(self.terms.items())]}


def term_census(source: str, path: str | Path, progress: Progress | None = None) -> TermCensus:
    """The census of terms of the data at `path`, read by `source`'s importer."""
    if source not in SOURCES:
        raise InputError(f"unknown source {source!r}", field="source", expected="one of " + ", ".join(SOURCES))
    module = importer(source)
    if not hasattr(module, "census_terms"):
        games = sorted(SOURCES[s] for s in SOURCES if hasattr(importer(s), "census_terms"))
        raise InputError(f"the {source} importer requires every field its rules read and names the rest in its "
                         "import report; it has no census of terms", field="--terms",
                         expected="a game whose importer keeps part of a card's data: " + ", ".join(games))
    start = time.monotonic()
    result = TermCensus(source, 0, 0.0)
    for card_id, rows in module.census_terms(Path(path), progress):
        result.cards += 1
        for kind, term, status, rule in rows:
            entry = result.terms.setdefault((kind, term, status), {"rule": rule, "cards": 0, "example": card_id})
            entry["cards"] += 1
    result.seconds = round(time.monotonic() - start, 2)
    return result


def markdown(result: TermCensus) -> str:
    """The census as a Markdown table by kind of term, then every named and dropped term with one real card."""
    lines = [f"Terms of {result.source}'s {result.cards} cards that can bear on a question:", "",
             "| kind of term | " + " | ".join(STATUSES) + " |", "|---|" + "---|" * len(STATUSES)]
    for kind, counts in sorted(result.by_kind().items()):
        lines.append(f"| {kind} | " + " | ".join(str(counts.get(s, 0)) for s in STATUSES) + " |")
    lines += ["", "| kind | term | status | rule or reason | cards | e.g. |", "|---|---|---|---|---|---|"]
    for (kind, term, status), entry in sorted(result.terms.items()):
        lines.append(f"| {kind} | `{term}` | {status} | {entry['rule']} | {entry['cards']} | {entry['example']} |")
    return "\n".join(lines) + "\n"
