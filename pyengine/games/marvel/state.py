"""Marvel Champions' vocabulary (card types, zones, an identity's faces, the encounter) and the state a table reads
into (State, its Instances), with the faces of an identity, which every part of the game shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyengine.core.catalog import Card, Catalog
from pyengine.games.common.state import CardInstance, CardState

# The game's name in the registry.
NAME = "marvel"
TYPES = ("hero", "alter_ego", "ally", "minion", "villain", "support", "upgrade", "event", "resource", "attachment",
         "treachery", "side_scheme", "main_scheme", "environment", "obligation", "player_side_scheme", "leader",
         "evidence_means", "evidence_motive", "evidence_opportunity")
ZONES = ("play", "hand", "deck", "discard")
FACES = ("hero", "alter_ego")
ENCOUNTER = "encounter"
# The encounter's zones: its cards in play, the encounter deck, its discard pile, the cards set aside and the
# villain deck (the villains still to come, the next on top).
ENCOUNTER_ZONES = ("play", "deck", "discard", "set_aside", "villain_deck")


@dataclass
class Instance(CardInstance):
    """A card of the table in a player's (or the encounter's) zone; an identity with the face it shows."""

    face: Card | None = None


@dataclass
class State(CardState[Instance, dict[str, Any]]):
    """A table as read, with the codes its decklists name reprints by."""

    # A card named in a decklist by the code of one of its reprints: card id -> the code the user wrote.
    written: dict[str, str] = field(default_factory=dict)
    # Its actions in order (pyengine.games.marvel.actions.Action; None for one not read): none, a table of one moment.
    actions: list[Any] = field(default_factory=list)


def faces(card: Card, catalog: Catalog) -> list[tuple[Card, str]]:
    """Every face of the identity whose hero card is `card`: its hero forms, the named cards linked to it (a
    two-card identity's other card, shown with the hero side) and its alter ego."""
    found = [(card, "hero")]
    found += [(catalog.get(f), "hero") for f in card.extra.get("forms") or [] if f in catalog]
    found += [(catalog.get(f), "hero") for f in card.extra.get("linked_faces") or [] if f in catalog]
    alter_ego = card.extra.get("alter_ego")
    if alter_ego and alter_ego in catalog:
        found.append((catalog.get(alter_ego), "alter_ego"))
    return found
