"""Answers that said less than they knew (issue 65 item 6): what a `plays` listing covers, why a Marvel deck's
exception does not apply, a deck's cards in words, one wording for a card pool not imported, numbers written back as
numbers, and why a comparison's totals differ between sides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from pyengine import api
from pyengine.core.results import QuestionResult, ScenarioResult
from pyengine.run.reset import reset_text
from pyengine.tools import conformance


def test_a_lotr_listing_says_what_it_tried_heals_included() -> None:
    result = api.plays(ROOT / "examples" / "judge_second_sting.yaml", "alice")
    [question] = result.questions
    assert question.covers is not None and "a heal by discarding (ask: heal)" in question.covers
    assert f"tried: {question.covers}" in result.text


def test_a_marvel_deck_refused_for_its_identity_says_why_the_exception_does_not_apply() -> None:
    result = api.explain(ROOT / "tests" / "scenarios" / "marvel" / "hero_and_ally.yaml",
                         "hero-deck-with-its-own-ally-version")
    [question] = result.questions
    assert "marvel_ally_subtitle_is_alter_ego" in question.rules
    assert "the exception for a different subtitle does not apply" in result.text


def test_a_deck_question_names_its_cards_in_words() -> None:
    text = api.explain(ROOT / "tests" / "scenarios" / "marvel" / "hero_and_ally.yaml",
                       "hero-deck-with-its-own-ally-version").text
    assert "codes=1 \u00d7 Spider-Man, Peter Parker (04045)" in text
    assert "('" not in text


@pytest.mark.parametrize(("game", "catalog", "table"), [
    ("lotr", "gemp", {"players": {"alice": {}}, "questions": [{"ask": "plays", "player": "alice"}]}),
    ("marvel", "marvelsdb", {"players": {"alice": {}}, "questions": [{"ask": "plays", "player": "alice"}]}),
    ("dfm", "vermihunter", {"questions": [{"ask": "plays", "player": "fellowship"}]}),
])
def test_a_pool_not_imported_is_one_message_for_every_game(cli, own_store: Path, tmp_path: Path, game: str,
                                                           catalog: str, table: dict) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump({"game": game, "catalog": catalog, **table}), encoding="utf-8")
    code, _, err = cli("check", str(path))
    assert code == 2
    assert (f"catalog: no imported catalog {catalog!r} in the card store {own_store}: import it with `pyengine "
            f"import {catalog} PATH`") in err
    assert "expected a card pool imported into the store" in err and "expected run" not in err


def test_reset_writes_a_number_as_a_number() -> None:
    text = "game: dfm\nquestions:\n  - {id: coins, ask: value, of: [coins, fellowship]}\n"
    answer = QuestionResult("coins", "value", None, "3", True, [], [], [], {}, {}, unchecked=True)
    new, changed = reset_text(text, "t.yaml", ScenarioResult("t.yaml", "", [answer]))
    assert changed == 1 and "expect: 3}" in new and yaml.safe_load(new)["questions"][0]["expect"] == 3


def test_a_comparison_says_why_its_sides_count_different_totals(cli, tmp_path: Path) -> None:
    pack = tmp_path / "pack.jsonl"
    conformance.export([ROOT / "examples" / "judge_second_sting.yaml",
                        ROOT / "examples" / "marvel_reading_faces.yaml"], pack)
    lines = [json.loads(line) for line in pack.read_text(encoding="utf-8").splitlines()]
    verdicts = tmp_path / "verdicts.jsonl"
    verdicts.write_text("".join(json.dumps({"id": e["id"], "verdict": e["verdicts"]["default"]["verdict"]}) + "\n"
                                for e in lines), encoding="utf-8")
    code, out, _ = cli("conformance", "compare", str(pack), str(verdicts), "--profile", "default")
    games = {e["game"]: sum(x["game"] == e["game"] for x in lines) for e in lines}
    assert code == 0
    assert f"default: {len(lines)}/{len(lines)} agree ({games['lotr']} of lotr, {games['marvel']} of marvel)" in out
    assert "a profile is one game's choices: it answers only that game's questions" in out
