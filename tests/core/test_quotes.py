"""A paragraph quoted in an answer says where the document's line breaks cut its sentence (issue 65 item 5): the
LOTR article breaks lines inside sentences, so a paragraph may start with "or the Balrog, ..."."""

from __future__ import annotations

import pytest

from pyengine.core.sources import paragraphs, read_document
from tests.paths import DOCS


def test_a_line_that_carries_on_a_sentence_is_quoted_as_cut_at_both_ends() -> None:
    first, second, third = paragraphs("A unique persona, like Sting (1R313)\nor the Balrog, rather than a guard.\n"
                                      "Another sentence.")
    assert (first.starts_cut, first.ends_cut) == (False, True)
    assert (second.starts_cut, second.ends_cut) == (True, False)
    assert first.quote == "A unique persona, like Sting (1R313) \u2026"
    assert second.quote == "\u2026 or the Balrog, rather than a guard."
    assert third.quote == third.text == "Another sentence."


def test_a_line_going_on_with_punctuation_is_cut_too_and_whole_sentences_are_not() -> None:
    one, two = paragraphs("You can still play Aragorn (1R89)\n, and then more.")
    assert one.ends_cut and two.starts_cut and two.quote.startswith("\u2026 , and")
    whole = paragraphs("A heading\nA sentence.\nThe next one.")
    assert not any(p.starts_cut or p.ends_cut for p in whole)


@pytest.mark.skipif(not DOCS.is_dir(), reason=f"the rules documents are not at {DOCS}")
def test_the_lotr_article_paragraph_on_the_balrog_is_quoted_as_cut() -> None:
    by_id = {p.id: p for p in read_document(DOCS, "lotr_unique")}
    assert by_id["p3"].text.startswith("or the Balrog")
    assert by_id["p3"].quote.startswith("\u2026 or the Balrog") and by_id["p2"].quote.endswith("(1R313) \u2026")
