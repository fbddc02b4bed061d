"""Issue 66 item 7: a Duel state that leaves out the players' coins or the board's units has none of them, and every
answer says so (assumption omitted_numbers) rather than resting on "base-game assumptions: none"; the same table
giving the setup's numbers rests on no such assumption."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import ROOT
from pyengine import api
from pyengine.core import kb as kbase
from pyengine.core.errors import InputError
from pyengine.pytest_plugin import missing_catalog_reason


def _answers(name: str) -> list[Any]:
    try:
        return api.answer(ROOT / "tests" / "scenarios" / "dfm" / f"{name}.yaml").questions
    except InputError as error:
        reason = missing_catalog_reason(error)
        if reason is None:
            raise
        pytest.skip(reason)


def test_every_answer_on_a_table_that_omits_coins_and_units_names_it() -> None:
    answers = _answers("omitted_numbers")
    assert answers and all("omitted_numbers" in (q.assumptions or []) for q in answers), [
        (q.question, q.assumptions) for q in answers]


def test_no_answer_on_a_table_that_gives_them_names_it() -> None:
    answers = _answers("setup_numbers_given")
    assert answers and not any("omitted_numbers" in (q.assumptions or []) for q in answers)


def test_the_assumption_says_what_stands_in_and_what_does_not() -> None:
    text = kbase.load("dfm").assumptions["omitted_numbers"]
    assert "0 coins, no units" in text and "3 and 2 coins" in text
