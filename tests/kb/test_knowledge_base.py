"""Integrity of the knowledge base: every rule declared, sourced and exercised; every normative paragraph
encoded and cited by a scenario; the source map in step with the documents; every reading choice used."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import ROOT
from pyengine.core import kb as kbase
from pyengine.core.resources import facts_dir, rules_dir
from pyengine.core.sources import DOCUMENT_FILES, document_path, read_document
from pyengine.games import GAME_DOCUMENTS, GAME_OF, registry
from tests.paths import DOCS

GAMES = sorted(registry())
# Every document of every game: a game's main one and its further ones (the Duel's base-game notes).
DOCUMENTS = [d for g in GAMES for d in GAME_DOCUMENTS[g]]


def _documented(game: str) -> set[str]:
    """The predicates a doc block (mkdoclingo's `%*! head(...)`, one predicate a block) describes, in the game's
    encodings, its hand-written facts, its search space and the shared encodings."""
    files = [*Path(rules_dir(), game).rglob("*.lp"), *Path(facts_dir(), game).glob("*.lp"),
             *Path(rules_dir(), "common").glob("*.lp"), Path(rules_dir(), "search", f"{game}.lp")]
    heads = set()
    for path in files:
        heads.update(re.findall(r"^%\*!\s*(\w+)\(", path.read_text("utf-8"), re.M))
    return heads


def _emitted(game: str) -> dict[str, list[str]]:
    """Each predicate the game's code builds a fact of (`fact("name", ...)`), with where."""
    found: dict[str, list[str]] = {}
    for path in sorted(Path("pyengine", "games", game).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "fact"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found.setdefault(node.args[0].value, []).append(f"{path}:{node.lineno}")
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_has_a_statement_and_a_paragraph_of_the_source_map(game: str) -> None:
    kb = kbase.load(game)
    assert kb.rules
    for rule in kb.rules.values():
        assert rule.text, f"{rule.id} has no rule_text"
        assert rule.sources, f"{rule.id} has no source paragraph"
        for document, para in rule.sources + rule.examples:
            assert document in GAME_DOCUMENTS[game], f"{rule.id} cites {document}, not a document of {game}"
            entry = kb.paragraph(document, para)
            assert entry is not None, f"{rule.id} cites {document} {para}, which is not in the source map"
            assert entry.non_normative is None, f"{rule.id} cites {para}, marked non-normative"


@pytest.mark.parametrize("game", GAMES)
def test_every_declared_rule_is_exercised_by_a_scenario(game: str, all_answers) -> None:
    all_answers.require_every_file()
    fired = {r.rule for scenario, answers in all_answers if scenario.game.name == game
             for a in answers for r in a.reasons}
    assert sorted(set(kbase.load(game).rules) - fired) == []


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_normative_paragraph_is_encoded_or_explained(document: str) -> None:
    kb = kbase.load(GAME_OF[document])
    mapped = [para for doc, para in kb.paragraphs if doc == document]
    assert mapped, f"{document} has no source map"
    for (doc, para), entry in kb.paragraphs.items():
        if doc == document and entry.non_normative is None:
            assert kb.rule_ids_for(doc, para), f"{doc} {para} is normative but no rule states or illustrates it"


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_normative_paragraph_is_cited_by_a_scenario(document: str, all_answers) -> None:
    all_answers.require_every_file()
    game = GAME_OF[document]
    kb = kbase.load(game)
    cited = {p for scenario, _ in all_answers if scenario.game.name == game
             for d, p in scenario.cited() if d == document}
    normative = {para for (doc, para), e in kb.paragraphs.items() if doc == document and e.non_normative is None}
    assert sorted(normative - cited, key=lambda p: int(p[1:])) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_choice_of_every_reading_decides_some_scenario(game: str, all_answers) -> None:
    all_answers.require_every_file()
    used = {(n, v) for scenario, answers in all_answers if scenario.game.name == game
            for a in answers for n, v in a.rested_on.items()}
    kb = kbase.load(game)
    for reading in kb.readings.values():
        assert len(reading.choices) >= 2, reading.name
        assert reading.default in reading.choices, reading.name
        for value, choice in reading.choices.items():
            assert choice.paragraphs or choice.others, f"{reading.name}={value} names no paragraph"
            assert all((d, p) in kb.paragraphs for d, p in choice.others), f"{reading.name}={value}"
            assert (reading.name, value) in used, f"no scenario's verdict rests on {reading.name}={value}"
    for profile, choices in kb.profiles.items():
        for name, value in choices.items():
            assert value in kb.readings[name].choices, f"profile {profile} picks unknown {name}={value}"


@pytest.mark.parametrize("document", DOCUMENTS)
def test_source_map_matches_the_document(document: str) -> None:
    if not document_path(DOCS, document).exists():
        pytest.skip(f"{document} is not at {document_path(DOCS, document)}")
    kb = kbase.load(GAME_OF[document])
    current = {p.id: p.hash for p in read_document(DOCS, document)}
    mapped = {para: e.hash for (doc, para), e in kb.paragraphs.items() if doc == document}
    assert mapped == current


# The Duel's rules about the victory conditions: the only ones that may cite dfm_allies p7, the paragraph that keeps
# the base game's victory conditions in force (issue 66, item 6).
DUEL_VICTORY_RULES = {"dfm_victory_quest_fellowship", "dfm_victory_quest_sauron", "dfm_victory_races",
                      "dfm_victory_conquest", "dfm_victory_count", "dfm_final_draw", "dfm_no_winner_yet",
                      "dfm_game_over", "dfm_victory_mid_effect", "dfm_victory_quest_sauron_race",
                      "dfm_nazgul_race_goes_on"}


def test_only_the_duel_victory_rules_cite_the_paragraph_keeping_the_base_game() -> None:
    """A base-game rule cites the notes' paragraphs that say what it decides (document dfm_base), not the Allies
    rulebook's sentence that the base game stays in force; the victory rules cite both."""
    kb = kbase.load("dfm")
    citing = {r.id for r in kb.rules.values() if ("dfm_allies", "p7") in r.sources + r.examples}
    assert citing == DUEL_VICTORY_RULES
    for rule in DUEL_VICTORY_RULES:
        assert ("dfm_base", "p23") in kb.rules[rule].sources, f"{rule} does not cite the notes' victory row"
    resting = {r.id for r in kb.rules.values() if "base-game assumption" in r.text}
    assert resting and [r for r in sorted(resting) if not any(d == "dfm_base" for d, _ in kb.rules[r].sources)] == []


def test_a_duel_rule_the_notes_do_not_state_names_where_it_comes_from() -> None:
    """A rule whose verdict the base-game notes do not state (a value or an effect only an implementation's data or
    game gives) says so: its basis names the implementation, and the paragraphs it cites are the nearest."""
    kb = kbase.load("dfm")
    based = {r.id: r.basis for r in kb.rules.values() if r.basis}
    assert {"dfm_card_skill_cost", "dfm_card_units_taken", "dfm_token_any_skill", "dfm_state_after_steps"} <= set(based)
    for rule, basis in based.items():
        assert kb.rules[rule].sources, rule
        assert rule == "dfm_state_after_steps" or re.search(r"Vermihunter's|Reilynn's|a reading of", basis), rule


def test_a_scenario_cites_a_further_document_by_its_id() -> None:
    """`cites:` takes a bare paragraph id of the game's main document, or DOCUMENT:PARAGRAPH of any of its
    documents (the main one's kept bare); another game's document is not the game's."""
    import pyengine

    table = {"game": "dfm", "turn": "fellowship", "cites": ["p11", "dfm_allies:p7", "dfm_base:p12"],
             "questions": [{"id": "who", "ask": "winner", "after": 0, "cites": ["dfm_base:p23"]}]}
    scenario = pyengine.load(table)
    assert scenario.cites == ["p11", "p7", "dfm_base:p12"] and scenario.questions[0].cites == ["dfm_base:p23"]
    assert scenario.cited() == {("dfm_allies", "p11"), ("dfm_allies", "p7"), ("dfm_base", "p12"), ("dfm_base", "p23")}
    with pytest.raises(pyengine.InputError, match="unknown document 'lotr_unique' of game dfm"):
        pyengine.load({**table, "cites": ["lotr_unique:p3"]})
    with pytest.raises(pyengine.InputError, match="unknown paragraph 'p99' of document dfm_base"):
        pyengine.load({**table, "cites": ["dfm_base:p99"]})


def test_every_project_scenario_cites_a_paragraph(all_answers) -> None:
    for scenario, _ in all_answers:
        for question in scenario.questions:
            assert scenario.cites or question.cites, f"{scenario.path} [{question.id}] cites no paragraph"


def test_every_rule_file_names_its_document() -> None:
    for path in sorted(rules_dir().rglob("*.lp")):
        head = "\n".join(path.read_text(encoding="utf-8").splitlines()[:6])
        assert any(doc in head for doc in DOCUMENT_FILES), f"{path} does not name its source document"


def test_every_question_gets_a_verdict(all_answers) -> None:
    # The engine raises on an undeclared rule or a second verdict; every question must also get one.
    assert all(a.verdict is not None for _, answers in all_answers for a in answers if a.plays is None)
    # A `plays` question has no verdict of its own: each of its plays has one.
    plays = [p for _, answers in all_answers for a in answers for p in a.plays or []]
    assert plays and all(p.verdict is not None for p in plays)


def test_the_game_names_the_command_line_offers_are_the_registry() -> None:
    from pyengine.games import GAME_NAMES, registry

    assert set(GAME_NAMES) == set(registry())


def test_every_base_game_assumption_shows_in_some_answer(all_answers) -> None:
    """An assumption no answer ever names would be a base-game part the steps use silently, or a dead one."""
    all_answers.require_every_file()
    declared = set(kbase.load("dfm").assumptions)
    shown = {a for scenario, answers in all_answers if scenario.game.name == "dfm" for ans in answers
             for a in [*ans.assumptions, *(x for p in ans.plays or [] for x in p.assumptions)]}
    assert shown <= declared
    assert declared - shown == set()


def test_a_discard_rests_on_the_coins_and_the_discard_pile() -> None:
    from pyengine import api

    table = {"game": "dfm", "chapter": 1, "turn": "fellowship", "state": {"reserve": 10},
             "actions": [{"player": "fellowship", "take": [5, 1], "use": "discard"}],
             "questions": [{"id": "take", "ask": "action", "step": 1},
                           {"id": "coins", "ask": "value", "after": 1, "of": ["coins", "fellowship"]},
                           {"id": "start", "ask": "value", "after": 0, "of": ["coins", "fellowship"]}]}
    take, coins, start = api.explain(table).questions
    assert {"take_card", "covering", "coins_reserve", "discard_pile"} <= set(take.assumptions)
    # The chapter-1 table leaves the coins and units out: they are the setup's, and every answer names that
    # (assumption setup_start); the parts the setup deals at random or places (stacks, the Eagle, tiles, allies,
    # the Ring track) are none, each named (none_given(F)); the start's answer names only those.
    random = ["none_given(allies)", "none_given(eagle)", "none_given(ring)", "none_given(stacks)", "none_given(tiles)"]
    assert set(coins.assumptions) == set(take.assumptions) and start.assumptions == [*random, "setup_start"]
    assert start.got == "3" and "rested on base-game assumptions: " + ", ".join([*random, "setup_start"]) in \
        api.explain(table, "start").text
    given = {**table, "state": {"reserve": 10, "coins": {"fellowship": 0, "sauron": 0}, "units": {}, "connections": [],
                                "stacks": {}, "eagle": "bottom", "tiles": [], "allies": {}, "ring": 0, "grey": {},
                                "alliance": {}, "discard_pile": 0, "symbols": {}, "fortresses": {},
                                "extra_turns": {}}}
    assert "rested on base-game assumptions: none" in api.explain(given, "start").text
    sting = ROOT / "examples" / "judge_second_sting.yaml"
    assert api.answer(sting).questions[0].assumptions is None


def test_the_declarations_cache_gives_what_the_files_say(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """kb.load keeps each game's declarations as JSON; read back they equal the files' own, and a broken or
    unwritable cache is read around."""
    monkeypatch.setenv("PYENGINE_CACHE", str(tmp_path / "cache"))
    for game in ("dfm", "lotr", "marvel"):
        kbase.load.cache_clear()
        fresh = kbase.load(game)
        assert fresh == kbase._read(game)
        [cached] = (tmp_path / "cache").glob(f"kb-{game}-*.json")
        kbase.load.cache_clear()
        assert kbase.load(game) == fresh
        cached.write_text("{not json", encoding="utf-8")
        kbase.load.cache_clear()
        assert kbase.load(game) == fresh
    monkeypatch.setenv("PYENGINE_CACHE", "/proc/no-such-folder")
    kbase.load.cache_clear()
    assert kbase.load("lotr") == kbase._read("lotr")
    kbase.load.cache_clear()


def _open_questions() -> dict[str, tuple[str, str, str]]:
    """The Duel's open questions (facts/dfm/open_questions.lp): id -> (DOCUMENT:pN, kind, name)."""
    import clingo

    from pyengine.core.resources import facts_dir

    control = clingo.Control(["--warn=none"])
    control.load(str(Path(facts_dir(), "dfm", "open_questions.lp")))
    control.ground([("base", [])])
    found = {}
    for atom in control.symbolic_atoms.by_signature("open_question", 3):
        question, para, named = atom.symbol.arguments
        document, para = (para.name, para.arguments[0].name) if para.arguments else ("dfm_allies", para.name)
        found[question.name] = (f"{document}:{para}", named.name, named.arguments[0].name)
    return found


def test_every_open_question_of_the_duel_is_named_by_a_reading_or_an_assumption() -> None:
    """Every question the Allies rulebook and the base-game facts leave open is named (none decided silently):
    by a reading of the Duel, whose answers say which choice they used, or a base-game assumption, which answers
    list; every reading is such a question; and the questions a new user tripped over are among them."""
    kb = kbase.load("dfm")
    questions = _open_questions()
    for question, (para, kind, name) in questions.items():
        assert kb.paragraph(*para.split(":")) is not None, (question, para)
        assert kind in ("reading", "assumption"), question
        assert name in (kb.readings if kind == "reading" else kb.assumptions), (question, name)
    named = {name for _, kind, name in questions.values() if kind == "reading"}
    assert named == {n for n in kb.readings if n.startswith("dfm_")}
    assert {"discarded_token_identity", "shelob_lock_trigger", "nazgul_start", "chained_symbols", "fight_order",
            "final_tie", "simultaneous_victory", "board_connections", "ring_track_length"} <= set(questions)


@pytest.mark.parametrize("game", GAMES)
def test_every_input_predicate_is_documented_in_the_encodings(game: str) -> None:
    """The input vocabulary (Game.input_predicates, declared once) has a doc block for each predicate."""
    missing = sorted(set(registry()[game].input_predicates) - _documented(game))
    assert not missing, f"{game}: input predicates without a doc block: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_every_fact_a_game_builds_is_in_its_input_vocabulary(game: str) -> None:
    emitted = _emitted(game)
    assert emitted
    unknown = {name: where for name, where in emitted.items() if name not in registry()[game].input_predicates}
    assert not unknown, f"{game}: facts built outside the input vocabulary: {unknown}"


@pytest.mark.parametrize("game", GAMES)
def test_each_games_entry_file_includes_the_program_the_engine_runs(game: str) -> None:
    """rules/<game>/main.lp, which plain clingo runs (README), includes exactly the files the engine loads for
    every kind of question together, so the two cannot drift apart."""
    from pyengine.core.engine import program_files

    main = Path(rules_dir(), game, "main.lp")
    included = {(main.parent / name).resolve() for name in re.findall(r'^#include "([^"]+)"\.', main.read_text("utf-8"),
                                                                     re.M)}
    game_ = registry()[game]
    assert included == {p.resolve() for p in program_files(game, frozenset(game_.kind_files))}
