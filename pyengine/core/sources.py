"""The paragraph-id scheme, defined once for every document.

A document's paragraphs are its non-empty lines, numbered in order from 1: `p1`, `p2`, ... Each carries a
hash of its text (the first 12 hex digits of the SHA-256 of the line with surrounding white space removed),
so that a revised line shows up as drift against the source map in facts/<game>/paragraphs.lp (a game's further
document, such as notes on what its main document takes for granted, has one of its own: <name>_paragraphs.lp).
The scheme is the same for a Markdown file: a table row is one line, so one paragraph.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from pyengine.games import DOCUMENT_FILES

# What ends a sentence: its stop, perhaps inside closing quotes or brackets; a line ending otherwise is cut.
_SENTENCE_END = re.compile("[.!?:;][\"'\u201d\u2019)\\]]*$")
# What a line goes on with when it carries on the sentence of the line before (a word, or its punctuation).
_GOES_ON = tuple(",;:)]")
# A mark that a quote begins or ends inside a sentence its paragraph's line break cut.
CUT = "…"


@dataclass(frozen=True)
class Paragraph:
    id: str
    hash: str
    text: str
    # Whether the line begins inside a sentence the line before left open, and whether it leaves one open.
    starts_cut: bool = False
    ends_cut: bool = False

    @property
    def quote(self) -> str:
        """The paragraph as an answer quotes it: where a line break of the document cut a sentence, the quote says
        so with an ellipsis at that end."""
        return f"{CUT} " * self.starts_cut + self.text + f" {CUT}" * self.ends_cut


def text_hash(text: str) -> str:
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()[:12]


def paragraphs(text: str) -> list[Paragraph]:
    """Split a document into its numbered paragraphs."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    cut = [not _SENTENCE_END.search(line) and (following[:1].islower() or following[:1] in _GOES_ON)
           for line, following in zip(lines, [*lines[1:], ""], strict=True)]
    return [Paragraph(f"p{n}", text_hash(line), line, n > 1 and cut[n - 2], cut[n - 1])
            for n, line in enumerate(lines, 1)]


def document_path(folder: Path, document: str) -> Path:
    """A document's file, from the documents folder (a further document of a game lies beside that folder)."""
    return folder / DOCUMENT_FILES[document]


def read_document(folder: Path, document: str) -> list[Paragraph]:
    return paragraphs(document_path(folder, document).read_text(encoding="utf-8"))
