"""A card named as a judge names it (issue 65, item 1): a name that several printings share resolves to the
official printing where they agree on everything the rules read (the game's rules_view), the choice kept for the
answer; where they differ, the error lists each with what sets it apart, so the judge can pick one by its id."""

from __future__ import annotations

from typing import Any

import pytest

from pyengine.core.catalog import Card, Catalog, MemoryCatalog, Printing
from pyengine.core.errors import InputError
from pyengine.core.store import open_catalog, sources
from pyengine.games import game


def _view(card: Card, _catalog: Catalog) -> frozenset[str]:
    """A stand-in rules view: the card's type and uniqueness (what these tests' printings differ in or not)."""
    return frozenset({f"card_type({card.type}).", f"unique({card.unique})."})


def _catalog(*cards: Card) -> MemoryCatalog:
    catalog = MemoryCatalog(cards)
    catalog.rules_view = _view
    return catalog


def test_printings_that_play_alike_are_the_official_one_and_the_choice_is_kept() -> None:
    errata = Card("51_50", "Legolas", "Greenleaf", unique=True, type="companion", collinfo="1R50",
                  extra={"official": False, "variant": "ERRATA", "parent": "1_50"})
    official = Card("1_50", "Legolas", "Greenleaf", unique=True, type="companion", collinfo="1R50",
                    extra={"official": True})
    catalog = _catalog(errata, official)
    for name in ("Legolas, Greenleaf", "Legolas", "1R50"):
        chosen: list[Printing] = []
        assert catalog.resolve(name, chosen=chosen) is official
        assert chosen == [Printing(name, official, (errata,))]
        assert "51_50" in chosen[0].words() and "errata of 1_50" in chosen[0].words()


def test_printings_that_differ_in_what_the_rules_read_are_listed_with_the_difference() -> None:
    possession = Card("1_313", "Sting", unique=True, type="possession", collinfo="1R313", extra={"official": True})
    artifact = Card("30_47", "Sting", unique=True, type="artifact", extra={"official": False})
    with pytest.raises(InputError) as error:
        _catalog(artifact, possession).resolve("Sting", "t.yaml", 4, 7, "players.alice.hand[0].card")
    found = error.value
    assert (found.file, found.line, found.column) == ("t.yaml", 4, 7)
    assert "1_313 (Sting, possession, 1R313)" in found.message
    assert "30_47 (Sting, artifact, unofficial; card_type artifact (not possession))" in found.message
    assert found.expected == "one of their ids: 1_313, 30_47"


def test_without_a_rules_view_a_shared_name_is_never_resolved() -> None:
    catalog = MemoryCatalog([Card("a", "Same", type="ally"), Card("b", "Same", type="ally")])
    with pytest.raises(InputError, match="cannot tell whether they play alike"):
        catalog.resolve("Same")


def _real(source: str, game_name: str) -> Catalog:
    if source not in sources():
        pytest.skip(f"the {source} pool is not imported in this session's store")
    return open_catalog(source, game(game_name).reader.builtin)


@pytest.mark.parametrize(("source", "game_name", "name", "taken", "others"), [
    ("gemp", "lotr", "Legolas, Greenleaf", "1_50", ["51_50"]),
    ("gemp", "lotr", "1R50", "1_50", ["51_50"]),
    ("marvelsdb", "marvel", "Cosmo", "17020", ["21180b"]),
])
def test_real_names_that_play_alike_resolve(source: str, game_name: str, name: str, taken: str,
                                            others: list[str]) -> None:
    chosen: list[Printing] = []
    assert _real(source, game_name).resolve(name, chosen=chosen).id == taken
    assert [c.id for c in chosen[0].others] == others


@pytest.mark.parametrize(("source", "game_name", "name", "listed"), [
    # The Hobbit set's Sting is an artifact on Bilbo; the errata and the official card agree.
    ("gemp", "lotr", "Sting", ["1_313 (Sting, possession, 1R313)", "30_47 (Sting, artifact, unofficial; card_type "
                               "artifact (not possession)", "51_313 (Sting, possession, 1R313, errata of 1_313)"]),
    # The errata of Sam drops the play of Bill the Pony from the draw deck that GEMP's script of 1_310 has.
    ("gemp", "lotr", "Sam, Faithful Companion", ["card_ability none (not plays_from_draw_deck)"]),
    ("marvelsdb", "marvel", "Hawkeye, Clint Barton", ['58013 (Hawkeye, Clint Barton, ally, pack wonder_man; '
                                                      'card_trait "shield" (not none))']),
])
def test_real_names_that_differ_list_what_differs(source: str, game_name: str, name: str, listed: list[str]) -> None:
    with pytest.raises(InputError) as error:
        _real(source, game_name).resolve(name)
    for part in listed:
        assert part in error.value.message


def test_a_scenario_names_the_printing_it_took(tmp_path: Any) -> None:
    from pyengine import api

    if "gemp" not in sources():
        pytest.skip("the gemp pool is not imported in this session's store")
    result = api.explain({"game": "lotr", "catalog": "gemp", "players": {"alice": {"hand": [
        {"id": "l", "card": "Legolas, Greenleaf"}]}}, "questions": [{"ask": "play", "instance": "l"}]})
    assert result.printings == ["'Legolas, Greenleaf' is taken as 1_50 (Legolas, Greenleaf, companion, 1R50); "
                                "51_50 (Legolas, Greenleaf, companion, 1R50, errata of 1_50) agrees with it on "
                                "everything the rules read"]
    assert "'Legolas, Greenleaf' is taken as 1_50" in result.text


def test_a_decklist_names_the_printing_it_took(cli, tmp_path: Any) -> None:
    if "gemp" not in sources():
        pytest.skip("the gemp pool is not imported in this session's store")
    deck = tmp_path / "deck.txt"
    deck.write_text("Ring-bearer: 1_290\n4 Legolas, Greenleaf\n", encoding="utf-8")
    code, out, _ = cli("deck", str(deck), "--catalog", "gemp")
    assert code == 0 and "  card name: 'Legolas, Greenleaf' is taken as 1_50 (" in out
