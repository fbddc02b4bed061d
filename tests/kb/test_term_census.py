"""The census of terms (pyengine census --terms): on each real pool no term of a card's data that can bear on a
question is dropped, every rule the census names exists, and docs/terms.md shows the census as it is now."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import GEMP_CARDS, MARVELSDB, ROOT
from pyengine.core import kb as kbase
from pyengine.tools.term_census import markdown, term_census

POOLS = {"gemp": ("lotr", GEMP_CARDS), "marvelsdb": ("marvel", MARVELSDB)}
DOC = ROOT / "docs" / "terms.md"


def _census(source: str):
    game, path = POOLS[source]
    if not Path(path).is_dir():
        pytest.skip(f"the real {source} data is not at {path}")
    return game, term_census(source, path)


@pytest.mark.parametrize("source", sorted(POOLS))
def test_no_term_is_dropped(source: str) -> None:
    _game, result = _census(source)
    assert result.cards > 1000
    assert result.dropped() == []


@pytest.mark.parametrize("source", sorted(POOLS))
def test_every_rule_the_census_names_exists(source: str) -> None:
    game, result = _census(source)
    rules = kbase.load(game).rules
    named = {entry["rule"] for (_kind, _term, status), entry in result.terms.items() if status in ("read", "named")}
    assert named and not named - set(rules)


@pytest.mark.parametrize("source", sorted(POOLS))
def test_the_docs_page_shows_the_census_as_it_is(source: str) -> None:
    _game, result = _census(source)
    page = DOC.read_text(encoding="utf-8")
    found = re.search(rf"<!-- census {source} -->\n(.*?)<!-- end census {source} -->", page, re.DOTALL)
    assert found, f"docs/terms.md has no census section for {source}"
    assert found[1] == markdown(result), f"run: pyengine census --game {POOLS[source][0]} --terms PATH --report FILE"


def test_a_dropped_field_is_counted(tmp_path: Path) -> None:
    cards = tmp_path / "cards" / "official" / "set01"
    cards.mkdir(parents=True)
    (cards / "one.hjson").write_text('{"1_1": {"title": "A", "type": "Event", "side": "shadow", "culture": "moria", '
                                     '"printedRuling": "none"}}', encoding="utf-8")
    result = term_census("gemp", tmp_path)
    assert result.dropped() == [("field", "printedRuling")]


@pytest.mark.parametrize("game", ["lotr", "marvel"])
def test_every_rule_the_search_cannot_draw_fires_in_a_real_card_scenario(game: str) -> None:
    """A rule declared data-only (rule_data_only/1: the edge-case search draws no card data for it) is named in the
    expected reasons of some scenario file, which the suite answers on the real cards."""
    data_only = sorted(r.id for r in kbase.load(game).rules.values() if r.data_only)
    expected = " ".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests" / "scenarios").rglob("*.yaml"))
    assert [rule for rule in data_only if not re.search(rf"rules: \[[^\]]*\b{rule}\b", expected)] == []
