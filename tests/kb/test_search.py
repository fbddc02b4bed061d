"""The edge-case search and flip: found with clingo, checked by running what they produce back through the
engine. Timings are the benchmarks' business, not these tests'."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from pyengine.core import kb as kbase
from pyengine.core.engine import answer
from pyengine.core.scenario import load_scenario, scenario_from_data
from pyengine.tools.edge_cases import Side, parse_side, scenario_of, search

GEMP_DEPARTURES = {"lotr_nonunique_exempt", "lotr_any_title_blocks_unique", "lotr_revival_unchecked",
                   "lotr_deck_four_per_stored_title", "lotr_deck_stored_titles_apart", "lotr_deck_counts_all_cards",
                   "lotr_heal_spare_copy"}



def test_compare_default_and_gemp_finds_every_departure_unprompted(tmp_path: Path,
                                                                   cli) -> None:
    code, out, _ = cli("edge-cases", "--game", "lotr", "--compare", "default", "gemp", "--out",
                       str(tmp_path), "--json")
    data = json.loads(out)
    assert code == 0
    found = {shape[3] for finding in data["findings"] for shape in finding["shapes"]}
    assert found >= GEMP_DEPARTURES
    code, out, _ = cli("check", str(tmp_path))
    assert code == 0 and f"0 failed ({len(data['findings'])} scenario files)" in out


def _further_reading_pairs(game: str) -> list[tuple[str, str, str]]:
    """The default of each reading against each of its choices but the first other one: the consistency report
    searches the default against the first (tests/kb/test_consistency.py checks every state it finds), so these are
    the pairs only this test searches."""
    kb = kbase.load(game)
    return [(game, f"{n}={r.default}", f"{n}={c}") for n, r in sorted(kb.readings.items())
            for c in [c for c in r.choices if c != r.default][1:]]


@pytest.mark.parametrize("game, a, b", _further_reading_pairs("lotr") + _further_reading_pairs("marvel")
                         + _further_reading_pairs("dfm"))
def test_further_choices_of_every_reading_disagree_somewhere(game: str, a: str, b: str) -> None:
    side_a, side_b = parse_side(game, a), parse_side(game, b)
    [finding] = search(game, side_a, side_b, 3, 3, 1)
    assert finding.differs
    results = answer(scenario_from_data(scenario_of(game, finding, side_a, side_b, "generated"), "<generated>"))
    assert len(results) == 2 * len(finding.differs)  # every disagreeing question, asked under both sides
    assert all(not r.failures() for r in results)


def test_decisive_finds_where_a_blocking_rule_alone_decides() -> None:
    [finding] = search("lotr", Side("with"), Side("without", without_rule="lotr_dead_pile_blocks"), 3, 3, 1)
    question = finding.differs[0]
    assert finding.verdicts["a"][question] == "illegal" and finding.verdicts["b"][question] == "legal"
    assert "lotr_dead_pile_blocks" in finding.reasons["a"][question]


def test_a_permitting_rule_never_decides_alone(cli) -> None:
    code, out, _ = cli("edge-cases", "--game", "lotr", "--decisive", "lotr_stacked_not_in_play",
                       "--max-cards", "2")
    assert code == 0 and "give the same verdict on every state of up to 2 cards" in out


def test_all_counts_every_shape_within_the_bounds(cli) -> None:
    code, out, _ = cli("edge-cases", "--game", "lotr", "--compare", "lotr_mumak_direction=unique_blocks_all",
                       "lotr_mumak_direction=nonunique_exempt", "--all", "--max-cards", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["states"] >= 1
    assert {s[3] for s in data["shapes"]} == {"lotr_nonunique_exempt", "lotr_unique_blocks_nonunique",
                                             "lotr_dead_pile_stops_nonunique"}


def test_each_shape_says_whose_rule_decides_it(cli) -> None:
    """Issue 47 item 6: a shape's rule is named with its side (the Mumak Commander reading: the rule that blocks is
    side A's, the exemption side B's), in words and in JSON (`shape_sides`)."""
    sides = ("lotr_mumak_direction=unique_blocks_all", "lotr_mumak_direction=nonunique_exempt")
    code, out, _ = cli("edge-cases", "--game", "lotr", "--compare", *sides, "--max-cards", "2", "--json")
    owners = {s[3]: side for finding in json.loads(out)["findings"]
              for s, side in zip(finding["shapes"], finding["shape_sides"], strict=True)}
    assert code == 0 and owners.get("lotr_unique_blocks_nonunique") == "a"
    assert owners.get("lotr_nonunique_exempt") == "b"
    code, out, _ = cli("edge-cases", "--game", "lotr", "--compare", *sides, "--max-cards", "2")
    assert "by lotr_unique_blocks_nonunique (A's rule)" in out and "by lotr_nonunique_exempt (B's rule)" in out
    assert "A (lotr_mumak_direction=unique_blocks_all) and B (lotr_mumak_direction=nonunique_exempt) disagree" in out


def test_bad_sides_are_input_errors(cli) -> None:
    code, _, err = cli("edge-cases", "--game", "lotr", "--compare", "default", "gmep")
    assert code == 2 and "did you mean 'gemp'" in err
    code, _, err = cli("edge-cases", "--game", "lotr", "--compare", "default", "lotr_heal_wounds=two")
    assert code == 2 and "unknown choice 'two'" in err


PETER_TURNED = ("turn \u2022Spider-Man (01001a) [peter] from \u2022Spider-Man (01001a) face up to "
                "\u2022Peter Parker (01001b) face up")


@pytest.mark.parametrize("file, question, before, after, change, words", [
    ("examples/judge_second_sting.yaml", "alice-second-sting", "illegal", "legal", 'removed("alice-sting")',
     "take \u2022Sting (1R313) [alice-sting] out of the state"),
    ("tests/scenarios/lotr/heal.yaml", "no-wound-no-heal", "illegal", "legal", 'wounds("aragorn-unhurt",0,1)',
     "give \u2022Aragorn, Ranger of the North (1R89) [aragorn-unhurt] 1 wound instead of 0"),
    ("tests/scenarios/lotr/dead_pile.yaml", "dead-ally-stops-follower-of-its-title", "illegal", "legal",
     'removed("gaffer-ally")', "take \u2022The Gaffer, Sam's Father (1R291) [gaffer-ally] out of the state"),
    ("tests/scenarios/marvel/hero_and_ally.yaml", "ally-peter-beside-hero-peter", "illegal", "legal",
     'face("peter","01001a","01001b")', PETER_TURNED),
    ("tests/scenarios/marvel/minions.yaml", "revealed-spider-man-minion", "discarded", "enters_play",
     'face("peter","01001a","01001b")', PETER_TURNED),
    ("tests/scenarios/dfm/tokens_short.yaml", "enter-needs-a-token", "refused", "done",
     "value(tok(fellowship),0,1)", "Power tokens at fellowship: 1 instead of 0 at the start"),
    ("tests/scenarios/dfm/goldberry_reserve_short.yaml", "strict-refuses", "refused", "done", "value(reserve,2,3)",
     "the coins in the reserve: 3 instead of 2 at the start"),
    # A deck's verdict turns with a card taken out of it (issue 65 item 6: flip never touched a deck).
    ("tests/scenarios/lotr/deck.yaml", "eight-saurons", "invalid", "valid", 'copies("13_140",draw,4,0)',
     "take every copy of \u2022Sauron, Dark Lord of Mordor (13R140) out of the draw deck"),
    ("tests/scenarios/marvel/hero_and_ally.yaml", "hero-deck-with-its-own-ally-version", "invalid", "valid",
     'copies("04045","04045",1,0)', "take every copy of \u2022Spider-Man, Peter Parker (04045) out of the deck"),
])
def test_flip_finds_the_smallest_change(cli, file: str, question: str, before: str,
                                        after: str, change: str, words: str) -> None:
    """The change in words (`changes`), its term under `facts`."""
    code, out, _ = cli("flip", str(ROOT / file), "--question", question, "--json")
    data = json.loads(out)
    assert code == 0 and data["flippable"]
    assert (data["before"]["verdict"], data["after"]["verdict"]) == (before, after)
    assert data["changes"] == [words] and data["facts"] == [change]
    assert data["necessary_because"]


def test_flip_never_suggests_nazgul_behind_the_fellowship(cli, tmp_path: Path) -> None:
    """The Ring track one step from Mount Doom: flip moves the Fellowship on, and the Nazgul with it (they never
    fall behind the steps that carried them, a state the reader refuses)."""
    table = {"game": "dfm", "title": "one step from Mount Doom", "turn": "fellowship",
             "state": {"connections": [], "coins": {"fellowship": 0, "sauron": 0}, "units": {}, "ring": 14,
                       "nazgul": 14},
             "questions": [{"id": "w", "ask": "winner", "after": 0, "expect": "none"}]}
    path = tmp_path / "track.yaml"
    path.write_text(yaml.safe_dump(table), encoding="utf-8")
    code, out, _ = cli("flip", str(path), "--question", "w", "--json")
    data = json.loads(out)
    assert code == 0 and data["after"]["verdict"] == "fellowship"
    assert sorted(data["facts"]) == ["value(nazgul,14,15)", "value(ring,14,15)"], data["facts"]


def test_flip_says_when_no_change_can_turn_a_verdict(cli) -> None:
    code, out, _ = cli("flip", str(ROOT / "tests/scenarios/dfm/warg.yaml"), "--question", "elrond-exit-strict")
    assert code == 0 and "no change turns this verdict around: none of the changes flip may make" in out


def test_generated_scenarios_are_checked_in_for_every_reading() -> None:
    """Each reading's checked-in state (answered as a scenario file, so its expectations hold) asks its questions
    in pairs, the default choice then the next, and some pair expects different verdicts: the state where the two
    disagree, which the consistency report of the Duel does not search for again (test_consistency.py)."""
    for game in ("lotr", "marvel", "dfm"):
        folder = ROOT / "tests" / "scenarios" / "generated" / game
        names = {p.stem for p in folder.glob("*.yaml")}
        readings = kbase.load(game).readings
        assert names >= set(readings), game
        for path in folder.glob("*.yaml"):
            questions = yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]
            assert questions and load_scenario(path).questions, path
            if path.stem in readings:
                reading = readings[path.stem]
                other = next(c for c in reading.choices if c != reading.default)
                pairs = list(zip(questions[::2], questions[1::2], strict=True))
                assert all(a["readings"] == {path.stem: reading.default} and b["readings"] == {path.stem: other}
                           for a, b in pairs), path
                assert any(a["expect"] != b["expect"] for a, b in pairs), path
