"""The Duel's real base-game data imported (issue 46, item 1): `pyengine import vermihunter` reads one open-source
implementation's DefaultConfig.json (data/dfm-vermihunter in the folder PYENGINE_SHARED names, read by path, skipped
where absent) into the card store: every chapter card, Landmark tile and Alliance token with a stable id, the setup
record, and a report in which every effect type and field not read is named with its place. A value of the wrong
kind is a located error."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from pyengine import api
from pyengine.core.errors import InputError
from pyengine.games.dfm import importer
from tests.paths import DFM_DATA as DATA
from tests.paths import not_found

pytestmark = pytest.mark.skipif(not (DATA / importer.FILE).is_file(), reason=not_found("the Duel's data", DATA))


def _data() -> dict[str, Any]:
    return json.loads((DATA / importer.FILE).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_every_record_is_read_with_a_stable_id() -> None:
    cards, report = importer.read(DATA)
    by_id = {c.id: c for c in cards}
    assert report["records"] == {"alliance_token": 18, "chapter_card": 69, "landmark_tile": 7, "setup": 1}
    assert report["chapter_cards"] == {"1": 23, "2": 23, "3": 23} and report["unread"] == []
    # Ids: chapter and place in the file; a tile by its Fortress; a token by race and place.
    first = by_id["1.1"].extra
    assert first["colour"] == "green" and first["chain"] == "harp" and first["skills"]["knowledge"] == 1
    assert first["effects"] == [{"type": "add_support_of_a_race", "race_to_support": "elves"}]
    assert sorted(c.id for c in cards if c.type == "landmark_tile") == [
        "barad_dur", "bree", "erebor", "grey_havens", "helms_deep", "isengard", "minas_tirith"]
    assert by_id["barad_dur"].extra["region"] == "mordor"
    assert by_id["elves.1"].extra["trigger"] == "chapter_card_yellow_used"
    # Effects within effects (the Ents' third token: three choices of one of three) are read too.
    assert [a["type"] for a in by_id["ents.3"].extra["effect"]["actions"][0]["actions"]] == [
        "take_enemy_unit_from_central_board", "take_enemy_coins", "move_units_on_central_board"]
    setup = by_id["setup"].extra
    assert setup["total_coins"] == 30 and setup["players"]["fellowship"]["coins"] == 3
    assert {r["name"] for r in setup["regions"]} == {"mordor", "rohan", "gondor", "enedwaith", "rhovanion", "arnor",
                                                     "lindon"}
    assert [len(layout["places"]) for layout in setup["layouts"]] == [20, 20, 20]
    assert setup["ring_track"]["width"] == 29
    assert [b["position"] for b in setup["ring_track"]["bonuses"]] == [3, 6, 9, 12]


def test_every_chapter_card_has_each_part_the_rules_will_need() -> None:
    """Colour, chapter, skill and coin cost, chaining, and at least one effect of a known type, for all 69."""
    cards, _ = importer.read(DATA)
    chapter = [c for c in cards if c.type == "chapter_card"]
    known = {importer.snake(k) for k in importer.EFFECT_FIELDS}
    for card in chapter:
        assert card.extra["colour"] in {"blue", "green", "grey", "purple", "red", "yellow"}, card.id
        assert set(card.extra["skills"]) == {"ruse", "strength", "courage", "knowledge", "leadership"}, card.id
        assert card.extra["effects"] and all(e["type"] in known for e in card.extra["effects"]), card.id


def test_an_unknown_effect_type_or_field_is_named_with_its_place(tmp_path: Path) -> None:
    data = _data()
    data["ChapterCardsToUse"][4]["Effects"].append({"Type": "SummonBalrog", "Count": 1})
    data["ChapterCardsToUse"][5]["Effects"][0]["Flavour"] = "extra"
    data["Races"][0]["AllianceTokens"][1]["Attribute"] = "FUTURE_ATTRIBUTE"
    data["NewSection"] = {}
    (tmp_path / importer.FILE).write_text(json.dumps(data), encoding="utf-8")
    cards, report = importer.read(tmp_path)
    assert report["unread"] == ["(the file).NewSection", "ChapterCardsToUse[4].Effects[1]: effect type SummonBalrog",
                                "ChapterCardsToUse[5].Effects[0].Flavour",
                                "Races[0].AllianceTokens[1].Attribute: attribute FUTURE_ATTRIBUTE, which no rule "
                                "applies"]
    by_id = {c.id: c for c in cards}
    assert by_id["1.5"].extra["unread"] == ["ChapterCardsToUse[4].Effects[1]: effect type SummonBalrog"]
    assert {"type": "summon_balrog", "unread": True} in by_id["1.5"].extra["effects"]
    assert "not read: (the file).NewSection; ChapterCardsToUse[4]" in importer.report_lines(report)[-1]


@pytest.mark.parametrize(("change", "field", "expected"), [
    (lambda d: d["ChapterCardsToUse"][2].update(CoinsToPlay="two"), "ChapterCardsToUse[2].CoinsToPlay",
     "a whole number"),
    (lambda d: d["ChapterCardsToUse"][2].update(Round=4), "ChapterCardsToUse[2].Round", "chapter 1, 2 or 3"),
    (lambda d: d["Rounds"][0]["ChapterCardConfig"][3].update(IsFaceUp="yes"), "Rounds[0].ChapterCardConfig[3].IsFaceUp",
     "true or false"),
    (lambda d: d["LandmarkTilesToUse"][1].update(FortressToPlaceTo="Moria"), "LandmarkTilesToUse[1].FortressToPlaceTo",
     "a region the encodings know"),
])
def test_a_value_of_the_wrong_kind_is_a_located_error(tmp_path: Path, change: Any, field: str, expected: str) -> None:
    data = _data()
    change(data)
    (tmp_path / importer.FILE).write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError) as raised:
        importer.read(tmp_path)
    assert raised.value.field == field and expected in (raised.value.expected or "")


def test_the_import_command_fills_the_store_and_prints_the_report(cli, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "store.sqlite"))
    code, out, _ = cli("import", "vermihunter", str(DATA))
    assert code == 0 and "records: 18 alliance_token, 69 chapter_card, 7 landmark_tile, 1 setup" in out
    assert "not read: alliance_token: " in out and "InitialConfig.FellowshipPlayer.Units" in out
    assert "Coins" not in out.split("not read: ")[1]  # the starting coins are read (assumption setup_start)
    from pyengine.core.store import open_source, sources

    assert sources()["vermihunter"] == "dfm"
    assert open_source("vermihunter").get("2.7").extra["chapter"] == 2
    code, _, err = cli("import", "vermihunter", str(tmp_path / "nowhere"))
    assert code == 2 and "no DefaultConfig.json found" in err


@pytest.mark.parametrize(("entry", "top", "message"), [
    ('{at: [5, 1], card: "1.3"}', "", "names a real card, but the scenario names no catalog"),
    ('{at: [5, 1], card: "1.99"}', "catalog: vermihunter\n", "no chapter card '1.99'"),
    ('{at: [5, 1], card: "2.3"}', "catalog: vermihunter\n", "card 2.3 is a card of chapter 2"),
    ('{at: [5, 1], card: "1.3", colour: red}', "catalog: vermihunter\n", "a real card is described by its data"),
])
def test_a_real_card_named_wrongly_is_a_located_error(cli, tmp_path: Path, entry: str, top: str, message: str) -> None:
    table = tmp_path / "real.yaml"
    table.write_text(f"game: dfm\n{top}state:\n  cards:\n    - {entry}\nquestions:\n  - {{ask: tokens, expect: 8}}\n",
                     encoding="utf-8")
    code, _, err = cli("check", str(table))
    line = 4 + bool(top)
    assert code == 2 and f"real.yaml:{line}:" in err and message in err


def test_a_catalog_not_imported_says_how_to_import_it(cli, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "empty.sqlite"))
    table = tmp_path / "real.yaml"
    table.write_text("game: dfm\ncatalog: vermihunter\nquestions:\n  - {ask: tokens, expect: 8}\n", encoding="utf-8")
    code, _, err = cli("check", str(table))
    assert code == 2 and "no imported catalog 'vermihunter'" in err and "pyengine import vermihunter PATH" in err


def test_flip_refuses_a_real_card_state_at_once_with_a_clear_error(cli) -> None:  # type: ignore[no-untyped-def]
    """`flip` on a Duel scenario on the real cards is refused before it grounds anything (its search outgrew its
    time and memory bounds and ended in an abort), exit 2, naming the file and what it can search instead; a
    scenario on described cards is still searched."""
    real = ROOT / "tests" / "scenarios" / "dfm" / "real_tile_effects.yaml"
    code, _, err = cli("flip", str(real), "--question", "none-left-in-arnor")
    assert code == 2 and "real_tile_effects.yaml" in err and "flip does not search Duel states on the real cards" in err
    described = ROOT / "examples" / "dfm_warg_and_elrond.yaml"
    code, out, _ = cli("flip", str(described), "--question", "exit-under-the-default")
    assert code == 0 and out


def test_a_deal_lays_twenty_of_the_chapters_cards_the_same_way_for_one_seed() -> None:
    from pyengine.games.dfm.layout import dealt, layout_rows

    cards, _ = importer.read(DATA)
    for chapter in (1, 2, 3):
        ids = [c.id for c in cards if c.type == "chapter_card" and c.extra["chapter"] == chapter]
        places, left_out = dealt(chapter, random.Random(7), ids)
        assert len(places) == sum(layout_rows()[chapter]) == 20 and len(left_out) == 3
        assert sorted([c for _, c in places] + left_out) == sorted(ids)
        assert dealt(chapter, random.Random(7), list(reversed(ids))) == (places, left_out)
        assert dealt(chapter, random.Random(8), ids) != (places, left_out)


def test_a_deal_lays_the_chapters_after_the_one_in_play_too() -> None:
    """A table dealt in chapter 2 deals chapter 3 as well (its cards by their chapter), not chapter 1; the chapter in
    play is dealt as it would be alone, first from the seed."""
    from pyengine.games.dfm.layout import dealt

    state = api.load({"game": "dfm", "catalog": "vermihunter", "chapter": 2, "turn": "fellowship",
                      "state": {"deal": 7, "coins": {"fellowship": 0, "sauron": 0}, "units": {},
                                "connections": []},
                      "questions": [{"id": "q", "ask": "tokens"}]}).state
    colours = [str(f) for f in state.facts if f.name == "card_colour"]
    left_out = sorted(str(f) for f in state.facts if f.name == "left_out")
    assert len(colours) == 40 and {c.split(",")[0] for c in colours} == {"card_colour(2", "card_colour(3"}
    assert left_out[0].startswith("left_out(2,") and left_out[-1].startswith("left_out(3,") and len(left_out) == 6
    cards, _ = importer.read(DATA)
    alone = dealt(2, random.Random(7), [c.id for c in cards if c.type == "chapter_card" and c.extra["chapter"] == 2])
    assert sorted(f'left_out(2,"{c}").' for c in alone[1]) == left_out[:3]


@pytest.mark.parametrize(("state", "top", "message"), [
    # A deal that cannot be made.
    ("  deal: 7\n  cards:\n    - {at: [5, 1], colour: red}\n", "catalog: vermihunter\n",
     "a dealt layout and described cards together"),
    ("  deal: 7\n", "", "a deal needs the real cards of a chapter in play"),
    ("  deal: 7\n", "catalog: vermihunter\nchapter: 0\n", "a deal needs the real cards of a chapter in play"),
    ("  deal: -1\n", "catalog: vermihunter\n", "deal"),
    # Skills the state cannot give.
    ("  grey: {sauron: 1}\n", "catalog: vermihunter\n", "sauron has 1 grey cards whose skills the state does not name"),
    ("  skills: {fellowship: {cunning: 1}}\n", "", "cunning"),
    ("  skill_choices: {fellowship: [[ruse]]}\n", "", "a list of two or more different skills"),
    ("  skill_choices: {fellowship: [[ruse, ruse]]}\n", "", "a list of two or more different skills"),
    ("  skills: {fellowship: {ruse: -1}}\n", "", "ruse"),
    # A discard pile of real cards that cannot be read.
    ("  pile: [\"1.3\"]\n", "", "`catalog: vermihunter` beside `game: dfm`"),
    ("  pile: [\"1.99\"]\n", "catalog: vermihunter\n", "a real chapter card C.N of the catalog"),
    ("  pile: [\"1.3\"]\n  discard_pile: 2\n", "catalog: vermihunter\n", "discard_pile: beside pile:"),
    ("  connections: standart\n", "", "did you mean 'standard'"),
    # Real grey cards that cannot be read: not a real card, not a grey one, without the catalog, twice.
    ("  grey_cards: {sauron: [\"1.99\"]}\n", "catalog: vermihunter\n", "a real grey chapter card C.N"),
    ("  grey_cards: {sauron: [\"1.3\"]}\n", "catalog: vermihunter\n", "a real grey chapter card C.N"),
    ("  grey_cards: {sauron: [\"1.13\"]}\n", "", "`catalog: vermihunter` beside `game: dfm`"),
    ("  grey_cards: {sauron: [\"1.13\"], fellowship: [\"1.13\"]}\n", "catalog: vermihunter\n", "1.13 is given twice"),
    ("  grey_cards: {sauron: [\"1.13\"]}\n  pile: [\"1.13\"]\n", "catalog: vermihunter\n", "1.13 is given twice"),
    # Alliance tokens held that cannot be read.
    ("  alliance_tokens: {sauron: [elves.1]}\n", "", "`catalog: vermihunter` beside `game: dfm`"),
    ("  alliance_tokens: {sauron: [elves.4]}\n", "catalog: vermihunter\n", "a real Alliance token RACE.N"),
    ("  alliance_tokens: {sauron: [elves.1], fellowship: [elves.1]}\n", "catalog: vermihunter\n",
     "elves.1 is held twice"),
    ("  alliance_tokens: {sauron: [elves.1]}\n  alliance: {sauron: {elves: 1}}\n", "catalog: vermihunter\n",
     "alliance: beside alliance_tokens:"),
    ("  alliance_tokens: {sauron: [hobbits.1]}\n  eagle: top\n", "catalog: vermihunter\n",
     "the Eagle, beside eagle:"),
    ("  alliance_tokens: {gandalf: [elves.1]}\n", "catalog: vermihunter\n", "gandalf"),
])
def test_a_real_card_state_that_cannot_be_read_is_a_located_error(cli, tmp_path: Path, state: str, top: str,
                                                                  message: str) -> None:
    table = tmp_path / "state.yaml"
    table.write_text(f"game: dfm\n{top}state:\n{state}questions:\n  - {{ask: tokens, expect: 8}}\n", encoding="utf-8")
    code, _, err = cli("check", str(table))
    assert code == 2 and "state.yaml:" in err and message in err, err


def test_real_grey_cards_add_their_skills_to_those_named(cli, tmp_path: Path) -> None:
    """`grey_cards:` beside `grey:` and `skills:`: the counts add up, each real card's skills with the rest."""
    table = tmp_path / "grey.yaml"
    table.write_text("game: dfm\ncatalog: vermihunter\nstate:\n  grey: {sauron: 1}\n  skills: {sauron: {ruse: 1}}\n"
                     "  grey_cards: {sauron: [\"1.13\", \"2.16\"]}\nquestions:\n"
                     "  - {ask: value, of: [skills, sauron, ruse], expect: 4}\n"
                     "  - {ask: value, of: [grey, sauron], expect: 3}\n"
                     "  - {ask: value, of: [grey_card, sauron, \"2.16\"], expect: true}\n", encoding="utf-8")
    code, out, err = cli("check", str(table))
    assert code == 0 and "3 passed" in out, (out, err)


def test_grey_cards_with_their_skills_named_are_read(cli, tmp_path: Path) -> None:
    table = tmp_path / "skills.yaml"
    table.write_text("game: dfm\ncatalog: vermihunter\nstate:\n  grey: {sauron: 2}\n  skills: {sauron: {ruse: 1}}\n"
                     "  skill_choices: {sauron: [[strength, courage]]}\nquestions:\n"
                     "  - {ask: value, of: [skills, sauron, ruse], expect: 1}\n", encoding="utf-8")
    code, _, err = cli("check", str(table))
    assert code == 0, err


def test_the_ring_track_bonuses_the_rules_apply_are_the_datas() -> None:
    """The base game's bonus spaces (facts/dfm/base_game.lp, ring_bonus_gives/3, applied on abstract and real cards
    alike by rules/dfm/ring_bonuses.lp) are the data's QuestOfTheRingTrackConfig.BonusActions, each effect as the
    family and count the rules read it by; the unit's regions are all the board's, the choice the rules leave
    open."""
    import clingo

    control = clingo.Control(["--warn=none"])
    control.load(str(ROOT / "facts" / "dfm" / "base_game.lp"))
    control.ground([("base", [])])
    encoded = sorted((a.symbol.arguments[0].number, a.symbol.arguments[1].name, a.symbol.arguments[2].number)
                     for a in control.symbolic_atoms.by_signature("ring_bonus_gives", 3))
    families = {"get_coins_from_reserve": ("coins", "coins_to_get"), "place_units_on_central_board":
                ("units", "units_to_place"), "take_another_turn": ("extra_turns", None),
                "remove_enemy_fortress": ("fortress", None)}
    cards, _ = importer.read(DATA)
    setup = next(c for c in cards if c.type == "setup").extra
    read = []
    for bonus in setup["ring_track"]["bonuses"]:
        [effect] = bonus["effects"]
        family, count = families[effect["type"]]
        read.append((bonus["position"], family, effect[count] if count else 1))
        if family == "units":
            assert sorted(effect["possible_regions_to_place"]) == sorted(r["name"] for r in setup["regions"])
    assert encoded == sorted(read) == [(3, "coins", 1), (6, "units", 1), (9, "extra_turns", 1), (12, "fortress", 1)]
