"""Issue 47 item 6: the Duel's evidence reads in words, as the card games' does ("fellowship's Power tokens: 0",
not `tokens(fellowship,0)`); the fact stays beside it for those who want the term."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT
from pyengine import api

FILES = ["refusals", "tokens_short", "calls", "fellowship_allies", "setup_and_tokens", "interactions_balrog_lobelia",
         "victory_quest", "warg_reveal_outcome"]
# A term as clingo prints it: a name and its arguments in brackets, or a bare lower-case name with underscores.
TERM = re.compile(r"^[a-z_]+(\(.*\))?$")


@pytest.mark.parametrize("name", FILES)
def test_every_reason_of_a_duel_answer_is_in_words(name: str) -> None:
    result = api.answer(ROOT / "tests" / "scenarios" / "dfm" / f"{name}.yaml").to_dict()
    reasons = [r for q in result["questions"] for r in q["reasons"]]
    assert reasons
    evidence = [r["evidence"] for r in reasons]
    raw = [e for e in evidence if TERM.match(e) and ("(" in e or "_" in e)]
    assert not raw, raw


def test_the_words_name_what_the_term_says() -> None:
    result = api.answer(ROOT / "tests" / "scenarios" / "dfm" / "tokens_short.yaml").to_dict()
    reason = result["questions"][0]["reasons"][0]
    assert reason["facts"] == "tokens(fellowship,0)" and reason["evidence"] == "fellowship's Power tokens: 0"
