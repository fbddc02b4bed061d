"""Card catalogs and card references.

A scenario names a card by catalog id (`1_313`), by collector's info (`1R313`), by exact title and subtitle
(`Boromir, Lord of Gondor`), by title alone when only one card has it, or as an inline hypothetical card.
Resolving a name is lookup, not rules: two cards with the same title are never merged here; whether they
are the same card is for the encodings to decide.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from pyengine.errors import InputError, closest
from pyengine.text import title_key


@dataclass(frozen=True)
class Card:
    id: str
    title: str
    subtitle: str | None = None
    unique: bool = False
    side: str | None = None
    type: str = ""
    culture: str | None = None
    collinfo: str | None = None
    split: int | None = None
    abilities: tuple[str, ...] = ()
    translation_of: str | None = None
    hypothetical: bool = False
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def full_name(self) -> str:
        return f"{self.title}, {self.subtitle}" if self.subtitle else self.title

    def label(self) -> str:
        dot = "\u2022" if self.unique else ""
        info = self.collinfo or self.id
        return f"{dot}{self.full_name} ({info})"


class Catalog:
    """Cards by id, with indexes for every way a scenario may name one."""

    def __init__(self, cards: Iterable[Card] = ()):
        self.cards: dict[str, Card] = {}
        self._by_code: dict[str, list[str]] = defaultdict(list)
        self._by_name: dict[str, list[str]] = defaultdict(list)
        for card in cards:
            self.add(card)

    def add(self, card: Card) -> None:
        self.cards[card.id] = card
        if card.collinfo:
            self._by_code[card.collinfo.casefold()].append(card.id)
        for name in {card.full_name, card.title}:
            self._by_name[title_key(name)].append(card.id)

    def extended(self, cards: Iterable[Card]) -> Catalog:
        """A copy of this catalog with more cards (a scenario's hypothetical cards)."""
        copy = Catalog(self.cards.values())
        for card in cards:
            copy.add(card)
        return copy

    def __contains__(self, card_id: str) -> bool:
        return card_id in self.cards

    def get(self, card_id: str) -> Card:
        return self.cards[card_id]

    def resolve(self, ref: str, file: str | None = None, line: int | None = None, column: int | None = None,
                field_name: str | None = None) -> Card:
        """The one card a reference names, or an InputError with suggestions or the candidates."""
        if ref in self.cards:
            return self.cards[ref]
        for index in (self._by_code.get(ref.casefold(), []), self._exact_full_name(ref),
                      self._by_name.get(title_key(ref), [])):
            ids = sorted(set(index))
            if len(ids) == 1:
                return self.cards[ids[0]]
            if len(ids) > 1:
                names = ", ".join(f"{i} ({self.cards[i].full_name})" for i in ids[:8])
                raise InputError(f"card {ref!r} is ambiguous: {names}", file=file, line=line, column=column,
                                 field=field_name, expected="a card id, a collector's info or a title with subtitle")
        choices = [*self.cards, *(c.full_name for c in self.cards.values()),
                   *(c.collinfo for c in self.cards.values() if c.collinfo)]
        raise InputError(f"unknown card {ref!r}", file=file, line=line, column=column, field=field_name,
                         expected="a card id, a collector's info or a title in the catalog",
                         suggestion=closest(ref, choices))

    def _exact_full_name(self, ref: str) -> list[str]:
        return [c.id for c in self.cards.values() if c.full_name == ref]
