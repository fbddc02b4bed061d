"""The paragraph-id scheme, defined once for every document.

A document's paragraphs are its non-empty lines, numbered in order from 1: `p1`, `p2`, ... Each carries a
hash of its text (the first 12 hex digits of the SHA-256 of the line with surrounding white space removed),
so that a revised line shows up as drift against the source map in facts/<game>/paragraphs.lp.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from pyengine.games import DOCUMENT_FILES


@dataclass(frozen=True)
class Paragraph:
    id: str
    hash: str
    text: str


def text_hash(text: str) -> str:
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()[:12]


def paragraphs(text: str) -> list[Paragraph]:
    """Split a document into its numbered paragraphs."""
    lines = [line.strip() for line in text.splitlines()]
    return [Paragraph(f"p{n}", text_hash(line), line) for n, line in enumerate((ln for ln in lines if ln), 1)]


def read_document(folder: Path, document: str) -> list[Paragraph]:
    return paragraphs((folder / DOCUMENT_FILES[document]).read_text(encoding="utf-8"))
