"""The census (issue 31): which real cards of the imported pools each reading and profile touches, each class with
a real table that `pyengine check` answers as the census recorded. Skipped, with the reason, where the card data
is absent."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import GEMP_CARDS, MARVELSDB
from pyengine.core.errors import InputError
from pyengine.core.scenario import scenario_from_data
from pyengine.games import registry
from pyengine.tools import census, census_match

needs_gemp = pytest.mark.skipif(not GEMP_CARDS.is_dir(), reason=f"GEMP card data not found at {GEMP_CARDS}")
needs_marvelsdb = pytest.mark.skipif(not (MARVELSDB / "pack").is_dir(),
                                     reason=f"MarvelCDB card data not found at {MARVELSDB}")


# Whether `pyengine check` answers every table GEMP's census writes (some 2,300), not only a sample of them.
EXHAUSTIVE = os.environ.get("PYENGINE_EXHAUSTIVE") == "1"
# The suite's sample: every so many of the census's tables in its order, with the first of each state's.
SAMPLE_EVERY = 100
# The classes of real cards GEMP's census must find, each by cards it holds.
GEMP_CLASSES = (
    # The Mumak Commander pair: a unique and a non-unique version of one title, which GEMP lets through.
    {"7_152", "15_86"},
    # The Palantir of Orthanc's sides: the Free Peoples version and the Shadow ones.
    {"13_36", "3_67", "4_166"},
    # A non-unique Shadowfax (103_5) in the dead pile, which stops the unique one (11_40) in GEMP only.
    {"103_5", "11_40"},
)


def _labels(entry: dict) -> list[str]:
    return [found["label"] for found in entry["classes"]]


def _class_of(entry: dict, cards: set[str]) -> bool:
    """Whether some class of the census entry holds all these real cards."""
    return any(cards <= set(found["cards"]) for found in entry["classes"])


def _checked_tables(entry: dict) -> list[str]:
    """The tables of a census entry that `pyengine check` answers: every one with PYENGINE_EXHAUSTIVE=1, else
    every SAMPLE_EVERY-th, the first of each abstract state's and those of the classes GEMP_CLASSES names."""
    classes = entry["classes"]
    if EXHAUSTIVE:
        return [found["file"] for found in classes]
    firsts = {found["state"]: found["file"] for found in reversed(classes)}
    return sorted({*firsts.values(), *(found["file"] for number, found in enumerate(classes)
                                       if number % SAMPLE_EVERY == 0
                                       or any(cards <= set(found["cards"]) for cards in GEMP_CLASSES))})


@needs_gemp
def test_gemp_against_the_default_lists_the_real_cards_gemp_departs_on(cli, tmp_path: Path) -> None:
    """The census of 21 states finds the three classes GEMP is known to depart on (Mumak Commander's at state 20:
    the fewest states that find all three, 36 s of census against 52 s for 30), and its real tables pass `pyengine
    check` with the verdicts and rule ids they record: in the suite every hundredth table, the first of each state
    and those of the three classes; with PYENGINE_EXHAUSTIVE=1 every one."""
    code, out, _ = cli("census", "--game", "lotr", "--compare", "default", "gemp", "--out", str(tmp_path / "pack"),
                       "--report", str(tmp_path / "census.md"), "--states", "21", "--json")
    assert code == 0
    [entry] = json.loads(out)["pairs"]
    labels = _labels(entry)
    assert [cards for cards in GEMP_CLASSES if not _class_of(entry, cards)] == []
    assert entry["classes_found"] == len(labels) and entry["cards"] >= len(labels)
    assert sum(entry["by_type"].values()) == entry["cards"]
    report = (tmp_path / "census.md").read_text(encoding="utf-8")
    assert f"| default / gemp | profile | {entry['classes_found']} | {entry['cards']} |" in report
    # One real table written for each class, each passing `pyengine check` with the verdicts and rule ids it records.
    files = sorted((tmp_path / "pack").glob("*.yaml"))
    assert len(files) == entry["classes_found"] and {str(f) for f in files} == {c["file"] for c in entry["classes"]}
    checked = _checked_tables(entry)
    code, out, _ = cli("check", *checked)
    assert code == 0 and f"0 failed ({len(checked)} scenario files)" in out


@needs_gemp
def test_the_deck_count_reading_finds_gemps_title_edits(cli) -> None:
    """A title GEMP edits apart ("White Hand Attacker(2)"), counted with the printed one by the document (the
    profile's own census meets it past its 40 states: GEMP departs from the document in more classes)."""
    code, out, _ = cli("census", "--game", "lotr", "--compare", "lotr_deck_count_key=persona",
                       "lotr_deck_count_key=stored_title", "--states", "5", "--json")
    [entry] = json.loads(out)["pairs"]
    assert code == 0 and _class_of(entry, {"17_120", "18_124"})


@needs_marvelsdb
def test_marvel_readings_count_the_real_cards_they_touch(cli, tmp_path: Path) -> None:
    """Called in-process with the command line's time limit for a census (the autouse fixture `_own_limits` puts
    the process's back): its searches stop at their bounds or states, never at a clock on a loaded machine."""
    from pyengine.core.limits import LONG_COMMANDS, limits

    limits.solve_seconds = LONG_COMMANDS["census"]
    result = census.census("marvel", "marvelsdb",
                           ("marvel_person_spelling=exact", "marvel_person_spelling=same_person"), out=tmp_path)
    [spelling] = result.pairs
    code, out, _ = cli("check", str(tmp_path))
    assert code == 0 and f"0 failed ({len(result.files)} scenario files)" in out
    # The one spelling group of the pool: Tigra's alter ego Greer Nelson, the ally subtitled Greer Grant Nelson.
    assert spelling["classes_found"] == 1 and _class_of(spelling, {"01051", "56001a"})
    # Its search ran out of states within the bounds: the count is whole.
    assert spelling["stopped_by"] == "bounds"
    faces = census.census("marvel", "marvelsdb",
                          ("marvel_identity_faces=face_up", "marvel_identity_faces=all_faces"), states=5).pairs[0]
    # A multi-form identity: Angel with Archangel face up beside the ally Angel (its census's third state).
    assert _class_of(faces, {"42001a", "42001c", "33019"})
    alter_ego = census.census("marvel", "marvelsdb", ("marvel_alter_ego_person=name_only",
                                                     "marvel_alter_ego_person=same_person"), states=5).pairs[0]
    # The ally Shuri, named as Black Panther's alter ego: one person under same_person, two under name_only.
    assert _class_of(alter_ego, {"01041", "51001a", "51001b"})
    assert alter_ego["by_type"]["hero"] >= 2


def test_tables_of_one_form_are_answered_alike() -> None:
    """The census answers one table per form, the form of its cards' facts: two tables whose cards differ only in
    texts the encodings never mention have one form and get the same verdicts and rules (both answered here); a
    card carrying a text they do mention (Sent Back's collector's info) is a form of its own."""
    from pyengine.core.engine import answer

    lotr = registry()["lotr"]

    def table(title: str, card_id: str, collinfo: str) -> dict:
        return {"game": "lotr", "cards": [{"id": card_id, "title": title, "type": "companion", "unique": True,
                                           "side": "free_peoples", "collinfo": collinfo}],
                "players": {"p1": {"dead_pile": [{"id": "i2", "card": card_id}]},
                            "p2": {"draw_deck": [{"id": "i1", "card": card_id}]}},
                "questions": [{"id": "a", "ask": "play", "instance": "i1"},
                              {"id": "b", "ask": "play", "instance": "i1",
                               "readings": {"lotr_dead_pile_scope": "any_player"}}]}

    def card_form(scenario) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
        catalog = scenario.state.catalog
        lines = [line for i in scenario.state.instances.values() if i.id == "i1"
                 for line in lotr.search.card_facts(i.card, catalog)]
        return census_match.form(lines, census_match.literal_texts("lotr"))

    one, two, sent_back = (scenario_from_data(table(*args), "<test>")
                           for args in (("Aragorn", "x1", "X1"), ("Boromir", "x2", "X2"), ("Aragorn", "x3", "9R27")))
    assert card_form(one) == card_form(two) != card_form(sent_back)
    assert [(a.verdict, a.rule_ids) for a in answer(one)] == [(a.verdict, a.rule_ids) for a in answer(two)]


def test_a_game_without_a_card_database_and_an_unknown_pool_are_clear_errors() -> None:
    with pytest.raises(InputError, match="no card database"):
        census.census("dfm")
    with pytest.raises(InputError, match="no imported catalog 'gemb'") as error:
        census.census("lotr", "gemb", ("default", "gemp"))
    assert error.value.suggestion == "'gemp'"


@needs_gemp
def test_matching_needs_every_fact_of_the_abstract_card() -> None:
    """An abstract unique companion matches real unique characters only, each real card once."""
    from pyengine.core.store import open_catalog

    lotr = registry()["lotr"]
    pool = census_match.Pool.read(lotr.search, open_catalog("gemp", lotr.builtin_catalog))
    abstract = scenario_from_data({"game": "lotr", "cards": [{"id": "c1", "title": "Title 1", "unique": True,
                                                              "type": "companion", "side": "free_peoples"}],
                                   "players": {"p1": {}}, "questions": [{"id": "q", "ask": "card", "card": "c1"}]},
                                  "<test>")
    tables, capped = census_match.assignments(lotr.search, pool, census_match.slots_of(lotr.search, abstract, ["c1"]),
                                              census_match.MAX_TABLES)
    cards = [cards[0] for cards, _ in tables]
    assert not capped and len({c.id for c in cards}) == len(cards) > 500
    assert all(c.unique and c.type in ("companion", "ally", "minion") for c in cards)
