"""The command line: exit codes, JSON shapes, explanations, readings, and one clear line per bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from tests.paths import DATA

BAD = ROOT / "tests" / "bad_input"

# Each bad-input file, with words its one-line message must contain (besides the file and line).
BAD_INPUTS = {
    "ambiguous_card.yaml": ("5:17", "ambiguous", "1_364 (Gandalf, The Grey Wizard, companion, 1P364)",
                            "1_72 (Gandalf, Friend of the Shirefolk, companion, 1R72)"),
    "duplicate_instance.yaml": ("6:10", "used twice"),
    "empty.yaml": ("empty",),
    "malformed_yaml.yaml": ("5:1", "malformed YAML"),
    "misspelt_card.yaml": ("5:17", "unknown card 'Stingg'", "did you mean 'Sting'"),
    "negative_wounds.yaml": ("5:30", "wounds", "a whole number from 0 to 100000"),
    "not_a_mapping.yaml": ("got a list", "mapping"),
    "play_from_play.yaml": ("7:17", "lies in the play area"),
    "stacked_cycle.yaml": ("5:9", "cycle"),
    "stacked_on_itself.yaml": ("5:9", "stacked on itself"),
    "stacked_on_missing.yaml": ("7:9", "'nowhere', which does not exist"),
    "unknown_game.yaml": ("1:1", "'lotrr'", "did you mean 'lotr'"),
    "unknown_instance.yaml": ("7:17", "no instance 't'"),
    "unknown_paragraph.yaml": ("2:9", "unknown paragraph 'p999'"),
    "unknown_question_kind.yaml": ("7:6", "'plya'", "did you mean 'play'"),
    "unknown_reading.yaml": ("2:12", "unknown reading 'lotr_heal_wound'", "did you mean 'lotr_heal_wounds'"),
    "unknown_reading_choice.yaml": ("2:12", "'exactly_two'", "did you mean 'exactly_one'"),
    "unknown_rule.yaml": ("7:53", "unknown rule", "did you mean 'lotr_unique_blocks_unique'"),
    "unknown_verdict.yaml": ("7:30", "'legall'", "expected one of legal, illegal"),
    "unknown_zone.yaml": ("4:5", "unknown field 'hands'", "did you mean 'hand'"),
    "wrong_field.yaml": ("5:30", "unknown field 'wonuds'", "did you mean 'wounds'"),
    "wrong_type.yaml": ("5:30", "got 'many'", "whole number"),
    "marvel_identity_not_hero.yaml": ("4:16", "is of type ally", "expected a hero card"),
    "marvel_unknown_face.yaml": ("4:30", "'villain'", "expected hero, alter_ego, or the code or name of a hero form"),
    "marvel_unknown_player.yaml": ("6:34", "'bob'", "expected one of alice"),
    "instance_in_two_zones.yaml": ("6:13", "used twice (also in alice's play area)"),
    "heal_unknown_discard.yaml": ("7:30", "no instance 'b2'", "did you mean 'b'"),
    "players_not_a_mapping.yaml": ("2:1", "got a list", "expected a mapping"),
    "nul_character.yaml": ("3:20", "NUL character"),
    "deck_without_decklist.yaml": ("4:17", "has no deck"),
    "unknown_catalog.yaml": ("2:1", "'gempp'", "did you mean 'gemp'"),
    "coexist_three_cards.yaml": ("3:20", "got 3 cards", "exactly two"),
    "active_outside_play.yaml": ("4:33", "never active"),
    "duplicate_question_id.yaml": ("4:45", "'q1' is used twice"),
    "not_utf8.yaml": ("not UTF-8",),
    "no_questions.yaml": ("3:1", "asks no questions"),
    "dfm_unknown_ally.yaml": ("4:26", "'gandalf'", "expected one of witch_king"),
    "dfm_bad_tokens_at.yaml": ("5:7", "'orcs'", "[stack, RACE, N]"),
    # The Nazgul's steps from their start cannot be fewer than the Fellowship's, which carried them, and their own.
    "dfm_nazgul_behind.yaml": ("5:3", "got 5, fewer than ring + sauron_steps (6)", "6 or more"),
    "lotr_not_a_site.yaml": ("5:17", "is a possession, not a site", "only sites lie on the adventure path"),
    "lotr_unknown_phase.yaml": ("4:38", "'fellowshp'", "did you mean 'fellowship'"),
    "lotr_replaced_not_a_site.yaml": ("7:20", "'boromir' lies in the play area", "a site on an adventure path"),
    "lotr_companion_played_on.yaml": ("9:36", "is a companion, played on no bearer", "on: only when playing"),
    "marvel_reveal_set_aside.yaml": ("8:19", "lies in the encounter's set_aside",
                                     "an encounter card in the encounter deck"),
    "lotr_bearer_missing.yaml": ("5:9", "borne by 'nobody'", "a companion, ally or minion in the play area"),
    "dfm_missing_choice.yaml": ("4:5", "needs the choice 'race'",
                                "race: one of dwarves, men, elves, hobbits, wizards, ents"),
    "dfm_unknown_region.yaml": ("4:20", "unknown region 'gondr'", "did you mean 'gondor'"),
    "dfm_bad_bonus_region.yaml": ("5:43", "bonus_region: unknown region 'gondr'", "did you mean 'gondor'"),
    "dfm_field_the_action_does_not_read.yaml": ("4:40", "a take action takes no 'fortress'",
                                                "one of moves, region, remove, take, use"),
    "dfm_bad_pick.yaml": ("4:54", "pick 2: got 'coins'", "each coin, {remove: REGION} or {move: [FROM, TO]}"),
    "dfm_eagle_as_flag.yaml": ("4:11", "eagle_at", "eagle: one of fellowship, sauron, top, bottom"),
    "dfm_card_unknown_race.yaml": ("4:45", "'elfs'", "did you mean 'elves'"),
    "lotr_current_site_unknown.yaml": ("2:1", "'bag-ned' is no site", "did you mean 'bag-end'"),
    "lotr_ends_in_unrelated.yaml": ("9:20", "neither 'boromir' nor borne by or stacked on it", "a card it bears"),
    "dfm_outcomes_not_random.yaml": ("7:21", "has no random outcome", "warg's enter, arwen's enter"),
    "heal_without_turn.yaml": ("7:16", "a heal question needs the table's turn", "phase: fellowship"),
    "marvel_deck_without_identity.yaml": ("5:10", "a Marvel deck needs its identity", "identity: a hero"),
    "dfm_unknown_cited_document.yaml": ("2:9", "unknown document 'dfm_basis' of game dfm",
                                        "DOCUMENT:PARAGRAPH of one of the game's documents", "did you mean 'dfm_base'"),
    "lotr_action_two_kinds.yaml": ("7:34", "actions[0].play: the action names 2 kinds of action",
                                   "exactly one of kill, play, discard"),
    "lotr_heal_action_without_discard.yaml": ("8:21", "actions[0].heal: a heal names no card to discard",
                                              "discard: ID"),
    "lotr_exert_named_twice.yaml": ("7:21", "actions[0].exert: 'boromir' is named twice", "named once"),
    "lotr_stack_action_without_host.yaml": ("7:21", "actions[0].stack: a stack names no host", "on: ID"),
    "lotr_action_unknown_instance.yaml": ("7:21", "actions[0].kill: no instance 'mery'", "did you mean 'merry'"),
    "lotr_after_beyond_steps.yaml": ("9:18", "questions[0].after: the scenario has 1 actions", "0 to 1"),
    "lotr_value_bad_of.yaml": ("9:28", "questions[0].of: got 'place(merry)'", "zone(ID), wounds(ID) or bearer(ID)"),
}



def test_every_bad_input_file_has_an_expectation() -> None:
    assert sorted(p.name for p in BAD.glob("*.yaml")) == sorted(BAD_INPUTS)


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_gets_one_clear_line_and_exit_2(cli, name: str) -> None:
    code, out, err = cli("check", str(BAD / name))
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"error: {BAD / name}")
    for words in BAD_INPUTS[name]:
        assert words in lines[0]


def test_a_10_mb_file_is_refused_without_reading_it(cli, tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("game: lotr\n# " + "x" * 10_000_000 + "\n", encoding="utf-8")
    code, out, err = cli("check", str(path))
    assert code == 2 and out == ""
    assert "over the limit of 2,000,000" in err


def test_too_many_instances_are_refused(cli) -> None:
    code, _, err = cli("--max-instances", "3", "check", str(ROOT / "examples" / "judge_second_sting.yaml"))
    assert code == 2
    assert "more than 3 card instances" in err and "--max-instances" in err and ":15:9:" in err


# Files of each game with several input errors, in the state and in the questions; each error's place, and what
# must not be said (an error that only follows from another: a question about an instance not read).
SEVERAL_ERRORS = {
    "lotr": ("game: lotr\nplayers:\n  alice:\n    hand:\n      - {id: s, card: Stingg}\n"
             "      - {id: g, card: Gandalff}\n"
             "    stacked:\n      - {id: x, card: Sting, on: s}\n"
             "turn: {player: alice, phase: fellowshp}\n"
             "questions:\n  - {ask: play, instance: s}\n  - {ask: heal, instance: s, discard: g}\n"
             "  - {ask: play, instance: nobody}\n",
             ["5:17", "6:17", "9:23", "13:17"], ["'s' was not read", "'g'", "turn was not read"]),
    "marvel": ("game: marvel\nplayers:\n  p1:\n    identity: {card: Spiderman}\n    hand: [{id: a, card: Hulkk}]\n"
               "decks:\n  p1: {identity: 01001a, cards: [Nope, Nada]}\n"
               "questions:\n  - {ask: play, instance: a}\n  - {ask: deck, player: p1}\n  - {ask: pley}\n",
               ["4:16", "5:20", "7:34", "7:40", "11:6"], ["'a' was not read", "deck was not read"]),
    "dfm": ("game: dfm\nstate:\n  tokens: {fellowshipp: 1}\n  units: {fellowship: {gondr: 1}}\n"
            "actions:\n  - {player: fellowship, call: elrond, effect: enter}\n  - {player: sauron, end_turn: true}\n"
            "questions:\n  - {ask: action, step: 2, expect: done}\n  - {ask: action, step: 7}\n",
            ["3:12", "4:24", "6:5", "10:19"], []),
}


@pytest.mark.skipif(not (DATA / "marvelsdb" / "pack").is_dir(),
                    reason="MarvelCDB card data not found")
def test_same_named_cards_are_told_apart_by_type_and_pack(cli, tmp_path: Path) -> None:
    """Issue 47 item 6: an ambiguous name lists each card with what tells it apart (three Black Panthers of
    MarvelCDB: two heroes of packs core and bp, a minion of pack cw), not the same name three times."""
    table = tmp_path / "panther.yaml"
    table.write_text("game: marvel\ncatalog: marvelsdb\nplayers:\n  a:\n    hand:\n"
                     "      - {id: x, card: Black Panther}\nquestions:\n  - {ask: play, instance: x}\n",
                     encoding="utf-8")
    code, _, err = cli("check", str(table))
    assert code == 2 and "01040a (Black Panther, hero, pack core), 51001a (Black Panther, hero, pack bp; " in err
    assert "56155 (Black Panther, minion, pack cw; " in err and "card_type minion (not hero)" in err


@pytest.mark.parametrize("game", sorted(SEVERAL_ERRORS))
def test_every_error_of_a_file_is_reported_at_once(cli, tmp_path: Path, game: str) -> None:
    """Issue 47 item 4: four errors once took three runs; now each part of a file is read apart (each card,
    instance, deck entry, state field, action and question) and every error is one line."""
    text, places, unsaid = SEVERAL_ERRORS[game]
    path = tmp_path / f"{game}.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = cli("check", str(path))
    lines = err.strip().splitlines()
    assert code == 2 and out == "", err
    assert len(lines) == len(places), err
    for line, place in zip(lines, places, strict=True):
        assert line.startswith(f"error: {path}:{place}"), err
    for words in unsaid:
        assert words not in err


FAILING = ("game: lotr\nplayers:\n  alice:\n    hand: [{id: s, card: Sting}]\n"
           "questions:\n  - {id: sting-is-legal, ask: play, instance: s, expect: legal}\n"
           "  - {id: sting-said-illegal, ask: play, instance: s, expect: illegal}\n"
           "  - {id: no-expectation, ask: play, instance: s}\n")


def test_check_selects_files_and_questions_by_name(cli, tmp_path: Path) -> None:
    """Issue 47 item 5: -k as pytest's, on a file's path or a question's id; a selection of nothing is an error."""
    (tmp_path / "sting.yaml").write_text(FAILING, encoding="utf-8")
    code, out, _ = cli("check", str(tmp_path), str(ROOT / "examples"), "-k", "IS-LEGAL")
    assert code == 0 and out.strip() == "1 passed, 0 failed (1 scenario files)"
    code, out, _ = cli("check", str(tmp_path), str(ROOT / "examples"), "-k", "said", "-k", "heal_wounds")
    assert code == 1 and out.endswith("2 passed, 1 failed (2 scenario files)\n") and "[sting-said-illegal]" in out
    code, out, err = cli("check", str(tmp_path), "-k", "nothing-like-this")
    assert code == 2 and out == "" and "selects no scenario file and no question" in err


def test_check_writes_junit_xml(cli, tmp_path: Path) -> None:
    """Issue 47 item 5: the report CI systems read, a test case per question, written whole."""
    from xml.etree import ElementTree

    (tmp_path / "sting.yaml").write_text(FAILING, encoding="utf-8")
    (tmp_path / "bad.yaml").write_text("game: lotr\nplayers: {alice: {hand: [Stingg]}}\n"
                                       "questions: [{ask: plays, player: alice}]\n", encoding="utf-8")
    report = tmp_path / "out" / "report.xml"
    report.parent.mkdir()
    code, _, _ = cli("check", str(tmp_path), "--junit-xml", str(report))
    assert code == 2
    suites = ElementTree.parse(report).getroot().findall("testsuite")
    cases = {c.get("name"): c for s in suites for c in s.findall("testcase")}
    assert cases["sting-is-legal"].find("failure") is None and cases["sting-is-legal"].find("skipped") is None
    assert "expected illegal" in cases["sting-said-illegal"].find("failure").get("message")
    assert cases["no-expectation"].find("skipped") is not None
    assert "unknown card 'Stingg'" in cases["input"].find("error").text
    code, _, err = cli("check", str(tmp_path / "sting.yaml"), "--junit-xml", str(tmp_path / "no" / "r.xml"))
    assert code == 2 and "--junit-xml" in err and "the folder" in err and "does not exist" in err


def test_errors_of_several_files_are_all_reported(cli) -> None:
    code, out, err = cli("check", str(BAD / "misspelt_card.yaml"), str(BAD / "wrong_field.yaml"))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 2


def test_check_examples_passes(cli) -> None:
    code, out, _ = cli("check", str(ROOT / "examples"))
    assert code == 0
    assert out.strip().endswith("scenario files)") and " 0 failed" in out


def test_check_json_counts_every_question(cli) -> None:
    code, out, _ = cli("check", str(ROOT / "examples" / "reading_heal_wounds.yaml"), "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["passed"], data["failed"]) == (2, 0)
    question = data["scenarios"][0]["questions"][1]
    assert question["got"] == "illegal"
    assert question["rules"] == ["lotr_heal_needs_one_wound"]
    assert question["rested_on"] == {"lotr_heal_wounds": "exactly_one"}


def test_a_failed_expectation_exits_1_and_names_it(cli) -> None:
    code, out, _ = cli("check", str(ROOT / "examples" / "reading_heal_wounds.yaml"),
                       "--reading", "lotr_heal_wounds=exactly_one")
    assert code == 1
    assert "FAIL" in out and "[default-at-least-one]: expected legal, got illegal" in out


def test_profile_changes_the_readings(cli) -> None:
    code, out, _ = cli("check", str(ROOT / "examples" / "reading_dead_pile_scope.yaml"),
                       "--profile", "wiki", "--json")
    data = json.loads(out)
    assert code == 1
    assert data["scenarios"][0]["questions"][0]["got"] == "illegal"
    assert data["scenarios"][0]["questions"][0]["readings"]["lotr_dead_pile_scope"] == "any_player"


def test_explain_prints_the_chain(cli) -> None:
    code, out, _ = cli("explain", str(ROOT / "examples" / "judge_second_sting.yaml"))
    assert code == 0
    chain = out.split("[alice-second-sting]")[1].split("[bob-sting]")[0]
    assert "verdict: illegal" in chain
    assert "<- rule lotr_unique_blocks_unique:" in chain
    assert "<- lotr_unique p45:" in chain
    assert ("<- state: \u2022Sting (1R313) [alice-sting] in alice's support area; found active as cards in play are, "
            "no turn given (p45)") in chain


def test_explain_one_question_as_json(cli) -> None:
    code, out, _ = cli("explain", str(ROOT / "examples" / "judge_second_sting.yaml"),
                       "--question", "bob-sting", "--json")
    data = json.loads(out)
    assert code == 0
    [question] = data["questions"]
    assert question["got"] == "legal"
    assert question["reasons"][0]["rule"] == "lotr_per_player_scope"
    assert {"document": "lotr_unique", "paragraph": "p46"} in question["reasons"][0]["sources"]


def test_readings_lists_every_lotr_reading_with_paragraphs(cli) -> None:
    code, out, _ = cli("readings", "--game", "lotr", "--json")
    readings = {r["reading"]: r for r in json.loads(out)["readings"]}
    assert code == 0
    assert set(readings) >= {"lotr_mumak_direction", "lotr_dead_pile_scope", "lotr_heal_wounds",
                             "lotr_heal_discard", "lotr_revival_copy", "lotr_card_identity"}
    heal = readings["lotr_heal_wounds"]
    assert heal["default"] == "at_least_one"
    assert {c["value"]: c["paragraphs"] for c in heal["choices"]} == {"at_least_one": ["p58"], "exactly_one": ["p7"]}


def test_rules_lists_sources(cli) -> None:
    code, out, _ = cli("rules", "--game", "lotr")
    assert code == 0
    assert "lotr_palantir_cross_side:" in out and "lotr_unique p31" in out


@pytest.mark.parametrize("args, words", [
    (["check", "examples", "--reading", "lotr_heal_wound=exactly_one"], "did you mean 'lotr_heal_wounds'"),
    (["check", "examples", "--reading", "lotr_heal_wounds"], "NAME=VALUE"),
    (["check", "examples", "--reading", "lotr_heal_wounds=two"], "expected one of at_least_one, exactly_one"),
    (["check", "examples", "--profile", "gemb"], "unknown profile 'gemb'"),
    (["check", "no/such/folder"], "cannot read the file"),
    (["explain", "examples/judge_second_sting.yaml", "--question", "bob-stin"], "did you mean 'bob-sting'"),
])
def test_bad_options_exit_2(cli, monkeypatch: pytest.MonkeyPatch,
                            args: list[str], words: str) -> None:
    monkeypatch.chdir(ROOT)
    code, _, err = cli(*args)
    assert code == 2
    assert words in err and "Traceback" not in err


def test_version_is_the_packages(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    from pyengine.cli import main

    with pytest.raises(SystemExit) as exited:  # argparse's version action, as --help
        main(["--version"])
    assert exited.value.code == 0 and capsys.readouterr().out.strip() == f"pyengine {version('pyengine')}"


def test_console_script_and_module_run_without_traceback(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "pyengine", "check", str(BAD / "misspelt_card.yaml")],
                            capture_output=True, text=True, cwd=tmp_path, check=False)
    assert result.returncode == 2
    assert "did you mean 'Sting'" in result.stderr and "Traceback" not in result.stderr


# -- Conventions (issue 30): options anywhere, every file reported, distinct exit codes -----------------------------

def test_global_options_work_before_and_after_the_command(cli) -> None:
    examples = str(ROOT / "examples")
    after = cli("check", examples, "--timeout", "5", "--max-instances", "500", "--memory", "512")
    before = cli("--timeout", "5", "--max-instances", "500", "--memory", "512", "check", examples)
    assert after == before and after[0] == 0 and "0 failed" in after[1]
    # Given after the command, a bound is in force: a state over it is refused.
    code, _, err = cli("check", str(ROOT / "examples" / "judge_second_sting.yaml"), "--max-instances", "3")
    assert code == 2 and "more than 3 card instances" in err


def test_the_search_size_does_not_shadow_the_global_instance_bound(cli) -> None:
    code, out, err = cli("edge-cases", "--game", "lotr", "--compare", "default", "gemp", "--max-cards", "2",
                         "--instances", "2", "--max-instances", "1000", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["max_cards"] == 2 and data["max_instances"] == 2


def test_a_bad_file_beside_good_ones_is_reported_and_the_others_answered(cli) -> None:
    examples = ROOT / "examples"
    bad = BAD / "misspelt_card.yaml"
    code, out, err = cli("check", str(bad), str(examples), "--json")
    data = json.loads(out)
    assert code == 2 and data["exit_code"] == 2
    assert len(data["scenarios"]) == len(list(examples.glob("*.yaml"))) and data["failed"] == 0 and data["passed"]
    [entry] = data["errors"]
    assert entry["file"] == str(bad) and entry["exit_code"] == 2
    assert entry["errors"][0]["line"] == 5 and entry["errors"][0]["suggestion"] == "'Sting'"
    assert "did you mean 'Sting'" in err
    code, out, err = cli("check", str(bad), str(examples))
    assert code == 2 and out.strip().endswith("; 1 file not answered (errors above)") and "Stingg" in err


def test_a_file_reports_each_of_its_errors(cli, tmp_path: Path) -> None:
    path = tmp_path / "several.yaml"
    path.write_text("game: lotr\ncites: [p999]\nplayers:\n  alice:\n    hand: [{id: s, card: Sting}]\nquestions:\n"
                    "  - {ask: play, instance: s, expect: legall}\n  - {ask: play, instance: t, expect: legal}\n"
                    "  - {ask: plya, instance: s}\n  - {ask: play, instance: s, expect: legal, rules: [nope]}\n",
                    encoding="utf-8")
    code, out, err = cli("check", str(path))
    lines = err.strip().splitlines()
    assert code == 2 and out == ""
    assert [line.split(":")[2:4] for line in lines] == [["2", "9"], ["7", "30"], ["8", "17"], ["9", "6"], ["10", "53"]]
    assert "'p999'" in lines[0] and "'legall'" in lines[1] and "'t'" in lines[2] and "'plya'" in lines[3]
    assert "'nope'" in lines[4]


def test_errors_of_one_file_are_bounded(cli, tmp_path: Path) -> None:
    from pyengine.core.errors import MAX_FILE_ERRORS

    path = tmp_path / "many.yaml"
    path.write_text("game: lotr\nplayers: {alice: {}}\nquestions:\n"
                    + "".join(f"  - {{ask: play, instance: x{n}}}\n" for n in range(MAX_FILE_ERRORS + 5)),
                    encoding="utf-8")
    code, _, err = cli("check", str(path))
    assert code == 2 and len(err.strip().splitlines()) == MAX_FILE_ERRORS


def test_exit_codes_tell_a_bound_and_a_defect_from_bad_input(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    from pyengine.core import answering

    code, _, err = cli("--timeout", "0.05", "explain", str(ROOT / "tests/scenarios/dfm/plays.yaml"))
    assert code == 3 and "--timeout" in err
    code, _, err = cli("check", str(ROOT / "tests/scenarios/dfm/plays.yaml"), "--timeout", "0.05", "--jobs", "1")
    assert code == 3 and "longer than" in err

    def broken(*_: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(answering, "readings", broken)
    code, _, err = cli("readings")
    assert code == 4 and "internal error" in err and "boom" in err and "Traceback" not in err


def test_shell_completion_scripts(cli) -> None:
    for shell in ("bash", "zsh", "tcsh"):
        code, out, _ = cli("completion", shell)
        assert code == 0 and "pyengine" in out and "edge-cases" in out and "max-instances" in out


def test_a_text_decklist_names_its_game(cli, tmp_path: Path) -> None:
    decks = ROOT / "examples" / "decks"
    code, out, err = cli("deck", str(decks / "sauron_eight.txt"), str(decks / "spider_man_own_ally.txt"))
    assert code == 1, err
    assert "sauron_eight.txt: invalid" in out and "spider_man_own_ally.txt: invalid" in out
    plain = tmp_path / "plain.txt"
    plain.write_text("4 Sting\n", encoding="utf-8")
    code, out, err = cli("deck", str(plain), str(decks / "sauron_eight.txt"))
    assert code == 2 and "which game is this decklist for?" in err and "Ring-bearer:" in err
    assert "sauron_eight.txt: invalid" in out


def test_serve_on_a_port_in_use_is_one_line(cli) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, out, err = cli("serve", "--port", str(port))
    assert code == 2 and out == "" and err.strip().splitlines() == [
        f"error: --port: cannot listen on 127.0.0.1:{port}: Address already in use; expected a free port on an "
        "address of this machine"]


def test_progress_on_a_terminal_ends_with_a_summary_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from pyengine.cli import progress

    monkeypatch.setattr(progress, "SHOW_AFTER_SECONDS", 0.0)
    terminal = io.StringIO()
    shown = progress.TerminalProgress("checking", "files", stream=terminal, force=True)
    for done in range(4):
        shown(done, 3 if done < 3 else 5, f"file {done}")
    shown.finish()
    text = terminal.getvalue()
    assert "checking file 3" in text and "3/5" in text
    assert re.search(r"checking: 3 of 5 files in \d+\.\d s$", text.rstrip().splitlines()[-1])
    # Not on a terminal (a pipe, a file, CI): nothing at all.
    piped = io.StringIO()
    quiet = progress.TerminalProgress("checking", "files", stream=piped)
    quiet(1, 2)
    quiet.finish()
    assert piped.getvalue() == ""


def test_a_command_is_parsed_by_its_own_parser_as_by_the_whole_one() -> None:
    """The program builds only the parser of the command it runs (a cold start's tenth); COMMAND_NAMES is
    every command of the whole parser, and a command's arguments read the same either way."""
    import argparse

    from pyengine.cli.parser import COMMAND_NAMES, build_parser, command_named

    whole = build_parser()
    [commands] = [a for a in whole._actions if isinstance(a, argparse._SubParsersAction)]
    assert tuple(commands.choices) == COMMAND_NAMES
    arguments = ["--timeout", "5", "check", "a.yaml", "--jobs", "1", "--reading", "x=y", "--json"]
    assert command_named(arguments) == "check"
    own = vars(build_parser("check").parse_args(arguments))
    assert {k: v for k, v in own.items() if k != "func"} == {k: v for k, v in vars(whole.parse_args(arguments)).items()
                                                              if k != "func"}
    assert command_named(["--help"]) is None and command_named(["completion", "bash"]) is None
    assert command_named(["explain", "check"]) == "explain"


def test_a_question_without_an_expectation_is_counted_apart(cli, tmp_path: Path) -> None:
    """Issue 47, item 2: a question without expect: or rules: checks nothing, so it is neither passed nor failed."""
    table = tmp_path / "open.yaml"
    table.write_text((ROOT / "examples" / "judge_second_sting.yaml").read_text(encoding="utf-8")
                     + "  - {id: open-question, ask: play, instance: alice-gandalf}\n", encoding="utf-8")
    code, out, _ = cli("check", str(table))
    assert code == 0 and out.strip() == "3 passed, 0 failed, 1 answered without an expectation (1 scenario files)"
    code, out, _ = cli("check", str(table), "--json")
    data = json.loads(out)
    assert (data["passed"], data["failed"], data["unchecked"]) == (3, 0, 1)
    assert [q["question"] for s in data["scenarios"] for q in s["questions"] if q.get("unchecked")] == ["open-question"]


def test_a_card_outside_the_builtin_catalog_says_how_to_import_the_real_pool(cli, tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 47, item 3: the error names what the built-in catalog is and the command that imports the pool, in
    each game's own words for a card (LOTR's collector's info, Marvel's code)."""
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "empty.sqlite"))
    lotr = tmp_path / "lotr.yaml"
    lotr.write_text('game: lotr\nplayers:\n  alice:\n    hand: [{id: g, card: "Gandalf, The White Wizard"}]\n'
                    "questions:\n  - {id: q, ask: play, instance: g}\n", encoding="utf-8")
    code, _, err = cli("check", str(lotr))
    assert code == 2 and "the built-in catalog holds only the" in err
    assert "`pyengine import gemp PATH/TO/gemp-lotr/cards`, then write `catalog: gemp`" in err
    marvel = tmp_path / "marvel.yaml"
    marvel.write_text("game: marvel\nplayers:\n  alice:\n    hand: [{id: w, card: Wolverine}]\n"
                      "questions:\n  - {id: q, ask: play, instance: w}\n", encoding="utf-8")
    code, _, err = cli("check", str(marvel))
    assert code == 2 and "a card code (01001a) or a name" in err and "collector" not in err
    assert "`pyengine import marvelsdb" in err
