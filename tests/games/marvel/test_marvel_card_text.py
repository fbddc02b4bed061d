"""The reader of Marvel card text (pyengine/games/marvel/terms.py): on the real MarvelCDB data the census of terms and
the stored cards come from one classifier, every rule it names exists, and the abilities a text gives decide
questions on hypothetical cards as they do on real ones."""

from __future__ import annotations

import pytest

import pyengine
from pyengine.core import kb as kbase
from pyengine.games.marvel import importer as marvelsdb
from pyengine.games.marvel.terms import ABILITY_RULES, MARKERS, pool_names, read_text, text_terms
from tests.paths import DATA

DATA = DATA / "marvelsdb"
needs_data = pytest.mark.skipif(not (DATA / "pack").is_dir(), reason=f"MarvelCDB data not found at {DATA}")


def test_every_rule_an_ability_names_is_declared() -> None:
    rules = kbase.load("marvel").rules
    assert {r for ids in ABILITY_RULES.values() for r in ids} <= set(rules)
    assert set(MARKERS) <= set(ABILITY_RULES)


@needs_data
def test_the_census_of_terms_and_the_stored_cards_agree_on_every_card() -> None:
    """One classifier: a card's read terms are its stored abilities and zones, its named ones its text_unread."""
    raw, translated = marvelsdb.read_raw(DATA)
    cards = {c.id: c for c in marvelsdb.build_cards(raw, translated)}
    rows = dict(marvelsdb.census_terms(DATA))
    assert set(rows) == set(cards)
    for code, card in cards.items():
        read = {marker for kind, marker, status, _ in rows[code] if status == "read"
                and kind not in ("source_zone", "field")}
        assert read == {MARKERS[a[0]][1] for a in card.extra.get("abilities", [])}, code
        zones = {marker for kind, marker, status, _ in rows[code] if kind == "source_zone"}
        assert len(zones) == len({z for _, z in card.extra.get("ability_zones", [])}), code
        named = any(status == "named" for kind, _, status, _ in rows[code] if kind != "field")
        assert named == bool(card.extra.get("text_unread")), code


@needs_data
def test_encounter_and_villain_cards_that_bring_cards_into_play_are_read() -> None:
    raw, _ = marvelsdb.read_raw(DATA)
    names = pool_names(e for e in raw.values() if "name" in e)
    chair = read_text(raw["01183"], names)  # The Doomsday Chair: a named minion, only while none is in play
    assert chair.abilities == [["puts_into_play", "M.O.D.O.K."], ["puts_if_absent", "M.O.D.O.K."]]
    assert {z for _, z in chair.zones} == {"deck", "discard"} and not chair.unread
    assert read_text(raw["01128"], names).abilities == [["puts_trait_minion", "mastersofevil"]]
    assert read_text(raw["32109"], names).abilities == [["puts_trait_minion", "sentinel"]]  # a villain's text
    routed = read_text(raw["40081a"], names)
    assert routed.abilities == [["puts_next_villain"], ["discards_same_named_minion"]] and not routed.unread
    assert read_text(raw["27100b"], names).zones == [(["puts_set_aside_villain"], "set_aside")]
    # Save the School's reveal is read; the win condition before it is named, not passed over.
    assert ("condition", "a condition on bringing a card into play, not checked", "named") in text_terms(raw["32130"])
    # A swap of villains is a villain entering in a shape not read: named.
    assert ("enters_play", "a villain entering, in a shape not read", "named") in text_terms(raw["21176"], names)


def test_a_hypothetical_villain_is_brought_in_by_a_hypothetical_card() -> None:
    """The abilities a scenario declares on its own cards decide as the importer's do; the via card is in reach in
    the encounter's play area, and the villain deck is a zone of the encounter."""
    table = {
        "game": "marvel", "cites": ["p13"],
        "cards": [{"id": "x-hero", "title": "X Hero", "type": "hero", "unique": True},
                  {"id": "x-stage", "title": "X Stage", "type": "main_scheme",
                   "abilities": ["puts_next_villain", "discards_same_named_minion"]},
                  {"id": "x-scheme", "title": "X Scheme", "type": "side_scheme",
                   "abilities": [{"puts_trait_minion": "Goon Squad"}]},
                  {"id": "x-boss", "title": "X Boss", "type": "villain", "unique": True},
                  {"id": "x-goon", "title": "X Goon", "type": "minion", "traits": ["Goon-Squad."]}],
        "players": {"alice": {"identity": {"card": "x-hero"}}},
        "encounter": {"play": [{"id": "stage", "card": "x-stage"}, {"id": "scheme", "card": "x-scheme"}],
                      "villain_deck": [{"id": "boss", "card": "x-boss"}],
                      "deck": [{"id": "goon", "card": "x-goon"}, {"id": "stage-2", "card": "x-stage"}]},
        "questions": [
            {"id": "boss", "ask": "put_into_play", "card": "boss", "via": "stage", "player": "alice"},
            {"id": "goon", "ask": "put_into_play", "card": "goon", "via": "scheme", "player": "alice"},
            {"id": "goon-by-stage", "ask": "put_into_play", "card": "goon", "via": "stage", "player": "alice"},
            {"id": "stage-in-deck", "ask": "put_into_play", "card": "boss", "via": "stage-2", "player": "alice"}]}
    found = {q.question: (q.got, sorted(q.rules)) for q in pyengine.answer(table).questions}
    assert found == {"boss": ("enters_play", ["marvel_card_text_wins"]),
                     "goon": ("enters_play", ["marvel_card_text_wins"]),
                     "goon-by-stage": ("fails", ["marvel_via_card_cannot"]),
                     "stage-in-deck": ("fails", ["marvel_via_out_of_reach"])}


def test_a_hypothetical_card_with_an_unknown_ability_is_refused() -> None:
    table = {"game": "marvel", "cards": [{"id": "x", "title": "X", "type": "minion", "abilities": ["puts_villain"]}],
             "players": {"alice": {}}, "questions": []}
    with pytest.raises(pyengine.InputError, match="puts_next_villain"):
        pyengine.answer(table)

