"""The GEMP importer and deck validation on the real card pool (skipped, with the reason, where the data is
absent), and deck files on the built-in catalog."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import ROOT
from pyengine.core.errors import InputError
from pyengine.games.lotr import importer as gemp
from tests.paths import DATA

GEMP = DATA / "gemp-lotr" / "cards"
needs_gemp = pytest.mark.skipif(not GEMP.is_dir(), reason=f"GEMP card data not found at {GEMP}")



@needs_gemp
def test_import_report_matches_the_data(cli, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "store.sqlite"))
    code, out, _ = cli("import", "gemp", str(GEMP), "--json")
    data = json.loads(out)
    report = data["report"]
    official = report["official"]
    assert code == 0 and Path(data["store"]).exists()
    assert report["entries"] == 3965
    assert (official["entries"], official["unique"], official["distinct_stored_titles"]) == (3089, 982, 2608)
    assert official["stored_titles_shared_by_several_cards"] == 168
    assert [t["title"] for t in official["titles_mixing_uniqueness"]] == ["Mûmak Commander"]
    assert [t["title"] for t in official["titles_mixing_sides"]] == ["The Palantír of Orthanc"]
    assert {e["card"]: e["printed"] for e in report["title_edits"]} == {"7_303": "Orc Pursuer",
                                                                         "18_124": "White Hand Attacker"}
    assert len(report["titles_differing_only_in_spelling"]) == 24
    assert len(report["collinfo_shared_by_different_titles"]) == 19
    breaks = {b["card"] for b in report["invariant_breaks"]}
    assert {"15_204", "15_205", "15_206"} <= breaks
    assert {b["rule"] for b in report["invariant_breaks"]} == {"lotr_condition_no_subtitle"}
    assert report["abilities"] == {"plays_from_dead_pile": 4, "plays_from_discard": 194, "plays_from_draw_deck": 127,
                                   "plays_from_hand": 90, "plays_from_hand_ignoring_dead_pile": 2,
                                   "plays_from_stacked": 28, "stacks_cards": 63}
    unknown = report["effect_types_not_understood"]
    assert unknown["removecardsindeadpilefromgame"] == 4 and "playcardfromhand" not in unknown


@needs_gemp
def test_import_text_report(cli, tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "store.sqlite"))
    code, out, _ = cli("import", "gemp", str(GEMP))
    assert code == 0
    assert "official titles mixing unique and non-unique: 1: Mûmak Commander (15_86, 7_152)" in out
    assert "7_303 stored 'Orc Pursuer(2)', printed 'Orc Pursuer'" in out
    assert "abilities from the effect scripts: plays_from_dead_pile 4, plays_from_discard 194" in out
    assert "not understood: 71: activatedfromstacked (12)" in out


def test_import_refuses_a_folder_that_is_not_a_card_database(cli, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "store.sqlite"))
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    code, out, err = cli("import", "gemp", str(tmp_path))
    assert code == 2 and out == ""
    assert "no .hjson card files found" in err
    assert not (tmp_path / "store.sqlite").exists()


def test_import_names_a_card_without_title(tmp_path: Path) -> None:
    (tmp_path / "set.hjson").write_text("{\n  1_1: {\n    type: Event\n  }\n}\n", encoding="utf-8")
    with pytest.raises(InputError, match="card 1_1 has no title"):
        gemp.read_cards(tmp_path)


def test_import_names_the_line_of_malformed_hjson(tmp_path: Path) -> None:
    (tmp_path / "set.hjson").write_text("{\n  1_1: {\n    title: X\n    type: Event\n  \n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        gemp.read_cards(tmp_path)
    assert caught.value.file == str(tmp_path / "set.hjson") and caught.value.line is not None


def test_printed_title_undoes_gemps_edit() -> None:
    assert gemp.printed_title("Orc Pursuer(2)") == ("Orc Pursuer", 2)
    assert gemp.printed_title("Gandalf (Grey)") == ("Gandalf (Grey)", None)


def test_text_deck_file_on_the_builtin_catalog(cli) -> None:
    code, out, _ = cli("deck", str(ROOT / "examples" / "decks" / "sauron_eight.txt"), "--game", "lotr",
                       "--json")
    [deck] = json.loads(out)["decks"]
    assert code == 1
    assert deck["verdict"] == "invalid"
    assert [r["rule"] for r in deck["reasons"]] == ["lotr_deck_four_per_title"]
    assert "8 cards of the title" in deck["reasons"][0]["evidence"]


@needs_gemp
def test_text_decklist_under_document_and_gemp(cli) -> None:
    path = str(ROOT / "tests" / "decks" / "tournament_gemp.txt")
    code, out, _ = cli("deck", path, "--game", "lotr", "--catalog", "gemp", "--json")
    [deck] = json.loads(out)["decks"]
    assert code == 1
    assert [r["rule"] for r in deck["reasons"]] == ["lotr_deck_four_per_title"]
    assert "White Hand Attacker" in deck["reasons"][0]["evidence"]
    code, out, _ = cli("deck", path, "--game", "lotr", "--catalog", "gemp", "--profile", "gemp", "--json")
    [deck] = json.loads(out)["decks"]
    assert code == 1
    assert sorted(r["rule"] for r in deck["reasons"]) == ["lotr_deck_counts_all_cards",
                                                         "lotr_deck_four_per_stored_title"]


@needs_gemp
def test_unknown_cards_in_a_decklist_are_all_reported(cli) -> None:
    path = ROOT / "tests" / "decks" / "unknown_cards.txt"
    code, out, err = cli("deck", str(path), "--game", "lotr", "--catalog", "gemp")
    lines = err.strip().splitlines()
    assert code == 2 and out == ""
    assert len(lines) == 3
    assert lines[0].startswith(f"error: {path}:1:1") and "did you mean 'Sting'" in lines[0]
    assert "names 2 cards: 5_108 (Orc Pursuer, minion, 5C108), 7_303 (Orc Pursuer, minion, 7C303; " in lines[1]


def test_a_scenario_on_a_catalog_not_imported_says_how_to_import(cli,
                                                                 tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYENGINE_STORE", str(tmp_path / "empty.sqlite"))
    code, _, err = cli("check", str(ROOT / "tests" / "scenarios" / "lotr_gemp" / "decks.yaml"))
    assert code == 2
    assert "no imported catalog 'gemp'" in err and "pyengine import gemp PATH" in err


def test_yaml_deck_file_with_readings(cli, tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text("game: lotr\nreadings: {lotr_deck_scope: all_cards}\nring_bearer: 1_290\n"
                    "cards:\n  - {card: 1_289, count: 4}\n", encoding="utf-8")
    code, out, _ = cli("deck", str(path), "--json")
    [deck] = json.loads(out)["decks"]
    assert code == 1
    assert sorted(r["rule"] for r in deck["reasons"]) == ["lotr_deck_counts_all_cards", "lotr_deck_four_per_title"]
    assert deck["rested_on"] == {"lotr_deck_count_key": "persona", "lotr_deck_scope": "all_cards"}
