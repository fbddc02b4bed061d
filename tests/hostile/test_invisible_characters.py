"""Invisible and decomposed characters never make another card (issue 49, class 2): the title key drops format
characters, variation selectors and the combining grapheme joiner, the exact-title reading compares composed and
trimmed titles, a card defined with an invisible character in its title is refused where it is written, and every
printed line escapes such characters."""

from __future__ import annotations

import unicodedata

import pytest

from pyengine import api
from pyengine.core.errors import InputError
from pyengine.core.text import exact_title, printable, title_key
from pyengine.games.marvel.facts import loose_key

# Each prints nothing of its own: soft hyphen, zero-width space, non-joiner, joiner, left-to-right and right-to-left
# marks, right-to-left override, word joiner, byte-order mark, a variation selector, the combining grapheme joiner.
INVISIBLE = ["\u00ad", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u202e", "\u2060", "\ufeff", "\ufe0f",
             "\u034f"]


@pytest.mark.parametrize("mark", INVISIBLE, ids=[f"U+{ord(m):04X}" for m in INVISIBLE])
def test_an_invisible_character_keys_as_the_same_title(mark: str) -> None:
    for title in ("Sting", "Gandalf's Staff", "Spider-Man"):
        spoilt = title[:2] + mark + title[2:] + mark
        assert title_key(spoilt) == title_key(title)
        assert loose_key(spoilt) == loose_key(title)
        assert exact_title(spoilt) == title
        assert mark not in printable(spoilt)


def test_a_decomposed_or_padded_title_is_the_same_exact_title() -> None:
    composed = "Th\u00e9oden"
    assert exact_title(unicodedata.normalize("NFD", composed)) == composed
    assert exact_title(composed + " ") == composed
    assert title_key(unicodedata.normalize("NFD", composed)) == title_key(composed)


def _two_gandalfs(second: str, profile: str | None) -> str | None:
    """The verdict on a second unique card titled `second`, one titled 'Théoden' being in play."""
    table = {"game": "lotr",
             "cards": [{"id": "one", "title": "Th\u00e9oden", "unique": True, "type": "companion",
                        "side": "free_peoples"},
                       {"id": "two", "title": second, "subtitle": "Another", "unique": True, "type": "companion",
                        "side": "free_peoples"}],
             "players": {"alice": {"play": [{"id": "first", "card": "one"}], "hand": [{"id": "next", "card": "two"}]}},
             "questions": [{"id": "q", "ask": "play", "instance": "next"}]}
    [question] = api.answer(table, profile=profile).questions
    return question.got


@pytest.mark.parametrize("profile", [None, "wiki"])
def test_the_nfd_form_or_a_trailing_space_stops_a_second_unique_card(profile: str | None) -> None:
    """Under the exact-title reading (the wiki profile) too: the NFD form and a trailing space made another title."""
    assert _two_gandalfs(unicodedata.normalize("NFD", "Th\u00e9oden"), profile) == "illegal"
    assert _two_gandalfs("Th\u00e9oden ", profile) == "illegal"


@pytest.mark.parametrize("game, card", [
    ("lotr", {"id": "x", "title": "Sti\u200bng", "unique": True, "type": "possession", "side": "free_peoples"}),
    ("marvel", {"id": "x", "title": "Dare\u00addevil", "unique": True, "type": "ally"}),
    ("marvel", {"id": "x", "title": "Daredevil", "subtitle": "Matt\u2060 Murdock", "unique": True, "type": "ally"}),
])
def test_a_card_defined_with_an_invisible_character_is_refused_where_it_is_written(game: str, card: dict) -> None:
    table = {"game": game, "cards": [card], "players": {"alice": {}}, "questions": [
        {"id": "q", "ask": "card", "card": "x"} if game == "lotr" else
        {"id": "q", "ask": "coexist", "cards": ["x", "x"]}]}
    with pytest.raises(InputError) as raised:
        api.load(table)
    assert "holds invisible characters (U+" in raised.value.message
    assert raised.value.field is not None and raised.value.field.startswith("cards[0].")


def test_a_reference_with_an_invisible_character_finds_the_printed_card() -> None:
    """A card named in a table by a title copied with a soft hyphen is the card of that title: a second Sting is
    stopped by the first."""
    table = {"game": "lotr", "players": {"alice": {"support": [{"id": "sting", "card": "Sting"}],
                                                   "hand": [{"id": "sting-2", "card": "St\u00ading"}]}},
             "questions": [{"id": "q", "ask": "play", "instance": "sting-2"}]}
    [question] = api.answer(table).questions
    assert (question.got, question.rules) == ("illegal", ["lotr_unique_blocks_unique"])


# Every field a card's title is read from, in every game that defines cards (the Duel's layout cards have none).
TITLE_FIELDS = [("lotr", "title"), ("lotr", "subtitle"), ("marvel", "title"), ("marvel", "subtitle"),
                ("marvel", "alter_ego")]
BASE_CARDS = {"lotr": {"id": "x", "title": "Sting", "unique": True, "type": "possession", "side": "free_peoples"},
              "marvel": {"id": "x", "title": "Daredevil", "unique": True, "type": "ally"}}


@pytest.mark.parametrize("game, field", TITLE_FIELDS, ids=[f"{g}-{f}" for g, f in TITLE_FIELDS])
def test_every_title_field_of_every_game_refuses_every_invisible_character(game: str, field: str) -> None:
    """The fuzz of class 2: each invisible character, at the start, inside and at the end of each title field."""
    for mark in INVISIBLE:
        for place in (0, 2, 5):
            text = "Matt Murdock"[:place] + mark + "Matt Murdock"[place:]
            card = {**BASE_CARDS[game], field: text}
            table = {"game": game, "cards": [card], "players": {"alice": {}}, "questions": [
                {"id": "q", "ask": "card", "card": "x"} if game == "lotr" else
                {"id": "q", "ask": "coexist", "cards": ["x", "x"]}]}
            with pytest.raises(InputError) as raised:
                api.load(table)
            assert f"U+{ord(mark):04X}" in raised.value.message and raised.value.field == f"cards[0].{field}"
