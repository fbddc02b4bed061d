"""The MarvelCDB importer on the real data (skipped, with the reason, where it is absent) and Marvel
decklists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import ROOT
from pyengine.core.errors import InputError
from pyengine.games.marvel import importer as marvelsdb
from tests.paths import DATA

DATA = DATA / "marvelsdb"
needs_data = pytest.mark.skipif(not (DATA / "pack").is_dir(), reason=f"MarvelCDB data not found at {DATA}")



@needs_data
def test_import_report_counts_and_anomalies(cli, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "store.sqlite"))
    code, out, _ = cli("import", "marvelsdb", str(DATA), "--json")
    report = json.loads(out)["report"]
    assert code == 0
    assert (report["entries"], report["cards"], report["reprint_stubs"]) == (4230, 3894, 336)
    assert report["unique"] == 1245
    assert {k: report["unique_by_type"][k] for k in ("ally", "minion", "villain")} == {
        "ally": 312, "minion": 287, "villain": 211}
    assert report["unique_allies_without_subtitle"] == 83
    assert report["heroes_not_marked_unique"] == ["21001a", "29001a"]
    assert report["unique_player_cards_without_deck_limit"] == 77
    assert ["Yellow Jacket", "Yellowjacket"] in report["names_differing_only_in_spelling"]
    assert {"hero": "56001a", "alter_ego": "Greer Nelson", "ally": "01051",
            "subtitle": "Greer Grant Nelson"} in report["alter_ego_and_ally_subtitle_variants"]
    assert any(v["german_subtitle"] == "Erik Lensherr" for v in report["german_respellings_of_alter_egos"])
    assert ["Greer Grant Nelson", "Greer Nelson"] in report["person_groups"]
    forms = {h["hero"]: h["forms"] for h in report["hero_forms"]}
    assert forms["42001a"] == ["42001c"] and forms["29001a"] == ["29002a", "29003a"]


@needs_data
def test_a_deck_names_the_reprint_code_the_user_wrote(cli, tmp_path: Path) -> None:
    path = tmp_path / "hawkeye.txt"
    path.write_text("Identity: 01001a\n1 03012\n1 01066\n", encoding="utf-8")
    code, out, _ = cli("deck", str(path), "--game", "marvel", "--catalog", "marvelsdb")
    assert code == 1
    assert "2 copies of \u2022Hawkeye, Clint Barton (03012, a reprint of 01066)" in out
    assert "marvel_deck_uniqueness_only" in out


@needs_data
def test_cards_link_identities_reprints_and_german_names() -> None:
    raw, translated = marvelsdb.read_raw(DATA)
    cards = {c.id: c for c in marvelsdb.build_cards(raw, translated)}
    assert cards["01001a"].extra["alter_ego"] == "01001b"
    assert cards["12001a"].extra["forms"] == ["12001c"]
    assert cards["31001a"].extra["alter_ego"] == "31002a"
    assert "SP//dr Anzug" in cards["31001a"].aliases
    assert "42015" in cards["17030"].extra["codes"]


def test_import_refuses_a_folder_that_is_not_marvelcdb(cli, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "store.sqlite"))
    code, out, err = cli("import", "marvelsdb", str(tmp_path))
    assert code == 2 and out == "" and "no pack/*.json card files found" in err


def test_import_names_a_malformed_pack_file(tmp_path: Path) -> None:
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "core.json").write_text('[{"code": "01001a",\n "name": }]', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        marvelsdb.read_raw(tmp_path)
    assert caught.value.line == 2 and "malformed JSON" in caught.value.message


def test_marvel_decklist_counts_the_identity(cli) -> None:
    path = ROOT / "examples" / "decks" / "spider_man_own_ally.txt"
    code, out, _ = cli("deck", str(path), "--game", "marvel", "--json")
    [deck] = json.loads(out)["decks"]
    assert code == 1
    rules = sorted(r["rule"] for r in deck["reasons"])
    assert rules == ["marvel_ally_subtitle_is_alter_ego", "marvel_deck_identity_counts", "marvel_deck_uniqueness_only"]
    code, out, _ = cli("deck", str(path), "--game", "marvel", "--profile", "marvelcdb", "--json")
    [deck] = json.loads(out)["decks"]
    assert code == 0 and deck["verdict"] == "valid"


def test_readings_lists_every_marvel_reading(cli) -> None:
    code, out, _ = cli("readings", "--game", "marvel", "--json")
    readings = {r["reading"]: r for r in json.loads(out)["readings"]}
    assert code == 0
    assert set(readings) == {"marvel_no_subtitle_scope", "marvel_alter_ego_person", "marvel_plain_ally_vs_alter_ego",
                             "marvel_identity_faces", "marvel_minion_scope", "marvel_name_spelling", "marvel_deck_key",
                             "marvel_person_spelling"}
    assert readings["marvel_deck_key"]["profiles"] == {"marvelcdb": "not_counted", "marvelcdb_editor": "card_code"}
