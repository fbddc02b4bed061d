"""What a card game's table holds, whatever the game: CardInstance, a card in its owner's zone, and CardState, the
table as read (its catalog, players, instances, decks and the parts not read), which each game's state extends."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from pyengine.core.catalog import Card, Catalog, Printing

# A game's instance, and a player's deck as the game reads it.
InstanceT = TypeVar("InstanceT")
DeckT = TypeVar("DeckT")


@dataclass
class CardInstance:
    """A card of the table: its id, its card, its owner and the zone it lies in."""

    id: str
    card: Card
    owner: str
    zone: str


@dataclass
class CardState(Generic[InstanceT, DeckT]):
    """A table as read: its catalog, its players in the scenario's order, its instances by id and each player's
    deck."""

    catalog: Catalog
    players: list[str] = field(default_factory=list)
    instances: dict[str, InstanceT] = field(default_factory=dict)
    decks: dict[str, DeckT] = field(default_factory=dict)
    # The parts of the table not read for an error of their own (hypothetical cards, instances, decks, a game's
    # parts besides): what names one of them is not checked again (errors.Unread).
    unread: set[str] = field(default_factory=set)
    # Each card name shared by printings that agree on all the rules read, and the one it was taken as.
    printings: list[Printing] = field(default_factory=list)
