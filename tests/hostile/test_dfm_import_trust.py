"""Damaged or newer Duel data is never imported as if whole (issue 62, item 3, and item 8's import part).

`pyengine import vermihunter` reads the Duel's real data (copied and damaged in a temporary folder, the data itself
never touched): a missing count, an unknown region, trigger, strategy or chaining symbol, a setup value the
encodings hold otherwise, a token game.py could not read, two races of one name or two tiles on one region are each
an input error naming the file, the record and the field (exit 2), and nothing reaches the store; a field no rule
reads is named in the report's `not read:` line; a re-import that would bind a saved `card: "1.N"` to another card
is refused, naming the ids, unless `--replace` says so. A damage run of single-field changes to every kind of record
ends each in a located error or an import whose report names what it did not read."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from pyengine import api
from pyengine.core import store
from pyengine.core.errors import InputError
from pyengine.games.dfm import importer
from tests.paths import DFM_DATA as DATA
from tests.paths import not_found

pytestmark = pytest.mark.skipif(not (DATA / importer.FILE).is_file(), reason=not_found("the Duel's data", DATA))
SCENARIOS = ROOT / "tests" / "scenarios" / "dfm"


def _data() -> dict[str, Any]:
    """A fresh copy of the Duel's data, to damage."""
    return json.loads((DATA / importer.FILE).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _write(folder: Path, data: dict[str, Any]) -> Path:
    """The data written as a clone's file would be, in a folder of its own."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / importer.FILE).write_text(json.dumps(data, indent=1), encoding="utf-8")
    return folder


def _refused(folder: Path, replace: bool = False) -> InputError:
    """The error an import of `folder` ends in (it must end in one)."""
    with pytest.raises(InputError) as raised:
        api.import_source("vermihunter", folder, replace=replace)
    return raised.value


def _records(path: Path) -> list[tuple[str, str]]:
    """The store's records of the Duel's source, as they lie in it."""
    with sqlite3.connect(path) as db:
        return db.execute("SELECT id, record FROM cards WHERE source = 'vermihunter' ORDER BY id").fetchall()


# -- the classes the hostile test found ----------------------------------------------------------------------------


def test_a_missing_move_count_is_an_error_naming_the_file_record_and_field(tmp_path: Path, own_store: Path) -> None:
    data = _data()
    del data["ChapterCardsToUse"][4]["Effects"][0]["MoveCount"]
    error = _refused(_write(tmp_path / "data", data))
    assert error.file and error.file.endswith(importer.FILE)
    assert error.field == "ChapterCardsToUse[4].Effects[0].MoveCount"
    assert "chapter card 1.5" in error.message and "missing" in error.message
    assert "MoveCount" in (error.expected or "") and "whole number" in (error.expected or "")
    assert "vermihunter" not in store.sources()


@pytest.mark.parametrize(("change", "field", "words"), [
    (lambda d: d["ChapterCardsToUse"][20]["Effects"][0].update(PossibleRegionsToPlace=["Gondor", "Moria"]),
     "ChapterCardsToUse[20].Effects[0].PossibleRegionsToPlace[1]", "unknown region 'Moria'"),
    (lambda d: d["Races"][0]["AllianceTokens"][0].update(Trigger="CHAPTER_CARD_RED_USED"),
     "Races[0].AllianceTokens[0].Trigger", "unknown trigger"),
    (lambda d: d["ChapterCardsToUse"][63]["Effects"][1].update(Strategy="TELEPORT"),
     "ChapterCardsToUse[63].Effects[1].Strategy", "unknown strategy"),
    (lambda d: d["ChapterCardsToUse"][20]["Effects"][0].update(Strategy="EVERY_UNIT_FREELY"),
     "ChapterCardsToUse[20].Effects[0].Strategy", "the encodings all_to_same_region"),
    (lambda d: d["ChapterCardsToUse"][0].update(GainedChainingSymbol="LUTE"),
     "ChapterCardsToUse[0].GainedChainingSymbol", "unknown chaining symbol"),
    (lambda d: d["ChapterCardsToUse"][0].update(GainedChainingSymbol=None),
     "ChapterCardsToUse[23].PlayForFreeChainingSymbol", "no card gains harp"),
    (lambda d: d["ChapterCardsToUse"][0].update(Color="ORANGE"), "ChapterCardsToUse[0].Color", "unknown colour"),
    (lambda d: d["ChapterCardsToUse"][0]["Effects"][0].update(RaceToSupport="Orcs"),
     "ChapterCardsToUse[0].Effects[0].RaceToSupport", "unknown race"),
    (lambda d: d["Races"][0].update(Name="Orcs"), "Races[0].Name", "unknown race"),
    (lambda d: d["LandmarkTilesToUse"][0].update(FortressToPlaceTo="Moria"), "LandmarkTilesToUse[0].FortressToPlaceTo",
     "unknown region"),
    # `not` is a word clingo reserves: kept as a name, it made every real-card scenario an internal error.
    (lambda d: d["ChapterCardsToUse"][0]["Effects"][0].update(Type="Not"), "ChapterCardsToUse[0].Effects[0].Type",
     "a word clingo reserves"),
    (lambda d: d["Races"][0]["AllianceTokens"][0]["Effect"].update(Type="NOT"),
     "Races[0].AllianceTokens[0].Effect.Type", "a word clingo reserves"),
    (lambda d: d["Races"][0]["AllianceTokens"][1].update(Attribute="NOT"), "Races[0].AllianceTokens[1].Attribute",
     "a word clingo reserves"),
])
def test_a_name_the_game_does_not_know_is_refused(tmp_path: Path, own_store: Path, change: Callable[[Any], None],
                                                  field: str, words: str) -> None:
    data = _data()
    change(data)
    error = _refused(_write(tmp_path / "data", data))
    assert error.field == field and words in str(error), str(error)


def test_a_reordered_file_rebinds_no_saved_id_silently(tmp_path: Path, own_store: Path) -> None:
    """The same data again, or with its races, tiles and identical cards reordered (no id changes its card), is
    imported; with two different cards of a chapter swapped it is refused, naming both ids and --replace, and the
    store keeps what it held; with --replace it is imported."""
    api.import_source("vermihunter", DATA)
    before = _records(own_store)
    api.import_source("vermihunter", DATA)
    same = _data()
    same["Races"].reverse()
    same["LandmarkTilesToUse"].reverse()
    cards = same["ChapterCardsToUse"]
    assert cards[12] == cards[13]  # two grey cards alike: chapter 1's 13th and 14th
    cards[12], cards[13] = cards[13], cards[12]
    api.import_source("vermihunter", _write(tmp_path / "same", same))
    assert [i for i, _ in _records(own_store)] == [i for i, _ in before]
    before = _records(own_store)
    swapped = _data()
    cards = swapped["ChapterCardsToUse"]
    cards[4], cards[8] = cards[8], cards[4]  # chapter 1's 5th card (blue) and 9th (yellow)
    error = _refused(_write(tmp_path / "swapped", swapped))
    assert "1.5 (now the card stored as 1.9)" in error.message and "1.9 (now the card stored as 1.5)" in error.message
    assert "--replace" in (error.expected or "") and error.field == "PATH"
    assert _records(own_store) == before
    result = api.import_source("vermihunter", tmp_path / "swapped", replace=True)
    assert result.report["source"]["sha256"] == hashlib.sha256(
        (tmp_path / "swapped" / importer.FILE).read_bytes()).hexdigest()
    assert store.StoreCatalog("vermihunter").lookup_id("1.5").extra["colour"] == "yellow"


def test_a_store_imported_without_digests_asks_for_replace_once(tmp_path: Path, own_store: Path) -> None:
    """Records an earlier pyengine wrote have no digest: whether an id still names its card cannot be told, so the
    re-import says so and asks for --replace (the migration), after which it needs it no more."""
    api.import_source("vermihunter", DATA)
    with sqlite3.connect(own_store) as db:
        for card_id, record in db.execute("SELECT id, record FROM cards WHERE source = 'vermihunter'").fetchall():
            old = json.loads(record)
            old["extra"].pop("digest", None)
            db.execute("UPDATE cards SET record = ? WHERE source = 'vermihunter' AND id = ?",
                       (json.dumps(old), card_id))
    error = _refused(DATA)
    assert "stored without a digest" in error.message and "--replace" in (error.expected or "")
    api.import_source("vermihunter", DATA, replace=True)
    api.import_source("vermihunter", DATA)


def test_setup_values_the_encodings_hold_otherwise_are_refused_each_named(tmp_path: Path, own_store: Path) -> None:
    data = _data()
    data["TotalCoinCount"] = 31
    data["StartingPlayer"] = "Fellowship"
    data["QuestOfTheRingTrackConfig"]["BonusActions"][0]["BonusActions"][0]["CoinsToGet"] = 2
    data["QuestOfTheRingTrackConfig"]["BonusActions"][2]["Position"] = 10
    data["QuestOfTheRingTrackConfig"]["FellowshipPlayerStartPosition"] = 15
    data["Rounds"][1]["CoinsPerChapterCardDiscard"] = 5
    data["InitialConfig"]["SauronPlayer"]["Coins"] = 4
    mordor = next(r for r in data["Regions"] if r["Name"] == "Mordor")
    mordor["StartingState"]["Units"]["Count"] = 3
    mordor["StartingState"]["Fortress"] = "Sauron"
    error = _refused(_write(tmp_path / "data", data))
    found = {e.field: e.message for e in error.all()}
    assert found["TotalCoinCount"] == "the data says 31, the encodings 30 (facts/dfm/base_game.lp, coin_total/1)"
    assert "the data says fellowship, the encodings sauron" in found["StartingPlayer"]
    assert "space 3 gives 2 of coins" in found["QuestOfTheRingTrackConfig.BonusActions[0].BonusActions[0]"]
    assert "space 10 gives 1 of extra_turns" in found["QuestOfTheRingTrackConfig.BonusActions[2].BonusActions[0]"]
    assert "space 9 gives 1 of extra_turns" in found["QuestOfTheRingTrackConfig.BonusActions"]
    assert found["Rounds[1].CoinsPerChapterCardDiscard"].startswith("the data says 5, the encodings 2")
    assert found["QuestOfTheRingTrackConfig.FellowshipPlayerStartPosition"].startswith("the data says 15, the "
                                                                                         "encodings 14")
    # The start a chapter-1 state may leave out (assumption setup_start) is the encodings': each part refused.
    assert found["InitialConfig.SauronPlayer.Coins"] == ("the data says 4, the encodings 2 (facts/dfm/base_game.lp, "
                                                         "setup_coins/2)")
    assert found["Regions[].StartingState.Units"].startswith("the data says 2 of fellowship in arnor, 3 of sauron in "
                                                             "mordor, the encodings 2 of fellowship in arnor, 2 of "
                                                             "sauron in mordor")
    assert "sauron's in mordor, the encodings none" in found["Regions[].StartingState.Fortress"]
    assert all(e.file and e.file.endswith(importer.FILE) for e in error.all())


def test_the_report_names_every_field_no_rule_reads(cli, tmp_path: Path, own_store: Path) -> None:  # type: ignore[no-untyped-def]
    """The unmodified data: its setup's supplies of units and Towers and the few effect fields no rule reads are
    named (the Ring track's width and starts, the starting coins and units are read: the encodings hold them); a
    changed supply is imported and named the same way."""
    code, out, _ = cli("import", "vermihunter", str(DATA))
    assert code == 0 and "not read: nothing" not in out
    [line] = [line for line in out.splitlines() if line.startswith("not read: ")]
    for field in ("InitialConfig.FellowshipPlayer.Units", "InitialConfig.SauronPlayer.Towers",
                  "Effects[].RevealAllianceTokensAndChooseSome.TokensToReveal "
                  "(grey_havens)", "Effect.PlayDiscardedChapterCard.CardsToPlay (wizards.3)"):
        assert field in line, field
    assert "TotalCoinCount" not in line and "BonusActions" not in line and "MoveCount" not in line
    assert "QuestOfTheRingTrackConfig" not in line and "Coins" not in line and "StartingState" not in line
    assert f"sha256 {hashlib.sha256((DATA / importer.FILE).read_bytes()).hexdigest()}" in out
    data = _data()
    data["InitialConfig"]["FellowshipPlayer"]["Units"] = 9
    code, out, _ = cli("import", "vermihunter", str(_write(tmp_path / "data", data)))
    assert code == 0 and "InitialConfig.FellowshipPlayer.Units" in out


def test_a_token_without_its_effect_is_refused_at_import_never_a_defect_later(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                              own_store: Path) -> None:
    code, _, _ = cli("import", "vermihunter", str(DATA))
    assert code == 0
    for change in (lambda t: t.pop("Effect"), lambda t: t.update(Type="FutureRaceEffect"),
                   lambda t: t.update(Effect={"Type": "MoveOnTheRingQuestTrack"})):
        data = _data()
        change(data["Races"][1]["AllianceTokens"][0])
        code, _, err = cli("import", "vermihunter", str(_write(tmp_path / "data", data)))
        assert code == 2 and "Races[1].AllianceTokens[0]" in err and "Alliance token humans.1" in err, err
    code, out, err = cli("check", str(SCENARIOS / "real_alliance_tokens.yaml"))
    assert code == 0, (out, err)


@pytest.mark.parametrize(("change", "field", "words"), [
    (lambda d: d["Races"][1].update(Name="Elves"), "Races[1].Name", "a second race elves (Races[0] is one)"),
    (lambda d: d["LandmarkTilesToUse"][1].update(FortressToPlaceTo="Mordor"), "LandmarkTilesToUse[1].FortressToPlaceTo",
     "a second tile of region mordor (LandmarkTilesToUse[0] is one)"),
])
def test_two_races_of_one_name_or_two_tiles_on_one_region_name_the_field(cli, tmp_path: Path, own_store: Path,  # type: ignore[no-untyped-def]
                                                                         change: Callable[[Any], None], field: str,
                                                                         words: str) -> None:
    data = _data()
    change(data)
    code, _, err = cli("import", "vermihunter", str(_write(tmp_path / "data", data)))
    assert code == 2 and f"{importer.FILE}: {field}: " in err and words in err and "UNIQUE" not in err, err


def test_the_encodings_known_sets_are_read_from_them() -> None:
    """The names the import checks are the encodings' own: the six triggers of the tokens' events (colour_event/2 and
    token_event/3), the attributes applied, the board's regions and tiles, the layouts' rows."""
    from pyengine.games.dfm.import_checks import encoded

    known = encoded()
    assert known.triggers == {"chapter_card_yellow_used", "chapter_card_blue_used", "chapter_card_green_used",
                              "chapter_card_discarded", "landmark_tile_used", "chaining_symbol_used"}
    assert known.attributes == {"benefit_from_any_skill", "ignore_landmark_tile_cost",
                                "place_extra_unit_for_red_card", "place_anywhere_for_red_card"}
    assert known.tiles["mordor"] == "barad_dur" and len(known.regions) == 7 and len(known.connections) == 10
    assert known.races == {"dwarves", "humans", "elves", "hobbits", "wizards", "ents"}
    assert {c: sum(r) for c, r in known.rows.items()} == {1: 20, 2: 20, 3: 20} and known.coin_total == 30


# -- the damage run ------------------------------------------------------------------------------------------------


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    """The object or list holding the last step of `path`."""
    for step in path[:-1]:
        data = data[step]
    return data


def put(*path: Any) -> Callable[[Any], Callable[[Any], None]]:
    """A damage that sets the field at `path` to a value."""
    return lambda value: lambda d: _at(d, path).__setitem__(path[-1], value)


def drop(*path: Any) -> Callable[[Any], None]:
    """A damage that removes the field at `path`."""
    return lambda d: _at(d, path).pop(path[-1])


def _eagle_twice(data: Any) -> None:
    """The Elves' third token made a copy of the Eagle."""
    data["Races"][0]["AllianceTokens"][2] = json.loads(json.dumps(data["Races"][4]["AllianceTokens"][0]))


def _four_tokens(data: Any) -> None:
    """A fourth Elves token."""
    token = {"Type": "OneTimeImmediateRaceEffect", "Effect": {"Type": "TakeAnotherTurn"}}
    data["Races"][0]["AllianceTokens"].append(token)


CARD = ("ChapterCardsToUse",)
TILE = ("LandmarkTilesToUse",)
TOKEN = ("Races",)
TRACK = ("QuestOfTheRingTrackConfig",)
HUGE = 10**12
# (name, damage, outcome): "refused" with the field the error names, or "imported" with what the report must say.
VARIANTS: list[tuple[str, Callable[[Any], None], str, str]] = [
    # The file's sections.
    ("no-total-coins", drop("TotalCoinCount"), "refused", "TotalCoinCount"),
    ("total-coins-31", put("TotalCoinCount")(31), "refused", "TotalCoinCount"),
    ("total-coins-text", put("TotalCoinCount")("30"), "refused", "TotalCoinCount"),
    ("total-coins-negative", put("TotalCoinCount")(-1), "refused", "TotalCoinCount"),
    ("total-coins-huge", put("TotalCoinCount")(HUGE), "refused", "TotalCoinCount"),
    ("starting-player-fellowship", put("StartingPlayer")("Fellowship"), "refused", "StartingPlayer"),
    ("starting-player-unknown", put("StartingPlayer")("Gandalf"), "refused", "StartingPlayer"),
    ("starting-player-missing", drop("StartingPlayer"), "refused", "StartingPlayer"),
    ("no-rounds", drop("Rounds"), "refused", "Rounds"),
    ("new-section", put("Expansion")({"Cards": []}), "imported", "(the file).Expansion"),
    ("sections-reordered", lambda d: [d.__setitem__(k, d.pop(k)) for k in list(d)[::-1]], "imported", "not read: "),
    ("no-initial-config", drop("InitialConfig"), "imported", "not read: "),
    # The players' starting coins, which the encodings hold (assumption setup_start), and their supplies, which no
    # rule reads.
    ("fellowship-coins-5", put("InitialConfig", "FellowshipPlayer", "Coins")(5), "refused",
     "InitialConfig.FellowshipPlayer.Coins"),
    ("fellowship-units-9", put("InitialConfig", "FellowshipPlayer", "Units")(9), "imported",
     "InitialConfig.FellowshipPlayer.Units"),
    ("sauron-towers-8", put("InitialConfig", "SauronPlayer", "Towers")(8), "imported",
     "InitialConfig.SauronPlayer.Towers"),
    ("sauron-units-negative", put("InitialConfig", "SauronPlayer", "Units")(-3), "refused",
     "InitialConfig.SauronPlayer.Units"),
    ("fellowship-coins-text", put("InitialConfig", "FellowshipPlayer", "Coins")("3"), "refused",
     "InitialConfig.FellowshipPlayer.Coins"),
    ("third-player", put("InitialConfig", "GandalfPlayer")({"Coins": 1}), "imported", "InitialConfig.GandalfPlayer"),
    # The regions.
    ("region-unknown", put("Regions", 0, "Name")("Moria"), "refused", "Regions[0].Name"),
    ("region-twice", put("Regions", 1, "Name")("Mordor"), "refused", "Regions[1].Name"),
    ("region-number", put("Regions", 0, "Name")(7), "refused", "Regions[0].Name"),
    ("region-missing", lambda d: d["Regions"].pop(6), "refused", "Regions"),
    ("fortress-other", put("Regions", 0, "Fortress")("DolGuldur"), "refused", "Regions[0].Fortress"),
    ("connection-dropped", lambda d: d["Regions"][0]["ConnectedWith"].remove("Gondor"), "refused",
     "Regions[0].ConnectedWith"),
    ("connection-disputed", lambda d: d["Regions"][0]["ConnectedWith"].append("Rhovanion"), "refused",
     "Regions[0].ConnectedWith"),
    ("connection-unknown", put("Regions", 0, "ConnectedWith")(["Narnia"]), "refused", "Regions[0].ConnectedWith[0]"),
    ("connection-twice", lambda d: d["Regions"][0]["ConnectedWith"].append("Rohan"), "refused",
     "Regions[0].ConnectedWith[2]"),
    ("start-units-5", put("Regions", 0, "StartingState", "Units", "Count")(5), "refused",
     "Regions[].StartingState.Units"),
    ("start-fortress", put("Regions", 3, "StartingState", "Fortress")("Fellowship"), "refused",
     "Regions[].StartingState.Fortress"),
    ("start-units-no-owner", put("Regions", 3, "StartingState", "Units", "Count")(3), "refused",
     "Regions[].StartingState.Units"),
    ("sauron-coins-missing", drop("InitialConfig", "SauronPlayer", "Coins"), "refused",
     "InitialConfig.SauronPlayer.Coins"),
    ("start-units-player-unknown", put("Regions", 0, "StartingState", "Units", "Player")("Gandalf"), "refused",
     "Regions[0].StartingState.Units.Player"),
    ("regions-reordered", lambda d: d["Regions"].reverse(), "imported", "not read: "),
    # The chapter cards.
    ("move-count-missing", drop(*CARD, 4, "Effects", 0, "MoveCount"), "refused",
     "ChapterCardsToUse[4].Effects[0].MoveCount"),
    ("move-count-negative", put(*CARD, 4, "Effects", 0, "MoveCount")(-1), "refused",
     "ChapterCardsToUse[4].Effects[0].MoveCount"),
    ("move-count-zero", put(*CARD, 4, "Effects", 0, "MoveCount")(0), "refused",
     "ChapterCardsToUse[4].Effects[0].MoveCount"),
    ("move-count-text", put(*CARD, 4, "Effects", 0, "MoveCount")("one"), "refused",
     "ChapterCardsToUse[4].Effects[0].MoveCount"),
    ("move-count-huge", put(*CARD, 4, "Effects", 0, "MoveCount")(HUGE), "refused",
     "ChapterCardsToUse[4].Effects[0].MoveCount"),
    ("move-count-fraction", put(*CARD, 4, "Effects", 0, "MoveCount")(1.5), "refused",
     "ChapterCardsToUse[4].Effects[0].MoveCount"),
    ("coins-to-get-missing", drop(*CARD, 8, "Effects", 0, "CoinsToGet"), "refused",
     "ChapterCardsToUse[8].Effects[0].CoinsToGet"),
    ("units-to-place-missing", drop(*CARD, 20, "Effects", 0, "UnitsToPlace"), "refused",
     "ChapterCardsToUse[20].Effects[0].UnitsToPlace"),
    ("colour-unknown", put(*CARD, 0, "Color")("ORANGE"), "refused", "ChapterCardsToUse[0].Color"),
    ("colour-missing", drop(*CARD, 0, "Color"), "refused", "ChapterCardsToUse[0].Color"),
    ("chapter-zero", put(*CARD, 0, "Round")(0), "refused", "ChapterCardsToUse[0].Round"),
    ("chapter-missing", drop(*CARD, 0, "Round"), "refused", "ChapterCardsToUse[0].Round"),
    ("coin-cost-missing", drop(*CARD, 0, "CoinsToPlay"), "refused", "ChapterCardsToUse[0].CoinsToPlay"),
    ("coin-cost-negative", put(*CARD, 0, "CoinsToPlay")(-2), "refused", "ChapterCardsToUse[0].CoinsToPlay"),
    ("skill-cost-missing", drop(*CARD, 0, "RequiredSkills", "Knowledge"), "refused",
     "ChapterCardsToUse[0].RequiredSkills.Knowledge"),
    ("skill-cost-unknown", put(*CARD, 0, "RequiredSkills", "Cunning")(1), "imported",
     "ChapterCardsToUse[0].RequiredSkills.Cunning"),
    ("chain-unknown", put(*CARD, 0, "GainedChainingSymbol")("LUTE"), "refused",
     "ChapterCardsToUse[0].GainedChainingSymbol"),
    ("chain-number", put(*CARD, 0, "GainedChainingSymbol")(5), "refused", "ChapterCardsToUse[0].GainedChainingSymbol"),
    ("chain-missing", drop(*CARD, 0, "GainedChainingSymbol"), "refused", "ChapterCardsToUse[0].GainedChainingSymbol"),
    ("chain-gained-by-none", put(*CARD, 0, "GainedChainingSymbol")(None), "refused",
     "ChapterCardsToUse[23].PlayForFreeChainingSymbol"),
    ("no-effects", put(*CARD, 0, "Effects")([]), "refused", "ChapterCardsToUse[0].Effects"),
    ("effect-type-unknown", put(*CARD, 0, "Effects", 0, "Type")("SummonBalrog"), "imported",
     "ChapterCardsToUse[0].Effects[0]: effect type SummonBalrog"),
    ("effect-type-missing", drop(*CARD, 0, "Effects", 0, "Type"), "refused", "ChapterCardsToUse[0].Effects[0].Type"),
    ("effect-type-spaced", put(*CARD, 0, "Effects", 0, "Type")("Summon Balrog"), "refused",
     "ChapterCardsToUse[0].Effects[0].Type"),
    ("effect-field-unknown", put(*CARD, 0, "Effects", 0, "Flavour")("x"), "imported",
     "ChapterCardsToUse[0].Effects[0].Flavour"),
    ("regions-unknown", put(*CARD, 20, "Effects", 0, "PossibleRegionsToPlace")(["Moria"]), "refused",
     "ChapterCardsToUse[20].Effects[0].PossibleRegionsToPlace[0]"),
    ("regions-empty", put(*CARD, 20, "Effects", 0, "PossibleRegionsToPlace")([]), "refused",
     "ChapterCardsToUse[20].Effects[0].PossibleRegionsToPlace"),
    ("strategy-unknown", put(*CARD, 20, "Effects", 0, "Strategy")("TELEPORT"), "refused",
     "ChapterCardsToUse[20].Effects[0].Strategy"),
    ("strategy-other", put(*CARD, 68, "Effects", 0, "Strategy")("ALL_TO_SAME_REGION"), "refused",
     "ChapterCardsToUse[68].Effects[0].Strategy"),
    ("strategy-missing", drop(*CARD, 68, "Effects", 0, "Strategy"), "refused",
     "ChapterCardsToUse[68].Effects[0].Strategy"),
    ("race-unknown", put(*CARD, 0, "Effects", 0, "RaceToSupport")("Orcs"), "refused",
     "ChapterCardsToUse[0].Effects[0].RaceToSupport"),
    ("race-eagles-on-a-card", put(*CARD, 0, "Effects", 0, "RaceToSupport")("Eagles"), "refused",
     "ChapterCardsToUse[0].Effects[0].RaceToSupport"),
    ("skill-set-optional-missing", drop(*CARD, 12, "Effects", 0, "SkillSet", "IsOptional"), "refused",
     "ChapterCardsToUse[12].Effects[0].SkillSet.IsOptional"),
    ("skill-set-optional-text", put(*CARD, 12, "Effects", 0, "SkillSet", "IsOptional")("yes"), "refused",
     "ChapterCardsToUse[12].Effects[0].SkillSet.IsOptional"),
    ("chapter-short-of-cards", lambda d: [d["ChapterCardsToUse"].pop(50) for _ in range(4)], "refused",
     "ChapterCardsToUse"),
    ("card-twice", lambda d: d["ChapterCardsToUse"].insert(1, json.loads(json.dumps(d["ChapterCardsToUse"][12]))),
     "imported", "24 in chapter 1"),
    ("cards-reordered", lambda d: d["ChapterCardsToUse"].reverse(), "imported", "sha256"),
    # The Landmark tiles.
    ("tile-region-unknown", put(*TILE, 0, "FortressToPlaceTo")("Moria"), "refused",
     "LandmarkTilesToUse[0].FortressToPlaceTo"),
    ("tile-region-twice", put(*TILE, 1, "FortressToPlaceTo")("Mordor"), "refused",
     "LandmarkTilesToUse[1].FortressToPlaceTo"),
    ("tile-missing", lambda d: d["LandmarkTilesToUse"].pop(3), "refused", "LandmarkTilesToUse"),
    ("tile-move-count-missing", drop(*TILE, 1, "Effects", 1, "MoveCount"), "refused",
     "LandmarkTilesToUse[1].Effects[1].MoveCount"),
    ("tile-units-elsewhere", put(*TILE, 3, "Effects", 0, "PossibleRegionsToPlace")(["Mordor"]), "imported",
     "Effects[].PlaceUnitsOnCentralBoard.UnitsToPlace (minas_tirith)"),
    ("tile-reveal-negative", put(*TILE, 5, "Effects", 0, "TokensToReveal")(-1), "refused",
     "LandmarkTilesToUse[5].Effects[0].TokensToReveal"),
    ("tile-reveal-race-unknown", put(*TILE, 5, "Effects", 0, "RacesToRevealFrom")(["Orcs"]), "refused",
     "LandmarkTilesToUse[5].Effects[0].RacesToRevealFrom[0]"),
    ("tile-skill-text", put(*TILE, 0, "RequiredSkills", "Ruse")("x"), "refused",
     "LandmarkTilesToUse[0].RequiredSkills.Ruse"),
    ("tiles-reordered", lambda d: d["LandmarkTilesToUse"].reverse(), "imported", "not read: "),
    # The Alliance tokens.
    ("race-name-unknown", put(*TOKEN, 0, "Name")("Orcs"), "refused", "Races[0].Name"),
    ("race-name-twice", put(*TOKEN, 1, "Name")("Elves"), "refused", "Races[1].Name"),
    ("race-no-tokens", put(*TOKEN, 0, "AllianceTokens")([]), "refused", "Races[0].AllianceTokens"),
    ("race-four-tokens", _four_tokens, "refused", "Races[0].AllianceTokens"),
    ("token-type-unknown", put(*TOKEN, 0, "AllianceTokens", 1, "Type")("FutureRaceEffect"), "refused",
     "Races[0].AllianceTokens[1].Type"),
    ("token-type-missing", drop(*TOKEN, 0, "AllianceTokens", 1, "Type"), "refused", "Races[0].AllianceTokens[1].Type"),
    ("token-effect-missing", drop(*TOKEN, 0, "AllianceTokens", 0, "Effect"), "refused",
     "Races[0].AllianceTokens[0].Effect"),
    ("token-trigger-unknown", put(*TOKEN, 0, "AllianceTokens", 0, "Trigger")("CHAPTER_CARD_RED_USED"), "refused",
     "Races[0].AllianceTokens[0].Trigger"),
    ("token-trigger-missing", drop(*TOKEN, 0, "AllianceTokens", 0, "Trigger"), "refused",
     "Races[0].AllianceTokens[0].Trigger"),
    ("token-trigger-number", put(*TOKEN, 0, "AllianceTokens", 0, "Trigger")(5), "refused",
     "Races[0].AllianceTokens[0].Trigger"),
    ("token-attribute-unknown", put(*TOKEN, 0, "AllianceTokens", 1, "Attribute")("FLY"), "imported",
     "Races[0].AllianceTokens[1].Attribute: attribute FLY, which no rule applies"),
    ("token-once-effect-missing", drop(*TOKEN, 3, "AllianceTokens", 0, "Effect"), "refused",
     "Races[3].AllianceTokens[0].Effect"),
    ("token-move-count-missing", drop(*TOKEN, 3, "AllianceTokens", 0, "Effect", "MoveCount"), "refused",
     "Races[3].AllianceTokens[0].Effect.MoveCount"),
    ("token-units-spread-other", put(*TOKEN, 3, "AllianceTokens", 1, "Effect", "Strategy")("ALL_TO_SAME_REGION"),
     "refused", "Races[3].AllianceTokens[1].Effect.Strategy"),
    ("token-units-three", put(*TOKEN, 3, "AllianceTokens", 1, "Effect", "UnitsToPlace")(3), "refused",
     "Races[3].AllianceTokens[1].Effect.UnitsToPlace"),
    ("token-picks-more-than-offered", put(*TOKEN, 5, "AllianceTokens", 2, "Effect", "ActionsToTake")(4), "refused",
     "Races[5].AllianceTokens[2].Effect.ActionsToTake"),
    ("token-eagle-of-elves", put(*TOKEN, 4, "AllianceTokens", 0, "Effect", "RaceToSupport")("Elves"), "refused",
     "Races[4].AllianceTokens[0].Effect.RaceToSupport"),
    ("token-eagle-twice", _eagle_twice, "refused", "Races[4].AllianceTokens[0]"),
    ("token-coins-by-chapter-short", put(*TOKEN, 1, "AllianceTokens", 2, "Effect", "ExtraCoinsPerRound")([1, 2]),
     "refused", "Races[1].AllianceTokens[2].Effect.ExtraCoinsPerRound"),
    ("token-effect-unknown", put(*TOKEN, 3, "AllianceTokens", 2, "Effect", "Type")("SummonEagles"), "imported",
     "Races[3].AllianceTokens[2].Effect: effect type SummonEagles"),
    ("token-field-unknown", put(*TOKEN, 0, "AllianceTokens", 1, "Flavour")("x"), "imported",
     "Races[0].AllianceTokens[1].Flavour"),
    ("races-reordered", lambda d: d["Races"].reverse(), "imported", "not read: "),
    ("tokens-reordered", lambda d: d["Races"][0]["AllianceTokens"].reverse(), "imported", "not read: "),
    # The Ring track.
    ("bonus-moved", put(*TRACK, "BonusActions", 0, "Position")(4), "refused",
     "QuestOfTheRingTrackConfig.BonusActions[0].BonusActions[0]"),
    ("bonus-coins-2", put(*TRACK, "BonusActions", 0, "BonusActions", 0, "CoinsToGet")(2), "refused",
     "QuestOfTheRingTrackConfig.BonusActions[0].BonusActions[0]"),
    ("bonus-dropped", lambda d: d["QuestOfTheRingTrackConfig"]["BonusActions"].pop(3), "refused",
     "QuestOfTheRingTrackConfig.BonusActions"),
    ("bonus-regions-fewer", lambda d: d["QuestOfTheRingTrackConfig"]["BonusActions"][1]["BonusActions"][0][
        "PossibleRegionsToPlace"].pop(), "refused",
     "QuestOfTheRingTrackConfig.BonusActions[1].BonusActions[0].PossibleRegionsToPlace"),
    ("bonus-space-twice", lambda d: d["QuestOfTheRingTrackConfig"]["BonusActions"].insert(
        1, json.loads(json.dumps(d["QuestOfTheRingTrackConfig"]["BonusActions"][0]))), "refused",
     "QuestOfTheRingTrackConfig.BonusActions[1].BonusActions[0]"),
    ("bonus-position-missing", drop(*TRACK, "BonusActions", 0, "Position"), "refused",
     "QuestOfTheRingTrackConfig.BonusActions[0].Position"),
    ("track-width-30", put(*TRACK, "Width")(30), "refused", "QuestOfTheRingTrackConfig.Width"),
    ("track-fellowship-start-15", put(*TRACK, "FellowshipPlayerStartPosition")(15), "refused",
     "QuestOfTheRingTrackConfig.FellowshipPlayerStartPosition"),
    ("track-sauron-start-1", put(*TRACK, "SauronPlayerStartPosition")(1), "refused",
     "QuestOfTheRingTrackConfig.SauronPlayerStartPosition"),
    ("track-start-dropped", drop(*TRACK, "SauronPlayerStartPosition"), "refused",
     "QuestOfTheRingTrackConfig.SauronPlayerStartPosition"),
    ("track-start-negative", put(*TRACK, "FellowshipPlayerStartPosition")(-1), "refused",
     "QuestOfTheRingTrackConfig.FellowshipPlayerStartPosition"),
    # The layouts.
    ("discard-coins-5", put("Rounds", 0, "CoinsPerChapterCardDiscard")(5), "refused",
     "Rounds[0].CoinsPerChapterCardDiscard"),
    ("face-turned", put("Rounds", 0, "ChapterCardConfig", 0, "IsFaceUp")(False), "refused",
     "Rounds[0].ChapterCardConfig[0].IsFaceUp"),
    ("covering-changed", put("Rounds", 0, "ChapterCardConfig", 0, "DependsOn")([2, 4]), "refused",
     "Rounds[0].ChapterCardConfig[0].DependsOn"),
    ("covering-unknown-place", put("Rounds", 0, "ChapterCardConfig", 0, "DependsOn")([99]), "refused",
     "Rounds[0].ChapterCardConfig[0].DependsOn[0]"),
    ("covering-twice", lambda d: d["Rounds"][0]["ChapterCardConfig"][0]["DependsOn"].append(3), "refused",
     "Rounds[0].ChapterCardConfig[0].DependsOn[2]"),
    ("row-changed", put("Rounds", 0, "ChapterCardConfig", 0, "Row")(2), "refused", "Rounds[0].ChapterCardConfig"),
    ("place-id-twice", put("Rounds", 0, "ChapterCardConfig", 1, "ID")(0), "refused",
     "Rounds[0].ChapterCardConfig[1].ID"),
    ("chapter-layout-missing", lambda d: d["Rounds"].pop(2), "refused", "Rounds"),
    ("chapter-layout-4", put("Rounds", 2, "Round")(4), "refused", "Rounds[2].Round"),
    # The Landmark tiles' context.
    ("coin-per-fortress-2", put("LandmarkTileContextConfig", "CoinPerAlreadyPlacedFortressPawn")(2), "refused",
     "LandmarkTileContextConfig.CoinPerAlreadyPlacedFortressPawn"),
    ("tiles-at-a-time-4", put("LandmarkTileContextConfig", "LandmarkTilesAtTime")(4), "imported",
     "LandmarkTileContextConfig.LandmarkTilesAtTime"),
]


@pytest.mark.parametrize(("damage", "outcome", "named"), [v[1:] for v in VARIANTS], ids=[v[0] for v in VARIANTS])
def test_a_single_damage_is_refused_where_it_is_or_imported_and_reported(tmp_path: Path, own_store: Path,
                                                                         damage: Callable[[Any], None], outcome: str,
                                                                         named: str) -> None:
    data = _data()
    damage(data)
    folder = _write(tmp_path / "data", data)
    if outcome == "refused":
        error = _refused(folder)
        assert all(e.file == str(folder / importer.FILE) for e in error.all()), str(error)
        assert named in [e.field for e in error.all()], str(error)
        assert "vermihunter" not in store.sources(), "a refused import wrote to the store"
    else:
        result = api.import_source("vermihunter", folder)
        assert named in "\n".join(importer.report_lines(result.report))


def test_the_damage_run_tries_sixty_variants_or_more() -> None:
    refused = sum(v[2] == "refused" for v in VARIANTS)
    assert len(VARIANTS) >= 60 and refused >= 45 and len(VARIANTS) - refused >= 15, (len(VARIANTS), refused)


def test_imported_damages_leave_every_real_card_scenario_answerable(cli, tmp_path: Path, own_store: Path) -> None:  # type: ignore[no-untyped-def]
    """The damages that are imported (an unknown effect type on a card and in a token, an unknown attribute and
    field) are named by the answers where they count, never an internal error."""
    data = _data()
    for name, damage, outcome, _ in VARIANTS:
        if outcome == "imported" and name.startswith(("effect-", "token-", "skill-cost-")):
            damage(data)
    code, _, err = cli("import", "vermihunter", str(_write(tmp_path / "data", data)))
    assert code == 0, err
    for scenario in ("real_alliance_tokens.yaml", "real_cards.yaml"):
        code, out, err = cli("check", str(SCENARIOS / scenario))
        assert code in (0, 1) and "internal error" not in err, (scenario, out, err)
