"""pyengine as a library: every API function called in-process, its results typed, its JSON equal to what the
command line prints with --json, and every JSON checked against the shipped JSON Schemas."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import pyengine
from conftest import ROOT
from pyengine import api
from pyengine.core import kb as kbase
from pyengine.core.scenario import scenario_files
from pyengine.core.yamlio import load_file
from pyengine.schema import OUTPUTS, schema
from tests.paths import DOCS

STING = ROOT / "examples" / "judge_second_sting.yaml"
TABLE = {
    "game": "lotr",
    "players": {
        "alice": {"support": [{"id": "sting", "card": "1R313"}],
                  "hand": [{"id": "sting-2", "card": "Sting"}, {"id": "gandalf", "card": "1P364"}]},
        "bob": {"hand": [{"id": "bob-sting", "card": "1_313"}]},
    },
    "questions": [{"id": "second-sting", "ask": "play", "instance": "sting-2", "expect": "illegal"}],
}


def _valid(name: str, data: object) -> None:
    jsonschema.Draft202012Validator(schema(name)).validate(data)


def test_the_api_is_re_exported_from_the_package() -> None:
    for name in ("load", "answer", "plays", "explain", "flip", "readings", "rules", "card", "check",
                 "validate_deck", "InputError"):
        assert getattr(pyengine, name) is getattr(api, name)


def test_a_scenario_loads_from_a_file_a_yaml_string_and_a_dict() -> None:
    from_file = pyengine.load(STING)
    from_text = pyengine.load(text=STING.read_text(encoding="utf-8"), name="sting.yaml")
    from_dict = pyengine.load(TABLE)
    assert from_file.path == str(STING) and from_text.path == "sting.yaml" and from_dict.path == "<data>"
    assert [q.id for q in from_file.questions] == [q.id for q in from_text.questions]
    assert from_dict.state.instances["sting-2"].card.id == "1_313"


def test_answer_gives_typed_results() -> None:
    result = pyengine.answer(TABLE)
    assert isinstance(result, api.ScenarioResult) and result.passed
    [question] = result.questions
    assert question.got == "illegal" and question.rules == ["lotr_unique_blocks_unique"]
    assert question.reasons[0].evidence.startswith("\u2022Sting (1R313) [sting]")
    assert question.reasons[0].sources[0] == api.Source("lotr_unique", "p3")


def test_readings_and_profiles_are_arguments() -> None:
    table = {**TABLE, "players": {"alice": {"play": [{"id": "mumak", "card": "15R86"}],
                                            "hand": [{"id": "mumak-2", "card": "7R152"}]}},
             "questions": [{"id": "q", "ask": "play", "instance": "mumak-2"}]}
    assert pyengine.answer(table).questions[0].got == "illegal"
    assert pyengine.answer(table, readings={"lotr_mumak_direction": "nonunique_exempt"}).questions[0].got == "legal"
    assert pyengine.answer(table, profile="gemp").questions[0].got == "legal"
    with pytest.raises(pyengine.InputError) as error:
        pyengine.answer(table, readings={"lotr_mumak_direction": "nonunique_exemp"})
    assert error.value.suggestion == "'nonunique_exempt'"


def test_plays_lists_every_play_with_its_verdict() -> None:
    result = pyengine.plays(TABLE, player="alice")
    [question] = result.questions
    assert question.ask == "plays" and question.got == {"legal": ["gandalf"], "illegal": ["sting-2"]}
    by_id = {p.play: p for p in question.plays}
    assert by_id["sting-2"].rules == ["lotr_unique_blocks_unique"] and by_id["gandalf"].verdict == "legal"
    assert {q.question for q in pyengine.plays(TABLE).questions} == {"plays:alice", "plays:bob"}


def test_explain_carries_the_chain_in_words() -> None:
    result = pyengine.explain(STING, question="bob-sting")
    assert [q.question for q in result.questions] == ["bob-sting"]
    assert "<- rule lotr_per_player_scope" in result.text and "<- lotr_unique p46" in result.text


def test_flip_readings_rules_card_and_facts() -> None:
    flipped = pyengine.flip(STING, "alice-second-sting")
    assert flipped.flippable and flipped.after and flipped.after.verdict == "legal"
    readings = pyengine.readings("marvel").readings
    assert {r.game for r in readings} == {"marvel"} and any(r.reading == "marvel_identity_faces" for r in readings)
    assert any(r.rule == "lotr_unique_blocks_unique" for r in pyengine.rules("lotr").rules)
    card = pyengine.card("lotr", "Sting")
    assert (card.id, card.collinfo, card.unique) == ("1_313", "1R313", True)
    assert any(f.startswith("q_play(") for f in api.facts(STING).facts)


def test_a_deck_built_in_memory_is_validated() -> None:
    deck = {"game": "lotr", "cards": ["3 Sting", {"card": "1R313", "count": 2}]}
    result = pyengine.validate_deck(deck)
    assert not result.valid and [r.rule for r in result.reasons] == ["lotr_deck_four_per_title"]
    pursuers = pyengine.validate_deck({"game": "lotr", "cards": ["4 Orc Pursuer (5C108)", "4 7C303"]})
    assert pursuers.valid and [r.rule for r in pursuers.reasons] == ["lotr_orc_pursuer_exception"]


def test_errors_are_one_exception_type_with_their_place() -> None:
    text = ("game: lotr\nplayers:\n  alice:\n    hand: [{id: s, card: Stingg}]\n"
            "questions:\n  - {ask: play, instance: s}\n")
    with pytest.raises(pyengine.InputError) as error:
        pyengine.load(text=text, name="table.yaml")
    assert (error.value.file, error.value.line) == ("table.yaml", 4)
    assert error.value.field and "card" in error.value.field and "Sting" in (error.value.suggestion or "")
    several = pyengine.check([ROOT / "tests" / "bad_input"])
    assert not several.scenarios and len(several.errors) > 10 and several.exit_code == 2
    assert all(f.errors and f.errors[0].text.startswith(f.file) for f in several.errors)
    with pytest.raises(pyengine.InputError):
        pyengine.card("dfm", "anything")


@pytest.mark.parametrize("args, function", [
    (["check", str(STING), "--json"], lambda: api.check([str(STING)])),
    (["explain", str(STING), "--json"], lambda: api.explain(STING)),
    (["plays", str(STING), "--player", "alice", "--json"], lambda: api.plays(STING, "alice")),
    (["deck", "examples/decks/sauron_eight.txt", "--game", "lotr", "--json"],
     lambda: api.check_decks(["examples/decks/sauron_eight.txt"], game="lotr")),
    (["flip", str(STING), "--question", "bob-sting", "--json"], lambda: api.flip(STING, "bob-sting")),
    (["readings", "--json"], lambda: api.readings()),
    (["rules", "--game", "dfm", "--json"], lambda: api.rules("dfm")),
    (["facts", str(STING), "--json"], lambda: api.facts(STING)),
    (["check", "tests/scenarios/dfm/plays.yaml", "--reading", "dfm_partial_effect=refused", "--json"],
     lambda: api.check(["tests/scenarios/dfm/plays.yaml"], readings={"dfm_partial_effect": "refused"})),
])
def test_the_command_line_prints_the_api_json(cli, monkeypatch: pytest.MonkeyPatch, args: list[str],
                                              function) -> None:
    monkeypatch.chdir(ROOT)
    _, out, err = cli(*args)
    assert not err
    assert out == function().to_json() + "\n"
    name = {"explain": "answer"}.get(args[0], args[0])
    _valid(name, json.loads(out))


def test_every_output_schema_is_a_valid_schema() -> None:
    for name in ["scenario", *OUTPUTS]:
        jsonschema.Draft202012Validator.check_schema(schema(name))
        assert schema(name)["$id"].endswith(":1")


def test_schema_command_prints_the_schemas(cli) -> None:
    code, out, _ = cli("schema", "scenario")
    assert code == 0 and json.loads(out) == schema("scenario")
    code, out, _ = cli("schema", "answer")
    assert code == 0 and json.loads(out)["$defs"]["PlayResult"]["required"][0] == "play"


def test_every_scenario_file_of_the_repository_validates_against_the_scenario_schema() -> None:
    validator = jsonschema.Draft202012Validator(schema("scenario"))
    files = scenario_files([ROOT / "examples", ROOT / "tests" / "scenarios"])
    assert len(files) > 80
    for path in files:
        errors = [e.message for e in validator.iter_errors(json.loads(json.dumps(load_file(path))))]
        assert not errors, f"{path}: {errors[:3]}"


@pytest.mark.parametrize("change, where", [
    ({"players": {"alice": {"hand": [{"id": "x", "card": "Sting", "wound": 1}]}}}, "wound"),
    ({"chapter": 2}, "chapter"),
    ({"questions": [{"ask": "plays", "player": "alice", "expect": "legal"}]}, "expect"),
    ({"questions": [{"ask": "heall", "instance": "x"}]}, "heall"),
    ({"game": "chess"}, "chess"),
])
def test_the_scenario_schema_refuses_what_the_engine_refuses(change: dict, where: str) -> None:
    data = {**json.loads(json.dumps(TABLE)), **change}
    validator = jsonschema.Draft202012Validator(schema("scenario"))
    assert list(validator.iter_errors(data)), where
    with pytest.raises(pyengine.InputError):
        pyengine.answer(data)


def test_searches_documents_and_imports_through_the_api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = api.edge_cases("lotr", compare=("default", "lotr_dead_pile_scope=any_player"), max_cards=2,
                           out=tmp_path / "found")
    assert found.states >= 1 and all(Path(f["file"]).is_file() for f in found.findings)
    assert pyengine.check([tmp_path / "found"]).failed == 0
    _valid("edge-cases", found.to_dict())
    docs = DOCS
    if docs.is_dir():
        report = api.consistency(["marvel_unique"], docs, search_states=False)
        assert report.exit_code == 0 and report.documents[0]["covered"] == report.documents[0]["normative"]
        _valid("consistency", report.to_dict())
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "store.sqlite"))
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "set.hjson").write_text(
        "{\n  1_1: {\n    title: Test Blade\n    unique: true\n    side: free_people\n    type: Possession\n  }\n}\n",
        encoding="utf-8")
    imported = api.import_source("gemp", tmp_path / "cards")
    assert imported.cards == 1 and imported.report["entries"] == 1
    _valid("import", imported.to_dict())
    assert pyengine.card("lotr", "Test Blade", catalog="gemp").unique


@pytest.mark.parametrize("path, player, legal", [
    ("tests/scenarios/marvel/plays.yaml", "carol", ["choose-black-panther", "choose-miles"]),
    ("tests/scenarios/dfm/plays.yaml", "fellowship", ["call elrond enter race=dwarves", "call elrond enter race=elves",
                                                      "call elrond enter race=hobbits", "call elrond enter race=men",
                                                      "end_turn"]),
])
def test_plays_for_every_game_through_the_api_and_the_command_line(cli, path: str, player: str,
                                                                   legal: list[str]) -> None:
    result = pyengine.plays(ROOT / path, player=player)
    [question] = result.questions
    assert question.got["legal"] == legal
    assert all(p.verdict in ("legal", "illegal") for p in question.plays or [])
    code, out, _ = cli("plays", str(ROOT / path), "--player", player, "--json")
    assert code == 0 and json.loads(out) == json.loads(result.to_json())
    _valid("plays", json.loads(out))


def test_the_judge_example_lists_every_card_in_alices_hand(cli) -> None:
    code, out, _ = cli("plays", str(STING), "--player", "alice", "--json")
    [question] = json.loads(out)["questions"]
    plays = {p["play"]: p for p in question["plays"]}
    assert code == 0 and set(plays) == {"alice-sting-2", "alice-frodo-2", "alice-gandalf"}
    sting = plays["alice-sting-2"]
    assert sting["verdict"] == "illegal" and sting["rules"] == ["lotr_unique_blocks_unique"]
    assert plays["alice-gandalf"]["verdict"] == "legal" and plays["alice-frodo-2"]["verdict"] == "illegal"


def test_explain_needs_questions_while_plays_takes_a_bare_table(cli, tmp_path: Path) -> None:
    table = tmp_path / "table.yaml"
    table.write_text("game: lotr\nplayers: {alice: {hand: [Sting]}}\n", encoding="utf-8")
    code, _, err = cli("explain", str(table))
    assert code == 2 and "asks no questions" in err
    code, out, _ = cli("plays", str(table), "--json")
    assert code == 0 and json.loads(out)["questions"][0]["got"] == {"legal": ["alice.hand.1"], "illegal": []}


def test_an_explanation_says_whether_each_card_it_cites_was_found_active_and_why() -> None:
    """The rules find a card in play active or not (rules/lotr/state.lp, activity/3): the explanation says which,
    and why, for every instance a reason cites; a card the state marks says so."""
    table = {"game": "lotr", "turn": {"player": "alice", "phase": "fellowship"},
             "players": {"alice": {"support": [{"id": "sting", "card": "1_313"}],
                                   "hand": [{"id": "sting-2", "card": "1_313"}]},
                         "bob": {"support": [{"id": "bob-sting", "card": "1_313", "active": True}],
                                 "hand": [{"id": "bob-sting-2", "card": "1_313"}]}},
             "questions": [{"id": "alice", "ask": "play", "instance": "sting-2"},
                           {"id": "bob", "ask": "play", "instance": "bob-sting-2"}]}
    alice, bob = api.explain(table).questions
    assert [r.evidence for r in alice.reasons] == [
        "•Sting (1R313) [sting] in alice's support area; found active by whose turn it is (p5)"]
    assert [r.evidence for r in bob.reasons] == [
        "•Sting (1R313) [bob-sting] in bob's support area, marked active; found active as the scenario marks it"]
    assert "found active by whose turn it is (p5)" in api.explain(table, "alice").text


@pytest.mark.parametrize("path", ["examples/judge_second_sting.yaml", "examples/reading_dead_pile_scope.yaml",
                                  "examples/marvel_reading_faces.yaml", "tests/scenarios/marvel/hero_and_ally.yaml"])
def test_a_table_grounded_once_answers_as_each_function_does(path: str) -> None:
    """api.table grounds a card game's table once; its answers, plays and explanations under any readings or
    profile are those of api.answer, api.plays and api.explain on the same file."""
    file = ROOT / path
    table = api.table(file)
    game = table.scenario.game.name
    kb = kbase.load(game)
    sides = [({}, None), *(({n: c}, None) for n, r in sorted(kb.readings.items()) for c in r.choices),
             *(({}, p) for p in sorted(kb.profiles))]
    for readings, profile in sides:
        assert table.answer(readings, profile).to_json() == api.answer(file, readings, profile).to_json()
        assert table.explain(readings, profile).text == api.explain(file, None, readings, profile).text
        for player in (None, *table.scenario.game.reader.player_names(table.scenario.state)):
            assert table.plays(player, readings, profile).to_json() == api.plays(file, player, readings,
                                                                                 profile).to_json()
    assert [r.to_json() for r in table.compare([{}, *(s for s, _ in sides[1:3])])] == [
        api.answer(file, s).to_json() for s in [{}, *(s for s, _ in sides[1:3])]]


def test_a_duel_table_has_no_single_grounding() -> None:
    with pytest.raises(pyengine.InputError, match="grounded a moment at a time"):
        api.table(ROOT / "examples" / "dfm_warg_and_elrond.yaml")
