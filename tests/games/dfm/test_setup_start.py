"""Issue 66 Build 4: a chapter-1 Duel state that leaves out the players' coins, the board's units or connections or
whose turn it is starts as the game does (facts/dfm/base_game.lp's setup_coins/2, setup_units/3 and first_player/1,
which the import checks against the data, and the base game's board: setup_board.yaml), and every answer names it
(assumption setup_start); a later chapter's state is not the game's start, so leaving them out there is an input
error that names each field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import ROOT
from pyengine import api
from pyengine.core import kb as kbase
from pyengine.core.errors import InputError
from pyengine.pytest_plugin import missing_catalog_reason

SCENARIOS = ROOT / "tests" / "scenarios" / "dfm"


def _answers(name: str) -> list[Any]:
    try:
        return api.answer(SCENARIOS / f"{name}.yaml").questions
    except InputError as error:
        reason = missing_catalog_reason(error)
        if reason is None:
            raise
        pytest.skip(reason)


def test_a_table_that_leaves_the_start_out_answers_as_the_one_giving_the_setup_and_names_it() -> None:
    left_out, given = _answers("setup_start"), _answers("setup_numbers_given")
    assert left_out and all("setup_start" in (q.assumptions or []) for q in left_out), [
        (q.question, q.assumptions) for q in left_out]
    assert given and not any("setup_start" in (q.assumptions or []) for q in given)
    alike = {q.question: q.got for q in given}
    assert {q.question: q.got for q in left_out if q.question in alike} == alike


def test_the_assumption_says_what_the_setup_gives_and_where_it_stops() -> None:
    text = kbase.load("dfm").assumptions["setup_start"]
    assert "3 coins" in text and "Sauron with 2" in text and "Arnor" in text and "Sauron to play" in text
    assert "InitialConfig" in text and "later chapter must give them" in text


def _table(chapter: int, state: dict[str, Any], turn: bool = True) -> dict[str, Any]:
    return {"game": "dfm", "title": "a table of a later chapter", "chapter": chapter, "state": state,
            **({"turn": "sauron"} if turn else {}),
            "questions": [{"id": "coins", "ask": "value", "after": 0, "of": ["coins", "sauron"]}]}


@pytest.mark.parametrize("chapter", [2, 3])
def test_a_later_chapter_that_leaves_the_start_out_is_an_input_error_naming_each_field(chapter: int) -> None:
    with pytest.raises(InputError) as raised:
        api.answer(_table(chapter, {"coins": {"fellowship": 1}}, turn=False))
    fields = {e.field for e in raised.value.all()}
    assert fields == {"state.coins.sauron", "state.units", "state.connections", "turn"}
    assert all("only a chapter-1" in (e.expected or "") for e in raised.value.all())
    given = _table(chapter, {"coins": {"fellowship": 1, "sauron": 4}, "units": {}, "connections": []})
    [coins] = api.answer(given).questions
    assert coins.got == "4" and "setup_start" not in (coins.assumptions or [])


def test_the_command_line_refuses_such_a_file_with_its_place_exit_2(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "chapter_2.yaml"
    path.write_text(yaml.safe_dump(_table(2, {"coins": {"fellowship": 1, "sauron": 0}}), sort_keys=False),
                    encoding="utf-8")
    code, _, err = cli("check", str(path))
    assert code == 2 and "state.units" in err and f"{path}:4" in err, err


def test_a_later_chapter_without_a_state_is_located_at_its_chapter_and_a_bad_turn_is_one_error(
        tmp_path: Path) -> None:
    path = tmp_path / "no_state.yaml"
    path.write_text("game: dfm\ntitle: no state\nchapter: 3\nturn: sauron\n"
                    "questions:\n  - {id: q, ask: tokens}\n", encoding="utf-8")
    with pytest.raises(InputError) as raised:
        api.answer(path)
    assert {(e.field, e.line) for e in raised.value.all()} == {
        ("state.coins.fellowship", 3), ("state.coins.sauron", 3), ("state.units", 3), ("state.connections", 3)}
    with pytest.raises(InputError) as raised:
        api.answer({**_table(2, {"coins": {"fellowship": 1, "sauron": 4}, "units": {}, "connections": "standard"}),
                    "turn": "gandalf"})
    assert [e.field for e in raised.value.all()] == ["turn"] and "gandalf" in raised.value.all()[0].message


def test_a_state_that_does_not_say_its_chapter_is_the_start_and_says_so() -> None:
    table = {"game": "dfm", "title": "no chapter", "turn": "sauron",
             "state": {"coins": {"fellowship": 0, "sauron": 0}, "units": {}, "connections": [],
                       **{key: value for entry in PARTS.values() for key, value in entry.items()}},
             "questions": [{"id": "coins", "ask": "value", "after": 0, "of": ["coins", "sauron"]}]}
    [coins] = api.answer(table).questions
    assert coins.got == "0" and coins.assumptions == ["setup_start"]
    [coins] = api.answer({**table, "chapter": 1}).questions
    assert coins.assumptions == []


def test_the_plays_listing_and_the_board_in_words_name_the_setup(cli) -> None:  # type: ignore[no-untyped-def]
    path = str(SCENARIOS / "setup_start.yaml")
    code, out, _ = cli("plays", path, "--player", "sauron")
    if code == 2 and "import" in out + _:
        pytest.skip("the Duel's real cards are not imported")
    assert code == 0 and "every play rested on base-game assumptions:" in out and "setup_start" in out
    code, out, _ = cli("board", path)
    assert code == 0 and "setup_start" in out


# Every part a state may leave out to be none, and a value of it for the table that gives it.
PARTS = {"stacks": {"stacks": {}}, "eagle": {"eagle": "bottom"}, "tiles": {"tiles": []}, "allies": {"allies": {}},
         "ring": {"ring": 0}, "grey": {"grey": {}}, "alliance": {"alliance": {}}, "discard_pile": {"discard_pile": 0},
         "symbols": {"symbols": {}}, "fortresses": {"fortresses": {}}, "extra_turns": {"extra_turns": {}}}
START = {"coins": {"fellowship": 3, "sauron": 2}, "units": {}, "connections": []}


@pytest.mark.parametrize("part", sorted(PARTS))
def test_a_part_left_out_is_none_and_named_and_given_it_is_not(part: str) -> None:
    """Issue 66 Build 4: no part of a state is none without the answer saying so: a later chapter's state that
    leaves out one part names exactly it (assumption none_given(F)); given (even as none), it is not named."""
    given = {key: value for name, entry in PARTS.items() if name != part for key, value in entry.items()}
    [left] = api.answer(_table(2, {**START, **given})).questions
    assert left.assumptions == [f"none_given({part})"]
    [full] = api.answer(_table(2, {**START, **given, **PARTS[part]})).questions
    assert full.assumptions == []
    assert f"none_given({part})" in kbase.load("dfm").assumptions


def test_at_the_start_a_part_the_setup_has_none_of_is_the_setups_and_one_it_deals_is_named_as_none() -> None:
    """In chapter 1 the grey cards, tokens held, discard pile, symbols, Fortresses and extra turns left out are the
    setup's none (setup_start); the stacks, the Eagle, the tiles, the allies and the Ring track, which the setup
    deals at random or places, are none and named each (none_given(F))."""
    [answer] = api.answer(_table(1, dict(START))).questions
    assert answer.assumptions == ["none_given(allies)", "none_given(eagle)", "none_given(ring)", "none_given(stacks)",
                                  "none_given(tiles)", "setup_start"]
