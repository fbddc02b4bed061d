"""The annotated rulebook: each paragraph of a rules document beside the rules that encode it, the readings that
cite it, the scenarios that test it and the consistency findings about it, as a rules writer reviews it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pyengine.core import kb as kbase
from pyengine.core.sources import document_path, read_document, text_hash
from pyengine.games import DOCUMENT_FILES, DOCUMENTS, GAME_OF
from pyengine.tools.consistency import citations


def documents_index(docs: Path | None) -> list[dict[str, Any]]:
    """Every encoded document: its id, game, file (relative to the docs folder: a game's further document lies
    beside it), and whether it is there."""
    return [{"document": d, "game": GAME_OF[d], "file": f, "available": bool(docs and document_path(docs, d).is_file())}
            for d, f in DOCUMENT_FILES.items()]


def _number(paragraph: str) -> int:
    return int(re.sub(r"\D", "", paragraph) or 0)


def shown(file: str, folders: list[Path]) -> str:
    """A scenario file as a page shows it: from the name of the folder it was found in, never a path of the
    server's disk."""
    path = Path(file)
    for folder in folders:
        if path == folder:
            return folder.name
        if path.is_relative_to(folder):
            return f"{folder.name}/{path.relative_to(folder).as_posix()}"
    return path.name


def document_view(document: str, docs: Path | None, scenarios: list[Path]) -> dict[str, Any]:
    """One document's paragraphs in order with their annotations, and its consistency findings (run without the
    edge-case search). Without the docs folder, the paragraphs are the knowledge base's paraphrases only."""
    from pyengine import api

    kb = kbase.load(GAME_OF[document])
    available = bool(docs and document_path(docs, document).is_file())
    read = read_document(docs, document) if available and docs else []
    texts = {p.id: p.text for p in read}
    # A paragraph as an answer quotes it: where the document's line break cut its sentence, the quote says so.
    quotes = {p.id: p.quote for p in read}
    ids = sorted(set(texts) | {p for d, p in kb.paragraphs if d == document}, key=_number)
    cited = citations(scenarios, document)
    findings = (api.consistency([document], docs, scenarios, search_states=False).documents[0]["findings"]
                if available else [])
    paragraphs = []
    for pid in ids:
        entry = kb.paragraph(document, pid)
        text = texts.get(pid)
        paragraphs.append({
            "id": pid, "text": text, "quote": quotes.get(pid),
            "paraphrase": entry.paraphrase if entry else None,
            "non_normative": entry.non_normative if entry else None,
            "drift": bool(entry and text is not None and entry.hash != text_hash(text)),
            "states": sorted(r.id for r in kb.rules.values() if (document, pid) in r.sources),
            "illustrates": sorted(r.id for r in kb.rules.values() if (document, pid) in r.examples),
            # A reading's choices cite paragraphs of the game's main document, and of another by its name.
            "readings": [f"{r.name}={c.value}" for r in sorted(kb.readings.values(), key=lambda r: r.name)
                         for c in r.choices.values()
                         if (pid in c.paragraphs and DOCUMENTS[kb.game] == document) or (document, pid) in c.others],
            "scenarios": sorted(shown(f, scenarios) for f in cited.get(pid, [])),
            "findings": [f["id"] for f in findings if pid in f.get("paragraphs", [])],
        })
    return {"document": document, "game": GAME_OF[document], "available": available, "paragraphs": paragraphs,
            "findings": findings, "scenario_folders": [p.name for p in scenarios],
            "scenarios_cited": len({f for files in cited.values() for f in files})}
