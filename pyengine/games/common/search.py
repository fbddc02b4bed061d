"""What the card games' search views share: CensusSpec, how the census matches a game's real cards with the
edge-case search's abstract ones; and CardSearch, the base of a card game's search view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CensusSpec:
    """How the census (pyengine.tools.census) matches a game's real cards with the edge-case search's abstract
    ones, and which kinds of card and relations between cards it tells the search the pool has."""

    # The predicates of the search's generator (rules/search/<game>.lp) that describe its cards, not the state.
    card_predicates: frozenset[str]
    # The card facts a real card need not share with an abstract one, and those whose presence must agree both ways.
    free: frozenset[str]
    exact: frozenset[str]
    # What the encodings derive of a card from its facts alone (derived predicate -> the input it stands for), matched
    # instead of that input, and the question kinds whose encodings derive it.
    derived: dict[str, str]
    derived_kinds: tuple[str, ...]
    # The texts whose sharing between two cards the search draws only as the pool has it; the pairs of one card's
    # texts whose difference likewise; the predicates pairing two texts as one person's spellings; a text and its
    # looser key, two cards of one key spelt apart.
    shared: frozenset[str]
    differing: tuple[tuple[str, str], ...]
    aliases: frozenset[str]
    respelt: tuple[tuple[str, str], ...]
    # The texts a card of some kind may lack, drawn by the search only for kinds the pool has them on (a subtitle).
    present: frozenset[str]
    # The card types that may stand for one another (the verdicts of the real tables decide whether they do).
    type_families: dict[str, str]
    # The card facts holding a number (an "at most N" count) that the search draws only as some card of the pool has.
    counted: frozenset[str] = frozenset()


class CardSearch:
    """A card game's search view, in what the card games share: every state of a card game can be flipped."""

    def flip_refusal(self, state: Any) -> str | None:
        """Why `flip` cannot search this state, or None: a card game's states are all searched."""
        return None
